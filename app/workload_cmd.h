// `gpurf workload list|show|run`: the PTX workload corpus (sim/workload) and users' launch files
// and PTX: parse, allocate registers, execute functionally and check against the C++ reference
// (or, without one, report and dump the output buffers); `list` adds each kernel's occupancy.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "app/passes_cmd.h"
#include "sim/workload/occupancy.h"

namespace gpurf {

struct WorkloadArgs {
  std::string name;  // corpus name, launch.yaml, or (show) a .ptx file
  std::string corpus_dir;
  std::string kernel;  // show: only kernels whose name contains this
  std::string dump;    // run --dump DIR
  int max_regs = 63;
  sim::SmLimits sm;    // list: the SM whose occupancy is shown
  RecordLimit record;  // --max-record-mb of `run`
  CLI::App* list = nullptr;
  CLI::App* show = nullptr;
  CLI::App* run = nullptr;
};

CLI::App* AddWorkloadCommand(CLI::App& app, WorkloadArgs& a);
int CmdWorkload(const WorkloadArgs& a);

}  // namespace gpurf
