// The finereg hierarchy with its ACRF (the MRF) as RTL in the loop (label "rtl"), on the
// configs/examples/finereg.yaml design point with one SM and a 64-entry PCRF (the example's
// 1024-entry PCRF takes minutes to verilate: soak_finereg_corpus_lockstep runs it):
//   - Regression: vectorAdd stopped at SM cycle 17 (R8 read 0) because the FineReg system never
//     reported its result writes to the loop; now zero divergence, rows checked.
//   - Kernels that switch CTAs (reduction, scalarProd) run in lockstep with zero divergence:
//     every operand read, those after a restore included, is checked against the kernel's
//     values; the timing, counts and FineReg statistics are the models-only run's. Regressions
//     for the loop not forwarding the CTA-switching limit (waiting CTAs issued), the ACRF being
//     addressed by warp % sm.warps (running warps sharing an MRF context), and restored rows not
//     written to the CTA's new ACRF slots. The PCRF, vector cache and CTA status monitor are in
//     the loop too (finereg_loop_test.cc has their mutations): every restored entry is walked
//     out of the PCRF RTL.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

#include "gen/config/yaml_loader.h"
#include "sim/harness/driver.h"
#include "sim/harness/tests/rtl_test_points.h"

namespace gpurf::harness {
namespace {

using rtl_points::Extra;
using rtl_points::FineRegSmallPcrf;
using rtl_points::Kernel;
using rtl_points::OneSm;

TEST(FineRegRtl, ResultWritesReachTheMrf) {
  const DesignSpec d = FineRegSmallPcrf();
  DesignResult r;
  ASSERT_NO_THROW(r = RunDesign(d, {Kernel("vectorAdd")}, OneSm(RfMode::kLockstep)));
  ASSERT_TRUE(r.rtl_skipped.empty()) << r.rtl_skipped.front().reason;
  EXPECT_GT(r.activity.value_checks, 1000u);
}

TEST(FineRegRtl, SwitchingKernelsRestoreTheKernelsValues) {
  const DesignSpec d = FineRegSmallPcrf();
  for (const char* kname : {"reduction", "scalarProd"}) {
    SCOPED_TRACE(kname);
    const WorkloadKernel& wk = Kernel(kname);
    const DesignResult models = RunDesign(d, {wk}, OneSm(RfMode::kModels));
    DesignResult rtl;
    ASSERT_NO_THROW(rtl = RunDesign(d, {wk}, OneSm(RfMode::kLockstep)));
    ASSERT_TRUE(rtl.rtl_skipped.empty()) << rtl.rtl_skipped.front().reason;
    EXPECT_EQ(rtl.cycles, models.cycles);
    EXPECT_EQ(rtl.warp_instructions, models.warp_instructions);
    ASSERT_EQ(rtl.counts.levels.size(), models.counts.levels.size());
    for (size_t l = 0; l < rtl.counts.levels.size(); ++l) {
      EXPECT_EQ(rtl.counts.levels[l].reads, models.counts.levels[l].reads) << l;
      EXPECT_EQ(rtl.counts.levels[l].writes, models.counts.levels[l].writes) << l;
    }
    EXPECT_EQ(rtl.counts.events, models.counts.events);
    ASSERT_EQ(rtl.kernels.size(), 1u);
    ASSERT_EQ(models.kernels.size(), 1u);
    const RfStats& s = rtl.kernels[0].rf;
    EXPECT_EQ(s.extra, models.kernels[0].rf.extra);
    EXPECT_GT(Extra(s, "switches"), 0u);
    EXPECT_GT(Extra(s, "restored entries"), 0u);
    EXPECT_GT(rtl.activity.value_checks, 1000u);
    // The PCRF RTL returned every restored entry.
    EXPECT_EQ(rtl.activity.restored_rows, Extra(s, "restored entries"));
    EXPECT_EQ(rtl.activity.vector_lookups, Extra(s, "vector lookups"));
  }
}

}  // namespace
}  // namespace gpurf::harness
