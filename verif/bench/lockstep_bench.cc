// Throughput of the verification loop, per flop-array shape, in simulated cycles per second:
//   BM_ModelOnly  - stimulus + golden model alone: the baseline every other figure is divided by
//   BM_Lockstep   - stimulus + golden model + Verilated RTL compared every cycle (`gpurf verify`),
//                   with the model's C++ compiled at -O1 (the test default) and at -O3
// Run: build/gpurf_bench --benchmark_counters_tabular=true   (see docs/perf.md)
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "gen/structures/flop_array/flop_array_gen.h"
#include "gen/structures/flop_array/flop_array_spec.h"
#include "models/flop_array_model.h"
#include "verif/harness/lockstep.h"
#include "verif/stimulus/flop_array_stimulus.h"
#include "verif/tests/test_util.h"
#include "verif/verify.h"

namespace gpurf {
namespace {

struct BenchShape {
  const char* name;
  test::Shape shape;
};

// Default L1 ORF array, default L0 ORF bank, a deep array; comb reads, clock-gated.
const BenchShape kShapes[] = {
    {"orf_l1_24x128_3r1w", {24, 128, 3, 1, false, false, true}},
    {"orf_l0_8x128_1r1w", {8, 128, 1, 1, false, false, true}},
    {"rf_256x32_2r2w", {256, 32, 2, 2, false, false, true}},
};

FlopArraySpec Spec(const BenchShape& s) {
  return test::MakeSpec(s.shape);
}

constexpr uint64_t kCycles = 200000;

void BM_ModelOnly(benchmark::State& state) {
  const FlopArraySpec spec = Spec(kShapes[state.range(0)]);
  const GeneratedStructure rtl = EmitFlopArray(spec);
  for (auto _ : state) {
    FlopArrayModel model(spec);
    FlopArrayStimulus stim(spec, 1);
    PortValues in, out, def;
    for (const auto& p : rtl.ports) {
      in.emplace_back(p.width);
      out.emplace_back(p.width);
      def.emplace_back(p.width);
    }
    for (uint64_t c = 0; c < kCycles; ++c) {
      stim.Next(c, in);
      model.Outputs(in, out, def);
      model.Clock(in);
    }
    benchmark::DoNotOptimize(out);
  }
  state.counters["cycles_per_s"] = benchmark::Counter(
      static_cast<double>(kCycles) * state.iterations(), benchmark::Counter::kIsRate);
  state.SetLabel(kShapes[state.range(0)].name);
}

void BM_Lockstep(benchmark::State& state, const char* opt) {
  const FlopArraySpec spec = Spec(kShapes[state.range(0)]);
  const GeneratedStructure rtl = EmitFlopArray(spec);
  BuildOptions bo;
  bo.opt = opt;
  const BuiltModel built = BuildModel(rtl, bo);  // outside the timed loop
  for (auto _ : state) {
    auto dut = LoadModel(built);
    FlopArrayModel model(spec);
    FlopArrayStimulus stim(spec, 1);
    LockstepOptions lo;
    lo.cycles = kCycles;
    const LockstepResult r = RunLockstep(*dut, rtl, model, stim, lo);
    if (!r.passed)
      state.SkipWithError(r.failure.c_str());
  }
  state.counters["cycles_per_s"] = benchmark::Counter(
      static_cast<double>(kCycles) * state.iterations(), benchmark::Counter::kIsRate);
  state.SetLabel(fmt::format("{} {}", kShapes[state.range(0)].name, opt));
}

BENCHMARK(BM_ModelOnly)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Lockstep, O1, "-O1")->DenseRange(0, 2)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Lockstep, O3, "-O3")->DenseRange(0, 2)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace gpurf

BENCHMARK_MAIN();
