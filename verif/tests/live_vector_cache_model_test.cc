// The live-register vector cache's golden model against hand-worked cycles of FineReg's RMU
// (section V-C): a miss's request, the fill and the decode of Fig. 7's vector (R0 live), a hit
// on the same PC, a conflicting PC replacing the line, an empty vector, decode widths above one,
// backpressure, the index and tag split of the PC, and the stimulus's coverage.
#include <gtest/gtest.h>

#include <set>

#include "verif/stimulus/live_vector_cache_stimulus.h"
#include "verif/tests/finereg_rmu_test_util.h"

namespace gpurf {
namespace {

using P = LiveVectorCachePort;
using Driver = test::ModelDriver<LiveVectorCacheModel, LiveVectorCacheSpec>;

Driver Make(const LiveVectorCacheSpec& s) {
  Driver d(s, LiveVectorCachePortTable(s).ZeroValues());
  d.in[P::kDecReady] = Bits(1, 1);
  d.in[P::kMemReqReady] = Bits(1, 1);
  return d;
}

void Idle(Driver& d) {
  d.in[P::kLkValid] = Bits(1, 0);
  d.in[P::kMemRespValid] = Bits(1, 0);
}

TEST(LiveVectorCacheSpec, PaperDefaultsAndPcSplit) {
  const LiveVectorCacheSpec s = test::MakeLvcSpec({});
  EXPECT_EQ(s.entries, 32);
  EXPECT_EQ(s.index_bits, 5);  // the paper's 5 PC bits
  EXPECT_EQ(s.tag_bits, 24);   // 32 - 3 alignment - 5 index
  EXPECT_EQ(s.reg_bits, 6);
  EXPECT_EQ(s.live_bits, 7);
  EXPECT_EQ(s.Index(0x0028), 5);  // 0x28 >> 3
  EXPECT_EQ(s.Index(0x0100), 0);  // 0x100 >> 3 = 32: wraps to line 0
  EXPECT_EQ(s.Tag(0x0100), 1U);
}

// Fig. 7: a warp stalled at PC 0x0000 has R0 live. The first lookup misses, requests the
// vector, fills the line and decodes one index; the second hits.
TEST(LiveVectorCacheModel, MissFillDecodeThenHit) {
  Driver d = Make(test::MakeLvcSpec({}));
  d.in[P::kLkValid] = Bits(1, 1);
  d.in[P::kLkPc] = Bits(32, 0x0000);
  d.Eval();
  EXPECT_EQ(d.Out(P::kLkReady), 1U);
  EXPECT_EQ(d.Out(P::kLkHit), 0U);
  d.Step();
  Idle(d);
  d.Eval();
  EXPECT_EQ(d.Out(P::kMissCount), 1U);
  EXPECT_EQ(d.Out(P::kLkReady), 0U);
  EXPECT_EQ(d.Out(P::kMemReqValid), 1U);
  EXPECT_EQ(d.Out(P::kMemReqPc), 0U);
  d.Step();  // request taken
  d.Eval();
  EXPECT_EQ(d.Out(P::kMemReqValid), 0U);
  EXPECT_EQ(d.Out(P::kDecValid), 0U);
  d.in[P::kMemRespValid] = Bits(1, 1);
  d.in[P::kMemRespVector] = Bits(64, 0x1);  // R0
  d.Step();
  Idle(d);
  d.Eval();
  EXPECT_EQ(d.Out(P::kDecValid), 1U);
  EXPECT_EQ(d.Out(P::kDecCount), 1U);
  EXPECT_EQ(d.Out(P::kDecIdx), 0U);
  EXPECT_EQ(d.Out(P::kDecLast), 1U);
  EXPECT_EQ(d.Out(P::kDecLive), 1U);
  d.Step();
  d.Eval();
  EXPECT_EQ(d.Out(P::kLkReady), 1U);
  d.in[P::kLkValid] = Bits(1, 1);
  d.in[P::kLkPc] = Bits(32, 0x0000);
  d.Eval();
  EXPECT_EQ(d.Out(P::kLkHit), 1U);
  d.Step();
  Idle(d);
  d.Eval();
  EXPECT_EQ(d.Out(P::kHitCount), 1U);
  EXPECT_EQ(d.Out(P::kDecValid), 1U);
  EXPECT_EQ(d.Out(P::kMemReqValid), 0U);
}

// A PC with the same line and another tag misses and replaces the line.
TEST(LiveVectorCacheModel, ConflictReplacesTheLine) {
  Driver d = Make(test::MakeLvcSpec({}));
  auto fill = [&](uint64_t pc, uint64_t vec) {
    d.in[P::kLkValid] = Bits(1, 1);
    d.in[P::kLkPc] = Bits(32, pc);
    d.Step();
    Idle(d);
    d.Step();  // request
    d.in[P::kMemRespValid] = Bits(1, 1);
    d.in[P::kMemRespVector] = Bits(64, vec);
    d.Step();
    Idle(d);
    while (d.model().job())
      d.Step();
  };
  fill(0x0008, 0x5);
  EXPECT_TRUE(d.model().Hits(0x0008));
  fill(0x0108, 0x6);  // line 1, tag 1
  EXPECT_FALSE(d.model().Hits(0x0008));
  EXPECT_TRUE(d.model().Hits(0x0108));
  EXPECT_EQ(d.model().misses(), 2U);
}

// Decode width 3 over R1, R4, R5, R9: groups {1, 4, 5} then {9} (last); a consumer not ready
// holds the group.
TEST(LiveVectorCacheModel, WideDecodeWithBackpressure) {
  Driver d = Make(test::MakeLvcSpec({.decode_width = 3}));
  d.in[P::kLkValid] = Bits(1, 1);
  d.in[P::kLkPc] = Bits(32, 0x40);
  d.Step();
  Idle(d);
  d.Step();
  d.in[P::kMemRespValid] = Bits(1, 1);
  d.in[P::kMemRespVector] = Bits(64, (1U << 1) | (1U << 4) | (1U << 5) | (1U << 9));
  d.Step();
  Idle(d);
  d.in[P::kDecReady] = Bits(1, 0);
  for (int i = 0; i < 2; ++i) {
    d.Step();
    EXPECT_EQ(d.Out(P::kDecCount), 3U);
    EXPECT_EQ(d.Out(P::kDecIdx), 1U | (4U << 6) | (5U << 12));
    EXPECT_EQ(d.Out(P::kDecLast), 0U);
    EXPECT_EQ(d.Out(P::kDecLive), 4U);
  }
  d.in[P::kDecReady] = Bits(1, 1);
  d.Step();
  d.Eval();
  EXPECT_EQ(d.Out(P::kDecCount), 1U);
  EXPECT_EQ(d.Out(P::kDecIdx), 9U);
  EXPECT_EQ(d.Out(P::kDecLast), 1U);
}

// A vector with no live register gives one empty last group.
TEST(LiveVectorCacheModel, EmptyVectorGivesOneEmptyGroup) {
  Driver d = Make(test::MakeLvcSpec({}));
  d.in[P::kLkValid] = Bits(1, 1);
  d.Step();
  Idle(d);
  d.Step();
  d.in[P::kMemRespValid] = Bits(1, 1);
  d.in[P::kMemRespVector] = Bits(64, 0);
  d.Step();
  Idle(d);
  d.Eval();
  EXPECT_EQ(d.Out(P::kDecValid), 1U);
  EXPECT_EQ(d.Out(P::kDecCount), 0U);
  EXPECT_EQ(d.Out(P::kDecLast), 1U);
  d.Step();
  d.Eval();
  EXPECT_EQ(d.Out(P::kLkReady), 1U);
}

TEST(LiveVectorCacheModel, ResponseWithoutRequestBreaksTheContract) {
  Driver d = Make(test::MakeLvcSpec({}));
  d.in[P::kMemRespValid] = Bits(1, 1);
  d.Step();
  EXPECT_NE(d.model().Failure().find("contract"), std::string::npos);
}

// Every phase is reached, hits and misses both happen, and the model never fails, on a small
// and on the paper's configuration.
TEST(LiveVectorCacheStimulus, CoversPhasesHitsAndMisses) {
  for (const LiveVectorCacheSpec& s :
       {test::MakeLvcSpec({.entries = 4, .pc_bits = 10, .decode_width = 2, .fetch_latency = 5}),
        test::MakeLvcSpec({})}) {
    LiveVectorCacheModel model(s);
    LiveVectorCacheStimulus stim(s, 3);
    PortValues in = LiveVectorCachePortTable(s).ZeroValues(), out = in, def = in;
    std::set<std::string> phases;
    for (uint64_t c = 0; c < 60000; ++c) {
      stim.Next(c, in);
      model.Outputs(in, out, def);
      stim.Observe(c, out);
      model.Clock(in);
      ASSERT_EQ(model.Failure(), "") << "cycle " << c;
      phases.insert(stim.Phase());
    }
    EXPECT_GE(phases.size(), 8U);
    EXPECT_GT(model.hits(), 200U) << s.module_name;
    EXPECT_GT(model.misses(), 50U) << s.module_name;
  }
}

}  // namespace
}  // namespace gpurf
