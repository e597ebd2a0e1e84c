// Specification of the software-managed operand register file (ORF) levels of Gebhart et al.,
// TOCS 2012, sections 4.2-4.6: an L1 ORF of `entries_per_thread` entries per thread and an L0
// ORF of one entry per thread, unified or split into three single-entry banks, one per operand
// slot (A, B, C). Both hold entries only for the active warps: an entry is addressed by (active
// slot, entry), as the instruction names it (the register namespace is partitioned, so there are
// no tags). Rows are 128 bits, one 32-bit register of each lane of a lane cluster; storage is the
// generated flip-flop array (flop_array_spec.h), instantiated, not re-implemented.
//
// Two structure kinds, orf-l1 and orf-l0, share this one spec, generator, golden model and
// stimulus: the contract is the same, only the parameters differ (L1: entries per thread; L0:
// unified or split), so every flag combination of either kind is a legal design.
//
// Port contract (A = active_warps, N = entries per thread in the namespace: L1 N =
// entries_per_thread, L0 unified N = 1, L0 split N = 3 (entry b = bank of operand slot b),
// SW = max(1, ceil(log2 A)), EW = max(1, ceil(log2 N)), DW = width; read port p = operand slot
// A, B, C for p = 0, 1, 2 at bits [p*SW +: SW], [p*EW +: EW], [p*DW +: DW]):
//   clk_i, rst_ni
//   we_i, wslot_i[SW-1:0], wentry_i[EW-1:0], wdata_i[DW-1:0]       one result write per cycle
//   re_i[2:0], rslot_i[3*SW-1:0], rentry_i[3*EW-1:0], rdata_o[3*DW-1:0]   operand reads
//   inv_i, inv_slot_i[SW-1:0]        the scheduler descheduled the warp of this slot
// Semantics:
//   - storage is that of the flop array (read mode, bypass and clock gating as configured): a
//     write takes effect at the rising edge; combinational reads return the entry before the
//     edge (with bypass: this cycle's write data if it writes the entry); registered reads
//     return it one cycle later (reset value 0). Split L0: a write goes to bank wentry_i; read
//     port p always reads bank p (rentry_i of port p must be p when re_i[p] is set).
//   - validity (the compiler's contract, tracked for checking, not stored in hardware: the
//     paper's ORF has no valid bits): every entry is invalid after reset; a write makes its entry
//     valid; inv_i makes every entry of slot inv_slot_i invalid at the edge, also one written in
//     the same cycle. A read sees the validity before the edge, or with bypass the entry of a
//     same-cycle write as valid.
//   - reading an invalid entry with re_i[p] set is a misuse: an assertion reports it and the
//     data is undefined. Without re_i[p] the port still shows the addressed entry (defined when
//     it is valid). Out-of-range slots and entries, and a split read of another bank, are
//     misuse too.
#pragma once

#include <string>
#include <vector>

#include "gen/params/param.h"
#include "gen/structures/flop_array/flop_array_spec.h"

namespace gpurf {

struct OrfSpec {
  enum class Level { kL0, kL1 };
  static constexpr int kReadPorts = 3;  // operand slots A, B, C

  // Parameters.
  Level level = Level::kL1;
  int entries_per_thread = 1;  // L1: 1..8; L0: 1
  int active_warps = 0;        // A
  int width = 0;               // bits per row
  bool split = false;          // L0 only: one single-entry bank per operand slot

  // Derived once.
  int entries = 0;        // N: entry names per thread (split L0: 3, one per bank)
  int banks = 0;          // flop arrays: 3 for a split L0, else 1
  int slot_width = 0;     // SW
  int entry_width = 0;    // EW
  FlopArraySpec storage;  // one bank: A x entries_per_thread rows, 3R1W (split: A rows, 1R1W)
  std::string kind;       // "orf-l1" or "orf-l0"
  std::string config_hash;
  std::string module_name;  // rf_orf_l1_3e8a_128_a1b2c3, rf_orf_l0s_8a_128_..., rf_orf_l0u_...
  ParamSet params;

  static const std::vector<ParamDesc>& L1ParamDescs();
  static const std::vector<ParamDesc>& L0ParamDescs();
  // Validation and derivation; throw InputError.
  static OrfSpec FromL1Params(const ParamSet& p);
  static OrfSpec FromL0Params(const ParamSet& p);

  bool registered() const { return storage.registered(); }
  bool bypass() const { return storage.bypass; }
};

}  // namespace gpurf
