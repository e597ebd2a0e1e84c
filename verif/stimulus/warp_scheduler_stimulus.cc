#include "verif/stimulus/warp_scheduler_stimulus.h"

#include "gen/structures/warp_scheduler/warp_scheduler_spec.h"
#include "models/warp_scheduler_model.h"
#include "verif/stimulus/registry.h"

namespace gpurf {

using P = WarpSchedulerCycleModel::Port;

WarpSchedulerStimulus::WarpSchedulerStimulus(const WarpSchedulerSpec& spec, uint64_t seed)
    : spec_(spec),
      rng_(seed),
      suspend_(static_cast<size_t>(spec.warps), false),
      wake_at_(static_cast<size_t>(spec.warps), kNever),
      waiting_(static_cast<size_t>(spec.warps), false),
      exited_(static_cast<size_t>(spec.warps), false),
      exiting_(static_cast<size_t>(spec.warps), false) {}

std::string WarpSchedulerStimulus::Phase() const {
  switch (phase_) {
    case PhaseKind::kReset:
      return "reset";
    case PhaseKind::kRandom:
      return "random";
    case PhaseKind::kGreedyHold:
      return "greedy-hold";
    case PhaseKind::kSparse:
      return "sparse";
    case PhaseKind::kAllSuspended:
      return "all-suspended";
    case PhaseKind::kWakeWhileFull:
      return "wake-while-full";
    case PhaseKind::kChurn:
      return "churn";
    case PhaseKind::kSuspendWake:
      return "suspend+wake";
    case PhaseKind::kExitRelaunch:
      return "exit-relaunch";
    case PhaseKind::kSpuriousWake:
      return "spurious-wake";
    case PhaseKind::kIdle:
      return "idle";
    case PhaseKind::kResetPulse:
      return "reset-pulse";
  }
  return "?";
}

double WarpSchedulerStimulus::SuspendProbability() const {
  switch (phase_) {
    case PhaseKind::kGreedyHold:
    case PhaseKind::kWakeWhileFull:
      return 0.0;
    case PhaseKind::kAllSuspended:
    case PhaseKind::kChurn:
    case PhaseKind::kSuspendWake:
      return 1.0;
    default:
      return 0.1;
  }
}

uint64_t WarpSchedulerStimulus::Latency() {
  auto between = [&](uint64_t a, uint64_t b) {
    return std::uniform_int_distribution<uint64_t>(a, b)(rng_);
  };
  switch (phase_) {
    case PhaseKind::kAllSuspended:
      return between(200, 400);
    case PhaseKind::kChurn:
      return between(1, 3);
    case PhaseKind::kWakeWhileFull:
      return between(1, 10);
    default:
      return Chance(0.2) ? between(1, 4) : between(5, 60);
  }
}

void WarpSchedulerStimulus::Fetch(int warp) {
  suspend_[warp] = exiting_[warp] || Chance(SuspendProbability());
}

void WarpSchedulerStimulus::PickPhase() {
  const PhaseKind previous = phase_;
  static const PhaseKind kPhases[] = {
      PhaseKind::kRandom,       PhaseKind::kGreedyHold,    PhaseKind::kSparse,
      PhaseKind::kAllSuspended, PhaseKind::kWakeWhileFull, PhaseKind::kChurn,
      PhaseKind::kSuspendWake,  PhaseKind::kExitRelaunch,  PhaseKind::kSpuriousWake,
      PhaseKind::kIdle,         PhaseKind::kRandom,        PhaseKind::kResetPulse};
  phase_ = kPhases[std::uniform_int_distribution<size_t>(0, std::size(kPhases) - 1)(rng_)];
  phase_left_ =
      phase_ == PhaseKind::kResetPulse ? 1 : std::uniform_int_distribution<uint64_t>(64, 512)(rng_);

  // Leaving all-suspended: every outstanding result returns in the same cycle (wake storm).
  if (previous == PhaseKind::kAllSuspended) {
    for (auto& t : wake_at_) {
      if (t != kNever)
        t = now_;
    }
  }
  // Leaving exit-relaunch: the exited warps are relaunched (woken, instructions again).
  if (previous == PhaseKind::kExitRelaunch) {
    for (int w = 0; w < spec_.warps; ++w) {
      if (exited_[w])
        wake_at_[w] = now_;
      exited_[w] = false;
      exiting_[w] = false;
    }
  }
  if (phase_ == PhaseKind::kExitRelaunch) {
    for (int w = 0; w < spec_.warps; ++w) {
      if (Chance(0.3)) {
        exiting_[w] = true;
        suspend_[w] = true;  // its buffered instruction is its last one
      }
    }
  }
  // Strand-end bits of buffered instructions follow the new phase where it forces them.
  if (phase_ == PhaseKind::kAllSuspended || phase_ == PhaseKind::kChurn ||
      phase_ == PhaseKind::kSuspendWake) {
    for (auto&& s : suspend_)
      s = true;
  }
}

void WarpSchedulerStimulus::Next(uint64_t cycle, PortValues& in) {
  now_ = cycle;
  if (phase_left_ == 0)
    PickPhase();
  --phase_left_;
  in_reset_ = phase_ == PhaseKind::kReset || phase_ == PhaseKind::kResetPulse;
  in[P::kRstN] = Bits(1, in_reset_ ? 0 : 1);
  if (in_reset_) {
    // The scheduler forgets every suspension; so does the SM's view of it.
    for (int w = 0; w < spec_.warps; ++w) {
      wake_at_[w] = kNever;
      waiting_[w] = false;
      exited_[w] = false;
      exiting_[w] = false;
    }
  }

  double p_valid = 0.9, p_ready = 0.7;
  switch (phase_) {
    case PhaseKind::kGreedyHold:
    case PhaseKind::kWakeWhileFull:
      p_valid = 1.0;
      p_ready = 1.0;
      break;
    case PhaseKind::kSparse:
      p_valid = 0.4;
      p_ready = 0.2;
      break;
    case PhaseKind::kIdle:
      p_valid = 0.0;
      break;
    default:
      break;
  }
  uint64_t ready = 0, valid = 0, suspend = 0, wake = 0;
  for (int w = 0; w < spec_.warps; ++w) {
    const uint64_t b = 1ULL << w;
    if (!exited_[w] && Chance(p_valid))
      valid |= b;
    if (Chance(p_ready))
      ready |= b;
    if (suspend_[w])
      suspend |= b;
    if (wake_at_[w] != kNever && wake_at_[w] <= cycle) {
      wake |= b;
      wake_at_[w] = kNever;
    }
    if (phase_ == PhaseKind::kSuspendWake)
      wake |= b;  // held: a descheduled warp is ready again at once
    if (phase_ == PhaseKind::kSpuriousWake && !waiting_[w] && Chance(0.2))
      wake |= b;  // a wake for a warp that waits for nothing
  }
  const int W = spec_.warps;
  in[P::kReady].clear();
  in[P::kValid].clear();
  in[P::kSuspend].clear();
  in[P::kWake].clear();
  in[P::kReady].set(0, W, ready);
  in[P::kValid].set(0, W, valid);
  in[P::kSuspend].set(0, W, suspend);
  in[P::kWake].set(0, W, wake);
  driven_wake_ = wake;
}

void WarpSchedulerStimulus::Observe(uint64_t cycle, const PortValues& out) {
  if (in_reset_)
    return;
  if (out[P::kIssueValid].bit(0)) {
    const int w = static_cast<int>(out[P::kIssueWarp].get(0, spec_.warp_id_width));
    if (out[P::kDeactValid].bit(0) && !((driven_wake_ >> w) & 1U)) {
      // Suspended until its long-latency results return (never, for an exiting warp).
      if (exiting_[w]) {
        exited_[w] = true;
        exiting_[w] = false;
      } else {
        wake_at_[w] = cycle + Latency();
      }
    }
    Fetch(w);
  }
  for (int w = 0; w < spec_.warps; ++w)
    waiting_[w] = out[P::kWaiting].bit(w);
}

GPURF_REGISTER(StimulusFamily, warp_scheduler, "warp-scheduler",
               StimulusFamily{[](const StructureSpec& s,
                                 uint64_t seed) -> std::unique_ptr<Stimulus> {
                 return std::make_unique<WarpSchedulerStimulus>(SpecAs<WarpSchedulerSpec>(s), seed);
               }})

}  // namespace gpurf
