#include "verif/stimulus/cta_status_monitor_stimulus.h"

#include <algorithm>

#include "gen/structures/cta_status_monitor/cta_status_monitor_ports.h"
#include "verif/stimulus/registry.h"

namespace gpurf {

using P = CtaStatusMonitorPort;

CtaStatusMonitorStimulus::CtaStatusMonitorStimulus(const CtaStatusMonitorSpec& spec, uint64_t seed)
    : spec_(spec), rng_(seed), focus_{0} {}

std::string CtaStatusMonitorStimulus::Phase() const {
  switch (phase_) {
    case PhaseKind::kReset:
      return "reset";
    case PhaseKind::kLaunch:
      return "launch";
    case PhaseKind::kSwapOut:
      return "swap-out";
    case PhaseKind::kStalls:
      return "stalls";
    case PhaseKind::kPcrfFull:
      return "pcrf-full";
    case PhaseKind::kPcrfRoom:
      return "pcrf-room";
    case PhaseKind::kFinish:
      return "finish";
    case PhaseKind::kIdle:
      return "idle";
    case PhaseKind::kResetPulse:
      return "reset-pulse";
  }
  return "?";
}

void CtaStatusMonitorStimulus::PickPhase() {
  static const PhaseKind kPhases[] = {
      PhaseKind::kLaunch,   PhaseKind::kLaunch, PhaseKind::kSwapOut, PhaseKind::kSwapOut,
      PhaseKind::kStalls,   PhaseKind::kStalls, PhaseKind::kStalls,  PhaseKind::kPcrfFull,
      PhaseKind::kPcrfRoom, PhaseKind::kFinish, PhaseKind::kIdle,    PhaseKind::kResetPulse};
  do {
    phase_ = kPhases[std::uniform_int_distribution<size_t>(0, std::size(kPhases) - 1)(rng_)];
  } while (phase_ == PhaseKind::kResetPulse && !Chance(0.2));
  phase_left_ = phase_ == PhaseKind::kResetPulse ? 1 : static_cast<uint64_t>(Uniform(16, 200));
  if (Chance(0.5)) {
    focus_.clear();
    const int n = Uniform(2, std::min(spec_.ctas, 10));
    for (int i = 0; i < n; ++i)
      focus_.push_back(Uniform(0, spec_.ctas - 1));
  }
}

int CtaStatusMonitorStimulus::Cta() {
  if (Chance(0.1))
    return Uniform(0, spec_.ctas - 1);
  return focus_[static_cast<size_t>(Uniform(0, static_cast<int>(focus_.size()) - 1))];
}

// A live count or a number of free entries: mostly small (a CTA's live registers), sometimes
// anywhere in 0..E, and the extremes.
int CtaStatusMonitorStimulus::Count() {
  const int e = spec_.pcrf_entries;
  switch (Uniform(0, 9)) {
    case 0:
      return 0;
    case 1:
      return e;
    case 2:
    case 3:
      return Uniform(0, e);
    default:
      return Uniform(0, std::min(e, 48));
  }
}

void CtaStatusMonitorStimulus::Next(uint64_t /*cycle*/, PortValues& in) {
  if (phase_left_ == 0)
    PickPhase();
  --phase_left_;
  const bool reset = phase_ == PhaseKind::kReset || phase_ == PhaseKind::kResetPulse;
  in[P::kRstN] = Bits(1, reset ? 0 : 1);
  for (int p = P::kStallValid; p <= P::kQCta; ++p) {
    for (int w = 0; w < in[p].num_words(); ++w)
      in[p].data()[w] = rng_();
    in[p].canonicalize();
  }
  // CTA numbers in range even when junk (out-of-range slots are a contract violation).
  in[P::kStallCta].set(0, spec_.cta_bits, static_cast<uint64_t>(Uniform(0, spec_.ctas - 1)));
  in[P::kSetCta].set(0, spec_.cta_bits, static_cast<uint64_t>(Uniform(0, spec_.ctas - 1)));
  query_ = Chance(0.5) ? (query_ + 1) % spec_.ctas : Cta();
  in[P::kQCta].set(0, spec_.cta_bits, static_cast<uint64_t>(query_));

  double p_stall = 0.3, p_set = 0.2, p_ready = 0.3;
  int set_kind = -1;  // -1: any pair
  bool few_free = false, much_free = false;
  switch (phase_) {
    case PhaseKind::kLaunch:
      p_set = 0.6, set_kind = 3;
      break;
    case PhaseKind::kSwapOut:
      p_set = 0.5, set_kind = Chance(0.5) ? 1 : 2;
      break;
    case PhaseKind::kStalls:
      p_stall = 0.9, p_set = 0.1, p_ready = 0.5;
      break;
    case PhaseKind::kPcrfFull:
      p_stall = 0.8, p_set = 0.15, few_free = true;
      break;
    case PhaseKind::kPcrfRoom:
      p_stall = 0.8, p_set = 0.15, much_free = true, p_ready = 0.05;
      break;
    case PhaseKind::kFinish:
      p_set = 0.5, set_kind = 0;
      break;
    case PhaseKind::kIdle:
      p_stall = 0.0, p_set = 0.0;
      break;
    default:
      break;
  }
  const bool stall = !reset && Chance(p_stall);
  in[P::kStallValid].set_bit(0, stall);
  const int live = Count();
  if (stall) {
    in[P::kStallCta].set(0, spec_.cta_bits, static_cast<uint64_t>(Cta()));
    in[P::kStallLive].set(0, spec_.count_bits, static_cast<uint64_t>(live));
  }
  // Free entries: around the stalled CTA's live count (the fit is decided at the margin), or
  // few, or many.
  int free = Count();
  if (few_free)
    free = Uniform(0, std::min(spec_.pcrf_entries, 4));
  else if (much_free)
    free = spec_.pcrf_entries - Uniform(0, std::min(spec_.pcrf_entries, 4));
  else if (Chance(0.4))
    free = std::clamp(live + Uniform(-3, 3), 0, spec_.pcrf_entries);
  in[P::kFree].set(0, spec_.count_bits, static_cast<uint64_t>(free));
  in[P::kCanLaunch].set_bit(0, much_free || Chance(0.6));
  // Ready bits: sparse over all slots, denser over the focus slots.
  Bits& ready = in[P::kReady];
  ready.clear();
  for (int c = 0; c < spec_.ctas; ++c)
    ready.set_bit(c, Chance(p_ready * 0.3));
  for (int c : focus_) {
    if (Chance(p_ready))
      ready.set_bit(c, true);
  }
  const bool set = !reset && Chance(p_set);
  in[P::kSetValid].set_bit(0, set);
  if (set) {
    static const int kPairs[4][2] = {{0, 0}, {1, 1}, {1, 2}, {2, 2}};
    const int k = set_kind >= 0 ? set_kind : Uniform(0, 3);
    in[P::kSetCta].set(0, spec_.cta_bits, static_cast<uint64_t>(Cta()));
    in[P::kSetCtx].set(0, 2, static_cast<uint64_t>(kPairs[k][0]));
    in[P::kSetReg].set(0, 2, static_cast<uint64_t>(kPairs[k][1]));
    in[P::kSetLive].set(0, spec_.count_bits, static_cast<uint64_t>(Count()));
  }
}

GPURF_REGISTER(StimulusFamily, cta_status_monitor, "cta-status-monitor",
               StimulusFamily{
                   [](const StructureSpec& s, uint64_t seed) -> std::unique_ptr<Stimulus> {
                     return std::make_unique<CtaStatusMonitorStimulus>(
                         SpecAs<CtaStatusMonitorSpec>(s), seed);
                   }})

}  // namespace gpurf
