// Stimulus for the CTA status monitor: the CTA switching logic launching, finishing and
// swapping CTAs through the set port, complete stalls of CTAs with live-register counts around
// the PCRF's free entries, and ready signals of pending CTAs. Most traffic goes to a few focus
// slots of the phase, so that stalls meet active CTAs and candidates meet ready bits; the rest
// goes to any slot. Inputs not under their valid are junk (in range for CTA numbers).
//
// Phases, after a reset, in a seeded random order:
//   launch        the set port launches CTAs (context and registers 2) into the focus slots
//   swap-out      the set port swaps focus CTAs out: context 1 with registers in the ACRF or
//                 in the PCRF (with a saved live count)
//   stalls        a stall nearly every cycle, ready bits dense: switches and launches
//   pcrf-full     stalls with few free PCRF entries: mostly keep, switches only with a restore
//                 that frees enough
//   pcrf-room     stalls with many free PCRF entries, can_launch_i high: launches
//   finish        the set port finishes CTAs (both fields 0)
//   idle          nothing
//   reset-pulse   one cycle of reset mid-run
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gen/structures/cta_status_monitor/cta_status_monitor_spec.h"
#include "verif/harness/stimulus.h"

namespace gpurf {

class CtaStatusMonitorStimulus : public Stimulus {
 public:
  CtaStatusMonitorStimulus(const CtaStatusMonitorSpec& spec, uint64_t seed);

  void Next(uint64_t cycle, PortValues& in) override;
  std::string Phase() const override;

  enum class PhaseKind {
    kReset,
    kLaunch,
    kSwapOut,
    kStalls,
    kPcrfFull,
    kPcrfRoom,
    kFinish,
    kIdle,
    kResetPulse
  };
  PhaseKind phase() const { return phase_; }

 private:
  bool Chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  int Uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  void PickPhase();
  int Cta();
  int Count();

  const CtaStatusMonitorSpec spec_;
  std::mt19937_64 rng_;
  PhaseKind phase_ = PhaseKind::kReset;
  uint64_t phase_left_ = 2;
  std::vector<int> focus_;
  int query_ = 0;
};

}  // namespace gpurf
