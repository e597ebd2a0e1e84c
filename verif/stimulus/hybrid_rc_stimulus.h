// Stimulus for the hybrid register cache / scratchpad: two instructions per cycle (three sources
// on read ports 3i..3i+2 and a destination on write port i each), every operand either an RSP
// slot or an RC register, plus one background RSP transfer. It keeps the compiler's contract:
// RSP reads and live-outs name slots written or filled since the last reset, and the
// parallel-lifetime organization gets no transfer. Registers come from a small pool of warps and
// names concentrated on a few sets, so sets fill, LRU victims are written back, last-use reads
// kill lines and registers come back. Absent ports carry junk in their fields.
//
// Phases, after a reset, in a seeded random order (each 64..512 cycles):
//   mixed        everything at moderate rates
//   evictions    RC writes of many registers of one or two sets (full sets, dirty write-backs)
//   dead         RC reads with the last-use hint (liveness invalidation), writes to bring
//                registers back
//   same-set     both instructions' operands in one set (same-cycle conflicts: LRU order, write 1
//                hitting or evicting after write 0, a read killing a line a write refills)
//   rsp          RSP reads and writes, fills and live-outs every cycle (transfers through or
//                beside the RC, fills of registers the RC holds or was just written)
//   idle         nothing valid
//   reset-pulse  one cycle of reset mid-run
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gen/structures/hybrid_rc/hybrid_rc_spec.h"
#include "verif/harness/stimulus.h"

namespace gpurf {

class HybridRcStimulus : public Stimulus {
 public:
  HybridRcStimulus(const HybridRcSpec& spec, uint64_t seed);

  void Next(uint64_t cycle, PortValues& in) override;
  std::string Phase() const override;

  enum class PhaseKind { kReset, kMixed, kEvictions, kDead, kSameSet, kRsp, kIdle, kResetPulse };
  PhaseKind phase() const { return phase_; }

 private:
  bool Chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  int Uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  void PickPhase();
  // A register of the phase's pool: (warp, reg).
  std::pair<int, int> Register();
  // A slot written since reset, or -1.
  int LiveSlot();
  void RandomData(Bits& b, int lsb);

  const HybridRcSpec spec_;
  std::mt19937_64 rng_;
  PhaseKind phase_ = PhaseKind::kReset;
  uint64_t phase_left_ = 2;
  std::vector<int> focus_sets_;
  std::vector<bool> slot_live_;  // the contract's view: slot written or filled since reset
};

}  // namespace gpurf
