// Directed and constrained-random stimulus for the hardware register file cache, through its
// port contract. It behaves like a well-mannered SM pipeline: a result write or a flush request
// is held until the RFC takes it (Observe sees wr_ready_o and fl_busy_o), operands mostly name
// registers recently written to their slot (so lookups hit), slots are always in range.
// Phases (after a reset, each a few hundred cycles, in a seeded random order):
//   random          - every port random at moderate rates, write-back ready 3/4 of the time
//   eviction-chains - one slot, a stream of distinct registers: fills L0/L1 and evicts in a
//                     chain L0 -> L1 -> MRF every cycle
//   flush-dirty     - fill several slots, then flush them back to back while lookups (with dead
//                     hints) and writes (including to the slot being flushed) go on
//   dead-hints      - most lookups carry the liveness hint, interleaved with rewrites
//   long-latency    - half the results are long-latency (bypass, invalidating cached copies)
//   not-for-l0      - (two levels) half the results are marked not for L0
//   same-register   - two or three registers per slot written over and over, L0/L1 copies
//   all-slots       - writes and lookups sweep every slot in turn
//   backpressure    - write-back ready only 1/4 of the time: writes and flushes stall
//   reset-pulse     - a one-cycle reset mid-run
#pragma once

#include <cstdint>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include "gen/structures/rfc/rfc_spec.h"
#include "models/rfc_model.h"
#include "verif/harness/stimulus.h"

namespace gpurf {

class RfcStimulus : public Stimulus {
 public:
  RfcStimulus(const RfcSpec& spec, uint64_t seed);

  void Next(uint64_t cycle, PortValues& in) override;
  std::string Phase() const override;
  void Observe(uint64_t cycle, const PortValues& out) override;

  enum class PhaseKind {
    kReset,
    kRandom,
    kEvictionChains,
    kFlushDirty,
    kDeadHints,
    kLongLatency,
    kNotForL0,
    kSameRegister,
    kAllSlots,
    kBackpressure,
    kResetPulse
  };

 private:
  struct Write {
    int slot = 0, reg = 0;
    Bits data;
    bool long_latency = false, no_l0 = false;
  };
  void PickPhase();
  int Slot();
  int Reg();
  int RecentReg(int slot);
  bool Chance(int num, int den);
  Write MakeWrite();

  const RfcSpec spec_;
  const RfcPorts p_;
  std::mt19937_64 rng_;
  PhaseKind phase_ = PhaseKind::kReset;
  uint64_t phase_left_ = 3;
  int focus_slot_ = 0;
  int next_reg_ = 0;  // eviction chains: registers in sequence
  int sweep_slot_ = 0;
  std::vector<int> hot_regs_;
  std::vector<std::deque<int>> recent_;  // per slot, registers written lately
  // Held requests.
  bool wr_pending_ = false;
  Write wr_;
  bool fl_pending_ = false;
  int fl_slot_ = 0;
  bool in_reset_ = true;
};

}  // namespace gpurf
