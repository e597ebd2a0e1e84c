#include "models/warp_scheduler_model.h"

#include <fmt/format.h>

#include <bit>

#include "gen/structures/warp_scheduler/warp_scheduler_spec.h"
#include "models/registry.h"

namespace gpurf {

namespace {

bool Bit(uint64_t v, int i) {
  return (v >> i) & 1U;
}

}  // namespace

WarpScheduler::WarpScheduler(int warps, int active, Policy policy)
    : warps_(warps), active_(active), policy_(policy) {
  if (warps < 1 || warps > 64 || active < 1 || active > warps) {
    throw std::invalid_argument(
        fmt::format("warp scheduler needs 1 <= active ({}) <= warps ({}) <= 64", active, warps));
  }
  Reset();
}

WarpScheduler::WarpScheduler(const WarpSchedulerSpec& spec)
    : WarpScheduler(spec.warps, spec.active,
                    spec.greedy() ? Policy::kGreedy : Policy::kRoundRobin) {}

void WarpScheduler::Reset() {
  slots_.assign(static_cast<size_t>(active_), -1);
  active_mask_ = 0;
  waiting_mask_ = 0;
  last_slot_ = active_ - 1;  // the first rotating search starts at slot 0
  hold_ = false;
  outer_ = 0;
}

uint64_t WarpScheduler::ReadyPending(const Inputs& in) const {
  return in.valid & ~active_mask_ & ~waiting_mask_ & All();
}

WarpScheduler::Decision WarpScheduler::Decide(const Inputs& in) const {
  Decision d;
  // Inner level: which active warp issues.
  auto can_issue = [&](int slot) {
    const int w = slots_[slot];
    return w >= 0 && Bit(in.valid, w) && Bit(in.ready, w);
  };
  int sel = -1;
  if (policy_ == Policy::kGreedy && hold_ && can_issue(last_slot_))
    sel = last_slot_;  // greedy: keep issuing from the same warp while it can
  for (int k = 1; sel < 0 && k <= active_; ++k) {
    const int slot = (last_slot_ + k) % active_;  // rotating priority after the last issuer
    if (can_issue(slot))
      sel = slot;
  }
  if (sel >= 0) {
    d.issue = true;
    d.issue_slot = sel;
    d.issue_warp = slots_[sel];
    d.deactivate = Bit(in.suspend, d.issue_warp);  // strand end: suspended after this one
  }

  // Outer level: every slot empty now takes the next ready pending warp, round-robin.
  uint64_t ready = ReadyPending(in);
  for (int slot = 0; slot < active_ && ready != 0; ++slot) {
    if (slots_[slot] >= 0)
      continue;
    for (int k = 0; k < warps_; ++k) {
      const int w = (outer_ + k) % warps_;
      if (Bit(ready, w)) {
        d.activations.push_back({slot, w});
        ready &= ~(1ULL << w);
        break;
      }
    }
  }
  return d;
}

void WarpScheduler::CheckInvariants(const Inputs& in, const Decision& d) const {
  // I2, on the decision: the issuing warp is active (in the slot it issues from), not waiting.
  if (d.issue) {
    const int w = d.issue_warp;
    if (IsWaiting(w)) {
      throw SchedulerInvariantError(2, fmt::format("I2 violated: suspended warp {} issued", w));
    }
    if (d.issue_slot < 0 || d.issue_slot >= active_ || slots_[d.issue_slot] != w) {
      throw SchedulerInvariantError(
          1, fmt::format("I1 violated: warp {} issued from slot {}, which does not hold it", w,
                         d.issue_slot));
    }
  }
  // I3: if some slot stays free after this edge, no ready pending warp may stay pending.
  int stays_free = -1;
  uint64_t filled = 0, activated = 0;
  for (const Activation& a : d.activations) {
    filled |= 1ULL << a.slot;
    activated |= 1ULL << a.warp;
  }
  for (int s = 0; s < active_; ++s) {
    if (slots_[s] < 0 && !Bit(filled, s)) {
      stays_free = s;
      break;
    }
  }
  const uint64_t left = ReadyPending(in) & ~activated;
  if (stays_free >= 0 && left != 0) {
    throw SchedulerInvariantError(
        3, fmt::format("I3 violated: ready pending warp {} waits while slot {} stays free",
                       std::countr_zero(left), stays_free));
  }
}

WarpScheduler::Decision WarpScheduler::Step(const Inputs& in) {
  const Decision d = Decide(in);
  CheckInvariants(in, d);

  // Commit at the edge: deschedule, wakes, activations, pointers.
  uint64_t waiting = waiting_mask_ & ~in.wake;
  if (d.deactivate) {
    const uint64_t b = 1ULL << d.issue_warp;
    slots_[d.issue_slot] = -1;
    active_mask_ &= ~b;
    waiting = Bit(in.wake, d.issue_warp) ? (waiting & ~b) : (waiting | b);
    ++deactivations_;
  }
  waiting_mask_ = waiting;
  for (const Activation& a : d.activations) {
    slots_[a.slot] = a.warp;
    active_mask_ |= 1ULL << a.warp;
    ++activations_;
  }
  if (!d.activations.empty())
    outer_ = (d.activations.back().warp + 1) % warps_;
  if (d.issue) {
    last_slot_ = d.issue_slot;
    hold_ = !d.deactivate;
    ++issues_;
  }

  // I1, on the new state: at most A active warps, exactly the warps held by the slots, once each.
  uint64_t held = 0;
  for (int s = 0; s < active_; ++s) {
    const int w = slots_[s];
    if (w < 0)
      continue;
    if (w >= warps_ || Bit(held, w)) {
      throw SchedulerInvariantError(
          1, fmt::format("I1 violated: slot {} holds warp {}, which is out of range or held by "
                         "another slot",
                         s, w));
    }
    held |= 1ULL << w;
  }
  if (std::popcount(active_mask_) > active_) {
    throw SchedulerInvariantError(1, fmt::format("I1 violated: {} warps active, more than {}",
                                                 std::popcount(active_mask_), active_));
  }
  if (held != active_mask_) {
    throw SchedulerInvariantError(
        1, fmt::format("I1 violated: active warps {:#x} differ from the warps in the slots {:#x}",
                       active_mask_, held));
  }
  return d;
}

// ------------------------------------------------------------------------------ cycle adapter

WarpSchedulerCycleModel::WarpSchedulerCycleModel(const WarpSchedulerSpec& spec)
    : spec_(spec), sched_(spec) {}

WarpScheduler::Inputs WarpSchedulerCycleModel::InputsOf(const PortValues& in) {
  const int w = in[kReady].width();
  return {in[kReady].get(0, w), in[kValid].get(0, w), in[kSuspend].get(0, w), in[kWake].get(0, w)};
}

void WarpSchedulerCycleModel::Outputs(const PortValues& in, PortValues& out, PortValues& defined) {
  const bool in_reset = !in[kRstN].bit(0);
  if (in_reset)
    sched_.Reset();  // asynchronous reset
  WarpScheduler::Decision d;
  if (!in_reset)
    d = sched_.Peek(InputsOf(in));

  const int ww = spec_.warp_id_width, A = spec_.active, W = spec_.warps;
  for (int p = kIssueValid; p < kNumPorts; ++p)
    out[p].clear();
  out[kIssueValid].set_bit(0, d.issue);
  if (d.issue) {
    out[kIssueWarp].set(0, ww, d.issue_warp);
    out[kIssueSlot].set(0, spec_.slot_width, d.issue_slot);
  }
  out[kDeactValid].set_bit(0, d.deactivate);
  if (d.deactivate) {
    out[kDeactWarp].set(0, ww, d.issue_warp);
    out[kDeactSlot].set(0, spec_.slot_width, d.issue_slot);
  }
  for (const auto& a : d.activations) {
    out[kActValid].set_bit(a.slot, true);
    out[kActWarp].set(a.slot * ww, ww, a.warp);
  }
  for (int s = 0; s < A; ++s) {
    const int w = sched_.SlotWarp(s);
    if (w >= 0) {
      out[kSlotValid].set_bit(s, true);
      out[kSlotWarp].set(s * ww, ww, w);
    }
  }
  out[kActive].set(0, W, sched_.active_mask());
  out[kWaiting].set(0, W, sched_.waiting_mask());
  for (int p = kIssueValid; p < kNumPorts; ++p)
    defined[p].fill_ones();
}

void WarpSchedulerCycleModel::Clock(const PortValues& in) {
  if (!in[kRstN].bit(0)) {
    sched_.Reset();
    return;
  }
  sched_.Step(InputsOf(in));
}

GPURF_REGISTER(ModelFamily, warp_scheduler, "warp-scheduler",
               ModelFamily{[](const StructureSpec& s) -> std::unique_ptr<CycleModel> {
                 return std::make_unique<WarpSchedulerCycleModel>(SpecAs<WarpSchedulerSpec>(s));
               }})

}  // namespace gpurf
