#include "sim/sm/sm.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <queue>
#include <stdexcept>

#include "models/warp_scheduler_model.h"

namespace gpurf::sim {

const char* WarpPolicyName(WarpPolicy p) {
  switch (p) {
    case WarpPolicy::kLooseRoundRobin:
      return "lrr";
    case WarpPolicy::kGto:
      return "gto";
    case WarpPolicy::kTwoLevel:
      return "two-level";
  }
  return "?";
}

int SmConfig::Latency(OpClass c) const {
  switch (c) {
    case OpClass::kAlu:
      return lat_alu;
    case OpClass::kSfu:
      return lat_sfu;
    case OpClass::kConstMem:
      return lat_const;
    case OpClass::kGlobalMem:
    case OpClass::kLocalMem:
      return lat_dram;
    case OpClass::kSharedMem:
      return lat_shared;
    case OpClass::kTexture:
      return lat_texture;
    case OpClass::kBranch:
    case OpClass::kBarrier:
    case OpClass::kExit:
      return lat_branch;
  }
  return lat_alu;
}

int SmConfig::Occupancy(OpClass c) const {
  auto cycles = [this](int lanes_per_cycle) {
    return std::max(1, (lanes + lanes_per_cycle - 1) / lanes_per_cycle);
  };
  switch (c) {
    case OpClass::kSfu:
      return cycles(sfu_lanes_per_cycle);
    case OpClass::kTexture:
      return cycles(tex_lanes_per_cycle);
    case OpClass::kGlobalMem:
    case OpClass::kLocalMem:
    case OpClass::kSharedMem:
      return cycles(mem_lanes_per_cycle);
    default:
      return 1;
  }
}

int RoundRobinPolicy::Pick(const std::vector<uint32_t>& issuable, int last) {
  if (issuable.empty())
    return -1;
  // First issuable warp after `last` in circular order.
  const uint32_t start = last < 0 ? 0 : (static_cast<uint32_t>(last) + 1) % warps_;
  for (uint32_t w : issuable) {
    if (w >= start)
      return static_cast<int>(w);
  }
  return static_cast<int>(issuable.front());
}

int GreedyPolicy::Pick(const std::vector<uint32_t>& issuable, int last) {
  if (last >= 0 &&
      std::binary_search(issuable.begin(), issuable.end(), static_cast<uint32_t>(last)))
    return last;
  return rr_.Pick(issuable, last);
}

namespace {

enum class WarpState { kEmpty, kPending, kActive, kDone };

struct Warp {
  const WarpStream* stream = nullptr;
  uint32_t cta_slot = 0;
  size_t next = 0;  // index of the next DynInst
  WarpState state = WarpState::kEmpty;
  bool at_barrier = false;
  int outstanding = 0;       // issued instructions whose results are not written back yet
  int long_outstanding = 0;  // ... of which long-latency operations
  bool wait_long = false;    // two-level: suspended until long_outstanding drops to 0
  bool unplanned = false;    // ... for a dependence the strand analysis did not mark
  std::array<uint64_t, kMaxRegs + 1> ready_at{};  // cycle each register's pending write lands
  std::array<bool, kMaxRegs + 1> long_pending{};  // that write comes from a long-latency op
  uint64_t cta_seq = 0;  // launch order of its CTA, for activation fairness
  // Cache of the long-latency wait of the next instruction: while `next` is `wait_next`, the
  // instruction waits on a long-latency result until cycle `wait_until` (its registers' ready_at
  // change only when the warp itself issues).
  size_t wait_next = SIZE_MAX;
  uint64_t wait_until = 0;

  size_t length = 0;  // instructions in the stream
  bool finished_stream() const { return next >= length; }
};

struct CtaSlot {
  bool busy = false;
  std::vector<uint32_t> warps;  // SM warp ids
  int arrived = 0;              // warps waiting at the current barrier
};

struct Completion {
  uint64_t cycle;
  uint32_t warp;
  uint32_t dyn;  // index into the warp's stream
  bool operator>(const Completion& o) const {
    return cycle != o.cycle ? cycle > o.cycle : warp > o.warp;
  }
};

template <typename F>
void ForEachReg(const std::vector<RegOperand>& ops, F f) {
  for (const auto& o : ops) {
    for (int k = 0; k < o.count; ++k)
      f(static_cast<uint32_t>(o.first + k));
  }
}

}  // namespace

namespace {

// CTAs of the run: warps are ordered by (cta, warp_in_cta).
std::vector<std::vector<const WarpStream*>> Ctas(const KernelRun& run) {
  std::vector<std::vector<const WarpStream*>> ctas;
  for (const auto& w : run.warps) {
    if (ctas.empty() || ctas.back().front()->cta != w.cta)
      ctas.emplace_back();
    ctas.back().push_back(&w);
  }
  return ctas;
}

struct Occupancy {
  size_t warps_per_cta = 0;
  uint64_t regs_per_cta = 0;
  uint64_t resident = 0;  // CTAs resident at once; 0 when one does not fit
};

Occupancy ComputeOccupancy(const Kernel& k, const std::vector<std::vector<const WarpStream*>>& ctas,
                           const SmConfig& cfg) {
  Occupancy o;
  for (const auto& c : ctas)
    o.warps_per_cta = std::max(o.warps_per_cta, c.size());
  // Registers are allocated per warp (lanes x registers per thread).
  o.regs_per_cta =
      o.warps_per_cta * static_cast<uint64_t>(cfg.lanes) * std::max(1, k.regs_per_thread);
  o.resident = static_cast<uint64_t>(std::max(0, cfg.cta_slots));
  o.resident = std::min<uint64_t>(o.resident, static_cast<uint64_t>(std::max(0, cfg.warps)) /
                                                  std::max<size_t>(1, o.warps_per_cta));
  o.resident =
      std::min<uint64_t>(o.resident, cfg.registers / std::max<uint64_t>(1, o.regs_per_cta));
  if (k.shared_bytes > 0)
    o.resident = std::min<uint64_t>(o.resident, cfg.shared_bytes / k.shared_bytes);
  return o;
}

std::string FitMessage(const Kernel& k, const Occupancy& o, const SmConfig& cfg) {
  return fmt::format(
      "kernel {} does not fit one CTA on the SM: {} warps/CTA (SM {}), {} registers/CTA "
      "(SM {}), {} shared bytes/CTA (SM {})",
      k.name, o.warps_per_cta, cfg.warps, o.regs_per_cta, cfg.registers, k.shared_bytes,
      cfg.shared_bytes);
}

}  // namespace

std::string CtaFitProblem(const KernelRun& run, const SmConfig& cfg) {
  if (run.kernel == nullptr)
    return "the kernel run has no kernel";
  const auto ctas = Ctas(run);
  if (ctas.empty())
    return {};
  const Occupancy o = ComputeOccupancy(*run.kernel, ctas, cfg);
  return o.resident == 0 ? FitMessage(*run.kernel, o, cfg) : std::string();
}

SmStats RunSm(const KernelRun& run, const SmConfig& cfg, SchedulerPolicy& policy,
              RegisterFileSystem* rf, const SmOptions& opt) {
  if (run.kernel == nullptr)
    throw std::invalid_argument("RunSm: the kernel run has no kernel");
  const Kernel& k = *run.kernel;
  SmStats st;

  const std::vector<std::vector<const WarpStream*>> ctas = Ctas(run);
  if (ctas.empty())
    return st;
  const Occupancy occ = ComputeOccupancy(k, ctas, cfg);
  const uint64_t resident = occ.resident;
  if (resident == 0)
    throw std::runtime_error(FitMessage(k, occ, cfg));

  std::vector<Warp> warps(static_cast<size_t>(cfg.warps));
  std::vector<CtaSlot> slots(resident);
  size_t next_cta = 0;
  uint64_t launched = 0;
  int active = 0;
  const int active_limit = opt.two_level ? cfg.active_warps : cfg.warps;
  std::priority_queue<Completion, std::vector<Completion>, std::greater<>> completions;
  std::array<uint64_t, 10> unit_free{};
  int last = -1;

  auto launch = [&](uint64_t cycle) {
    for (uint32_t s = 0; s < slots.size() && next_cta < ctas.size(); ++s) {
      if (slots[s].busy)
        continue;
      CtaSlot& slot = slots[s];
      slot = CtaSlot{};
      slot.busy = true;
      for (const WarpStream* ws : ctas[next_cta]) {
        auto it = std::find_if(warps.begin(), warps.end(),
                               [](const Warp& w) { return w.state == WarpState::kEmpty; });
        // The occupancy computation guarantees a free context.
        const auto id = static_cast<uint32_t>(it - warps.begin());
        *it = Warp{};
        it->stream = ws;
        it->length = ws->insts.size();
        it->cta_slot = s;
        it->state = WarpState::kPending;
        it->cta_seq = launched;
        slot.warps.push_back(id);
        if (rf)
          rf->Launch(cycle, id, *ws);
        if (ws->insts.empty())
          it->state = WarpState::kDone;
      }
      ++next_cta;
      ++launched;
      ++st.ctas;
    }
  };

  auto next_depends_on_long = [&](Warp& w, uint64_t cycle) {
    if (w.wait_next == w.next)
      return w.wait_until > cycle;
    const Instruction& in = k.code[w.stream->insts[w.next].inst];
    uint64_t until = 0;
    auto check = [&](uint32_t r) {
      if (w.long_pending[r] && w.ready_at[r] > cycle)
        until = std::max(until, w.ready_at[r]);
    };
    ForEachReg(in.srcs, check);
    ForEachReg(in.dsts, check);
    w.wait_next = w.next;
    w.wait_until = until;
    return until > cycle;
  };

  auto deactivate = [&](uint32_t id, uint64_t cycle) {
    warps[id].state = WarpState::kPending;
    --active;
    ++st.deactivations;
    if (rf)
      rf->Deactivate(cycle, id);
  };

  // Warps of a CTA slot that will still arrive at (or wait at) its current barrier.
  auto barrier_live = [&](const CtaSlot& slot) {
    int live = 0;
    for (uint32_t o : slot.warps)
      live += (warps[o].state != WarpState::kDone && !warps[o].finished_stream()) ||
              warps[o].at_barrier;
    return live;
  };

  // Two-level: does issuing warp w's next instruction end a strand (see sm.h)? Sets
  // `long_wait` when the warp then waits for its long-latency results.
  auto ends_strand = [&](const Warp& w, uint64_t cycle, bool& long_wait, bool& unplanned) {
    long_wait = false;
    unplanned = false;
    const size_t n = w.next + 1;
    if (n >= w.length)
      return true;  // its last instruction: the warp leaves the active set
    const Instruction& x = k.code[w.stream->insts[w.next].inst];
    if (x.op_class == OpClass::kBarrier &&
        slots[w.cta_slot].arrived + 1 < barrier_live(slots[w.cta_slot]))
      return true;
    const uint32_t y_index = w.stream->insts[n].inst;
    const Instruction& y = k.code[y_index];
    bool dep = false;
    auto check = [&](uint32_t r) {
      bool from_x = false;
      if (x.long_latency)
        ForEachReg(x.dsts, [&](uint32_t q) { from_x = from_x || q == r; });
      dep = dep || from_x || (w.long_pending[r] && w.ready_at[r] > cycle);
    };
    ForEachReg(y.srcs, check);
    ForEachReg(y.dsts, check);
    const bool outstanding = w.long_outstanding > 0 || x.long_latency;
    if (opt.long_wait != nullptr) {
      // The compiler's strand analysis marks where the warp waits; a dependence it did not
      // foresee is counted (and still waited for).
      const bool planned = (*opt.long_wait)[y_index] != 0;
      unplanned = dep && !planned;
      long_wait = (planned && outstanding) || dep;
    } else {
      long_wait = dep;
    }
    return long_wait;
  };

  std::optional<WarpScheduler> sched;
  if (opt.two_level) {
    if (cfg.warps > 64) {
      throw std::invalid_argument(
          fmt::format("two-level scheduling supports at most 64 warps, the SM has {}", cfg.warps));
    }
    sched.emplace(
        static_cast<int>(cfg.warps), active_limit,
        policy.IsGreedy() ? WarpScheduler::Policy::kGreedy : WarpScheduler::Policy::kRoundRobin);
  }

  launch(0);
  bool retire = true;
  uint64_t cycle = 0;
  std::vector<uint32_t> issuable;
  issuable.reserve(warps.size());
  for (;; ++cycle) {
    if (cycle >= opt.max_cycles)
      throw std::runtime_error(
          fmt::format("kernel {} did not finish within {} cycles", k.name, opt.max_cycles));

    // 1. Write-backs due this cycle.
    while (!completions.empty() && completions.top().cycle <= cycle) {
      const Completion c = completions.top();
      completions.pop();
      Warp& w = warps[c.warp];
      --w.outstanding;
      if (k.code[w.stream->insts[c.dyn].inst].long_latency)
        --w.long_outstanding;
      retire = true;
      if (rf)
        rf->Writeback(cycle, c.warp, w.stream->insts[c.dyn]);
    }

    // Retire finished warps and CTAs, launch new CTAs into freed slots. A warp finishes when
    // its last result is written back, so only cycles with write-backs (and the cycle after a
    // launch, for warps with nothing to execute) can retire anything.
    bool freed = false;
    for (auto& slot : slots) {
      if (!retire)
        break;
      if (!slot.busy)
        continue;
      bool all_done = true;
      for (uint32_t id : slot.warps) {
        Warp& w = warps[id];
        if (w.state != WarpState::kDone && w.finished_stream() && w.outstanding == 0) {
          if (w.state == WarpState::kActive && !opt.two_level)
            deactivate(id, cycle);
          w.state = WarpState::kDone;
        }
        all_done = all_done && w.state == WarpState::kDone;
      }
      if (all_done) {
        for (uint32_t id : slot.warps)
          warps[id].state = WarpState::kEmpty;
        slot.busy = false;
        freed = true;
      }
    }
    retire = freed;
    if (freed)
      launch(cycle);
    if (next_cta >= ctas.size() &&
        std::none_of(slots.begin(), slots.end(), [](const CtaSlot& s) { return s.busy; }))
      break;

    // 2. Single-level: every pending warp is active. Two-level: the WarpScheduler decides below.
    if (!opt.two_level) {
      for (uint32_t n = 0; n < warps.size() && active < active_limit; ++n) {
        Warp& w = warps[n];
        if (w.state != WarpState::kPending || w.finished_stream())
          continue;
        w.state = WarpState::kActive;
        ++active;
        ++st.activations;
        if (rf)
          rf->Activate(cycle, n);
      }
    }

    // 3. Issue: which active warps could issue this cycle.
    issuable.clear();
    bool sb_stall = false, unit_stall = false, rf_stall = false;
    for (uint32_t id = 0; id < warps.size(); ++id) {
      Warp& w = warps[id];
      if (w.state != WarpState::kActive || w.at_barrier || w.finished_stream())
        continue;
      const DynInst& d = w.stream->insts[w.next];
      const Instruction& in = k.code[d.inst];
      bool ready = true;
      auto check = [&](uint32_t r) { ready = ready && w.ready_at[r] <= cycle; };
      ForEachReg(in.srcs, check);
      ForEachReg(in.dsts, check);
      if (!ready) {
        sb_stall = true;
        continue;
      }
      if (unit_free[static_cast<size_t>(in.op_class)] > cycle) {
        unit_stall = true;
        continue;
      }
      if (rf && !rf->CanIssue(cycle, id, d)) {
        rf_stall = true;
        continue;
      }
      issuable.push_back(id);
    }
    int pick = -1;
    WarpScheduler::Decision decision;
    if (opt.two_level) {
      WarpScheduler::Inputs in;
      for (uint32_t id = 0; id < warps.size(); ++id) {
        Warp& w = warps[id];
        const uint64_t bit = 1ULL << id;
        const bool live = (w.state == WarpState::kPending || w.state == WarpState::kActive) &&
                          !w.finished_stream();
        if (live && !w.at_barrier)
          in.valid |= bit;
        // A warp waiting for long-latency results wakes when all of them landed (with the
        // compiler's strand marks) or when its next instruction no longer needs one (without).
        if (!sched->IsWaiting(static_cast<int>(id)))
          continue;
        if (!live) {
          in.wake |= bit;  // finished or gone: nothing to wait for
        } else if (!w.at_barrier &&
                   (!w.wait_long || (opt.long_wait != nullptr ? w.long_outstanding == 0
                                                              : !next_depends_on_long(w, cycle)))) {
          in.wake |= bit;
        }
      }
      for (uint32_t id : issuable) {
        in.ready |= 1ULL << id;
        Warp& w = warps[id];
        if (ends_strand(w, cycle, w.wait_long, w.unplanned))
          in.suspend |= 1ULL << id;
      }
      decision = sched->Step(in);
      if (decision.issue)
        pick = decision.issue_warp;
    } else {
      pick = policy.Pick(issuable, last);
    }
    if (pick >= 0) {
      const auto id = static_cast<uint32_t>(pick);
      Warp& w = warps[id];
      const auto dyn = static_cast<uint32_t>(w.next);
      const DynInst& d = w.stream->insts[dyn];
      const Instruction& in = k.code[d.inst];
      const int delay = rf ? rf->Issue(cycle, id, d) : 0;
      st.operand_delay_cycles += static_cast<uint64_t>(delay);
      const uint64_t done =
          cycle + static_cast<uint64_t>(delay) + static_cast<uint64_t>(cfg.Latency(in.op_class));
      const bool long_lat = in.long_latency;
      ForEachReg(in.dsts, [&](uint32_t r) {
        w.ready_at[r] = done;
        w.long_pending[r] = long_lat;
      });
      unit_free[static_cast<size_t>(in.op_class)] =
          cycle + static_cast<uint64_t>(cfg.Occupancy(in.op_class));
      completions.push({done, id, dyn});
      ++w.outstanding;
      w.long_outstanding += long_lat ? 1 : 0;
      ++w.next;
      ++st.warp_instructions;
      st.thread_instructions += static_cast<uint64_t>(__builtin_popcount(d.active_mask));
      ++st.by_class[static_cast<size_t>(in.op_class)];
      if (in.op_class == OpClass::kBarrier) {
        CtaSlot& slot = slots[w.cta_slot];
        w.at_barrier = true;
        ++slot.arrived;
        if (slot.arrived >= barrier_live(slot)) {
          for (uint32_t o : slot.warps)
            warps[o].at_barrier = false;
          slot.arrived = 0;
        }
      }
      last = pick;
    } else {
      ++st.idle_cycles;  // `last` stays: a greedy scheduler returns to it when it can issue
    }
    // The two-level scheduler's events take effect at the edge, after the issue.
    if (decision.deactivate) {
      st.unplanned_waits += warps[static_cast<size_t>(decision.issue_warp)].unplanned ? 1 : 0;
      deactivate(static_cast<uint32_t>(decision.issue_warp), cycle);
    }
    for (const auto& a : decision.activations) {
      warps[static_cast<size_t>(a.warp)].state = WarpState::kActive;
      ++active;
      ++st.activations;
      if (rf)
        rf->Activate(cycle, static_cast<uint32_t>(a.warp));
    }
    st.scoreboard_stalls += sb_stall;
    st.unit_stalls += unit_stall;
    st.rf_stalls += rf_stall;
    if (rf)
      rf->Tick(cycle);
    // Event-driven step: when no warp could issue and none waited for the register-file system,
    // no warp can issue before the next write-back or the next shared unit becoming free, so
    // the cycles in between are counted with this cycle's stall reasons and skipped; the
    // register-file system still ticks through them while it has work of its own. (Not after a
    // two-level activation or deactivation: a newly active warp may issue in the next cycle.)
    if (issuable.empty() && !rf_stall && !decision.deactivate && decision.activations.empty()) {
      uint64_t next = completions.empty() ? UINT64_MAX : completions.top().cycle;
      for (uint64_t f : unit_free) {
        if (f > cycle && f < next)
          next = f;
      }
      if (next != UINT64_MAX && next > cycle + 1) {
        const uint64_t skip = std::min(next, opt.max_cycles) - cycle - 1;
        st.idle_cycles += skip;
        st.scoreboard_stalls += sb_stall ? skip : 0;
        st.unit_stalls += unit_stall ? skip : 0;
        for (uint64_t c = cycle + 1; rf != nullptr && c <= cycle + skip && rf->Busy(); ++c)
          rf->Tick(c);
        cycle += skip;
      }
    }
  }
  st.cycles = cycle;
  return st;
}

}  // namespace gpurf::sim
