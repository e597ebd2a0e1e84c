// Stimulus for the renaming table: the register traffic of an SM's warps under virtualization.
// It keeps the free physical registers itself (what the availability vectors would hold): a
// destination offers the lowest free id, an id leaves the pool when the table reports it mapped
// (dst_alloc_o) and comes back when a free port reports it, so the contract (an allocation takes
// a free id) holds; when the pool is empty instructions write only exempt registers. N (exempt_i)
// is drawn at every reset: 0, the largest N whose exempt blocks fit (few free ids: the pool runs
// dry), or in between. Operands are exempt or in the renamed window, never outside.
//
// Phases, after a reset, in a seeded random order (each 64..512 cycles):
//   alu          instructions of a few warps: sources (some with pir), a destination
//   conflicts    sources and destination in one bank (distinct registers, and repeats of one)
//   fill         destinations only, over every entry of one warp (a full window; pool dry)
//   release      pbr lists of random registers of a few warps, between instructions
//   exit         warp exits, between instructions
//   stale        reads of registers just released (flagged lookups of invalid mappings)
//   idle         no request
//   reset-pulse  one cycle of reset mid-run (a new N)
#pragma once

#include <cstdint>
#include <random>
#include <set>
#include <string>

#include "gen/structures/renaming_table/renaming_table_spec.h"
#include "verif/harness/stimulus.h"

namespace gpurf {

class RenamingTableStimulus : public Stimulus {
 public:
  RenamingTableStimulus(const RenamingTableSpec& spec, uint64_t seed);

  void Next(uint64_t cycle, PortValues& in) override;
  std::string Phase() const override;
  void Observe(uint64_t cycle, const PortValues& out) override;

  enum class PhaseKind {
    kReset,
    kAlu,
    kConflicts,
    kFill,
    kRelease,
    kExit,
    kStale,
    kIdle,
    kResetPulse
  };
  int exempt() const { return n_; }
  size_t free_ids() const { return pool_.size(); }

 private:
  bool Chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  int Uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  void PickPhase();
  void NewExempt();
  int Limit() const;  // registers used: 0 .. Limit()-1 (exempt and renamed window)
  int AnyReg() { return Uniform(0, Limit() - 1); }
  int RenamedReg() { return n_ + Uniform(0, Limit() - n_ - 1); }
  int RegInBank(int bank);
  int Warp() { return focus_[Uniform(0, static_cast<int>(focus_.size()) - 1)]; }
  void Instruction(PortValues& in);
  void Release(PortValues& in, bool exit);

  const RenamingTableSpec spec_;
  std::mt19937_64 rng_;
  PhaseKind phase_ = PhaseKind::kReset;
  uint64_t phase_left_ = 2;
  int n_ = 0;                // N of this run
  std::set<int> pool_;       // free physical ids
  std::vector<int> focus_;   // the phase's warps
  int fill_next_ = 0;        // fill: next entry of the focus warp
  std::vector<int> recent_;  // registers of recent pir releases (stale reads)
  bool ready_ = true;        // req_ready_o seen last cycle
};

}  // namespace gpurf
