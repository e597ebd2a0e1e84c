// The PCRF's RTL against its golden model (label rtl):
//   - lockstep over a matrix of small configurations (non-power-of-two entries and
//     CTA slots, longer hops, unpipelined walks, the flip-flop data array); the paper's default
//     (1024 entries of 128 bytes, 128 CTAs) runs for a million cycles and eight more points for
//     1e5 in the soak tests (verif/tests/CMakeLists.txt, label soak);
//   - realistic bugs the lockstep comparison must catch (find-next-free giving the highest free
//     entry, the walk pipeline ignoring the consumer's ready);
//   - one RTL mutation per invariant, among them the corrupted next pointer and lost
//     free bit, that must make the invariant's own assertion fire, run without comparison so
//     that the assertion, not an earlier output difference, stops the run.
#include <gtest/gtest.h>

#include "gen/structures/pcrf/pcrf_gen.h"
#include "gen/structures/pcrf/pcrf_spec.h"
#include "models/pcrf_model.h"
#include "verif/stimulus/pcrf_stimulus.h"
#include "verif/tests/pcrf_test_util.h"
#include "verif/tests/rtl_test_util.h"
#include "verif/tests/sched_orf_test_util.h"
#include "verif/verify.h"

namespace gpurf {
namespace {

using test::PcrfShape;

struct MatrixCase {
  const char* name;
  PcrfShape shape;
};

const MatrixCase kMatrix[] = {
    {"Tiny8", {.entries = 8, .row_bytes = 4, .ctas = 4}},
    {"NonPowerOfTwo13x5",
     {.entries = 13, .row_bytes = 12, .ctas = 5, .warps = 3, .regs = 7, .hop_cycles = 5}},
    {"Unpipelined6Hop",
     {.entries = 32, .row_bytes = 8, .ctas = 8, .hop_cycles = 6, .pipelined = false}},
    {"FlopData64", {.entries = 64, .row_bytes = 16, .ctas = 16, .macro = false}},
};

class PcrfMatrix : public ::testing::TestWithParam<size_t> {};

TEST_P(PcrfMatrix, LockstepMatchesModel) {
  const PcrfSpec spec = test::MakePcrfSpec(kMatrix[GetParam()].shape);
  const TempDir waves("gpurf-pcrf-matrix");
  const VerifyResult r = test::VerifyMutant(spec, EmitPcrf(spec), 25000, 21, waves);
  EXPECT_TRUE(r.passed()) << r.Summary();
}

INSTANTIATE_TEST_SUITE_P(Configs, PcrfMatrix, ::testing::Range<size_t>(0, std::size(kMatrix)),
                         test::CaseNames(kMatrix));

// A small PCRF that fills and drains quickly; its Verilator model builds in seconds.
PcrfSpec MutantSpec() {
  return test::MakePcrfSpec({.entries = 16, .row_bytes = 4, .ctas = 4});
}

const test::LockstepMutation kLockstepMutations[] = {
    // Last match wins: the highest free entry instead of the lowest.
    {"FindFreeHighest", "if (!alloc_found && free[e]) begin", "if (free[e]) begin"},
    // The walk pipeline moves while the consumer is not ready: restored registers are lost.
    {"ReadyIgnored", "assign advance = !pv_q[Stages-1] || out_ready_i;", "assign advance = 1'b1;"},
};

class PcrfMutation : public ::testing::TestWithParam<size_t> {};

TEST_P(PcrfMutation, IsCaughtByLockstep) {
  const test::LockstepMutation& mu = kLockstepMutations[GetParam()];
  const PcrfSpec spec = MutantSpec();
  GeneratedStructure rtl = EmitPcrf(spec);
  ASSERT_NO_FATAL_FAILURE(test::Mutate(rtl, "", mu.from, mu.to));
  test::ExpectCaughtByLockstep(spec, rtl, mu.name);
}

INSTANTIATE_TEST_SUITE_P(Bugs, PcrfMutation,
                         ::testing::Range<size_t>(0, std::size(kLockstepMutations)),
                         test::CaseNames(kLockstepMutations));

const test::InvariantMutation kInvariantMutations[] = {
    // The free count misses the walk's frees.
    {"I1_FreeCountMissesFrees", " + CountBits'(rd_fire);", ";", "I1 violated: free count"},
    // A lost free bit: the walk frees an entry but its free bit stays clear, so the free count
    // runs ahead of the free bits.
    {"I1_LostFreeBit", "if (freed) begin\n          free_q <= 1'b1;",
     "if (freed) begin\n          free_q <= 1'b0;", "I1 violated: free count"},
    // The append leaves its entry's free bit set: the new tail of a chain is a free entry.
    {"I2_AppendLeavesEntryFree", "end_q <= 1'b1;\n          free_q <= 1'b0;",
     "end_q <= 1'b1;\n          free_q <= 1'b1;", "I2 violated: the head or tail"},
    // Find-next-free also offers entry 1 when it holds a register: two chains share it.
    {"I3_AppendIntoOccupiedEntry", "if (!alloc_found && free[e]) begin",
     "if (!alloc_found && (free[e] || e == 1)) begin", "I3 violated: append into occupied"},
    // A corrupted next pointer: the old tail links to the entry after the new one. The chain
    // shadow reports it at the link, before any walk strays into another CTA's chain (which
    // would trip I4's end-bit check, or I2 in a free entry).
    {"Chain_CorruptedNextPointer", "next_q <= alloc_entry;",
     "next_q <= alloc_entry + EntryBits'(1);", "chain shadow violated"},
    // The new entry of an append does not get the end bit: its chain has no end.
    {"I4_ChainWithoutEnd", "end_q <= 1'b1;\n", "end_q <= 1'b0;\n", "I4 violated"},
    // A restore empties the line's count but leaves its head pointer valid.
    {"I5_HeadValidAfterRestore", "if (rs_here) begin\n          head_valid_q <= 1'b0;",
     "if (rs_here) begin\n          head_valid_q <= 1'b1;", "I5 violated"},
};

class PcrfInvariant : public ::testing::TestWithParam<size_t> {};

TEST_P(PcrfInvariant, AssertionFiresOnBrokenRtl) {
  const test::InvariantMutation& mu = kInvariantMutations[GetParam()];
  const PcrfSpec spec = MutantSpec();
  GeneratedStructure rtl = EmitPcrf(spec);
  ASSERT_NO_FATAL_FAILURE(test::Mutate(rtl, "", mu.from, mu.to));
  test::NoCompareModel model;
  PcrfStimulus stim(spec, 7);
  test::ExpectAssertionFires(rtl, model, stim, 30000, mu.name, mu.message);
}

INSTANTIATE_TEST_SUITE_P(Invariants, PcrfInvariant,
                         ::testing::Range<size_t>(0, std::size(kInvariantMutations)),
                         test::CaseNames(kInvariantMutations));

}  // namespace
}  // namespace gpurf
