// The live-register vector cache's RTL against its golden model (label rtl):
//   - lint clean with every tool on the paper's configuration and a wide decoder;
//   - lockstep over a matrix of small configurations (two lines, a non-power-of-two vector, a
//     wide decoder, a short memory); the paper's default runs for a million cycles and eight
//     more points for 1e5 in the soak tests (verif/tests/CMakeLists.txt, label soak);
//   - realistic bugs the lockstep comparison must catch (the tag compare left out, the
//     consumer's ready ignored);
//   - one RTL mutation per invariant that must make the invariant's own assertion fire, run
//     beside a model that compares nothing (it only answers the memory handshake).
#include <gtest/gtest.h>

#include "gen/structures/live_vector_cache/live_vector_cache_gen.h"
#include "verif/stimulus/live_vector_cache_stimulus.h"
#include "verif/tests/finereg_rmu_test_util.h"
#include "verif/tests/rtl_test_util.h"

namespace gpurf {
namespace {

using test::LvcShape;

TEST(LiveVectorCacheLint, PaperAndWideDecoderAreClean) {
  test::ExpectLintClean(EmitLiveVectorCache(test::MakeLvcSpec({})));
  test::ExpectLintClean(
      EmitLiveVectorCache(test::MakeLvcSpec({.entries = 8, .vector_bits = 37, .decode_width = 4})));
}

struct MatrixCase {
  const char* name;
  LvcShape shape;
};

const MatrixCase kMatrix[] = {
    {"TwoLines8Bit",
     {.entries = 2, .pc_bits = 8, .align_bits = 0, .vector_bits = 8, .fetch_latency = 3}},
    {"Vector37Decode3",
     {.entries = 4, .pc_bits = 12, .vector_bits = 37, .decode_width = 3, .fetch_latency = 7}},
    {"PaperShortMemory", {.fetch_latency = 4}},
    {"Decode8Pc64",
     {.entries = 8,
      .pc_bits = 64,
      .align_bits = 4,
      .vector_bits = 24,
      .decode_width = 8,
      .fetch_latency = 20}},
};

class LiveVectorCacheMatrix : public ::testing::TestWithParam<size_t> {};

TEST_P(LiveVectorCacheMatrix, LockstepMatchesModel) {
  const LiveVectorCacheSpec spec = test::MakeLvcSpec(kMatrix[GetParam()].shape);
  const TempDir waves("gpurf-lvc-matrix");
  const VerifyResult r = test::VerifyMutant(spec, EmitLiveVectorCache(spec), 20000, 21, waves);
  EXPECT_TRUE(r.passed()) << r.Summary();
}

INSTANTIATE_TEST_SUITE_P(Configs, LiveVectorCacheMatrix,
                         ::testing::Range<size_t>(0, std::size(kMatrix)), test::CaseNames(kMatrix));

// Small: fills and conflicts every few cycles, the Verilator model builds in seconds.
LiveVectorCacheSpec MutantSpec() {
  return test::MakeLvcSpec(
      {.entries = 4, .pc_bits = 10, .vector_bits = 16, .decode_width = 2, .fetch_latency = 5});
}

const test::LockstepMutation kLockstepMutations[] = {
    // A valid line hits whatever its tag: conflicting PCs get another PC's vector.
    {"TagCompareLeftOut", "assign hit = line_valid[lk_index] && (line_tag[lk_index] == lk_tag);",
     "assign hit = line_valid[lk_index];"},
    // The decoder moves on while the register transfer is not ready: indices are lost.
    {"ReadyIgnored", "assign dec_fire = dec_valid_o && dec_ready_i;",
     "assign dec_fire = dec_valid_o;"},
};

class LiveVectorCacheMutation : public ::testing::TestWithParam<size_t> {};

TEST_P(LiveVectorCacheMutation, IsCaughtByLockstep) {
  const test::LockstepMutation& mu = kLockstepMutations[GetParam()];
  const LiveVectorCacheSpec spec = MutantSpec();
  GeneratedStructure rtl = EmitLiveVectorCache(spec);
  ASSERT_NO_FATAL_FAILURE(test::Mutate(rtl, "", mu.from, mu.to));
  test::ExpectCaughtByLockstep(spec, rtl, mu.name);
}

INSTANTIATE_TEST_SUITE_P(Bugs, LiveVectorCacheMutation,
                         ::testing::Range<size_t>(0, std::size(kLockstepMutations)),
                         test::CaseNames(kLockstepMutations));

const test::InvariantMutation kInvariantMutations[] = {
    // The decoder shows the register above each live one.
    {"I1_IndexOffByOne", "idx = RegBits'(i);", "idx = RegBits'(i + 1);", "I1 violated"},
    // Taking a group clears the bits above the shown ones: live registers are skipped.
    {"I2_ClearsTheWrongBits", "vec_q <= vec_q & ~grp_mask;", "vec_q <= vec_q & ~(grp_mask << 1);",
     "I2 violated"},
    // A hit is not counted.
    {"I3_HitNotCounted", "hit_cnt_q <= hit_cnt_q + 32'd1;", "hit_cnt_q <= hit_cnt_q;",
     "I3 violated"},
    // The fill writes the tag into the line of whatever PC is on the lookup port.
    {"I4_FillIntoTheWrongLine", "line_tag[req_index] <= pc_q[PcBits-1 -: TagBits];",
     "line_tag[lk_index] <= pc_q[PcBits-1 -: TagBits];", "I4 violated"},
    // A lookup is accepted while a decode or a miss is in progress.
    {"I5_AcceptedWhileBusy", "assign lk_ready_o = rst_ni && (st_q == 2'd0);",
     "assign lk_ready_o = rst_ni;", "I5 violated"},
};

class LiveVectorCacheInvariant : public ::testing::TestWithParam<size_t> {};

TEST_P(LiveVectorCacheInvariant, AssertionFiresOnBrokenRtl) {
  const test::InvariantMutation& mu = kInvariantMutations[GetParam()];
  const LiveVectorCacheSpec spec = MutantSpec();
  GeneratedStructure rtl = EmitLiveVectorCache(spec);
  ASSERT_NO_FATAL_FAILURE(test::Mutate(rtl, "", mu.from, mu.to));
  test::ObserveOnlyModel<LiveVectorCacheModel> model(spec);
  LiveVectorCacheStimulus stim(spec, 7);
  test::ExpectAssertionFires(rtl, model, stim, 30000, mu.name, mu.message);
}

INSTANTIATE_TEST_SUITE_P(Invariants, LiveVectorCacheInvariant,
                         ::testing::Range<size_t>(0, std::size(kInvariantMutations)),
                         test::CaseNames(kInvariantMutations));

}  // namespace
}  // namespace gpurf
