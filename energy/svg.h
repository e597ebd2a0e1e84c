// The SVG pieces shared by gpurf's charts: XML escaping, the <svg> header, "nice" axis ticks and
// a scatter chart (points by series, a highlighted front joined by a line, axes with ticks and
// labels, a legend, <title> tooltips). The energy breakdown bars (report.h, RenderSvg) and the
// sweep report's Pareto charts (report/) both draw with these.
#pragma once

#include <string>
#include <vector>

namespace gpurf::energy {

// &, <, >, " and ' escaped: safe in SVG/HTML text and in double- or single-quoted attributes.
std::string XmlEscape(const std::string& s);

// `<svg ...>` with a width x height view box, then its <title>, a white background and the
// title as a heading.
std::string SvgOpen(int width, int height, const std::string& title);

// About `count` round tick values (1, 2, 5 x 10^k steps) covering [lo, hi]; lo == hi widens.
std::vector<double> NiceTicks(double lo, double hi, int count = 5);

struct ScatterPoint {
  std::string id;      // data-point-hash of the circle
  std::string label;   // tooltip text before the coordinates
  std::string series;  // colour and legend entry
  double x = 0, y = 0;
  bool highlight = false;  // on the front: ringed and joined by the front line
};

struct ScatterChart {
  std::string title, x_label, y_label;
  std::string highlight_label = "Pareto front";
  std::vector<ScatterPoint> points;
};

// One <circle> per point with data-point-hash, data-x, data-y and data-front (1/0) attributes
// and a <title> tooltip; the highlighted points joined in x order.
std::string RenderScatterSvg(const ScatterChart& chart);

}  // namespace gpurf::energy
