// The renaming table's RTL against its golden model (label rtl):
//   - lint clean in all three tools on every configuration of the matrix;
//   - lockstep over a matrix of configurations (the paper's 1 KB table, its full 3.8 KB table,
//     8 banks with a full window, a window of one row per bank); eight more configurations run
//     for 1e5 cycles each, and the default for 1e6, in the soak_renaming_table_* tests;
//   - realistic bugs planted in the generated RTL that the lockstep comparison must catch (the
//     destination not waiting for its bank, a wrong exempt mapping, a pbr list walking unmapped
//     entries);
//   - one RTL mutation per invariant (I1 no physical register mapped twice, I2 a released
//     mapping never read as mapped, I3 a freed id was mapped) that must make the invariant's own
//     assertion fire, run without comparison (the golden model still answers the stimulus's
//     handshakes) so that the assertion, not an earlier output difference, stops the run.
#include <gtest/gtest.h>

#include "gen/structures/renaming_table/renaming_table_gen.h"
#include "gen/structures/renaming_table/renaming_table_spec.h"
#include "models/renaming_table_model.h"
#include "verif/stimulus/renaming_table_stimulus.h"
#include "verif/tests/renaming_table_test_util.h"
#include "verif/tests/rtl_test_util.h"
#include "verif/verify.h"

namespace gpurf {
namespace {

using test::RenameShape;

struct MatrixCase {
  const char* name;
  RenameShape shape;
};

const MatrixCase kMatrix[] = {
    {"Paper1KB", {}},
    {"PaperFullTable", {.capacity_bytes = 3780}},
    {"EightBanksFullWindow",
     {.warps = 8, .regs = 32, .phys_regs = 256, .capacity_bytes = 256, .banks = 8}},
    {"OneRowPerBank", {.warps = 16, .regs = 24, .phys_regs = 128, .capacity_bytes = 64}},
};

// Verilator -Wall, Yosys check and Icarus, with and without the assertions, report nothing on
// every configuration of the matrix.
TEST(RenamingTableLint, EveryMatrixConfigurationLintsClean) {
  for (const MatrixCase& c : kMatrix) {
    SCOPED_TRACE(c.name);
    test::ExpectLintClean(EmitRenamingTable(test::MakeRenameSpec(c.shape)));
  }
}

class RenamingTableMatrix : public ::testing::TestWithParam<size_t> {};

TEST_P(RenamingTableMatrix, LockstepMatchesModel) {
  const RenamingTableSpec spec = test::MakeRenameSpec(kMatrix[GetParam()].shape);
  const TempDir waves("gpurf-rename-matrix");
  const VerifyResult r = test::VerifyMutant(spec, EmitRenamingTable(spec), 30000, 21, waves);
  EXPECT_TRUE(r.passed()) << r.Summary();
}

INSTANTIATE_TEST_SUITE_P(Configs, RenamingTableMatrix,
                         ::testing::Range<size_t>(0, std::size(kMatrix)), test::CaseNames(kMatrix));

const test::LockstepMutation kLockstepMutations[] = {
    {"DestinationDoesNotWaitForItsBank", "(!dst_renamed || !bank_has_src[dst_bank])",
     "(!dst_renamed || 1'b1)"},
    {"ExemptMappingUsesRegisterCount", "PhysBits'(32'(cur_warp) * 32'(exempt_i)",
     "PhysBits'(32'(cur_warp) * 32'(NumRegs)"},
    {"PbrListWalksUnmappedEntries", ": rel_window) & warp_valid)", ": rel_window))"},
};

class RenamingTableMutation : public ::testing::TestWithParam<size_t> {};

TEST_P(RenamingTableMutation, IsCaughtByLockstep) {
  const test::LockstepMutation& mu = kLockstepMutations[GetParam()];
  const RenamingTableSpec spec = test::SmallRenameSpec();
  GeneratedStructure rtl = EmitRenamingTable(spec);
  ASSERT_NO_FATAL_FAILURE(test::Mutate(rtl, "", mu.from, mu.to));
  test::ExpectCaughtByLockstep(spec, rtl, mu.name);
}

INSTANTIATE_TEST_SUITE_P(Bugs, RenamingTableMutation,
                         ::testing::Range<size_t>(0, std::size(kLockstepMutations)),
                         test::CaseNames(kLockstepMutations));

const test::InvariantMutation kInvariantMutations[] = {
    // A release reports the id free but keeps the entry: the id is handed out again while the
    // entry still holds it.
    {"I1_ReleasedEntryKeptValid", "valid_q[row] <= 1'b0;", "valid_q[row] <= 1'b1;", "I1 violated"},
    // A lookup ignores the valid bit: a released (or never written) register reads as mapped.
    {"I2_ReadIgnoresValidBit", "src_mapped[p] = rd_valid[src_bank[p]];", "src_mapped[p] = 1'b1;",
     "I2 violated"},
    // A pir release of a register without a mapping frees whatever its row holds.
    {"I3_PirFreesUnmappedEntry", "((acc_src[b] && acc_pir[b]) || acc_rel[b]) && rd_valid[b]",
     "((acc_src[b] && acc_pir[b]) || acc_rel[b])", "I3 violated"},
};

class RenamingTableInvariant : public ::testing::TestWithParam<size_t> {};

TEST_P(RenamingTableInvariant, AssertionFiresOnBrokenRtl) {
  const test::InvariantMutation& mu = kInvariantMutations[GetParam()];
  const RenamingTableSpec spec = test::SmallRenameSpec();
  GeneratedStructure rtl = EmitRenamingTable(spec);
  ASSERT_NO_FATAL_FAILURE(test::Mutate(rtl, "", mu.from, mu.to));
  test::ObserveOnly<RenamingTableModel> model(spec);
  RenamingTableStimulus stim(spec, 7);
  test::ExpectAssertionFires(rtl, model, stim, 30000, mu.name, mu.message);
}

INSTANTIATE_TEST_SUITE_P(Invariants, RenamingTableInvariant,
                         ::testing::Range<size_t>(0, std::size(kInvariantMutations)),
                         test::CaseNames(kInvariantMutations));

// The unmutated RTL runs the same 30,000 cycles without an assertion firing (so the mutations
// above are what fire them).
TEST(RenamingTableInvariant, NoAssertionFiresOnTheGeneratedRtl) {
  const RenamingTableSpec spec = test::SmallRenameSpec();
  test::ObserveOnly<RenamingTableModel> model(spec);
  RenamingTableStimulus stim(spec, 7);
  const test::CapturedRun o = test::RunCaptured(EmitRenamingTable(spec), model, stim, 30000);
  EXPECT_TRUE(o.run.passed) << o.run.failure << o.log;
}

}  // namespace
}  // namespace gpurf
