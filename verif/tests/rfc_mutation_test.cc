// Evidence that the RFC checks can fail. Each test plants one realistic bug in the generated RTL
// and runs `gpurf verify`'s code path: the invariant bugs must trip the RTL assertions (invariant
// 1: one copy of a register per slot; invariant 2: a live value leaves only by a dead hint, a
// newer value or a write-back) at the edge of the cycle that causes them; the behavioural bugs
// must show as a lockstep mismatch against the golden model.
#include <gtest/gtest.h>

#include "gen/structures/rfc/rfc_gen.h"
#include "gen/structures/rfc/rfc_spec.h"
#include "verif/tests/rfc_test_util.h"
#include "verif/tests/rtl_test_util.h"
#include "verif/verify.h"

namespace gpurf {
namespace {

struct Mutation {
  const char* name;
  test::RfcShape shape;
  const char* from;
  const char* to;
  bool assertion;       // caught by an RTL assertion (else by a mismatch)
  const char* message;  // substring of the failure report
};

const Mutation kMutations[] = {
    // Invariant 1: a rewrite of a cached register allocates a second entry.
    {"RewriteAllocatesDuplicate",
     {4, 1, 3, 0, 16, 4, false, true},
     "assign l1_ins_hit = (l1_ins) ? l1_wr_match : '0;",
     "assign l1_ins_hit = '0;",
     true,
     "assertion"},
    // Invariant 2: an L1 eviction forgets to load the write-back register.
    {"EvictionNotWrittenBack",
     {4, 1, 2, 0, 16, 5, true, true},
     "assign wr_uses_wb = wr_fire && (wr_bypass || l1_evict);",
     "assign wr_uses_wb = wr_fire && wr_bypass;",
     true,
     "assertion"},
    // Invariant 2 in the 2-level chain: the L0 victim is not moved into L1.
    {"L0VictimDropped",
     {4, 2, 2, 1, 16, 5, false, true},
     "assign l1_ins = wr_to_l1 || l0_evict;",
     "assign l1_ins = wr_to_l1;",
     true,
     "assertion"},
    // Replacement: the youngest entry is evicted instead of the oldest.
    {"VictimIsYoungest",
     {4, 1, 3, 0, 16, 5, false, true},
     "l1_wr_age[e*L1IdxBits +: L1IdxBits] == L1IdxBits'(L1Entries - 1);",
     "l1_wr_age[e*L1IdxBits +: L1IdxBits] == '0;",
     false,
     "signal "},
    // Liveness hints ignored: dead values stay cached (and are written back later).
    {"DeadHintIgnored",
     {4, 1, 3, 0, 16, 5, false, true},
     "if (lu_last_i[p] && (lu_slot[p] == SlotBits'(s))) begin\n          kill = kill",
     "if (1'b0) begin\n          kill = kill",
     false,
     "signal "},
    // Invariant 2 in the flush: the L1 entry is cleared while the L0 entry is written back.
    {"FlushClearsTwoEntries",
     {4, 2, 2, 1, 16, 5, true, true},
     "assign l1_fl_clear = fl_go && !l0_fl_any;",
     "assign l1_fl_clear = fl_go;",
     true,
     "assertion"},
    // The flush reports completion while live entries remain.
    {"FlushDoneEarly",
     {4, 1, 3, 0, 16, 5, false, true},
     "assign fl_done_o = fl_busy_q && !fl_has && wb_free;",
     "assign fl_done_o = fl_busy_q && wb_free;",
     false,
     "signal fl_done_o"},
};

class RfcMutation : public ::testing::TestWithParam<size_t> {};

TEST_P(RfcMutation, IsCaught) {
  const Mutation& mu = kMutations[GetParam()];
  const RfcSpec spec = test::MakeRfcSpec(mu.shape);
  GeneratedStructure rtl = EmitRfc(spec);
  ASSERT_NO_FATAL_FAILURE(test::Mutate(rtl, "", mu.from, mu.to));
  const TempDir waves("gpurf-rfc-mutation");
  const VerifyResult r = test::VerifyMutant(spec, rtl, 50000, 11, waves);
  ASSERT_FALSE(r.passed()) << mu.name << " escaped verification: " << r.Summary();
  EXPECT_EQ(r.run.assertion, mu.assertion) << r.Summary();
  const std::string s = r.Summary();
  EXPECT_NE(s.find(mu.message), std::string::npos) << s;
  EXPECT_NE(s.find("seed 11"), std::string::npos) << s;
  EXPECT_TRUE(fs::exists(r.waveform)) << s;
}

INSTANTIATE_TEST_SUITE_P(Bugs, RfcMutation, ::testing::Range<size_t>(0, std::size(kMutations)),
                         [](const ::testing::TestParamInfo<size_t>& p) {
                           return kMutations[p.param].name;
                         });

}  // namespace
}  // namespace gpurf
