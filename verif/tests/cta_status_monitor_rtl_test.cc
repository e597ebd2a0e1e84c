// The CTA status monitor's RTL against its golden model (label rtl):
//   - lint clean with every tool on the paper's 128 slots;
//   - lockstep over a matrix of small configurations (two slots, non-powers of two, the
//     pascal-finereg preset's 32 slots); the paper's default runs for a million cycles and eight
//     more points for 1e5 in the soak tests (verif/tests/CMakeLists.txt, label soak);
//   - realistic bugs the lockstep comparison must catch (a launch into the highest free slot,
//     the room without the entries a restore frees);
//   - one RTL mutation per invariant that must make the invariant's own assertion fire, run
//     without comparison.
#include <gtest/gtest.h>

#include "gen/structures/cta_status_monitor/cta_status_monitor_gen.h"
#include "verif/stimulus/cta_status_monitor_stimulus.h"
#include "verif/tests/finereg_rmu_test_util.h"
#include "verif/tests/rtl_test_util.h"
#include "verif/tests/sched_orf_test_util.h"

namespace gpurf {
namespace {

TEST(CtaStatusMonitorLint, PaperIsClean) {
  test::ExpectLintClean(EmitCtaStatusMonitor(test::MakeCsmSpec()));
}

struct MatrixCase {
  const char* name;
  int ctas, entries;
};

const MatrixCase kMatrix[] = {
    {"TwoSlots", 2, 4},
    {"FiveSlots13Entries", 5, 13},
    {"Sixteen1024", 16, 1024},
    {"PascalFineReg32", 32, 1024},
};

class CtaStatusMonitorMatrix : public ::testing::TestWithParam<size_t> {};

TEST_P(CtaStatusMonitorMatrix, LockstepMatchesModel) {
  const MatrixCase& c = kMatrix[GetParam()];
  const CtaStatusMonitorSpec spec = test::MakeCsmSpec(c.ctas, c.entries);
  const TempDir waves("gpurf-ctamon-matrix");
  const VerifyResult r = test::VerifyMutant(spec, EmitCtaStatusMonitor(spec), 20000, 21, waves);
  EXPECT_TRUE(r.passed()) << r.Summary();
}

INSTANTIATE_TEST_SUITE_P(Configs, CtaStatusMonitorMatrix,
                         ::testing::Range<size_t>(0, std::size(kMatrix)), test::CaseNames(kMatrix));

CtaStatusMonitorSpec MutantSpec() {
  return test::MakeCsmSpec(6, 64);
}

const test::LockstepMutation kLockstepMutations[] = {
    // Last match wins: a new CTA goes into the highest free slot.
    {"LaunchIntoHighestSlot", "if (!slot_found && (ctx[c] == 2'd0)) begin",
     "if (ctx[c] == 2'd0) begin"},
    // The room leaves out the entries the restored CTA frees.
    {"RoomWithoutFreedEntries", "assign freed = (!a_found && b_found) ? live[b_sel] : '0;",
     "assign freed = '0;"},
};

class CtaStatusMonitorMutation : public ::testing::TestWithParam<size_t> {};

TEST_P(CtaStatusMonitorMutation, IsCaughtByLockstep) {
  const test::LockstepMutation& mu = kLockstepMutations[GetParam()];
  const CtaStatusMonitorSpec spec = MutantSpec();
  GeneratedStructure rtl = EmitCtaStatusMonitor(spec);
  ASSERT_NO_FATAL_FAILURE(test::Mutate(rtl, "", mu.from, mu.to));
  test::ExpectCaughtByLockstep(spec, rtl, mu.name);
}

INSTANTIATE_TEST_SUITE_P(Bugs, CtaStatusMonitorMutation,
                         ::testing::Range<size_t>(0, std::size(kLockstepMutations)),
                         test::CaseNames(kLockstepMutations));

const test::InvariantMutation kInvariantMutations[] = {
    // The evicted CTA's context field gets 3, which is no encoding.
    {"S1_EvictWritesCode3", "ctx_q <= 2'b01;", "ctx_q <= 2'b11;", "S1 violated"},
    // The evicted CTA's context field says not launched while its registers are in the PCRF.
    {"S2_EvictedAsNotLaunched", "ctx_q <= 2'b01;", "ctx_q <= 2'b00;", "S2 violated"},
    // The resumed CTA runs with its registers left in the PCRF.
    {"S3_ResumedWithoutRestore", "rl_q <= 2'b10;", "rl_q <= 2'b01;", "S3 violated"},
    // The resumed CTA keeps its saved live count.
    {"S4_SavedCountKept", "live_q <= CountBits'(0);", "live_q <= live_q;", "S4 violated"},
    // Every stall switches, whether its live registers fit or not.
    {"S5_FitIgnored", "assign fits = AvailBits'(stall_live_i) <= avail;", "assign fits = 1'b1;",
     "S5 violated"},
    // Class B before class A.
    {"S6_ClassesSwapped", "assign sel = a_found ? a_sel : b_sel;",
     "assign sel = b_found ? b_sel : a_sel;", "S6 violated"},
};

class CtaStatusMonitorInvariant : public ::testing::TestWithParam<size_t> {};

TEST_P(CtaStatusMonitorInvariant, AssertionFiresOnBrokenRtl) {
  const test::InvariantMutation& mu = kInvariantMutations[GetParam()];
  const CtaStatusMonitorSpec spec = MutantSpec();
  GeneratedStructure rtl = EmitCtaStatusMonitor(spec);
  ASSERT_NO_FATAL_FAILURE(test::Mutate(rtl, "", mu.from, mu.to));
  test::NoCompareModel model;
  CtaStatusMonitorStimulus stim(spec, 7);
  test::ExpectAssertionFires(rtl, model, stim, 30000, mu.name, mu.message);
}

INSTANTIATE_TEST_SUITE_P(Invariants, CtaStatusMonitorInvariant,
                         ::testing::Range<size_t>(0, std::size(kInvariantMutations)),
                         test::CaseNames(kInvariantMutations));

}  // namespace
}  // namespace gpurf
