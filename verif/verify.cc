#include "verif/verify.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <stdexcept>

#include "models/registry.h"
#include "verif/stimulus/registry.h"

namespace gpurf {

std::unique_ptr<Stimulus> MakeStimulus(const StructureSpec& spec, uint64_t seed) {
  const StimulusFamily* f = Registry<StimulusFamily>::Get().Find(spec.kind());
  if (f == nullptr)
    throw std::logic_error(fmt::format("no stimulus registered for kind '{}'", spec.kind()));
  return f->make(spec, seed);
}

std::string VerifyResult::Summary() const {
  const double cps = run.seconds > 0 ? static_cast<double>(run.cycles) / run.seconds : 0.0;
  if (passed()) {
    return fmt::format(
        "PASS {}: {} cycles, seed {}, {:.0f} simulated cycles/s (Verilator model {})", top,
        run.cycles, seed, cps,
        model.from_cache ? "from cache" : fmt::format("built in {:.1f} s", model.build_seconds));
  }
  return fmt::format("FAIL {}: {}\n  waveform: {}", top, run.failure, waveform.string());
}

VerifyResult VerifyStructure(const StructureSpec& spec, const GeneratedStructure& rtl,
                             const VerifyOptions& opt) {
  VerifyResult r;
  r.top = rtl.top;
  r.seed = opt.seed;
  r.model = BuildModel(rtl, opt.build);

  LockstepOptions lo;
  lo.cycles = opt.cycles;
  lo.seed = opt.seed;
  {
    auto dut = LoadModel(r.model);
    auto model = MakeModel(spec);
    auto stim = MakeStimulus(spec, opt.seed);
    r.run = RunLockstep(*dut, rtl, *model, *stim, lo);
  }
  if (!r.run.passed) {
    // Same seed again, this time with a waveform, up to just past the failing cycle.
    fs::create_directories(opt.waveform_dir);
    r.waveform = fs::absolute(opt.waveform_dir / fmt::format("{}-seed{}.vcd", rtl.top, opt.seed));
    auto dut = LoadModel(r.model);
    auto model = MakeModel(spec);
    auto stim = MakeStimulus(spec, opt.seed);
    LockstepOptions traced = lo;
    traced.trace_path = r.waveform;
    traced.stop_after = r.run.fail_cycle + 1;
    RunLockstep(*dut, rtl, *model, *stim, traced);
  }
  return r;
}

}  // namespace gpurf
