// `gpurf workload analyze` and `gpurf compile`: the compiler analyses of sim/passes on the
// kernels of a workload, as CLI subcommands. Kept apart from main.cc so the workload front ends
// can grow without touching it: a front end plugs in by returning its kernels from
// LoadWorkloadKernels (passes_cmd.cc), which today reads Accel-Sim traces.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/kernel/kernel.h"

namespace gpurf {

// The functional run's recording limit from --max-record-mb (sim/exec/functional.h
// ExecOptions::max_recorded_bytes); 0 = the default.
struct RecordLimit {
  uint64_t mb = 0;
};
void AddRecordLimitOption(CLI::App* cmd, RecordLimit& limit);
// --max-regs: the register budget of PTX compilation (16..255, default 63).
void AddMaxRegsOption(CLI::App* cmd, int& max_regs);

// The kernels of a workload with, when the front end has one, the run that produced each.
struct WorkloadKernels {
  struct Item {
    const sim::Kernel* kernel = nullptr;
    const sim::KernelRun* run = nullptr;  // null: static analysis only
    // Which launch of a workload of several ("#2", in execution order); "" when it has one.
    std::string launch;
  };
  std::vector<Item> kernels;
  std::shared_ptr<void> owner;  // keeps the front end's objects alive
  double import_seconds = 0;
  uint64_t bytes = 0;
};

// How a workload's PTX is compiled: the register budget, and whether a PTX file alone (no
// launch: its kernels for static analysis only, run = null) is accepted.
struct PtxLoadOptions {
  int max_regs = 63;
  bool allow_ptx_alone = false;
  // Record the lanes' register values in the streams (what the RTL in the loop and the value
  // analyses read); the timing models need only the addresses.
  bool values = true;
};

// An Accel-Sim trace folder, kernelslist.g or .traceg file, a PTX workload's launch.yaml, or the
// name of a corpus workload (executed functionally; one item per executed launch), or with
// ptx.allow_ptx_alone a .ptx file (every .entry, static). Throws InputError otherwise.
WorkloadKernels LoadWorkloadKernels(const std::string& path, const RecordLimit& limit = {},
                                    const PtxLoadOptions& ptx = {});

// Report outputs (--csv, --json, --svg, --md of analyze, sim and energy). CheckOutputPath runs
// before the work, so a bad path fails at once; WriteOutputFile writes a temporary file beside
// `path` and renames it into place, so a failure leaves neither a half-written report nor the
// temporary. A path that cannot be written (missing folder, a folder, no permission) is an
// InputError naming `option` and the path (exit 2); a write that fails after the file was
// opened (disk full) is a ToolError (exit 3). An existing non-regular file (/dev/stdout, a
// FIFO) is written in place.
void CheckOutputPath(const std::string& path, const std::string& option);
void WriteOutputFile(const std::string& path, const std::string& text, const std::string& option);

struct AnalyzeArgs {
  std::string workload;
  std::string config;    // design .yaml (hierarchy); default: Gebhart's 3-level split ORF
  std::string energies;  // characterization JSON
  std::string csv;       // value-usage CSV output file ("-" = stdout)
  std::string kernel;    // only kernels whose name contains this
  int max_regs = 63;     // register budget when compiling PTX
  RecordLimit record;
};
struct CompileArgs {
  std::string workload;
  std::string config;
  std::string energies;
  std::string kernel;
  int max_regs = 63;
  RecordLimit record;
  // Hybrid RC/RSP (Bailey): RSP bytes per SM (0: show the design's hierarchy instead), the GPU
  // preset whose active warps and schedulers size it, and an override of its active warps.
  int rsp_bytes = 0;
  std::string rsp_gpu = "gtx980";
  int rsp_active_warps = 0;
};

// Adds `analyze` under the `workload` subcommand / `compile` under the app.
CLI::App* AddWorkloadAnalyzeCommand(CLI::App* workload, AnalyzeArgs& args);
CLI::App* AddCompileCommand(CLI::App& app, CompileArgs& args);

int RunWorkloadAnalyze(const AnalyzeArgs& args);
int RunCompile(const CompileArgs& args);

}  // namespace gpurf
