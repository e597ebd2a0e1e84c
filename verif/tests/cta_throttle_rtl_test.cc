// The cta-throttle RTL against its golden model (label rtl):
//   - lint clean with every tool on the paper's eight slots;
//   - lockstep over a matrix of small configurations (two slots, one bank as in the paper's
//     SM-wide count, eight banks, non-powers of two); the paper's default runs for a million
//     cycles and eight more points for 1e5 in the soak tests (verif/tests/CMakeLists.txt, label
//     soak);
//   - realistic bugs the lockstep comparison must catch (the paper's throttle at equality, ties
//     to the highest slot, a reservation that ignores whether the banks can serve the CTA, a
//     reserved CTA refused in spill mode);
//   - one RTL mutation per invariant that must make the invariant's own assertion fire, run
//     without comparison.
#include <gtest/gtest.h>

#include "gen/structures/cta_throttle/cta_throttle_gen.h"
#include "verif/stimulus/cta_throttle_stimulus.h"
#include "verif/tests/cta_throttle_test_util.h"
#include "verif/tests/rtl_test_util.h"

namespace gpurf {
namespace {

TEST(CtaThrottleLint, PaperIsClean) {
  test::ExpectLintClean(EmitCtaThrottle(test::MakeThrottleSpec({})));
}

struct MatrixCase {
  const char* name;
  test::ThrottleShape shape;
};

const MatrixCase kMatrix[] = {
    {"TwoSlotsOneBank",
     {.slots = 2, .banks = 1, .regs_per_bank = 8, .alloc_ports = 1, .release_ports = 1}},
    {"FiveSlotsThreeBanks",
     {.slots = 5, .banks = 3, .regs_per_bank = 24, .alloc_ports = 3, .release_ports = 2}},
    {"PaperSmWideCount",
     {.slots = 8, .banks = 1, .regs_per_bank = 1024, .alloc_ports = 4, .release_ports = 4}},
    {"EightBanks",
     {.slots = 6, .banks = 8, .regs_per_bank = 32, .alloc_ports = 8, .release_ports = 8}},
};

class CtaThrottleMatrix : public ::testing::TestWithParam<size_t> {};

TEST_P(CtaThrottleMatrix, LockstepMatchesModel) {
  const MatrixCase& c = kMatrix[GetParam()];
  const CtaThrottleSpec spec = test::MakeThrottleSpec(c.shape);
  const TempDir waves("gpurf-ctathr-matrix");
  const VerifyResult r = test::VerifyMutant(spec, EmitCtaThrottle(spec), 20000, 23, waves);
  EXPECT_TRUE(r.passed()) << r.Summary();
}

INSTANTIATE_TEST_SUITE_P(Configs, CtaThrottleMatrix,
                         ::testing::Range<size_t>(0, std::size(kMatrix)), test::CaseNames(kMatrix));

CtaThrottleSpec MutantSpec() {
  return test::MakeThrottleSpec(
      {.slots = 4, .banks = 2, .regs_per_bank = 16, .alloc_ports = 2, .release_ports = 3});
}

const test::LockstepMutation kLockstepMutations[] = {
    // The paper's wording: throttle also when the free registers equal the minimum counter.
    {"ThrottleAtEquality", "throttle = several && free_total < min_counter;",
     "throttle = several && free_total <= min_counter;"},
    // Ties of the minimum counter go to the highest slot.
    {"TiesToHighestSlot", "counter_d[i] < counter_d[best]", "counter_d[i] <= counter_d[best]"},
    // The minimum counter takes the reservation even when a bank cannot serve it.
    {"ReserveWithoutServeCheck", "best != res_d && serves_d[best]", "best != res_d"},
    // The reserved CTA is refused in spill mode when a bank lacks room.
    {"NoSpillGrant", "is_res ? (spill_mode_q || ", "is_res ? (1'b0 || "},
};

class CtaThrottleMutation : public ::testing::TestWithParam<size_t> {};

TEST_P(CtaThrottleMutation, IsCaughtByLockstep) {
  const test::LockstepMutation& mu = kLockstepMutations[GetParam()];
  const CtaThrottleSpec spec = MutantSpec();
  GeneratedStructure rtl = EmitCtaThrottle(spec);
  ASSERT_NO_FATAL_FAILURE(test::Mutate(rtl, "", mu.from, mu.to));
  test::ExpectCaughtByLockstep(spec, rtl, mu.name);
}

INSTANTIATE_TEST_SUITE_P(Bugs, CtaThrottleMutation,
                         ::testing::Range<size_t>(0, std::size(kLockstepMutations)),
                         test::CaseNames(kLockstepMutations));

const test::InvariantMutation kInvariantMutations[] = {
    // Every alive CTA may issue, throttle or not.
    {"T1_IssueIgnoresThrottle",
     "assign issue_ok_o[i] = rst_ni && alive_q && (!throttle || (res_valid_q && 32'(res_q) == i));",
     "assign issue_ok_o[i] = rst_ni && alive_q;", "T1 violated"},
    // An exit leaves the CTA's C behind in the freed slot.
    {"T2_ExitKeepsC", "== c / NumBanks) ? '0 : need_q;", "== c / NumBanks) ? need_q : need_q;",
     "T2 violated"},
    // The free count ignores releases.
    {"T3_FreeIgnoresReleases", "free_q + CountBits'(rel_n) - ", "free_q - ", "T3 violated"},
    // The reservation stays on a CTA that exits.
    {"T4_ReservedExitKept", "res_valid_d = best_found;", "res_valid_d = res_valid_q;",
     "T4 violated"},
    // Another CTA's group may eat the reserved CTA's worst case.
    {"T5_KeepIgnored", ": 32'(free_q) >= 32'(n_alloc[b]) + 32'(keep[b])",
     ": 32'(free_q) >= 32'(n_alloc[b])", "T5 violated"},
};

class CtaThrottleInvariant : public ::testing::TestWithParam<size_t> {};

TEST_P(CtaThrottleInvariant, AssertionFiresOnBrokenRtl) {
  const test::InvariantMutation& mu = kInvariantMutations[GetParam()];
  const CtaThrottleSpec spec = MutantSpec();
  GeneratedStructure rtl = EmitCtaThrottle(spec);
  ASSERT_NO_FATAL_FAILURE(test::Mutate(rtl, "", mu.from, mu.to));
  // The model answers the stimulus (grants, the reservation) and compares nothing: each mutation
  // fires its assertion at the first cycle the RTL departs from the model.
  test::ObserveOnly<CtaThrottleModel> model(spec);
  CtaThrottleStimulus stim(spec, 7);
  test::ExpectAssertionFires(rtl, model, stim, 30000, mu.name, mu.message);
}

INSTANTIATE_TEST_SUITE_P(Invariants, CtaThrottleInvariant,
                         ::testing::Range<size_t>(0, std::size(kInvariantMutations)),
                         test::CaseNames(kInvariantMutations));

}  // namespace
}  // namespace gpurf
