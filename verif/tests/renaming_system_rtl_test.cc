// The renaming-system RTL against its golden model (label rtl):
//   - lint clean with every tool at the defaults;
//   - lockstep over small shapes (the defaults, table and MRF banks, CTAs, no exempt
//     registers); the defaults run for a million cycles and eight more shapes for 1e5 in the
//     soak tests (verif/tests/CMakeLists.txt, label soak);
//   - one RTL mutation per system invariant (S1-S5 of renaming_system_spec.h) that the lockstep
//     comparison must catch.
#include <gtest/gtest.h>

#include <filesystem>

#include "gen/structures/renaming_system/renaming_system_gen.h"
#include "verif/tests/renaming_system_test_util.h"
#include "verif/tests/rtl_test_util.h"

namespace gpurf {
namespace {

TEST(RenamingSystemLint, DefaultIsClean) {
  test::ExpectLintClean(EmitRenamingSystem(test::MakeRenamingSystemSpec({})));
}

struct MatrixCase {
  const char* name;
  std::map<std::string, int> shape;
};

const MatrixCase kMatrix[] = {
    {"Defaults", {}},
    {"NoExemptEightBanksFourCtas",
     {{"exempt", 0}, {"banks", 8}, {"per_bank", 12}, {"ctas", 4}, {"table_banks", 4}}},
};

class RenamingSystemMatrix : public ::testing::TestWithParam<size_t> {};

TEST_P(RenamingSystemMatrix, LockstepMatchesModel) {
  const RenamingSystemSpec spec = test::MakeRenamingSystemSpec(kMatrix[GetParam()].shape);
  const TempDir waves("gpurf-rensys-matrix");
  const VerifyResult r = test::VerifyMutant(spec, EmitRenamingSystem(spec), 20000, 29, waves);
  EXPECT_TRUE(r.passed()) << r.Summary();
}

INSTANTIATE_TEST_SUITE_P(Shapes, RenamingSystemMatrix,
                         ::testing::Range<size_t>(0, std::size(kMatrix)), test::CaseNames(kMatrix));

const test::LockstepMutation kMutations[] = {
    // S1: the spare is not consumed by a first write, so the next first write of the bank maps
    // the same physical register again.
    {"S1SpareNotConsumed", "spare_valid_q[b] <= 1'b0;", "spare_valid_q[b] <= spare_valid_q[b];"},
    // S2: the table's freed registers never return to their availability vector.
    {"S2FreesLost", ".rel_valid_i   (rt_free_valid),", ".rel_valid_i   ('0),"},
    // S3: every source read releases its register (pir flags ignored): later reads find it
    // released.
    {"S3EveryReadReleases", "(rel_bits & req_src_valid_i)", "(req_src_valid_i)"},
    // S4 (the throttle's allocation gate): a first write is accepted without the throttle's
    // grant, so a CTA takes registers the reserved CTA's worst case needs. (The issue_ok_o side
    // of S4 needs three or more CTA slots: RenamingSystemThrottleMutation below.)
    {"S4ThrottleGrantIgnored", "(!req_dst_ren || thr_grant)", "(!req_dst_ren || 1'b1)"},
    // S5: results are written one physical register off.
    {"S5ResultToWrongRow", ".wb_reg_i           (res_phys_i),",
     ".wb_reg_i           (res_phys_i ^ 7'd1),"},
};

class RenamingSystemMutation : public ::testing::TestWithParam<size_t> {};

TEST_P(RenamingSystemMutation, IsCaughtByLockstep) {
  const test::LockstepMutation& mu = kMutations[GetParam()];
  const RenamingSystemSpec spec = test::MakeRenamingSystemSpec({});
  GeneratedStructure rtl = EmitRenamingSystem(spec);
  ASSERT_NO_FATAL_FAILURE(test::Mutate(rtl, "", mu.from, mu.to));
  test::ExpectCaughtByLockstep(spec, rtl, mu.name);
}

INSTANTIATE_TEST_SUITE_P(Bugs, RenamingSystemMutation,
                         ::testing::Range<size_t>(0, std::size(kMutations)),
                         test::CaseNames(kMutations));

// S4 (the issue side): the request gate ignores issue_ok_o, so a warp of a CTA the throttle
// holds issues. throttle_o only rises with three or more CTA slots (the stimulus's throttle
// episodes; docs/renaming-system.md), so this runs on four, and the mismatch must come in a
// throttled cycle.
TEST(RenamingSystemThrottleMutation, S4IssueOkIgnoredIsCaught) {
  const RenamingSystemSpec spec = test::MakeRenamingSystemSpec({{"ctas", 4}});
  GeneratedStructure rtl = EmitRenamingSystem(spec);
  ASSERT_NO_FATAL_FAILURE(
      test::Mutate(rtl, "", "? (rt_ready && stage_free && flags_ok && issue_ok_o[req_cta]",
                   "? (rt_ready && stage_free && flags_ok && 1'b1"));
  const TempDir waves("gpurf-rensys-s4-issue");
  const VerifyResult r = test::VerifyMutant(spec, rtl, 30000, 7, waves);
  ASSERT_FALSE(r.passed()) << "S4IssueOkIgnored escaped verification: " << r.Summary();
  EXPECT_NE(r.Summary().find("stimulus phase 'throttled'"), std::string::npos) << r.Summary();
  EXPECT_TRUE(std::filesystem::exists(r.waveform)) << r.Summary();
}

// The unmutated four-CTA system passes the same run (so the mutation above is what fails it).
TEST(RenamingSystemThrottleMutation, FourCtasUnmutatedPasses) {
  const RenamingSystemSpec spec = test::MakeRenamingSystemSpec({{"ctas", 4}});
  const TempDir waves("gpurf-rensys-s4-clean");
  const VerifyResult r = test::VerifyMutant(spec, EmitRenamingSystem(spec), 30000, 7, waves);
  EXPECT_TRUE(r.passed()) << r.Summary();
}

}  // namespace
}  // namespace gpurf
