// Specification of the two-level warp scheduler (Gebhart et al., TOCS 2012, section 3): W
// resident warps, of which at most A are active (eligible for issue); the rest are pending.
//
// Port contract (W = warps, A = active slots, WW = max(1, ceil(log2 W)), SW = max(1, ceil(log2
// A))):
//   inputs   clk_i, rst_ni (asynchronous, active low)
//            ready_i[W-1:0]    warp w's buffered instruction has no short-latency hazard this cycle
//                              (scoreboard and function unit free)
//            valid_i[W-1:0]    warp w has a decoded instruction buffered (0: not launched, exited,
//                              or a fetch bubble)
//            suspend_i[W-1:0]  the strand-end bit of warp w's buffered instruction: the next
//                              instruction may depend on a long-latency result, so the warp is
//                              descheduled after issuing this one
//            wake_i[W-1:0]     the long-latency results warp w waits on have returned (an event
//                              or a level; it only has an effect on a suspended warp)
//   outputs  issue_valid_o, issue_warp_o[WW-1:0], issue_slot_o[SW-1:0]   this cycle's selection
//            deact_valid_o, deact_warp_o[WW-1:0], deact_slot_o[SW-1:0]   deactivation at this edge
//            act_valid_o[A-1:0], act_warp_o[A*WW-1:0]                    activation of slot s at
//                                                                        this edge (warp at [s*WW
//                                                                        +: WW])
//            slot_valid_o[A-1:0], slot_warp_o[A*WW-1:0]                  the active set (state)
//            active_o[W-1:0], waiting_o[W-1:0]                           per-warp state
//   Warp/slot fields of an event that is not valid are zero.
//
// Cycle semantics (state: the active set as A slots, each empty or holding one warp; per warp an
// active bit and a waiting (suspended) bit; the last issuing slot; for greedy, a hold bit; the
// outer round-robin pointer):
//  1. Issue. A slot can issue when it holds a warp w with valid_i[w] && ready_i[w]. Suspended
//     warps hold no slot, so they never issue.
//       round-robin: the first issuable slot after the last issuing slot, in rotating order
//                    (last+1, ..., A-1, 0, ..., last);
//       greedy:      the last issuing slot again if it still holds the warp that issued last and
//                    can issue; otherwise the same rotating search as round-robin.
//     The last issuing slot is updated to the selected slot on every issue (unchanged when
//     nothing issues); greedy's hold bit is set by an issue that does not deschedule its warp and
//     cleared by one that does. After reset the last slot is A-1 (the search starts at slot 0).
//  2. Deschedule. If the issuing warp w has suspend_i[w] set, it leaves the active set at this
//     edge: its slot becomes empty, deact_* names warp and slot, and w becomes waiting unless
//     wake_i[w] is set in the same cycle (then it is pending and ready at once). This is the only
//     way a warp leaves the active set; deactivation drives ORF invalidation and RFC flushes.
//  3. Wake. wake_i[w] clears the waiting bit of w at this edge; a wake of a warp that is not
//     waiting has no effect (no credit is kept).
//  4. Activation. A pending warp w is ready when valid_i[w] && !waiting[w]. Every slot that is
//     empty at the start of the cycle is filled at this edge, in ascending slot order, with the
//     next ready pending warp in round-robin order from the outer pointer (pointer, pointer+1, ...,
//     W-1, 0, ...); the pointer then moves past the last warp activated (unchanged if none). A slot
//     emptied by this cycle's deschedule is refilled in the next cycle at the earliest, and a warp
//     activated at this edge issues from the next cycle on.
//  While rst_ni is low nothing issues and no event is signalled; reset empties every slot, clears
//  every waiting bit, sets the last slot to A-1 (greedy: no hold) and the outer pointer to 0.
// A warp that exits issues its last instruction with the suspend bit and stays waiting (valid_i
// low) until the SM launches a new warp in its place and wakes it.
//
// Invariants (RTL assertions under GPURF_ASSERTIONS, and checked by the golden model):
//   I1 never more than A active warps (and the active bits are exactly the warps in the slots,
//      each in one slot);
//   I2 a suspended (waiting) warp never issues;
//   I3 no ready pending warp waits while an active slot is free: after a cycle's activations
//      either no slot that was empty stays empty or no ready pending warp stays pending.
#pragma once

#include <string>
#include <vector>

#include "gen/params/param.h"

namespace gpurf {

struct WarpSchedulerSpec {
  enum class InnerPolicy { kGreedy, kRoundRobin };

  // Parameters.
  int warps = 0;   // W
  int active = 0;  // A
  InnerPolicy policy = InnerPolicy::kRoundRobin;

  // Derived once.
  int warp_id_width = 0;  // max(1, ceil(log2 W))
  int slot_width = 0;     // max(1, ceil(log2 A))
  std::string kind;       // "warp-scheduler"
  std::string config_hash;
  std::string module_name;  // rf_sched_32w8a_rr_a1b2c3
  ParamSet params;

  static const std::vector<ParamDesc>& ParamDescs();
  // Cross-field validation (active <= warps) and derivation; throws InputError.
  static WarpSchedulerSpec FromParams(const ParamSet& p);

  bool greedy() const { return policy == InnerPolicy::kGreedy; }
};

// max(1, ceil(log2(n))): the width of an index into n things.
int IndexWidth(int n);

}  // namespace gpurf
