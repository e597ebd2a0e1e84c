// Renderings of register-file energy breakdowns of several configurations, normalized to a
// baseline (MRF only), as in Gebhart et al. Figures 24-25: CSV and JSON for tools, a Markdown
// table for reports, and a stacked-bar SVG chart (access and wire energy per level, tag checks).
#pragma once

#include <string>
#include <vector>

#include "energy/energy_model.h"

namespace gpurf::energy {

struct ConfigEnergy {
  std::string name;  // "HW RFC 1-level, 6 entries"
  Breakdown energy;
};

// One stacked segment of the chart / one column of the table.
struct Segment {
  std::string name;  // "MRF access"
  double pj = 0;
};
std::vector<Segment> Segments(const Breakdown& b);

// `baseline_pj` is the total the bars are normalized to; must be > 0.
std::string RenderCsv(const std::vector<ConfigEnergy>& configs, double baseline_pj);
std::string RenderMarkdown(const std::vector<ConfigEnergy>& configs, double baseline_pj);
nlohmann::ordered_json RenderJson(const std::vector<ConfigEnergy>& configs, double baseline_pj);
std::string RenderSvg(const std::vector<ConfigEnergy>& configs, double baseline_pj,
                      const std::string& title);

}  // namespace gpurf::energy
