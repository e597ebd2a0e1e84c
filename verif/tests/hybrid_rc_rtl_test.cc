// The hybrid register cache / scratchpad's RTL against its golden model (label rtl; the Lint
// tests lint every registered kind in all three tools):
//   - lockstep on small configurations of each organization (the paper's default point and
//     eight more configurations run for 1e6 / 1e5 cycles in the soak_hybrid_rc_* tests);
//   - one RTL mutation per invariant (I1 one line per (set, tag), I2 a dirty value never
//     dropped, I3 no stale read, for the fill and for parallel-evict's surviving copy) that must
//     make the invariant's own assertion fire, run without comparison so that the assertion,
//     not an earlier output difference, stops the run; and I4 (no RSP miss), the compiler's
//     contract, broken by a stimulus that reads a slot never written.
#include <gtest/gtest.h>

#include "gen/structures/hybrid_rc/hybrid_rc_gen.h"
#include "gen/structures/hybrid_rc/hybrid_rc_ports.h"
#include "gen/structures/hybrid_rc/hybrid_rc_spec.h"
#include "models/hybrid_rc_model.h"
#include "verif/stimulus/hybrid_rc_stimulus.h"
#include "verif/tests/hybrid_rc_test_util.h"
#include "verif/tests/rtl_test_util.h"
#include "verif/tests/sched_orf_test_util.h"
#include "verif/verify.h"

namespace gpurf {
namespace {

const char* const kOrganizations[] = {"hierarchical", "parallel-evict", "parallel-lifetime"};

class HybridRcOrganization : public ::testing::TestWithParam<size_t> {};

TEST_P(HybridRcOrganization, LockstepMatchesModel) {
  const HybridRcSpec spec = test::TinyHybridSpec(kOrganizations[GetParam()]);
  const TempDir waves("gpurf-hybrid-rc");
  const VerifyResult r = test::VerifyMutant(spec, EmitHybridRc(spec), 40000, 21, waves);
  EXPECT_TRUE(r.passed()) << r.Summary();
}

INSTANTIATE_TEST_SUITE_P(Organizations, HybridRcOrganization,
                         ::testing::Range<size_t>(0, std::size(kOrganizations)),
                         [](const ::testing::TestParamInfo<size_t>& p) {
                           std::string n = kOrganizations[p.param];
                           std::erase(n, '-');
                           return n;
                         });

// Bailey's comparison points at small sizes: RSP only (no RC), RC only (no RSP) with a
// non-power-of-two number of sets (3 sets of 2 ways: the 12 KB point's 12 sets per scheduler
// in small), and an RC of 3 sets beside an RSP, in both organizations that transfer.
struct ZeroSizeShape {
  const char* name;
  test::HybridShape shape;
};
const ZeroSizeShape kZeroSizeShapes[] = {
    {"RspOnly", {0, 384, 128, 2, 2, 3, 8, "hierarchical"}},
    {"RcOnlyThreeSets", {768, 0, 128, 2, 2, 3, 8, "hierarchical"}},
    {"RcOnlyTwoSets", {512, 0, 128, 2, 2, 3, 8, "parallel-evict"}},
    {"ThreeSetsHierarchical", {768, 256, 128, 2, 2, 3, 8, "hierarchical"}},
    {"ThreeSetsParallelEvict", {768, 256, 128, 2, 2, 3, 8, "parallel-evict"}},
};

class HybridRcZeroSize : public ::testing::TestWithParam<size_t> {};

TEST_P(HybridRcZeroSize, LockstepMatchesModel) {
  const HybridRcSpec spec = test::MakeHybridSpec(kZeroSizeShapes[GetParam()].shape);
  const TempDir waves("gpurf-hybrid-rc");
  const VerifyResult r = test::VerifyMutant(spec, EmitHybridRc(spec), 40000, 23, waves);
  EXPECT_TRUE(r.passed()) << r.Summary();
  EXPECT_EQ(r.run.cycles, 40000U);
}

INSTANTIATE_TEST_SUITE_P(Shapes, HybridRcZeroSize,
                         ::testing::Range<size_t>(0, std::size(kZeroSizeShapes)),
                         [](const ::testing::TestParamInfo<size_t>& p) {
                           return kZeroSizeShapes[p.param].name;
                         });

// RSP only: a live-out or an RC write that is not passed to the MRF loses the value; the model
// (which writes both back at once) sees the difference.
TEST(HybridRcZeroSizeMutation, RspOnlyDroppedLiveOutIsAMismatch) {
  const HybridRcSpec spec = test::MakeHybridSpec({0, 384, 128, 2, 2, 3, 8, "hierarchical"});
  for (const auto& [from, to] : {std::pair<const char*, const char*>{
                                     "assign wb_valid_o[2] = rst_ni && xf_valid_i && xf_op_i;",
                                     "assign wb_valid_o[2] = 1'b0;"},
                                 {"assign wb_valid_o[g] = rst_ni && wr_valid_i[g] && !wr_rsp_i[g];",
                                  "assign wb_valid_o[g] = 1'b0;"}}) {
    SCOPED_TRACE(from);
    GeneratedStructure rtl = EmitHybridRc(spec);
    ASSERT_NO_FATAL_FAILURE(test::Mutate(rtl, "", from, to));
    test::ExpectCaughtByLockstep(spec, rtl, from);
  }
}

// RC only with 3 sets: a set index taken as the register's low bits (the power-of-two rule)
// puts registers where the model does not, and its LRU replacement differs.
TEST(HybridRcZeroSizeMutation, RcOnlyPowerOfTwoSetIndexIsAMismatch) {
  const HybridRcSpec spec = test::MakeHybridSpec({768, 0, 128, 2, 2, 3, 8, "hierarchical"});
  GeneratedStructure rtl = EmitHybridRc(spec);
  ASSERT_NO_FATAL_FAILURE(test::Mutate(rtl, "", "% NumSets)", "& 32'(NumSets - 1))"));
  test::ExpectCaughtByLockstep(spec, rtl, "power-of-two set index");
}

// RC only: any RSP access breaks the contract (no slot exists): the RTL's I4 fires.
TEST(HybridRcInvariantI4, RcOnlyRspReadFiresTheAssertion) {
  const HybridRcSpec spec = test::MakeHybridSpec({768, 0, 128, 2, 2, 3, 8, "hierarchical"});
  class RspRead : public Stimulus {
   public:
    void Next(uint64_t cycle, PortValues& in) override {
      using P = HybridRcPort;
      for (int p = P::kRstN; p <= P::kXfData; ++p)
        in[p].clear();
      in[P::kRstN] = Bits(1, cycle < 2 ? 0 : 1);
      if (cycle >= 6) {
        in[P::kRdValid].set_bit(3, true);
        in[P::kRdRsp].set_bit(3, true);
      }
    }
    std::string Phase() const override { return "rsp-read-without-rsp"; }
  } stim;
  test::NoCompareModel model;
  const test::CapturedRun o = test::RunCaptured(EmitHybridRc(spec), model, stim, 50);
  ASSERT_FALSE(o.run.passed);
  EXPECT_TRUE(o.run.assertion) << o.run.failure;
  EXPECT_EQ(o.run.fail_cycle, 6U);
  EXPECT_NE(o.log.find("I4 violated: an RSP access or transfer without an RSP"), std::string::npos)
      << o.log;
}

struct InvariantMutation {
  const char* name;
  const char* organization;
  const char* from;
  const char* to;
  const char* message;
};

const InvariantMutation kInvariantMutations[] = {
    // A write's tag compare misses hits in ways other than 0: the register gets a second line.
    {"I1_SecondLineForARegister", "hierarchical", "hit_w[q] = 1'b1;", "hit_w[q] = (w == 0);",
     "I1 violated"},
    // A write's victim goes unreported: the replaced dirty value is lost.
    {"I2_VictimNotWrittenBack", "hierarchical", "victim_w[q] = !free_w[q];", "victim_w[q] = 1'b0;",
     "I2 violated"},
    // A fill always takes the MRF's value, even when the RC holds a newer one.
    {"I3_FillFromTheMrf", "hierarchical", "assign fill_data = xf_hit ? xf_line_data : xf_data_i;",
     "assign fill_data = xf_data_i;", "I3 violated: a fill took the MRF's value"},
    // parallel-evict: a live-out leaves the RC's older copy valid.
    {"I3_ParallelCopySurvivesLiveOut", "parallel-evict", "sv[way_x] = 1'b0;",
     "sv[way_x] = xf_op_i;", "I3 violated: the RC kept a register the RSP transferred"},
};

class HybridRcInvariant : public ::testing::TestWithParam<size_t> {};

TEST_P(HybridRcInvariant, AssertionFiresOnBrokenRtl) {
  const InvariantMutation& mu = kInvariantMutations[GetParam()];
  const HybridRcSpec spec = test::TinyHybridSpec(mu.organization);
  GeneratedStructure rtl = EmitHybridRc(spec);
  ASSERT_NO_FATAL_FAILURE(test::Mutate(rtl, "", mu.from, mu.to));
  test::NoCompareModel model;
  HybridRcStimulus stim(spec, 7);
  test::ExpectAssertionFires(rtl, model, stim, 30000, mu.name, mu.message);
}

INSTANTIATE_TEST_SUITE_P(Invariants, HybridRcInvariant,
                         ::testing::Range<size_t>(0, std::size(kInvariantMutations)),
                         [](const ::testing::TestParamInfo<size_t>& p) {
                           return kInvariantMutations[p.param].name;
                         });

// A pipeline that reads RSP slot 1 before anything wrote it: the miss the compiler must never
// cause. Two cycles of reset, then RSP writes of slot 0 and, from cycle 10, a read of slot 1.
class RspMissStimulus : public Stimulus {
 public:
  explicit RspMissStimulus(const HybridRcSpec& s) : s_(s) {}
  void Next(uint64_t cycle, PortValues& in) override {
    using P = HybridRcPort;
    for (int p = P::kRstN; p <= P::kXfData; ++p)
      in[p].clear();
    in[P::kRstN] = Bits(1, cycle < 2 ? 0 : 1);
    in[P::kWrValid].set_bit(0, true);
    in[P::kWrRsp].set_bit(0, true);
    in[P::kWrData].set(0, 8, cycle);
    if (cycle >= 10) {
      in[P::kRdValid].set_bit(0, true);
      in[P::kRdRsp].set_bit(0, true);
      in[P::kRdSlot].set(0, s_.slot_bits, 1);
    }
  }
  std::string Phase() const override { return "rsp-miss"; }

 private:
  const HybridRcSpec s_;
};

TEST(HybridRcInvariantI4, RspMissFiresTheAssertionAndFailsTheModel) {
  const HybridRcSpec spec = test::TinyHybridSpec("hierarchical");
  {
    test::NoCompareModel model;
    RspMissStimulus stim(spec);
    const test::CapturedRun o = test::RunCaptured(EmitHybridRc(spec), model, stim, 100);
    ASSERT_FALSE(o.run.passed);
    EXPECT_TRUE(o.run.assertion) << o.run.failure;
    EXPECT_EQ(o.run.fail_cycle, 10U);
    EXPECT_NE(o.log.find("I4 violated"), std::string::npos) << o.log;
  }
  HybridRcCycleModel model(spec);
  RspMissStimulus stim(spec);
  PortValues in = HybridRcPortTable(spec).ZeroValues(), out = in, def = in;
  for (uint64_t c = 0; c <= 10; ++c) {
    stim.Next(c, in);
    model.Outputs(in, out, def);
    model.Clock(in);
    EXPECT_EQ(model.Failure().empty(), c < 10) << c;
  }
}

}  // namespace
}  // namespace gpurf
