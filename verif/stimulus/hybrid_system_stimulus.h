// Stimulus for the hybrid register-file system top: compiler-like traffic of one scheduler. Up
// to two instructions per cycle whose sources are RSP slots (the compiler's scratchpad
// allocations) or registers (RC, MRF on a miss), some with the last-use hint; up to two results
// per cycle into slots or registers (RC write-allocate, victims to the MRF); background RSP
// transfers (read-allocation fills and live-outs); dispatch back-pressure, flush requests and
// reset pulses. It is reactive (Observe): it keeps the compiler's and the scoreboard's contract
// (hybrid_system_spec.h): sources name live registers and filled slots, no result or live-out
// writes a register an in-flight instruction or a pending fill reads, no slot is read or written
// while its fill is in progress, and parallel-lifetime gets no transfer.
//
// Phases, after a reset, in a seeded random order (each 64..512 cycles):
//   mixed        everything at moderate rates
//   evictions    results to many registers of a few RC sets (full sets, dirty write-backs, FIFO
//                back-pressure), reads of registers that were evicted (RC misses -> MRF)
//   dual         both instructions every cycle, all sources valid (MRF conflicts, queue full)
//   rsp          RSP sources and results, a transfer offered every cycle
//   dead         last-use reads and re-writes
//   stall        dispatch held most cycles (queue full, issue back-pressure)
//   idle         nothing valid, flush requested (the system drains)
//   reset-pulse  one cycle of reset mid-run
#pragma once

#include <cstdint>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include "gen/structures/hybrid_system/hybrid_system_spec.h"
#include "verif/harness/stimulus.h"

namespace gpurf {

class HybridSystemStimulus : public Stimulus {
 public:
  HybridSystemStimulus(const HybridSystemSpec& spec, uint64_t seed);

  void Next(uint64_t cycle, PortValues& in) override;
  std::string Phase() const override;
  void Observe(uint64_t cycle, const PortValues& out) override;

  enum class PhaseKind {
    kReset,
    kMixed,
    kEvictions,
    kDual,
    kRsp,
    kDead,
    kStall,
    kIdle,
    kResetPulse
  };

 private:
  bool Chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  int Uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  void PickPhase();
  void Clear();
  int Key(int warp, int reg) const { return (warp << spec_.reg_width) | reg; }
  // A register of the phase's pool.
  int PoolKey();
  // A live register of warp `warp` not dead, or -1; a live slot not being filled, or -1.
  int LiveReg(int warp);
  int LiveSlot();

  const HybridSystemSpec spec_;
  std::mt19937_64 rng_;
  PhaseKind phase_ = PhaseKind::kReset;
  uint64_t phase_left_ = 2;
  std::vector<int> focus_;  // focus registers of the evictions phase (keys)

  // The contract's view.
  std::vector<bool> reg_live_;
  std::vector<bool> slot_live_;
  std::vector<int> readers_;                // per key: in-flight instructions reading it
  std::deque<std::vector<int>> in_flight_;  // per issued instruction: keys it reads
  bool fill_pending_ = false;
  int fill_slot_ = -1, fill_key_ = -1;

  // What Next offered this cycle, for Observe.
  bool reset_ = false;
  int n_issue_ = 0;
  std::vector<int> issue_keys_[2];
  std::vector<int> issue_kills_;
  int n_res_ = 0;
  bool res_rsp_[2] = {false, false};
  int res_target_[2] = {-1, -1};  // key or slot, -1 when not offered
  bool xf_offered_ = false, xf_fill_ = false;
  int xf_slot_ = 0, xf_key_ = 0;
  bool disp_ready_ = false;
};

}  // namespace gpurf
