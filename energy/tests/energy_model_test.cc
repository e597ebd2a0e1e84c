#include "energy/energy_model.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "energy/gebhart.h"

namespace gpurf::energy {
namespace {

constexpr auto kP = static_cast<int>(Unit::kPrivate);
constexpr auto kS = static_cast<int>(Unit::kShared);

// Gebhart's three levels and the tag-check estimate, as the harness's hierarchies declare them.
Energies Gebhart(int l1_entries, int warps, int tag_entries = 6) {
  Energies e;
  for (const auto& name : gebhart::LevelNames())
    e.levels.push_back(gebhart::Level(name, l1_entries, warps));
  e.components.push_back(gebhart::TagCheckEstimate(tag_entries));
  e.pj_per_mm_word = gebhart::kWirePjPerMmWord;
  e.writeback_mm = e.levels[0].mm[kP];
  return e;
}

// Level indices of Gebhart().
constexpr size_t kMrfIdx = 0, kL1Idx = 1, kL0Idx = 2;

LevelEnergy L1(int entries, int warps) {
  return gebhart::Level("L1", entries, warps);
}

TEST(Gebhart, TablePointsAreTheTableValues) {
  EXPECT_EQ(gebhart::LevelNames(), (std::vector<std::string>{"MRF", "L1", "L0"}));
  EXPECT_DOUBLE_EQ(L1(4, 4).read_pj, 1.2);
  EXPECT_DOUBLE_EQ(L1(4, 4).write_pj, 3.8);
  EXPECT_DOUBLE_EQ(L1(6, 8).read_pj, 2.2);
  EXPECT_DOUBLE_EQ(L1(6, 8).write_pj, 6.7);
  EXPECT_DOUBLE_EQ(L1(8, 8).read_pj, 3.4);
  EXPECT_DOUBLE_EQ(L1(8, 8).write_pj, 10.9);
  const LevelEnergy mrf = gebhart::Level("MRF", 8, 8), l0 = gebhart::Level("L0", 8, 8);
  EXPECT_DOUBLE_EQ(mrf.read_pj, 8.0);
  EXPECT_DOUBLE_EQ(mrf.write_pj, 11.0);
  EXPECT_DOUBLE_EQ(l0.read_pj, 0.7);
  EXPECT_DOUBLE_EQ(l0.write_pj, 2.0);
  // Table V distances: private datapath / shared units; the L0 is not wired to the shared units.
  EXPECT_DOUBLE_EQ(mrf.mm[kP], 1.0);
  EXPECT_DOUBLE_EQ(mrf.mm[kS], 1.0);
  EXPECT_DOUBLE_EQ(L1(4, 4).mm[kP], 0.2);
  EXPECT_DOUBLE_EQ(L1(4, 4).mm[kS], 0.4);
  EXPECT_DOUBLE_EQ(l0.mm[kP], 0.05);
  EXPECT_DOUBLE_EQ(l0.mm[kS], 0.0);
  EXPECT_THROW(gebhart::Level("L2", 4, 4), std::invalid_argument);
}

TEST(Gebhart, InterpolatesInRowsAndClampsOutsideTheTable) {
  // 4 x 6 and 6 x 4 are both 24 rows: one figure.
  EXPECT_DOUBLE_EQ(L1(4, 6).write_pj, 4.4);
  EXPECT_DOUBLE_EQ(L1(6, 4).write_pj, 4.4);
  // 20 rows: halfway between 16 (1.2/3.8) and 24 (1.2/4.4).
  EXPECT_DOUBLE_EQ(L1(5, 4).read_pj, 1.2);
  EXPECT_NEAR(L1(5, 4).write_pj, 4.1, 1e-12);
  // 56 rows: halfway between 48 and 64.
  EXPECT_NEAR(L1(7, 8).read_pj, (2.2 + 3.4) / 2, 1e-12);
  // 8 rows: clamped to the 16-row figure, and said so.
  const LevelEnergy e = L1(1, 8);
  EXPECT_DOUBLE_EQ(e.read_pj, 1.2);
  EXPECT_DOUBLE_EQ(e.write_pj, 3.8);
  EXPECT_NE(e.source.find("clamped"), std::string::npos);
}

TEST(Gebhart, TagCheckGrowsWithEntries) {
  EXPECT_GT(gebhart::TagCheckEstimate(8).pj, gebhart::TagCheckEstimate(4).pj);
  // 6 entries x 8 bits = 48 of 128 bits of an L0 read.
  const ComponentEnergy c = gebhart::TagCheckEstimate(6);
  EXPECT_DOUBLE_EQ(c.pj, 0.7 * 48 / 128);
  EXPECT_EQ(c.name, "tag checks");
  EXPECT_EQ(c.label, "tags");
  EXPECT_NE(c.source.find("estimate"), std::string::npos);
}

TEST(Energies, LooksLevelsAndComponentsUpByName) {
  const Energies e = Gebhart(3, 8);
  EXPECT_EQ(e.LevelIndex("MRF"), 0);
  EXPECT_EQ(e.LevelIndex("L0"), 2);
  EXPECT_EQ(e.ComponentIndex("tag checks"), 0);
  EXPECT_THROW(e.LevelIndex("L2"), std::invalid_argument);
  EXPECT_THROW(e.ComponentIndex("tags"), std::invalid_argument);
}

TEST(Energies, ScaleRowsScalesEveryPerAccessFigure) {
  Energies e = Gebhart(3, 8);
  e.ScaleRows(256);
  EXPECT_EQ(e.row_bits, 256);
  EXPECT_DOUBLE_EQ(e.levels[kMrfIdx].read_pj, 16.0);
  EXPECT_DOUBLE_EQ(e.levels[kL0Idx].write_pj, 4.0);
  EXPECT_DOUBLE_EQ(e.components[0].pj, 2 * 0.7 * 48 / 128);
  EXPECT_DOUBLE_EQ(e.levels[kMrfIdx].mm[kP], 1.0);  // distances stay
}

TEST(Evaluate, MrfOnlyHandComputed) {
  const Energies e = Gebhart(3, 8);
  AccessCounts c(e);
  c.levels[kMrfIdx].reads[kP] = 10;
  c.levels[kMrfIdx].writes[kP] = 5;
  const Breakdown b = Evaluate(c, e, {});
  ASSERT_EQ(b.levels.size(), 3u);
  EXPECT_EQ(b.levels[kMrfIdx].name, "MRF");
  // 8 rows per warp operand: (10 x 8 pJ + 5 x 11 pJ) x 8 = 1080 pJ.
  EXPECT_DOUBLE_EQ(b.levels[kMrfIdx].access_pj, 1080.0);
  // 15 operands x 32 words x 1 mm x 1.9 pJ = 912 pJ.
  EXPECT_DOUBLE_EQ(b.levels[kMrfIdx].wire_pj, 912.0);
  EXPECT_DOUBLE_EQ(b.total_pj(), 1992.0);
  EXPECT_DOUBLE_EQ(b.FindLevel("L1")->total(), 0.0);
}

TEST(Evaluate, WiresDependOnLevelAndUnit) {
  const Energies e = Gebhart(4, 4);
  AccessCounts c(e);
  c.levels[kL1Idx].reads[kP] = 1;  // 0.2 mm
  c.levels[kL1Idx].reads[kS] = 1;  // 0.4 mm
  c.levels[kL0Idx].reads[kP] = 2;  // 0.05 mm
  const Breakdown b = Evaluate(c, e, {});
  EXPECT_NEAR(b.levels[kL1Idx].wire_pj, 32 * 1.9 * (0.2 + 0.4), 1e-9);
  EXPECT_NEAR(b.levels[kL0Idx].wire_pj, 2 * 32 * 1.9 * 0.05, 1e-9);
  EXPECT_NEAR(b.levels[kL1Idx].access_pj, 2 * 1.2 * 8, 1e-9);
}

TEST(Evaluate, WritebacksPayMrfWriteAndTheWireBack) {
  const Energies e = Gebhart(4, 4);
  AccessCounts c(e);
  c.levels[kMrfIdx].writebacks = 3;
  const Breakdown b = Evaluate(c, e, {});
  EXPECT_DOUBLE_EQ(b.levels[kMrfIdx].access_pj, 3 * 11.0 * 8);
  EXPECT_NEAR(b.levels[kMrfIdx].wire_pj, 3 * 32 * 1.9 * 1.0, 1e-9);
}

TEST(Evaluate, EventsCostTheirComponentsEnergy) {
  const Energies e = Gebhart(4, 4);
  AccessCounts c(e);
  c.events[0] = 10;
  const Breakdown b = Evaluate(c, e, {});
  ASSERT_EQ(b.components.size(), 1u);
  EXPECT_EQ(b.components[0].name, "tag checks");
  EXPECT_EQ(b.components[0].label, "tags");
  EXPECT_DOUBLE_EQ(b.components[0].pj, 10 * 0.7 * 48 / 128);
  EXPECT_DOUBLE_EQ(b.total_pj(), b.components_pj());
}

TEST(Evaluate, SharedUnitReadsFromL0AreRejected) {
  const Energies e = Gebhart(4, 4);
  AccessCounts c(e);
  c.levels[kL0Idx].reads[kS] = 1;
  EXPECT_THROW(Evaluate(c, e, {}), std::invalid_argument);
}

TEST(Evaluate, CountsMustBeIndexedLikeTheEnergies) {
  const Energies e = Gebhart(4, 4);
  EXPECT_THROW(Evaluate(AccessCounts{}, e, {}), std::invalid_argument);
  Energies fewer = e;
  fewer.components.clear();
  EXPECT_THROW(Evaluate(AccessCounts(e), fewer, {}), std::invalid_argument);
}

TEST(Evaluate, LevelsAreWhateverTheEnergiesName) {
  // One level and one event component of made-up names: nothing in the model knows Gebhart's.
  Energies e;
  e.levels.push_back({"bank", 2.0, 3.0, 0.0, "test", {0.5, 0.0}});
  e.components.push_back({"renames", "ren", 0.25, "test"});
  AccessCounts c(e);
  c.levels[0].reads[kP] = 1;
  c.events[0] = 4;
  const Breakdown b = Evaluate(c, e, {});
  ASSERT_EQ(b.levels.size(), 1u);
  EXPECT_EQ(b.levels[0].name, "bank");
  EXPECT_DOUBLE_EQ(b.levels[0].access_pj, 2.0 * 8);
  EXPECT_DOUBLE_EQ(b.levels[0].wire_pj, 32 * 1.9 * 0.5);
  EXPECT_DOUBLE_EQ(b.FindComponent("renames")->pj, 1.0);
  EXPECT_EQ(b.FindLevel("MRF"), nullptr);
  c.levels[0].reads[kS] = 1;  // shared units do not reach it
  EXPECT_THROW(Evaluate(c, e, {}), std::invalid_argument);
}

TEST(Evaluate, RowWidthMustMatchTheClusterWidth) {
  const Energies e = Gebhart(4, 4);
  SmGeometry sm;
  sm.cluster_lanes = 8;  // 256-bit rows, energies are for 128-bit rows
  EXPECT_THROW(Evaluate(AccessCounts(e), e, sm), std::invalid_argument);
  sm.cluster_lanes = 5;
  EXPECT_THROW(Evaluate(AccessCounts(e), e, sm), std::invalid_argument);
}

TEST(Evaluate, LeakageIsPowerTimesTime) {
  Energies e = Gebhart(4, 4);
  e.levels[kMrfIdx].leakage_mw = 2.8;  // Jeon Table 2, one 4 KB bank
  AccessCounts c(e);
  c.cycles = 1000;  // 1 us at 1 GHz
  SmGeometry sm;
  EXPECT_DOUBLE_EQ(Evaluate(c, e, sm).leakage_pj(), 2800.0);
  sm.clock_ghz = 0.5;
  EXPECT_DOUBLE_EQ(Evaluate(c, e, sm).leakage_pj(), 5600.0);
}

TEST(Evaluate, ComponentLeakageIsPowerPerEventCycle) {
  // Powered subarray-cycles: 1000 of them at 2.8 mW (Jeon Table 2, one 4 KB subarray) on a
  // 700 MHz clock cost 2.8 x 1000 / 0.7 = 4000 pJ, on top of the per-event access energy; the
  // row scaling of access energies leaves leakage alone.
  Energies e = Gebhart(4, 4);
  e.components.push_back({"powered subarray-cycles", "on", 0.5, "test", 2.8});
  e.ScaleRows(256);
  e.ScaleRows(128);
  AccessCounts c(e);
  const size_t on = static_cast<size_t>(e.ComponentIndex("powered subarray-cycles"));
  c.events[on] = 1000;
  SmGeometry sm;
  sm.clock_ghz = 0.7;
  const Breakdown b = Evaluate(c, e, sm);
  EXPECT_NEAR(b.FindComponent("powered subarray-cycles")->pj, 500.0 + 4000.0, 1e-9);
  EXPECT_DOUBLE_EQ(b.leakage_pj(), 0.0);  // no level leaks: counts.cycles is 0
  sm.clock_ghz = 1.4;
  EXPECT_NEAR(Evaluate(c, e, sm).FindComponent("powered subarray-cycles")->pj, 2500.0, 1e-9);
}

TEST(Evaluate, MovingReadsIntoTheOrfSavesEnergy) {
  // The same 100 operand reads and 50 results: each step moves 10 more reads (and 5 writes)
  // from the MRF into the L1; energy must fall monotonically.
  const Energies e = Gebhart(3, 8);
  double prev = 1e300;
  for (int moved = 0; moved <= 5; ++moved) {
    AccessCounts c(e);
    c.levels[kMrfIdx].reads[kP] = 100 - 10 * static_cast<uint64_t>(moved);
    c.levels[kL1Idx].reads[kP] = 10 * static_cast<uint64_t>(moved);
    c.levels[kMrfIdx].writes[kP] = 50 - 5 * static_cast<uint64_t>(moved);
    c.levels[kL1Idx].writes[kP] = 5 * static_cast<uint64_t>(moved);
    const double t = Evaluate(c, e, {}).total_pj();
    EXPECT_LT(t, prev) << moved;
    prev = t;
  }
}

TEST(AccessCounts, AddsEveryField) {
  const Energies e = Gebhart(3, 8);
  AccessCounts a(e), b(e);
  a.levels[kL1Idx].reads[kS] = 2;
  b.levels[kL1Idx].reads[kS] = 3;
  b.levels[kMrfIdx].writebacks = 4;
  b.events[0] = 7;
  b.cycles = 9;
  a += b;
  EXPECT_EQ(a.levels[kL1Idx].reads[kS], 5u);
  EXPECT_EQ(a.levels[kMrfIdx].writebacks, 4u);
  EXPECT_EQ(a.events[0], 7u);
  EXPECT_EQ(a.cycles, 9u);
  // An empty sum takes the shape of what it adds; other shapes are rejected.
  AccessCounts sum;
  sum += b;
  EXPECT_EQ(sum.levels.size(), 3u);
  EXPECT_EQ(sum.events[0], 7u);
  AccessCounts other;
  other.levels.resize(1);
  EXPECT_THROW(a += other, std::invalid_argument);
}

TEST(Breakdown, AddsByIndexAndSerializesNames) {
  const Energies e = Gebhart(3, 8);
  AccessCounts c(e);
  c.levels[kMrfIdx].reads[kP] = 1;
  c.events[0] = 2;
  const Breakdown one = Evaluate(c, e, {});
  Breakdown sum;
  sum += one;
  sum += one;
  sum += Breakdown{};  // adds nothing
  EXPECT_DOUBLE_EQ(sum.total_pj(), 2 * one.total_pj());
  EXPECT_DOUBLE_EQ(sum.FindComponent("tag checks")->pj, 2 * one.components[0].pj);
  const auto j = sum.ToJson();
  EXPECT_DOUBLE_EQ(j["levels"]["MRF"]["access_pj"].get<double>(), 2 * 8.0 * 8);
  EXPECT_DOUBLE_EQ(j["components"]["tag checks"]["pj"].get<double>(), 2 * one.components[0].pj);
  EXPECT_DOUBLE_EQ(j["total_pj"].get<double>(), sum.total_pj());
  Breakdown fewer = one;
  fewer.levels.pop_back();
  EXPECT_THROW(fewer += one, std::invalid_argument);
}

}  // namespace
}  // namespace gpurf::energy
