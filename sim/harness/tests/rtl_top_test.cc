// RTL in the loop at system granularity (sim/harness/rtl_top.h, `--rtl-top`), label "rtl": the
// SM harness drives the Verilated rf_system top of small design points through its request
// interface, with the kernels' recorded register values.
//   - Lockstep matrix: 4 corpus kernels x 3 hierarchies (MRF only, HW RFC 1 level, SW ORF 3
//     levels with a split L0): the top against RfSystemCycleModel every cycle, every dispatched
//     operand row compared with the kernel's value, the top's counters with the C++ models'
//     decisions, zero divergence; the timing and counts are those of the C++ models run, and the
//     data ports of every level in use toggle.
//   - Mutations: a golden model with one flipped dispatch-data bit (lockstep), and a corrupted
//     recorded result value (RTL alone), each stop the run with a report naming the SM cycle,
//     warp, instruction (PC, opcode), signal, expected and actual value.
//   - `gpurf sim --lockstep --rtl-top`: output, JSON, and exit 2 for a top with fewer slots than
//     the SM schedules at once.
// The design points are those of rtl_loop_test.cc (8 warps, 4 active, 4 MRF banks of 64 rows per
// lane cluster); the three rf_system builds are cached in the build tree.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>

#include "gen/config/yaml_loader.h"
#include "models/rf_system_model.h"
#include "sim/harness/driver.h"
#include "sim/harness/tests/rtl_test_points.h"
#include "sim/tests/cli_fixture.h"
#include "sim/workload/launch.h"
#include "verif/verify.h"

namespace gpurf::harness {
namespace {

namespace fs = std::filesystem;

using rtl_points::Design;
using rtl_points::DesignText;
using rtl_points::Hierarchies;
using rtl_points::Kernel;
using rtl_points::kKernels;

// At system granularity unless told otherwise.
DriverOptions Options(RfMode mode, bool top = true) {
  return rtl_points::Options(mode, top);
}

class TopLockstepMatrix : public testing::TestWithParam<std::string> {};

TEST_P(TopLockstepMatrix, ZeroDivergenceAndTheModelsCounts) {
  const DesignSpec d = Design(GetParam());
  for (const char* kname : kKernels) {
    SCOPED_TRACE(kname);
    const WorkloadKernel& wk = Kernel(kname);
    ASSERT_TRUE(wk.run->warps.front().has_values);
    const DesignResult models = RunDesign(d, {wk}, Options(RfMode::kModels, false));
    DesignResult rtl;
    ASSERT_NO_THROW(rtl = RunDesign(d, {wk}, Options(RfMode::kLockstep)));
    EXPECT_TRUE(rtl.rtl_top);
    // The top changes neither the timing nor the counts of the C++ models.
    EXPECT_EQ(rtl.cycles, models.cycles);
    EXPECT_EQ(rtl.warp_instructions, models.warp_instructions);
    ASSERT_EQ(rtl.counts.levels.size(), models.counts.levels.size());
    for (size_t l = 0; l < rtl.counts.levels.size(); ++l) {
      const auto& a = rtl.counts.levels[l];
      const auto& b = models.counts.levels[l];
      EXPECT_EQ(a.reads, b.reads) << l;
      EXPECT_EQ(a.writes, b.writes) << l;
      EXPECT_EQ(a.writebacks, b.writebacks) << l;
    }
    EXPECT_EQ(rtl.counts.events, models.counts.events);
    // Operand rows were checked against the kernel, and every level in use moved data.
    EXPECT_TRUE(rtl.values);
    EXPECT_GT(rtl.activity.value_checks, rtl.warp_instructions / 2);
    EXPECT_GT(rtl.activity.rtl_cycles, rtl.warp_instructions);
    for (size_t l = 0; l < rtl.activity.level.size(); ++l) {
      const std::string name = DataActivity::LevelName(l);
      const auto& c = rtl.counts.levels.at(static_cast<size_t>(rtl.energies.LevelIndex(name)));
      const auto& a = rtl.activity.level[l];
      const uint64_t used = c.reads[0] + c.reads[1] + c.writes[0] + c.writes[1];
      EXPECT_EQ(a.transfers > 0, used > 0) << name;
      if (used > 0) {
        EXPECT_GT(a.toggles, 0U) << name;
        EXPECT_LT(a.Activity(), 0.5) << "kernel values toggle fewer bits than random data";
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Hierarchies, TopLockstepMatrix,
                         testing::Values("mrf_only", "hw_rfc_1", "sw_orf_3"),
                         [](const auto& p) { return p.param; });

// A golden model whose output `port` has bit `bit` flipped in the `nth` cycle where that bit is
// defined (and every cycle after it).
using rtl_points::CorruptFirstResult;
using rtl_points::ExpectMentions;
using rtl_points::FlipBit;

TEST(RtlTopMutation, FlippedDispatchBitIsReportedInLockstep) {
  const DesignSpec d = Design("sw_orf_3");
  DriverOptions o = Options(RfMode::kLockstep);
  o.rtl.make_model = [](const StructureSpec& s) -> std::unique_ptr<CycleModel> {
    return std::make_unique<FlipBit>(MakeModel(s), RfSystemCycleModel::kDispData, 3, 50);
  };
  try {
    RunDesign(d, {Kernel("histogram")}, o);
    FAIL() << "the flipped bit was not caught";
  } catch (const RtlDivergence& e) {
    const std::string m = e.what();
    ExpectMentions(m, {"divergence at SM cycle", "in rf_system (rf_sys_", "kernel histogram",
                       "warp ", " at PC 0x", "RTL and golden model differ", "signal disp_data_o",
                       "expected", "actual"});
  }
}

TEST(RtlTopMutation, CorruptedKernelValueIsReportedInRtlMode) {
  // The recorded result of the first instruction that writes a register is flipped in lane 0:
  // the top dispatches a row the kernel never read.
  const WorkloadKernel& wk = Kernel("vectorAdd");
  const sim::Kernel& k = *wk.kernel;
  const sim::KernelRun run = CorruptFirstResult(wk);
  ASSERT_FALSE(run.warps.empty());
  try {
    RunDesign(Design("hw_rfc_1"), {{"vectorAdd", &k, &run}}, Options(RfMode::kRtl));
    FAIL() << "the corrupted value was not caught";
  } catch (const RtlDivergence& e) {
    const std::string m = e.what();
    ExpectMentions(m, {"in rf_system", "disp_data_o operand",
                       "another row than the register holds for the kernel"});
  }
}

class RtlTopCli : public rtl_points::RtlCliFixture {
 protected:
  RtlTopCli() : RtlCliFixture("gpurf_rtl_top_cli_") {}
};

TEST_F(RtlTopCli, LockstepTopPassesAndSaysSo) {
  const std::string d = Write("sw.yaml", DesignText(Hierarchies().at("sw_orf_3")));
  const std::string json = (dir_ / "r.json").string();
  const test::CliResult r =
      Run(fmt::format("sim {} -w transpose --lockstep --rtl-top --json {}", d, json));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("rf_system top in lockstep with its golden model, zero divergence"),
            std::string::npos)
      << r.out;
  const std::string j = test::Slurp(json);
  EXPECT_NE(j.find("\"rf_mode\": \"lockstep\""), std::string::npos) << j;
  EXPECT_NE(j.find("\"rtl_granularity\": \"system\""), std::string::npos) << j;
  // Alone, --rtl-top means --rtl.
  const test::CliResult e = Run(fmt::format("energy {} -w vectorAdd --rtl-top", d));
  ASSERT_EQ(e.code, 0) << e.err;
  EXPECT_NE(e.out.find("RTL in the loop (Verilated rf_system top)"), std::string::npos) << e.out;
}

// Single-level scheduling gives the top a slot per warp of the run; on gtx480 (48 warps at once)
// that exceeds the RFC's 32 slots, an exit-2 error naming the field.
TEST_F(RtlTopCli, TopWithMoreWarpsThanTheFamilyHoldsExitsTwo) {
  const test::CliResult s = Run("sim '" GPURF_SOURCE_DIR
                                "/configs/examples/hw_rfc_6entry.yaml' -w vectorAdd --rtl-top "
                                "--gpu gtx480 --scheduler single-level");
  EXPECT_EQ(s.code, 2) << s.err;
  EXPECT_NE(s.err.find("rfc.active_warps"), std::string::npos) << s.err;
  EXPECT_NE(s.err.find("hw_rfc_6entry.yaml"), std::string::npos) << s.err;
}

}  // namespace
}  // namespace gpurf::harness
