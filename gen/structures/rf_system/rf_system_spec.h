// Specification of the register-file system top level of one lane cluster (Gebhart et al., TOCS
// 2012, sections 2.1, 4 and 5, Figures 5-8): the banked MRF with its operand collectors composed
// with the chosen upper hierarchy, behind one request interface that the SM harness drives.
//
// Hierarchies (parameter `hierarchy`, with `levels` counting the MRF):
//   mrf-only  baseline: the MRF alone (levels 1)
//   hw-rfc    hardware register file cache, 1 level (levels 2: RFC L1) or 2 levels (levels 3:
//             RFC L0 + L1), FIFO or LRU, liveness hints on or off
//   sw-orf    software ORF: L1 (levels 2) or L1 + L0 (levels 3; L0 unified or split per operand
//             slot)
// The generated top instantiates the generated sub-modules (mrf, rfc, orf-l1, orf-l0 and through
// them the flop arrays and SRAM wrappers); it adds only the glue below. One row is width bits:
// one 32-bit register of each lane of the cluster (128 bits for 4 lanes). The clusters of an SM
// run in lockstep, so one cluster is the unit the harness drives.
//
// Port contract (TW = tag_width, WW/RW = warp/register bits of the MRF, SW = max(1, ceil(log2
// active_warps)), EW = max(1, ceil(log2 max(l1_entries, 3))), DW = width, CW = counter_width;
// per operand slot s (A, B, C = 0, 1, 2) of a packed vector at [s*X +: X]; the same ports for
// every hierarchy, fields a hierarchy does not use are ignored):
//   clk_i, rst_ni (asynchronous, active low)
//   Issue (one warp instruction per cycle; accepted when issue_valid_i && issue_ready_o):
//     issue_valid_i, issue_ready_o, issue_tag_i[TW], issue_warp_i[WW], issue_slot_i[SW] (the
//     warp's active slot; hw-rfc, sw-orf), issue_src_valid_i[3], issue_src_reg_i[3*RW],
//     issue_src_level_i[3*2] (sw-orf: 0 MRF, 1 L1, 2 L0), issue_src_entry_i[3*EW] (sw-orf L1
//     entry; an L0 operand reads the unified entry or, split, its own slot's bank),
//     issue_src_dead_i[3] (hw-rfc liveness hint: last read of the value; ignored with hints off)
//   Dispatch (an instruction with all its operands; taken when disp_valid_o && disp_ready_i):
//     disp_valid_o, disp_ready_i, disp_tag_o[TW], disp_warp_o[WW], disp_src_valid_o[3],
//     disp_data_o[3*DW] (every valid operand, from whichever level held it)
//   Result (one per cycle; accepted when res_valid_i && res_ready_o):
//     res_valid_i, res_ready_o, res_warp_i[WW], res_slot_i[SW], res_reg_i[RW], res_data_i[DW],
//     res_mrf_i     mrf-only: ignored (every result goes to the MRF); sw-orf: also write the MRF;
//                   hw-rfc: the warp holds no active slot: write the MRF directly (the RFC is
//                   not consulted; accepted when the RFC has no write-back waiting)
//     res_orf_i, res_orf_l0_i, res_orf_entry_i[EW]   sw-orf: write the ORF, L0 (split: bank
//                   res_orf_entry_i) or L1 entry res_orf_entry_i (of slot res_slot_i)
//     res_long_i, res_no_l0_i   hw-rfc: long-latency result (bypasses the RFC to the MRF,
//                   invalidating a cached copy); with 2 RFC levels: allocate in L1, not L0
//   Deschedule (accepted when fl_valid_i && fl_ready_o; hold fl_valid_i until then):
//     fl_valid_i, fl_ready_o, fl_warp_i[WW], fl_slot_i[SW]
//     mrf-only: fl_ready_o = 1, nothing to do; sw-orf: fl_ready_o = 1, every ORF entry of the
//     slot is invalid after the edge; hw-rfc: the RFC writes every live entry of the slot back
//     to the MRF (warp fl_warp_i), one per cycle; fl_ready_o rises in the cycle the slot is
//     empty and the last write-back is being written, so reads issued after the handshake find
//     every value in the MRF.
//   Counters (registered, wrap modulo 2^CW, cleared by reset, count accepted events of earlier
//     cycles): cnt_mrf_reads_o, cnt_mrf_writes_o, cnt_mrf_conflicts_o, cnt_issue_stalls_o,
//     cnt_mrf_wb_stalls_o (the MRF's own counters); cnt_l1_reads_o, cnt_l0_reads_o (operands
//     served by the level: sw-orf by the request's level, hw-rfc by the hit level);
//     cnt_l1_writes_o, cnt_l0_writes_o (results written into the level; hw-rfc victims moved
//     from L0 to L1 are internal to the RFC and not counted); cnt_tag_checks_o (hw-rfc: one per
//     valid operand lookup and per result written through the RFC), cnt_tag_hits_o (hw-rfc
//     operand hits), cnt_writebacks_o (hw-rfc write-backs to the MRF: evictions, flushes,
//     long-latency bypasses). Counters of absent levels stay zero.
//
// Cycle semantics:
//   - issue_ready_o = the MRF has a free collector. An accepted issue reads its upper-level
//     operands in its own cycle (sw-orf: the ORF level the request names; hw-rfc: an RFC tag
//     check of every valid operand, which hits in any level or misses); those values wait in
//     the top's operand buffer (one entry per collector, indexed by the MRF tag the top assigns:
//     the lowest free entry). The remaining operands (level MRF, or RFC misses) go to the MRF
//     collector and are read there (bank arbitration, conflicts, as in mrf_spec.h). An
//     instruction without MRF operands still passes through a collector (dispatch from t+1).
//   - With registered ORF reads (read_mode reg) the ORF data arrives one cycle after the issue
//     and is captured then; the instruction cannot be dispatched in that cycle.
//   - disp_valid_o = the MRF presents its oldest complete instruction (and, registered reads,
//     its ORF data is captured); disp_data_o takes each operand from the buffer if an upper
//     level supplied it, else from the MRF collector.
//   - hw-rfc: a dead hint on a hit invalidates the entry at the edge (never written back). RFC
//     write-backs name the slot; the top keeps the warp of every slot (updated by each result
//     accepted into the RFC and by each accepted deschedule) to address the MRF.
//   - Reads see the state at the start of their issue cycle: a result is visible to issues from
//     the cycle after it is accepted (MRF reads happen later in the collector, so the harness
//     must not write a register that an in-flight instruction still reads from the MRF, the
//     usual write-after-read rule of an operand collector).
// Harness contract (misuse, reported by assertions and by the golden model): slots < active
//   warps; sw-orf levels and entries that exist and hold a value written since the slot's last
//   deschedule; hw-rfc: after a deschedule request for a slot, no issue or result names that
//   slot or warp until fl_ready_o; res_mrf_i only for warps without a slot.
// Restrictions: hw-rfc needs wb_policy write-priority (a write-back waiting behind a read of its
//   own row would be read stale by that read), comb reads and no bypass (as the rfc kind).
#pragma once

#include <string>
#include <vector>

#include "gen/params/param.h"
#include "gen/structures/mrf/mrf_spec.h"
#include "gen/structures/orf/orf_spec.h"
#include "gen/structures/rfc/rfc_spec.h"

namespace gpurf {

struct RfSystemSpec {
  enum class Hierarchy { kMrfOnly, kHwRfc, kSwOrf };
  static constexpr int kSlots = 3;      // operand slots A, B, C
  static constexpr int kLevelBits = 2;  // issue_src_level_i per slot
  enum SrcLevel { kLevelMrf = 0, kLevelL1 = 1, kLevelL0 = 2 };

  // Parameters.
  Hierarchy hierarchy = Hierarchy::kSwOrf;
  int levels = 0;  // including the MRF
  int l1_entries = 0;
  int l0_entries = 0;  // hw-rfc with 3 levels
  bool l0_split = true;
  bool lru = true;
  bool hints = true;
  int warps = 0;
  int active_warps = 0;
  int width = 0;
  int tag_width = 0;
  int counter_width = 0;

  // Derived once: the sub-structures (fixed shapes, instantiated by the top).
  MrfSpec mrf;
  RfcSpec rfc;     // hw-rfc
  OrfSpec orf_l1;  // sw-orf
  OrfSpec orf_l0;  // sw-orf with 3 levels
  int warp_width = 0;
  int reg_width = 0;
  int slot_width = 0;
  int entry_width = 0;
  int buf_index_width = 0;  // index of an operand-buffer entry = the MRF tag
  std::string kind;         // "rf-system"
  std::string config_hash;
  std::string module_name;  // rf_sys_sw3s_4b_k4_a8_a1b2c3
  ParamSet params;

  static const std::vector<ParamDesc>& ParamDescs();
  static RfSystemSpec FromParams(const ParamSet& p);

  bool hw() const { return hierarchy == Hierarchy::kHwRfc; }
  bool sw() const { return hierarchy == Hierarchy::kSwOrf; }
  bool has_l1() const { return levels >= 2; }
  bool has_l0() const { return levels == 3; }
  bool upper() const { return levels >= 2; }  // some level above the MRF
  bool registered_reads() const { return sw() && orf_l1.registered(); }
  int collectors() const { return mrf.collectors; }
  const char* HierarchyName() const;
  std::string Description() const;  // one line
};

}  // namespace gpurf
