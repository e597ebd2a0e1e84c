// Specification of the FineReg register-file system top (Oh et al., MICRO 2018, sections IV-V,
// Figs. 9-11): the active CTA register file (ACRF: the banked MRF, mrf family) and the
// pending-CTA register file (PCRF with its pointer table and free-space monitor, pcrf family)
// behind one request interface, with the register management unit (RMU) that moves the live
// registers of a switched-out CTA between them through one row-wide (FineReg: 128-byte) buffer.
// The generated top instantiates the generated mrf and pcrf modules and adds only the RMU. The
// golden model (models/finereg_system_model.h) is written from this contract.
//
// A CTA has CtaWarps warps of Regs registers each; its warps sit in the ACRF at warp slots
// base .. base + CtaWarps - 1 (the base is given with every command). Its live-register vector
// has one bit per (warp w, register r) at bit w * Regs + r (the compiler's per-warp vectors at
// the stall PCs, side by side; the live-register vector cache delivers them).
//
// Port contract (TW = tag_width, WW = ACRF warp bits, RW = register bits, CB = CTA slot bits,
// DW = 8 * row_bytes, NB = PCRF count bits, L = CtaWarps * Regs):
//   clk_i, rst_ni (asynchronous, active low)
//   ACRF pipeline interface: the MRF's issue / write-back / dispatch ports with its semantics
//   (gen/structures/mrf/mrf_spec.h), shared with the RMU:
//     issue_valid_i, issue_ready_o, issue_tag_i[TW], issue_warp_i[WW], issue_src_valid_i[3],
//     issue_src_reg_i[3*RW]; wb_valid_i, wb_ready_o, wb_warp_i[WW], wb_reg_i[RW], wb_data_i[DW];
//     disp_valid_o, disp_ready_i, disp_tag_o[TW], disp_warp_o[WW], disp_src_valid_o[3],
//     disp_data_o[3*DW]
//   Save (switch a CTA out): sv_valid_i, sv_ready_o, sv_cta_i[CB] (the pending CTA slot of the
//     pointer table), sv_base_i[WW], sv_live_i[L]
//   Restore (switch a pending CTA in): rs_valid_i, rs_ready_o, rs_cta_i[CB], rs_base_i[WW] (the
//     ACRF warp slots the CTA's registers are written to), rs_count_o[NB] (the pointer table's
//     live count of CTA rs_cta_i: the registers a restore of it moves)
//   Status: busy_o (an RMU operation is in progress), free_count_o[NB] (free PCRF entries)
//
// Cycle semantics (outputs of cycle t, then the rising edge that ends it):
//   - The RMU runs one operation at a time. sv_ready_o = no operation in progress; rs_ready_o =
//     no operation in progress, no save offered (a save offered in the same cycle wins) and the
//     PCRF walker idle. An operation with nothing to move (a save with an all-zero vector, a
//     restore of a CTA whose count is 0) completes at its acceptance edge.
//   - Save engine: the live registers in vector order (lowest bit first), one at a time: (a)
//     an ACRF read of (base + w, r) is offered on the MRF's issue port (one source, slot A, tag
//     with its top bit set); in that cycle issue_ready_o is 0 and the pipeline's instruction
//     waits; (b) when the MRF dispatches that read (the RMU always takes it; the pipeline's
//     disp_valid_o stays low while the MRF presents it) the row goes into the buffer; (c) from
//     the next cycle an append of (cta, w, r, buffer) is offered to the PCRF until it is
//     accepted; the next register's read is offered in the cycle after the append.
//   - Restore engine: the PCRF walks the CTA's chain (the pcrf's walk, hop_cycles per entry);
//     a returned register is taken into the buffer when the buffer is empty, and the buffer is
//     written to the ACRF at (base + warp, reg) through the MRF's write-back port from the next
//     cycle (wb_ready_o is 0 while the RMU writes). The operation ends at the edge where the
//     last register is written.
//   - While rst_ni is low nothing is accepted and the RMU, the MRF's collectors and the PCRF are
//     emptied (the ACRF banks keep their values).
// Harness contract (the CTA status monitor's and the scheduler's guarantees; the golden model
// checks them):
//   C1 base + CtaWarps <= warps for every accepted command;
//   C2 a save names a CTA slot whose count is 0, and its live registers fit in the free entries;
//      each live register was written since power-up;
//   C3 while an RMU operation is in progress, the pipeline neither issues an instruction of nor
//      writes a register of a warp of the CTA being moved, and a restore is accepted only when
//      no pipeline instruction of its warps is in flight;
//   C4 no write to a register an accepted, not yet dispatched instruction reads (WAR), including
//      the cycle it is issued in.
// System invariants (RTL assertions under GPURF_ASSERTIONS, the golden model's own checks):
//   S1 a restored register holds exactly the value saved: the ACRF reads it back equal to the
//      value it held when it was saved;
//   S2 free count + occupied entries = entries;
//   S3 every chain is acyclic and ends in an entry with the end bit: a restore meets the end bit
//      exactly at its last register;
//   S4 every live register of a pending CTA is reachable exactly once from its head;
//   S5 no entry is on two chains.
#pragma once

#include <string>
#include <vector>

#include "gen/params/param.h"
#include "gen/structures/mrf/mrf_spec.h"
#include "gen/structures/pcrf/pcrf_spec.h"

namespace gpurf {

struct FineregSystemSpec {
  // Parameters.
  int warps = 0;      // ACRF warp slots
  int cta_warps = 0;  // warps per CTA (power of two)
  int regs = 0;       // registers per thread (power of two)
  int tag_width = 0;  // pipeline instruction tag

  // Derived once: the sub-structures.
  MrfSpec mrf;
  PcrfSpec pcrf;
  int data_width = 0;     // 8 * row_bytes: one warp register, one ACRF row, one PCRF row
  int warp_width = 0;     // ACRF warp bits (= mrf.warp_width)
  int reg_width = 0;      // register bits (= mrf.reg_width = pcrf.reg_bits)
  int cwarp_width = 0;    // warp-in-CTA bits (= pcrf.warp_bits)
  int live_bits = 0;      // L = cta_warps * regs
  int live_idx_bits = 0;  // bits of a vector index
  std::string kind;       // "finereg-system"
  std::string config_hash;
  std::string module_name;
  ParamSet params;

  static const std::vector<ParamDesc>& ParamDescs();
  static FineregSystemSpec FromParams(const ParamSet& p);
  std::string Description() const;
};

}  // namespace gpurf
