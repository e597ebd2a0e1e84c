#include "verif/verify.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "models/flop_array_model.h"
#include "models/mrf_model.h"
#include "models/orf_model.h"
#include "models/rf_system_model.h"
#include "models/rfc_model.h"
#include "models/warp_scheduler_model.h"
#include "verif/stimulus/flop_array_stimulus.h"
#include "verif/stimulus/mrf_stimulus.h"
#include "verif/stimulus/orf_stimulus.h"
#include "verif/stimulus/rf_system_stimulus.h"
#include "verif/stimulus/rfc_stimulus.h"
#include "verif/stimulus/warp_scheduler_stimulus.h"

namespace gpurf {

namespace {
template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;
}  // namespace

std::unique_ptr<CycleModel> MakeModel(const StructureSpec& spec) {
  struct Maker {
    std::unique_ptr<CycleModel> operator()(const FlopArraySpec& s) const {
      return std::make_unique<FlopArrayModel>(s);
    }
    std::unique_ptr<CycleModel> operator()(const MrfSpec& s) const {
      return std::make_unique<MrfModel>(s);
    }
    std::unique_ptr<CycleModel> operator()(const RfcSpec& s) const {
      return std::make_unique<RfcCycleModel>(s);
    }
    std::unique_ptr<CycleModel> operator()(const WarpSchedulerSpec& s) const {
      return std::make_unique<WarpSchedulerCycleModel>(s);
    }
    std::unique_ptr<CycleModel> operator()(const OrfSpec& s) const {
      return std::make_unique<OrfCycleModel>(s);
    }
    std::unique_ptr<CycleModel> operator()(const RfSystemSpec& s) const {
      return std::make_unique<RfSystemCycleModel>(s);
    }
  };
  return std::visit(Maker{}, spec);
}

std::unique_ptr<Stimulus> MakeStimulus(const StructureSpec& spec, uint64_t seed) {
  struct Maker {
    uint64_t seed;
    std::unique_ptr<Stimulus> operator()(const FlopArraySpec& s) const {
      return std::make_unique<FlopArrayStimulus>(s, seed);
    }
    std::unique_ptr<Stimulus> operator()(const MrfSpec& s) const {
      return std::make_unique<MrfStimulus>(s, seed);
    }
    std::unique_ptr<Stimulus> operator()(const RfcSpec& s) const {
      return std::make_unique<RfcStimulus>(s, seed);
    }
    std::unique_ptr<Stimulus> operator()(const WarpSchedulerSpec& s) const {
      return std::make_unique<WarpSchedulerStimulus>(s, seed);
    }
    std::unique_ptr<Stimulus> operator()(const OrfSpec& s) const {
      return std::make_unique<OrfStimulus>(s, seed);
    }
    std::unique_ptr<Stimulus> operator()(const RfSystemSpec& s) const {
      return std::make_unique<RfSystemStimulus>(s, seed);
    }
  };
  return std::visit(Maker{seed}, spec);
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
