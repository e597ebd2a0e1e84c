// `gpurf report DIR -o FILE.html`: the HTML report of a sweep (report/sweep_report.h), one
// self-contained file (inline CSS and SVG, no network access), written atomically.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace gpurf {

struct ReportArgs {
  std::string dir;
  std::string output;
};

CLI::App* AddReportCommand(CLI::App& app, ReportArgs& args);
int RunReportCommand(const ReportArgs& args);

}  // namespace gpurf
