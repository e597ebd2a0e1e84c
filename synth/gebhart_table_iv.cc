#include "synth/gebhart_table_iv.h"

#include <fmt/format.h>

#include <optional>
#include <utility>

namespace gpurf {

const std::vector<GebhartCell>& GebhartTableIv() {
  // Gebhart et al. Table IV (DESIGN.md): rows entries/thread, columns 4, 6, 8 active warps.
  static const std::vector<GebhartCell> t = {
      {4, 4, 5100, 1.2, 3.8}, {4, 6, 7400, 1.2, 4.4},  {4, 8, 9600, 1.9, 6.1},
      {6, 4, 7400, 1.2, 4.4}, {6, 6, 10800, 1.7, 5.4}, {6, 8, 14300, 2.2, 6.7},
      {8, 4, 9600, 1.9, 6.1}, {8, 6, 14300, 2.2, 6.7}, {8, 8, 18800, 3.4, 10.9},
  };
  return t;
}

GebhartComparison CompareWithGebhart(
    const std::function<const ModuleCharacterization*(int entries)>& by_entries) {
  GebhartComparison c;
  std::string& s = c.markdown;
  s = "| entries/thread | warps | rows | area ours | area paper | ratio | read pJ ours | read pJ "
      "paper | ratio | write pJ ours | write pJ paper | ratio |\n"
      "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  const auto value = [&](int e, int w, int what) -> std::optional<double> {
    const ModuleCharacterization* r = by_entries(e * w);
    if (r == nullptr)
      return std::nullopt;
    const bool scaled = r->scaling.has_value();
    if (what == 0)
      return scaled ? r->scaled_area : r->synth.total_area;
    if (what == 1)
      return scaled ? r->scaled_e_read_pj() : r->e_read_pj();
    return scaled ? r->scaled_e_write_pj() : r->e_write_pj();
  };
  for (const auto& g : GebhartTableIv()) {
    const auto a = value(g.entries_per_thread, g.warps, 0);
    const auto rd = value(g.entries_per_thread, g.warps, 1);
    const auto wr = value(g.entries_per_thread, g.warps, 2);
    if (!a) {
      c.violations.push_back(
          fmt::format("no characterization for {} rows", g.entries_per_thread * g.warps));
      continue;
    }
    s += fmt::format(
        "| {} | {} | {} | {:.0f} | {:.0f} | {:.2f} | {:.2f} | {:.1f} | {:.2f} | {:.2f} | {:.1f} | "
        "{:.2f} |\n",
        g.entries_per_thread, g.warps, g.entries_per_thread * g.warps, *a, g.area_um2,
        *a / g.area_um2, *rd, g.read_pj, *rd / g.read_pj, *wr, g.write_pj, *wr / g.write_pj);
  }
  // Monotonicity: along entries at fixed warps and along warps at fixed entries, every figure
  // must not decrease (strictly increase where the row count grows).
  const char* names[] = {"area", "read energy", "write energy"};
  for (int what = 0; what < 3; ++what) {
    for (const int fixed : {4, 6, 8}) {
      for (const auto& [a, b] : std::vector<std::pair<int, int>>{{4, 6}, {6, 8}}) {
        const auto check = [&](int e0, int w0, int e1, int w1) {
          const auto v0 = value(e0, w0, what), v1 = value(e1, w1, what);
          if (v0 && v1 && !(*v1 > *v0))
            c.violations.push_back(
                fmt::format("{} does not grow from {}x{} to {}x{} ({:.4g} -> "
                            "{:.4g})",
                            names[what], e0, w0, e1, w1, *v0, *v1));
        };
        check(a, fixed, b, fixed);  // more entries per thread
        check(fixed, a, fixed, b);  // more warps
      }
    }
  }
  c.monotonic = c.violations.empty();
  s += c.monotonic ? "\nMonotonic in entries per thread and in active warps: yes.\n"
                   : "\nMonotonicity violations:\n";
  for (const auto& v : c.violations)
    s += "- " + v + "\n";
  return c;
}

}  // namespace gpurf
