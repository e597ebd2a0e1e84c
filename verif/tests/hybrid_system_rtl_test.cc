// The hybrid register-file system top's RTL against its golden model (label rtl; the Lint tests
// lint every registered kind in all three tools):
//   - lockstep of the default (hierarchical) and the parallel-evict organization (the default
//     runs for 1e6 cycles and eight more configurations for 1e5 in the soak_hybrid_system_*
//     tests);
//   - one RTL mutation per system invariant of the glue, each caught by the lockstep with a
//     mismatch report (cycle, stimulus phase) and a waveform: I1 no stale read (a fill ignoring
//     the write-back it snooped; an MRF read sent before older write-backs reached the MRF), I2 a
//     dirty live value never dropped (the FIFO loses channel 1's victim), I3 no RSP miss (the
//     transfer port freed before the fill wrote its slot), I4 dispatched operands are the last
//     values written (MRF operands captured into the wrong operand).
#include <gtest/gtest.h>

#include "gen/structures/hybrid_system/hybrid_system_gen.h"
#include "gen/structures/hybrid_system/hybrid_system_spec.h"
#include "verif/tests/rtl_test_util.h"
#include "verif/verify.h"

namespace gpurf {
namespace {

HybridSystemSpec Spec(const char* organization) {
  ParamSet p(HybridSystemSpec::ParamDescs());
  p.Set("organization", organization, {}, "organization");
  return HybridSystemSpec::FromParams(p);
}

TEST(HybridSystemRtl, LockstepMatchesModelHierarchical) {
  const HybridSystemSpec spec = Spec("hierarchical");
  const TempDir waves("gpurf-hybrid-system");
  const VerifyResult r = test::VerifyMutant(spec, EmitHybridSystem(spec), 50000, 21, waves);
  EXPECT_TRUE(r.passed()) << r.Summary();
}

TEST(HybridSystemRtl, LockstepMatchesModelParallelEvict) {
  const HybridSystemSpec spec = Spec("parallel-evict");
  const TempDir waves("gpurf-hybrid-system");
  const VerifyResult r = test::VerifyMutant(spec, EmitHybridSystem(spec), 50000, 22, waves);
  EXPECT_TRUE(r.passed()) << r.Summary();
}

struct Mutation {
  const char* name;
  const char* from;
  const char* to;
};

const Mutation kMutations[] = {
    {"I1_FillIgnoresSnoopedWriteBack", "snoop_valid_q ? snoop_data_q",
     "1'b0 && snoop_valid_q ? snoop_data_q"},
    {"I1_MrfReadBeforeOlderWriteBacks",
     "assign mrf_issue_valid = rst_ni && mrf_want && (wbq_count_q <= WbqCntWidth'(1));",
     "assign mrf_issue_valid = rst_ni && mrf_want && (wbq_count_q <= WbqCntWidth'(WbqEntries));"},
    {"I2_WriteBackFifoLosesAVictim", "if (rc_wb_valid[1]) begin", "if (1'b0) begin"},
    {"I3_TransferReadyBeforeTheFillLands",
     "assign xf_ready_o = rst_ni && !hold && xf_state_q == 2'd0;",
     "assign xf_ready_o = rst_ni && !hold && xf_state_q != 2'd1;"},
    {"I4_MrfOperandIntoTheWrongSlot", "<= mrf_disp_data[s*Width +: Width];",
     "<= mrf_disp_data[0 +: Width];"},
};

class HybridSystemMutation : public ::testing::TestWithParam<size_t> {};

TEST_P(HybridSystemMutation, CaughtByLockstep) {
  const Mutation& mu = kMutations[GetParam()];
  const HybridSystemSpec spec = Spec("hierarchical");
  GeneratedStructure rtl = EmitHybridSystem(spec);
  ASSERT_NO_FATAL_FAILURE(test::Mutate(rtl, "", mu.from, mu.to));
  test::ExpectCaughtByLockstep(spec, rtl, mu.name);
}

INSTANTIATE_TEST_SUITE_P(Invariants, HybridSystemMutation,
                         ::testing::Range<size_t>(0, std::size(kMutations)),
                         [](const ::testing::TestParamInfo<size_t>& p) {
                           return kMutations[p.param].name;
                         });

}  // namespace
}  // namespace gpurf
