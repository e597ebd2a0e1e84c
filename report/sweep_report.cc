#include "report/sweep_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "energy/report.h"
#include "energy/svg.h"

namespace gpurf {

using energy::XmlEscape;

namespace {

const char* const kFlowSteps[] = {"generate",     "lint",     "verify", "synthesize",
                                  "characterize", "simulate", "energy"};

std::string Text(const nlohmann::json& v) {
  return v.is_string() ? v.get<std::string>() : v.is_null() ? "" : v.dump();
}

double Num(const nlohmann::json& v) {
  return v.is_number() ? v.get<double>() : 0.0;
}

// MRF first (the bottom of the stack, as in Gebhart's figures), then the upper levels from the
// largest (L2) down to the smallest (L0), then anything else by name.
bool LevelBefore(const std::string& a, const std::string& b) {
  auto rank = [](const std::string& n) { return n == "MRF" ? 0 : n.starts_with("L") ? 1 : 2; };
  if (rank(a) != rank(b))
    return rank(a) < rank(b);
  return rank(a) == 1 ? a > b : a < b;
}

bool StartsEnds(const std::string& s, const std::string& pre, const std::string& suf,
                std::string* mid) {
  if (s.size() < pre.size() + suf.size() || !s.starts_with(pre) || !s.ends_with(suf))
    return false;
  *mid = s.substr(pre.size(), s.size() - pre.size() - suf.size());
  return true;
}

// The workload figures of one (point, workload, step) from its metric rows.
ReportWorkload BuildWorkload(const std::string& step, const std::vector<nlohmann::json>& rows) {
  ReportWorkload w;
  w.step = step;
  std::map<std::string, energy::LevelBreakdown> levels;
  std::vector<energy::ComponentBreakdown> components;
  double baseline_energy_pj = 0;
  for (const auto& r : rows) {
    const std::string name = Text(r["name"]);
    const double v = Num(r["value"]);
    std::string mid;
    if (name == "ipc") {
      w.ipc = v, w.has_ipc = true;
    } else if (name == "energy.total_pj") {
      w.total_pj = v, w.has_energy = true;
    } else if (name == "baseline_pj") {
      w.baseline_pj = v;
    } else if (name == "baseline_energy_pj") {
      baseline_energy_pj = v;
    } else if (StartsEnds(name, "energy.levels.", ".access_pj", &mid)) {
      levels[mid].name = mid, levels[mid].access_pj = v;
    } else if (StartsEnds(name, "energy.levels.", ".wire_pj", &mid)) {
      levels[mid].name = mid, levels[mid].wire_pj = v;
    } else if (StartsEnds(name, "energy.levels.", ".leakage_pj", &mid)) {
      levels[mid].name = mid, levels[mid].leakage_pj = v;
    } else if (StartsEnds(name, "energy.components.", ".pj", &mid)) {
      components.push_back({mid, mid, v});
    }
  }
  if (w.baseline_pj <= 0)
    w.baseline_pj = baseline_energy_pj;
  for (auto& [_, l] : levels)
    w.breakdown.levels.push_back(l);
  std::sort(w.breakdown.levels.begin(), w.breakdown.levels.end(),
            [](const auto& a, const auto& b) { return LevelBefore(a.name, b.name); });
  std::sort(components.begin(), components.end(),
            [](const auto& a, const auto& b) { return a.name < b.name; });
  w.breakdown.components = components;
  return w;
}

std::string Fmt(double v, const char* spec = "{:.4g}") {
  return fmt::format(fmt::runtime(spec), v);
}

std::string Dash() {
  return "<span class=\"na\">&mdash;</span>";
}

// An axis value as the points table shows it; `brief`: a section axis by its kind only (chart
// legends and bar labels).
std::string AxisValue(const std::string& json_text, bool brief = false) {
  auto j = nlohmann::json::parse(json_text, nullptr, false);
  if (j.is_discarded())
    return json_text;
  // A section axis is recorded as its JSON text.
  if (j.is_string()) {
    const auto inner = nlohmann::json::parse(j.get<std::string>(), nullptr, false);
    if (!inner.is_object())
      return j.get<std::string>();
    j = inner;
  }
  if (brief && j.is_object() && j.contains("kind"))
    return Text(j["kind"]);
  // A section axis ({kind: hw-rfc, levels: 2, ...}): its fields, kind first.
  if (j.is_object()) {
    std::vector<std::string> parts;
    if (j.contains("kind"))
      parts.push_back(Text(j["kind"]));
    for (const auto& [k, v] : j.items())
      if (k != "kind")
        parts.push_back(k + " " + Text(v));
    return fmt::format("{}", fmt::join(parts, ", "));
  }
  return j.dump();
}

}  // namespace

bool ReportPoint::HasEnergy() const {
  return std::any_of(workloads.begin(), workloads.end(),
                     [](const auto& w) { return w.second.has_energy; });
}
bool ReportPoint::HasIpc() const {
  return std::any_of(workloads.begin(), workloads.end(),
                     [](const auto& w) { return w.second.has_ipc; });
}
double ReportPoint::EnergyPj() const {
  double s = 0;
  for (const auto& [_, w] : workloads)
    if (w.has_energy)
      s += w.total_pj;
  return s;
}
double ReportPoint::MeanIpc() const {
  double s = 0;
  int n = 0;
  for (const auto& [_, w] : workloads)
    if (w.has_ipc)
      s += w.ipc, ++n;
  return n == 0 ? 0.0 : s / n;
}
double ReportPoint::Normalized() const {
  double e = 0, b = 0;
  for (const auto& [_, w] : workloads)
    if (w.has_energy && w.baseline_pj > 0)
      e += w.total_pj, b += w.baseline_pj;
  return b > 0 ? e / b : 0.0;
}

SweepReportData LoadSweepReport(ResultsDb& db) {
  SweepReportData d;
  for (const auto& r : db.Query("SELECT * FROM sweeps ORDER BY id"))
    d.sweeps.push_back(r);
  d.title = d.sweeps.empty() ? "gpurf sweep" : Text(d.sweeps.back()["name"]);
  std::map<std::string, size_t> at;
  for (const auto& r : db.Query("SELECT hash, sweep_id, idx, axes FROM points "
                                "ORDER BY sweep_id, idx")) {
    ReportPoint p;
    p.hash = Text(r["hash"]);
    p.sweep_id = r["sweep_id"].is_number() ? r["sweep_id"].get<int64_t>() : 0;
    p.idx = r["idx"].is_number() ? r["idx"].get<int64_t>() : 0;
    const auto axes = nlohmann::json::parse(Text(r["axes"]), nullptr, false);
    std::vector<std::string> parts, brief;
    if (axes.is_array()) {
      for (const auto& kv : axes) {
        if (!kv.is_array() || kv.size() != 2)
          continue;
        const std::string path = Text(kv[0]), value = kv[1].dump();
        p.axes.emplace_back(path, value);
        parts.push_back(path + "=" + AxisValue(value));
        brief.push_back(AxisValue(value, true));
        if (std::find(d.axes.begin(), d.axes.end(), path) == d.axes.end())
          d.axes.push_back(path);
      }
    }
    p.label = parts.empty() ? p.hash : fmt::format("{}", fmt::join(parts, ", "));
    p.short_label = fmt::format("#{} {}", p.idx, fmt::join(brief, " "));
    at[p.hash] = d.points.size();
    d.points.push_back(std::move(p));
  }
  std::set<std::string> steps;
  for (const auto& r : db.Query("SELECT point, step, workload, status, error, log FROM steps "
                                "ORDER BY point, step, workload")) {
    const auto it = at.find(Text(r["point"]));
    if (it == at.end())
      continue;
    steps.insert(Text(r["step"]));
    ReportPoint& p = d.points[it->second];
    if (Text(r["status"]) == "ok") {
      ++p.steps_ok;
    } else {
      ++p.steps_failed;
      d.failed.push_back(
          {p.hash, Text(r["step"]), Text(r["workload"]), Text(r["error"]), Text(r["log"])});
    }
  }
  for (const char* s : kFlowSteps)
    if (steps.count(s))
      d.steps.push_back(s);

  // (point, workload) -> step -> metric rows; area per point and step.
  std::map<std::pair<std::string, std::string>, std::map<std::string, std::vector<nlohmann::json>>>
      per_workload;
  std::map<std::string, std::map<std::string, double>> area;  // point -> step -> sum
  std::set<std::string> workloads;
  for (const auto& r :
       db.Query("SELECT point, step, workload, component, name, value FROM metrics WHERE step IN "
                "('simulate', 'energy') OR (step IN ('synthesize', 'characterize') AND name IN "
                "('modules.total_area', 'modules.area'))")) {
    const std::string point = Text(r["point"]), step = Text(r["step"]);
    if (!at.count(point))
      continue;
    if (step == "simulate" || step == "energy") {
      workloads.insert(Text(r["workload"]));
      per_workload[{point, Text(r["workload"])}][step].push_back(r);
    } else if (Text(r["component"]).find('/') == std::string::npos &&
               Text(r["name"]) == (step == "synthesize" ? "modules.total_area" : "modules.area")) {
      area[point][step] += Num(r["value"]);
    }
  }
  d.workloads.assign(workloads.begin(), workloads.end());
  for (auto& [key, by_step] : per_workload) {
    const std::string step = by_step.count("energy") ? "energy" : "simulate";
    d.points[at[key.first]].workloads[key.second] = BuildWorkload(step, by_step[step]);
  }
  for (auto& [point, by_step] : area) {
    ReportPoint& p = d.points[at[point]];
    p.has_area = true;
    p.area = by_step.count("synthesize") ? by_step["synthesize"] : by_step["characterize"];
  }
  return d;
}

std::vector<bool> ParetoOptimal(const std::vector<double>& x, const std::vector<double>& y,
                                bool maximize_x, bool maximize_y) {
  const size_t n = x.size();
  std::vector<bool> front(n, true);
  auto better_eq = [](double a, double b, bool max) { return max ? a >= b : a <= b; };
  auto better = [](double a, double b, bool max) { return max ? a > b : a < b; };
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < n && front[i]; ++j) {
      if (j != i && better_eq(x[j], x[i], maximize_x) && better_eq(y[j], y[i], maximize_y) &&
          (better(x[j], x[i], maximize_x) || better(y[j], y[i], maximize_y)))
        front[i] = false;
    }
  }
  return front;
}

namespace {

// The page's self-check: counts each chart's data points against the expected counts embedded
// in #gpurf-report-data, checks every data-y is a finite number, and writes ok/fail into
// #gpurf-selfcheck (and console.error on a failure, which the browser test also catches).
constexpr const char* kSelfCheckJs = R"JS(
(function () {
  var out = document.getElementById('gpurf-selfcheck');
  var problems = [];
  var data;
  try {
    data = JSON.parse(document.getElementById('gpurf-report-data').textContent);
  } catch (e) {
    problems.push('embedded data: ' + e);
    data = {charts: []};
  }
  var counts = [];
  data.charts.forEach(function (c) {
    var fig = document.querySelector('figure[data-chart="' + c.id + '"]');
    if (!fig) { problems.push(c.id + ': no chart'); return; }
    var pts = fig.querySelectorAll('[data-point-hash]');
    var bad = 0;
    for (var i = 0; i < pts.length; ++i) {
      if (!isFinite(parseFloat(pts[i].getAttribute('data-y')))) ++bad;
    }
    counts.push(c.id + '=' + pts.length);
    if (pts.length !== c.points) problems.push(c.id + ': ' + pts.length + ' points, expected ' + c.points);
    if (bad) problems.push(c.id + ': ' + bad + ' points without a numeric data-y');
  });
  var figs = document.querySelectorAll('figure[data-chart]');
  if (figs.length !== data.charts.length)
    problems.push(figs.length + ' charts on the page, expected ' + data.charts.length);
  out.setAttribute('data-status', problems.length ? 'fail' : 'ok');
  out.setAttribute('data-charts', String(figs.length));
  out.textContent = (problems.length ? 'self-check FAILED: ' + problems.join('; ')
                                     : 'self-check ok') + ' (' + counts.join(', ') + ')';
  if (problems.length) console.error('gpurf report self-check: ' + problems.join('; '));
})();
)JS";

constexpr const char* kCss = R"CSS(
body { font-family: sans-serif; margin: 24px; color: #222; max-width: 1400px; }
h1 { font-size: 22px; } h2 { font-size: 18px; margin-top: 32px; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; font-size: 13px; margin: 8px 0; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: left; vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
th { background: #f2f2f2; } .na { color: #999; } .fail { color: #b00020; }
figure { display: inline-block; margin: 8px 16px 16px 0; } figcaption { font-size: 13px; color: #444; max-width: 760px; }
pre { white-space: pre-wrap; font-size: 12px; margin: 0; max-width: 700px; }
#gpurf-selfcheck { font-size: 12px; color: #666; }
code { background: #f4f4f4; padding: 0 3px; }
)CSS";

std::string Figure(const std::string& id, const std::string& svg, const std::string& caption) {
  return fmt::format("<figure data-chart=\"{}\">\n{}<figcaption>{}</figcaption>\n</figure>\n",
                     XmlEscape(id), svg, caption);
}

}  // namespace

SweepReport RenderSweepReport(const SweepReportData& d) {
  SweepReport rep;
  std::string body;
  const size_t n = d.points.size();
  const auto count_if = [&](auto pred) {
    return static_cast<size_t>(std::count_if(d.points.begin(), d.points.end(), pred));
  };
  const size_t with_energy = count_if([](const ReportPoint& p) { return p.HasEnergy(); });
  const size_t with_ipc = count_if([](const ReportPoint& p) { return p.HasIpc(); });
  const size_t with_area = count_if([](const ReportPoint& p) { return p.has_area; });
  const bool any_norm = std::any_of(d.points.begin(), d.points.end(),
                                    [](const auto& p) { return p.Normalized() > 0; });
  const auto series_of = [&](const ReportPoint& p) {
    return p.axes.empty() ? std::string("points") : AxisValue(p.axes.front().second, true);
  };

  // Header and sweeps.
  body += fmt::format("<h1>gpurf sweep report: {}</h1>\n", XmlEscape(d.title));
  body +=
      "<table>\n<tr><th>sweep</th><th>file</th><th>file hash</th><th>gpurf</th>"
      "<th>created (UTC)</th><th>points</th></tr>\n";
  for (const auto& s : d.sweeps)
    body += fmt::format(
        "<tr><td>{}</td><td>{}</td><td><code>{}</code></td><td>{}</td><td>{}</td>"
        "<td class=\"num\">{}</td></tr>\n",
        XmlEscape(Text(s["name"])), XmlEscape(Text(s["file"])), XmlEscape(Text(s["file_hash"])),
        XmlEscape(Text(s["gpurf_version"])), XmlEscape(Text(s["created"])),
        XmlEscape(Text(s["points"])));
  body += "</table>\n";
  body += fmt::format(
      "<p>{} points; steps {}; workloads {}; {} failed steps. Register-file energy is the sum over "
      "the workloads, IPC their arithmetic mean.</p>\n",
      n, XmlEscape(d.steps.empty() ? "none" : fmt::format("{}", fmt::join(d.steps, ", "))),
      XmlEscape(d.workloads.empty() ? "none" : fmt::format("{}", fmt::join(d.workloads, ", "))),
      d.failed.size());
  body += "<p id=\"gpurf-selfcheck\" data-status=\"pending\">self-check did not run</p>\n";

  // Summary table.
  body += "<h2 id=\"summary\">Points</h2>\n<table>\n<tr><th>#</th><th>point</th>";
  for (const auto& a : d.axes)
    body += fmt::format("<th>{}</th>", XmlEscape(a));
  body +=
      "<th>steps ok / failed</th><th>RF energy (nJ)</th><th>normalized to MRF only</th>"
      "<th>mean IPC</th><th>area</th></tr>\n";
  for (const auto& p : d.points) {
    body +=
        fmt::format("<tr data-point-hash=\"{}\"><td class=\"num\">{}</td><td><code>{}</code></td>",
                    XmlEscape(p.hash), p.idx, XmlEscape(p.hash));
    for (const auto& a : d.axes) {
      const auto it =
          std::find_if(p.axes.begin(), p.axes.end(), [&](const auto& kv) { return kv.first == a; });
      body += it == p.axes.end() ? "<td>" + Dash() + "</td>"
                                 : "<td>" + XmlEscape(AxisValue(it->second)) + "</td>";
    }
    body += fmt::format("<td class=\"num{}\">{} / {}</td>", p.steps_failed ? " fail" : "",
                        p.steps_ok, p.steps_failed);
    body += "<td class=\"num\">" + (p.HasEnergy() ? Fmt(p.EnergyPj() / 1000.0) : Dash()) + "</td>";
    body += "<td class=\"num\">" + (p.Normalized() > 0 ? Fmt(p.Normalized(), "{:.3f}") : Dash()) +
            "</td>";
    body += "<td class=\"num\">" + (p.HasIpc() ? Fmt(p.MeanIpc(), "{:.3f}") : Dash()) + "</td>";
    body += "<td class=\"num\">" + (p.has_area ? Fmt(p.area) : Dash()) + "</td></tr>\n";
  }
  body += "</table>\n";

  // Missing metrics: said, not drawn as empty charts.
  const auto partial = [&](const char* what, size_t have) {
    if (have > 0 && have < n)
      rep.missing.push_back(fmt::format(
          "{}: missing for {} of {} points (their steps failed or have not run); those points "
          "are left out of its charts.",
          what, n - have, n));
  };
  if (with_area == 0)
    rep.missing.push_back(
        "area: no synthesize or characterize step in this sweep (add one to its steps); the "
        "area vs register-file energy chart is left out.");
  if (with_energy == 0)
    rep.missing.push_back(
        "register-file energy: no energy or simulate step in this sweep; the energy charts and "
        "per-workload breakdowns are left out.");
  if (with_ipc == 0)
    rep.missing.push_back(
        "IPC: no simulate or energy step in this sweep; the energy vs IPC chart is left out.");
  partial("area", with_area);
  partial("register-file energy", with_energy);
  partial("IPC", with_ipc);
  if (with_energy > 0 && !any_norm)
    rep.missing.push_back(
        "MRF-only baseline: no energy step, so no normalized energies and no per-workload "
        "breakdown bars (add the energy step).");

  // Pareto fronts.
  body += "<h2 id=\"pareto\">Pareto fronts</h2>\n";
  const auto scatter = [&](const std::string& id, const std::string& title, const std::string& xl,
                           const std::string& yl, auto has, auto xf, auto yf, bool max_x,
                           bool max_y, const std::string& caption) {
    energy::ScatterChart c;
    c.title = title, c.x_label = xl, c.y_label = yl;
    std::vector<double> xs, ys;
    for (const auto& p : d.points) {
      if (!has(p))
        continue;
      c.points.push_back({p.hash, p.label, series_of(p), xf(p), yf(p), false});
      xs.push_back(xf(p)), ys.push_back(yf(p));
    }
    const auto front = ParetoOptimal(xs, ys, max_x, max_y);
    size_t on_front = 0;
    for (size_t i = 0; i < front.size(); ++i)
      if (front[i])
        c.points[i].highlight = true, ++on_front;
    body += Figure(id, energy::RenderScatterSvg(c),
                   fmt::format("{} ({} points, {} Pareto-optimal, ringed and joined). {}",
                               XmlEscape(title), c.points.size(), on_front, caption));
    rep.charts.push_back({id, c.points.size()});
  };
  const auto energy_nj = [](const ReportPoint& p) { return p.EnergyPj() / 1000.0; };
  if (with_energy > 0 && with_ipc > 0)
    scatter(
        "pareto-energy-ipc", "Register-file energy vs IPC", "mean IPC", "RF energy (nJ)",
        [](const ReportPoint& p) { return p.HasEnergy() && p.HasIpc(); },
        [](const ReportPoint& p) { return p.MeanIpc(); }, energy_nj, true, false,
        "Optimal: higher IPC, lower energy.");
  if (with_energy > 0 && with_area > 0)
    scatter(
        "pareto-area-energy", "Area vs register-file energy", "area (synthesized modules)",
        "RF energy (nJ)", [](const ReportPoint& p) { return p.HasEnergy() && p.has_area; },
        [](const ReportPoint& p) { return p.area; }, energy_nj, false, false,
        "Optimal: smaller area, lower energy.");
  if (rep.charts.empty())
    body += "<p>No Pareto chart: see <a href=\"#missing\">missing metrics</a>.</p>\n";

  // Per-workload breakdowns (Gebhart Figures 24-25).
  body += "<h2 id=\"breakdowns\">Energy breakdown per workload</h2>\n";
  size_t breakdowns = 0;
  for (const auto& wl : d.workloads) {
    std::vector<energy::ConfigEnergy> configs;
    std::vector<std::string> ids;
    double baseline = 0;
    for (const auto& p : d.points) {
      const auto it = p.workloads.find(wl);
      if (it == p.workloads.end() || !it->second.has_energy || it->second.baseline_pj <= 0 ||
          it->second.breakdown.levels.empty())
        continue;
      baseline = it->second.baseline_pj;  // the same MRF-only run for every point of the sweep
      configs.push_back({p.short_label, it->second.breakdown});
      ids.push_back(p.hash);
    }
    if (configs.empty())
      continue;
    size_t bars = 0;
    const energy::Columns cols = energy::ColumnsOf(configs);
    for (const auto& c : configs)
      for (const auto& s : energy::Segments(c.energy, cols))
        bars += s.pj / baseline > 0 ? 1 : 0;
    const std::string id = "breakdown-" + wl;
    body += Figure(id, energy::RenderSvg(configs, baseline, wl + ": register-file energy", ids),
                   fmt::format("{}: energy per level (access, wire) and event, stacked, normalized "
                               "to the MRF-only baseline ({} nJ), as in Gebhart et al. TOCS 2012 "
                               "Figures 24-25; {} points, {} bar segments.",
                               XmlEscape(wl), Fmt(baseline / 1000.0), configs.size(), bars));
    rep.charts.push_back({id, bars});
    ++breakdowns;
  }
  if (breakdowns == 0)
    body += "<p>No breakdown: see <a href=\"#missing\">missing metrics</a>.</p>\n";

  body += "<h2 id=\"missing\">Missing metrics</h2>\n";
  if (rep.missing.empty()) {
    body += "<p>None: every point has area, energy and IPC.</p>\n";
  } else {
    body += "<ul>\n";
    for (const auto& m : rep.missing)
      body += "<li>" + XmlEscape(m) + "</li>\n";
    body += "</ul>\n";
  }

  if (!d.failed.empty()) {
    body +=
        "<h2 id=\"failed\">Failed steps</h2>\n<table>\n<tr><th>point</th><th>step</th>"
        "<th>workload</th><th>log</th><th>error</th></tr>\n";
    for (const auto& f : d.failed)
      body += fmt::format(
          "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td><code>{}</code></td>"
          "<td><pre>{}</pre></td></tr>\n",
          XmlEscape(f.point), XmlEscape(f.step), XmlEscape(f.workload), XmlEscape(f.log),
          XmlEscape(f.error));
    body += "</table>\n";
  }

  nlohmann::json data;
  data["charts"] = nlohmann::json::array();
  for (const auto& c : rep.charts)
    data["charts"].push_back({{"id", c.id}, {"points", c.points}});
  data["points"] = n;
  std::string data_text = data.dump(-1, ' ', true);
  // Inside <script>: no "</script>" can close it early.
  for (size_t at = data_text.find('<'); at != std::string::npos; at = data_text.find('<', at))
    data_text.replace(at, 1, "\\u003c");

  rep.html = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
      "<title>gpurf sweep report: {}</title>\n<style>{}</style>\n</head>\n<body>\n{}"
      "<script type=\"application/json\" id=\"gpurf-report-data\">{}</script>\n"
      "<script>{}</script>\n</body>\n</html>\n",
      XmlEscape(d.title), kCss, body, data_text, kSelfCheckJs);
  return rep;
}

}  // namespace gpurf
