#include "energy/report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "energy/svg.h"

namespace gpurf::energy {

Columns ColumnsOf(const std::vector<ConfigEnergy>& configs) {
  Columns c;
  for (const auto& config : configs) {
    for (const auto& l : config.energy.levels) {
      if (std::find(c.levels.begin(), c.levels.end(), l.name) == c.levels.end())
        c.levels.push_back(l.name);
    }
    for (const auto& k : config.energy.components) {
      if (std::none_of(c.components.begin(), c.components.end(),
                       [&](const ComponentBreakdown& x) { return x.name == k.name; }))
        c.components.push_back({k.name, k.label, 0.0});
    }
  }
  return c;
}

std::vector<Segment> Segments(const Breakdown& b, const Columns& c) {
  std::vector<Segment> s;
  for (const auto& name : c.levels) {
    const LevelBreakdown* l = b.FindLevel(name);
    s.push_back({name + " access", l != nullptr ? l->access_pj : 0.0});
    s.push_back({name + " wire", l != nullptr ? l->wire_pj : 0.0});
  }
  for (const auto& k : c.components) {
    const ComponentBreakdown* x = b.FindComponent(k.name);
    s.push_back({k.name, x != nullptr ? x->pj : 0.0});
  }
  s.push_back({"leakage", b.leakage_pj()});
  return s;
}

namespace {

void CheckBaseline(double baseline_pj) {
  if (!(baseline_pj > 0))
    throw std::invalid_argument(fmt::format("baseline energy {} pJ is not positive", baseline_pj));
}

std::string CsvField(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos)
    return s;
  std::string o = "\"";
  for (char c : s) {
    if (c == '"')
      o += '"';
    o += c;
  }
  return o + "\"";
}

}  // namespace

std::string RenderCsv(const std::vector<ConfigEnergy>& configs, double baseline_pj) {
  CheckBaseline(baseline_pj);
  const Columns cols = ColumnsOf(configs);
  std::string out = "config";
  for (const auto& seg : Segments(Breakdown{}, cols))
    out += "," + CsvField(seg.name + " pJ");
  out += ",total pJ,normalized\n";
  for (const auto& c : configs) {
    out += CsvField(c.name);
    for (const auto& seg : Segments(c.energy, cols))
      out += fmt::format(",{:.6g}", seg.pj);
    out += fmt::format(",{:.6g},{:.4f}\n", c.energy.total_pj(), c.energy.total_pj() / baseline_pj);
  }
  return out;
}

std::string RenderMarkdown(const std::vector<ConfigEnergy>& configs, double baseline_pj) {
  CheckBaseline(baseline_pj);
  const Columns cols = ColumnsOf(configs);
  std::string out = "| configuration |";
  std::string rule = "|---|";
  for (const auto& name : cols.levels)
    out += " " + name + " |";
  for (const auto& k : cols.components)
    out += " " + k.label + " |";
  out += " access | wire | total (norm.) |\n";
  for (size_t i = 0; i < cols.levels.size() + cols.components.size() + 3; ++i)
    rule += "---:|";
  out += rule + "\n";
  for (const auto& c : configs) {
    const Breakdown& b = c.energy;
    auto norm = [&](double pj) { return fmt::format(" {:.3f} |", pj / baseline_pj); };
    out += "| " + c.name + " |";
    for (const auto& name : cols.levels) {
      const LevelBreakdown* l = b.FindLevel(name);
      out += norm(l != nullptr ? l->total() : 0.0);
    }
    for (const auto& k : cols.components) {
      const ComponentBreakdown* x = b.FindComponent(k.name);
      out += norm(x != nullptr ? x->pj : 0.0);
    }
    out += norm(b.access_pj()) + norm(b.wire_pj()) + norm(b.total_pj()) + "\n";
  }
  out += "\nAll figures are normalized to the baseline's total register-file energy.\n";
  return out;
}

nlohmann::ordered_json RenderJson(const std::vector<ConfigEnergy>& configs, double baseline_pj) {
  CheckBaseline(baseline_pj);
  nlohmann::ordered_json j;
  j["baseline_pj"] = baseline_pj;
  j["configs"] = nlohmann::ordered_json::array();
  for (const auto& c : configs) {
    nlohmann::ordered_json e = c.energy.ToJson();
    e["name"] = c.name;
    e["normalized"] = c.energy.total_pj() / baseline_pj;
    j["configs"].push_back(std::move(e));
  }
  return j;
}

std::string RenderSvg(const std::vector<ConfigEnergy>& configs, double baseline_pj,
                      const std::string& title, const std::vector<std::string>& bar_ids) {
  CheckBaseline(baseline_pj);
  // Layout: one vertical stacked bar per configuration, y axis in units of the baseline.
  static const char* const kColors[] = {"#1f4e79", "#8fb3d9", "#7b3f00", "#e0b07a",
                                        "#2e6b30", "#9ccc9c", "#6a3d9a", "#bbbbbb"};
  const int bar_w = 56, gap = 36, left = 64, top = 48, plot_h = 300, legend_w = 150;
  double y_max = 1.0;
  for (const auto& c : configs)
    y_max = std::max(y_max, c.energy.total_pj() / baseline_pj);
  y_max = std::ceil(y_max * 5.0) / 5.0;  // round up to a multiple of 0.2
  const int n = static_cast<int>(configs.size());
  const Columns cols = ColumnsOf(configs);
  const int plot_w = std::max(1, n) * (bar_w + gap) + gap;
  const int width = left + plot_w + legend_w + 16;
  const int height = top + plot_h + 110;
  auto y_of = [&](double v) { return top + plot_h - v / y_max * plot_h; };

  std::string s = SvgOpen(width, height, title);
  // Grid and y axis labels every 0.2.
  for (int t = 0; t <= static_cast<int>(std::lround(y_max * 5)); ++t) {
    const double v = t * 0.2;
    const double y = y_of(v);
    s += fmt::format("  <line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" stroke=\"{}\"/>\n",
                     left, y, left + plot_w, y, t == 0 ? "black" : "#dddddd");
    s += fmt::format(
        "  <text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\" dominant-baseline=\"middle\">{:.1f}"
        "</text>\n",
        left - 6, y, v);
  }
  s += fmt::format(
      "  <text x=\"16\" y=\"{}\" transform=\"rotate(-90 16 {})\" text-anchor=\"middle\">"
      "energy normalized to baseline</text>\n",
      top + plot_h / 2, top + plot_h / 2);
  for (int i = 0; i < n; ++i) {
    const int x = left + gap + i * (bar_w + gap);
    double acc = 0;
    const auto segs = Segments(configs[static_cast<size_t>(i)].energy, cols);
    for (size_t k = 0; k < segs.size(); ++k) {
      const double v = segs[k].pj / baseline_pj;
      if (v <= 0)
        continue;
      const double y1 = y_of(acc + v), y0 = y_of(acc);
      s += fmt::format(
          "  <rect x=\"{}\" y=\"{:.2f}\" width=\"{}\" height=\"{:.2f}\" fill=\"{}\"{}>"
          "<title>{}: {} {:.3f}</title></rect>\n",
          x, y1, bar_w, y0 - y1, kColors[k % 8],
          static_cast<size_t>(i) < bar_ids.size()
              ? fmt::format(" data-point-hash=\"{}\" data-x=\"{}\" data-y=\"{:.6g}\"",
                            XmlEscape(bar_ids[static_cast<size_t>(i)]), XmlEscape(segs[k].name), v)
              : std::string(),
          XmlEscape(configs[static_cast<size_t>(i)].name), XmlEscape(segs[k].name), v);
      acc += v;
    }
    s += fmt::format("  <text x=\"{}\" y=\"{:.1f}\" text-anchor=\"middle\">{:.2f}</text>\n",
                     x + bar_w / 2, y_of(acc) - 4, acc);
    s += fmt::format(
        "  <text x=\"{}\" y=\"{}\" text-anchor=\"end\" transform=\"rotate(-35 {} {})\">{}</text>\n",
        x + bar_w / 2, top + plot_h + 16, x + bar_w / 2, top + plot_h + 16,
        XmlEscape(configs[static_cast<size_t>(i)].name));
  }
  // Legend.
  const auto names = Segments(Breakdown{}, cols);
  for (size_t k = 0; k < names.size(); ++k) {
    const int x = left + plot_w + 16;
    const int y = top + static_cast<int>(k) * 20;
    s += fmt::format("  <rect x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{}\"/>\n", x, y,
                     kColors[k % 8]);
    s += fmt::format("  <text x=\"{}\" y=\"{}\">{}</text>\n", x + 18, y + 10,
                     XmlEscape(names[k].name));
  }
  s += "</svg>\n";
  return s;
}

}  // namespace gpurf::energy
