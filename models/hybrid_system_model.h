// Golden model of the hybrid register-file system top of one scheduler (Bailey, Kloosterman,
// Mahlke, III and IV-D), written from the contract in
// gen/structures/hybrid_system/hybrid_system_spec.h by COMPOSING the independent golden models of
// its parts, not from the RTL:
//   HybridRc  the RC + RSP as the paper describes them (per register its value and LRU place,
//             per slot its value; models/hybrid_rc_model.h), with its own invariant checks;
//   MrfCore   the banked MRF with its collectors (models/mrf_model.h).
// The system adds what the contract says about the glue: the in-order instruction queue, RC
// misses read through the MRF a cycle after the lookup, the write-back FIFO, the fill engine,
// the flush handshake.
//
// System invariants, checked every cycle against an architectural shadow kept from the accepted
// results and transfers (per (warp, reg) its newest value and whether it is live, per RSP slot
// its newest value); Failure() names the first violation, InjectFault() plants a bug for the
// tests that show each check fires:
//   I1 no stale read: every value the glue takes from a structure (an RSP read or RC hit at
//      issue, an MRF return, a completed fill) is the newest value of that register or slot;
//   I2 a dirty live value is never dropped: after every cycle, for every register the cycle
//      touched, the first structure holding it (RC, then the write-back FIFO's newest entry,
//      then the MRF) holds its newest value;
//   I3 the pipeline never misses in the RSP: an RSP source names a slot holding a value and no
//      fill of it is in progress;
//   I4 every dispatched operand equals the last value written to its register or slot before
//      the instruction issued.
// Harness misuse (reading a register that holds no live value, a write-after-read of a register
// a queued instruction or a fill still reads, a transfer in parallel-lifetime) is reported as a
// contract violation, and the hybrid-rc model's own checks are failures too.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/bits.h"
#include "gen/structures/hybrid_system/hybrid_system_ports.h"
#include "gen/structures/hybrid_system/hybrid_system_spec.h"
#include "models/cycle_model.h"
#include "models/hybrid_rc_model.h"
#include "models/mrf_model.h"

namespace gpurf {

class HybridSystemModel : public CycleModel, public HybridSystemPort {
 public:
  enum class Fault {
    kNone,
    kNoSnoop,         // a fill ignores a write-back of its register seen while it waited (I1)
    kDropWriteBack,   // the write-back FIFO loses channel 1's entry (I2)
    kFillReadyEarly,  // xf_ready_o while a fill is still waiting for the MRF (I3, with the
                      // stimulus reading the slot once the transfer port is ready)
    kSwapOperands,    // dispatch swaps operands A and B (I4)
  };

  explicit HybridSystemModel(const HybridSystemSpec& spec);

  void Outputs(const PortValues& in, PortValues& out, PortValues& defined) override;
  void Clock(const PortValues& in) override;
  std::string Failure() const override;
  void InjectFault(Fault f) { fault_ = f; }

  // Statistics of the run.
  uint64_t issued = 0, dispatched = 0, rc_hits = 0, rc_misses = 0, rsp_reads = 0, fills = 0,
           live_outs = 0, mrf_writes = 0, checked_operands = 0;

 private:
  struct Instr {
    int entry = 0;  // queue entry = the MRF tag
    uint64_t tag = 0;
    int warp = 0;
    std::array<bool, 3> valid{}, have{}, defined{}, missed{};
    std::array<int, 3> reg{};
    std::array<Bits, 3> data, expect;
    bool sent = false;  // no MRF read left to send
  };
  struct Wb {
    int warp = 0, reg = 0;
    Bits data;
  };
  struct Glue {  // what the outputs show this cycle
    bool issue_ready = false, res_ready = false, xf_ready = false, fl_ready = false;
    bool hold = false, want = false;
    int cand = -1;  // index into queue_ of the oldest instruction with an unsent MRF read
    int lanes = 0;  // dispatchable instructions at the head (0..2)
  };
  Glue Evaluate() const;
  int Key(int warp, int reg) const { return (warp << spec_.reg_width) | reg; }
  void Fail(const std::string& what);
  void Contract(const std::string& what) { Fail("harness contract: " + what); }
  void ResetState();
  // I2 for register `key`.
  void CheckHeld(int key);

  const HybridSystemSpec spec_;
  HybridRc rc_;
  MrfCore mrf_;
  std::deque<Instr> queue_;
  int next_entry_ = 0;
  std::deque<Wb> fifo_;
  int fill_state_ = 0;  // 0 idle, 1 MRF read to send, 2 waiting for the value
  int fill_slot_ = 0, fill_warp_ = 0, fill_reg_ = 0;
  std::optional<Bits> snoop_;
  Bits fill_expect_;
  // Architectural shadow.
  std::vector<std::optional<Bits>> reg_sh_;   // newest live value per register key
  std::vector<std::optional<Bits>> slot_sh_;  // newest value per RSP slot
  std::vector<int> readers_;  // per register key: queued MRF reads and pending fills of it
  std::string failure_;
  Fault fault_ = Fault::kNone;
};

}  // namespace gpurf
