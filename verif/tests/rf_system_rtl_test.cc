// The register-file system top across hierarchies and shapes, through the same code path as
// `gpurf lint` and `gpurf verify`: every configuration below is generated (with its MRF, RFC or
// ORF sub-modules), linted by Verilator, Yosys and Icarus (with and without assertions), built
// with Verilator and run for 100k cycles in lockstep with the composed golden model under the
// system stimulus (init through the MRF, mixed traffic, bank conflicts, upper-level reads, RFC
// eviction streams, deschedules with dirty entries, dispatch back-pressure, reset pulses), with
// the model's end-to-end checks on (I1 data, I2 dispatch, I3 deschedule, and the parts' own
// invariants). Configurations: the baseline, HW RFC 1 level FIFO and LRU, hints on and off, HW
// 2 levels, SW 2 levels (registered reads), SW 3 levels unified (bypass) and split, and shapes
// with other banks, warps, active slots, collectors, widths, interleaving and policies.
// Then RTL mutations of the glue that lockstep must catch.
#include <gtest/gtest.h>

#include <functional>

#include "gen/structures/rf_system/rf_system_gen.h"
#include "gen/structures/rf_system/rf_system_spec.h"
#include "verif/harness/lockstep.h"
#include "verif/harness/verilator_build.h"
#include "verif/lint/lint.h"
#include "verif/tests/rf_system_test_util.h"
#include "verif/tests/rtl_test_util.h"
#include "verif/verify.h"

namespace gpurf {
namespace {

struct Config {
  const char* name;
  std::map<std::string, std::string> values;
};

const Config kConfigs[] = {
    {"gebhart_sw3_split", {}},  // the default design point's cluster: 4 banks, 32 warps, 8 active
    {"baseline_mrf_only", {{"hierarchy", "mrf-only"}}},
    {"hw1_fifo6_hints",
     {{"hierarchy", "hw-rfc"}, {"levels", "2"}, {"l1_entries", "6"}, {"replacement", "fifo"}}},
    {"hw1_lru6_nohints",
     {{"hierarchy", "hw-rfc"}, {"levels", "2"}, {"l1_entries", "6"}, {"hints", "false"}}},
    {"hw2_l0x1_l1x6_lru", {{"hierarchy", "hw-rfc"}, {"levels", "3"}, {"l1_entries", "6"}}},
    {"sw2_l1x3_reg", {{"levels", "2"}, {"read_mode", "reg"}}},
    {"sw3_unified_bypass", {{"l0_split", "false"}, {"bypass", "true"}, {"l1_entries", "5"}}},
    {"sw3_split_8b_16w_a4_k2_swz_flops",
     {{"banks", "8"},
      {"warps", "16"},
      {"active_warps", "4"},
      {"collectors", "2"},
      {"interleave", "warp-swizzled"},
      {"bank_impl", "flops"},
      {"rows", "64"}}},
    {"hw2_2b_8w_a3_k1_w32_fifo",
     {{"hierarchy", "hw-rfc"},
      {"l0_entries", "2"},
      {"l1_entries", "3"},
      {"banks", "2"},
      {"warps", "8"},
      {"active_warps", "3"},
      {"collectors", "1"},
      {"regs", "16"},
      {"width", "32"},
      {"replacement", "fifo"}}},
    {"mrf_only_1b_k8_readprio",
     {{"hierarchy", "mrf-only"},
      {"banks", "1"},
      {"collectors", "8"},
      {"wb_policy", "read-priority"},
      {"warps", "8"},
      {"regs", "16"},
      {"rows", "128"}}},
    {"sw2_degenerate_1w_w8",
     {{"levels", "2"},
      {"warps", "1"},
      {"active_warps", "1"},
      {"l1_entries", "1"},
      {"regs", "4"},
      {"banks", "1"},
      {"rows", "4"},
      {"width", "8"},
      {"collectors", "1"}}},
};

class RfSystemMatrix : public ::testing::TestWithParam<size_t> {};

TEST_P(RfSystemMatrix, LintsCleanAndMatchesModel) {
  const size_t index = GetParam();
  const RfSystemSpec spec = test::MakeRfSystemSpec(kConfigs[index].values);
  const GeneratedStructure rtl = EmitRfSystem(spec);

  test::ExpectLintClean(rtl);

  VerifyOptions opt;
  opt.cycles = 100000;
  opt.seed = 3000 + index;
  opt.build.jobs = 1;
  opt.waveform_dir = fs::temp_directory_path() / "gpurf-rfsys-matrix-waves";
  const VerifyResult r = VerifyStructure(spec, rtl, opt);
  EXPECT_TRUE(r.passed()) << r.Summary();
  EXPECT_EQ(r.run.cycles, opt.cycles);
  EXPECT_EQ(r.run.checked_cycles, opt.cycles) << r.Summary();

  // Not vacuous: the same seed on the model alone exercised every part of this hierarchy.
  RfSystemCycleModel model(spec);
  test::RunModel(model, spec, opt.cycles, opt.seed);
  ASSERT_EQ(model.Failure(), "");
  const RfSysCounters& c = model.system().counters();
  EXPECT_GT(c.checked_operands, 20000u);
  EXPECT_GT(c.mrf_reads, 1000u);
  EXPECT_GT(c.flushes, 50u);
  if (spec.mrf.banks > 1) {
    EXPECT_GT(c.mrf_conflicts, 100u);
  }
  if (spec.has_l1()) {
    EXPECT_GT(c.l1_reads, 500u);
  }
  if (spec.has_l0()) {
    EXPECT_GT(c.l0_reads, 150u);
  }
  if (spec.hw()) {
    EXPECT_GT(c.tag_hits, 500u);
    EXPECT_GT(c.writebacks, 300u);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Configs, RfSystemMatrix,
    ::testing::ValuesIn(test::MatrixPoints(std::size(kConfigs), test::MatrixSuite::kDefault)),
    [](const ::testing::TestParamInfo<size_t>& p) { return std::string(kConfigs[p.param].name); });
INSTANTIATE_TEST_SUITE_P(
    MoreConfigs, RfSystemMatrix,
    ::testing::ValuesIn(test::MatrixPoints(std::size(kConfigs), test::MatrixSuite::kSoak)),
    [](const ::testing::TestParamInfo<size_t>& p) { return std::string(kConfigs[p.param].name); });

// Bugs planted in the generated glue; each must show as a lockstep mismatch.
struct Mutation {
  const char* name;
  std::map<std::string, std::string> values;
  const char* from;
  const char* to;
};

const std::map<std::string, std::string> kSmallSw = {{"banks", "2"},        {"warps", "8"},
                                                     {"active_warps", "4"}, {"regs", "8"},
                                                     {"width", "16"},       {"rows", "32"}};
const std::map<std::string, std::string> kSmallHw = {
    {"hierarchy", "hw-rfc"}, {"levels", "2"}, {"l1_entries", "3"}, {"banks", "2"}, {"warps", "8"},
    {"active_warps", "4"},   {"regs", "8"},   {"width", "16"},     {"rows", "32"}};

const Mutation kMutations[] = {
    // Upper-level operands are not merged: the dispatch shows the MRF collector's data.
    {"SwUpperDataDropped", kSmallSw,
     "sel_up[p] ? sel_data[p*Width +: Width]\n        : mrf_disp_data[p*Width +: Width]",
     "mrf_disp_data[p*Width +: Width]"},
    // RFC write-backs are addressed with the result's warp instead of the slot's.
    {"HwWriteBackWrongWarp", kSmallHw, "rfc_wb_valid ? rfc_wb_warp : res_warp_i", "res_warp_i"},
    // The deschedule completes as soon as the flush starts.
    {"HwFlushReadyEarly", kSmallHw, "assign fl_ready_o = rfc_fl_done;",
     "assign fl_ready_o = fl_started_q;"},
    // RFC hits are read from the MRF as well (extra bank reads and conflicts).
    {"HwHitsAlsoReadMrf", kSmallHw, "assign mrf_src_valid = issue_src_valid_i & ~up_valid;",
     "assign mrf_src_valid = issue_src_valid_i;"},
};

class RfSystemMutation : public ::testing::TestWithParam<size_t> {};

TEST_P(RfSystemMutation, IsCaught) {
  const Mutation& mu = kMutations[GetParam()];
  const RfSystemSpec spec = test::MakeRfSystemSpec(mu.values);
  GeneratedStructure rtl = EmitRfSystem(spec);
  ASSERT_NO_FATAL_FAILURE(test::Mutate(rtl, "", mu.from, mu.to));
  const TempDir waves("gpurf-rfsys-mutation");
  const VerifyResult r = test::VerifyMutant(spec, rtl, 50000, 13, waves);
  ASSERT_FALSE(r.passed()) << mu.name << " escaped verification: " << r.Summary();
  const std::string s = r.Summary();
  EXPECT_NE(s.find("seed 13"), std::string::npos) << s;
  EXPECT_TRUE(fs::exists(r.waveform)) << s;
}

INSTANTIATE_TEST_SUITE_P(Bugs, RfSystemMutation, ::testing::Range<size_t>(0, std::size(kMutations)),
                         [](const ::testing::TestParamInfo<size_t>& p) {
                           return std::string(kMutations[p.param].name);
                         });

}  // namespace
}  // namespace gpurf

namespace gpurf {
namespace {

using P = RfSystemCycleModel::Port;

// The system stimulus with one cycle's inputs rewritten.
class PokedStimulus : public Stimulus {
 public:
  PokedStimulus(const RfSystemSpec& s, uint64_t at, std::function<void(PortValues&)> poke)
      : inner_(s, 5), at_(at), poke_(std::move(poke)) {}
  void Next(uint64_t cycle, PortValues& in) override {
    inner_.Next(cycle, in);
    if (cycle == at_)
      poke_(in);
  }
  std::string Phase() const override { return inner_.Phase(); }
  void Observe(uint64_t cycle, const PortValues& out) override { inner_.Observe(cycle, out); }

 private:
  RfSystemStimulus inner_;
  uint64_t at_;
  std::function<void(PortValues&)> poke_;
};

struct Misuse {
  const char* name;
  std::map<std::string, std::string> values;
  std::function<void(const RfSystemSpec&, PortValues&)> poke;
  const char* rtl_message;
  const char* model_message;
};

// During the init phase (cycle 10: results only, every collector free) one request breaks the
// harness contract; the RTL assertion and the model both report it at that cycle's edge.
const Misuse kMisuses[] = {
    {"IssueOfMissingLevel",
     {{"levels", "2"},
      {"warps", "4"},
      {"regs", "8"},
      {"banks", "2"},
      {"rows", "16"},
      {"width", "16"},
      {"active_warps", "2"}},
     [](const RfSystemSpec& s, PortValues& in) {
       in[P::kIssueValid].set_bit(0, true);
       in[P::kIssueSrcValid].set_bit(0, true);
       in[P::kIssueSrcLevel].set(0, RfSystemSpec::kLevelBits, RfSystemSpec::kLevelL0);
       in[P::kIssueSlot].set(0, s.slot_width, 0);
     },
     "operand slot 0 names level 2",
     "operand A names L0"},
    {"IssueSlotOutOfRange",
     {{"warps", "4"},
      {"regs", "8"},
      {"banks", "2"},
      {"rows", "16"},
      {"width", "16"},
      {"active_warps", "3"}},
     [](const RfSystemSpec& s, PortValues& in) {
       in[P::kIssueValid].set_bit(0, true);
       in[P::kIssueSrcValid].set_bit(1, true);
       in[P::kIssueSlot].set(0, s.slot_width, 3);
     },
     "issue names slot 3, there are 3",
     "issue names slot 3"},
    {"HwResultSlotOutOfRange",
     {{"hierarchy", "hw-rfc"},
      {"levels", "2"},
      {"warps", "4"},
      {"regs", "8"},
      {"banks", "2"},
      {"rows", "16"},
      {"width", "16"},
      {"active_warps", "3"}},
     [](const RfSystemSpec& s, PortValues& in) {
       in[P::kResMrf].set_bit(0, false);
       in[P::kResSlot].set(0, s.slot_width, 3);
     },
     "result names slot 3, there are 3",
     "result names slot 3"},
};

class RfSystemMisuse : public ::testing::TestWithParam<size_t> {};

TEST_P(RfSystemMisuse, AssertionAndModelFireAtTheCycle) {
  const Misuse& mu = kMisuses[GetParam()];
  const RfSystemSpec spec = test::MakeRfSystemSpec(mu.values);
  const GeneratedStructure rtl = EmitRfSystem(spec);
  BuildOptions bo;
  bo.jobs = 1;
  const BuiltModel built = BuildModel(rtl, bo);
  auto dut = LoadModel(built);
  RfSystemCycleModel model(spec);
  PokedStimulus stim(spec, 10, [&](PortValues& in) { mu.poke(spec, in); });
  LockstepOptions lo;
  lo.cycles = 200;
  lo.seed = 5;
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  const LockstepResult r = RunLockstep(*dut, rtl, model, stim, lo);
  const std::string log =
      ::testing::internal::GetCapturedStdout() + ::testing::internal::GetCapturedStderr();
  ASSERT_FALSE(r.passed);
  EXPECT_EQ(r.fail_cycle, 10u) << r.failure;
  EXPECT_NE(log.find(mu.rtl_message), std::string::npos) << log;
  EXPECT_NE(r.failure.find(mu.model_message), std::string::npos) << r.failure;
}

INSTANTIATE_TEST_SUITE_P(Contract, RfSystemMisuse, ::testing::Range<size_t>(0, std::size(kMisuses)),
                         [](const ::testing::TestParamInfo<size_t>& p) {
                           return std::string(kMisuses[p.param].name);
                         });

}  // namespace
}  // namespace gpurf
