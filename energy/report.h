// Renderings of register-file energy breakdowns of several configurations, normalized to a
// baseline (MRF only), as in Gebhart et al. Figures 24-25: CSV and JSON for tools, a Markdown
// table for reports, and a stacked-bar SVG chart (access and wire energy per level, the event
// components such as tag checks). The columns come from the breakdowns' names: the union over
// the configurations in order of first appearance, 0 where a configuration lacks one.
#pragma once

#include <string>
#include <vector>

#include "energy/energy_model.h"

namespace gpurf::energy {

struct ConfigEnergy {
  std::string name;  // "HW RFC 1-level, 6 entries"
  Breakdown energy;
};

// The levels and components of the configurations (union, in order of first appearance).
struct Columns {
  std::vector<std::string> levels;
  std::vector<ComponentBreakdown> components;  // name and label (pj unused)
};
Columns ColumnsOf(const std::vector<ConfigEnergy>& configs);

// One stacked segment of the chart / one column of the CSV.
struct Segment {
  std::string name;  // "MRF access"
  double pj = 0;
};
// Per level of `c` its access and wire energy, per component its energy, then the leakage.
std::vector<Segment> Segments(const Breakdown& b, const Columns& c);

// `baseline_pj` is the total the bars are normalized to; must be > 0.
std::string RenderCsv(const std::vector<ConfigEnergy>& configs, double baseline_pj);
std::string RenderMarkdown(const std::vector<ConfigEnergy>& configs, double baseline_pj);
nlohmann::ordered_json RenderJson(const std::vector<ConfigEnergy>& configs, double baseline_pj);
// With `bar_ids` (one per configuration), each segment of configuration i carries
// data-point-hash="bar_ids[i]", data-x (the segment's name) and data-y (its normalized value),
// so that a page embedding the chart can find and count its bars.
std::string RenderSvg(const std::vector<ConfigEnergy>& configs, double baseline_pj,
                      const std::string& title, const std::vector<std::string>& bar_ids = {});

}  // namespace gpurf::energy
