// The corpus kernels the harness tests run, executed functionally once per caller: the twelve
// CUDA SDK-style kernels of Gebhart's evaluation (the default suite's Corpus.* and HybridRc
// tests) or every corpus kernel (the WholeCorpus* tests, label soak: the later, gather-heavy
// kernels made the whole-corpus variants about three minutes of CPU).
#pragma once

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "sim/harness/driver.h"
#include "sim/workload/launch.h"

namespace gpurf::harness::corpus_kernels {

inline const std::set<std::string>& Sdk() {
  static const std::set<std::string> k = {
      "bfs",       "bitonicSort", "blackScholes", "convolutionSeparable", "histogram", "hotspot",
      "matrixMul", "nbody",       "reduction",    "scalarProd",           "transpose", "vectorAdd"};
  return k;
}

// Runs the corpus (all of it, or only Sdk()) and appends each kernel to `kernels`; the
// kernels point into `runs`, which must outlive them.
inline void Run(bool whole, std::vector<std::unique_ptr<sim::WorkloadRun>>& runs,
                std::vector<WorkloadKernel>& kernels) {
  for (const auto& name : sim::ListWorkloads(sim::DefaultCorpusDir())) {
    if (!whole && !Sdk().count(name))
      continue;
    runs.push_back(
        sim::RunWorkload(sim::LoadLaunch(sim::WorkloadLaunchPath(sim::DefaultCorpusDir(), name))));
    kernels.push_back({name, &runs.back()->compiled.kernel, &runs.back()->run});
  }
}

}  // namespace gpurf::harness::corpus_kernels
