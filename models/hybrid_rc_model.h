// Golden model of one scheduler's hybrid register cache / register scratchpad (Bailey,
// Kloosterman, Mahlke, sections III-A and IV-D), written from the semantics the spec states
// (gen/structures/hybrid_rc/hybrid_rc_spec.h), not from the RTL.
//
// HybridRc is the structure as the paper describes it: the RSP is a map slot -> value, the RC a
// map register -> value with, per set, the registers it holds in LRU order (no ways: which way
// holds a register is not visible at the ports). Step() applies one cycle (reads, transfer,
// writes) and returns what the ports show. HybridRcCycleModel adapts it to the lockstep harness.
// Both report the first violated invariant or broken contract through failure():
//   I2 every register that leaves the RC is written back, read for the last time or (parallel-
//      evict) superseded by a live-out (checked on every removal);
//   I4 an RSP read or live-out names a slot written or filled since reset; parallel-lifetime
//      gets no transfer; slots are in range.
// I1 (one line per register) and I3 (a fill takes the newest value) hold by construction of the
// maps; the RTL asserts them on its lines.
// Zero-size shapes: without an RSP every RSP access and transfer is an I4 violation (no slot is
// in range); without an RC every RC read misses and an RC write or a live-out is written back at
// once on its channel.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/bits.h"
#include "gen/structures/hybrid_rc/hybrid_rc_ports.h"
#include "gen/structures/hybrid_rc/hybrid_rc_spec.h"
#include "models/cycle_model.h"

namespace gpurf {

class HybridRc {
 public:
  struct Read {
    bool valid = false, rsp = false, last = false;
    int slot = 0, warp = 0, reg = 0;
  };
  struct Write {
    bool valid = false, rsp = false;
    int slot = 0, warp = 0, reg = 0;
    Bits data;
  };
  struct Transfer {
    bool valid = false;
    HybridRcSpec::XfOp op = HybridRcSpec::kFill;
    int slot = 0, warp = 0, reg = 0;
    Bits data;  // fill: the MRF's value
  };
  struct Inputs {
    std::vector<Read> reads;    // kReadPorts
    std::vector<Write> writes;  // kWritePorts
    Transfer xf;
  };
  struct WriteBack {
    bool valid = false;
    int warp = 0, reg = 0;
    Bits data;
  };
  struct Outputs {
    std::vector<bool> hit;         // per read: served (RSP, or RC hit)
    std::vector<Bits> data;        // per read: value (zero when not served)
    std::vector<bool> data_known;  // per read: the value is defined
    bool xf_hit = false;           // the transfer found its register in the RC
    std::vector<WriteBack> wb;     // kWbChannels
  };

  explicit HybridRc(const HybridRcSpec& spec);
  void Reset();
  // One cycle: the outputs it shows, and the state after its rising edge.
  Outputs Step(const Inputs& in);

  // Inspection.
  bool Holds(int warp, int reg) const { return rc_.count(Key(warp, reg)) != 0; }
  const Bits* RcValue(int warp, int reg) const;
  const std::optional<Bits>& RspValue(int slot) const { return rsp_[slot]; }
  // Registers of `set`, most recently used first.
  std::vector<std::pair<int, int>> SetContents(int set) const;
  const std::string& failure() const { return failure_; }

  // Statistics.
  uint64_t rsp_reads = 0, rsp_writes = 0, rc_read_hits = 0, rc_read_misses = 0, rc_writes = 0,
           rc_write_hits = 0, fills = 0, fill_hits = 0, live_outs = 0, write_backs = 0,
           dead_kills = 0, evictions = 0;

 private:
  int Key(int warp, int reg) const { return (warp << spec_.reg_bits) | reg; }
  int SetOfKey(int key) const;
  void Touch(int key);
  // Removes `key` from the RC; `why` names the invariant-I2 reason.
  void Remove(int key);
  // Write-allocate of (warp, reg) = value; the victim, if any, goes on `wb`.
  void RcWrite(int warp, int reg, const Bits& value, WriteBack& wb);
  void Fail(const std::string& what);

  const HybridRcSpec spec_;
  std::vector<std::optional<Bits>> rsp_;  // slot -> value, nullopt until written
  std::map<int, Bits> rc_;                // register key -> value (every value dirty)
  std::vector<std::vector<int>> lru_;     // per set: register keys, MRU first
  std::string failure_;
};

// Port-level model: decodes the ports into HybridRc::Inputs and prints Step()'s outputs.
class HybridRcCycleModel : public CycleModel, public HybridRcPort {
 public:
  explicit HybridRcCycleModel(const HybridRcSpec& spec);

  void Outputs(const PortValues& in, PortValues& out, PortValues& defined) override;
  void Clock(const PortValues& in) override;
  std::string Failure() const override { return rc_.failure(); }

  const HybridRc& rc() const { return rc_; }
  HybridRc::Inputs Decode(const PortValues& in) const;

 private:
  const HybridRcSpec spec_;
  HybridRc rc_;
};

}  // namespace gpurf
