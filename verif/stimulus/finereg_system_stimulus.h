// Stimulus for the finereg-system top: an SM's pipeline on the ACRF and the CTA switching of
// FineReg's status monitor through the RMU. The ACRF's warp slots form groups of CtaWarps
// (aligned bases); the pipeline issues instructions (one to three sources) and writes results
// into any group that no RMU command involves (the contract's C3), never writing a register an
// instruction in flight (or the one offered) reads (C4); the switching saves a group's
// registers into a free pending CTA slot with a random live vector over registers it wrote
// (C2: fitting in the free entries it observed) and restores a pending CTA into any group. Tags
// are unique among the instructions in flight.
//
// Phases, after a reset, in a seeded random order (each 64..512 cycles):
//   pipeline      busy pipeline, occasional switches
//   switching     back-to-back saves and restores with dense live vectors, light pipeline
//   fill          large saves until the PCRF is nearly full, then restores
//   backpressure  dispatch often refused, results every cycle
//   idle          nothing offered
//   reset-pulse   one cycle of reset (the PCRF and the RMU empty, the ACRF keeps its rows)
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gen/structures/finereg_system/finereg_system_spec.h"
#include "verif/harness/stimulus.h"

namespace gpurf {

class FineregSystemStimulus : public Stimulus {
 public:
  FineregSystemStimulus(const FineregSystemSpec& spec, uint64_t seed);

  void Next(uint64_t cycle, PortValues& in) override;
  std::string Phase() const override;
  void Observe(uint64_t cycle, const PortValues& out) override;

  enum class PhaseKind { kReset, kPipeline, kSwitching, kFill, kBackpressure, kIdle, kResetPulse };

 private:
  struct Instr {
    uint64_t tag = 0;
    int warp = 0;
    std::vector<int> regs;
  };
  struct Command {
    bool save = true;
    int cta = 0;
    int group = 0;
    std::vector<bool> live;  // save: the vector
  };
  bool Chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  int Uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  void PickPhase();
  bool Usable(int warp) const;
  bool ReadInFlight(int warp, int reg) const;
  void NewCommand();
  Bits RandomData();

  const FineregSystemSpec spec_;
  std::mt19937_64 rng_;
  PhaseKind phase_ = PhaseKind::kReset;
  uint64_t phase_left_ = 2;
  int groups_ = 0;
  std::set<std::pair<int, int>> written_;  // ACRF (warp slot, reg) written since power-up
  std::vector<std::optional<std::vector<bool>>> pending_;  // per CTA slot: the saved vector
  std::optional<Command> cmd_;                             // offered, not yet accepted
  std::optional<Command> moving_;                          // accepted, the RMU not yet idle again
  bool moving_seen_ = false;                               // one cycle passed since acceptance
  std::vector<Instr> inflight_;
  std::optional<Instr> offered_;
  std::optional<std::pair<int, int>> wb_offered_;  // (warp slot, reg)
  bool disp_ready_ = false;
  bool reset_now_ = true;
  uint64_t next_tag_ = 0;
  int free_count_ = 0;
};

}  // namespace gpurf
