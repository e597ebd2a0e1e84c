#include "energy/report.h"

#include <gtest/gtest.h>

namespace gpurf::energy {
namespace {

std::vector<ConfigEnergy> TwoConfigs() {
  Breakdown base;
  base.level[0].access_pj = 80;
  base.level[0].wire_pj = 20;
  Breakdown orf;
  orf.level[0].access_pj = 30;
  orf.level[0].wire_pj = 10;
  orf.level[1].access_pj = 5;
  orf.level[2].wire_pj = 1;
  orf.tag_pj = 4;
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

TEST(Report, MarkdownNormalizesEveryColumn) {
  const std::string md = RenderMarkdown(TwoConfigs(), 100.0);
  EXPECT_NE(md.find("| baseline | 1.000 | 0.000 | 0.000 | 0.000 | 0.800 | 0.200 | 1.000 |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("0.040 | 0.350 | 0.110 | 0.500 |"), std::string::npos) << md;
}

TEST(Report, JsonCarriesTotalsAndNormalization) {
  const auto j = RenderJson(TwoConfigs(), 100.0);
  EXPECT_DOUBLE_EQ(j["configs"][1]["total_pj"].get<double>(), 50.0);
  EXPECT_DOUBLE_EQ(j["configs"][1]["normalized"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(j["configs"][1]["levels"]["L1"]["access_pj"].get<double>(), 5.0);
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
