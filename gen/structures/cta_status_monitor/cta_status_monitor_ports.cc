#include "gen/structures/cta_status_monitor/cta_status_monitor_ports.h"

#include "gen/vlog/expr.h"

namespace gpurf {

PortTable CtaStatusMonitorPortTable(const CtaStatusMonitorSpec& s) {
  using P = CtaStatusMonitorPort;
  using vlog::Msb;
  const PortDir in = PortDir::kInput, out = PortDir::kOutput;
  return PortTable({
      ClockPort(P::kClk),
      ResetPort(P::kRstN),
      {P::kStallValid, "stall_valid_i", in, 1, "", 1, "stall_valid",
       "stall event: every warp of a CTA stalled", "stall event"},
      {P::kStallCta, "stall_cta_i", in, s.cta_bits, Msb("CtaBits"), 1, "stall_cta",
       "stall event: the CTA slot", "stalled CTA"},
      {P::kStallLive, "stall_live_i", in, s.count_bits, Msb("CountBits"), 1, "stall_live",
       "stall event: live registers of the stalled CTA", "its live registers"},
      {P::kReady, "ready_i", in, s.ctas, Msb("NumCtas"), s.ctas, "cta_ready",
       "per CTA slot: its warps can issue again", "ready to resume"},
      {P::kFree, "free_i", in, s.count_bits, Msb("CountBits"), 1, "pcrf_free",
       "free PCRF entries (the PCRF's free-space monitor)", "free PCRF entries"},
      {P::kCanLaunch, "can_launch_i", in, 1, "", 1, "can_launch",
       "the kernel has CTAs not yet launched", "CTAs left to launch"},
      {P::kSetValid, "set_valid_i", in, 1, "", 1, "set_valid",
       "field write of the CTA switching logic (launch, finish, context swap)", "field write"},
      {P::kSetCta, "set_cta_i", in, s.cta_bits, Msb("CtaBits"), 1, "set_cta",
       "field write: the CTA slot", "slot written"},
      {P::kSetCtx, "set_ctx_i", in, 2, "1", 1, "set_ctx", "field write: context field (Table IV)",
       "context field"},
      {P::kSetReg, "set_reg_i", in, 2, "1", 1, "set_reg", "field write: register field (Table IV)",
       "register field"},
      {P::kSetLive, "set_live_i", in, s.count_bits, Msb("CountBits"), 1, "set_live",
       "field write: saved live count (kept when the register field is 1)", "saved live count"},
      {P::kQCta, "q_cta_i", in, s.cta_bits, Msb("CtaBits"), 1, "query_cta",
       "query: the CTA slot shown", "slot queried"},
      {P::kDecKind, "dec_kind_o", out, 2, "1", 1, "decision",
       "decision: 0 none, 1 keep, 2 switch, 3 launch", "switch decision"},
      {P::kDecSel, "dec_sel_o", out, s.cta_bits, Msb("CtaBits"), 1, "decision_cta",
       "switch: the pending CTA resumed; launch: the slot of the new CTA", "CTA made active"},
      {P::kDecRestore, "dec_restore_o", out, 1, "", 1, "decision_restore",
       "switch: the resumed CTA's registers come from the PCRF", "PCRF restore needed"},
      {P::kDecAvail, "dec_avail_o", out, s.avail_bits, Msb("AvailBits"), 1, "decision_avail",
       "free PCRF entries plus those the selected CTA frees", "room in the PCRF"},
      {P::kQCtx, "q_ctx_o", out, 2, "1", 1, "query_ctx", "query: context field", "context"},
      {P::kQReg, "q_reg_o", out, 2, "1", 1, "query_reg", "query: register field", "registers"},
      {P::kQLive, "q_live_o", out, s.count_bits, Msb("CountBits"), 1, "query_live",
       "query: saved live count", "saved live count"},
      {P::kActiveCount, "active_count_o", out, s.slot_bits, Msb("SlotBits"), 1, "active_count",
       "CTAs active (both fields 2)", "active CTAs"},
      {P::kPendingCount, "pending_count_o", out, s.slot_bits, Msb("SlotBits"), 1, "pending_count",
       "CTAs launched and not active", "pending CTAs"},
  });
}

}  // namespace gpurf
