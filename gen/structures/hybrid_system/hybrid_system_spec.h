// Specification of the hybrid register-file system top of one scheduler (Bailey, Kloosterman,
// Mahlke, sections III and IV-D, Fig. 6): the banked MRF (mrf family) behind the register cache
// (RC) and register scratchpad (RSP) of the hybrid-rc family, behind one request interface. The
// generated top instantiates the generated mrf and hybrid-rc modules and adds only the glue
// below. The golden model (models/hybrid_system_model.h) is written from this contract.
//
// Operand addressing is the compiler's (Bailey III-A): every source and destination names either
// an RSP slot (the compiler allocated the value to the scratchpad: never misses) or a register
// (warp, reg) served by the RC and, on a miss, the MRF.
//
// Port contract (TW = tag_width, WW = warp bits, RW = reg_bits, SB = RSP slot bits, DW = width;
// instruction i of a pair uses element i of a packed vector, source s of instruction i is
// operand p = 3i + s; packed fields at [p*X +: X]):
//   clk_i, rst_ni (asynchronous, active low)
//   Issue (up to two instructions per cycle, instruction 0 the older; both are accepted when
//   issue_ready_o; issue_valid_i[1] only with issue_valid_i[0]):
//     issue_valid_i[2], issue_ready_o, issue_tag_i[2*TW], issue_warp_i[2*WW],
//     issue_src_valid_i[6], issue_src_rsp_i[6] (RSP slot issue_src_slot_i[6*SB], else register
//     issue_src_reg_i[6*RW] of the instruction's warp), issue_src_last_i[6] (last read of the
//     value: an RC line holding it dies and is never written back)
//   Dispatch (in program order, up to two per cycle; both lanes leave when disp_ready_i):
//     disp_valid_o[2] (lane 1 only with lane 0), disp_ready_i, disp_tag_o[2*TW],
//     disp_warp_o[2*WW], disp_src_valid_o[6], disp_data_o[6*DW]
//   Results (up to two per cycle, accepted together when res_ready_o; result q goes to write
//   port q of the hybrid-rc, program order 0 then 1):
//     res_valid_i[2], res_ready_o, res_rsp_i[2], res_slot_i[2*SB], res_warp_i[2*WW],
//     res_reg_i[2*RW], res_data_i[2*DW]
//   Transfer (the compiler's RSP boundary crossings, one at a time; accepted when xf_ready_o):
//     xf_valid_i, xf_ready_o, xf_op_i (0 fill: slot <- register, 1 live-out: slot -> register),
//     xf_slot_i[SB], xf_warp_i[WW], xf_reg_i[RW]
//   Flush (warp exit / deschedule drain; completes in the cycle fl_ready_o is high):
//     fl_valid_i, fl_ready_o
//
// Cycle semantics:
//   - Issue in cycle t: issue_ready_o = the instruction queue (queue entries) has two free
//     entries and no write-back stall holds the issue (below). Every valid source reads the
//     hybrid-rc in cycle t (reads see the state at the start of the cycle; an RSP read and an RC
//     hit supply their value at once; rd_last_i kills a hit line). The instruction enters the
//     queue with the values it got.
//   - RC miss (IV-D: one extra cycle): the sources that missed are read from the MRF. The
//     oldest queued instruction with misses not yet sent is issued to the MRF from cycle t+1 on
//     (one per cycle, the fill's read first), with tag = its queue entry; the MRF's dispatch
//     (always taken) returns the values into the entry. So a miss adds the MRF's collector
//     latency behind the cycle of the RC lookup.
//   - Dispatch: the queue's head (and the next entry, lane 1) when every valid source has its
//     value; they leave at the edge where disp_ready_i is high.
//   - Results (cycle t): written into the hybrid-rc (RSP slot, or RC write-allocate). RC victims
//     and transfer write-backs (up to three per cycle) enter the write-back FIFO (wbq entries),
//     which writes the MRF one per cycle (the MRF is write-priority: wb_ready is always 1).
//     res_ready_o = the FIFO holds at most wbq - 3 entries and no MRF read waits for it.
//   - No stale MRF read (RAW through the FIFO): an MRF issue in cycle t needs the FIFO to hold at
//     most one entry at the start of t (that one is written at the edge; the read is granted
//     later and sees it). While an MRF issue waits for the FIFO, results and transfers are held.
//   - Fill: accepted in cycle t (xf_ready_o: no transfer in progress); the register's MRF value
//     is read through the MRF (a one-source MRF issue, tag = queue entries); in the cycle the
//     MRF returns it the top presents the fill to the hybrid-rc, which takes the RC's value if it
//     holds the register, else the MRF's. A write-back of the register seen between the request
//     and that cycle (an eviction) replaces the MRF's value (it is newer). xf_ready_o rises the
//     cycle after the slot was written.
//   - Live-out: presented to the hybrid-rc in its accept cycle (hierarchical: an RC write of the
//     register; parallel-evict: straight to the MRF through the FIFO).
//   - Flush: fl_ready_o = the queue is empty, no transfer is in progress and the write-back
//     FIFO is empty: every value of the exiting warp sits in the RC or the MRF. The warp's dead
//     RC lines are not invalidated (the hybrid-rc has no invalidate port); they are written back
//     when evicted.
// Harness contract (the compiler's and the scoreboard's guarantees; the golden model checks
//   them): a source register was written since reset and not killed by a last read; an RSP
//   source names a slot written or filled (after its fill completed); no result or live-out
//   writes a register or slot a queued instruction or a pending fill still reads (WAR); a
//   result is not for a register or slot read in the same cycle; parallel-lifetime gets no
//   transfer.
#pragma once

#include <string>
#include <vector>

#include "gen/params/param.h"
#include "gen/structures/hybrid_rc/hybrid_rc_spec.h"
#include "gen/structures/mrf/mrf_spec.h"

namespace gpurf {

struct HybridSystemSpec {
  static constexpr int kInstrs = 2;  // instructions per cycle
  static constexpr int kSrcs = 3;    // sources per instruction
  static constexpr int kOps = kInstrs * kSrcs;

  // Parameters.
  int queue = 0;  // instruction-queue entries (power of two, >= 2)
  int wbq = 0;    // write-back FIFO entries (>= 4)
  int width = 0;
  int tag_width = 0;

  // Derived once: the sub-structures.
  HybridRcSpec rc;
  MrfSpec mrf;
  int warps = 0;
  int warp_width = 0;  // = rc.warp_bits
  int reg_width = 0;   // = rc.reg_bits
  int slot_width = 0;  // = rc.slot_bits
  int qidx_width = 0;  // log2 queue
  int mrf_tag_width = 0;
  int wbq_idx_width = 0;
  int wbq_cnt_width = 0;
  std::string kind;  // "hybrid-system"
  std::string config_hash;
  std::string module_name;
  ParamSet params;

  static const std::vector<ParamDesc>& ParamDescs();
  static HybridSystemSpec FromParams(const ParamSet& p);
  std::string Description() const;
};

}  // namespace gpurf
