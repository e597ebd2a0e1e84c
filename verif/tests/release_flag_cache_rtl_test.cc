// The release flag cache's RTL against its golden model (label rtl):
//   - lint clean in all three tools on every configuration of the matrix;
//   - lockstep over a matrix of configurations (the paper's 10 x 54 bits, a power-of-two cache,
//     a two-entry cache of short PCs, a 64-entry cache of 64-bit payloads); eight more
//     configurations run for 1e5 cycles each, and the default for 1e6, in the
//     soak_release_flag_cache_* tests;
//   - realistic bugs planted in the generated RTL that the lockstep comparison must catch (the
//     fold of the fill's index lost, a fill in a flush's cycle kept);
//   - one RTL mutation per invariant (F1 a hit is a valid entry of the PC, F2 hits + misses =
//     lookups, F3 nothing valid after a flush) that must make the invariant's own assertion fire,
//     run without comparison.
#include <gtest/gtest.h>

#include "gen/structures/release_flag_cache/release_flag_cache_gen.h"
#include "models/release_flag_cache_model.h"
#include "verif/stimulus/release_flag_cache_stimulus.h"
#include "verif/tests/jeon_test_util.h"
#include "verif/tests/rtl_test_util.h"
#include "verif/verify.h"

namespace gpurf {
namespace {

using test::FlagShape;

struct MatrixCase {
  const char* name;
  FlagShape shape;
};

const MatrixCase kMatrix[] = {
    {"Paper10x54", {}},
    {"SixteenEntries", {.entries = 16}},
    {"TwoEntriesShortPc", {.entries = 2, .payload_bits = 3, .pc_bits = 8, .inst_bytes = 2}},
    {"SixtyFourEntriesWidePayload", {.entries = 64, .payload_bits = 64, .pc_bits = 48}},
};

TEST(ReleaseFlagCacheLint, EveryMatrixConfigurationLintsClean) {
  for (const MatrixCase& c : kMatrix) {
    SCOPED_TRACE(c.name);
    test::ExpectLintClean(EmitReleaseFlagCache(test::MakeFlagSpec(c.shape)));
  }
}

class ReleaseFlagCacheMatrix : public ::testing::TestWithParam<size_t> {};

TEST_P(ReleaseFlagCacheMatrix, LockstepMatchesModel) {
  const ReleaseFlagCacheSpec spec = test::MakeFlagSpec(kMatrix[GetParam()].shape);
  const TempDir waves("gpurf-relflag-matrix");
  const VerifyResult r = test::VerifyMutant(spec, EmitReleaseFlagCache(spec), 30000, 21, waves);
  EXPECT_TRUE(r.passed()) << r.Summary();
}

INSTANTIATE_TEST_SUITE_P(Configs, ReleaseFlagCacheMatrix,
                         ::testing::Range<size_t>(0, std::size(kMatrix)), test::CaseNames(kMatrix));

const test::LockstepMutation kLockstepMutations[] = {
    {"FillIndexNotFolded", "fill_fold ? IndexBits'(32'(fill_low) - Entries) : fill_low",
     "fill_low"},
    // The lookup's tag without the fold bit: words 0 and 10 of a 10-entry cache share entry 0
    // and the same tag, so one hits on the other's flags.
    {"LookupTagLosesFoldBit", "{lk_addr[AddrBits-1:IndexBits], lk_fold}",
     "{lk_addr[AddrBits-1:IndexBits], 1'b0}"},
};

class ReleaseFlagCacheMutation : public ::testing::TestWithParam<size_t> {};

TEST_P(ReleaseFlagCacheMutation, IsCaughtByLockstep) {
  const test::LockstepMutation& mu = kLockstepMutations[GetParam()];
  const ReleaseFlagCacheSpec spec = test::MakeFlagSpec({});
  GeneratedStructure rtl = EmitReleaseFlagCache(spec);
  ASSERT_NO_FATAL_FAILURE(test::Mutate(rtl, "", mu.from, mu.to));
  test::ExpectCaughtByLockstep(spec, rtl, mu.name);
}

INSTANTIATE_TEST_SUITE_P(Bugs, ReleaseFlagCacheMutation,
                         ::testing::Range<size_t>(0, std::size(kLockstepMutations)),
                         test::CaseNames(kLockstepMutations));

const test::InvariantMutation kInvariantMutations[] = {
    // The hit ignores the valid bit: a flushed entry still hits.
    {"F1_HitIgnoresValidBit", "assign hit = rst_ni && lk_valid_i && valid_q[lk_idx] && ",
     "assign hit = rst_ni && lk_valid_i && ", "F1 violated"},
    // The miss counter stops counting.
    {"F2_MissesNotCounted", "miss_q <= miss_q + 32'(miss);", "miss_q <= miss_q;", "F2 violated"},
    // The flush is ignored.
    {"F3_FlushIgnored", "if (flush_i) begin\n        valid_q <= '0;",
     "if (flush_i) begin\n        valid_q <= valid_q;", "F3 violated"},
};

class ReleaseFlagCacheInvariant : public ::testing::TestWithParam<size_t> {};

TEST_P(ReleaseFlagCacheInvariant, AssertionFiresOnBrokenRtl) {
  const test::InvariantMutation& mu = kInvariantMutations[GetParam()];
  const ReleaseFlagCacheSpec spec = test::MakeFlagSpec({});
  GeneratedStructure rtl = EmitReleaseFlagCache(spec);
  ASSERT_NO_FATAL_FAILURE(test::Mutate(rtl, "", mu.from, mu.to));
  test::ObserveOnly<ReleaseFlagCacheModel> model(spec);
  ReleaseFlagCacheStimulus stim(spec, 7);
  test::ExpectAssertionFires(rtl, model, stim, 30000, mu.name, mu.message);
}

INSTANTIATE_TEST_SUITE_P(Invariants, ReleaseFlagCacheInvariant,
                         ::testing::Range<size_t>(0, std::size(kInvariantMutations)),
                         test::CaseNames(kInvariantMutations));

TEST(ReleaseFlagCacheInvariant, NoAssertionFiresOnTheGeneratedRtl) {
  const ReleaseFlagCacheSpec spec = test::MakeFlagSpec({});
  test::ObserveOnly<ReleaseFlagCacheModel> model(spec);
  ReleaseFlagCacheStimulus stim(spec, 7);
  const test::CapturedRun o = test::RunCaptured(EmitReleaseFlagCache(spec), model, stim, 30000);
  EXPECT_TRUE(o.run.passed) << o.run.failure << o.log;
}

}  // namespace
}  // namespace gpurf
