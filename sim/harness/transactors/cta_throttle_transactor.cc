// The CTA throttle's transactor in the RTL loop (transactor.h), for the renaming hierarchy
// (renaming_transactions.h; Jeon et al., MICRO 2015, section 8.1): the renaming system's CTA
// launches and exits, its register mappings (with the register a full bank spilled, in spill
// mode) and releases per CTA and bank become the throttle RTL's requests, one RTL cycle each;
// after each edge the RTL's reserved CTA, free count per bank, spill mode and throttle must be
// the system's. The scheduler's issue checks and the allocation checks of an instruction's new
// registers are offered without an edge: the RTL's issue_ok_o / throttle_o and alloc_grant_o
// must answer what the system answered. A mapping must be granted (the system made it), with
// spill_o saying exactly the one register the system spilled in that bank.
//
// The structure is declared with the paper's 8 CTA slots; the loop generates it for the SM's
// resident CTAs (RtlPartitionSpec below).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <stdexcept>

#include "base/registry.h"
#include "gen/structures/cta_throttle/cta_throttle_ports.h"
#include "sim/harness/transactor.h"
#include "sim/harness/transactors/renaming_transactions.h"

namespace gpurf::harness {
namespace {

using P = CtaThrottlePort;

// The throttle for the SM's resident CTAs (at least the family's 2 slots).
StructureSpec ForSm(const StructureSpec& s, const sim::SmConfig& sm) {
  const CtaThrottleSpec& c = SpecAs<CtaThrottleSpec>(s);
  const int slots = std::max(2, sm.cta_slots);
  if (slots == c.slots)
    return s;
  ParamSet p = c.params;
  p.Set("slots", std::to_string(slots), p.Get("slots").loc, "sm.cta_slots (resident CTAs)");
  return CtaThrottleSpec::FromParams(p);
}

class CtaThrottleTransactor : public RtlTransactor {
 public:
  CtaThrottleTransactor(const RtlStructure& s, RtlDut dut, RtlLoopContext& ctx)
      : RtlTransactor(std::move(dut), ctx), spec_(SpecAs<CtaThrottleSpec>(s.spec)) {}

  bool Transaction(const StructureTransaction& t) override {
    if (const auto* c = t.As<CtIssueCheck>()) {
      IssueCheck(*c);
    } else if (const auto* a = t.As<CtAllocCheck>()) {
      AllocCheck(*a);
    } else if (const auto* m = t.As<CtMap>()) {
      Map(*m);
    } else if (const auto* r = t.As<CtRelease>()) {
      Release(*r);
    } else if (const auto* l = t.As<CtLaunch>()) {
      Launch(*l);
    } else if (const auto* e = t.As<CtExit>()) {
      Exit(*e);
    } else {
      return false;
    }
    return true;
  }

 private:
  void CheckSlot(RtlDut& r, int slot, const char* what) {
    if (slot < 0 || slot >= spec_.slots)
      ctx_.Fail(r, fmt::format("{}: {} of CTA slot {}, the structure has slots 0..{}", ctx_.Where(),
                               what, slot, spec_.slots - 1));
  }
  void CheckBank(RtlDut& r, int bank, const char* what) {
    if (bank < 0 || bank >= spec_.banks)
      ctx_.Fail(r, fmt::format("{}: {} in bank {}, the structure has banks 0..{}", ctx_.Where(),
                               what, bank, spec_.banks - 1));
  }

  // The edge of the request on the inputs; then the RTL's state must be the system's.
  void Edge(RtlDut& r, const CtState& after, const std::string& what) {
    ctx_.Eval(r);
    ctx_.Clock(r);
    CheckState(r, after, what);
  }

  // After an edge: the RTL's state must be the system's.
  void CheckState(RtlDut& r, const CtState& s, const std::string& what) {
    r.IdleOutOfReset(P::kRstN);
    ctx_.Eval(r);
    const bool valid = r.out[P::kReservedValid].bit(0);
    const int res = valid ? static_cast<int>(r.out[P::kReserved].get(0, spec_.slot_bits)) : -1;
    if (res != s.reserved)
      ctx_.Fail(r, fmt::format("{}: after the {}: reserved_o is {}, the system reserves {}",
                               ctx_.Where(), what, valid ? std::to_string(res) : "none",
                               s.reserved >= 0 ? fmt::format("CTA slot {}", s.reserved) : "none"));
    for (int b = 0; b < spec_.banks; ++b) {
      const int got =
          static_cast<int>(r.out[P::kFreeCount].get(b * spec_.count_bits, spec_.count_bits));
      const int want = (*s.free)[static_cast<size_t>(b)];
      if (got != want)
        ctx_.Fail(r, fmt::format("{}: after the {}: free_count_o[{}] is {}, the system has {} "
                                 "free registers in bank {}",
                                 ctx_.Where(), what, b, got, want, b));
    }
    if (r.out[P::kSpillMode].bit(0) != s.spill_mode)
      ctx_.Fail(r, fmt::format("{}: after the {}: spill_mode_o is {}, the system's spill mode {}",
                               ctx_.Where(), what, r.out[P::kSpillMode].bit(0) ? 1 : 0,
                               s.spill_mode ? "is on" : "is off"));
    if (r.out[P::kThrottle].bit(0) != s.throttle)
      ctx_.Fail(r, fmt::format("{}: after the {}: throttle_o is {}, the system's throttle is {}",
                               ctx_.Where(), what, r.out[P::kThrottle].bit(0) ? 1 : 0,
                               s.throttle ? "on" : "off"));
  }

  void Launch(const CtLaunch& l) {
    RtlDut& r = dut_;
    CheckSlot(r, l.slot, "launch");
    r.IdleOutOfReset(P::kRstN);
    r.in[P::kLaunchValid] = Bits(1, 1);
    r.in[P::kLaunchSlot].set(0, spec_.slot_bits, static_cast<uint64_t>(l.slot));
    for (int b = 0; b < spec_.banks; ++b) {
      const int c = l.need.at(static_cast<size_t>(b));
      if (c > spec_.MaxNeed())
        throw std::runtime_error(fmt::format(
            "RTL in the loop: CTA slot {} needs {} registers in bank {}, more than the {} the "
            "cta-throttle's launch_need_i field holds ({} physical registers per bank)",
            l.slot, c, b, spec_.MaxNeed(), spec_.regs_per_bank));
      r.in[P::kLaunchNeed].set(b * spec_.need_bits, spec_.need_bits, static_cast<uint64_t>(c));
    }
    Edge(r, l.after, fmt::format("launch of CTA slot {}", l.slot));
  }

  void Exit(const CtExit& e) {
    RtlDut& r = dut_;
    CheckSlot(r, e.slot, "exit");
    r.IdleOutOfReset(P::kRstN);
    r.in[P::kExitValid] = Bits(1, 1);
    r.in[P::kExitSlot].set(0, spec_.slot_bits, static_cast<uint64_t>(e.slot));
    Edge(r, e.after, fmt::format("exit of CTA slot {}", e.slot));
  }

  void IssueCheck(const CtIssueCheck& c) {
    RtlDut& r = dut_;
    CheckSlot(r, c.slot, "issue check");
    r.IdleOutOfReset(P::kRstN);
    ctx_.Eval(r);
    const bool thr = r.out[P::kThrottle].bit(0), ok = r.out[P::kIssueOk].bit(c.slot);
    if (thr != c.throttle || ok != c.ok)
      ctx_.Fail(r, fmt::format("{}: issue check of CTA slot {}: throttle_o {} issue_ok_o[{}] {}, "
                               "the system's throttle is {} and it {} the warp",
                               ctx_.Where(), c.slot, thr ? 1 : 0, c.slot, ok ? 1 : 0,
                               c.throttle ? "on" : "off", c.ok ? "issues" : "holds back"));
  }

  void AllocCheck(const CtAllocCheck& a) {
    RtlDut& r = dut_;
    CheckSlot(r, a.slot, "allocation check");
    if (static_cast<int>(a.banks.size()) > spec_.alloc_ports)
      ctx_.Fail(r, fmt::format("{}: allocation check of {} registers, the structure has {} "
                               "allocation ports",
                               ctx_.Where(), a.banks.size(), spec_.alloc_ports));
    r.IdleOutOfReset(P::kRstN);
    r.in[P::kAllocSlot].set(0, spec_.slot_bits, static_cast<uint64_t>(a.slot));
    for (size_t i = 0; i < a.banks.size(); ++i) {
      CheckBank(r, a.banks[i], "allocation check");
      r.in[P::kAllocValid].set_bit(static_cast<int>(i), true);
      r.in[P::kAllocBank].set(static_cast<int>(i) * spec_.bank_bits, spec_.bank_bits,
                              static_cast<uint64_t>(a.banks[i]));
    }
    ctx_.Eval(r);
    const bool grant = r.out[P::kAllocGrant].bit(0);
    if (grant != a.grant)
      ctx_.Fail(r, fmt::format("{}: allocation check of CTA slot {} (registers in banks {}): "
                               "alloc_grant_o is {}, the system {} the instruction's registers",
                               ctx_.Where(), a.slot, fmt::join(a.banks, ", "), grant ? 1 : 0,
                               a.grant ? "maps" : "refuses"));
  }

  void Map(const CtMap& m) {
    RtlDut& r = dut_;
    CheckSlot(r, m.slot, "mapping");
    CheckBank(r, m.bank, "mapping");
    r.IdleOutOfReset(P::kRstN);
    r.in[P::kAllocSlot].set(0, spec_.slot_bits, static_cast<uint64_t>(m.slot));
    r.in[P::kAllocValid].set_bit(0, true);
    r.in[P::kAllocBank].set(0, spec_.bank_bits, static_cast<uint64_t>(m.bank));
    if (m.spill_slot >= 0) {
      CheckSlot(r, m.spill_slot, "spill");
      r.in[P::kRelValid].set_bit(0, true);
      r.in[P::kRelSlot].set(0, spec_.slot_bits, static_cast<uint64_t>(m.spill_slot));
      r.in[P::kRelBank].set(0, spec_.bank_bits, static_cast<uint64_t>(m.bank));
    }
    ctx_.Eval(r);
    if (!r.out[P::kAllocGrant].bit(0))
      ctx_.Fail(r, fmt::format("{}: mapping of a register of CTA slot {} in bank {}: "
                               "alloc_grant_o is 0, the system maps it{}",
                               ctx_.Where(), m.slot, m.bank,
                               m.spill_slot >= 0 ? " (spilling one of the full bank)" : ""));
    for (int b = 0; b < spec_.banks; ++b) {
      const uint64_t got = r.out[P::kSpill].get(b * spec_.spill_bits, spec_.spill_bits);
      const uint64_t want = b == m.bank && m.spill_slot >= 0 ? 1 : 0;
      if (got != want)
        ctx_.Fail(r, fmt::format("{}: mapping of a register of CTA slot {} in bank {}: spill_o[{}] "
                                 "is {}, the system spills {}",
                                 ctx_.Where(), m.slot, m.bank, b, got, want));
    }
    ctx_.Clock(r);
    CheckState(r, m.after, fmt::format("mapping of CTA slot {} in bank {}", m.slot, m.bank));
  }

  void Release(const CtRelease& e) {
    RtlDut& r = dut_;
    CheckSlot(r, e.slot, "release");
    r.IdleOutOfReset(P::kRstN);
    if (e.bank >= 0) {
      CheckBank(r, e.bank, "release");
      r.in[P::kRelValid].set_bit(0, true);
      r.in[P::kRelSlot].set(0, spec_.slot_bits, static_cast<uint64_t>(e.slot));
      r.in[P::kRelBank].set(0, spec_.bank_bits, static_cast<uint64_t>(e.bank));
    }
    Edge(r, e.after,
         e.bank >= 0 ? fmt::format("release of CTA slot {} in bank {}", e.slot, e.bank)
                     : fmt::format("release of a spilled register of CTA slot {}", e.slot));
  }

  CtaThrottleSpec spec_;
};

}  // namespace

GPURF_REGISTER(RtlPartitionSpec, cta_throttle_partition, "cta-throttle", (RtlPartitionSpec{ForSm}))

GPURF_REGISTER(RtlTransactorKind, cta_throttle, "cta-throttle",
               (RtlTransactorKind{
                   .register_home = false,
                   .warp_slots = [](const StructureSpec&) { return 0; },
                   .kernel_problem = nullptr,
                   .make = [](const RtlStructure& s, RtlDut dut,
                              RtlLoopContext& ctx) -> std::unique_ptr<RtlTransactor> {
                     return std::make_unique<CtaThrottleTransactor>(s, std::move(dut), ctx);
                   },
               }))

}  // namespace gpurf::harness
