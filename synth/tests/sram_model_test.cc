// The SRAM bank model against hand-computed values: the published 4 KB points reproduce
// exactly at the reference shape; the scaling law (linear in width, square root of depth for
// energy; linear in bits for leakage; bits plus column and row periphery for area) gives the
// numbers worked out below; node multipliers apply and compose; bad shapes and scalings are
// rejected; the JSON report carries every figure with its source.
#include "synth/sram_model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

namespace gpurf {
namespace {

TEST(SramModel, PublishedPointsAreTheirPapers) {
  const auto& pts = PublishedSramPoints();
  ASSERT_EQ(pts.size(), 2u);
  EXPECT_EQ(pts[0].source, "gebhart-tocs2012-table5");
  EXPECT_DOUBLE_EQ(pts[0].read_pj, 8.0);
  EXPECT_DOUBLE_EQ(pts[0].write_pj, 11.0);
  EXPECT_DOUBLE_EQ(pts[0].area_um2, 38000.0);
  EXPECT_EQ(pts[0].shape.bits(), 4 * 1024 * 8);
  EXPECT_EQ(pts[1].source, "jeon-micro2015-table2");
  EXPECT_DOUBLE_EQ(pts[1].read_pj, 4.68);
  EXPECT_DOUBLE_EQ(pts[1].leakage_mw, 2.8);
  for (const auto& p : pts)
    EXPECT_DOUBLE_EQ(p.node_nm, 40.0);
}

TEST(SramModel, ReferenceShapeReproducesThePapers) {
  const SramFigures g = EstimateSram({256, 128});
  EXPECT_DOUBLE_EQ(g.read_pj, 8.0);
  EXPECT_DOUBLE_EQ(g.write_pj, 11.0);
  EXPECT_DOUBLE_EQ(g.area_um2, 38000.0);
  EXPECT_DOUBLE_EQ(g.leakage_mw, 2.8);
  EXPECT_EQ(g.read_source, "gebhart-tocs2012-table5");
  EXPECT_EQ(g.leakage_source, "jeon-micro2015-table2");
  EXPECT_FALSE(g.extrapolated);
  const SramFigures j = EstimateSram({256, 128}, SramBasis::kJeon);
  EXPECT_DOUBLE_EQ(j.read_pj, 4.68);
  EXPECT_DOUBLE_EQ(j.write_pj, 4.68);
  EXPECT_DOUBLE_EQ(j.area_um2, 38000.0);  // Jeon gives no area: Gebhart's
  EXPECT_EQ(j.area_source, "gebhart-tocs2012-table5");
}

TEST(SramModel, ScalingLawByHand) {
  // 1024 x 128 (16 KB): energy x sqrt(4) = 2, leakage x 4,
  // area 38000 x (0.5 x 4 + 0.25 x 1 + 0.25 x 4) = 38000 x 3.25 = 123500.
  const SramFigures deep = EstimateSram({1024, 128});
  EXPECT_DOUBLE_EQ(deep.read_pj, 16.0);
  EXPECT_DOUBLE_EQ(deep.write_pj, 22.0);
  EXPECT_DOUBLE_EQ(deep.leakage_mw, 11.2);
  EXPECT_DOUBLE_EQ(deep.area_um2, 123500.0);
  // 256 x 64 (2 KB): energy / 2, leakage / 2, area 38000 x (0.25 + 0.125 + 0.25) = 23750.
  const SramFigures narrow = EstimateSram({256, 64});
  EXPECT_DOUBLE_EQ(narrow.read_pj, 4.0);
  EXPECT_DOUBLE_EQ(narrow.leakage_mw, 1.4);
  EXPECT_DOUBLE_EQ(narrow.area_um2, 23750.0);
  // 64 x 128 (1 KB): energy x sqrt(1/4) = 1/2.
  EXPECT_DOUBLE_EQ(EstimateSram({64, 128}).read_pj, 4.0);
  // Energy grows with depth; per bit accessed it does not depend on the width.
  double last = 0;
  for (int d : {16, 64, 256, 1024, 4096}) {
    const double e = EstimateSram({d, 128}).read_pj;
    EXPECT_GT(e, last);
    last = e;
  }
  EXPECT_DOUBLE_EQ(EstimateSram({256, 32}).read_pj / 32, EstimateSram({256, 256}).read_pj / 256);
}

TEST(SramModel, ExtrapolationIsFlagged) {
  EXPECT_TRUE(EstimateSram({16, 8}).extrapolated);       // 16 bytes
  EXPECT_TRUE(EstimateSram({4096, 1024}).extrapolated);  // 512 KB
  EXPECT_FALSE(EstimateSram({512, 128}).extrapolated);
}

TEST(SramModel, NodeScalingMultipliesAndComposes) {
  NodeScaling n;
  n.name = "180nm";
  n.node_nm = 180;
  n.energy = 20;
  n.area = 15;
  n.leakage = 0.5;
  n.source = "test multipliers";
  const SramFigures f = EstimateSram({256, 128}, SramBasis::kGebhart, n);
  EXPECT_DOUBLE_EQ(f.read_pj, 160.0);
  EXPECT_DOUBLE_EQ(f.write_pj, 220.0);
  EXPECT_DOUBLE_EQ(f.area_um2, 570000.0);
  EXPECT_DOUBLE_EQ(f.leakage_mw, 1.4);
  EXPECT_EQ(f.node.name, "180nm");
  // Back to the reference node gives the published values again.
  const SramFigures back = ScaleSram(f, NodeScaling::Reference());
  EXPECT_DOUBLE_EQ(back.read_pj, 8.0);
  EXPECT_DOUBLE_EQ(back.area_um2, 38000.0);
}

TEST(SramModel, RejectsBadShapesAndScalings) {
  EXPECT_THROW(EstimateSram({0, 128}), std::invalid_argument);
  EXPECT_THROW(EstimateSram({256, -1}), std::invalid_argument);
  NodeScaling bad;
  bad.energy = 0;
  EXPECT_THROW(EstimateSram({256, 128}, SramBasis::kGebhart, bad), std::invalid_argument);
}

TEST(SramModel, JsonReportPerBankAndTotals) {
  const SramFigures f = EstimateSram({512, 128});
  const auto j = SramBanksJson(f, 32);
  EXPECT_EQ(j["banks"], 32);
  EXPECT_EQ(j["per_bank"]["depth"], 512);
  EXPECT_EQ(j["per_bank"]["width"], 128);
  EXPECT_EQ(j["per_bank"]["ports"], "1r1w");
  EXPECT_DOUBLE_EQ(j["per_bank"]["read_pj"].get<double>(), 8.0 * std::sqrt(2.0));
  EXPECT_EQ(j["per_bank"]["sources"]["area"], "gebhart-tocs2012-table5");
  EXPECT_EQ(j["per_bank"]["node"]["node_nm"], 40.0);
  EXPECT_NE(j["per_bank"]["law"].get<std::string>().find("sqrt(D/D0)"), std::string::npos);
  EXPECT_DOUBLE_EQ(j["total"]["leakage_mw"].get<double>(), 32 * 5.6);
  EXPECT_DOUBLE_EQ(j["total"]["area_um2"].get<double>(), 32 * f.area_um2);
  EXPECT_EQ(j["total"]["bits"], 32LL * 512 * 128);
}

}  // namespace
}  // namespace gpurf
