// Evidence that the lockstep check can fail: each test plants one realistic bug in generated
// RTL (or in the clock-gate primitive) and requires `gpurf verify`'s code path to report a
// mismatch with seed, cycle, signal, expected and actual values, and to leave a waveform.
// The misuse tests drive out-of-range addresses and require the RTL assertion to fire at the
// exact cycle.
#include <gtest/gtest.h>

#include "gen/structures/flop_array/flop_array_gen.h"
#include "gen/structures/flop_array/flop_array_spec.h"
#include "models/flop_array_model.h"
#include "verif/stimulus/flop_array_stimulus.h"
#include "verif/tests/rtl_test_util.h"
#include "verif/tests/test_util.h"
#include "verif/verify.h"

namespace gpurf {
namespace {

struct Mutation {
  const char* name;
  test::Shape shape;
  const char* file;  // "" = the generated top module
  const char* from;
  const char* to;
};

const Mutation kMutations[] = {
    {"LowestWritePortWins",
     {6, 16, 2, 3, false, false, true},
     "",
     "if (we_i[w] && (waddr[w] == AddrWidth'(r))) begin",
     "if (we_i[w] && (waddr[w] == AddrWidth'(r)) && !row_we) begin"},
    {"BypassDropped",
     {6, 16, 2, 2, false, true, true},
     "",
     "rdata_d = wdata[w];",
     "rdata_d = mem[addr];"},
    {"ReadRegisterNotReset",
     {6, 16, 2, 1, true, false, true},
     "",
     "rdata_q <= '0;",
     "rdata_q <= rdata_d;"},
    {"StuckAtZeroBit",
     {6, 16, 2, 1, false, false, true},
     "",
     "assign mem[r] = row_q;",
     "assign mem[r] = {row_q[Width-1:1], 1'b0};"},
    {"WriteIgnoresEnable",
     {6, 16, 2, 1, false, false, false},
     "",
     "if (row_we) begin",
     "if (1'b1) begin"},
    // Write-data segmentation (28 rows: segments of 8, 8, 8 and 4 with the default "auto").
    {"LastSegmentEnableStuckLow",
     {28, 16, 2, 1, false, false, true},
     "",
     "== AddrWidth'(s));",
     "== AddrWidth'(s)) && (s != NumWriteSegments - 1);"},
    {"SegmentDecodeOffByOne",
     {28, 16, 2, 1, false, false, false},
     "",
     "== AddrWidth'(s));",
     "== AddrWidth'(s + 1));"},
    {"RowTakesPortZerosSegmentData",
     {28, 16, 2, 2, false, false, true},
     "",
     "assign port_wdata[w] = seg_wdata[Segment*NumWritePorts + w];",
     "assign port_wdata[w] = seg_wdata[Segment*NumWritePorts];"},
    {"ClockGateNeverOpens",
     {6, 16, 2, 1, false, false, true},
     "gpurf_clock_gate.sv",
     "en_latch = en_i | test_en_i;",
     "en_latch = en_i & test_en_i;"},
};

class FlopArrayMutation : public ::testing::TestWithParam<size_t> {};

TEST_P(FlopArrayMutation, IsCaughtWithReportAndWaveform) {
  const Mutation& mu = kMutations[GetParam()];
  const FlopArraySpec spec = test::MakeSpec(mu.shape);
  GeneratedStructure rtl = EmitFlopArray(spec);
  ASSERT_NO_FATAL_FAILURE(test::Mutate(rtl, mu.file, mu.from, mu.to));
  const TempDir waves("gpurf-mutation");
  const VerifyResult r = test::VerifyMutant(spec, rtl, 20000, 7, waves);
  ASSERT_FALSE(r.passed()) << mu.name << " escaped verification: " << r.Summary();
  EXPECT_FALSE(r.run.assertion);
  const std::string s = r.Summary();
  EXPECT_NE(s.find("mismatch at cycle " + std::to_string(r.run.fail_cycle)), std::string::npos)
      << s;
  EXPECT_NE(s.find("seed 7"), std::string::npos) << s;
  EXPECT_NE(s.find("signal rdata_o"), std::string::npos) << s;
  EXPECT_NE(s.find("expected "), std::string::npos) << s;
  EXPECT_NE(s.find("actual "), std::string::npos) << s;
  ASSERT_TRUE(fs::exists(r.waveform)) << s;
  const std::string vcd = ReadFile(r.waveform);
  EXPECT_NE(vcd.find("$enddefinitions"), std::string::npos);
  EXPECT_NE(vcd.find("rdata_o"), std::string::npos);
  EXPECT_NE(vcd.find("#" + std::to_string(10 * r.run.fail_cycle)), std::string::npos)
      << "waveform must reach the failing cycle";
}

INSTANTIATE_TEST_SUITE_P(Bugs, FlopArrayMutation,
                         ::testing::Range<size_t>(0, std::size(kMutations)),
                         [](const ::testing::TestParamInfo<size_t>& p) {
                           return kMutations[p.param].name;
                         });

// Drives the normal stimulus, then one out-of-range address at cycle `at`.
class MisuseStimulus : public Stimulus {
 public:
  MisuseStimulus(const FlopArraySpec& s, uint64_t at, bool write)
      : s_(s), inner_(s, 3), at_(at), write_(write) {}
  void Next(uint64_t cycle, PortValues& in) override {
    inner_.Next(cycle, in);
    if (cycle != at_)
      return;
    in[FlopArrayModel::kRstN] = Bits(1, 1);
    if (write_) {
      in[FlopArrayModel::kWe].set_bit(0, true);
      in[FlopArrayModel::kWaddr].set(0, s_.addr_width, s_.entries + 1);
    } else {
      in[FlopArrayModel::kRaddr].set(0, s_.addr_width, s_.entries + 2);
    }
  }
  std::string Phase() const override { return "misuse"; }

 private:
  FlopArraySpec s_;
  FlopArrayStimulus inner_;
  uint64_t at_;
  bool write_;
};

void ExpectAssertionAt(bool write) {
  const FlopArraySpec spec = test::MakeSpec({5, 8, 2, 1, false, false, true});
  const GeneratedStructure rtl = EmitFlopArray(spec);
  BuildOptions bo;
  bo.jobs = 1;
  const BuiltModel built = BuildModel(rtl, bo);
  auto dut = LoadModel(built);
  FlopArrayModel model(spec);
  MisuseStimulus stim(spec, 300, write);
  LockstepOptions lo;
  lo.cycles = 1000;
  const LockstepResult r = RunLockstep(*dut, rtl, model, stim, lo);
  ASSERT_FALSE(r.passed);
  EXPECT_TRUE(r.assertion) << r.failure;
  EXPECT_EQ(r.fail_cycle, 300u) << r.failure;
  EXPECT_NE(r.failure.find("assertion"), std::string::npos);
}

TEST(FlopArrayMisuse, OutOfRangeReadFiresAssertion) {
  ExpectAssertionAt(false);
}
TEST(FlopArrayMisuse, OutOfRangeWriteFiresAssertion) {
  ExpectAssertionAt(true);
}

}  // namespace
}  // namespace gpurf
