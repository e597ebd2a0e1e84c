// The availability vectors' RTL against their golden model (label rtl):
//   - lint clean in all three tools on every configuration of the matrix;
//   - lockstep over a matrix of configurations (the paper's 4 x 256 bits, a 10-cycle wake-up
//     with non-power-of-two banks of three subarrays, eight tiny banks with one subarray, a
//     1024-register bank of sixteen subarrays); eight more configurations run for 1e5 cycles
//     each, and the default for 1e6, in the soak_availability_vectors_* tests;
//   - realistic bugs planted in the generated RTL that the lockstep comparison must catch (a
//     wake-up one cycle short, none answered one register early);
//   - one RTL mutation per invariant (I1 free count + allocated count = registers per bank, I2 a
//     grant takes a free powered row, I3 a gated subarray holds nothing) that must make the
//     invariant's own assertion fire, run without comparison (the golden model still answers the
//     stimulus's grants) so that the assertion, not an earlier output difference, stops the run.
#include <gtest/gtest.h>

#include "gen/structures/availability_vectors/availability_vectors_gen.h"
#include "models/availability_vectors_model.h"
#include "verif/stimulus/availability_vectors_stimulus.h"
#include "verif/tests/jeon_test_util.h"
#include "verif/tests/rtl_test_util.h"
#include "verif/verify.h"

namespace gpurf {
namespace {

using test::AvailShape;

struct MatrixCase {
  const char* name;
  AvailShape shape;
};

const MatrixCase kMatrix[] = {
    {"Paper4x256", {}},
    {"SlowWakeThreeSubarrays",
     {.banks = 2, .regs_per_bank = 96, .subarrays = 3, .wake_cycles = 10, .release_ports = 1}},
    {"EightTinyBanks",
     {.banks = 8, .regs_per_bank = 8, .subarrays = 1, .wake_cycles = 3, .release_ports = 8}},
    {"SixteenSubarrays", {.banks = 2, .regs_per_bank = 1024, .subarrays = 16, .release_ports = 2}},
};

TEST(AvailabilityVectorsLint, EveryMatrixConfigurationLintsClean) {
  for (const MatrixCase& c : kMatrix) {
    SCOPED_TRACE(c.name);
    test::ExpectLintClean(EmitAvailabilityVectors(test::MakeAvailSpec(c.shape)));
  }
}

class AvailabilityVectorsMatrix : public ::testing::TestWithParam<size_t> {};

TEST_P(AvailabilityVectorsMatrix, LockstepMatchesModel) {
  const AvailabilityVectorsSpec spec = test::MakeAvailSpec(kMatrix[GetParam()].shape);
  const TempDir waves("gpurf-avail-matrix");
  const VerifyResult r = test::VerifyMutant(spec, EmitAvailabilityVectors(spec), 20000, 21, waves);
  EXPECT_TRUE(r.passed()) << r.Summary();
}

INSTANTIATE_TEST_SUITE_P(Configs, AvailabilityVectorsMatrix,
                         ::testing::Range<size_t>(0, std::size(kMatrix)), test::CaseNames(kMatrix));

const test::LockstepMutation kLockstepMutations[] = {
    {"WakeUpOneCycleShort", "WakeBits'(WakeCycles - 1)", "WakeBits'(WakeCycles - 2)"},
    {"NoneOneRegisterEarly", "rst_ni && req && free_q == '0", "rst_ni && req && free_q <= 1"},
};

class AvailabilityVectorsMutation : public ::testing::TestWithParam<size_t> {};

TEST_P(AvailabilityVectorsMutation, IsCaughtByLockstep) {
  const test::LockstepMutation& mu = kLockstepMutations[GetParam()];
  const AvailabilityVectorsSpec spec = test::SmallAvailSpec(3);
  GeneratedStructure rtl = EmitAvailabilityVectors(spec);
  ASSERT_NO_FATAL_FAILURE(test::Mutate(rtl, "", mu.from, mu.to));
  test::ExpectCaughtByLockstep(spec, rtl, mu.name);
}

INSTANTIATE_TEST_SUITE_P(Bugs, AvailabilityVectorsMutation,
                         ::testing::Range<size_t>(0, std::size(kLockstepMutations)),
                         test::CaseNames(kLockstepMutations));

const test::InvariantMutation kInvariantMutations[] = {
    // The free counter misses releases: it drifts from the vector.
    {"I1_CounterIgnoresReleases", "free_q - CountBits'(grant) + rel_n",
     "free_q - CountBits'(grant)", "I1 violated"},
    // The search ignores the power state: a grant from a gated subarray.
    {"I2_SearchIgnoresPowerState", "!found && avail_q[i] && pwr_q[i / SubRows]",
     "!found && avail_q[i]", "I2 violated"},
    // Gating ignores occupancy: a subarray is gated with live registers.
    {"I3_GatingIgnoresOccupancy", "pwr_d[k] = pwr_q[k] && !(&avail_d[k*SubRows +: SubRows]);",
     "pwr_d[k] = 1'b0;", "I3 violated"},
};

class AvailabilityVectorsInvariant : public ::testing::TestWithParam<size_t> {};

TEST_P(AvailabilityVectorsInvariant, AssertionFiresOnBrokenRtl) {
  const test::InvariantMutation& mu = kInvariantMutations[GetParam()];
  const AvailabilityVectorsSpec spec = test::SmallAvailSpec(1);
  GeneratedStructure rtl = EmitAvailabilityVectors(spec);
  ASSERT_NO_FATAL_FAILURE(test::Mutate(rtl, "", mu.from, mu.to));
  test::ObserveOnly<AvailabilityVectorsModel> model(spec);
  AvailabilityVectorsStimulus stim(spec, 7);
  test::ExpectAssertionFires(rtl, model, stim, 30000, mu.name, mu.message);
}

INSTANTIATE_TEST_SUITE_P(Invariants, AvailabilityVectorsInvariant,
                         ::testing::Range<size_t>(0, std::size(kInvariantMutations)),
                         test::CaseNames(kInvariantMutations));

TEST(AvailabilityVectorsInvariant, NoAssertionFiresOnTheGeneratedRtl) {
  const AvailabilityVectorsSpec spec = test::SmallAvailSpec(1);
  test::ObserveOnly<AvailabilityVectorsModel> model(spec);
  AvailabilityVectorsStimulus stim(spec, 7);
  const test::CapturedRun o = test::RunCaptured(EmitAvailabilityVectors(spec), model, stim, 30000);
  EXPECT_TRUE(o.run.passed) << o.run.failure << o.log;
}

}  // namespace
}  // namespace gpurf
