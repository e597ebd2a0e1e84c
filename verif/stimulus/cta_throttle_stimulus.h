// Stimulus for the CTA register balance counters and throttle: an SM launching CTAs into its
// slots, their warps mapping registers at first writes (one warp's group per cycle, mostly for
// CTAs the throttle lets issue) and releasing them, CTAs draining and exiting. It mirrors what
// each CTA holds and the free count of every bank (a grant is read back from alloc_grant_o), so
// every request keeps the contract: an allocation stays within the CTA's C, a release names a
// register the CTA holds, an exit comes when the CTA holds nothing. In spill mode, a group of the
// reserved CTA that needs more than a bank has comes with the spills released on the release
// ports in the same cycle (registers of other CTAs first), as the harness would.
//
// Phases, after a reset, in a seeded random order (each 64..1024 cycles):
//   fill         launches into free slots, many allocations, few releases (the throttle turns on)
//   churn        allocations and releases at random, occasional launches and exits
//   turnover     one CTA drains and exits at a time, new ones launch (the reservation moves)
//   oversize     the SM empties, a CTA needing more than a bank launches (spill mode) and maps
//                its registers, mostly in that bank, until it spills
//   drain        releases and exits only
//   idle         nothing
//   reset-pulse  one cycle of reset mid-run
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gen/structures/cta_throttle/cta_throttle_spec.h"
#include "verif/harness/stimulus.h"

namespace gpurf {

class CtaThrottleStimulus : public Stimulus {
 public:
  CtaThrottleStimulus(const CtaThrottleSpec& spec, uint64_t seed);

  void Next(uint64_t cycle, PortValues& in) override;
  std::string Phase() const override;
  void Observe(uint64_t cycle, const PortValues& out) override;

  enum class PhaseKind { kReset, kFill, kChurn, kTurnover, kOversize, kDrain, kIdle, kResetPulse };

 private:
  bool Chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  int Uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  void PickPhase();
  void ClearMirror();
  int Held(int slot) const;
  // Adds a release of a register of (slot, bank) on the next free release port.
  void Release(PortValues& in, int slot, int bank);
  void Launch(PortValues& in, bool oversize);
  bool Exit(PortValues& in, int slot);
  // One warp's group, of `force_slot` when it is alive (else a CTA that may issue, mostly), its
  // registers mostly in `bias_bank` when that is not -1.
  void Allocate(PortValues& in, double p_port, bool settled, int force_slot = -1,
                int bias_bank = -1);
  void RandomReleases(PortValues& in, double p, int focus);

  const CtaThrottleSpec spec_;
  std::mt19937_64 rng_;
  PhaseKind phase_ = PhaseKind::kReset;
  uint64_t phase_left_ = 2;
  int focus_ = -1;     // the draining CTA of turnover, -1 none
  int big_slot_ = -1;  // the CTA larger than a bank of the oversize phase, -1 none
  int big_bank_ = 0;   // its big bank
  // Mirror of the structure: per slot alive, C and k per bank; per bank the free count.
  std::vector<bool> alive_;
  std::vector<std::vector<int>> need_, held_;
  std::vector<int> free_;
  // From the last cycle's outputs (valid for this cycle when no launch or exit came between).
  std::vector<bool> issue_ok_;
  int reserved_ = -1;
  bool spill_mode_ = false;
  bool event_last_ = true;  // a launch, exit or reset last cycle
  bool event_now_ = false;
  // This cycle's request.
  int group_slot_ = -1;
  std::vector<int> group_n_;
  int ports_used_ = 0;
};

}  // namespace gpurf
