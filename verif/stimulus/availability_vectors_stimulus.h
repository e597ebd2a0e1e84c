// Stimulus for the availability vectors: the renaming logic of an SM taking free registers for
// first writes and returning released ones. It keeps the allocated ids itself (an id joins when
// a grant reports it and leaves when this stimulus releases it), so releases always name an
// allocated register, once per cycle (the contract). Requests are levels: a bank's request is
// held while its wake-up stalls it, and sometimes withdrawn.
//
// Phases, after a reset, in a seeded random order (each 64..768 cycles):
//   fill         requests in most banks every cycle, few releases (banks fill, subarrays wake
//                one after another, full banks answer none)
//   drain        releases only (subarrays empty and are gated)
//   churn        requests and releases at random (steady state around a subarray boundary)
//   one-bank     one bank requests every cycle, the others idle
//   withdraw     requests dropped at random while a wake-up stalls them
//   idle         no request, no release
//   reset-pulse  one cycle of reset mid-run
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gen/structures/availability_vectors/availability_vectors_spec.h"
#include "verif/harness/stimulus.h"

namespace gpurf {

class AvailabilityVectorsStimulus : public Stimulus {
 public:
  AvailabilityVectorsStimulus(const AvailabilityVectorsSpec& spec, uint64_t seed);

  void Next(uint64_t cycle, PortValues& in) override;
  std::string Phase() const override;
  void Observe(uint64_t cycle, const PortValues& out) override;

  enum class PhaseKind { kReset, kFill, kDrain, kChurn, kOneBank, kWithdraw, kIdle, kResetPulse };
  size_t allocated() const { return held_.size(); }

 private:
  bool Chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  int Uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  void PickPhase();

  const AvailabilityVectorsSpec spec_;
  std::mt19937_64 rng_;
  PhaseKind phase_ = PhaseKind::kReset;
  uint64_t phase_left_ = 2;
  int focus_bank_ = 0;
  std::vector<int> held_;  // allocated ids (granted, not yet released)
  std::vector<bool> req_;  // per bank: request offered last cycle
};

}  // namespace gpurf
