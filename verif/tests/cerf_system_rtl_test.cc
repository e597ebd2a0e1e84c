// The cerf-system top's RTL against its golden model (label rtl):
//   - the generated top (with its tag array) is lint clean in Verilator, Yosys and Icarus;
//   - lockstep of the default shape for 1e5 cycles;
//   - bugs planted in the glue that the lockstep must catch, one per data invariant of the
//     contract (D1 a register read returns its last value through spills and fills, D2 a load
//     returns memory's value, D3 a dirty line is written back) plus the spill path, store hits
//     and the MSHR's ready handshake;
//   - one mutation per tag-array invariant (I1 one line per (set, tag), I2 lru-prioritized never
//     evicts a register for cache data, I3 a dirty line's write-back, I4 Fig. 6 transitions)
//     planted in the instantiated tag array, which the top's verify run must catch too (by an
//     output mismatch or by the tag array's invariant assertion, whichever comes first).
// 8 more shapes at 1e5 cycles run as soak tests (soak_cerf_system_*, verif/tests/CMakeLists.txt).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "gen/structures/cerf_system/cerf_system_gen.h"
#include "verif/tests/cerf_system_test_util.h"
#include "verif/tests/rtl_test_util.h"
#include "verif/verify.h"

namespace gpurf {
namespace {

TEST(CerfSystemRtl, LintClean) {
  test::ExpectLintClean(EmitCerfSystem(test::MakeCerfSpec({})));
}

TEST(CerfSystemRtl, LockstepMatchesModel) {
  const CerfSystemSpec spec = test::MakeCerfSpec({{"policy", "lru-fair"}, {"lookups", "3"}});
  const TempDir waves("gpurf-cerf-lockstep");
  const VerifyResult r = test::VerifyMutant(spec, EmitCerfSystem(spec), 100000, 31, waves);
  EXPECT_TRUE(r.passed()) << r.Summary();
}

struct Mutation {
  const char* name;
  const char* file;  // "" the top, "rf_tags" the tag array
  const char* policy;
  const char* from;
  const char* to;
};

const Mutation kMutations[] = {
    // D1: a filled register is written with the L2 port's data.
    {"D1_FillWritesWrongData", "", "lru-fair", "lines_q[mshr_row_q[p]] <= fill_rsp_data_i;",
     "lines_q[mshr_row_q[p]] <= mem_rsp_data_i;"},
    // D2: a load's refill never reaches the data array.
    {"D2_LoadRefillNotWritten", "", "lru-prioritized",
     "if ((mem_rsp_hit[p] && mshr_alloc_q[p])) begin", "if (1'b0) begin"},
    // D3: dirty victims are not written back (clean ones are).
    {"D3_DirtyVictimDropped", "", "lru-prioritized", "t_rsp_victim_state[p*2 +: 2] == 2'd3)",
     "t_rsp_victim_state[p*2 +: 2] == 2'd2)"},
    // A register evicted under lru-fair is not spilled.
    {"SpillDropped", "", "lru-fair", "t_rsp_victim_state[p*2 +: 2] == 2'd1;",
     "t_rsp_victim_state[p*2 +: 2] == 2'd0;"},
    // A store that hits leaves the line's data unchanged.
    {"StoreHitNotWritten", "", "lru-prioritized", "(cur_op[p*2 +: 2] == 2'd3 && t_rsp_hit[p])",
     "(1'b0)"},
    // The next instruction is accepted while refills are outstanding.
    {"ReadyIgnoresMshr", "", "lru-fair", "assign t_req_valid = req_valid_i && !mshr_busy;",
     "assign t_req_valid = req_valid_i;"},
    // Tag-array invariants, planted in the instantiated tag array.
    {"I1_TagInTwoLines", "rf_tags", "lru-prioritized", "hit[p] = 1'b1;", "hit[p] = (w == 0);"},
    {"I2_RegisterEvictedForLoad", "rf_tags", "lru-prioritized",
     "end else if (Prioritized == 0) begin", "end else if (1'b1) begin"},
    {"I3_DirtyVictimUnreported", "rf_tags", "lru-prioritized",
     "victim[p] = fill[p] && !free_found[p];",
     "victim[p] = fill[p] && !free_found[p] && (fill_way[p] != '0);"},
    {"I4_RegBecomesDirty", "rf_tags", "lru-fair",
     "new_state[p] = (cur_op[p] == 2'd3) ? 2'd3 : hit_state[p];",
     "new_state[p] = (cur_op[p][0]) ? 2'd3 : hit_state[p];"},
};

class CerfSystemMutation : public ::testing::TestWithParam<size_t> {};

TEST_P(CerfSystemMutation, IsCaughtByLockstep) {
  const Mutation& mu = kMutations[GetParam()];
  const CerfSystemSpec spec = test::MakeCerfSpec({{"policy", mu.policy}});
  GeneratedStructure rtl = EmitCerfSystem(spec);
  ASSERT_NO_FATAL_FAILURE(test::Mutate(rtl, mu.file, mu.from, mu.to));
  if (std::string(mu.file).empty()) {
    test::ExpectCaughtByLockstep(spec, rtl, mu.name);
    return;
  }
  // In the tag array either the output comparison or the tag array's own invariant assertion
  // (which verify compiles in) stops the run first; both report the cycle, the stimulus phase
  // and leave a waveform.
  const TempDir waves("gpurf-mutation");
  const VerifyResult r = test::VerifyMutant(spec, rtl, 30000, 7, waves);
  ASSERT_FALSE(r.passed()) << mu.name << " escaped verification: " << r.Summary();
  EXPECT_NE(r.Summary().find("stimulus phase"), std::string::npos) << r.Summary();
  EXPECT_TRUE(std::filesystem::exists(r.waveform)) << r.Summary();
}

INSTANTIATE_TEST_SUITE_P(Bugs, CerfSystemMutation,
                         ::testing::Range<size_t>(0, std::size(kMutations)),
                         test::CaseNames(kMutations));

}  // namespace
}  // namespace gpurf
