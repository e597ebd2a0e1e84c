#include "verif/stimulus/pcrf_stimulus.h"

#include <algorithm>

#include "gen/structures/pcrf/pcrf_ports.h"
#include "verif/stimulus/registry.h"

namespace gpurf {

using P = PcrfPort;

PcrfStimulus::PcrfStimulus(const PcrfSpec& spec, uint64_t seed)
    : spec_(spec), rng_(seed), focus_{0} {}

std::string PcrfStimulus::Phase() const {
  switch (phase_) {
    case PhaseKind::kReset:
      return "reset";
    case PhaseKind::kFill:
      return "fill";
    case PhaseKind::kDrain:
      return "drain";
    case PhaseKind::kSwap:
      return "swap";
    case PhaseKind::kManyCtas:
      return "many-ctas";
    case PhaseKind::kBackpressure:
      return "backpressure";
    case PhaseKind::kIdle:
      return "idle";
    case PhaseKind::kResetPulse:
      return "reset-pulse";
  }
  return "?";
}

void PcrfStimulus::PickPhase() {
  static const PhaseKind kPhases[] = {
      PhaseKind::kFill, PhaseKind::kFill,      PhaseKind::kDrain,    PhaseKind::kDrain,
      PhaseKind::kSwap, PhaseKind::kSwap,      PhaseKind::kManyCtas, PhaseKind::kBackpressure,
      PhaseKind::kIdle, PhaseKind::kResetPulse};
  // A reset pulse is rare: most of a run keeps the PCRF's contents.
  do {
    phase_ = kPhases[std::uniform_int_distribution<size_t>(0, std::size(kPhases) - 1)(rng_)];
  } while (phase_ == PhaseKind::kResetPulse && !Chance(0.3));
  const uint64_t e = static_cast<uint64_t>(spec_.entries);
  switch (phase_) {
    case PhaseKind::kResetPulse:
      phase_left_ = 1;
      break;
    case PhaseKind::kFill:
    case PhaseKind::kDrain:
      phase_left_ = e + e / 2 + 64;
      break;
    default:
      phase_left_ = std::uniform_int_distribution<uint64_t>(64, 64 + e / 2)(rng_);
  }
  focus_.clear();
  const int n = Uniform(1, std::min(spec_.ctas, 6));
  for (int i = 0; i < n; ++i)
    focus_.push_back(Uniform(0, spec_.ctas - 1));
}

int PcrfStimulus::Cta(bool any) {
  if (any || Chance(0.05))
    return Uniform(0, spec_.ctas - 1);
  return focus_[Uniform(0, static_cast<int>(focus_.size()) - 1)];
}

void PcrfStimulus::Next(uint64_t /*cycle*/, PortValues& in) {
  if (phase_left_ == 0)
    PickPhase();
  --phase_left_;
  const bool reset = phase_ == PhaseKind::kReset || phase_ == PhaseKind::kResetPulse;
  in[P::kRstN] = Bits(1, reset ? 0 : 1);
  // Junk everywhere first: fields not under their valid must be ignored.
  for (int p = P::kAppValid; p <= P::kQCta; ++p) {
    for (int w = 0; w < in[p].num_words(); ++w)
      in[p].data()[w] = rng_();
    in[p].canonicalize();
  }
  in[P::kAppCta].set(0, spec_.cta_bits, static_cast<uint64_t>(Uniform(0, spec_.ctas - 1)));
  in[P::kRsCta].set(0, spec_.cta_bits, static_cast<uint64_t>(Uniform(0, spec_.ctas - 1)));
  query_ = Chance(0.5) ? (query_ + 1) % spec_.ctas : Cta(false);
  in[P::kQCta].set(0, spec_.cta_bits, static_cast<uint64_t>(query_));
  double p_app = 0.0, p_rs = 0.0, p_ready = 0.9;
  bool any = false;
  switch (phase_) {
    case PhaseKind::kFill:
      p_app = 0.95, p_rs = 0.01;
      break;
    case PhaseKind::kDrain:
      p_app = 0.05, p_rs = 0.9, p_ready = 0.95;
      break;
    case PhaseKind::kSwap:
      p_app = 0.6, p_rs = 0.4, p_ready = 0.8;
      break;
    case PhaseKind::kManyCtas:
      p_app = 0.6, p_rs = 0.2, any = true;
      break;
    case PhaseKind::kBackpressure:
      p_app = 0.3, p_rs = 0.5, p_ready = 0.15;
      break;
    default:
      p_ready = 0.5;
      break;
  }
  const bool app = !reset && Chance(p_app);
  const bool rs = !reset && Chance(p_rs);
  in[P::kAppValid].set_bit(0, app);
  in[P::kRsValid].set_bit(0, rs);
  in[P::kOutReady].set_bit(0, Chance(p_ready));
  if (app) {
    in[P::kAppCta].set(0, spec_.cta_bits, static_cast<uint64_t>(Cta(any)));
    // Warp ids and register indices over their whole range (paper: 32 warps, 63 registers).
    in[P::kAppWarp].set(0, spec_.warp_bits, static_cast<uint64_t>(Uniform(0, spec_.warps - 1)));
    in[P::kAppReg].set(0, spec_.reg_bits, static_cast<uint64_t>(Uniform(0, spec_.regs - 1)));
  }
  if (rs)
    in[P::kRsCta].set(0, spec_.cta_bits, static_cast<uint64_t>(Cta(any)));
}

GPURF_REGISTER(StimulusFamily, pcrf, "pcrf",
               StimulusFamily{
                   [](const StructureSpec& s, uint64_t seed) -> std::unique_ptr<Stimulus> {
                     return std::make_unique<PcrfStimulus>(SpecAs<PcrfSpec>(s), seed);
                   }})

}  // namespace gpurf
