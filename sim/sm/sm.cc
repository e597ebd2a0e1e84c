#include "sim/sm/sm.h"

#include <fmt/format.h>

#include <algorithm>
#include <bitset>
#include <memory>
#include <optional>
#include <queue>
#include <stdexcept>
#include <utility>

#include "models/warp_scheduler_model.h"
#include "sim/mem/memory.h"

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

int GtoPolicy::Pick(const std::vector<uint32_t>& issuable, int last) {
  // Without ages (the SM passes them through OldestFirst()), warp ids stand for launch order.
  if (issuable.empty())
    return -1;
  if (last >= 0 &&
      std::find(issuable.begin(), issuable.end(), static_cast<uint32_t>(last)) != issuable.end())
    return last;
  return static_cast<int>(issuable.front());
}

void SmStats::Add(const SmStats& o) {
  cycles = std::max(cycles, o.cycles);
  warp_instructions += o.warp_instructions;
  thread_instructions += o.thread_instructions;
  ctas += o.ctas;
  idle_cycles += o.idle_cycles;
  scoreboard_stalls += o.scoreboard_stalls;
  unit_stalls += o.unit_stalls;
  rf_stalls += o.rf_stalls;
  activations += o.activations;
  deactivations += o.deactivations;
  operand_delay_cycles += o.operand_delay_cycles;
  unplanned_waits += o.unplanned_waits;
  dual_issues += o.dual_issues;
  alloc_stalls += o.alloc_stalls;
  mem_stalls += o.mem_stalls;
  cta_refusals += o.cta_refusals;
  cta_stalls += o.cta_stalls;
  max_resident_ctas = std::max(max_resident_ctas, o.max_resident_ctas);
  for (size_t c = 0; c < by_class.size(); ++c)
    by_class[c] += o.by_class[c];
}

namespace {

enum class WarpState { kEmpty, kPending, kActive, kDone };

// The fields the per-cycle scans read come first, so that a warp's scan touches one cache line;
// the per-register arrays follow.
struct Warp {
  const WarpStream* stream = nullptr;
  size_t next = 0;    // index of the next DynInst
  size_t length = 0;  // instructions in the stream
  uint32_t cta_slot = 0;
  WarpState state = WarpState::kEmpty;
  bool at_barrier = false;
  bool wait_long = false;    // two-level: suspended until long_outstanding drops to 0
  bool unplanned = false;    // ... for a dependence the strand analysis did not mark
  int outstanding = 0;       // issued instructions whose results are not written back yet
  int long_outstanding = 0;  // ... of which long-latency operations
  // Caches, valid while `next` equals their key (a warp's registers' ready_at change only when
  // the warp itself issues): the next instruction's scoreboard-ready cycle (`ready_next`,
  // `ready_until`); whether it waits on a long-latency result until `wait_until` (`wait_next`);
  // for the strand end after it, whether the instruction after it depends on its long-latency
  // results (`strand_dep`) or on another long-latency result until `strand_until`.
  size_t ready_next = SIZE_MAX;
  uint64_t ready_until = 0;
  size_t wait_next = SIZE_MAX;
  uint64_t wait_until = 0;
  size_t strand_next = SIZE_MAX;
  bool strand_dep = false;
  uint64_t strand_until = 0;
  size_t mem_next = SIZE_MAX;  // the memory system refused the next instruction until mem_retry
  uint64_t mem_retry = 0;
  uint64_t cta_seq = 0;  // launch order of its CTA, for activation fairness
  uint64_t age = 0;      // launch order of the warp (GTO's "oldest")
  std::array<uint64_t, kMaxRegs + 1> ready_at{};  // cycle each register's pending write lands
  std::array<bool, kMaxRegs + 1> long_pending{};  // that write comes from a long-latency op
  // Register events: registers written since launch or their release.
  std::bitset<kMaxRegs + 1> allocated;

  bool finished_stream() const { return next >= length; }
};

struct CtaSlot {
  bool busy = false;
  std::vector<uint32_t> warps;  // SM warp ids
  int arrived = 0;              // warps waiting at the current barrier
  uint32_t cta = 0;             // linear CTA id
  uint64_t static_registers = 0;
  bool stalled = false;  // CtaStalled delivered, no warp issued since
  bool runnable = true;  // CTA switching: its warps may issue (RegisterFileSystem::CtaRunnable)
  // A warp of it may have finished (a write-back, or the launch): the retire step looks.
  bool check = false;
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
  uint64_t hard = 0;      // CTAs resident at once by CTA slots, warps and shared memory
  uint64_t resident = 0;  // ... and static register allocation; 0 when one does not fit
};

Occupancy ComputeOccupancy(const Kernel& k, const std::vector<std::vector<const WarpStream*>>& ctas,
                           const SmConfig& cfg) {
  Occupancy o;
  for (const auto& c : ctas)
    o.warps_per_cta = std::max(o.warps_per_cta, c.size());
  // Registers are allocated per warp: lanes x registers per thread, the latter rounded up to
  // the allocation unit.
  const uint64_t per_thread = static_cast<uint64_t>(AllocatedRegsPerThread(k, cfg));
  o.regs_per_cta = o.warps_per_cta * static_cast<uint64_t>(cfg.lanes) * per_thread;
  o.hard = static_cast<uint64_t>(std::max(0, cfg.cta_slots));
  o.hard = std::min<uint64_t>(
      o.hard, static_cast<uint64_t>(std::max(0, cfg.warps)) / std::max<size_t>(1, o.warps_per_cta));
  if (k.shared_bytes > 0)
    o.hard = std::min<uint64_t>(o.hard, cfg.shared_bytes / k.shared_bytes);
  o.resident = std::min<uint64_t>(o.hard, cfg.registers / std::max<uint64_t>(1, o.regs_per_cta));
  return o;
}

std::string FitMessage(const Kernel& k, const Occupancy& o, const SmConfig& cfg) {
  return fmt::format(
      "kernel {} does not fit one CTA on the SM: {} warps/CTA (SM {}), {} registers/CTA "
      "(SM {}), {} shared bytes/CTA (SM {})",
      k.name, o.warps_per_cta, cfg.warps, o.regs_per_cta, cfg.registers, k.shared_bytes,
      cfg.shared_bytes);
}

mem::Space SpaceOf(OpClass c) {
  switch (c) {
    case OpClass::kLocalMem:
      return mem::Space::kLocal;
    case OpClass::kSharedMem:
      return mem::Space::kShared;
    case OpClass::kConstMem:
      return mem::Space::kConst;
    case OpClass::kTexture:
      return mem::Space::kTexture;
    default:
      return mem::Space::kGlobal;
  }
}

bool IsMemory(OpClass c) {
  return c == OpClass::kGlobalMem || c == OpClass::kLocalMem || c == OpClass::kSharedMem ||
         c == OpClass::kConstMem || c == OpClass::kTexture;
}

// The CTAs not yet launched, shared by the SMs.
struct CtaQueue {
  const std::vector<std::vector<const WarpStream*>>* ctas = nullptr;
  size_t next = 0;
  bool empty() const { return next >= ctas->size(); }
};

// One SM: the state and the cycle of the model described in sm.h.
class SmSim {
 public:
  SmSim(int id, const Kernel& k, const SmConfig& cfg, const SmOptions& opt, SchedulerPolicy& policy,
        const std::vector<RegisterFileSystem*>& rf, mem::MemorySystem* memory, const Occupancy& occ,
        CtaQueue& queue)
      : id_(id),
        k_(k),
        cfg_(cfg),
        opt_(opt),
        policy_(policy),
        rf_(rf),
        mem_(memory),
        occ_(occ),
        queue_(queue),
        warps_(static_cast<size_t>(cfg.warps)),
        slots_(occ.hard),
        nsched_(static_cast<uint32_t>(std::max(1, cfg.schedulers))),
        nparts_(static_cast<uint32_t>(std::max<size_t>(1, rf.size()))),
        sched_(nsched_) {
    const int active_limit = opt.two_level ? cfg.active_warps : cfg.warps;
    int resident_limit = 0;
    for (auto* r : rf_) {
      if (r != nullptr) {
        any_rf_ = true;
        cta_stalls_ = cta_stalls_ || r->WantsCtaStalls();
        reg_events_ = reg_events_ || r->WantsRegisterEvents();
        resident_limit = std::max(resident_limit, r->ResidentCtaLimit());
      }
    }
    if (resident_limit > 0) {
      // CTA switching: resident CTAs beyond the scheduling limit, each with warp contexts.
      if (opt.two_level)
        throw std::invalid_argument("CTA switching needs single-level scheduling");
      switching_ = true;
      uint64_t n = static_cast<uint64_t>(resident_limit);
      if (k.shared_bytes > 0)
        n = std::min<uint64_t>(n, cfg.shared_bytes / k.shared_bytes);
      slots_.resize(n);
      warps_.resize(std::max<size_t>(warps_.size(), n * occ.warps_per_cta));
    }
    for (uint32_t s = 0; s < nsched_; ++s) {
      Sched& sc = sched_[s];
      sc.active_limit = active_limit / static_cast<int>(nsched_);
      sc.issuable.reserve(warps_.size());
      if (opt.two_level) {
        const int warps = static_cast<int>(warps_.size() / nsched_);
        if (warps > 64) {
          throw std::invalid_argument(fmt::format(
              "two-level scheduling supports at most 64 warps per scheduler, the SM has {}",
              warps));
        }
        sc.two_level.emplace(warps, sc.active_limit,
                             policy.IsGreedy() ? WarpScheduler::Policy::kGreedy
                                               : WarpScheduler::Policy::kRoundRobin);
      }
    }
  }

  bool done() const { return done_; }
  uint64_t next_cycle() const { return next_cycle_; }
  const SmStats& stats() const { return st_; }
  size_t resident() const {
    return static_cast<size_t>(
        std::count_if(slots_.begin(), slots_.end(), [](const CtaSlot& c) { return c.busy; }));
  }

  // Launches the next CTA of the queue into a free slot if the SM can take it; false if not.
  bool LaunchOne(uint64_t cycle) {
    if (queue_.empty())
      return false;
    for (uint32_t s = 0; s < slots_.size(); ++s) {
      if (slots_[s].busy)
        continue;
      const auto& cta = (*queue_.ctas)[queue_.next];
      CtaInfo info;
      info.sm = id_;
      info.cta = cta.front()->cta;
      info.slot = s;
      info.threads = static_cast<uint32_t>(cta.size()) * static_cast<uint32_t>(cfg_.lanes);
      info.regs_per_thread = static_cast<uint32_t>(std::max(1, k_.regs_per_thread));
      info.static_registers = occ_.regs_per_cta;
      info.static_fit = static_registers_ + occ_.regs_per_cta <= cfg_.registers;
      bool admit = info.static_fit;
      if (any_rf_) {
        admit = true;
        for (auto* r : rf_)
          admit = admit && (r == nullptr ? info.static_fit : r->AdmitCta(cycle, info));
      }
      if (!admit) {
        st_.cta_refusals += info.static_fit ? 1 : 0;  // refused by the register-file system
        return false;
      }
      CtaSlot& slot = slots_[s];
      slot = CtaSlot{};
      slot.busy = true;
      slot.check = true;
      slot.cta = info.cta;
      slot.static_registers = occ_.regs_per_cta;
      static_registers_ += occ_.regs_per_cta;
      for (const WarpStream* ws : cta) {
        auto it = std::find_if(warps_.begin(), warps_.end(),
                               [](const Warp& w) { return w.state == WarpState::kEmpty; });
        // The occupancy computation guarantees a free context.
        const auto wid = static_cast<uint32_t>(it - warps_.begin());
        *it = Warp{};
        it->stream = ws;
        it->length = ws->insts.size();
        it->cta_slot = s;
        it->state = WarpState::kPending;
        it->cta_seq = launched_;
        it->age = warp_seq_++;
        slot.warps.push_back(wid);
        if (RegisterFileSystem* r = Part(wid))
          r->Launch(cycle, Local(wid), *ws);
        if (ws->insts.empty())
          it->state = WarpState::kDone;
      }
      info.warps = &slot.warps;
      for (auto* r : rf_) {
        if (r != nullptr)
          r->CtaLaunched(cycle, info);
      }
      if (switching_)
        SyncRunnable(cycle);
      ++queue_.next;
      ++launched_;
      ++st_.ctas;
      st_.max_resident_ctas = std::max<uint64_t>(st_.max_resident_ctas, resident());
      return true;
    }
    return false;
  }

  void LaunchAll(uint64_t cycle) {
    while (LaunchOne(cycle)) {
    }
  }

  // Simulates `cycle` (== next_cycle()).
  void Step(uint64_t cycle);

 private:
  struct Sched {
    int active = 0;
    int active_limit = 0;
    int last = -1;
    std::array<uint64_t, 10> unit_free{};
    std::optional<WarpScheduler> two_level;
    std::vector<uint32_t> issuable;
  };

  RegisterFileSystem* Part(uint32_t w) const { return rf_.empty() ? nullptr : rf_[w % nparts_]; }
  uint32_t Local(uint32_t w) const { return w / nparts_; }
  uint32_t SchedOf(uint32_t w) const { return w % nsched_; }

  CtaInfo InfoOf(uint32_t s) const {
    const CtaSlot& slot = slots_[s];
    CtaInfo info;
    info.sm = id_;
    info.cta = slot.cta;
    info.slot = s;
    info.threads = static_cast<uint32_t>(slot.warps.size()) * static_cast<uint32_t>(cfg_.lanes);
    info.regs_per_thread = static_cast<uint32_t>(std::max(1, k_.regs_per_thread));
    info.static_registers = slot.static_registers;
    info.warps = &slot.warps;
    return info;
  }

  bool NextDependsOnLong(Warp& w, uint64_t cycle) {
    if (w.wait_next == w.next)
      return w.wait_until > cycle;
    const Instruction& in = k_.code[w.stream->insts[w.next].inst];
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
  }

  void Deactivate(uint32_t wid, uint64_t cycle) {
    warps_[wid].state = WarpState::kPending;
    --sched_[SchedOf(wid)].active;
    ++st_.deactivations;
    if (RegisterFileSystem* r = Part(wid))
      r->Deactivate(cycle, Local(wid));
  }

  // Warps of a CTA slot that will still arrive at (or wait at) its current barrier.
  int BarrierLive(const CtaSlot& slot) const {
    int live = 0;
    for (uint32_t o : slot.warps)
      live += (warps_[o].state != WarpState::kDone && !warps_[o].finished_stream()) ||
              warps_[o].at_barrier;
    return live;
  }

  // Two-level: does issuing warp w's next instruction end a strand (see sm.h)? Sets
  // `long_wait` when the warp then waits for its long-latency results.
  bool EndsStrand(Warp& w, uint64_t cycle, bool& long_wait, bool& unplanned) const {
    long_wait = false;
    unplanned = false;
    const size_t n = w.next + 1;
    if (n >= w.length)
      return true;  // its last instruction: the warp leaves the active set
    const Instruction& x = k_.code[w.stream->insts[w.next].inst];
    if (x.cta_barrier && slots_[w.cta_slot].arrived + 1 < BarrierLive(slots_[w.cta_slot]))
      return true;
    const uint32_t y_index = w.stream->insts[n].inst;
    if (w.strand_next != w.next) {
      // Computed once per instruction: the registers' ready cycles change only when w issues.
      const Instruction& y = k_.code[y_index];
      bool from_x = false;
      uint64_t until = 0;
      auto check = [&](uint32_t r) {
        if (x.long_latency)
          ForEachReg(x.dsts, [&](uint32_t q) { from_x = from_x || q == r; });
        if (w.long_pending[r])
          until = std::max(until, w.ready_at[r]);
      };
      ForEachReg(y.srcs, check);
      ForEachReg(y.dsts, check);
      w.strand_next = w.next;
      w.strand_dep = from_x;
      w.strand_until = until;
    }
    const bool dep = w.strand_dep || w.strand_until > cycle;
    const bool outstanding = w.long_outstanding > 0 || x.long_latency;
    if (opt_.long_wait != nullptr) {
      // The compiler's strand analysis marks where the warp waits; a dependence it did not
      // foresee is counted (and still waited for).
      const bool planned = (*opt_.long_wait)[y_index] != 0;
      unplanned = dep && !planned;
      long_wait = (planned && outstanding) || dep;
    } else {
      long_wait = dep;
    }
    return long_wait;
  }

  // The memory access of instruction `d` of warp `w`, or false when it has none to simulate
  // (ideal memory, no addresses, no active lane): then the fixed latency applies.
  bool AccessOf(const Warp& w, const DynInst& d, const Instruction& in, mem::Access& a) const {
    if (mem_ == nullptr || !IsMemory(in.op_class) || d.active_mask == 0)
      return false;
    const uint64_t* lanes = w.stream->Addresses(d);
    if (lanes == nullptr)
      return false;
    a.space = SpaceOf(w.stream->SpaceOf(d, in.op_class));
    a.write = in.mem_write;
    a.atomic = in.mem_atomic;
    a.op = static_cast<mem::CacheOp>(in.cache_op);
    a.mask = d.active_mask;
    a.lane_bytes = in.mem_bytes != 0 ? in.mem_bytes : 4;
    a.lanes = lanes;
    return true;
  }

  // Registers `in` writes that warp `w` has not allocated (register events).
  void NewRegisters(const Warp& w, const Instruction& in) {
    new_regs_.clear();
    ForEachReg(in.dsts, [&](uint32_t r) {
      if (!w.allocated[r])
        new_regs_.push_back(static_cast<uint16_t>(r));
    });
  }

  // Whether warp `wid`'s next instruction can issue now (stall reasons noted).
  bool Issuable(uint32_t wid, uint64_t cycle) {
    Warp& w = warps_[wid];
    const DynInst& d = w.stream->insts[w.next];
    const Instruction& in = k_.code[d.inst];
    if (w.ready_next != w.next) {
      uint64_t until = 0;
      auto check = [&](uint32_t r) { until = std::max(until, w.ready_at[r]); };
      ForEachReg(in.srcs, check);
      ForEachReg(in.dsts, check);
      w.ready_next = w.next;
      w.ready_until = until;
    }
    if (w.ready_until > cycle) {
      sb_stall_ = true;
      return false;
    }
    if (sched_[SchedOf(wid)].unit_free[static_cast<size_t>(in.op_class)] > cycle) {
      unit_stall_ = true;
      return false;
    }
    RegisterFileSystem* r = Part(wid);
    if (r != nullptr && !r->CanIssue(cycle, Local(wid), d)) {
      rf_stall_ = true;
      return false;
    }
    if (reg_events_ && r != nullptr && r->WantsRegisterEvents()) {
      NewRegisters(w, in);
      if (!new_regs_.empty() && !r->CanAllocate(cycle, Local(wid), new_regs_)) {
        alloc_stall_ = true;
        return false;
      }
    }
    mem::Access a;
    if (AccessOf(w, d, in, a)) {
      if (w.mem_next != w.next || w.mem_retry <= cycle) {
        if (mem_->CanIssue(id_, cycle, a))
          return true;
        w.mem_next = w.next;
        w.mem_retry = mem_->RetryCycle(id_, cycle, a);
      }
      mem_stall_ = true;
      mem_retry_ = std::min(mem_retry_, w.mem_retry);
      return false;
    }
    return true;
  }

  void ReleaseRegs(Warp& w, uint32_t wid, uint64_t cycle, uint16_t reg) {
    if (!w.allocated[reg])
      return;
    w.allocated[reg] = false;
    if (RegisterFileSystem* r = Part(wid))
      r->Release(cycle, Local(wid), reg);
  }

  // Issues warp `wid`'s next instruction (Issuable() said it can).
  void Issue(uint32_t wid, uint64_t cycle) {
    Warp& w = warps_[wid];
    Sched& sc = sched_[SchedOf(wid)];
    const auto dyn = static_cast<uint32_t>(w.next);
    const DynInst& d = w.stream->insts[dyn];
    const Instruction& in = k_.code[d.inst];
    RegisterFileSystem* r = Part(wid);
    if (reg_events_ && r != nullptr && r->WantsRegisterEvents()) {
      for (size_t k = 0; opt_.release_after_read != nullptr && k < in.srcs.size(); ++k) {
        const auto& rel = (*opt_.release_after_read)[d.inst];
        if (k < rel.size() && rel[k] != 0) {
          for (int q = 0; q < in.srcs[k].count; ++q)
            ReleaseRegs(w, wid, cycle, static_cast<uint16_t>(in.srcs[k].first + q));
        }
      }
      if (opt_.release_at != nullptr) {
        for (uint16_t reg : (*opt_.release_at)[d.inst])
          ReleaseRegs(w, wid, cycle, reg);
      }
      ForEachReg(in.dsts, [&](uint32_t q) {
        if (!w.allocated[q]) {
          w.allocated[q] = true;
          r->Allocate(cycle, Local(wid), static_cast<uint16_t>(q));
        }
      });
    }
    const int delay = r != nullptr ? r->Issue(cycle, Local(wid), d) : 0;
    st_.operand_delay_cycles += static_cast<uint64_t>(delay);
    uint64_t done =
        cycle + static_cast<uint64_t>(delay) + static_cast<uint64_t>(cfg_.Latency(in.op_class));
    mem::Access a;
    if (AccessOf(w, d, in, a)) {
      const std::optional<uint64_t> back = mem_->Issue(id_, cycle, a);
      // Issuable() asked the memory system in this cycle and nothing issued in between could
      // take what it found free but this SM's own earlier issues, which Issuable() saw.
      if (!back)
        throw std::logic_error("memory system refused an access it accepted in CanIssue");
      done = *back + static_cast<uint64_t>(delay);
    }
    const bool long_lat = in.long_latency;
    ForEachReg(in.dsts, [&](uint32_t q) {
      w.ready_at[q] = done;
      w.long_pending[q] = long_lat;
    });
    sc.unit_free[static_cast<size_t>(in.op_class)] =
        cycle + static_cast<uint64_t>(cfg_.Occupancy(in.op_class));
    completions_.push({done, wid, dyn});
    ++w.outstanding;
    w.long_outstanding += long_lat ? 1 : 0;
    ++w.next;
    ++st_.warp_instructions;
    st_.thread_instructions += static_cast<uint64_t>(__builtin_popcount(d.active_mask));
    ++st_.by_class[static_cast<size_t>(in.op_class)];
    CtaSlot& slot = slots_[w.cta_slot];
    if (slot.stalled) {
      slot.stalled = false;
      const CtaInfo info = InfoOf(w.cta_slot);
      for (auto* p : rf_) {
        if (p != nullptr && p->WantsCtaStalls())
          p->CtaResumed(cycle, info);
      }
    }
    if (in.cta_barrier) {
      w.at_barrier = true;
      ++slot.arrived;
      if (slot.arrived >= BarrierLive(slot)) {
        for (uint32_t o : slot.warps)
          warps_[o].at_barrier = false;
        slot.arrived = 0;
      }
    }
  }

  // Dual issue: may warp `wid` issue its next instruction right after `first` in this cycle?
  bool CanDualIssue(uint32_t wid, const Instruction& first, uint64_t cycle) {
    const Warp& w = warps_[wid];
    if (w.finished_stream() || w.at_barrier || w.state != WarpState::kActive)
      return false;
    if (first.op_class == OpClass::kBranch || first.op_class == OpClass::kBarrier ||
        first.op_class == OpClass::kExit)
      return false;
    const Instruction& second = k_.code[w.stream->insts[w.next].inst];
    if (second.op_class == OpClass::kBranch || second.op_class == OpClass::kBarrier ||
        second.op_class == OpClass::kExit)
      return false;
    const bool sb = sb_stall_, unit = unit_stall_, rfs = rf_stall_, al = alloc_stall_,
               ms = mem_stall_;
    const bool ok = Issuable(wid, cycle);
    // The second instruction's hazards are not stalls of the cycle.
    sb_stall_ = sb, unit_stall_ = unit, rf_stall_ = rfs, alloc_stall_ = al, mem_stall_ = ms;
    return ok;
  }

  // CTA switching: the systems' runnable CTAs; a CTA that stops running leaves the active set.
  void SyncRunnable(uint64_t cycle) {
    for (uint32_t s = 0; s < slots_.size(); ++s) {
      CtaSlot& slot = slots_[s];
      if (!slot.busy)
        continue;
      bool run = true;
      for (auto* r : rf_)
        run = run && (r == nullptr || r->CtaRunnable(s));
      if (run == slot.runnable)
        continue;
      slot.runnable = run;
      if (!run) {
        for (uint32_t wid : slot.warps) {
          if (warps_[wid].state == WarpState::kActive)
            Deactivate(wid, cycle);
        }
      }
    }
  }

  void CheckCtaStalls(uint64_t cycle) {
    for (uint32_t s = 0; s < slots_.size(); ++s) {
      CtaSlot& slot = slots_[s];
      if (!slot.busy || slot.stalled)
        continue;
      bool any_long = false, all = true;
      for (uint32_t wid : slot.warps) {
        Warp& w = warps_[wid];
        if (w.state == WarpState::kDone || w.finished_stream() || w.at_barrier)
          continue;
        if (NextDependsOnLong(w, cycle))
          any_long = true;
        else
          all = false;
      }
      if (all && any_long) {
        slot.stalled = true;
        ++st_.cta_stalls;
        const CtaInfo info = InfoOf(s);
        for (auto* r : rf_) {
          if (r != nullptr && r->WantsCtaStalls())
            r->CtaStalled(cycle, info);
        }
      }
    }
  }

  int id_;
  const Kernel& k_;
  const SmConfig& cfg_;
  const SmOptions& opt_;
  SchedulerPolicy& policy_;
  std::vector<RegisterFileSystem*> rf_;
  mem::MemorySystem* mem_;
  Occupancy occ_;
  CtaQueue& queue_;
  std::vector<Warp> warps_;
  std::vector<CtaSlot> slots_;
  uint32_t nsched_, nparts_;
  std::vector<Sched> sched_;
  bool any_rf_ = false, cta_stalls_ = false, reg_events_ = false, switching_ = false;
  uint64_t launched_ = 0, warp_seq_ = 0, static_registers_ = 0;
  std::priority_queue<Completion, std::vector<Completion>, std::greater<>> completions_;
  bool retire_ = true;
  bool done_ = false;
  uint64_t next_cycle_ = 0;
  bool sb_stall_ = false, unit_stall_ = false, rf_stall_ = false, alloc_stall_ = false,
       mem_stall_ = false;
  uint64_t mem_retry_ = UINT64_MAX;  // this cycle: the earliest retry of a refused access
  std::vector<uint16_t> new_regs_;
  SmStats st_;
};

void SmSim::Step(uint64_t cycle) {
  if (cycle >= opt_.max_cycles)
    throw std::runtime_error(
        fmt::format("kernel {} did not finish within {} cycles", k_.name, opt_.max_cycles));

  // 1. Write-backs due this cycle.
  while (!completions_.empty() && completions_.top().cycle <= cycle) {
    const Completion c = completions_.top();
    completions_.pop();
    Warp& w = warps_[c.warp];
    --w.outstanding;
    if (k_.code[w.stream->insts[c.dyn].inst].long_latency)
      --w.long_outstanding;
    retire_ = true;
    slots_[w.cta_slot].check = true;
    if (RegisterFileSystem* r = Part(c.warp))
      r->Writeback(cycle, Local(c.warp), w.stream->insts[c.dyn]);
  }

  // Retire finished warps and CTAs, launch new CTAs into freed slots. A warp finishes when
  // its last result is written back, so only cycles with write-backs (and the cycle after a
  // launch, for warps with nothing to execute) can retire anything.
  bool freed = false;
  for (uint32_t s = 0; s < slots_.size() && retire_; ++s) {
    CtaSlot& slot = slots_[s];
    // A warp finishes only in a cycle with its write-back (or, with nothing to execute, at its
    // launch), so only slots with one can retire anything.
    if (!slot.busy || !slot.check)
      continue;
    slot.check = false;
    bool all_done = true;
    for (uint32_t wid : slot.warps) {
      Warp& w = warps_[wid];
      if (w.state != WarpState::kDone && w.finished_stream() && w.outstanding == 0) {
        if (w.state == WarpState::kActive && !opt_.two_level)
          Deactivate(wid, cycle);
        w.state = WarpState::kDone;
        if (reg_events_) {
          for (uint32_t q = 0; q <= kMaxRegs; ++q)
            ReleaseRegs(w, wid, cycle, static_cast<uint16_t>(q));
        }
      }
      all_done = all_done && w.state == WarpState::kDone;
    }
    if (all_done) {
      const CtaInfo info = InfoOf(s);
      for (auto* r : rf_) {
        if (r != nullptr)
          r->CtaFinished(cycle, info);
      }
      for (uint32_t wid : slot.warps)
        warps_[wid].state = WarpState::kEmpty;
      static_registers_ -= slot.static_registers;
      slot.busy = false;
      freed = true;
    }
  }
  retire_ = freed;
  if (freed)
    LaunchAll(cycle);
  if (queue_.empty() &&
      std::none_of(slots_.begin(), slots_.end(), [](const CtaSlot& s) { return s.busy; })) {
    st_.cycles = cycle;
    done_ = true;
    return;
  }

  // 2. Single-level: every pending warp is active. Two-level: the WarpScheduler decides below.
  if (!opt_.two_level) {
    for (uint32_t n = 0; n < warps_.size(); ++n) {
      Warp& w = warps_[n];
      Sched& sc = sched_[SchedOf(n)];
      if (w.state != WarpState::kPending || w.finished_stream() || sc.active >= sc.active_limit)
        continue;
      if (switching_ && !slots_[w.cta_slot].runnable)
        continue;
      w.state = WarpState::kActive;
      ++sc.active;
      ++st_.activations;
      if (RegisterFileSystem* r = Part(n))
        r->Activate(cycle, Local(n));
    }
  }

  // 3. Issue, scheduler by scheduler: which of its active warps could issue this cycle.
  sb_stall_ = unit_stall_ = rf_stall_ = alloc_stall_ = mem_stall_ = false;
  mem_retry_ = UINT64_MAX;
  bool any_issuable = false, issued = false, events = false;
  for (uint32_t s = 0; s < nsched_; ++s) {
    Sched& sc = sched_[s];
    sc.issuable.clear();
    for (uint32_t wid = s; wid < warps_.size(); wid += nsched_) {
      Warp& w = warps_[wid];
      if (w.state != WarpState::kActive || w.at_barrier || w.finished_stream())
        continue;
      if (switching_ && !slots_[w.cta_slot].runnable)
        continue;
      if (Issuable(wid, cycle))
        sc.issuable.push_back(wid);
    }
    any_issuable = any_issuable || !sc.issuable.empty();
    int pick = -1;
    WarpScheduler::Decision decision;
    if (sc.two_level) {
      WarpScheduler::Inputs in;
      int local = -1;
      for (uint32_t wid = s; wid < warps_.size(); wid += nsched_) {
        Warp& w = warps_[wid];
        ++local;  // wid / nsched_
        const uint64_t bit = 1ULL << local;
        const bool live = (w.state == WarpState::kPending || w.state == WarpState::kActive) &&
                          !w.finished_stream();
        if (live && !w.at_barrier)
          in.valid |= bit;
        // A warp waiting for long-latency results wakes when all of them landed (with the
        // compiler's strand marks) or when its next instruction no longer needs one (without).
        if (!sc.two_level->IsWaiting(local))
          continue;
        if (!live) {
          in.wake |= bit;  // finished or gone: nothing to wait for
        } else if (!w.at_barrier &&
                   (!w.wait_long || (opt_.long_wait != nullptr ? w.long_outstanding == 0
                                                               : !NextDependsOnLong(w, cycle)))) {
          in.wake |= bit;
        }
      }
      for (uint32_t wid : sc.issuable) {
        in.ready |= 1ULL << (wid / nsched_);
        Warp& w = warps_[wid];
        if (EndsStrand(w, cycle, w.wait_long, w.unplanned))
          in.suspend |= 1ULL << (wid / nsched_);
      }
      decision = sc.two_level->Step(in);
      if (decision.issue)
        pick = decision.issue_warp * static_cast<int>(nsched_) + static_cast<int>(s);
    } else if (policy_.OldestFirst()) {
      // Greedy-then-oldest: the last warp while it can issue, else the oldest.
      for (uint32_t wid : sc.issuable) {
        if (static_cast<int>(wid) == sc.last) {
          pick = sc.last;
          break;
        }
        if (pick < 0 || warps_[wid].age < warps_[static_cast<size_t>(pick)].age)
          pick = static_cast<int>(wid);
      }
    } else {
      pick = policy_.Pick(sc.issuable, sc.last);
    }
    if (pick >= 0) {
      const auto wid = static_cast<uint32_t>(pick);
      const Instruction& first = k_.code[warps_[wid].stream->insts[warps_[wid].next].inst];
      Issue(wid, cycle);
      issued = true;
      // Dual issue: the same warp's next instruction (not after a strand end: the two-level
      // scheduler deschedules the warp at this edge).
      for (int extra = 1; extra < cfg_.issue_width && !decision.deactivate; ++extra) {
        if (!CanDualIssue(wid, first, cycle))
          break;
        if (sc.two_level) {
          bool lw = false, up = false;
          if (EndsStrand(warps_[wid], cycle, lw, up))
            break;
        }
        Issue(wid, cycle);
        ++st_.dual_issues;
      }
      sc.last = pick;
    }
    // The two-level scheduler's events take effect at the edge, after the issue.
    if (decision.deactivate) {
      const uint32_t wid =
          static_cast<uint32_t>(decision.issue_warp) * nsched_ + static_cast<uint32_t>(s);
      st_.unplanned_waits += warps_[wid].unplanned ? 1 : 0;
      Deactivate(wid, cycle);
    }
    for (const auto& act : decision.activations) {
      const uint32_t wid = static_cast<uint32_t>(act.warp) * nsched_ + static_cast<uint32_t>(s);
      warps_[wid].state = WarpState::kActive;
      ++sc.active;
      ++st_.activations;
      if (RegisterFileSystem* r = Part(wid))
        r->Activate(cycle, Local(wid));
    }
    events = events || decision.deactivate || !decision.activations.empty();
  }
  if (!issued)
    ++st_.idle_cycles;  // `last` stays: a greedy scheduler returns to it when it can issue
  if (cta_stalls_)
    CheckCtaStalls(cycle);
  st_.scoreboard_stalls += sb_stall_;
  st_.unit_stalls += unit_stall_;
  st_.rf_stalls += rf_stall_;
  st_.alloc_stalls += alloc_stall_;
  st_.mem_stalls += mem_stall_;
  for (auto* r : rf_) {
    if (r != nullptr)
      r->Tick(cycle);
  }
  bool switch_busy = false;
  if (switching_) {
    SyncRunnable(cycle);
    for (auto* r : rf_)
      switch_busy = switch_busy || (r != nullptr && r->Busy());
  }
  next_cycle_ = cycle + 1;
  // Event-driven step: when no warp could issue and none waited for the register-file system,
  // no warp can issue before the next write-back, the next shared unit becoming free or the
  // memory system's next MSHR release (for an access it refused), so the cycles in between are
  // counted with this cycle's stall reasons and skipped; the register-file systems still tick
  // through them while they have work of their own. (Not after a two-level activation or
  // deactivation: a newly active warp may issue in the next cycle.)
  // (Nor while a CTA-switching system has work: its moves decide when CTAs may run again.)
  if (!any_issuable && !rf_stall_ && !alloc_stall_ && !events && !switch_busy) {
    uint64_t next = completions_.empty() ? UINT64_MAX : completions_.top().cycle;
    next = std::min(next, mem_retry_);
    for (const Sched& sc : sched_) {
      for (uint64_t f : sc.unit_free) {
        if (f > cycle && f < next)
          next = f;
      }
    }
    if (next != UINT64_MAX && next > cycle + 1) {
      const uint64_t skip = std::min(next, opt_.max_cycles) - cycle - 1;
      st_.idle_cycles += skip;
      st_.scoreboard_stalls += sb_stall_ ? skip : 0;
      st_.unit_stalls += unit_stall_ ? skip : 0;
      st_.mem_stalls += mem_stall_ ? skip : 0;
      for (auto* r : rf_) {
        for (uint64_t c = cycle + 1; r != nullptr && c <= cycle + skip && r->Busy(); ++c)
          r->Tick(c);
      }
      next_cycle_ = cycle + skip + 1;
    }
  }
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

// The occupancy of `run` on `cfg` with `regs_per_thread` registers per thread (the kernel's
// own count, or a compile budget) and its CTA count; an empty occupancy (resident 0) and 0 CTAs
// when the run has no kernel or no CTA.
std::pair<Occupancy, size_t> OccupancyOf(const KernelRun& run, const SmConfig& cfg,
                                         int regs_per_thread) {
  if (run.kernel == nullptr)
    return {};
  const auto ctas = Ctas(run);
  if (ctas.empty())
    return {};
  Kernel k;  // only what the occupancy reads: registers and shared memory
  k.regs_per_thread = regs_per_thread;
  k.shared_bytes = run.kernel->shared_bytes;
  return {ComputeOccupancy(k, ctas, cfg), ctas.size()};
}

std::pair<Occupancy, size_t> OccupancyOf(const KernelRun& run, const SmConfig& cfg) {
  return run.kernel == nullptr ? std::pair<Occupancy, size_t>{}
                               : OccupancyOf(run, cfg, run.kernel->regs_per_thread);
}

int AllocatedRegsPerThread(const Kernel& k, const SmConfig& cfg) {
  const int unit = std::max<int>(1, static_cast<int>(cfg.register_alloc_unit));
  return (std::max(1, k.regs_per_thread) + unit - 1) / unit * unit;
}

uint64_t MaxLiveWarps(const KernelRun& run, const SmConfig& cfg) {
  return run.kernel == nullptr ? 0 : MaxLiveWarps(run, cfg, run.kernel->regs_per_thread);
}

uint64_t MaxLiveWarps(const KernelRun& run, const SmConfig& cfg, int regs_per_thread) {
  const Occupancy o = OccupancyOf(run, cfg, regs_per_thread).first;
  return std::min<uint64_t>(o.resident * o.warps_per_cta,
                            static_cast<uint64_t>(std::max(0, cfg.warps)));
}

uint64_t ResidentRegisters(const KernelRun& run, const SmConfig& cfg, int sms) {
  const auto [o, ctas] = OccupancyOf(run, cfg);
  const uint64_t n = static_cast<uint64_t>(std::max(1, sms));
  const uint64_t share = (ctas + n - 1) / n;
  return std::min<uint64_t>(o.resident, share) * o.regs_per_cta;
}

GpuStats RunGpu(const KernelRun& run, const SmConfig& cfg, SchedulerPolicy& policy,
                const std::vector<std::vector<RegisterFileSystem*>>& rf, mem::MemorySystem* memory,
                const SmOptions& opt) {
  if (run.kernel == nullptr)
    throw std::invalid_argument("RunGpu: the kernel run has no kernel");
  if (rf.empty())
    throw std::invalid_argument("RunGpu: no SM");
  if (cfg.schedulers < 1 || cfg.warps % cfg.schedulers != 0 || cfg.issue_width < 1)
    throw std::invalid_argument(
        fmt::format("RunGpu: {} warps cannot be split among {} schedulers issuing {} per cycle",
                    cfg.warps, cfg.schedulers, cfg.issue_width));
  const Kernel& k = *run.kernel;
  GpuStats gs;
  gs.sms.resize(rf.size());
  const std::vector<std::vector<const WarpStream*>> ctas = Ctas(run);
  if (ctas.empty())
    return gs;
  const Occupancy occ = ComputeOccupancy(k, ctas, cfg);
  if (occ.hard == 0)
    throw std::runtime_error(FitMessage(k, occ, cfg));
  CtaQueue queue;
  queue.ctas = &ctas;
  std::vector<std::unique_ptr<SmSim>> sms;
  for (size_t s = 0; s < rf.size(); ++s) {
    sms.push_back(std::make_unique<SmSim>(static_cast<int>(s), k, cfg, opt, policy, rf[s], memory,
                                          occ, queue));
  }
  // CTAs round-robin over the SMs while they have room.
  for (bool any = true; any && !queue.empty();) {
    any = false;
    for (auto& sm : sms)
      any = sm->LaunchOne(0) || any;
  }
  if (std::all_of(sms.begin(), sms.end(), [](const auto& sm) { return sm->resident() == 0; }))
    throw std::runtime_error(FitMessage(k, occ, cfg));
  // Lockstep: every SM whose next cycle has come steps, in SM order, cycle by cycle. The
  // watchdog (SmOptions::max_idle_cycles) follows the warp instructions issued on all SMs.
  uint64_t issued = 0, last_issue_cycle = 0;
  for (uint64_t cycle = 0;;) {
    uint64_t next = UINT64_MAX, now_issued = 0;
    for (auto& sm : sms) {
      if (!sm->done() && sm->next_cycle() == cycle)
        sm->Step(cycle);
      now_issued += sm->stats().warp_instructions;
      if (!sm->done())
        next = std::min(next, sm->next_cycle());
    }
    if (now_issued != issued) {
      issued = now_issued;
      last_issue_cycle = cycle;
    }
    if (next == UINT64_MAX)
      break;
    if (next - last_issue_cycle > opt.max_idle_cycles) {
      std::string state;
      for (size_t s = 0; s < sms.size(); ++s) {
        if (!sms[s]->done())
          state += fmt::format("{}SM {}: {} CTAs resident", state.empty() ? "" : "; ", s,
                               sms[s]->resident());
      }
      throw std::runtime_error(fmt::format(
          "kernel {}: deadlock: no warp instruction issued on any SM for {} cycles (since cycle "
          "{}, {} warp instructions done, {} of {} CTAs launched; {}): the register-file system "
          "or the scheduler lets no warp issue",
          k.name, opt.max_idle_cycles, last_issue_cycle, issued, queue.next, ctas.size(), state));
    }
    cycle = next;
  }
  if (!queue.empty()) {
    throw std::runtime_error(fmt::format(
        "kernel {}: {} CTAs never launched: the register-file system refused them on an empty SM",
        k.name, ctas.size() - queue.next));
  }
  for (size_t s = 0; s < sms.size(); ++s) {
    gs.sms[s] = sms[s]->stats();
    gs.total.Add(gs.sms[s]);
  }
  return gs;
}

SmStats RunSm(const KernelRun& run, const SmConfig& cfg, SchedulerPolicy& policy,
              RegisterFileSystem* rf, const SmOptions& opt) {
  if (run.kernel == nullptr)
    throw std::invalid_argument("RunSm: the kernel run has no kernel");
  SmConfig one = cfg;
  one.rf_partitions = 1;
  return RunGpu(run, one, policy, {{rf}}, nullptr, opt).total;
}

}  // namespace gpurf::sim
