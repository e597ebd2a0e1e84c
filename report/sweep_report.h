// The HTML report of a sweep (gpurf report DIR -o FILE.html): one self-contained page (inline
// CSS, inline SVG charts, no network access) read from the sweep's results database: the sweep
// summary table, Pareto fronts (area vs register-file energy, energy vs IPC), per-workload
// energy breakdowns stacked by level (Gebhart TOCS 2012 Figures 24-25), the failed steps, and
// which metrics are missing (a sweep without synthesize/characterize has no area: its chart is
// left out and the page says so). Every chart point carries data-point-hash, data-x and data-y;
// an inline script counts them against the embedded expected counts and writes the result into
// #gpurf-selfcheck (data-status ok/fail), which the browser test reads (docs/sweeps.md, Report).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "energy/energy_model.h"
#include "sweep/results_db.h"

namespace gpurf {

// One workload of one point: from the energy step's metrics (the simulate step's otherwise).
struct ReportWorkload {
  std::string step;  // energy or simulate
  double ipc = 0;
  bool has_ipc = false;
  double total_pj = 0;  // register-file energy
  bool has_energy = false;
  double baseline_pj = 0;  // MRF-only baseline (energy step), 0 when unknown
  energy::Breakdown breakdown;
};

struct ReportPoint {
  std::string hash;
  int64_t sweep_id = 0, idx = 0;
  std::vector<std::pair<std::string, std::string>> axes;  // path, value (JSON text)
  std::string label;        // "hierarchy=hw-rfc, levels 2, hierarchy.l1_entries_per_thread=2"
  std::string short_label;  // "#0 hw-rfc 2": the bar labels
  std::map<std::string, ReportWorkload> workloads;
  int steps_ok = 0, steps_failed = 0;
  double area = 0;  // sum of the point's modules (synthesize, else characterize)
  bool has_area = false;
  std::string area_unit;

  bool HasEnergy() const;
  bool HasIpc() const;
  double EnergyPj() const;    // sum over the workloads with energy
  double MeanIpc() const;     // arithmetic mean over the workloads with an IPC
  double Normalized() const;  // sum of energy / sum of baselines; 0 when no baseline
};

struct FailedStep {
  std::string point, step, workload, error, log;
};

struct SweepReportData {
  std::string title;
  std::vector<nlohmann::json> sweeps;  // rows of the sweeps table
  std::vector<std::string> axes;       // axis paths in order of first appearance
  std::vector<std::string> workloads;  // sorted
  std::vector<std::string> steps;      // steps that ran, in flow order
  std::vector<ReportPoint> points;     // by sweep, then index
  std::vector<FailedStep> failed;
};

// Reads everything the report shows through `db`'s query interface.
SweepReportData LoadSweepReport(ResultsDb& db);

// Indices of the Pareto-optimal points among (x[i], y[i]): no other point is at least as good on
// both and better on one; "good" is smaller unless the `maximize_*` flag says larger.
std::vector<bool> ParetoOptimal(const std::vector<double>& x, const std::vector<double>& y,
                                bool maximize_x, bool maximize_y);

struct ReportChartInfo {
  std::string id;  // the chart's data-chart attribute
  size_t points = 0;
};

struct SweepReport {
  std::string html;
  std::vector<ReportChartInfo> charts;
  std::vector<std::string> missing;  // one line per missing metric / left-out chart
};

SweepReport RenderSweepReport(const SweepReportData& data);

}  // namespace gpurf
