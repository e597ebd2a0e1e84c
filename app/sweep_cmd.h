// `gpurf sweep` (run a sweep file's points, resumable) and `gpurf results` (query a sweep's
// results database). The work is in sweep/ (sweep files, runner and backends, the database).
//
//   gpurf sweep FILE -o DIR [-j N] [--backend local|slurm] [--dry-run] [--cache-dir DIR]
//   gpurf results DIR [--where 'KEY OP VALUE' ...] [--table metrics|steps|points]
//                     [--metric GLOB] [--csv|--json]
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace gpurf {

struct SweepArgs {
  std::string file;
  std::string out_dir;
  int jobs = 1;
  std::string backend = "local";
  bool dry_run = false;
  std::string cache_dir;
};

struct ResultsArgs {
  std::string dir;
  std::vector<std::string> where;
  std::string table = "metrics";
  std::string metric;  // a glob on metric names ("" = every metric)
  bool csv = false;
  bool json = false;
};

// `gpurf sweep-task MANIFEST INDEX` (hidden): the worker of a Slurm array task
// (sweep/slurm_backend.h).
struct SweepTaskArgs {
  std::string manifest;
  int index = -1;
};

CLI::App* AddSweepCommand(CLI::App& app, SweepArgs& args);
CLI::App* AddSweepTaskCommand(CLI::App& app, SweepTaskArgs& args);
int RunSweepTaskCommand(const SweepTaskArgs& args);
int RunSweepCommand(const SweepArgs& args);
CLI::App* AddResultsCommand(CLI::App& app, ResultsArgs& args);
int RunResultsCommand(const ResultsArgs& args);

}  // namespace gpurf
