// Constrained-random and directed stimulus for the ORF levels, through the port contract. The
// stimulus keeps its own view of which entries the compiler may read (written since reset and
// since its slot's last invalidation) and enables reads (re_i) only of those, so the legal use
// is covered without misuse; reads it does not enable go anywhere (their data is compared only
// where it is defined). Misuse has its own directed tests.
//
// Phases, after a reset and a sweep that writes every (slot, entry), in a seeded random order:
//   random           writes, enabled reads of live entries, occasional deschedules
//   write-then-read  an entry written in one cycle is read in the same cycle (bypass) or the next
//   deschedule       a slot is invalidated, a new warp writes its entries and reads them back
//   all-entries      enabled reads walk every live (slot, entry) in order
//   collisions       write, read and invalidation of one slot in the same cycle
//   idle             no writes or invalidations; reads continue
//   patterns         all-zero, all-one and walking-one data
//   reset-pulse      one cycle of reset: every entry becomes invalid
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gen/structures/orf/orf_spec.h"
#include "verif/harness/stimulus.h"

namespace gpurf {

class OrfStimulus : public Stimulus {
 public:
  OrfStimulus(const OrfSpec& spec, uint64_t seed);

  void Next(uint64_t cycle, PortValues& in) override;
  std::string Phase() const override;

  enum class PhaseKind {
    kReset,
    kSweep,
    kRandom,
    kWriteThenRead,
    kDeschedule,
    kAllEntries,
    kCollisions,
    kIdle,
    kPatterns,
    kResetPulse
  };

 private:
  bool Chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  int Below(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  void PickPhase();
  bool Valid(int slot, int entry) const {
    return valid_[static_cast<size_t>(slot) * spec_.entries + entry];
  }
  // A random live entry readable by `port`; false when several tries find none.
  bool LiveEntry(int port, int* slot, int* entry);

  const OrfSpec spec_;
  std::mt19937_64 rng_;
  PhaseKind phase_ = PhaseKind::kReset;
  uint64_t phase_left_ = 2;
  std::vector<bool> valid_;  // the compiler's view: (slot, entry) may be read
  int sweep_next_ = 0;
  int walk_next_ = 0;
  int focus_slot_ = 0;
  int last_write_slot_ = -1, last_write_entry_ = 0;
};

}  // namespace gpurf
