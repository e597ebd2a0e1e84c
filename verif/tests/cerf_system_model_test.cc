// The cerf-system golden model on its own (label unit): the derived widths of the default spec;
// the model under the registered stimulus over both policies reaches every event the contract
// names (hits, L2 reads, fills, spills, dirty write-backs, bank conflicts) without violating an
// invariant; and its data invariants fire when the memory behind the top lies (D1: a spilled
// register comes back with another value; D2: a line comes back from L2 with another value than
// it held) or the harness breaks the contract (a response to an id with nothing outstanding).
#include "models/cerf_system_model.h"

#include <gtest/gtest.h>

#include "gen/structures/cerf_system/cerf_system_ports.h"
#include "verif/stimulus/cerf_system_stimulus.h"
#include "verif/tests/cerf_system_test_util.h"

namespace gpurf {
namespace {

using P = CerfSystemPort;

PortValues Ports(const CerfSystemSpec& s) {
  PortValues v;
  for (const PortInfo& pi : CerfSystemPortTable(s).Manifest())
    v.emplace_back(pi.width);
  return v;
}

// Drives `model` with `stim` for `cycles` (the model's outputs fed back to the stimulus, as
// gpurf verify does); `corrupt` may alter the inputs of each cycle. Returns the first failure.
template <class Corrupt>
std::string RunModel(const CerfSystemSpec& s, CerfSystemModel& model, Stimulus& stim,
                     uint64_t cycles, Corrupt corrupt) {
  PortValues in = Ports(s), out = Ports(s), def = Ports(s);
  for (uint64_t c = 0; c < cycles; ++c) {
    stim.Next(c, in);
    corrupt(c, in);
    model.Outputs(in, out, def);
    stim.Observe(c, out);
    model.Clock(in);
    if (!model.Failure().empty())
      return model.Failure();
  }
  return {};
}

TEST(CerfSystemSpec, DerivedWidthsOfTheDefault) {
  const CerfSystemSpec s = test::MakeCerfSpec({});
  EXPECT_EQ(s.lines(), 64);  // 16 sets x 4 ways
  EXPECT_EQ(s.id_bits, 2);   // 4 lookups
  EXPECT_EQ(s.data_width, 32);
  EXPECT_EQ(s.tags.banks, 2);
  EXPECT_EQ(s.tags.tag_width, 20 - 7 - 4);
  EXPECT_NE(s.module_name.find("rf_cerf_2b16s4w_d32_pri_"), std::string::npos);
}

TEST(CerfSystemSpec, TagArrayRejectionsNameTheTopsField) {
  try {
    test::MakeCerfSpec({{"sets", "2"}});
    FAIL() << "accepted 2 sets on 2 banks";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("sets"), std::string::npos) << e.what();
  }
}

class CerfSystemPolicies : public ::testing::TestWithParam<const char*> {};

TEST_P(CerfSystemPolicies, StimulusReachesEveryEventWithoutViolation) {
  const CerfSystemSpec s = test::MakeCerfSpec({{"policy", GetParam()}});
  CerfSystemModel model(s);
  CerfSystemStimulus stim(s, 5);
  EXPECT_EQ(RunModel(s, model, stim, 200000, [](uint64_t, PortValues&) {}), "");
  EXPECT_GT(model.tags().hits(), 1000U);
  EXPECT_GT(model.l2_reads(), 100U);
  EXPECT_GT(model.fills(), 100U);
  EXPECT_GT(model.spills(), 100U);
  EXPECT_GT(model.write_backs(), 100U);
}

INSTANTIATE_TEST_SUITE_P(Both, CerfSystemPolicies, ::testing::Values("lru-fair", "lru-prioritized"),
                         [](const auto& i) {
                           return std::string(i.param) == "lru-fair" ? "Fair" : "Prioritized";
                         });

TEST(CerfSystemModel, D1FiresWhenAFillReturnsAnotherValue) {
  const CerfSystemSpec s = test::MakeCerfSpec({{"policy", "lru-fair"}});
  CerfSystemModel model(s);
  CerfSystemStimulus stim(s, 9);
  const std::string f = RunModel(s, model, stim, 200000, [](uint64_t, PortValues& in) {
    if (in[P::kFillRspValid].bit(0))
      in[P::kFillRspData].set_bit(0, !in[P::kFillRspData].bit(0));
  });
  EXPECT_EQ(f.rfind("D1:", 0), 0U) << f;
}

TEST(CerfSystemModel, D2FiresWhenL2ReturnsAnotherValue) {
  const CerfSystemSpec s = test::MakeCerfSpec({});
  CerfSystemModel model(s);
  CerfSystemStimulus stim(s, 9);
  uint64_t n = 0;
  const std::string f = RunModel(s, model, stim, 200000, [&](uint64_t, PortValues& in) {
    if (in[P::kMemRspValid].bit(0) && (++n % 7) == 0)
      in[P::kMemRspData].set_bit(1, !in[P::kMemRspData].bit(1));
  });
  EXPECT_EQ(f.rfind("D2:", 0), 0U) << f;
}

TEST(CerfSystemModel, ResponseWithoutRequestIsAContractViolation) {
  const CerfSystemSpec s = test::MakeCerfSpec({});
  CerfSystemModel model(s);
  PortValues in = Ports(s), out = Ports(s), def = Ports(s);
  in[P::kRstN].set_bit(0, true);
  in[P::kMemRspValid].set_bit(0, true);
  model.Outputs(in, out, def);
  EXPECT_FALSE(out[P::kRdValid].any());
  model.Clock(in);
  EXPECT_EQ(model.Failure().rfind("contract: L2 response for id 0", 0), 0U) << model.Failure();
}

}  // namespace
}  // namespace gpurf
