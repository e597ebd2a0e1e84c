// `gpurf workload list|show|run`: the PTX workload corpus (sim/workload): parse, allocate
// registers, execute functionally and check against the C++ reference.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "app/passes_cmd.h"

namespace gpurf {

struct WorkloadArgs {
  std::string name;
  std::string corpus_dir;
  int max_regs = 63;
  RecordLimit record;  // --max-record-mb of `run`
  CLI::App* list = nullptr;
  CLI::App* show = nullptr;
  CLI::App* run = nullptr;
};

CLI::App* AddWorkloadCommand(CLI::App& app, WorkloadArgs& a);
int CmdWorkload(const WorkloadArgs& a);

}  // namespace gpurf
