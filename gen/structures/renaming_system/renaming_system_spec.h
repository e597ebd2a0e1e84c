// Specification of the register-file system top of GPU register file virtualization (Jeon et al.,
// MICRO 2015, sections 5-8): the banked MRF holding physical registers, composed with the register
// renaming table (7.1), the availability vectors of the free physical registers (7.1, 8.2), the
// release flag cache of the pir metadata (7.2) and the CTA balance counters with their issue
// throttle (8.1), behind one request interface that a warp scheduler drives.
//
// The generated top instantiates the generated sub-modules (mrf, renaming-table,
// availability-vectors, release-flag-cache, cta-throttle); it adds only the glue below.
//
// Physical registers. Wp warps of R architected registers; the kernel's N lowest registers are
// renaming-exempt: register r < N of warp w is the fixed physical register w*N + r. The renamed
// registers N <= r < N+K (K the table's window, from capacity_bytes) are mapped at their first
// write to a physical register of bank r mod B (the compiler's bank) taken from that bank's
// availability vector: vector id a (row a div B of bank a mod B) is physical register Wp*N + a.
// There are Pt = Wp*N + B*Pb physical registers (Pb per bank), rows of the MRF of one warp
// (warps 1, Pt registers, register interleave: physical p sits in bank p mod B, row p div B, so
// Wp*N is a multiple of B and a renamed register stays in its compiler's bank).
// CTA slot c (0..Nc-1) holds warps [c*Wc, (c+1)*Wc), Wc = Wp / Nc.
//
// Port contract (TW tag bits, WB = ceil(log2 Wp), RB = ceil(log2 R), PB = ceil(log2 Pt), DW width,
// G instructions per pir group (payload 3*G bits), GB = ceil(log2 G); slot s of a packed operand
// vector at [s*X +: X]):
//   clk_i, rst_ni (asynchronous, active low)
//   Request (accepted when req_valid_i && req_ready_o; an offer not accepted may be withdrawn or
//   replaced: nothing changes for it), req_op_i:
//     0 instr:   req_tag_i, req_warp_i, req_src_valid_i[3], req_src_reg_i[3*RB], req_dst_valid_i,
//                req_dst_reg_i, and its release flags: req_pir_valid_i (the instruction is covered
//                by a pir), req_pir_pc_i (the pir's PC), req_pir_idx_i (its position in the
//                pir's group): source s is released after this read when bit 3*idx + s of the
//                pir's flags is set.
//     1 release: the pbr list req_rel_mask_i[R] of warp req_warp_i.
//     2 exit:    warp req_warp_i exits: every mapping it holds is released.
//   req_flag_miss_o: an offered instr's pir is not in the flag cache; it waits (req_ready_o low)
//     until the harness fills it (fill_valid_i, fill_pc_i, fill_flags_i: the decoded pir).
//     flush_i empties the flag cache (kernel boundary).
//   Dispatch (taken when disp_valid_o && disp_ready_i): disp_tag_o, disp_warp_o,
//     disp_src_valid_o[3], disp_data_o[3*DW] (each valid source read from the MRF at its physical
//     row), disp_dst_valid_o, disp_dst_phys_o[PB] (the physical register of the destination,
//     which the result names).
//   Result (accepted when res_valid_i && res_ready_o): res_phys_i, res_data_i.
//   CTA launch / finish (the throttle's ports): launch_valid_i, launch_slot_i,
//     launch_need_i[B*NeedBits] (the slot's worst case per bank, plus one: see below);
//     cta_exit_valid_i, cta_exit_slot_i.
//   Status: throttle_o, issue_ok_o[Nc] (the throttle's answer), free_count_o[B*CountBits] (free
//     registers of each availability vector), spare_valid_o[B] (the rename stage holds a free
//     register of bank b), flag_hits_o, flag_misses_o (lookups; one per cycle a pir request is
//     offered), rename_conflicts_o (renaming-table bank-conflict cycles), 32 bits each, wrapping.
//
// Cycle semantics:
//   1. Rename stage (paper 7.1: renaming is one stage before the MRF read). An instr is accepted
//      when the renaming table is idle, the rename stage is free (empty, or its instruction
//      leaves to the MRF in this cycle), its pir hits in the flag cache (if it has one), its CTA
//      may issue (issue_ok_o), and, with a destination, the stage holds a spare free register of
//      the destination's bank and the throttle grants that register to the CTA. release and exit
//      are accepted when the table is idle. The request goes to the renaming table, which answers
//      the sources (physical ids; a released source goes back to its availability vector and to
//      the CTA's balance) and maps the destination at its first write to the spare (the spare
//      is consumed) or keeps its mapping (the register granted by the throttle is returned).
//      Answers arrive over one or more cycles (table bank conflicts); the stage collects them.
//   2. When the table has served every part of the staged instr, it is issued to the MRF (warp
//      0, its physical source ids) if a collector is free; the top keeps its tag, warp and
//      destination in an entry per collector (the MRF tag is the entry index, lowest free).
//   3. The MRF reads the operands (bank arbitration as in mrf_spec.h) and presents the oldest
//      complete instruction on disp_*; results are written to the MRF at res_phys_i.
//   4. Spares: a bank without a spare asks its availability vector for a free register only
//      while no renamed instruction is in the stage or in the MRF. A released physical register
//      is therefore never handed out again while an instruction renamed before its release may
//      still read it (the pir releases at rename, the MRF reads later).
// Harness contract (misuse; reported by RTL assertions and the golden model): instr registers
//   are exempt or renamed (r < N + K); a source has been written since its last release (else the
//   table answers it unmapped: a read of a released mapping); a result is delivered before the
//   next request of its warp that reads or releases its destination, and an instruction reads a
//   register only after the result of its last writer is accepted (the scoreboard), and writes a
//   register only when no instruction that reads it is still undispatched (the collector's
//   write-after-read rule); exempt destinations take no spare and no grant; requests
//   name warps of alive CTAs; launch needs are at most Pb per bank and cover the CTA's renamed
//   registers of the bank plus one (the register the rename stage holds for a destination that
//   is already mapped); a CTA exits after every one of its warps has exited.
//
// System invariants (checked by the golden model; the sub-modules assert their own):
//   S1 no physical register is mapped twice; S2 per bank, free + mapped + spare = Pb;
//   S3 a released mapping is never read before it is rewritten; S4 a throttled CTA never issues;
//   S5 each dispatched operand holds the last value written to its architected register.
#pragma once

#include <string>
#include <vector>

#include "gen/params/param.h"
#include "gen/structures/availability_vectors/availability_vectors_spec.h"
#include "gen/structures/cta_throttle/cta_throttle_spec.h"
#include "gen/structures/mrf/mrf_spec.h"
#include "gen/structures/release_flag_cache/release_flag_cache_spec.h"
#include "gen/structures/renaming_table/renaming_table_spec.h"

namespace gpurf {

struct RenamingSystemSpec {
  enum Op : int { kInstr = 0, kRelease = 1, kExit = 2 };
  static constexpr int kSlots = 3;

  // Parameters.
  int warps = 0;     // Wp
  int regs = 0;      // R
  int exempt = 0;    // N
  int banks = 0;     // B (MRF, availability vectors, throttle)
  int per_bank = 0;  // Pb
  int ctas = 0;      // Nc
  int group = 0;     // G instructions per pir
  int width = 0;
  int tag_width = 0;

  // Derived once: the sub-structures, instantiated by the top.
  MrfSpec mrf;
  RenamingTableSpec table;
  AvailabilityVectorsSpec avail;
  ReleaseFlagCacheSpec flags;
  CtaThrottleSpec throttle;
  int phys_total = 0;   // Pt
  int exempt_base = 0;  // Wp*N: vector id a is physical register exempt_base + a
  int window = 0;       // K
  int warps_per_cta = 0;
  int warp_bits = 0;
  int reg_bits = 0;
  int phys_bits = 0;
  int group_bits = 0;
  int buf_index_width = 0;  // MRF tag = collector entry index
  std::string kind;         // "renaming-system"
  std::string config_hash;
  std::string module_name;  // rf_rensys_8w16r_4b16p_a1b2c3
  ParamSet params;

  static const std::vector<ParamDesc>& ParamDescs();
  static RenamingSystemSpec FromParams(const ParamSet& p);

  int collectors() const { return mrf.collectors; }
  int CtaOf(int warp) const { return warp / warps_per_cta; }
  int BankOfReg(int r) const { return r % banks; }
  bool Renamed(int r) const { return r >= exempt && r < exempt + window && r < regs; }
  int ExemptPhys(int warp, int r) const { return warp * exempt + r; }
  std::string Description() const;  // one line
};

}  // namespace gpurf
