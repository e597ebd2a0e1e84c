// Stimulus for the pending-CTA register file: the register management unit saving live
// registers of stalled CTAs and restoring pending ones. Appends come from a few focus CTAs
// (long interleaved chains) or from every CTA slot (many short chains); restores pick a focus
// CTA or any slot (empty ones included); the restored-register consumer stalls at random; data
// rows are random; the query port walks every CTA slot. Inputs not under their valid are junk.
//
// Phases, after a reset, in a seeded random order:
//   fill         appends nearly every cycle for 1.5 E cycles: the PCRF fills up and appends are
//                refused while full
//   drain        restores back to back, few appends: chains are walked until the PCRF is empty
//   swap         restore while saving: a CTA's chain is walked while others are appended
//   many-ctas    appends and restores over every CTA slot (interleaved chains of many CTAs)
//   backpressure walks with the consumer mostly not ready (the pipeline stalls)
//   idle         no request
//   reset-pulse  one cycle of reset mid-run
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gen/structures/pcrf/pcrf_spec.h"
#include "verif/harness/stimulus.h"

namespace gpurf {

class PcrfStimulus : public Stimulus {
 public:
  PcrfStimulus(const PcrfSpec& spec, uint64_t seed);

  void Next(uint64_t cycle, PortValues& in) override;
  std::string Phase() const override;

  enum class PhaseKind {
    kReset,
    kFill,
    kDrain,
    kSwap,
    kManyCtas,
    kBackpressure,
    kIdle,
    kResetPulse
  };
  PhaseKind phase() const { return phase_; }

 private:
  bool Chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  int Uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  void PickPhase();
  int Cta(bool any);

  const PcrfSpec spec_;
  std::mt19937_64 rng_;
  PhaseKind phase_ = PhaseKind::kReset;
  uint64_t phase_left_ = 2;
  std::vector<int> focus_;  // the CTAs of long chains in this phase
  int query_ = 0;
};

}  // namespace gpurf
