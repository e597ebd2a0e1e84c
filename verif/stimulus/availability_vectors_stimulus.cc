#include "verif/stimulus/availability_vectors_stimulus.h"

#include <algorithm>

#include "gen/structures/availability_vectors/availability_vectors_ports.h"
#include "verif/stimulus/registry.h"

namespace gpurf {

using P = AvailabilityVectorsPort;

AvailabilityVectorsStimulus::AvailabilityVectorsStimulus(const AvailabilityVectorsSpec& spec,
                                                         uint64_t seed)
    : spec_(spec), rng_(seed), req_(static_cast<size_t>(spec.banks), false) {}

std::string AvailabilityVectorsStimulus::Phase() const {
  switch (phase_) {
    case PhaseKind::kReset:
      return "reset";
    case PhaseKind::kFill:
      return "fill";
    case PhaseKind::kDrain:
      return "drain";
    case PhaseKind::kChurn:
      return "churn";
    case PhaseKind::kOneBank:
      return "one-bank";
    case PhaseKind::kWithdraw:
      return "withdraw";
    case PhaseKind::kIdle:
      return "idle";
    case PhaseKind::kResetPulse:
      return "reset-pulse";
  }
  return "?";
}

void AvailabilityVectorsStimulus::PickPhase() {
  static const PhaseKind kPhases[] = {
      PhaseKind::kFill,  PhaseKind::kFill,      PhaseKind::kDrain,   PhaseKind::kDrain,
      PhaseKind::kChurn, PhaseKind::kChurn,     PhaseKind::kOneBank, PhaseKind::kWithdraw,
      PhaseKind::kIdle,  PhaseKind::kResetPulse};
  phase_ = kPhases[std::uniform_int_distribution<size_t>(0, std::size(kPhases) - 1)(rng_)];
  // Long enough to fill a default bank (256 registers) from empty.
  phase_left_ = phase_ == PhaseKind::kResetPulse
                    ? 1
                    : std::uniform_int_distribution<uint64_t>(
                          64, 64 + 3 * static_cast<uint64_t>(spec_.regs_per_bank))(rng_);
  focus_bank_ = Uniform(0, spec_.banks - 1);
}

void AvailabilityVectorsStimulus::Next(uint64_t /*cycle*/, PortValues& in) {
  if (phase_left_ == 0)
    PickPhase();
  --phase_left_;
  const bool reset = phase_ == PhaseKind::kReset || phase_ == PhaseKind::kResetPulse;
  in[P::kRstN] = Bits(1, reset ? 0 : 1);
  in[P::kAllocReq].clear();
  in[P::kRelValid].clear();
  // Junk in the ids of idle release ports: they must be ignored.
  for (int p = 0; p < spec_.release_ports; ++p)
    in[P::kRelId].set(p * spec_.id_bits, spec_.id_bits, rng_());
  if (reset) {
    held_.clear();
    std::fill(req_.begin(), req_.end(), false);
    return;
  }
  double p_req = 0, p_rel = 0;
  switch (phase_) {
    case PhaseKind::kFill:
      p_req = 0.8, p_rel = 0.1;
      break;
    case PhaseKind::kDrain:
      p_req = 0.0, p_rel = 0.9;
      break;
    case PhaseKind::kChurn:
      p_req = 0.5, p_rel = 0.5;
      break;
    case PhaseKind::kOneBank:
      p_req = 1.0, p_rel = 0.3;
      break;
    case PhaseKind::kWithdraw:
      p_req = 0.5, p_rel = 0.4;
      break;
    default:
      break;
  }
  for (int b = 0; b < spec_.banks; ++b) {
    bool r = false;
    if (phase_ == PhaseKind::kOneBank)
      r = b == focus_bank_;
    else if (phase_ == PhaseKind::kWithdraw)
      r = Chance(p_req);
    else
      r = (req_[b] && phase_ != PhaseKind::kDrain && Chance(0.95)) || Chance(p_req);
    in[P::kAllocReq].set_bit(b, r);
    req_[b] = r;
  }
  // Releases: distinct allocated ids, up to one per port.
  for (int p = 0; p < spec_.release_ports && !held_.empty(); ++p) {
    if (!Chance(p_rel))
      continue;
    const size_t i = std::uniform_int_distribution<size_t>(0, held_.size() - 1)(rng_);
    in[P::kRelValid].set_bit(p, true);
    in[P::kRelId].set(p * spec_.id_bits, spec_.id_bits, static_cast<uint64_t>(held_[i]));
    held_[i] = held_.back();
    held_.pop_back();
  }
}

void AvailabilityVectorsStimulus::Observe(uint64_t /*cycle*/, const PortValues& out) {
  for (int b = 0; b < spec_.banks; ++b) {
    if (!out[P::kAllocGrant].bit(b))
      continue;
    held_.push_back(static_cast<int>(out[P::kAllocId].get(b * spec_.id_bits, spec_.id_bits)));
    req_[b] = false;  // granted: a new request is a new decision
  }
}

GPURF_REGISTER(StimulusFamily, availability_vectors, "availability-vectors",
               StimulusFamily{
                   [](const StructureSpec& s, uint64_t seed) -> std::unique_ptr<Stimulus> {
                     return std::make_unique<AvailabilityVectorsStimulus>(
                         SpecAs<AvailabilityVectorsSpec>(s), seed);
                   }})

}  // namespace gpurf
