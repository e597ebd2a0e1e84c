// Golden model of the software-managed operand register file levels (L1, L0 unified or split)
// of Gebhart et al., TOCS 2012, sections 4.2-4.6, written from the semantics in
// gen/structures/orf/orf_spec.h, not from the RTL.
//
// OperandRegisterFile is the library component the SM harness and the system model use: a
// (slot, entry) -> row store without tags, where slot is the warp's active slot and entry the
// operand name's entry (split L0: the operand slot's bank), with the compiler's validity
// contract: an entry is valid from its write until its slot is invalidated (the warp was
// descheduled) or reset. Reading an invalid entry is a misuse: the data is undefined (Value.valid
// false) and the model counts it and keeps the first description.
//
// Two views: untimed (Write / Invalidate / Peek) for a functional harness, and cycle-level
// (ReadPorts before the edge, Clock at the edge) with the storage timing of the flop array (read
// mode and bypass). OrfCycleModel adapts the cycle-level view to the lockstep harness.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "base/bits.h"
#include "gen/structures/orf/orf_ports.h"
#include "gen/structures/orf/orf_spec.h"
#include "models/cycle_model.h"

namespace gpurf {

class OperandRegisterFile {
 public:
  static constexpr int kPorts = OrfSpec::kReadPorts;  // operand slots A, B, C

  struct Value {
    Bits data;
    bool valid = false;  // false: undefined (never written, invalidated, or misuse)
  };
  struct ReadReq {
    bool enable = false;  // the operand is read from this level (misuse checks apply)
    int slot = 0;
    int entry = 0;  // split L0: must equal the port
  };
  // Everything one cycle asks of the ORF.
  struct CycleReq {
    std::array<ReadReq, kPorts> reads;
    bool write = false;
    int write_slot = 0;
    int write_entry = 0;
    Bits write_data;
    bool invalidate = false;
    int invalidate_slot = 0;
  };

  explicit OperandRegisterFile(const OrfSpec& spec);

  // ---- untimed view
  void Write(int slot, int entry, const Bits& data);
  void Invalidate(int slot);  // every entry of the slot
  Value Peek(int slot, int entry) const;
  bool IsValid(int slot, int entry) const;

  // ---- cycle view
  // Read data of every port as the outputs show it before this cycle's edge.
  std::array<Value, kPorts> ReadPorts(const CycleReq& req) const;
  // The rising edge: registered reads capture, misuse checks of enabled reads, the write, the
  // invalidation (which wins over a same-cycle write to its slot).
  void Clock(const CycleReq& req);
  // Asynchronous reset: every entry invalid, read registers zero; storage keeps its bits.
  void Reset();

  const OrfSpec& spec() const { return spec_; }
  uint64_t misuses() const { return misuses_; }
  const std::string& first_misuse() const { return first_misuse_; }
  uint64_t reads() const { return reads_; }    // enabled reads
  uint64_t writes() const { return writes_; }  // writes in range
  uint64_t invalidations() const { return invalidations_; }

 private:
  // The row a port reads, before the edge (with bypass: after this cycle's write).
  Value Lookup(int port, const ReadReq& r, const CycleReq& req) const;
  bool InRange(int slot, int entry) const {
    return slot >= 0 && slot < spec_.active_warps && entry >= 0 && entry < spec_.entries;
  }
  size_t Index(int slot, int entry) const {
    return static_cast<size_t>(slot) * spec_.entries + entry;
  }
  void Misuse(const std::string& what);

  OrfSpec spec_;
  std::vector<Bits> data_;
  std::vector<bool> valid_;
  std::array<Value, kPorts> read_reg_;  // registered read mode
  uint64_t misuses_ = 0, reads_ = 0, writes_ = 0, invalidations_ = 0;
  std::string first_misuse_;
};

// Port-level adapter (ports indexed by the port table's handles, OrfPort in orf_ports.h). rdata_o
// of a port is defined when the entry it shows is valid.
class OrfCycleModel : public CycleModel, public OrfPort {
 public:
  explicit OrfCycleModel(const OrfSpec& spec);

  void Outputs(const PortValues& in, PortValues& out, PortValues& defined) override;
  void Clock(const PortValues& in) override;

  const OperandRegisterFile& orf() const { return orf_; }
  OperandRegisterFile::CycleReq RequestOf(const PortValues& in) const;

 private:
  OperandRegisterFile orf_;
};

}  // namespace gpurf
