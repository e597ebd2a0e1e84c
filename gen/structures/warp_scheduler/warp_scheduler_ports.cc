#include "gen/structures/warp_scheduler/warp_scheduler_ports.h"

#include "gen/vlog/expr.h"

namespace gpurf {

PortTable WarpSchedulerPortTable(const WarpSchedulerSpec& s) {
  using P = WarpSchedulerPort;
  using vlog::Msb;
  const int W = s.warps, A = s.active, ww = s.warp_id_width, sw = s.slot_width;
  return PortTable({
      ClockPort(P::kClk),
      ResetPort(P::kRstN),
      {P::kReady, "ready_i", PortDir::kInput, W, Msb("NumWarps"), W, "warp_ready",
       "per warp: no short-latency hazard", "warp's instruction free of short-latency hazards"},
      {P::kValid, "valid_i", PortDir::kInput, W, Msb("NumWarps"), W, "warp_valid",
       "per warp: decoded instruction buffered", "warp has a decoded instruction"},
      {P::kSuspend, "suspend_i", PortDir::kInput, W, Msb("NumWarps"), W, "warp_suspend",
       "per warp: strand-end bit", "strand end: deschedule after issuing it"},
      {P::kWake, "wake_i", PortDir::kInput, W, Msb("NumWarps"), W, "warp_wake",
       "per warp: long-latency results returned", "long-latency results of the warp returned"},
      {P::kIssueValid, "issue_valid_o", PortDir::kOutput, 1, "", 1, "issue_valid", "a warp issues",
       "a warp issues this cycle"},
      {P::kIssueWarp, "issue_warp_o", PortDir::kOutput, ww, Msb("WarpIdWidth"), 1, "issue_warp",
       "issuing warp", "the issuing warp"},
      {P::kIssueSlot, "issue_slot_o", PortDir::kOutput, sw, Msb("SlotWidth"), 1, "issue_slot",
       "issuing slot", "its active slot"},
      {P::kDeactValid, "deact_valid_o", PortDir::kOutput, 1, "", 1, "deactivate_valid",
       "issuing warp descheduled", "the issuing warp is descheduled at this edge"},
      {P::kDeactWarp, "deact_warp_o", PortDir::kOutput, ww, Msb("WarpIdWidth"), 1,
       "deactivate_warp", "descheduled warp", "descheduled warp"},
      {P::kDeactSlot, "deact_slot_o", PortDir::kOutput, sw, Msb("SlotWidth"), 1, "deactivate_slot",
       "freed slot", "slot it frees"},
      {P::kActValid, "act_valid_o", PortDir::kOutput, A, Msb("NumActive"), A, "activate_valid",
       "per slot: filled at this edge", "slot s is filled at this edge"},
      {P::kActWarp, "act_warp_o", PortDir::kOutput, A * ww, "NumActive*WarpIdWidth-1", A,
       "activate_warp", "per slot: activated warp",
       "warp activated into slot s at [s*WarpIdWidth +: WarpIdWidth]"},
      {P::kSlotValid, "slot_valid_o", PortDir::kOutput, A, Msb("NumActive"), A, "slot_valid",
       "per slot: holds a warp", "slot s holds an active warp"},
      {P::kSlotWarp, "slot_warp_o", PortDir::kOutput, A * ww, "NumActive*WarpIdWidth-1", A,
       "slot_warp", "per slot: warp held", "warp held by slot s at [s*WarpIdWidth +: WarpIdWidth]"},
      {P::kActive, "active_o", PortDir::kOutput, W, Msb("NumWarps"), W, "warp_active",
       "per warp: active", "warp is active"},
      {P::kWaiting, "waiting_o", PortDir::kOutput, W, Msb("NumWarps"), W, "warp_waiting",
       "per warp: suspended", "warp is suspended, waiting for its wake"},
  });
}

}  // namespace gpurf
