// Constrained-random and directed stimulus for the flip-flop register array, through the port
// contract only. Phases (each a few hundred cycles, visited in a seeded random order after a
// reset and an initial sweep that defines every entry):
//   random       - every port random: enables, addresses, data
//   collisions   - all write ports write one address in the same cycle (highest port must win)
//   back-to-back - one address written every cycle with fresh data, read on every port
//   raw          - reads aimed at the addresses written this cycle and the previous one
//   hot          - addresses limited to the first, last and a few middle entries
//   idle         - no writes; reads keep going
//   patterns     - all-zero, all-one and walking-one data
//   reset        - a reset pulse mid-run (the read register must clear; storage must not)
// Addresses are always < entries: misuse is covered by a separate directed test.
#pragma once

#include <cstdint>
#include <random>
#include <string>

#include "gen/structures/flop_array/flop_array_spec.h"
#include "verif/harness/stimulus.h"

namespace gpurf {

class FlopArrayStimulus : public Stimulus {
 public:
  FlopArrayStimulus(const FlopArraySpec& spec, uint64_t seed);

  void Next(uint64_t cycle, PortValues& in) override;
  std::string Phase() const override;

  enum class PhaseKind {
    kReset,
    kSweep,
    kRandom,
    kCollisions,
    kBackToBack,
    kRaw,
    kHot,
    kIdle,
    kPatterns,
    kResetPulse
  };

 private:
  uint64_t Addr();
  uint64_t HotAddr();
  void RandomData(Bits& wdata, int port);
  void PatternData(Bits& wdata, int port, uint64_t cycle);
  void PickPhase();

  const FlopArraySpec spec_;
  std::mt19937_64 rng_;
  PhaseKind phase_ = PhaseKind::kReset;
  uint64_t phase_left_ = 2;
  uint64_t sweep_next_ = 0;
  uint64_t focus_addr_ = 0;
  std::vector<uint64_t> last_written_;
};

}  // namespace gpurf
