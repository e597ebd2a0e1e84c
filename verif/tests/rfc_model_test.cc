// The RFC golden model against hand-worked sequences of Gebhart's semantics (FIFO and LRU
// victims, liveness hints, long-latency bypass, not-for-L0 results, the L0 -> L1 -> MRF chain,
// flush order, counters), a long model-only run under the full stimulus with its checkers, and
// evidence that each model-side invariant check fires on a deliberately broken model.
#include "models/rfc_model.h"

#include <gtest/gtest.h>

#include "gen/structures/rfc/rfc_gen.h"
#include "gen/structures/rfc/rfc_spec.h"
#include "verif/stimulus/rfc_stimulus.h"
#include "verif/tests/rfc_test_util.h"

namespace gpurf {
namespace {

using test::MakeRfcSpec;
using test::RfcShape;

Bits V(uint64_t v) {
  return Bits(32, v);
}

RfcConfig Cfg(int levels, int l1, int l0, bool lru) {
  RfcConfig c;
  c.slots = 2;
  c.levels = levels;
  c.l1_entries = l1;
  c.l0_entries = l0;
  c.width = 32;
  c.reg_bits = 6;
  c.lru = lru;
  return c;
}

// One cycle with no operand reads (a Read starts a cycle).
void Tick(RfcCache& c) {
  c.Read({});
}

TEST(RfcCache, FifoEvictsTheOldestWrittenEvenIfRead) {
  RfcCache c(Cfg(1, 2, 0, false));
  EXPECT_FALSE(c.Write(0, 1, V(11), false, false).to_mrf);
  Tick(c);
  EXPECT_FALSE(c.Write(0, 2, V(22), false, false).to_mrf);
  Tick(c);
  const auto r = c.Read({{true, 0, 1, false}});
  EXPECT_TRUE(r[0].hit);
  EXPECT_EQ(r[0].data, V(11));
  Tick(c);
  const auto w = c.Write(0, 3, V(33), false, false);
  ASSERT_TRUE(w.to_mrf);
  EXPECT_EQ(w.to_mrf->reg, 1);
  EXPECT_EQ(w.to_mrf->data, V(11));
  EXPECT_EQ(w.to_mrf->kind, RfcWbKind::kEviction);
  EXPECT_FALSE(c.Probe(0, 1).hit);
  EXPECT_TRUE(c.Probe(0, 2).hit);
  EXPECT_EQ(c.counters().mrf_evictions, 1u);
}

TEST(RfcCache, LruKeepsTheEntryReadInAnEarlierCycle) {
  RfcCache c(Cfg(1, 2, 0, true));
  c.Write(0, 1, V(11), false, false);
  Tick(c);
  c.Write(0, 2, V(22), false, false);
  c.Read({{true, 0, 1, false}});
  Tick(c);  // the read hit's cycle is over
  const auto w = c.Write(0, 3, V(33), false, false);
  ASSERT_TRUE(w.to_mrf);
  EXPECT_EQ(w.to_mrf->reg, 2);
}

TEST(RfcCache, LruReadHitOfTheSameCycleDoesNotSaveTheVictim) {
  RfcCache c(Cfg(1, 2, 0, true));
  c.Write(0, 1, V(11), false, false);
  Tick(c);
  c.Write(0, 2, V(22), false, false);
  c.Read({{true, 0, 1, false}});
  const auto w = c.Write(0, 3, V(33), false, false);  // same cycle as the read
  ASSERT_TRUE(w.to_mrf);
  EXPECT_EQ(w.to_mrf->reg, 1);
}

TEST(RfcCache, DeadHintDropsTheValueAndFreesTheEntry) {
  RfcCache c(Cfg(1, 1, 0, false));
  c.Write(0, 5, V(55), false, false);
  const auto r = c.Read({{true, 0, 5, true}, {true, 0, 5, false}});
  EXPECT_TRUE(r[0].hit);
  EXPECT_TRUE(r[1].hit);  // both operands see the state before the cycle
  EXPECT_FALSE(c.Probe(0, 5).hit);
  EXPECT_FALSE(c.Write(0, 6, V(66), false, false).to_mrf);  // free entry: no write-back
  EXPECT_EQ(c.counters().dead_kills, 1u);
  EXPECT_TRUE(c.Flush(0).size() == 1);
}

TEST(RfcCache, RewriteOverwritesInPlace) {
  RfcCache c(Cfg(1, 2, 0, false));
  c.Write(0, 7, V(1), false, false);
  c.Write(0, 7, V(2), false, false);
  c.Write(0, 8, V(3), false, false);
  EXPECT_EQ(c.LiveCount(0), 2);
  EXPECT_EQ(c.Probe(0, 7).data, V(2));
  EXPECT_EQ(c.CheckUnique(), "");
}

TEST(RfcCache, ChainL0ToL1ToMrf) {
  RfcCache c(Cfg(2, 1, 1, false));
  EXPECT_FALSE(c.Write(1, 1, V(1), false, false).l0_evicted);
  auto w = c.Write(1, 2, V(2), false, false);
  EXPECT_TRUE(w.l0_evicted);
  EXPECT_FALSE(w.to_mrf);
  EXPECT_EQ(c.Probe(1, 1).level, 1);
  EXPECT_EQ(c.Probe(1, 2).level, 0);
  w = c.Write(1, 3, V(3), false, false);
  EXPECT_TRUE(w.l0_evicted);
  ASSERT_TRUE(w.to_mrf);
  EXPECT_EQ(w.to_mrf->reg, 1);
  EXPECT_EQ(w.to_mrf->slot, 1);
  EXPECT_EQ(w.to_mrf->data, V(1));
  EXPECT_EQ(c.counters().level[0].evictions, 2u);
  EXPECT_EQ(c.counters().level[1].writes, 2u);
}

TEST(RfcCache, NotForL0AndBypassInvalidateStaleCopies) {
  RfcCache c(Cfg(2, 2, 1, false));
  c.Write(0, 9, V(1), false, false);  // L0
  c.Write(0, 9, V(2), false, true);   // not for L0: L1, L0 copy superseded
  EXPECT_EQ(c.Probe(0, 9).level, 1);
  EXPECT_EQ(c.Probe(0, 9).data, V(2));
  EXPECT_EQ(c.LiveCount(0), 1);
  const auto w = c.Write(0, 9, V(3), true, false);  // long latency: to the MRF
  ASSERT_TRUE(w.to_mrf);
  EXPECT_EQ(w.to_mrf->kind, RfcWbKind::kBypass);
  EXPECT_EQ(w.to_mrf->data, V(3));
  EXPECT_FALSE(c.Probe(0, 9).hit);
  EXPECT_EQ(c.counters().superseded, 2u);
  EXPECT_EQ(c.counters().mrf_bypasses, 1u);
}

TEST(RfcCache, FlushWritesBackL0FirstThenL1InEntryOrder) {
  RfcCache c(Cfg(2, 3, 1, false));
  c.Write(0, 10, V(10), false, true);   // L1 entry 0
  c.Write(0, 11, V(11), false, true);   // L1 entry 1
  c.Write(0, 12, V(12), false, false);  // L0
  c.Write(1, 13, V(13), false, false);  // other slot, untouched
  const auto f = c.Flush(0);
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].reg, 12);
  EXPECT_EQ(f[1].reg, 10);
  EXPECT_EQ(f[2].reg, 11);
  EXPECT_EQ(f[0].kind, RfcWbKind::kFlush);
  EXPECT_FALSE(c.HasLive(0));
  EXPECT_TRUE(c.HasLive(1));
  EXPECT_EQ(c.counters().mrf_flushes, 3u);
  EXPECT_EQ(c.counters().flushes, 1u);
}

// Runs the cycle model under its stimulus without RTL; returns the first model-side failure.
std::string RunModelOnly(const RfcSpec& spec, RfcCycleModel& m, uint64_t cycles, uint64_t seed) {
  const GeneratedStructure g = EmitRfc(spec);
  RfcStimulus stim(spec, seed);
  PortValues in, out, def;
  for (const auto& p : g.ports) {
    in.emplace_back(p.width);
    out.emplace_back(p.width);
    def.emplace_back(p.width);
  }
  for (uint64_t c = 0; c < cycles; ++c) {
    stim.Next(c, in);
    for (auto& d : def)
      d.clear();
    m.Outputs(in, out, def);
    stim.Observe(c, out);
    m.Clock(in);
    if (!m.Failure().empty())
      return m.Failure();
  }
  return {};
}

TEST(RfcCycleModel, LongRunKeepsEveryInvariantAndCoversTheBehaviour) {
  for (const RfcShape& shape :
       {RfcShape{8, 1, 6, 0, 128, 6, false, true}, RfcShape{5, 2, 3, 2, 64, 5, true, true}}) {
    SCOPED_TRACE(shape.Name());
    const RfcSpec spec = MakeRfcSpec(shape);
    RfcCycleModel m(spec);
    EXPECT_EQ(RunModelOnly(spec, m, 100000, 3), "");
    const RfcCounters& k = m.cache().counters();
    EXPECT_GT(k.level[1].hits, 10000u);
    EXPECT_GT(k.lookup_misses, 10000u);
    EXPECT_GT(k.mrf_evictions, 2000u);
    EXPECT_GT(k.mrf_flushes, 2000u);
    EXPECT_GT(k.mrf_bypasses, 2000u);
    EXPECT_GT(k.dead_kills, 5000u);
    EXPECT_GT(k.superseded, 200u);
    EXPECT_GT(k.flushes, 500u);
    if (spec.two_levels()) {
      EXPECT_GT(k.level[0].hits, 10000u);
      EXPECT_GT(k.level[0].evictions, 5000u);
    }
    const RfcScoreboard& b = m.scoreboard();
    EXPECT_GT(b.discharged_written_back(), 5000u);
    EXPECT_GT(b.discharged_dead(), 5000u);
    EXPECT_GT(b.discharged_superseded(), 1000u);
  }
}

struct FaultCase {
  const char* name;
  RfcCache::Fault fault;
  const char* expect;
};

class RfcModelFault : public ::testing::TestWithParam<FaultCase> {};

TEST_P(RfcModelFault, InvariantCheckFires) {
  const FaultCase& fc = GetParam();
  for (const RfcShape& shape :
       {RfcShape{4, 1, 3, 0, 32, 6, false, true}, RfcShape{4, 2, 2, 1, 32, 6, true, true}}) {
    SCOPED_TRACE(shape.Name());
    const RfcSpec spec = MakeRfcSpec(shape);
    RfcCycleModel m(spec);
    m.cache().set_fault(fc.fault);
    const std::string f = RunModelOnly(spec, m, 20000, 5);
    EXPECT_NE(f.find(fc.expect), std::string::npos) << "failure: '" << f << "'";
  }
}

INSTANTIATE_TEST_SUITE_P(
    Faults, RfcModelFault,
    ::testing::Values(
        FaultCase{"DuplicateOnWrite", RfcCache::Fault::kDuplicateOnWrite, "invariant 1 violated"},
        FaultCase{"DropEviction", RfcCache::Fault::kDropEviction, "invariant 2 violated"},
        FaultCase{"WrongWriteBackData", RfcCache::Fault::kWrongWriteBackData,
                  "invariant 2 violated"}),
    [](const ::testing::TestParamInfo<FaultCase>& p) { return std::string(p.param.name); });

TEST(RfcScoreboard, CatchesADoubleWriteBack) {
  RfcScoreboard b;
  RfcScoreboard::Cycle c;
  c.wr_fire = true;
  c.wr_slot = 1;
  c.wr_reg = 4;
  c.wr_data = V(44);
  b.Observe(0, c);
  RfcScoreboard::Cycle wb;
  wb.wb_valid = wb.wb_ready = true;
  wb.wb_slot = 1;
  wb.wb_reg = 4;
  wb.wb_data = V(44);
  b.Observe(1, wb);
  EXPECT_EQ(b.Failure(), "");
  b.Observe(2, wb);  // the same value again
  EXPECT_NE(b.Failure().find("written back twice"), std::string::npos) << b.Failure();
}

}  // namespace
}  // namespace gpurf
