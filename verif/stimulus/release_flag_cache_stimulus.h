// Stimulus for the release flag cache: the fetch stage of an SM whose warps run a kernel with a
// pir metadata instruction every 19 instructions (18 covered instructions and the pir itself).
// Every miss is answered, 1..6 cycles later, by a fill from the decoder with the pir's flags (a
// fixed hash of its address, so a stale or misplaced entry answers wrong flags); now and then the
// decoder also fills a pir nobody missed on (another warp's fetch). Flushes mark kernel
// boundaries: a new kernel at a new base address.
//
// Phases, after a reset, in a seeded random order (each 64..512 cycles):
//   loop         warps walk a few pirs of the kernel over and over (hits)
//   sweep        warps walk every pir of the kernel in order (capacity misses)
//   conflict     pirs whose addresses share an entry (plain aliases and folded ones)
//   kernel       a flush and a new kernel, then lookups as in loop
//   idle         no lookup
//   reset-pulse  one cycle of reset mid-run
#pragma once

#include <cstdint>
#include <deque>
#include <random>
#include <string>

#include "gen/structures/release_flag_cache/release_flag_cache_spec.h"
#include "verif/harness/stimulus.h"

namespace gpurf {

class ReleaseFlagCacheStimulus : public Stimulus {
 public:
  ReleaseFlagCacheStimulus(const ReleaseFlagCacheSpec& spec, uint64_t seed);

  void Next(uint64_t cycle, PortValues& in) override;
  std::string Phase() const override;
  void Observe(uint64_t cycle, const PortValues& out) override;

  enum class PhaseKind { kReset, kLoop, kSweep, kConflict, kKernel, kIdle, kResetPulse };
  // The flags the decoder delivers for the pir at `pc`.
  uint64_t FlagsOf(uint64_t pc) const;

 private:
  bool Chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  int Uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  void PickPhase();
  void NewKernel();
  uint64_t PirPc(int k) const;  // PC of the kernel's k-th pir
  uint64_t LookupPc();

  struct Fill {
    uint64_t due = 0;
    uint64_t pc = 0;
  };
  const ReleaseFlagCacheSpec spec_;
  std::mt19937_64 rng_;
  PhaseKind phase_ = PhaseKind::kReset;
  uint64_t phase_left_ = 2;
  uint64_t cycle_ = 0;
  uint64_t base_ = 0;  // the kernel's first pir PC
  int pirs_ = 1;       // its pirs
  int window_lo_ = 0, window_n_ = 1, walk_ = 0;
  bool flush_pending_ = false;
  bool looked_up_ = false;
  uint64_t lk_pc_ = 0;
  std::deque<Fill> fills_;  // pending decoder fills, by due cycle
};

}  // namespace gpurf
