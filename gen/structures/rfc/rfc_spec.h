// Specification of the hardware-managed register file cache (RFC) of Gebhart et al., TOCS 2012,
// section 4.1 (allocation, replacement, eviction, liveness hints), 4.3-4.6 (one or two levels,
// not-for-L0 results, long-latency bypass, flush on deschedule) and 7.6 (L0 -> L1 -> MRF).
//
// Organisation. NumSlots active-warp slots; level L1 holds L1Entries entries per slot and, with
// two levels, level L0 (the upper one) holds L0Entries entries per slot. An entry has a tag (the
// architected register id), a valid bit and Width bits of data (one 128-bit row = one register
// of the 4 threads of a lane cluster). Data lives in generated flip-flop arrays (one per level,
// rows = slot * entries + entry, three operand read ports and one write-back read port, one write
// port); tags, valid bits and replacement ages live in flip-flops beside them.
// The paper's RFC allocates only results, never source operands ("RFC Allocation", section 4.1:
// read allocation was explored and rejected), so every valid entry holds a value newer than the
// MRF's copy: valid means dirty, and no separate dirty bit is kept. A value lives in at most one
// level (exclusive hierarchy).
//
// Ports (widths: SB = slot bits = max(1, ceil(log2(NumSlots))), RB = RegBits, W = Width; the
// three operands are packed as operand p at [p*SB +: SB], [p*RB +: RB], [p*W +: W]):
//   clk_i, rst_ni                       clock; asynchronous active-low reset (clears valid bits,
//                                       replacement state, the flush engine and write-back valid)
//   lu_valid_i[3], lu_slot_i[3*SB],     operand lookups (tag check + read) of up to 3 source
//   lu_reg_i[3*RB], lu_last_i[3]        operands per cycle; lu_last_i = liveness hint: this is
//                                       the value's last read
//   lu_hit_o[3], lu_data_o[3*W]         hit per operand, same cycle; data meaningful on a hit
//   lu_l0_o[3]                          (two levels) the hit is in L0
//   wr_valid_i, wr_slot_i, wr_reg_i,    a result to write; wr_long_i: produced by a long-latency
//   wr_data_i, wr_long_i,               operation (bypasses the RFC to the MRF); wr_no_l0_i (two
//   wr_no_l0_i                          levels): needed by the shared units, not cached in L0
//   wr_ready_o                          the write is accepted this cycle (= write-back register
//                                       free: !wb_valid_o || wb_ready_i)
//   fl_valid_i, fl_slot_i               deschedule: write back every live entry of the slot to the
//                                       MRF and free it; accepted when fl_busy_o is low
//   fl_busy_o                           a flush is in progress (registered)
//   fl_done_o                           one-cycle pulse: the flushed slot holds no entry and every
//                                       value it wrote back has been accepted by the MRF
//   wb_valid_o, wb_slot_o, wb_reg_o,    write-back to the MRF (a registered output): evictions
//   wb_data_o, wb_ready_i               from L1, flush write-backs and long-latency bypasses;
//                                       transferred when wb_valid_o && wb_ready_i
//
// One cycle, in this order (all decisions use the state at the start of the cycle, updated by
// the earlier steps):
//  1. Lookups. Operand p hits when an entry of slot lu_slot in any level holds lu_reg; lu_data is
//     that entry's data. LRU replacement: each hit makes its entry the most recent of its level
//     (operands in order 0, 1, 2). A hit with lu_last set invalidates the entry at the edge; its
//     value is dead and never written back.
//  2. The result write (if wr_valid_i && wr_ready_o), into slot S = wr_slot_i, register R:
//     - bypass (wr_long_i, or S is being flushed): any copy of R in S is invalidated (stale) and
//       (S, R, data) is loaded into the write-back register;
//     - otherwise the target level is L0 (two levels, wr_no_l0_i low) or L1; a copy of R in the
//       other level is invalidated (superseded). In the target level, an entry already holding R
//       is overwritten in place; else the lowest-numbered free entry of S is used; else the
//       victim (the oldest entry of S in that level by the replacement ages at the start of the
//       cycle: this cycle's read hits do not save an entry) is replaced: an L0 victim moves into L1
//       by the same rules (its own insertion, in the same cycle; L1 may in turn evict), an L1
//       victim is loaded into the write-back register. The written entry becomes the most recent
//       of its level (FIFO and LRU alike). "Free" counts entries invalidated in step 1 and by
//       this write's own invalidation.
//  3. Flush engine (while fl_busy_o): if slot F = fl_slot has a live entry (lowest-numbered of
//     L0 first, then of L1) and the write-back register is free and not loaded by step 2, and
//     (two levels) step 2 does not read an L0 victim while the flush entry is in L0, the entry is
//     loaded into the write-back register and invalidated. When F holds no entry and the
//     write-back register is free (empty or transferring), fl_done_o pulses and the flush ends.
//     Both decisions look at F after step 1 and before step 2: a write into F is a bypass that
//     takes the write-back register (the engine waits that cycle) and whose invalidation of a
//     stale copy in F counts from the next cycle. A new request is taken when fl_busy_o is low
//     (fl_busy_o rises the next cycle).
//  4. Write-back register: cleared by a transfer, loaded by step 2 or 3 (never while a value
//     waits untransferred).
// Replacement ages: FIFO orders entries by their last write, LRU by their last write or read
// hit. Misuse (reported by assertions): a slot >= NumSlots on a valid lookup, write or flush.
#pragma once

#include <string>
#include <vector>

#include "gen/params/param.h"
#include "gen/structures/flop_array/flop_array_spec.h"

namespace gpurf {

struct RfcSpec {
  enum class Replacement { kFifo, kLru };

  // Parameters.
  int active_warps = 0;  // slots
  int levels = 0;        // 1 (L1 only) or 2 (L0 + L1)
  int l1_entries = 0;
  int l0_entries = 0;  // 0 when levels == 1
  int width = 0;
  int reg_bits = 0;
  Replacement replacement = Replacement::kFifo;
  bool clock_gate = true;

  // Derived once.
  static constexpr int kOperands = 3;
  int slot_bits = 0;  // max(1, ceil(log2(active_warps)))
  FlopArraySpec l1_storage;
  FlopArraySpec l0_storage;  // levels == 2 only
  std::string kind;          // "rfc"
  std::string config_hash;
  std::string module_name;  // rf_rfc_a8_l1x6_128_a1b2c3, rf_rfc_a8_l0x1_l1x6_128_a1b2c3
  ParamSet params;

  static const std::vector<ParamDesc>& ParamDescs();
  static RfcSpec FromParams(const ParamSet& p);

  bool two_levels() const { return levels == 2; }
  bool lru() const { return replacement == Replacement::kLru; }
  int registers() const { return 1 << reg_bits; }
};

}  // namespace gpurf
