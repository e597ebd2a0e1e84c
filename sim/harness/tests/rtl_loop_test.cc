// RTL in the loop (sim/harness/rtl_loop.h), label "rtl": the Verilated structures of small
// design points driven by corpus kernels with their recorded register values.
//   - Lockstep matrix: 4 kernels x 4 hierarchies (MRF only, HW RFC 1 and 2 levels, SW ORF 3
//     levels with a split L0): the RTL of every structure against its golden model every
//     cycle, every row read compared with the kernel's value, zero divergence; the timing and
//     access counts are those of the C++ models run, and the data ports of every level in use
//     toggle.
//   - Mutations: a golden model with one flipped output bit (MRF operand data, RFC hit), and a
//     kernel whose recorded result value is corrupted, each stop the run with a report naming the
//     SM cycle, warp, instruction, signal, expected and actual value.
//   - `gpurf sim --rtl / --lockstep`: output and exit codes (0, 2 for conflicting flags and for a
//     design whose structures cannot take the SM's active warps).
// The design points are small (8 warps, 4 active, 4 MRF banks of 64 rows per lane cluster) so the
// four Verilator builds stay short; they are cached in the build tree like the verif rtl tests.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>

#include "gen/config/yaml_loader.h"
#include "gen/structures/mrf/mrf_spec.h"
#include "gen/structures/rfc/rfc_spec.h"
#include "models/mrf_model.h"
#include "models/rfc_model.h"
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
using rtl_points::Options;

class LockstepMatrix : public testing::TestWithParam<std::string> {};

TEST_P(LockstepMatrix, ZeroDivergenceAndTheModelsCounts) {
  const DesignSpec d = Design(GetParam());
  for (const char* kname : kKernels) {
    SCOPED_TRACE(kname);
    const WorkloadKernel& wk = Kernel(kname);
    ASSERT_TRUE(wk.run->warps.front().has_values);
    const DesignResult models = RunDesign(d, {wk}, Options(RfMode::kModels));
    DesignResult rtl;
    ASSERT_NO_THROW(rtl = RunDesign(d, {wk}, Options(RfMode::kLockstep)));
    // The RTL changes neither the timing nor the counts of the C++ models.
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
    }
    EXPECT_EQ(rtl.counts.events, models.counts.events);
    // Rows were checked against the kernel, and every level in use moved data that toggled.
    EXPECT_TRUE(rtl.values);
    EXPECT_GT(rtl.activity.value_checks, rtl.warp_instructions / 4);
    EXPECT_GT(rtl.activity.rtl_cycles, 0U);
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
    // The data-dependent estimate rescales only access energy.
    EXPECT_LT(rtl.data_energy.total_pj(), rtl.energy.total_pj());
  }
}

INSTANTIATE_TEST_SUITE_P(Hierarchies, LockstepMatrix,
                         testing::Values("mrf_only", "hw_rfc_1", "hw_rfc_2", "sw_orf_3"),
                         [](const auto& p) { return p.param; });

// Regression: a kernel with more registers per thread than the partition's RTL layout holds
// (sgemm: 56; this design's MRF lays out 8 warps x 32) was skipped by --lockstep although static
// allocation keeps only 4 of its warps resident. The RTL is now generated for those 4 warps
// (4 x 64 registers in the same banks), the kernel runs in lockstep, and its result says so.
TEST(RtlLoop, KernelWithMoreRegistersRunsOnRtlForItsResidentWarps) {
  const DesignSpec d = Design("mrf_only");
  const WorkloadKernel& sgemm = Kernel("sgemm");
  ASSERT_GT(sgemm.kernel->regs_per_thread, 32);
  DesignResult r;
  ASSERT_NO_THROW(r = RunDesign(d, {sgemm}, Options(RfMode::kLockstep)));
  EXPECT_TRUE(r.rtl_skipped.empty()) << r.rtl_skipped.front().reason;
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_NE(r.kernels[0].rtl_sm.find("RTL generated for 4 warps per partition"), std::string::npos)
      << r.kernels[0].rtl_sm;
  EXPECT_GT(r.activity.value_checks, 0u);
  // The C++ systems keep the design's partition: the timing is the models-only run's.
  const DesignResult models = RunDesign(d, {sgemm}, Options(RfMode::kModels));
  EXPECT_EQ(r.cycles, models.cycles);
  EXPECT_EQ(r.warp_instructions, models.warp_instructions);
}

// A golden model whose output `port` has bit `bit` flipped in the `nth` cycle where that bit is
// defined (and every cycle after it).
using rtl_points::CorruptFirstResult;
using rtl_points::ExpectMentions;
using rtl_points::FlipBit;

// Regression: a kernel with more registers per thread than the design's MRF rows hold (the
// 26-kernel corpus's kmeans, sgemm, ...) stopped `gpurf sim --workload all --lockstep` with an
// error; now RunDesign skips it with the reason and simulates the others.
TEST(RtlLoop, KernelsTheRtlCannotHoldAreSkippedWithTheReason) {
  const DesignSpec d = Design("hw_rfc_1");
  const WorkloadKernel& small = Kernel("vectorAdd");
  sim::Kernel big = *small.kernel;
  big.name = "bigregs";
  big.regs_per_thread = 250;
  sim::KernelRun run = *small.run;
  run.kernel = &big;
  DesignResult r;
  ASSERT_NO_THROW(r = RunDesign(d, {{"bigregs", &big, &run}, small}, Options(RfMode::kLockstep)));
  ASSERT_EQ(r.rtl_skipped.size(), 1u);
  EXPECT_EQ(r.rtl_skipped[0].kernel, "bigregs");
  EXPECT_NE(r.rtl_skipped[0].reason.find("needs 250 registers"), std::string::npos)
      << r.rtl_skipped[0].reason;
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].kernel, "vectorAdd");
}

TEST(RtlLoopMutation, FlippedMrfOperandBitIsReported) {
  const DesignSpec d = Design("mrf_only");
  DriverOptions o = Options(RfMode::kLockstep);
  o.rtl.make_model = [](const StructureSpec& s) -> std::unique_ptr<CycleModel> {
    if ((s.If<MrfSpec>() != nullptr))
      return std::make_unique<FlipBit>(MakeModel(s), MrfModel::kDispData, 3, 50);
    return MakeModel(s);
  };
  try {
    RunDesign(d, {Kernel("vectorAdd")}, o);
    FAIL() << "the flipped bit was not caught";
  } catch (const RtlDivergence& e) {
    const std::string m = e.what();
    ExpectMentions(m, {"divergence at SM cycle", "in mrf", "RTL and golden model differ",
                       "signal disp_data_o", "expected", "actual", "kernel vectorAdd"});
  }
}

TEST(RtlLoopMutation, FlippedRfcHitIsReported) {
  const DesignSpec d = Design("hw_rfc_1");
  const RfcSpec* rs = nullptr;
  for (const auto& s : d.structures) {
    if (s.name == "rfc")
      rs = &SpecAs<RfcSpec>(*s.spec);
  }
  ASSERT_NE(rs, nullptr);
  const int hit_port = RfcPorts::For(*rs).lu_hit;
  DriverOptions o = Options(RfMode::kLockstep);
  o.rtl.make_model = [hit_port](const StructureSpec& s) -> std::unique_ptr<CycleModel> {
    if ((s.If<RfcSpec>() != nullptr))
      return std::make_unique<FlipBit>(MakeModel(s), hit_port, 0, 200);
    return MakeModel(s);
  };
  try {
    RunDesign(d, {Kernel("histogram")}, o);
    FAIL() << "the flipped hit was not caught";
  } catch (const RtlDivergence& e) {
    const std::string m = e.what();
    // (a flush names no instruction)
    ExpectMentions(m, {"in rfc", "signal lu_hit_o", "warp"});
  }
}

TEST(RtlLoopMutation, CorruptedKernelValueIsReportedInRtlMode) {
  // The functional run says a result holds one value; a later read of it is recorded with the
  // correct value. Flipping the recorded result of the first instruction that writes a register
  // makes the RTL deliver a row the kernel never read.
  const WorkloadKernel& wk = Kernel("vectorAdd");
  const sim::Kernel& k = *wk.kernel;
  const sim::KernelRun run = CorruptFirstResult(wk);
  ASSERT_FALSE(run.warps.empty());
  const DesignSpec d = Design("mrf_only");
  try {
    RunDesign(d, {{"vectorAdd", &k, &run}}, Options(RfMode::kRtl));
    FAIL() << "the corrupted value was not caught";
  } catch (const RtlDivergence& e) {
    const std::string m = e.what();
    ExpectMentions(m, {"another row than the register holds for the kernel", "expected"});
  }
}

class RtlLoopCli : public rtl_points::RtlCliFixture {
 protected:
  RtlLoopCli() : RtlCliFixture("gpurf_rtl_loop_cli_") {}
};

TEST_F(RtlLoopCli, LockstepPassesAndReportsDataDependentEnergy) {
  const std::string d = Write("hw.yaml", DesignText(Hierarchies().at("hw_rfc_1")));
  const std::string json = (dir_ / "r.json").string();
  const test::CliResult r = Run(fmt::format("sim {} -w vectorAdd --lockstep --json {}", d, json));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("lockstep with the golden models, zero divergence"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("data-dependent switching"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("data-dependent vs"), std::string::npos) << r.out;
  const std::string j = test::Slurp(json);
  EXPECT_NE(j.find("\"rf_mode\": \"lockstep\""), std::string::npos);
  EXPECT_NE(j.find("\"data_energy_pj\""), std::string::npos);

  const test::CliResult e = Run(fmt::format("energy {} -w vectorAdd --rtl", d));
  ASSERT_EQ(e.code, 0) << e.err;
  EXPECT_NE(e.out.find("RTL in the loop (Verilated structures)"), std::string::npos) << e.out;
}

// On a GPU whose SM has several schedulers, each register-file partition gets the design's
// structures generated for its share of the warps (gtx980 with this design's 8 warps, 4 active:
// 4 partitions of 2 warps, 1 active), and the lockstep run says so.
TEST_F(RtlLoopCli, LockstepOnAPartitionedSmGeneratesThePartitionsStructures) {
  const std::string d = Write("hw.yaml", DesignText(Hierarchies().at("hw_rfc_1")));
  const std::string json = (dir_ / "r.json").string();
  const test::CliResult r =
      Run(fmt::format("sim {} -w vectorAdd --lockstep --gpu gtx980 --sms 1 --json {}", d, json));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("zero divergence"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("register-file partition of the SM: 2 warps, 1 active"), std::string::npos)
      << r.out;
  EXPECT_NE(test::Slurp(json).find("\"rtl_sm\""), std::string::npos);
}

TEST_F(RtlLoopCli, BadUsageExitsTwo) {
  const std::string d = Write("hw.yaml", DesignText(Hierarchies().at("hw_rfc_1")));
  const test::CliResult both = Run(fmt::format("sim {} -w vectorAdd --rtl --lockstep", d));
  EXPECT_EQ(both.code, 2) << both.err;
  // Single-level scheduling on gtx480 runs its 48 warps at once: an RFC with a slot per warp
  // exceeds the family's 32 active-warp slots.
  const test::CliResult s = Run("sim '" GPURF_SOURCE_DIR
                                "/configs/examples/hw_rfc_6entry.yaml' -w vectorAdd --lockstep "
                                "--gpu gtx480 --scheduler single-level");
  EXPECT_EQ(s.code, 2) << s.err;
  EXPECT_NE(s.err.find("48 warps with 48 active"), std::string::npos) << s.err;
  EXPECT_NE(s.err.find("rfc.active_warps"), std::string::npos) << s.err;
  EXPECT_NE(s.err.find("1..32"), std::string::npos) << s.err;
  EXPECT_NE(s.err.find("hw_rfc_6entry.yaml"), std::string::npos) << s.err;
}

// Regression: single-level scheduling (every warp active) used to exit 2 for --lockstep because
// the RTL kept the design file's active-warp slots while the C++ systems of the run have a slot
// per warp. The RTL now gets the run's slots (this design: 8 warps, the file's RFC 4 slots).
TEST_F(RtlLoopCli, SingleLevelSchedulingGivesTheRtlASlotPerWarp) {
  const std::string single =
      Write("single.yaml", DesignText(Hierarchies().at("hw_rfc_1"), "single-level"));
  const test::CliResult s = Run(fmt::format("sim {} -w vectorAdd --lockstep", single));
  ASSERT_EQ(s.code, 0) << s.err;
  EXPECT_NE(s.out.find("zero divergence"), std::string::npos) << s.out;
  EXPECT_NE(s.out.find("8 warps, 8 active"), std::string::npos) << s.out;
}

}  // namespace
}  // namespace gpurf::harness
