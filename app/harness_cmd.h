// `gpurf sim` and `gpurf energy`: a design point's register-file hierarchy on the C++ models
// inside the SM timing model (sim/harness), over one or more workloads. Kept apart from main.cc.
//
//   gpurf sim <design.yaml> --workload W [--workload W2 ...] [--stats] [--json F]
//   gpurf energy <design.yaml> [<design2.yaml> ...] --workload W ... [--json F] [--csv F]
//                [--svg F] [--md F]
// A workload is a corpus name, a launch.yaml, an Accel-Sim trace folder / kernelslist.g /
// .traceg, or "all" for every corpus workload. Common options: --energies F (characterization
// JSON), --characterization F (a structure's `gpurf characterize` report, repeatable), --no-hints
// (HW RFC without liveness hints), --active-warps N, --scheduler S,
// --inner-policy P, --rtl or --lockstep (the design's Verilated structures in the loop; exit 1 at
// a divergence), --rtl-top (the design's rf_system top instead of its structures; alone: --rtl),
// --cache-dir DIR, --max-record-mb N, --gpu NAME (a GPU preset, `gpurf gpu list`), --sms N,
// --memory ideal|hierarchy.
//
// Kernels that cannot run on a design's SM (one CTA needs more warps, registers or shared
// memory than it has): when they come from "all" they are skipped with a warning and listed as
// skipped in every report; a kernel named explicitly is an InputError (exit 2), and so is an
// "all" of which nothing can run.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "app/passes_cmd.h"
#include "sim/harness/gpu.h"

namespace gpurf {

struct HarnessArgs {
  std::vector<std::string> designs;
  std::vector<std::string> workloads;
  std::string energies;
  std::vector<std::string> characterizations;  // --characterization (repeatable)
  bool no_hints = false;
  int active_warps = 0;
  std::string scheduler;
  std::string inner_policy;
  bool stats = false;
  std::string json, csv, svg, md;
  std::string title;
  bool rtl = false, lockstep = false;  // RTL in the loop (sim/harness/rtl_loop.h)
  bool rtl_top = false;                // ... through the rf_system top (sim/harness/rtl_top.h)
  std::string cache_dir;               // Verilator model cache ("" = default)
  RecordLimit record;                  // --max-record-mb of the PTX workloads' functional runs
  harness::GpuCliOptions gpu;          // --gpu, --sms, --memory (sim/harness/gpu.h)
};

CLI::App* AddSimCommand(CLI::App& app, HarnessArgs& args);
CLI::App* AddEnergyCommand(CLI::App& app, HarnessArgs& args);

// Exit codes: 0 ok, 1 a kernel could not be simulated (RTL divergence, timing-model failure),
// 2 bad input (InputError propagates).
int RunSimCommand(const HarnessArgs& args);
int RunEnergyCommand(const HarnessArgs& args);

}  // namespace gpurf
