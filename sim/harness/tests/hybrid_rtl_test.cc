// The hybrid register cache / scratchpad with its RTL in the loop (label "rtl"): every
// scheduler's hybrid-rc (one per register-file partition of the gtx980's SMs) driven with the
// kernel's traffic and values by the hybrid-rc transactor, beside the golden model (lockstep).
//   - Bailey's design (configs/examples/bailey_hybrid.yaml, hierarchical) and the parallel-evict
//     organization on corpus kernels on one SM: zero divergence, the counts and the timing of
//     the models-only run, RC and RSP rows checked against the kernel's values.
//   - A golden model with a flipped rd_hit_o bit, and a kernel whose recorded result is
//     corrupted, stop the run with a report naming the SM cycle, structure, signal, expected and
//     actual values.
//   - Bailey's RC-only and RSP-only points at the same 12 KB (configs/examples/bailey_rc_only.yaml:
//     12 RC sets per scheduler, not a power of two; bailey_rsp_only.yaml: no RC) in lockstep:
//     zero divergence, the models-only counts, and only the structure the point has moves data.
//   - A point whose per-scheduler share the family cannot build (a 32-byte RSP) refuses --rtl
//     with the file, line and reason (exit 2).

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

#include "base/fs.h"
#include "gen/config/yaml_loader.h"
#include "gen/structures/hybrid_rc/hybrid_rc_ports.h"
#include "gen/structures/hybrid_rc/hybrid_rc_spec.h"
#include "models/registry.h"
#include "sim/harness/driver.h"
#include "sim/harness/tests/rtl_test_points.h"

namespace gpurf::harness {
namespace {

using rtl_points::ExpectMentions;
using rtl_points::FlipBit;
using rtl_points::Kernel;
using rtl_points::Options;

std::string Example(const std::string& name) {
  return std::string(GPURF_SOURCE_DIR) + "/configs/examples/" + name + ".yaml";
}

// The gtx980 with one SM (four register-file partitions, four hybrid-rc instances).
DriverOptions OneSm(RfMode mode) {
  DriverOptions o = Options(mode);
  o.gpu.sms = 1;
  return o;
}

uint64_t Sum(const std::array<uint64_t, energy::kNumUnits>& a) {
  uint64_t s = 0;
  for (uint64_t v : a)
    s += v;
  return s;
}

class HybridLockstep : public testing::TestWithParam<std::string> {};

TEST_P(HybridLockstep, ZeroDivergenceAndTheModelsCounts) {
  const DesignSpec d = LoadDesign(Example(GetParam()));
  // Regression (vectorAdd): a live-out whose last access is a read (setp R7 then `wb R7`) went
  // to the RC at the setp's completion, after the next strand's mul had read R7 from the MRF.
  for (const char* kname : {"vectorAdd", "histogram"}) {
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
      const auto& a = rtl.counts.levels[l];
      const auto& b = models.counts.levels[l];
      EXPECT_EQ(a.reads, b.reads) << l;
      EXPECT_EQ(a.writes, b.writes) << l;
      EXPECT_EQ(a.writebacks, b.writebacks) << l;
      EXPECT_EQ(a.drains, b.drains) << l;
      EXPECT_EQ(a.fills, b.fills) << l;
    }
    EXPECT_EQ(rtl.counts.events, models.counts.events);
    EXPECT_TRUE(rtl.values);
    EXPECT_GT(rtl.activity.value_checks, rtl.warp_instructions / 4);
    // The RC (toggles counted at L0) and the RSP (L1) both moved data.
    const auto& rc = rtl.counts.levels.at(static_cast<size_t>(rtl.energies.LevelIndex("RC")));
    const auto& rsp = rtl.counts.levels.at(static_cast<size_t>(rtl.energies.LevelIndex("RSP")));
    EXPECT_GT(Sum(rc.reads) + Sum(rc.writes), 0U);
    EXPECT_GT(Sum(rsp.reads) + Sum(rsp.writes), 0U);
    EXPECT_GT(rtl.activity.level[static_cast<size_t>(ActivityLevel::kL0)].transfers, 0U);
    EXPECT_GT(rtl.activity.level[static_cast<size_t>(ActivityLevel::kL1)].transfers, 0U);
  }
}

INSTANTIATE_TEST_SUITE_P(Organizations, HybridLockstep,
                         testing::Values("bailey_hybrid", "bailey_hybrid_parallel"),
                         [](const auto& p) { return p.param; });

class HybridComparisonPoint : public testing::TestWithParam<std::string> {};

TEST_P(HybridComparisonPoint, ZeroDivergenceAndOnlyItsStructureMovesData) {
  const DesignSpec d = LoadDesign(Example(GetParam()));
  const bool has_rc = d.hierarchy.rc_bytes > 0, has_rsp = d.hierarchy.rsp_bytes > 0;
  for (const char* kname : {"vectorAdd", "histogram"}) {
    SCOPED_TRACE(kname);
    const WorkloadKernel& wk = Kernel(kname);
    const DesignResult models = RunDesign(d, {wk}, OneSm(RfMode::kModels));
    DesignResult rtl;
    ASSERT_NO_THROW(rtl = RunDesign(d, {wk}, OneSm(RfMode::kLockstep)));
    ASSERT_TRUE(rtl.rtl_skipped.empty()) << rtl.rtl_skipped.front().reason;
    EXPECT_EQ(rtl.cycles, models.cycles);
    EXPECT_EQ(rtl.warp_instructions, models.warp_instructions);
    EXPECT_EQ(rtl.counts.events, models.counts.events);
    EXPECT_TRUE(rtl.values);
    EXPECT_GT(rtl.activity.value_checks, rtl.warp_instructions / 4);
    const auto& rc = rtl.counts.levels.at(static_cast<size_t>(rtl.energies.LevelIndex("RC")));
    const auto& rsp = rtl.counts.levels.at(static_cast<size_t>(rtl.energies.LevelIndex("RSP")));
    EXPECT_EQ(Sum(rc.reads) + Sum(rc.writes) > 0, has_rc);
    EXPECT_EQ(Sum(rsp.reads) + Sum(rsp.writes) > 0, has_rsp);
    // RSP reads and writes toggle L1; RC reads, writes and every write-back L0.
    EXPECT_EQ(rtl.activity.level[static_cast<size_t>(ActivityLevel::kL1)].transfers > 0, has_rsp);
    EXPECT_GT(rtl.activity.level[static_cast<size_t>(ActivityLevel::kL0)].transfers, 0U);
  }
}

INSTANTIATE_TEST_SUITE_P(Bailey, HybridComparisonPoint,
                         testing::Values("bailey_rc_only", "bailey_rsp_only"),
                         [](const auto& p) { return p.param; });

TEST(HybridLockstepMutation, FlippedRcHitIsReported) {
  const DesignSpec d = LoadDesign(Example("bailey_hybrid"));
  DriverOptions o = OneSm(RfMode::kLockstep);
  o.rtl.make_model = [](const StructureSpec& s) -> std::unique_ptr<CycleModel> {
    if (s.If<HybridRcSpec>() != nullptr)
      return std::make_unique<FlipBit>(MakeModel(s), HybridRcPort::kRdHit, 0, 40);
    return MakeModel(s);
  };
  try {
    RunDesign(d, {Kernel("vectorAdd")}, o);
    FAIL() << "the flipped hit was not caught";
  } catch (const RtlDivergence& e) {
    ExpectMentions(e.what(), {"divergence at SM cycle", "in hybrid_rc", "its RTL cycle",
                              "RTL and golden model differ", "signal rd_hit_o", "expected",
                              "actual", "kernel vectorAdd"});
  }
}

TEST(HybridLockstepMutation, CorruptedKernelValueIsReportedInRtlMode) {
  const WorkloadKernel& wk = Kernel("matrixMul");
  const sim::KernelRun run = rtl_points::CorruptFirstResult(wk);
  ASSERT_FALSE(run.warps.empty());
  const DesignSpec d = LoadDesign(Example("bailey_hybrid"));
  try {
    RunDesign(d, {{"matrixMul", wk.kernel, &run}}, OneSm(RfMode::kRtl));
    FAIL() << "the corrupted value was not caught";
  } catch (const RtlDivergence& e) {
    ExpectMentions(e.what(), {"divergence at SM cycle", "another row than the register holds",
                              "expected", "actual", "warp", "instruction"});
  }
}

class HybridRtlCli : public rtl_points::RtlCliFixture {
 protected:
  HybridRtlCli() : RtlCliFixture("gpurf_hybrid_rtl_cli_") {}
};

TEST_F(HybridRtlCli, LockstepOnBaileysDesign) {
  const test::CliResult r =
      Run(fmt::format("sim {} -w vectorAdd --lockstep --sms 1", Example("bailey_hybrid")));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("zero divergence"), std::string::npos) << r.out;
}

TEST_F(HybridRtlCli, PointsTheFamilyDoesNotBuildRefuseTheRtlWithTheReason) {
  // 128 bytes of RSP per SM: 32 bytes per scheduler, not one register.
  std::string text = ReadFile(Example("bailey_hybrid"));
  const size_t at = text.find("rsp_bytes: 4096");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 15, "rsp_bytes: 128");
  {
    const std::string path = Write("tiny_rsp.yaml", text);
    const test::CliResult r = Run(fmt::format("sim {} -w vectorAdd --rtl", path));
    EXPECT_EQ(r.code, 2) << r.out << r.err;
    ExpectMentions(r.err, {".yaml:", "hierarchy", "hybrid_rc",
                           "the hybrid-rc family cannot "
                           "build"});
  }
}

}  // namespace
}  // namespace gpurf::harness
