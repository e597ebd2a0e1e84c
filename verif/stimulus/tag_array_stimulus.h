// Stimulus for the tag array: instructions of a GPU core. Each request is one instruction: up
// to three source operands (read-reg, some with the last-use bit) and a destination (write-reg)
// on the last lookup port, or one memory request (load or store) on port 0, or, in `mixed`,
// any op on any port. Registers come from a small pool of warps and register ids so that they
// hit and die and come back; memory lines from a pool of tags over few sets so that sets fill,
// lines get dirty and are evicted; memory addresses never fall into the reg-mem space.
//
// Phases, after a reset, in a seeded random order (each 64..512 cycles):
//   alu          register instructions only (inactive -> reg, reg -> inactive, reg hits)
//   memory       loads and stores only, over few sets (cache, dirty, write-backs, c <-> c)
//   contention   registers and memory lines of the same few sets (reg <-> cache replacement,
//                prioritized bypass when every way holds a register, register refills)
//   conflicts    every lookup of a request in the same bank (serialization)
//   mixed        random ops on random ports, including stores that miss and dead reads that miss
//   idle         no request
//   reset-pulse  one cycle of reset mid-run
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gen/structures/tag_array/tag_array_spec.h"
#include "verif/harness/stimulus.h"

namespace gpurf {

class TagArrayStimulus : public Stimulus {
 public:
  TagArrayStimulus(const TagArraySpec& spec, uint64_t seed);

  void Next(uint64_t cycle, PortValues& in) override;
  std::string Phase() const override;

  enum class PhaseKind {
    kReset,
    kAlu,
    kMemory,
    kContention,
    kConflicts,
    kMixed,
    kIdle,
    kResetPulse
  };

 private:
  bool Chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  int Uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  void PickPhase();
  void RegOp(int port, int op, bool last, PortValues& in);
  void MemOp(int port, int op, PortValues& in);
  uint64_t MemAddress();

  const TagArraySpec spec_;
  std::mt19937_64 rng_;
  PhaseKind phase_ = PhaseKind::kReset;
  uint64_t phase_left_ = 2;
  int focus_bank_ = 0;           // conflicts: the bank every lookup goes to
  std::vector<int> focus_sets_;  // memory/contention: the sets lines come from
};

}  // namespace gpurf
