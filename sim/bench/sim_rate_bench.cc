// Simulation rate of the SM harness in warp instructions per CPU second (one core, thread CPU
// time, so other load on the machine does not count): every corpus
// workload through gpurf's register-file systems on the C++ models, and with the design's
// Verilated structures in the loop (--rtl) and in lockstep with their golden models
// (--lockstep). Functional execution and Verilator builds are outside the timed part (the
// models come from the cache, built once with -O3 here); the MRF-only baseline is not run.
// Built with GPURF_BUILD_BENCHMARKS=ON; figures in docs/perf.md.
//
//   gpurf_sim_rate_bench [--models-only] [design.yaml ...]   (default: the configs/examples
//       MRF-only, HW RFC 1- and 2-level and SW ORF 3-level points)

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "gen/config/yaml_loader.h"
#include "sim/harness/driver.h"
#include "sim/workload/launch.h"

namespace h = gpurf::harness;
namespace sim = gpurf::sim;

int main(int argc, char** argv) {
  std::vector<std::string> designs;
  bool models_only = false;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--models-only")
      models_only = true;
    else
      designs.emplace_back(argv[i]);
  }
  if (designs.empty()) {
    for (const char* n : {"mrf_only", "hw_rfc_6entry", "hw_rfc_3level", "sw_orf_3level"})
      designs.push_back(std::string(GPURF_SOURCE_DIR) + "/configs/examples/" + n + ".yaml");
  }
  std::vector<std::unique_ptr<sim::WorkloadRun>> runs;
  std::vector<h::WorkloadKernel> kernels;
  for (const auto& n : sim::ListWorkloads(sim::DefaultCorpusDir())) {
    runs.push_back(
        sim::RunWorkload(sim::LoadLaunch(sim::WorkloadLaunchPath(sim::DefaultCorpusDir(), n))));
    kernels.push_back({n, &runs.back()->compiled.kernel, &runs.back()->run});
  }
  fmt::print("{:<16} {:<9} {:>12} {:>10} {:>16}\n", "design", "mode", "warp-insts", "seconds",
             "warp-insts/s");
  for (const auto& path : designs) {
    const gpurf::DesignSpec d = gpurf::LoadDesign(path);
    for (h::RfMode mode : {h::RfMode::kModels, h::RfMode::kRtl, h::RfMode::kLockstep}) {
      if (models_only && mode != h::RfMode::kModels)
        continue;
      h::DriverOptions o;
      o.baseline = false;
      o.rtl.mode = mode;
      o.rtl.build.opt = "-O3";
      o.rtl.build.trace = false;
      bool two_level = false;
      if (mode != h::RfMode::kModels)  // build (or find) the models outside the timing
        h::PrepareRtl(d, h::SmConfigFor(d, o, two_level), o.rtl.build);
      // Kernel by kernel (a kernel that stops at a divergence is left out and named), repeated
      // until a second has passed, for a stable rate.
      uint64_t insts = 0;
      double secs = 0;
      std::string skipped;
      do {
        for (const auto& wk : kernels) {
          if (skipped.find(" " + wk.workload + " ") != std::string::npos)
            continue;
          try {
            const h::DesignResult r = h::RunDesign(d, {wk}, o);
            insts += r.warp_instructions;
            secs += r.sim_seconds;
          } catch (const std::runtime_error&) {  // a divergence, or the kernel does not fit
            skipped += " " + wk.workload + " ";
          }
        }
      } while (secs < 1.0 && insts > 0);
      if (insts == 0)
        continue;
      fmt::print("{:<16} {:<9} {:>12} {:>10.3f} {:>16.0f}{}\n", d.name, h::RfModeName(mode), insts,
                 secs, static_cast<double>(insts) / secs,
                 skipped.empty() ? "" : "  (left out, diverged or did not fit:" + skipped + ")");
      std::fflush(stdout);
    }
  }
  return 0;
}
