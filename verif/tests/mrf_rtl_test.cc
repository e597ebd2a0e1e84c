// The banked MRF across its parameter space, through the code path of `gpurf lint` and
// `gpurf verify`: every configuration below is generated, linted (Verilator and Icarus in the
// simulation and synthesis views, Yosys in the synthesis view), built with Verilator and run
// for 100k cycles in lockstep with the golden model under the reactive stimulus (reset, sweep,
// random, one-bank, same-bank, write-back contention, back-to-back, back-pressure, no-source,
// idle and reset phases). The configurations cover 1..64 banks (powers of two and not), rows
// 4..256, width 1..128, 1..8 collectors, both interleavings, both write-back policies, both
// bank implementations, tag and counter widths down to 1 and 8 bits (counters wrap), and the
// per-cluster slice of Gebhart's default MRF (4 banks x 256 x 128, 32 warps x 32 registers).
// After each run the golden model's event counts over the run show that the conflict, stall and
// write-back contention paths were exercised.
//
// Then evidence that the checks can fail: realistic bugs planted in the generated RTL and in
// the SRAM wrapper, each caught as a mismatch or by an RTL assertion, and misuse (warp or
// register out of range) reported by an assertion at the exact cycle.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "gen/structures/mrf/mrf_gen.h"
#include "gen/structures/mrf/mrf_spec.h"
#include "models/mrf_model.h"
#include "verif/harness/lockstep.h"
#include "verif/harness/verilator_build.h"
#include "verif/lint/lint.h"
#include "verif/stimulus/mrf_stimulus.h"
#include "verif/tests/rtl_test_util.h"
#include "verif/verify.h"

namespace gpurf {
namespace {

using Values = std::map<std::string, std::string>;

MrfSpec Spec(const Values& values) {
  ParamSet p(MrfSpec::ParamDescs());
  for (const auto& [k, v] : values)
    p.Set(k, v, {}, "--" + k);
  return MrfSpec::FromParams(p);
}

struct Config {
  const char* name;
  Values values;
};

const Config kConfigs[] = {
    {"b4_r16_w16_k2_reg_wp_macro",
     {{"banks", "4"},
      {"rows", "16"},
      {"width", "16"},
      {"warps", "4"},
      {"regs", "8"},
      {"collectors", "2"}}},
    {"b4_r16_w16_k2_swz_rp_flops",
     {{"banks", "4"},
      {"rows", "16"},
      {"width", "16"},
      {"warps", "4"},
      {"regs", "8"},
      {"collectors", "2"},
      {"interleave", "warp-swizzled"},
      {"wb_policy", "read-priority"},
      {"bank_impl", "flops"}}},
    {"b1_r8_w8_k1",
     {{"banks", "1"},
      {"rows", "8"},
      {"width", "8"},
      {"warps", "2"},
      {"regs", "4"},
      {"collectors", "1"}}},
    {"b3_r20_w13_k3_swz_rp_flops",
     {{"banks", "3"},
      {"rows", "20"},
      {"width", "13"},
      {"warps", "3"},
      {"regs", "7"},
      {"collectors", "3"},
      {"interleave", "warp-swizzled"},
      {"wb_policy", "read-priority"},
      {"bank_impl", "flops"}}},
    {"b8_r32_w32_k4_reg_wp",
     {{"banks", "8"},
      {"rows", "32"},
      {"width", "32"},
      {"warps", "8"},
      {"regs", "16"},
      {"collectors", "4"}}},
    {"b5_r24_w1_k8_reg_rp",
     {{"banks", "5"},
      {"rows", "24"},
      {"width", "1"},
      {"warps", "6"},
      {"regs", "9"},
      {"collectors", "8"},
      {"wb_policy", "read-priority"}}},
    {"b16_r64_w64_k4_swz_tag1_cnt8",
     {{"banks", "16"},
      {"rows", "64"},
      {"width", "64"},
      {"warps", "16"},
      {"regs", "32"},
      {"collectors", "4"},
      {"interleave", "warp-swizzled"},
      {"tag_width", "1"},
      {"counter_width", "8"}}},
    {"b2_r64_w128_k2_reg_rp_flops",
     {{"banks", "2"},
      {"rows", "64"},
      {"width", "128"},
      {"warps", "32"},
      {"regs", "4"},
      {"collectors", "2"},
      {"wb_policy", "read-priority"},
      {"bank_impl", "flops"}}},
    {"b64_r4_w8_k2_swz",
     {{"banks", "64"},
      {"rows", "4"},
      {"width", "8"},
      {"warps", "2"},
      {"regs", "64"},
      {"collectors", "2"},
      {"interleave", "warp-swizzled"}}},
    {"gebhart_cluster_b4_r256_w128_k4",
     {{"banks", "4"},
      {"rows", "256"},
      {"width", "128"},
      {"warps", "32"},
      {"regs", "32"},
      {"collectors", "4"}}},
};

class MrfMatrix : public ::testing::TestWithParam<size_t> {};

TEST_P(MrfMatrix, LintsCleanAndMatchesModel) {
  const size_t index = GetParam();
  const MrfSpec spec = Spec(kConfigs[index].values);
  const GeneratedStructure rtl = EmitMrf(spec);

  test::ExpectLintClean(rtl);

  MrfModel model(spec);
  MrfStimulus stim(spec, 2000 + index);
  const LockstepResult r = test::RunInLockstep(rtl, model, stim, 100000, 2000 + index);
  EXPECT_TRUE(r.passed) << r.failure;
  EXPECT_EQ(r.cycles, 100000u);
  EXPECT_EQ(r.checked_cycles, r.cycles);  // ready and counter outputs are always defined

  // The run reached the interesting paths (counts over the whole run, resets included).
  const MrfCounters& c = model.core().totals();
  EXPECT_GT(c.dispatched, 5000u);
  EXPECT_GT(c.reads, 5000u);
  EXPECT_GT(c.writes, 5000u);
  EXPECT_GT(c.issue_stalls, 100u);
  if (spec.banks > 1 || spec.collectors > 1) {
    EXPECT_GT(c.conflicts, 1000u);
  }
  if (spec.wb_policy == MrfSpec::WbPolicy::kReadPriority) {
    EXPECT_GT(c.wb_stalls, 10u);
  } else {
    EXPECT_EQ(c.wb_stalls, 0u);  // write-priority: a write-back is never refused
  }
  std::printf(
      "%s: %llu cycles: %llu issued, %llu dispatched, %llu bank reads, %llu writes, "
      "%llu conflicts, %llu issue stalls, %llu write-back stalls\n",
      kConfigs[index].name, static_cast<unsigned long long>(r.cycles),
      static_cast<unsigned long long>(c.issued), static_cast<unsigned long long>(c.dispatched),
      static_cast<unsigned long long>(c.reads), static_cast<unsigned long long>(c.writes),
      static_cast<unsigned long long>(c.conflicts), static_cast<unsigned long long>(c.issue_stalls),
      static_cast<unsigned long long>(c.wb_stalls));
}

INSTANTIATE_TEST_SUITE_P(
    Configs, MrfMatrix,
    ::testing::ValuesIn(test::MatrixPoints(std::size(kConfigs), test::MatrixSuite::kDefault)),
    [](const ::testing::TestParamInfo<size_t>& p) { return std::string(kConfigs[p.param].name); });
INSTANTIATE_TEST_SUITE_P(
    MoreConfigs, MrfMatrix,
    ::testing::ValuesIn(test::MatrixPoints(std::size(kConfigs), test::MatrixSuite::kSoak)),
    [](const ::testing::TestParamInfo<size_t>& p) { return std::string(kConfigs[p.param].name); });

// ------------------------------------------------------------------------------- mutations

const Values kSmallWp = {{"banks", "4"}, {"rows", "16"}, {"width", "16"},
                         {"warps", "4"}, {"regs", "8"},  {"collectors", "3"}};
const Values kSmallRpSwzFlops = {{"banks", "4"},
                                 {"rows", "16"},
                                 {"width", "16"},
                                 {"warps", "4"},
                                 {"regs", "8"},
                                 {"collectors", "3"},
                                 {"interleave", "warp-swizzled"},
                                 {"wb_policy", "read-priority"},
                                 {"bank_impl", "flops"}};

struct Mutation {
  const char* name;
  const Values* config;
  const char* file;  // "" = the generated top module
  const char* from;
  const char* to;
  bool assertion;  // caught by an RTL assertion (at the edge) before any output differs
};

const Mutation kMutations[] = {
    {"DispatchIgnoresAge", &kSmallWp, "",
     "if (done[j] && (j != k) && older_q[OlderBit(j, k)]) begin",
     "if (done[j] && (j != k) && (j < k)) begin", false},
    {"ArbiterYoungestFirst", &kSmallWp, "", "older_q[OlderBit(CollectorOf(j), CollectorOf(i))]",
     "older_q[OlderBit(CollectorOf(i), CollectorOf(j))]", false},
    {"OperandFromBankZero", &kSmallWp, "", "operand_q[i] <= bank_rdata[slot_bank_q[i]];",
     "operand_q[i] <= bank_rdata[0];", false},
    {"ConflictsNotCounted", &kSmallWp, "", "cnt_conflicts_q + CounterWidth'(num_wait)",
     "cnt_conflicts_q + CounterWidth'(num_grant)", false},
    {"CollectorNeverFreed", &kSmallWp, "", "busy_d = busy_d & ~disp_sel;", "busy_d = busy_d;",
     false},
    {"WriteDoesNotExcludeRead", &kSmallWp, "",
     "read_elig[i] = need_q[i]\n"
     "          && !(wb_valid_i && (slot_bank_q[i] == wb_bank) && (slot_row_q[i] == wb_row));",
     "read_elig[i] = need_q[i];", true},
    {"SwizzleDroppedOnIssue", &kSmallRpSwzFlops, "",
     "assign issue_bank[s] = BankWidth'((32'(issue_warp_i) + 32'(src_reg)) % NumBanks);",
     "assign issue_bank[s] = BankWidth'(32'(src_reg) % NumBanks);", false},
    {"ReadPriorityIgnoresConflict", &kSmallRpSwzFlops, "",
     "assign wb_ready_o = rst_ni && !(wb_valid_i && wb_conflict);", "assign wb_ready_o = rst_ni;",
     false},
    {"SramWriteIgnoresEnable", &kSmallRpSwzFlops, "gpurf_sram_1r1w.sv",
     "if (we_i) begin\n        mem[waddr_i] <= wdata_i;",
     "if (1'b1) begin\n        mem[waddr_i] <= wdata_i;", false},
    {"MacroWritesRowZero", &kSmallWp, "gpurf_sram_1r1w_macro.sv", "mem[waddr_i] <= wdata_i;",
     "mem[0] <= wdata_i;", false},
};

class MrfMutation : public ::testing::TestWithParam<size_t> {};

TEST_P(MrfMutation, IsCaught) {
  const Mutation& mu = kMutations[GetParam()];
  const MrfSpec spec = Spec(*mu.config);
  GeneratedStructure rtl = EmitMrf(spec);
  ASSERT_NO_FATAL_FAILURE(test::Mutate(rtl, mu.file, mu.from, mu.to));
  const TempDir waves("gpurf-mrf-mutation");
  const VerifyResult r = test::VerifyMutant(spec, rtl, 20000, 7, waves);
  ASSERT_FALSE(r.passed()) << mu.name << " escaped verification: " << r.Summary();
  EXPECT_EQ(r.run.assertion, mu.assertion) << r.Summary();
  const std::string s = r.Summary();
  EXPECT_NE(s.find("seed 7"), std::string::npos) << s;
  if (!mu.assertion) {
    EXPECT_NE(s.find("mismatch at cycle " + std::to_string(r.run.fail_cycle)), std::string::npos)
        << s;
    EXPECT_NE(s.find("expected "), std::string::npos) << s;
  }
  EXPECT_TRUE(fs::exists(r.waveform)) << s;
}

INSTANTIATE_TEST_SUITE_P(Bugs, MrfMutation, ::testing::Range<size_t>(0, std::size(kMutations)),
                         [](const ::testing::TestParamInfo<size_t>& p) {
                           return std::string(kMutations[p.param].name);
                         });

// ----------------------------------------------------------------------------------- misuse

// The normal stimulus, then one out-of-range request at cycle `at`.
class MisuseStimulus : public Stimulus {
 public:
  enum class Kind { kIssueWarp, kIssueReg, kWbReg };
  MisuseStimulus(const MrfSpec& s, uint64_t at, Kind kind)
      : s_(s), inner_(s, 3), at_(at), kind_(kind) {}
  void Next(uint64_t cycle, PortValues& in) override {
    inner_.Next(cycle, in);
    if (cycle != at_)
      return;
    using P = MrfModel::Port;
    in[P::kRstN] = Bits(1, 1);
    switch (kind_) {
      case Kind::kIssueWarp:
        in[P::kIssueValid] = Bits(1, 1);
        in[P::kIssueWarp].set(0, s_.warp_width, static_cast<uint64_t>(s_.warps));
        break;
      case Kind::kIssueReg:
        in[P::kIssueValid] = Bits(1, 1);
        in[P::kIssueSrcValid].set_bit(2, true);
        in[P::kIssueSrcReg].set(2 * s_.reg_width, s_.reg_width, static_cast<uint64_t>(s_.regs));
        break;
      case Kind::kWbReg:
        in[P::kWbValid] = Bits(1, 1);
        in[P::kWbReg].set(0, s_.reg_width, static_cast<uint64_t>(s_.regs));
        break;
    }
  }
  std::string Phase() const override { return "misuse"; }
  void Observe(uint64_t cycle, const PortValues& out) override { inner_.Observe(cycle, out); }

 private:
  MrfSpec s_;
  MrfStimulus inner_;
  uint64_t at_;
  Kind kind_;
};

void ExpectAssertionAt(MisuseStimulus::Kind kind) {
  // 3 warps and 7 registers: the out-of-range values 3 and 7 fit in the port fields.
  const MrfSpec spec = Spec({{"banks", "3"},
                             {"rows", "20"},
                             {"width", "16"},
                             {"warps", "3"},
                             {"regs", "7"},
                             {"collectors", "3"}});
  const GeneratedStructure rtl = EmitMrf(spec);
  BuildOptions bo;
  bo.jobs = 1;
  const BuiltModel built = BuildModel(rtl, bo);
  auto dut = LoadModel(built);
  MrfModel model(spec);
  MisuseStimulus stim(spec, 400, kind);
  LockstepOptions lo;
  lo.cycles = 1000;
  const LockstepResult r = RunLockstep(*dut, rtl, model, stim, lo);
  ASSERT_FALSE(r.passed);
  EXPECT_TRUE(r.assertion) << r.failure;
  EXPECT_EQ(r.fail_cycle, 400u) << r.failure;
}

TEST(MrfMisuse, IssuedWarpOutOfRangeFiresAssertion) {
  ExpectAssertionAt(MisuseStimulus::Kind::kIssueWarp);
}
TEST(MrfMisuse, SourceRegisterOutOfRangeFiresAssertion) {
  ExpectAssertionAt(MisuseStimulus::Kind::kIssueReg);
}
TEST(MrfMisuse, WriteBackRegisterOutOfRangeFiresAssertion) {
  ExpectAssertionAt(MisuseStimulus::Kind::kWbReg);
}

}  // namespace
}  // namespace gpurf
