// The finereg-system RTL against its golden model (label rtl):
//   - lint clean with every tool at the defaults and at odd shapes;
//   - lockstep over small shapes (the defaults; a tiny unpipelined PCRF that fills; four-warp
//     CTAs with the read-priority ACRF and flip-flop storage); the defaults run for a million
//     cycles and eight more shapes for 1e5 in the soak tests (verif/tests/CMakeLists.txt, label
//     soak);
//   - one RTL mutation per system invariant (S1-S5 of finereg_system_spec.h): bugs of the RMU
//     (S1, S4) the lockstep comparison must catch; bugs inside the composed PCRF (S2 lost free
//     bit, S3 corrupted next pointer and chain without end, S5 entry on two chains) an
//     invariant assertion must catch, and with every assertion compiled out the lockstep against
//     the system model (all but the end bit, which reaches no port).
#include <gtest/gtest.h>

#include "gen/structures/finereg_system/finereg_system_gen.h"
#include "models/finereg_system_model.h"
#include "verif/stimulus/finereg_system_stimulus.h"
#include "verif/tests/finereg_system_test_util.h"
#include "verif/tests/rtl_test_util.h"

namespace gpurf {
namespace {

TEST(FineregSystemLint, DefaultIsClean) {
  test::ExpectLintClean(EmitFineregSystem(test::MakeFineregSystemSpec({})));
}

// Non-power-of-two entries, CTA slots and warp slots; one bank, one collector, one tag bit, and
// flip-flop storage: the widths that differ from the defaults' (1-bit tags and bank indices).
TEST(FineregSystemLint, OddShapesAreClean) {
  test::ExpectLintClean(EmitFineregSystem(
      test::MakeFineregSystemSpec({{"entries", "13"}, {"ctas", "5"}, {"warps", "6"}})));
  test::ExpectLintClean(EmitFineregSystem(test::MakeFineregSystemSpec({{"banks", "1"},
                                                                       {"collectors", "1"},
                                                                       {"tag_width", "1"},
                                                                       {"bank_impl", "flops"},
                                                                       {"data_impl", "flops"}})));
}

struct MatrixCase {
  const char* name;
  std::map<std::string, std::string> shape;
};

const MatrixCase kMatrix[] = {
    {"Defaults", {}},
    {"TinyUnpipelinedPcrf",
     {{"entries", "8"}, {"ctas", "2"}, {"pipelined", "false"}, {"hop_cycles", "5"}}},
    {"FourWarpCtasReadPriorityFlops",
     {{"cta_warps", "4"},
      {"regs", "8"},
      {"wb_policy", "read-priority"},
      {"bank_impl", "flops"},
      {"data_impl", "flops"},
      {"row_bytes", "8"}}},
};

class FineregSystemMatrix : public ::testing::TestWithParam<size_t> {};

TEST_P(FineregSystemMatrix, LockstepMatchesModel) {
  const FineregSystemSpec spec = test::MakeFineregSystemSpec(kMatrix[GetParam()].shape);
  const TempDir waves("gpurf-finereg-sys-matrix");
  const VerifyResult r = test::VerifyMutant(spec, EmitFineregSystem(spec), 20000, 31, waves);
  EXPECT_TRUE(r.passed()) << r.Summary();
}

// FineReg's 128 pending CTA slots (the finereg design's top, `--rtl-top`): the assertion-only
// per-CTA count array was reset in a loop Verilator cannot unroll past 64 CTA slots
// (BLKLOOPINIT, a build error with GPURF_ASSERTIONS); it is one flat vector now.
TEST(FineregSystemPaperCtas, BuildsAndMatchesModel) {
  const FineregSystemSpec spec =
      test::MakeFineregSystemSpec({{"ctas", "128"}, {"entries", "64"}, {"warps", "16"}});
  const TempDir waves("gpurf-finereg-sys-ctas");
  const VerifyResult r = test::VerifyMutant(spec, EmitFineregSystem(spec), 10000, 31, waves);
  EXPECT_TRUE(r.passed()) << r.Summary();
}

INSTANTIATE_TEST_SUITE_P(Shapes, FineregSystemMatrix,
                         ::testing::Range<size_t>(0, std::size(kMatrix)), test::CaseNames(kMatrix));

const test::LockstepMutation kLockstepMutations[] = {
    // S1: the restore engine writes each register one register off in the ACRF.
    {"S1RestoreIntoWrongRegister", "buf_reg_q <= pcrf_out_reg;",
     "buf_reg_q <= pcrf_out_reg ^ RegWidth'(1);"},
    // S4: the save engine drops the register after each one it appends (a live register that
    // never reaches the chain).
    {"S4SaveSkipsLiveRegister", "live_q <= live_next;",
     "live_q <= live_next & (live_next - LiveBits'(1));"},
};

class FineregSystemMutation : public ::testing::TestWithParam<size_t> {};

TEST_P(FineregSystemMutation, IsCaughtByLockstep) {
  const test::LockstepMutation& mu = kLockstepMutations[GetParam()];
  const FineregSystemSpec spec = test::MakeFineregSystemSpec({});
  GeneratedStructure rtl = EmitFineregSystem(spec);
  ASSERT_NO_FATAL_FAILURE(test::Mutate(rtl, "", mu.from, mu.to));
  test::ExpectCaughtByLockstep(spec, rtl, mu.name);
}

INSTANTIATE_TEST_SUITE_P(Bugs, FineregSystemMutation,
                         ::testing::Range<size_t>(0, std::size(kLockstepMutations)),
                         test::CaseNames(kLockstepMutations));

// Bugs inside the composed PCRF, the corrupted next pointer and lost free bit among
// them: an invariant assertion (the PCRF's own, or the top's S2 / S3) must stop the run, which
// goes without comparison so that the assertion, not an output difference, catches the bug.
const test::InvariantMutation kInvariantMutations[] = {
    // S2: a lost free bit: the walk frees an entry but its free bit stays clear.
    {"S2LostFreeBit", "if (freed) begin\n          free_q <= 1'b1;",
     "if (freed) begin\n          free_q <= 1'b0;", "free count"},
    // S3: a corrupted next pointer: the old tail links to the entry after the new one.
    {"S3CorruptedNextPointer", "next_q <= alloc_entry;", "next_q <= alloc_entry + EntryBits'(1);",
     "violated"},
    // S3: appends leave no end bit: a walk reaches its last register without meeting one.
    {"S3ChainWithoutEnd", "end_q <= 1'b1;\n          free_q <= 1'b0;",
     "end_q <= 1'b0;\n          free_q <= 1'b0;", "violated"},
    // S5: find-next-free also offers entry 1 when it is occupied: two chains share it.
    {"S5EntryOnTwoChains", "if (!alloc_found && free[e]) begin",
     "if (!alloc_found && (free[e] || e == 1)) begin", "occupied entry"},
};

class FineregSystemInvariant : public ::testing::TestWithParam<size_t> {};

TEST_P(FineregSystemInvariant, AssertionFiresOnBrokenRtl) {
  const test::InvariantMutation& mu = kInvariantMutations[GetParam()];
  const FineregSystemSpec spec = test::MakeFineregSystemSpec({});
  GeneratedStructure rtl = EmitFineregSystem(spec);
  ASSERT_NO_FATAL_FAILURE(test::Mutate(rtl, "rf_pcrf", mu.from, mu.to));
  test::ObserveOnly<FineregSystemModel> model(spec);
  FineregSystemStimulus stim(spec, 7);
  test::ExpectAssertionFires(rtl, model, stim, 30000, mu.name, mu.message);
}

INSTANTIATE_TEST_SUITE_P(Invariants, FineregSystemInvariant,
                         ::testing::Range<size_t>(0, std::size(kInvariantMutations)),
                         test::CaseNames(kInvariantMutations));

// The same PCRF bugs with every RTL assertion compiled out (the mutant's `ifdef guards renamed):
// the lockstep comparison against the system's golden model must catch them on its own (all but
// the lost end bit, see below).
class FineregSystemModelOnly : public ::testing::TestWithParam<size_t> {};

TEST_P(FineregSystemModelOnly, IsCaughtByLockstepWithoutAssertions) {
  const test::InvariantMutation& mu = kInvariantMutations[GetParam()];
  const FineregSystemSpec spec = test::MakeFineregSystemSpec({});
  GeneratedStructure rtl = EmitFineregSystem(spec);
  ASSERT_NO_FATAL_FAILURE(test::Mutate(rtl, "rf_pcrf", mu.from, mu.to));
  int guards = 0;
  for (auto& f : rtl.files) {
    const std::string from = "`ifdef GPURF_ASSERTIONS\n";
    for (auto pos = f.contents.find(from); pos != std::string::npos;
         pos = f.contents.find(from, pos)) {
      f.contents.replace(pos, from.size(), "`ifdef GPURF_ASSERTIONS_COMPILED_OUT\n");
      ++guards;
    }
  }
  ASSERT_GE(guards, 3);  // the top, the MRF and the PCRF
  test::ExpectCaughtByLockstep(spec, rtl, mu.name);
}

// Not S3ChainWithoutEnd (index 2): the end bit reaches no port of the top (the restore engine
// counts the registers it takes), so a chain without it restores the same registers; only the
// assertions see it.
INSTANTIATE_TEST_SUITE_P(Invariants, FineregSystemModelOnly, ::testing::Values<size_t>(0, 1, 3),
                         test::CaseNames(kInvariantMutations));

}  // namespace
}  // namespace gpurf
