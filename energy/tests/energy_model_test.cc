#include "energy/energy_model.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace gpurf::energy {
namespace {

constexpr auto kP = static_cast<int>(Unit::kPrivate);
constexpr auto kS = static_cast<int>(Unit::kShared);

TEST(GebhartDefaults, TablePointsAreTheTableValues) {
  auto e = Energies::GebhartDefaults(4, 4);
  EXPECT_DOUBLE_EQ(e.at(Level::kL1).read_pj, 1.2);
  EXPECT_DOUBLE_EQ(e.at(Level::kL1).write_pj, 3.8);
  e = Energies::GebhartDefaults(6, 8);
  EXPECT_DOUBLE_EQ(e.at(Level::kL1).read_pj, 2.2);
  EXPECT_DOUBLE_EQ(e.at(Level::kL1).write_pj, 6.7);
  e = Energies::GebhartDefaults(8, 8);
  EXPECT_DOUBLE_EQ(e.at(Level::kL1).read_pj, 3.4);
  EXPECT_DOUBLE_EQ(e.at(Level::kL1).write_pj, 10.9);
  EXPECT_DOUBLE_EQ(e.at(Level::kMrf).read_pj, 8.0);
  EXPECT_DOUBLE_EQ(e.at(Level::kMrf).write_pj, 11.0);
  EXPECT_DOUBLE_EQ(e.at(Level::kL0).read_pj, 0.7);
  EXPECT_DOUBLE_EQ(e.at(Level::kL0).write_pj, 2.0);
}

TEST(GebhartDefaults, InterpolatesInRowsAndClampsOutsideTheTable) {
  // Table IV depends only on rows = entries x warps: 4 x 6 and 6 x 4 are both 24 rows.
  EXPECT_DOUBLE_EQ(Energies::GebhartDefaults(4, 6).at(Level::kL1).write_pj, 4.4);
  EXPECT_DOUBLE_EQ(Energies::GebhartDefaults(6, 4).at(Level::kL1).write_pj, 4.4);
  // 5 x 4 = 20 rows: halfway between 16 (3.8 pJ) and 24 (4.4 pJ).
  auto e = Energies::GebhartDefaults(5, 4);
  EXPECT_DOUBLE_EQ(e.at(Level::kL1).read_pj, 1.2);
  EXPECT_NEAR(e.at(Level::kL1).write_pj, 4.1, 1e-12);
  // 7 x 8 = 56 rows: halfway between 48 and 64.
  e = Energies::GebhartDefaults(7, 8);
  EXPECT_NEAR(e.at(Level::kL1).read_pj, (2.2 + 3.4) / 2, 1e-12);
  // 1 x 8 = 8 rows: below the table, the 16-row figures, said so.
  e = Energies::GebhartDefaults(1, 8);
  EXPECT_DOUBLE_EQ(e.at(Level::kL1).read_pj, 1.2);
  EXPECT_DOUBLE_EQ(e.at(Level::kL1).write_pj, 3.8);
  EXPECT_NE(e.at(Level::kL1).source.find("clamped"), std::string::npos);
}

TEST(GebhartDefaults, TagCheckGrowsWithEntries) {
  EXPECT_GT(Energies::GebhartDefaults(3, 8, 8).tag_check_pj,
            Energies::GebhartDefaults(3, 8, 4).tag_check_pj);
  // 6 entries x 8 bits = 48 of 128 bits of an L0 read.
  EXPECT_DOUBLE_EQ(Energies::GebhartDefaults(3, 8, 6).tag_check_pj, 0.7 * 48 / 128);
}

TEST(Evaluate, MrfOnlyHandComputed) {
  AccessCounts c;
  c.at(Level::kMrf).reads[kP] = 10;
  c.at(Level::kMrf).writes[kP] = 5;
  const Breakdown b = Evaluate(c, Energies::GebhartDefaults(3, 8), WireModel::GebhartTableV(), {});
  // 8 rows per warp operand: (10 x 8 pJ + 5 x 11 pJ) x 8 = 1080 pJ.
  EXPECT_DOUBLE_EQ(b.at(Level::kMrf).access_pj, 1080.0);
  // 15 operands x 32 words x 1 mm x 1.9 pJ = 912 pJ.
  EXPECT_DOUBLE_EQ(b.at(Level::kMrf).wire_pj, 912.0);
  EXPECT_DOUBLE_EQ(b.total_pj(), 1992.0);
  EXPECT_DOUBLE_EQ(b.at(Level::kL1).total(), 0.0);
}

TEST(Evaluate, WiresDependOnLevelAndUnit) {
  AccessCounts c;
  c.at(Level::kL1).reads[kP] = 1;  // 0.2 mm
  c.at(Level::kL1).reads[kS] = 1;  // 0.4 mm
  c.at(Level::kL0).reads[kP] = 2;  // 0.05 mm
  const Breakdown b = Evaluate(c, Energies::GebhartDefaults(4, 4), WireModel::GebhartTableV(), {});
  EXPECT_NEAR(b.at(Level::kL1).wire_pj, 32 * 1.9 * (0.2 + 0.4), 1e-9);
  EXPECT_NEAR(b.at(Level::kL0).wire_pj, 2 * 32 * 1.9 * 0.05, 1e-9);
  EXPECT_NEAR(b.at(Level::kL1).access_pj, 2 * 1.2 * 8, 1e-9);
}

TEST(Evaluate, WritebacksPayMrfWriteAndTheWireBack) {
  AccessCounts c;
  c.at(Level::kMrf).writebacks = 3;
  const Breakdown b = Evaluate(c, Energies::GebhartDefaults(4, 4), WireModel::GebhartTableV(), {});
  EXPECT_DOUBLE_EQ(b.at(Level::kMrf).access_pj, 3 * 11.0 * 8);
  EXPECT_NEAR(b.at(Level::kMrf).wire_pj, 3 * 32 * 1.9 * 1.0, 1e-9);
}

TEST(Evaluate, SharedUnitReadsFromL0AreRejected) {
  AccessCounts c;
  c.at(Level::kL0).reads[kS] = 1;
  EXPECT_THROW(Evaluate(c, Energies::GebhartDefaults(4, 4), WireModel::GebhartTableV(), {}),
               std::invalid_argument);
}

TEST(Evaluate, RowWidthMustMatchTheClusterWidth) {
  SmGeometry sm;
  sm.cluster_lanes = 8;  // 256-bit rows, energies are for 128-bit rows
  EXPECT_THROW(Evaluate({}, Energies::GebhartDefaults(4, 4), WireModel::GebhartTableV(), sm),
               std::invalid_argument);
  sm.cluster_lanes = 5;
  EXPECT_THROW(Evaluate({}, Energies::GebhartDefaults(4, 4), WireModel::GebhartTableV(), sm),
               std::invalid_argument);
}

TEST(Evaluate, LeakageIsPowerTimesTime) {
  Energies e = Energies::GebhartDefaults(4, 4);
  e.at(Level::kMrf).leakage_mw = 2.8;  // Jeon Table 2, one 4 KB bank
  AccessCounts c;
  c.cycles = 1000;  // 1 us at 1 GHz
  SmGeometry sm;
  EXPECT_DOUBLE_EQ(Evaluate(c, e, WireModel::GebhartTableV(), sm).leakage_pj(), 2800.0);
  sm.clock_ghz = 0.5;
  EXPECT_DOUBLE_EQ(Evaluate(c, e, WireModel::GebhartTableV(), sm).leakage_pj(), 5600.0);
}

TEST(Evaluate, MovingReadsIntoTheOrfSavesEnergy) {
  // The same 100 operand reads and 50 results: each step moves 10 more reads (and 5 writes)
  // from the MRF into the L1; energy must fall monotonically.
  const Energies e = Energies::GebhartDefaults(3, 8);
  double prev = 1e300;
  for (int moved = 0; moved <= 5; ++moved) {
    AccessCounts c;
    c.at(Level::kMrf).reads[kP] = 100 - 10 * static_cast<uint64_t>(moved);
    c.at(Level::kL1).reads[kP] = 10 * static_cast<uint64_t>(moved);
    c.at(Level::kMrf).writes[kP] = 50 - 5 * static_cast<uint64_t>(moved);
    c.at(Level::kL1).writes[kP] = 5 * static_cast<uint64_t>(moved);
    const double t = Evaluate(c, e, WireModel::GebhartTableV(), {}).total_pj();
    EXPECT_LT(t, prev) << moved;
    prev = t;
  }
}

TEST(AccessCounts, AddsEveryField) {
  AccessCounts a, b;
  a.at(Level::kL1).reads[kS] = 2;
  b.at(Level::kL1).reads[kS] = 3;
  b.at(Level::kMrf).writebacks = 4;
  b.tag_checks = 7;
  b.cycles = 9;
  a += b;
  EXPECT_EQ(a.at(Level::kL1).reads[kS], 5u);
  EXPECT_EQ(a.at(Level::kMrf).writebacks, 4u);
  EXPECT_EQ(a.tag_checks, 7u);
  EXPECT_EQ(a.cycles, 9u);
}

}  // namespace
}  // namespace gpurf::energy
