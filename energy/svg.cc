#include "energy/svg.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace gpurf::energy {

namespace {
const char* const kSeriesColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                     "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};
}  // namespace

std::string XmlEscape(const std::string& s) {
  std::string o;
  o.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&':
        o += "&amp;";
        break;
      case '<':
        o += "&lt;";
        break;
      case '>':
        o += "&gt;";
        break;
      case '"':
        o += "&quot;";
        break;
      case '\'':
        o += "&#39;";
        break;
      default:
        o += c;
    }
  }
  return o;
}

std::string SvgOpen(int width, int height, const std::string& title) {
  std::string s = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "viewBox=\"0 0 {} {}\" font-family=\"sans-serif\" font-size=\"12\">\n",
      width, height, width, height);
  s += fmt::format("  <title>{}</title>\n", XmlEscape(title));
  s += "  <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  s += fmt::format("  <text x=\"64\" y=\"24\" font-size=\"15\" font-weight=\"bold\">{}</text>\n",
                   XmlEscape(title));
  return s;
}

std::vector<double> NiceTicks(double lo, double hi, int count) {
  if (!(hi > lo)) {
    const double pad = lo == 0 ? 1.0 : std::abs(lo) * 0.1;
    lo -= pad;
    hi += pad;
  }
  const double raw = (hi - lo) / std::max(1, count);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (const double m : {1.0, 2.0, 5.0, 10.0}) {
    step = m * mag;
    if (raw <= step)
      break;
  }
  std::vector<double> t;
  for (double v = std::floor(lo / step) * step; v <= hi + step * 1e-9; v += step)
    t.push_back(std::abs(v) < step * 1e-9 ? 0.0 : v);
  if (t.back() < hi)
    t.push_back(t.back() + step);
  return t;
}

std::string RenderScatterSvg(const ScatterChart& c) {
  const int left = 80, top = 48, plot_w = 480, plot_h = 300, legend_w = 190;
  const int width = left + plot_w + legend_w + 16, height = top + plot_h + 64;
  double x0 = 0, x1 = 1, y0 = 0, y1 = 1;
  if (!c.points.empty()) {
    x0 = x1 = c.points[0].x;
    y0 = y1 = c.points[0].y;
    for (const auto& p : c.points) {
      x0 = std::min(x0, p.x), x1 = std::max(x1, p.x);
      y0 = std::min(y0, p.y), y1 = std::max(y1, p.y);
    }
  }
  const std::vector<double> xt = NiceTicks(x0, x1), yt = NiceTicks(y0, y1);
  const double xa = xt.front(), xb = xt.back(), ya = yt.front(), yb = yt.back();
  auto px = [&](double v) { return left + (v - xa) / (xb - xa) * plot_w; };
  auto py = [&](double v) { return top + plot_h - (v - ya) / (yb - ya) * plot_h; };

  std::string s = SvgOpen(width, height, c.title);
  for (const double v : xt) {
    s += fmt::format(
        "  <line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"#e4e4e4\"/>\n"
        "  <text x=\"{0:.1f}\" y=\"{3}\" text-anchor=\"middle\">{4:.4g}</text>\n",
        px(v), top, top + plot_h, top + plot_h + 16, v);
  }
  for (const double v : yt) {
    s += fmt::format(
        "  <line x1=\"{1}\" y1=\"{0:.1f}\" x2=\"{2}\" y2=\"{0:.1f}\" stroke=\"#e4e4e4\"/>\n"
        "  <text x=\"{3}\" y=\"{0:.1f}\" text-anchor=\"end\" dominant-baseline=\"middle\">{4:.4g}"
        "</text>\n",
        py(v), left, left + plot_w, left - 6, v);
  }
  s += fmt::format(
      "  <rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"black\"/>\n",
      left, top, plot_w, plot_h);
  s += fmt::format("  <text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                   left + plot_w / 2, top + plot_h + 40, XmlEscape(c.x_label));
  s += fmt::format(
      "  <text x=\"18\" y=\"{0}\" transform=\"rotate(-90 18 {0})\" text-anchor=\"middle\">{1}"
      "</text>\n",
      top + plot_h / 2, XmlEscape(c.y_label));

  std::vector<std::string> series;
  for (const auto& p : c.points)
    if (std::find(series.begin(), series.end(), p.series) == series.end())
      series.push_back(p.series);
  auto color = [&](const std::string& name) {
    const auto i = std::find(series.begin(), series.end(), name) - series.begin();
    return kSeriesColors[static_cast<size_t>(i) % 8];
  };
  // The front line, then the points on top of it.
  std::vector<const ScatterPoint*> front;
  for (const auto& p : c.points)
    if (p.highlight)
      front.push_back(&p);
  std::sort(front.begin(), front.end(), [](auto* a, auto* b) { return a->x < b->x; });
  if (front.size() >= 2) {
    std::string pts;
    for (const auto* p : front)
      pts += fmt::format("{}{:.1f},{:.1f}", pts.empty() ? "" : " ", px(p->x), py(p->y));
    s += fmt::format(
        "  <polyline points=\"{}\" fill=\"none\" stroke=\"black\" stroke-dasharray=\"4 3\"/>\n",
        pts);
  }
  for (const auto& p : c.points) {
    s += fmt::format(
        "  <circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{}\" fill=\"{}\" stroke=\"{}\" "
        "stroke-width=\"{}\" data-point-hash=\"{}\" data-x=\"{:.9g}\" data-y=\"{:.9g}\" "
        "data-front=\"{}\"><title>{}: {} {:.4g}, {} {:.4g}{}</title></circle>\n",
        px(p.x), py(p.y), p.highlight ? 6 : 4.5, color(p.series), p.highlight ? "black" : "white",
        p.highlight ? 2 : 1, XmlEscape(p.id), p.x, p.y, p.highlight ? 1 : 0, XmlEscape(p.label),
        XmlEscape(c.x_label), p.x, XmlEscape(c.y_label), p.y,
        p.highlight ? XmlEscape(" (" + c.highlight_label + ")") : "");
  }
  // Legend: the series, then the front marker.
  const int lx = left + plot_w + 16;
  for (size_t k = 0; k < series.size(); ++k) {
    const int y = top + static_cast<int>(k) * 20;
    s += fmt::format(
        "  <circle cx=\"{}\" cy=\"{}\" r=\"5\" fill=\"{}\"/>\n  <text x=\"{}\" "
        "y=\"{}\">{}</text>\n",
        lx + 6, y + 6, color(series[k]), lx + 18, y + 10, XmlEscape(series[k]));
  }
  const int fy = top + static_cast<int>(series.size()) * 20;
  s += fmt::format(
      "  <circle cx=\"{}\" cy=\"{}\" r=\"6\" fill=\"none\" stroke=\"black\" stroke-width=\"2\"/>\n"
      "  <text x=\"{}\" y=\"{}\">{}</text>\n",
      lx + 6, fy + 6, lx + 18, fy + 10, XmlEscape(c.highlight_label));
  s += "</svg>\n";
  return s;
}

}  // namespace gpurf::energy
