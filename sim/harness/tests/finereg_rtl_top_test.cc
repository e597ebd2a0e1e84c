// The finereg hierarchy's system top in the loop (`--rtl-top`, label "rtl":
// sim/harness/transactors/finereg_system_top.cc): the SM harness drives the Verilated
// finereg_system top (ACRF + PCRF + RMU of one lane cluster) with the kernel's operand reads and
// result writes and the FineReg system's switches as save / restore commands, on
// configs/examples/finereg.yaml with one SM and a 64-entry PCRF (rtl_points::FineRegSmallPcrf):
//   - a switching kernel (reduction) runs in lockstep with the top's golden model with zero
//     divergence; the timing, counts and FineReg statistics are the models-only run's; every
//     register the system restores is walked back by the top and read back equal to the row
//     saved, and the dispatched rows are checked against the kernel's values;
//   - planted divergences: a golden model with a flipped dispatch bit, a golden model whose
//     restore engine writes the wrong register, and (RTL alone) a corrupted kernel value, each
//     reported with the SM cycle, the signal, expected and actual;
//   - the CLI: `gpurf sim --lockstep --rtl-top` passes, says so and writes
//     "rtl_granularity": "system".
// Regression: the top's assertion-only per-CTA count array did not Verilate with FineReg's 128
// CTA slots (BLKLOOPINIT); every test here builds the top with 128.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "gen/structures/finereg_system/finereg_system_spec.h"
#include "models/finereg_system_model.h"
#include "models/registry.h"
#include "sim/harness/driver.h"
#include "sim/harness/tests/rtl_test_points.h"

namespace gpurf::harness {
namespace {

using rtl_points::CorruptFirstResult;
using rtl_points::ExpectMentions;
using rtl_points::Extra;
using rtl_points::FineRegSmallPcrf;
using rtl_points::FlipBit;
using rtl_points::Kernel;
using rtl_points::OneSm;

DriverOptions TopOptions(RfMode mode) {
  DriverOptions o = OneSm(mode);
  o.rtl.top = true;
  return o;
}

TEST(FineRegRtlTop, SwitchingKernelRunsInLockstep) {
  const DesignSpec d = FineRegSmallPcrf();
  const WorkloadKernel& wk = Kernel("reduction");
  const DesignResult models = RunDesign(d, {wk}, OneSm(RfMode::kModels));
  DesignResult rtl;
  ASSERT_NO_THROW(rtl = RunDesign(d, {wk}, TopOptions(RfMode::kLockstep)));
  ASSERT_TRUE(rtl.rtl_skipped.empty()) << rtl.rtl_skipped.front().reason;
  EXPECT_TRUE(rtl.rtl_top);
  EXPECT_EQ(rtl.cycles, models.cycles);
  EXPECT_EQ(rtl.warp_instructions, models.warp_instructions);
  EXPECT_EQ(rtl.counts.events, models.counts.events);
  ASSERT_EQ(rtl.kernels.size(), 1u);
  const RfStats& s = rtl.kernels[0].rf;
  EXPECT_EQ(s.extra, models.kernels[0].rf.extra);
  EXPECT_GT(Extra(s, "switches"), 0u);
  EXPECT_GT(Extra(s, "restored entries"), 0u);
  // Every register the system restored came back through the top and was read back.
  EXPECT_EQ(rtl.activity.restored_rows, Extra(s, "restored entries"));
  EXPECT_GT(rtl.activity.value_checks, 1000u);
  EXPECT_GT(rtl.activity.rtl_cycles, 0u);
}

TEST(FineRegRtlTop, FlippedDispatchBitIsReportedInLockstep) {
  DriverOptions o = TopOptions(RfMode::kLockstep);
  o.rtl.make_model = [](const StructureSpec& s) -> std::unique_ptr<CycleModel> {
    return std::make_unique<FlipBit>(MakeModel(s), FineregSystemModel::kDispData, 5, 200);
  };
  try {
    RunDesign(FineRegSmallPcrf(), {Kernel("reduction")}, o);
    FAIL() << "the flipped bit was not caught";
  } catch (const RtlDivergence& e) {
    ExpectMentions(e.what(), {"divergence at SM cycle", "in finereg_system (rf_finereg_sys_",
                              "kernel reduction", "RTL and golden model differ",
                              "signal disp_data_o", "expected", "actual"});
  }
}

// A golden model whose restore engine writes register r ^ 1: its S1 check names the register
// at the first restore of the run.
TEST(FineRegRtlTop, RestoreIntoTheWrongRegisterIsReportedInLockstep) {
  DriverOptions o = TopOptions(RfMode::kLockstep);
  o.rtl.make_model = [](const StructureSpec& s) -> std::unique_ptr<CycleModel> {
    auto m = std::make_unique<FineregSystemModel>(SpecAs<FineregSystemSpec>(s));
    m->InjectFault(FineregSystemModel::Fault::kRestoreWrongReg);
    return m;
  };
  try {
    RunDesign(FineRegSmallPcrf(), {Kernel("reduction")}, o);
    FAIL() << "the wrong restore was not caught";
  } catch (const RtlDivergence& e) {
    ExpectMentions(e.what(), {"divergence at SM cycle", "in finereg_system (rf_finereg_sys_",
                              "kernel reduction", "golden model invariant violated: S1",
                              "was restored into r1"});
  }
}

TEST(FineRegRtlTop, CorruptedKernelValueIsReportedInRtlMode) {
  const WorkloadKernel& wk = Kernel("reduction");
  const sim::KernelRun run = CorruptFirstResult(wk);
  ASSERT_FALSE(run.warps.empty());
  try {
    RunDesign(FineRegSmallPcrf(), {{"reduction", wk.kernel, &run}}, TopOptions(RfMode::kRtl));
    FAIL() << "the corrupted value was not caught";
  } catch (const RtlDivergence& e) {
    ExpectMentions(e.what(), {"divergence at SM cycle", "in finereg_system", "disp_data_o",
                              "expected", "actual"});
  }
}

class FineRegRtlTopCli : public rtl_points::RtlCliFixture {
 protected:
  FineRegRtlTopCli() : RtlCliFixture("gpurf_finereg_rtl_top_cli_") {}
};

TEST_F(FineRegRtlTopCli, LockstepTopPassesAndSaysSo) {
  std::string text = test::Slurp(GPURF_SOURCE_DIR "/configs/examples/finereg.yaml");
  const std::string from = "pcrf_bytes: 131072";
  ASSERT_NE(text.find(from), std::string::npos);
  text.replace(text.find(from), from.size(), "pcrf_bytes: 8192");
  const std::string d = Write("finereg_small.yaml", text);
  const std::string json = (dir_ / "r.json").string();
  const test::CliResult r =
      Run(fmt::format("sim {} -w reduction --sms 1 --lockstep --rtl-top --json {}", d, json));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("in lockstep with its golden model, zero divergence"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("rows walked out of the PCRF RTL"), std::string::npos) << r.out;
  const std::string j = test::Slurp(json);
  EXPECT_NE(j.find("\"rtl_granularity\": \"system\""), std::string::npos) << j;
  EXPECT_NE(j.find("\"rf_mode\": \"lockstep\""), std::string::npos) << j;
}

// A FineReg design without a PCRF has no finereg_system top: exit 2 naming the field and why.
TEST_F(FineRegRtlTopCli, DesignWithoutPcrfTopExitsTwo) {
  std::string text = test::Slurp(GPURF_SOURCE_DIR "/configs/examples/finereg.yaml");
  const std::string from = "switch_target: pcrf";
  ASSERT_NE(text.find(from), std::string::npos);
  text.replace(text.find(from), from.size(), "switch_target: dram");
  const std::string d = Write("finereg_dram.yaml", text);
  const test::CliResult r = Run(fmt::format("sim {} -w vectorAdd --sms 1 --rtl-top", d));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("finereg_dram.yaml:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("hierarchy"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("needs switch_target: pcrf"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace gpurf::harness
