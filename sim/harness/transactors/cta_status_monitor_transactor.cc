// The CTA status monitor's transactor in the RTL loop (transactor.h), for the finereg hierarchy
// with a PCRF (finereg_transactions.h; Oh et al., MICRO 2018, sections IV-A, V-B, Table IV):
// the FineReg system's stall decisions and CTA starts, resumes and finishes become the monitor
// RTL's stall events and field writes, one RTL cycle each.
//   - Decision: stall_valid_i with the stalled CTA, its live registers and the free PCRF
//     entries, ready_i with every pending CTA the system has ready to resume (the real candidate
//     set) and can_launch_i when the SM has a waiting CTA. dec_kind_o, dec_sel_o, dec_restore_o
//     and dec_avail_o must be the system's: a switch to a pending CTA (2, dec_sel_o the system's
//     pick among the ready ones, dec_restore_o high, dec_avail_o = free + its saved entries), a
//     start of a waiting CTA (3, dec_sel_o the monitor slot the system starts it in), or keep (1,
//     dec_sel_o 0: no room, or no candidate). After the edge the stalled CTA's fields must be
//     (1, 1) with its live count and the resumed or launched CTA's (2, 2).
//   - Set: the system's starts and resumes when an ACRF place frees (2, 2) and finishes (0, 0).
//   - After every edge active_count_o and pending_count_o must count the system's CTA states.
// CTA numbers are the monitor's slots: the system gives a started CTA the lowest slot not
// launched and resumes the ready pending CTA in the lowest slot, the monitor's own rules, so the
// RTL's fixed-priority pick among several ready CTAs and its launch slot are compared as they
// are (decisions with several ready candidates are counted: status_multi_ready).
// The monitor is generated as the design declares it (the resident CTAs' slots, the PCRF's
// entries); the loop's pcrf and this monitor are in the loop only for switch_target pcrf.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <stdexcept>

#include "base/registry.h"
#include "gen/structures/cta_status_monitor/cta_status_monitor_ports.h"
#include "sim/harness/transactor.h"
#include "sim/harness/transactors/finereg_transactions.h"

namespace gpurf::harness {
namespace {

using P = CtaStatusMonitorPort;

class CtaStatusMonitorTransactor : public RtlTransactor {
 public:
  CtaStatusMonitorTransactor(const RtlStructure& s, RtlDut dut, RtlLoopContext& ctx)
      : RtlTransactor(std::move(dut), ctx), spec_(SpecAs<CtaStatusMonitorSpec>(s.spec)) {}

  bool Transaction(const StructureTransaction& t) override {
    if (const auto* d = t.As<CsmDecision>()) {
      Decision(*d);
    } else if (const auto* s = t.As<CsmSet>()) {
      Set(*s);
    } else {
      return false;
    }
    return true;
  }

 private:
  std::string Where() const { return ctx_.Where(ctx_.warp(), ctx_.inst()); }

  void Start(RtlDut& r) { r.IdleOutOfReset(P::kRstN); }

  void CheckSlot(RtlDut& r, int cta, const char* what) {
    if (cta < 0 || cta >= spec_.ctas)
      ctx_.Fail(r, fmt::format("{}: {} of CTA slot {}, the monitor has slots 0..{}", Where(), what,
                               cta, spec_.ctas - 1));
  }

  uint64_t Count(int n) const {
    const uint64_t max = (1ULL << spec_.count_bits) - 1;
    return std::min<uint64_t>(static_cast<uint64_t>(std::max(0, n)), max);
  }

  void DriveSet(RtlDut& r, int cta, int ctx, int reg, int live) {
    r.in[P::kSetValid] = Bits(1, 1);
    r.in[P::kSetCta].set(0, spec_.cta_bits, static_cast<uint64_t>(cta));
    r.in[P::kSetCtx].set(0, 2, static_cast<uint64_t>(ctx));
    r.in[P::kSetReg].set(0, 2, static_cast<uint64_t>(reg));
    r.in[P::kSetLive].set(0, spec_.count_bits, Count(live));
  }

  // After an edge: slot `cta`'s fields and the counts must be the system's.
  void CheckFields(RtlDut& r, int cta, int ctx, int reg, int live, const std::string& what) {
    Start(r);
    r.in[P::kQCta].set(0, spec_.cta_bits, static_cast<uint64_t>(cta));
    ctx_.Eval(r);
    const int qc = static_cast<int>(r.out[P::kQCtx].get(0, 2));
    const int qr = static_cast<int>(r.out[P::kQReg].get(0, 2));
    const int ql = static_cast<int>(r.out[P::kQLive].get(0, spec_.count_bits));
    if (qc != ctx || qr != reg || ql != live)
      ctx_.Fail(r, fmt::format("{}: after the {}: CTA slot {} has context {} register {} live {}, "
                               "the system's CTA is at context {} register {} live {}",
                               Where(), what, cta, qc, qr, ql, ctx, reg, live));
  }

  void CheckCounts(RtlDut& r, const CsmCounts& n, const std::string& what) {
    Start(r);
    ctx_.Eval(r);
    const int a = static_cast<int>(r.out[P::kActiveCount].get(0, spec_.slot_bits));
    const int p = static_cast<int>(r.out[P::kPendingCount].get(0, spec_.slot_bits));
    if (a != n.active || p != n.pending)
      ctx_.Fail(r, fmt::format("{}: after the {}: active_count_o {} pending_count_o {}, the "
                               "system has {} CTAs active and {} pending",
                               Where(), what, a, p, n.active, n.pending));
  }

  void Set(const CsmSet& s) {
    RtlDut& r = dut_;
    CheckSlot(r, s.cta, "field write");
    const std::string what =
        fmt::format("{} of CTA slot {}", s.ctx == 0 ? "finish" : "start or resume", s.cta);
    Start(r);
    DriveSet(r, s.cta, s.ctx, s.reg, 0);
    ctx_.Eval(r);
    ctx_.Clock(r);
    CheckFields(r, s.cta, s.ctx, s.reg, 0, what);
    CheckCounts(r, s.after, what);
  }

  void Decision(const CsmDecision& d) {
    RtlDut& r = dut_;
    CheckSlot(r, d.stall_cta, "stall decision");
    const bool launch = d.cand >= 0 && !d.cand_pending;
    if (d.cand >= 0)
      CheckSlot(r, d.cand, "candidate");
    const std::string what = fmt::format(
        "stall of CTA slot {} ({} live registers, {} free, ready "
        "CTA slots [{}])",
        d.stall_cta, d.live, d.free, fmt::join(d.ready, ", "));
    Start(r);
    r.in[P::kStallValid] = Bits(1, 1);
    r.in[P::kStallCta].set(0, spec_.cta_bits, static_cast<uint64_t>(d.stall_cta));
    r.in[P::kStallLive].set(0, spec_.count_bits, Count(d.live));
    r.in[P::kFree].set(0, spec_.count_bits, Count(d.free));
    for (const int c : d.ready) {
      CheckSlot(r, c, "ready CTA");
      r.in[P::kReady].set_bit(c, true);
    }
    r.in[P::kCanLaunch] = Bits(1, d.can_launch ? 1 : 0);
    ctx_.Eval(r);
    const int kind = static_cast<int>(r.out[P::kDecKind].get(0, 2));
    const int want = !d.switched ? static_cast<int>(CtaDecision::kKeep)
                     : launch    ? static_cast<int>(CtaDecision::kLaunch)
                                 : static_cast<int>(CtaDecision::kSwitch);
    const int sel = static_cast<int>(r.out[P::kDecSel].get(0, spec_.cta_bits));
    const int avail = static_cast<int>(r.out[P::kDecAvail].get(0, spec_.avail_bits));
    const int want_avail = d.free + (d.cand_pending ? d.cand_saved : 0);
    if (kind != want)
      ctx_.Fail(r, fmt::format("{}: {}: dec_kind_o is {}, the system {} (candidate {})", Where(),
                               what, kind,
                               !d.switched ? "keeps the stalled CTA"
                               : launch    ? "starts a waiting CTA (a launch)"
                                           : "switches to a pending CTA",
                               d.cand < 0 ? std::string("none")
                                          : fmt::format("CTA slot {}, {}", d.cand,
                                                        d.cand_pending ? "pending" : "waiting")));
    if (avail != want_avail)
      ctx_.Fail(r, fmt::format("{}: {}: dec_avail_o is {}, the system counts {} PCRF entries of "
                               "room",
                               Where(), what, avail, want_avail));
    const int want_sel = d.switched ? d.cand : 0;
    const bool restore = r.out[P::kDecRestore].bit(0);
    const bool want_restore = d.switched && d.cand_pending;
    if (sel != want_sel || restore != want_restore)
      ctx_.Fail(
          r,
          fmt::format("{}: {}: dec_sel_o {} dec_restore_o {}, the system {}", Where(), what, sel,
                      restore ? 1 : 0,
                      !d.switched ? "keeps the stalled CTA (dec_sel_o 0, no restore)"
                      : launch ? fmt::format("starts a waiting CTA in slot {} (no restore)", d.cand)
                               : fmt::format("resumes CTA slot {} from the PCRF", d.cand)));
    ctx_.Clock(r);
    if (d.switched) {
      CheckFields(r, d.stall_cta, 1, 1, d.live, what);
      CheckFields(r, d.cand, 2, 2, 0, what);
    } else {
      CheckFields(r, d.stall_cta, 2, 2, 0, what);
    }
    CheckCounts(r, d.after, what);
    ++ctx_.activity().status_decisions;
    if (d.ready.size() > 1)
      ++ctx_.activity().status_multi_ready;
  }

  CtaStatusMonitorSpec spec_;
};

}  // namespace

GPURF_REGISTER(RtlTransactorKind, cta_status_monitor, "cta-status-monitor",
               (RtlTransactorKind{
                   .register_home = false,
                   .warp_slots = [](const StructureSpec&) { return 0; },
                   .kernel_problem = nullptr,
                   .make = [](const RtlStructure& s, RtlDut dut,
                              RtlLoopContext& ctx) -> std::unique_ptr<RtlTransactor> {
                     return std::make_unique<CtaStatusMonitorTransactor>(s, std::move(dut), ctx);
                   },
               }))

}  // namespace gpurf::harness
