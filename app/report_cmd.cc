#include "app/report_cmd.h"

#include <fmt/format.h>

#include "app/passes_cmd.h"
#include "base/diag.h"
#include "base/fs.h"
#include "report/sweep_report.h"
#include "sweep/results_db.h"

namespace gpurf {

CLI::App* AddReportCommand(CLI::App& app, ReportArgs& a) {
  CLI::App* cmd = app.add_subcommand(
      "report",
      "write a sweep's HTML report: points table, Pareto fronts, per-workload energy breakdowns "
      "(one self-contained file; docs/sweeps.md, Report)");
  cmd->add_option("dir", a.dir, "sweep folder (the -o of gpurf sweep)")->required();
  cmd->add_option("-o,--output", a.output, "HTML file to write")->required();
  return cmd;
}

int RunReportCommand(const ReportArgs& a) {
  const fs::path db_path = fs::path(a.dir) / "results.db";
  if (!fs::is_regular_file(db_path))
    throw InputError({}, "dir", a.dir, "no results.db in this folder",
                     "the -o folder of a gpurf sweep");
  CheckOutputPath(a.output, "-o");
  ResultsDb db(db_path, ResultsDb::ReadOnly{});
  const SweepReport rep = RenderSweepReport(LoadSweepReport(db));
  WriteOutputFile(a.output, rep.html, "-o");
  std::vector<std::string> charts;
  size_t points = 0;
  for (const auto& c : rep.charts) {
    charts.push_back(fmt::format("{} {}", c.id, c.points));
    points += c.points;
  }
  fmt::print("report {}: {} bytes, {} charts ({} data points{}{})\n", a.output, rep.html.size(),
             rep.charts.size(), points, charts.empty() ? "" : ": ", fmt::join(charts, ", "));
  for (const auto& m : rep.missing)
    fmt::print("  missing: {}\n", m);
  return kExitOk;
}

}  // namespace gpurf
