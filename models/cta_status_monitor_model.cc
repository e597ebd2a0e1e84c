#include "models/cta_status_monitor_model.h"

#include <fmt/format.h>

#include "models/registry.h"

namespace gpurf {

CtaStatusMonitorModel::CtaStatusMonitorModel(const CtaStatusMonitorSpec& spec) : spec_(spec) {
  Reset();
}

void CtaStatusMonitorModel::Reset() {
  ctas_.assign(static_cast<size_t>(spec_.ctas), Cta{});
}

CtaStatusMonitorModel::Decision CtaStatusMonitorModel::Decide(const PortValues& in) const {
  Decision d;
  if (!in[kRstN].bit(0) || !in[kStallValid].bit(0))
    return d;
  const int stalled = static_cast<int>(in[kStallCta].get(0, spec_.cta_bits));
  if (stalled >= spec_.ctas || !ctas_[static_cast<size_t>(stalled)].active())
    return d;
  // The pending CTA to resume: ready, context swapped out; registers still in the ACRF first.
  int pick = -1;
  for (Registers where : {Registers::kAcrf, Registers::kPcrf}) {
    for (int c = 0; c < spec_.ctas && pick < 0; ++c) {
      const Cta& x = ctas_[static_cast<size_t>(c)];
      if (in[kReady].bit(c) && x.context == Context::kSharedMemory && x.registers == where)
        pick = c;
    }
    if (pick >= 0)
      break;
  }
  const bool restore = pick >= 0 && ctas_[static_cast<size_t>(pick)].registers == Registers::kPcrf;
  const int free = static_cast<int>(in[kFree].get(0, spec_.count_bits));
  d.avail = free + (restore ? ctas_[static_cast<size_t>(pick)].saved_live : 0);
  const bool fits = static_cast<int>(in[kStallLive].get(0, spec_.count_bits)) <= d.avail;
  d.kind = CtaDecision::kKeep;
  if (pick >= 0) {
    if (fits) {
      d.kind = CtaDecision::kSwitch;
      d.cta = pick;
      d.restore = restore;
    }
    return d;
  }
  if (!fits || !in[kCanLaunch].bit(0))
    return d;
  for (int c = 0; c < spec_.ctas; ++c) {
    if (ctas_[static_cast<size_t>(c)].context == Context::kNotLaunched) {
      d.kind = CtaDecision::kLaunch;
      d.cta = c;
      break;
    }
  }
  return d;
}

void CtaStatusMonitorModel::Outputs(const PortValues& in, PortValues& out, PortValues& defined) {
  for (int p = kDecKind; p < kNumPorts; ++p) {
    out[p].clear();
    defined[p].fill_ones();
  }
  if (!in[kRstN].bit(0))
    return;
  const Decision d = Decide(in);
  out[kDecKind].set(0, 2, static_cast<uint64_t>(d.kind));
  if (d.kind == CtaDecision::kSwitch || d.kind == CtaDecision::kLaunch)
    out[kDecSel].set(0, spec_.cta_bits, static_cast<uint64_t>(d.cta));
  out[kDecRestore].set_bit(0, d.kind == CtaDecision::kSwitch && d.restore);
  if (d.kind != CtaDecision::kNone)
    out[kDecAvail].set(0, spec_.avail_bits, static_cast<uint64_t>(d.avail));
  const int q = static_cast<int>(in[kQCta].get(0, spec_.cta_bits));
  if (q < spec_.ctas) {
    const Cta& x = ctas_[static_cast<size_t>(q)];
    out[kQCtx].set(0, 2, static_cast<uint64_t>(x.context));
    out[kQReg].set(0, 2, static_cast<uint64_t>(x.registers));
    out[kQLive].set(0, spec_.count_bits, static_cast<uint64_t>(x.saved_live));
  } else {
    defined[kQCtx].clear();  // no such slot: the RTL's read is out of range
    defined[kQReg].clear();
    defined[kQLive].clear();
  }
  int active = 0, pending = 0;
  for (const Cta& x : ctas_) {
    active += x.active() ? 1 : 0;
    pending += !x.active() && x.context != Context::kNotLaunched ? 1 : 0;
  }
  out[kActiveCount].set(0, spec_.slot_bits, static_cast<uint64_t>(active));
  out[kPendingCount].set(0, spec_.slot_bits, static_cast<uint64_t>(pending));
}

void CtaStatusMonitorModel::Clock(const PortValues& in) {
  if (!in[kRstN].bit(0)) {
    Reset();
    return;
  }
  const bool set = in[kSetValid].bit(0);
  const int set_cta = static_cast<int>(in[kSetCta].get(0, spec_.cta_bits));
  const int set_ctx = static_cast<int>(in[kSetCtx].get(0, 2));
  const int set_reg = static_cast<int>(in[kSetReg].get(0, 2));
  const int stall_cta = static_cast<int>(in[kStallCta].get(0, spec_.cta_bits));
  if (set && (set_cta >= spec_.ctas || set_ctx == 3 || set_reg == 3 ||
              (set_ctx == 0) != (set_reg == 0) || (set_ctx == 2 && set_reg != 2))) {
    failure_ = fmt::format("contract: set port writes slot {} context {} registers {}", set_cta,
                           set_ctx, set_reg);
    return;
  }
  if (in[kStallValid].bit(0) && stall_cta >= spec_.ctas) {
    failure_ = fmt::format("contract: stall of CTA {} >= {} slots", stall_cta, spec_.ctas);
    return;
  }
  const Decision d = Decide(in);
  if (d.kind == CtaDecision::kSwitch || d.kind == CtaDecision::kLaunch) {
    // The stalled CTA's context goes to shared memory, its live registers to the PCRF.
    ctas_[static_cast<size_t>(stall_cta)] =
        Cta{Context::kSharedMemory, Registers::kPcrf,
            static_cast<int>(in[kStallLive].get(0, spec_.count_bits))};
    ctas_[static_cast<size_t>(d.cta)] = Cta{Context::kPipeline, Registers::kAcrf, 0};
  }
  if (set) {
    ctas_[static_cast<size_t>(set_cta)] =
        Cta{static_cast<Context>(set_ctx), static_cast<Registers>(set_reg),
            set_reg == 1 ? static_cast<int>(in[kSetLive].get(0, spec_.count_bits)) : 0};
  }
}

GPURF_REGISTER(ModelFamily, cta_status_monitor, "cta-status-monitor",
               ModelFamily{[](const StructureSpec& s) -> std::unique_ptr<CycleModel> {
                 return std::make_unique<CtaStatusMonitorModel>(SpecAs<CtaStatusMonitorSpec>(s));
               }})

}  // namespace gpurf
