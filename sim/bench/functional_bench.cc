// Functional execution rate (thread-instructions per CPU second) of the PTX front end on every
// corpus workload, with the per-lane values recorded (the default) and without. Compilation and
// the memory image are set up once per workload; each iteration executes the whole grid.
// Built with GPURF_BUILD_BENCHMARKS=ON; figures in docs/perf.md.

#include <benchmark/benchmark.h>

#include <cstring>
#include <map>
#include <string>

#include "sim/exec/functional.h"
#include "sim/ptx/ptx_parser.h"
#include "sim/workload/launch.h"

namespace gpurf::sim {
namespace {

void BM_Functional(benchmark::State& state, const std::string& name, bool values) {
  const LaunchSpec spec = LoadLaunch(WorkloadLaunchPath(DefaultCorpusDir(), name));
  const ptx::CompiledKernel ck = ptx::CompileKernel(ptx::LoadPtx(spec.ptx), spec.kernel);
  DeviceMemory mem;
  std::map<std::string, uint64_t> addr;
  for (const auto& b : spec.buffers) {
    addr[b.name] = mem.Allocate(b.bytes());
    const auto bytes = InitialContents(b);
    std::memcpy(mem.At(addr[b.name], b.bytes()), bytes.data(), bytes.size());
  }
  std::vector<uint8_t> params(ck.fn.param_bytes, 0);
  for (size_t i = 0; i < ck.fn.params.size(); ++i) {
    const auto& p = ck.fn.params[i];
    const auto& b = spec.params[i];
    uint64_t v = 0;
    if (b.is_buffer) {
      v = addr.at(b.buffer);
    } else if (ptx::IsFloat(p.type)) {
      const float f = std::strtof(b.text.c_str(), nullptr);
      std::memcpy(&v, &f, 4);
    } else {
      v = static_cast<uint64_t>(std::strtoll(b.text.c_str(), nullptr, 0));
    }
    std::memcpy(params.data() + p.offset, &v, p.size);
  }
  ExecOptions opt;
  opt.record_values = values;
  uint64_t thread_insts = 0;
  for (auto _ : state) {
    const KernelRun run = Execute(ck, spec.grid, spec.block, params, mem, opt);
    thread_insts += run.ThreadInstructions();
    benchmark::DoNotOptimize(run.warps.data());
  }
  state.counters["thread_inst/s"] =
      benchmark::Counter(static_cast<double>(thread_insts), benchmark::Counter::kIsRate);
}

const int kRegistered = [] {
  for (const auto& n : ListWorkloads(DefaultCorpusDir())) {
    benchmark::RegisterBenchmark(("BM_Functional/" + n).c_str(), BM_Functional, n, true)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("BM_FunctionalNoValues/" + n).c_str(), BM_Functional, n, false)
        ->Unit(benchmark::kMillisecond);
  }
  return 0;
}();

}  // namespace
}  // namespace gpurf::sim

BENCHMARK_MAIN();
