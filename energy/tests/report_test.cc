#include "energy/report.h"

#include <gtest/gtest.h>

namespace gpurf::energy {
namespace {

// Gebhart's levels and the tag checks, as the harness's hierarchies report them.
Breakdown Named() {
  Breakdown b;
  for (const char* name : {"MRF", "L1", "L0"})
    b.levels.push_back({name, 0, 0, 0});
  b.components.push_back({"tag checks", "tags", 0});
  return b;
}

std::vector<ConfigEnergy> TwoConfigs() {
  Breakdown base = Named();
  base.levels[0].access_pj = 80;
  base.levels[0].wire_pj = 20;
  Breakdown orf = Named();
  orf.levels[0].access_pj = 30;
  orf.levels[0].wire_pj = 10;
  orf.levels[1].access_pj = 5;
  orf.levels[2].wire_pj = 1;
  orf.components[0].pj = 4;
  return {{"baseline", base}, {"SW ORF, \"3-level\"", orf}};
}

int Count(const std::string& s, const std::string& what) {
  int n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1))
    ++n;
  return n;
}

TEST(Report, CsvHasOneRowPerConfigWithNormalizedTotals) {
  const std::string csv = RenderCsv(TwoConfigs(), 100.0);
  EXPECT_EQ(Count(csv, "\n"), 3);
  EXPECT_NE(csv.find("baseline,80,20,0,0,0,0,0,0,100,1.0000\n"), std::string::npos) << csv;
  // The quoted name survives, and the ORF row sums to 50 pJ = 0.5 of the baseline.
  EXPECT_NE(csv.find("\"SW ORF, \"\"3-level\"\"\""), std::string::npos) << csv;
  EXPECT_NE(csv.find(",50,0.5000\n"), std::string::npos) << csv;
}

TEST(Report, CsvHeaderNamesTheLevelsAndComponents) {
  const std::string csv = RenderCsv(TwoConfigs(), 100.0);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "config,MRF access pJ,MRF wire pJ,L1 access pJ,L1 wire pJ,L0 access pJ,L0 wire pJ,"
            "tag checks pJ,leakage pJ,total pJ,normalized");
}

TEST(Report, MarkdownNormalizesEveryColumn) {
  const std::string md = RenderMarkdown(TwoConfigs(), 100.0);
  EXPECT_NE(md.find("| baseline | 1.000 | 0.000 | 0.000 | 0.000 | 0.800 | 0.200 | 1.000 |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("0.040 | 0.350 | 0.110 | 0.500 |"), std::string::npos) << md;
}

TEST(Report, ColumnsAreTheUnionOfTheConfigsNamesInOrderOfFirstAppearance) {
  // The baseline has only its own level; the second config adds a level and a component.
  Breakdown base;
  base.levels.push_back({"MRF", 60, 40, 0});
  Breakdown other;
  other.levels.push_back({"bank", 10, 0, 0});
  other.levels.push_back({"MRF", 20, 10, 0});
  other.components.push_back({"renames", "ren", 10});
  const std::vector<ConfigEnergy> configs = {{"base", base}, {"other", other}};
  const Columns cols = ColumnsOf(configs);
  EXPECT_EQ(cols.levels, (std::vector<std::string>{"MRF", "bank"}));
  ASSERT_EQ(cols.components.size(), 1u);
  EXPECT_EQ(cols.components[0].label, "ren");
  const std::string md = RenderMarkdown(configs, 100.0);
  EXPECT_NE(md.find("| configuration | MRF | bank | ren | access | wire | total (norm.) |\n"
                    "|---|---:|---:|---:|---:|---:|---:|\n"),
            std::string::npos)
      << md;
  // A config without a column shows 0 there.
  EXPECT_NE(md.find("| base | 1.000 | 0.000 | 0.000 | 0.600 | 0.400 | 1.000 |"), std::string::npos)
      << md;
  EXPECT_NE(md.find("| other | 0.300 | 0.100 | 0.100 | 0.300 | 0.100 | 0.500 |"), std::string::npos)
      << md;
  const std::string csv = RenderCsv(configs, 100.0);
  EXPECT_NE(csv.find("\nbase,60,40,0,0,0,0,100,1.0000\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\nother,20,10,10,0,10,0,50,0.5000\n"), std::string::npos) << csv;
}

TEST(Report, JsonCarriesTotalsAndNormalization) {
  const auto j = RenderJson(TwoConfigs(), 100.0);
  EXPECT_DOUBLE_EQ(j["configs"][1]["total_pj"].get<double>(), 50.0);
  EXPECT_DOUBLE_EQ(j["configs"][1]["normalized"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(j["configs"][1]["levels"]["L1"]["access_pj"].get<double>(), 5.0);
  EXPECT_DOUBLE_EQ(j["configs"][1]["components"]["tag checks"]["pj"].get<double>(), 4.0);
}

TEST(Report, SvgDrawsOneRectPerNonZeroSegmentAndEscapesNames) {
  const std::string svg = RenderSvg(TwoConfigs(), 100.0, "RF energy <test>");
  // Background + 2 (baseline) + 5 (ORF) bar segments + 8 legend swatches.
  EXPECT_EQ(Count(svg, "<rect"), 1 + 2 + 5 + 8);
  EXPECT_NE(svg.find("RF energy &lt;test&gt;"), std::string::npos);
  EXPECT_NE(svg.find("SW ORF, &quot;3-level&quot;"), std::string::npos);
  EXPECT_EQ(svg.rfind("</svg>\n"), svg.size() - 7);
}

TEST(Report, NonPositiveBaselineIsRejected) {
  EXPECT_THROW(RenderCsv(TwoConfigs(), 0.0), std::invalid_argument);
  EXPECT_THROW(RenderSvg(TwoConfigs(), -1.0, "x"), std::invalid_argument);
}

}  // namespace
}  // namespace gpurf::energy
