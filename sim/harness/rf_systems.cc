#include "sim/harness/rf_systems.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "base/registry.h"
#include "energy/gebhart.h"
#include "gen/params/param.h"
#include "gen/structures/mrf/mrf_spec.h"
#include "models/rfc_model.h"
#include "sim/harness/hierarchy.h"
#include "sim/harness/transactors/mrf_transactions.h"
#include "sim/harness/transactors/orf_transactions.h"
#include "sim/harness/transactors/rfc_transactions.h"

namespace gpurf::harness {

RfStats& RfStats::operator+=(const RfStats& o) {
  counts += o.counts;
  for (size_t u = 0; u < bank_conflicts.size(); ++u)
    bank_conflicts[u] += o.bank_conflicts[u];
  operand_regs += o.operand_regs;
  result_regs += o.result_regs;
  mrf_issues += o.mrf_issues;
  flushes += o.flushes;
  dead_kills += o.dead_kills;
  core_reads += o.core_reads;
  core_conflicts += o.core_conflicts;
  core_issue_stalls += o.core_issue_stalls;
  dispatch_mismatches += o.dispatch_mismatches;
  dispatch_late_cycles += o.dispatch_late_cycles;
  for (const auto& [name, v] : o.extra) {
    auto it =
        std::find_if(extra.begin(), extra.end(), [&](const auto& e) { return e.first == name; });
    if (it == extra.end())
      extra.emplace_back(name, v);
    else
      it->second += v;
  }
  return *this;
}

namespace sp = sim::passes;
using energy::Unit;

namespace {

MrfSpec TimingSpec(int banks, int warps, int regs, int collectors) {
  ParamSet p(MrfSpec::ParamDescs());
  const int rows_per_warp = (regs + banks - 1) / banks;
  auto set = [&](const std::string& k, int v) { p.Set(k, std::to_string(v), {}, "harness." + k); };
  set("banks", banks);
  set("rows", std::max(1, warps * rows_per_warp));
  set("width", 8);  // the timing does not depend on the data
  set("warps", warps);
  set("regs", regs);
  set("collectors", collectors);
  set("tag_width", 16);
  set("counter_width", 64);
  return MrfSpec::FromParams(p);
}

}  // namespace

int RegsOf(const std::vector<sim::RegOperand>& ops) {
  int n = 0;
  for (const auto& o : ops)
    n += o.count;
  return n;
}

// ---------------------------------------------------------------------------------------------
// MrfTiming

MrfTiming::MrfTiming(int banks, int warps, int regs, int collectors)
    : core_(TimingSpec(banks, warps, regs, collectors)),
      collectors_(collectors),
      tag_mask_((uint64_t{1} << core_.spec().tag_width) - 1),
      bank_free_(static_cast<size_t>(banks), 0) {}

bool MrfTiming::CanIssue() const {
  return queue_.empty() && core_.BusyCollectors() < collectors_;
}

int MrfTiming::Issue(uint64_t cycle, int warp, const std::vector<int>& regs, uint64_t& conflicts) {
  if (regs.empty())
    return 0;
  // Chunk c enters a collector in cycle + c at the earliest (one issue per cycle).
  uint64_t dispatch = 0;
  const size_t chunks = (regs.size() + 2) / 3;
  for (size_t c = 0; c < chunks; ++c) {
    Chunk ch;
    ch.issue.valid = true;
    ch.issue.warp = warp;
    ch.issue.tag = next_tag_++ & tag_mask_;
    const uint64_t earliest = cycle + c + 1;
    for (size_t s = 0; s < 3 && c * 3 + s < regs.size(); ++s) {
      const int reg = regs[c * 3 + s];
      ch.issue.src_valid[s] = true;
      ch.issue.src_reg[s] = reg;
      auto& bank = bank_free_[static_cast<size_t>(core_.Locate(warp, reg).bank)];
      const uint64_t grant = std::max(earliest, bank);
      bank = grant + 1;
      conflicts += grant - earliest;
      dispatch = std::max(dispatch, grant + 2);
    }
    ch.last = c + 1 == chunks;
    queue_.push_back(ch);
  }
  queue_.back().predicted = dispatch;
  ++issues_;
  // Conflict-free: issue in t, grant in t+1, dispatch in t+3.
  return static_cast<int>(dispatch - (cycle + 3));
}

void MrfTiming::Tick(uint64_t cycle) {
  if (Idle())
    return;  // nothing waits: the step would change nothing
  MrfIssue issue;
  if (!queue_.empty() && core_.BusyCollectors() < collectors_)
    issue = queue_.front().issue;
  const MrfWriteBack none;
  MrfCore::View& v = view_;
  core_.Step(issue, none, true, false, &v);
  if (v.disp.valid) {
    const auto it = std::find_if(inflight_.begin(), inflight_.end(),
                                 [&](const Chunk& c) { return c.issue.tag == v.disp.tag; });
    if (it == inflight_.end())
      throw std::logic_error(fmt::format("MRF timing: dispatch of unknown tag {}", v.disp.tag));
    if (it->last && it->predicted != cycle) {
      ++mismatches_;
      if (cycle > it->predicted)
        late_ += cycle - it->predicted;
    }
    inflight_.erase(it);
  }
  if (issue.valid && v.issue_ready) {
    const auto it = std::find_if(inflight_.begin(), inflight_.end(),
                                 [&](const Chunk& c) { return c.issue.tag == issue.tag; });
    if (it != inflight_.end())
      *it = queue_.front();
    else
      inflight_.push_back(queue_.front());
    queue_.pop_front();
  }
}

void MrfTiming::Finish(RfStats& st) const {
  const MrfCounters& c = core_.totals();
  st.core_reads = c.reads;
  st.core_conflicts = c.conflicts;
  st.core_issue_stalls = c.issue_stalls;
  st.mrf_issues = c.issued;
  st.dispatch_mismatches = mismatches_;
  st.dispatch_late_cycles = late_;
}

// ---------------------------------------------------------------------------------------------
// RfSystem

RfSystem::RfSystem(const sim::Kernel& k, const sim::SmConfig& sm, int mrf_banks, int collectors)
    : k_(k), mrf_(mrf_banks, sm.warps, std::max(1, k.regs_per_thread), collectors) {}

void RfSystem::CountFor(const energy::Energies& e) {
  mrf_level_ = e.LevelIndex("MRF");
  ResolveCounts(e);
  st_.counts = energy::AccessCounts(e);
}

bool RfSystem::CanIssue(uint64_t, uint32_t warp, const sim::DynInst& d) {
  return !ReadsMrf(warp, d) || mrf_.CanIssue();
}

int RfSystem::Issue(uint64_t cycle, uint32_t warp, const sim::DynInst& d) {
  const sim::Instruction& in = k_.code[d.inst];
  scratch_.clear();
  ReadOperands(warp, d, scratch_);
  st_.operand_regs += static_cast<uint64_t>(RegsOf(in.srcs));
  const auto unit =
      static_cast<size_t>(sim::IsSharedUnit(in.op_class) ? Unit::kShared : Unit::kPrivate);
  const uint32_t slot = MrfSlot(warp);
  const int delay = mrf_.Issue(cycle, static_cast<int>(slot), scratch_, st_.bank_conflicts[unit]);
  if (listener_ != nullptr && !scratch_.empty())
    listener_->Transaction(MrfRead(warp, slot, scratch_));
  return delay + ExtraDelay(d);
}

void RfSystem::Writeback(uint64_t, uint32_t warp, const sim::DynInst& d) {
  st_.result_regs += static_cast<uint64_t>(RegsOf(k_.code[d.inst].dsts));
  WriteResults(warp, d);
}

namespace {

// ---------------------------------------------------------------------------------------------
// MRF only

class MrfOnly : public RfSystem {
 public:
  using RfSystem::RfSystem;

 protected:
  void ReadOperands(uint32_t, const sim::DynInst& d, std::vector<int>& mrf) override {
    const sim::Instruction& in = k_.code[d.inst];
    ForEachReg(in.srcs, [&](int r) { mrf.push_back(r); });
    Read(mrf_level_, sim::IsSharedUnit(in.op_class), mrf.size());
  }
  bool ReadsMrf(uint32_t, const sim::DynInst& d) const override {
    return !k_.code[d.inst].srcs.empty();
  }
  void WriteResults(uint32_t warp, const sim::DynInst& d) override {
    const sim::Instruction& in = k_.code[d.inst];
    Write(mrf_level_, sim::IsSharedUnit(in.op_class), static_cast<uint64_t>(RegsOf(in.dsts)));
    if (listener_ != nullptr)
      ForEachReg(in.dsts, [&](int r) { listener_->Transaction(MrfWrite(warp, r)); });
  }
};

// ---------------------------------------------------------------------------------------------
// SW ORF

class SwOrf : public RfSystem {
 public:
  SwOrf(const sim::Kernel& k, const sim::SmConfig& sm, int banks, int collectors,
        const sp::OrfAllocation& alloc)
      : RfSystem(k, sm, banks, collectors), alloc_(alloc) {
    if (alloc_.insts.size() != k.code.size())
      throw std::invalid_argument("SW ORF: the allocation does not belong to the kernel");
  }

 protected:
  void ResolveCounts(const energy::Energies& e) override {
    level_of_[static_cast<size_t>(sp::RfLevel::kMrf)] = mrf_level_;
    for (const sp::RfLevel l : {sp::RfLevel::kL1, sp::RfLevel::kL0}) {
      if (static_cast<int>(l) < alloc_.config.levels)
        level_of_[static_cast<size_t>(l)] = e.LevelIndex(sp::RfLevelName(l));
    }
  }
  int ToLevel(sp::RfLevel l) const { return level_of_[static_cast<size_t>(l)]; }

  void ReadOperands(uint32_t, const sim::DynInst& d, std::vector<int>& mrf) override {
    const sim::Instruction& in = k_.code[d.inst];
    const bool sh = sim::IsSharedUnit(in.op_class);
    const sp::InstAlloc& a = alloc_.insts[d.inst];
    for (size_t s = 0; s < in.srcs.size(); ++s) {
      const sim::RegOperand& o = in.srcs[s];
      const sp::OperandAlloc& oa = a.srcs[s];
      Read(ToLevel(oa.level), sh, o.count);
      if (oa.fill != sp::RfLevel::kMrf)
        Write(ToLevel(oa.fill), sh, o.count);
      if (oa.level == sp::RfLevel::kMrf) {
        for (int j = 0; j < o.count; ++j)
          mrf.push_back(o.first + j);
      }
      if (listener_ != nullptr) {
        for (int j = 0; j < o.count; ++j) {
          if (oa.level != sp::RfLevel::kMrf)
            listener_->Transaction(
                OrfRead(oa.level, static_cast<int>(s), o.first + j, oa.entries[j]));
        }
      }
    }
    // Fills take the values the MRF delivers: after every read of the instruction.
    for (size_t s = 0; listener_ != nullptr && s < in.srcs.size(); ++s) {
      const sp::OperandAlloc& oa = a.srcs[s];
      for (int j = 0; oa.fill != sp::RfLevel::kMrf && j < in.srcs[s].count; ++j)
        listener_->Transaction(OrfWrite(oa.fill, in.srcs[s].first + j, oa.entries[j], true));
    }
  }
  bool ReadsMrf(uint32_t, const sim::DynInst& d) const override {
    for (const auto& oa : alloc_.insts[d.inst].srcs) {
      if (oa.level == sp::RfLevel::kMrf)
        return true;
    }
    return false;
  }
  void WriteResults(uint32_t warp, const sim::DynInst& d) override {
    const sim::Instruction& in = k_.code[d.inst];
    const bool sh = sim::IsSharedUnit(in.op_class);
    const sp::InstAlloc& a = alloc_.insts[d.inst];
    for (size_t r = 0; r < in.dsts.size(); ++r) {
      const sp::ResultAlloc& ra = a.dsts[r];
      if (ra.mrf)
        Write(mrf_level_, sh, in.dsts[r].count);
      if (ra.orf != sp::RfLevel::kMrf)
        Write(ToLevel(ra.orf), sh, in.dsts[r].count);
      for (int j = 0; listener_ != nullptr && j < in.dsts[r].count; ++j) {
        const int reg = in.dsts[r].first + j;
        if (ra.mrf)
          listener_->Transaction(MrfWrite(warp, reg));
        if (ra.orf != sp::RfLevel::kMrf)
          listener_->Transaction(OrfWrite(ra.orf, reg, ra.entries[j], false));
      }
    }
  }

 private:
  const sp::OrfAllocation& alloc_;
  std::array<int, 3> level_of_{-1, -1, -1};  // level index by sp::RfLevel
};

// ---------------------------------------------------------------------------------------------
// HW RFC

class HwRfc : public RfSystem {
 public:
  HwRfc(const sim::Kernel& k, const sim::SmConfig& sm, int banks, int collectors,
        const RfcConfig& rc, const sp::Liveness& live, bool hints)
      : RfSystem(k, sm, banks, collectors),
        rc_(rc),
        cache_(rc),
        live_(live),
        hints_(hints),
        slot_of_(static_cast<size_t>(sm.warps), -1),
        slot_free_(static_cast<size_t>(rc.slots), true),
        zero_(rc.width) {
    if (rc_.levels == 2)
      ComputeNotL0();
  }

  void Activate(uint64_t, uint32_t warp) override {
    if (slot_of_[warp] >= 0)
      return;
    for (size_t s = 0; s < slot_free_.size(); ++s) {
      if (slot_free_[s]) {
        slot_free_[s] = false;
        slot_of_[warp] = static_cast<int>(s);
        return;
      }
    }
    throw std::logic_error(
        fmt::format("HW RFC: warp {} activated with all {} slots taken", warp, rc_.slots));
  }

  void Deactivate(uint64_t, uint32_t warp) override {
    const int slot = slot_of_[warp];
    if (slot < 0)
      return;
    cache_.CountFlush();
    ++st_.flushes;
    int entries = 0;
    for (int lvl; (lvl = cache_.NextFlushLevel(slot)) >= 0; ++entries) {
      cache_.FlushNext(slot);
      At(lvl == 0 ? l0_level_ : l1_level_).drains += 1;
      At(mrf_level_).writebacks += 1;
    }
    if (listener_ != nullptr)
      listener_->Transaction(RfcFlush(warp, slot, entries));
    slot_free_[static_cast<size_t>(slot)] = true;
    slot_of_[warp] = -1;
  }

  void Finish() override {
    RfSystem::Finish();
    uint64_t tags = 0;
    for (const auto& l : cache_.counters().level)
      tags += l.tag_checks;
    st_.counts.events[static_cast<size_t>(tag_event_)] = tags;
    st_.dead_kills = cache_.counters().dead_kills;
  }

 protected:
  int ExtraDelay(const sim::DynInst& d) const override {
    return k_.code[d.inst].srcs.empty() ? 0 : 1;  // the tag-check stage
  }

  void ResolveCounts(const energy::Energies& e) override {
    l1_level_ = e.LevelIndex("L1");
    if (rc_.levels == 2)
      l0_level_ = e.LevelIndex("L0");
    tag_event_ = e.ComponentIndex("tag checks");
  }

  bool ReadsMrf(uint32_t warp, const sim::DynInst& d) const override {
    const int slot = slot_of_[warp];
    bool mrf = false;
    ForEachReg(k_.code[d.inst].srcs,
               [&](int r) { mrf = mrf || slot < 0 || cache_.LevelOf(slot, r) < 0; });
    return mrf;
  }

  void ReadOperands(uint32_t warp, const sim::DynInst& d, std::vector<int>& mrf) override {
    const sim::Instruction& in = k_.code[d.inst];
    const bool sh = sim::IsSharedUnit(in.op_class);
    const int slot = slot_of_[warp];
    if (slot < 0)
      throw std::logic_error(fmt::format("HW RFC: warp {} issues without a slot", warp));
    ops_.clear();
    for (size_t s = 0; s < in.srcs.size(); ++s) {
      const bool last = hints_ && live_.warp_dead_after[d.inst][s] != 0;
      for (int j = 0; j < in.srcs[s].count; ++j)
        ops_.push_back({true, slot, in.srcs[s].first + j, last});
    }
    if (ops_.empty())
      return;
    std::vector<RfcCache::ReadResult>& res = res_;
    cache_.Read(ops_, res);  // res[i] answers ops_[i]
    if (listener_ != nullptr)
      listener_->Transaction(RfcRead(ops_, res));
    for (size_t i = 0; i < ops_.size(); ++i) {
      if (!res[i].hit) {
        Read(mrf_level_, sh);
        mrf.push_back(ops_[i].reg);
      } else if (res[i].level == 0) {
        if (sh) {
          throw std::logic_error(
              fmt::format("HW RFC: shared-unit instruction {} ({}) reads R{} from the L0", d.inst,
                          in.opcode, ops_[i].reg));
        }
        Read(l0_level_, sh);
      } else {
        Read(l1_level_, sh);
      }
    }
  }

  void WriteResults(uint32_t warp, const sim::DynInst& d) override {
    const sim::Instruction& in = k_.code[d.inst];
    const bool sh = sim::IsSharedUnit(in.op_class);
    const int slot = slot_of_[warp];
    // A write-back comes in a later cycle than the last lookups: their LRU touches count for
    // its victim choice (an empty Read starts the cycle, as the RTL's age update at the edge).
    if (!in.dsts.empty())
      cache_.Read(no_ops_, res_);
    for (size_t r = 0; r < in.dsts.size(); ++r) {
      for (int j = 0; j < in.dsts[r].count; ++j) {
        const int reg = in.dsts[r].first + j;
        if (slot < 0) {
          // Descheduled warp: its slot was flushed; the result goes straight to the MRF. Its
          // register cannot be in the RFC (the flush emptied the slot).
          Write(mrf_level_, sh);
          if (listener_ != nullptr)
            listener_->Transaction(MrfWrite(warp, reg));
          continue;
        }
        const bool not_l0 = rc_.levels == 2 && not_l0_[d.inst][r];
        const RfcCache::WriteResult w = cache_.Write(slot, reg, zero_, in.long_latency, not_l0);
        if (listener_ != nullptr)
          listener_->Transaction(RfcWrite(slot, reg, in.long_latency, not_l0, w));
        if (in.long_latency) {
          Write(mrf_level_, sh);
        } else {
          Write(rc_.levels == 2 && !not_l0 ? l0_level_ : l1_level_, sh);
        }
        if (w.l0_evicted) {
          At(l0_level_).drains += 1;
          At(l1_level_).fills += 1;
        }
        if (w.to_mrf && w.to_mrf->kind == RfcWbKind::kEviction) {
          At(l1_level_).drains += 1;
          At(mrf_level_).writebacks += 1;
        }
      }
    }
  }

 private:
  // A result may go to the L0 only when no shared unit can read it: every path from the write
  // to a read of the register before an unguarded overwrite reaches private-datapath reads only.
  void ComputeNotL0() {
    const size_t n = k_.code.size();
    std::vector<std::vector<uint32_t>> succ(n);
    for (const auto& b : k_.blocks) {
      for (uint32_t i = b.first; i + 1 < b.end; ++i)
        succ[i].push_back(i + 1);
      if (b.end > b.first) {
        for (uint32_t s : b.succs) {
          if (s != sim::kExitBlock)
            succ[b.end - 1].push_back(k_.blocks[s].first);
        }
      }
    }
    not_l0_.assign(n, {});
    std::vector<uint32_t> seen(n, 0), stack;
    uint32_t stamp = 0;
    for (size_t i = 0; i < n; ++i) {
      const sim::Instruction& in = k_.code[i];
      not_l0_[i].assign(in.dsts.size(), false);
      for (size_t r = 0; r < in.dsts.size(); ++r) {
        bool shared_use = sim::IsSharedUnit(in.op_class);
        for (int j = 0; j < in.dsts[r].count && !shared_use; ++j) {
          const int reg = in.dsts[r].first + j;
          ++stamp;
          stack.assign(succ[i].begin(), succ[i].end());
          while (!stack.empty() && !shared_use) {
            const uint32_t x = stack.back();
            stack.pop_back();
            if (seen[x] == stamp)
              continue;
            seen[x] = stamp;
            const sim::Instruction& u = k_.code[x];
            bool reads = false;
            ForEachReg(u.srcs, [&](int q) { reads = reads || q == reg; });
            if (reads && sim::IsSharedUnit(u.op_class))
              shared_use = true;
            if (sp::KillSet(u).test(static_cast<size_t>(reg)))
              continue;
            stack.insert(stack.end(), succ[x].begin(), succ[x].end());
          }
        }
        not_l0_[i][r] = shared_use;
      }
    }
  }

  RfcConfig rc_;
  RfcCache cache_;
  const sp::Liveness& live_;
  bool hints_;
  std::vector<int> slot_of_;
  std::vector<bool> slot_free_;
  std::vector<std::vector<bool>> not_l0_;
  std::vector<RfcCache::Operand> ops_;
  const std::vector<RfcCache::Operand> no_ops_;  // the empty Read that starts a write's cycle
  std::vector<RfcCache::ReadResult> res_;        // answers of the last Read (may be longer)
  Bits zero_;
  int l1_level_ = -1, l0_level_ = -1;  // level indices (the L0 with two levels only)
  int tag_event_ = -1;                 // component index of the tag checks
};

}  // namespace

int MrfBanks(const DesignSpec& d) {
  return std::max(1, d.mrf.banks_per_cluster);
}

const HarnessHierarchy& HarnessHierarchyOf(const DesignSpec& d) {
  const HarnessHierarchy* h = Registry<HarnessHierarchy>::Get().Find(d.hierarchy.kind);
  if (h == nullptr) {
    throw std::invalid_argument(
        fmt::format("hierarchy kind '{}' is not simulated", d.hierarchy.kind));
  }
  return *h;
}

sp::PassOptions PassOptionsFor(const DesignSpec& d) {
  sp::PassOptions po;
  po.orf.l1_entries = d.hierarchy.l1_entries_per_thread;
  po.orf.l0_split = d.hierarchy.l0_split;
  po.orf.levels = HarnessHierarchyOf(d).allocated_levels(d);
  return po;
}

bool CompilerAllocates(const DesignSpec& d) {
  return HarnessHierarchyOf(d).allocated_levels(d) > 1;
}

std::unique_ptr<RfSystem> MakeRfSystem(const DesignSpec& d, const sim::Kernel& k,
                                       const sim::SmConfig& sm, const sp::KernelAnalysis& a,
                                       const HarnessOptions& opt, const energy::Energies& e) {
  std::unique_ptr<RfSystem> rf = HarnessHierarchyOf(d).make_system(d, k, sm, a, opt);
  rf->CountFor(e);
  return rf;
}

namespace {

int Banks(const DesignSpec& d) {
  return MrfBanks(d);
}
int NoOrf(const DesignSpec&) {
  return 1;
}
std::string NoNote(const DesignSpec&) {
  return "";
}

// Gebhart's comparison (TOCS 2012 Figure 24) reports every design in one frame: the MRF, the
// L1 and L0 levels (an ORF or RFC level, zero where a design has none) and the tag checks of a
// hardware cache. The hierarchies here all report in it, so that their reports line up column
// for column; the figures are those of `pe` (per 128-bit row), the tag check Gebhart-based
// (gebhart::TagCheckEstimate for the design's L1 entries per thread) unless `pe` has one.
energy::Energies GebhartFrame(const DesignSpec& d, int slots, const sp::RegisterFileEnergies& pe,
                              const std::string& json) {
  const int l1 = d.hierarchy.l1_entries_per_thread;
  const std::string measured = pe.source + (json.empty() ? "" : " (characterization " + json + ")");
  energy::Energies e;
  auto level = [&](const std::string& name, double read_pj, double write_pj,
                   std::array<double, energy::kNumUnits> mm) {
    energy::LevelEnergy le = energy::gebhart::Level(name, l1, slots);
    le.read_pj = read_pj;
    le.write_pj = write_pj;
    le.mm = mm;
    if (!json.empty())
      le.source = measured;
    e.levels.push_back(std::move(le));
  };
  level("MRF", pe.mrf_read_pj, pe.mrf_write_pj, {pe.mrf_private_mm, pe.mrf_shared_mm});
  level("L1", pe.l1_read_pj, pe.l1_write_pj, {pe.l1_private_mm, pe.l1_shared_mm});
  level("L0", pe.l0_read_pj, pe.l0_write_pj, {pe.l0_private_mm, 0.0});
  energy::ComponentEnergy tag = energy::gebhart::TagCheckEstimate(l1);
  if (pe.rfc_tag_pj >= 0) {
    tag.pj = pe.rfc_tag_pj;
    tag.source = measured;
  }
  e.components.push_back(std::move(tag));
  e.row_bits = 128;
  e.pj_per_mm_word = pe.wire_pj_per_mm_32bit;
  e.writeback_mm = pe.mrf_private_mm;  // the upper levels sit next to the private datapath
  return e;
}

}  // namespace

// The baseline: every operand from the MRF, every result to it.
GPURF_REGISTER(HarnessHierarchy, mrf_only, "mrf-only",
               (HarnessHierarchy{
                   .allocated_levels = NoOrf,
                   .make_system = [](const DesignSpec& d, const sim::Kernel& k,
                                     const sim::SmConfig& sm, const sp::KernelAnalysis&,
                                     const HarnessOptions& opt) -> std::unique_ptr<RfSystem> {
                     return std::make_unique<MrfOnly>(k, sm, Banks(d), opt.mrf_collectors);
                   },
                   .describe = [](const DesignSpec&, const HarnessOptions&, int) -> std::string {
                     return "MRF only";
                   },
                   .rtl_structures = [](const DesignSpec&) { return std::vector<std::string>{}; },
                   .compiler_note =
                       [](const DesignSpec& d) {
                         return fmt::format(
                             "design '{}' has no register file hierarchy: every access is to the "
                             "MRF",
                             d.name);
                       },
                   .energies = GebhartFrame,
               }))

// Gebhart's software-managed operand register files: the compiler's allocation decides.
GPURF_REGISTER(
    HarnessHierarchy, sw_orf, "sw-orf",
    (HarnessHierarchy{
        .allocated_levels = [](const DesignSpec& d) { return d.hierarchy.levels; },
        .make_system = [](const DesignSpec& d, const sim::Kernel& k, const sim::SmConfig& sm,
                          const sp::KernelAnalysis& a,
                          const HarnessOptions& opt) -> std::unique_ptr<RfSystem> {
          if (a.alloc.config.levels != d.hierarchy.levels)
            throw std::invalid_argument(
                "SW ORF: the analysis was made for another number of levels");
          return std::make_unique<SwOrf>(k, sm, Banks(d), opt.mrf_collectors, a.alloc);
        },
        .describe = [](const DesignSpec& d, const HarnessOptions&, int slots) -> std::string {
          const auto& h = d.hierarchy;
          if (h.levels == 3) {
            return fmt::format("SW ORF 3 levels: L1 {} entries/thread + {} L0, {} warps",
                               h.l1_entries_per_thread, h.l0_split ? "split" : "unified", slots);
          }
          return fmt::format("SW ORF 2 levels: L1 {} entries/thread, {} warps",
                             h.l1_entries_per_thread, slots);
        },
        .rtl_structures =
            [](const DesignSpec& d) {
              std::vector<std::string> names = {"orf_l1"};
              if (d.hierarchy.levels == 3)
                names.push_back("orf_l0");
              return names;
            },
        .compiler_note = NoNote,
        .energies = GebhartFrame,
    }))

// Gebhart's hardware register file cache, with the compiler's liveness hints.
GPURF_REGISTER(
    HarnessHierarchy, hw_rfc, "hw-rfc",
    (HarnessHierarchy{
        .allocated_levels = NoOrf,
        .make_system = [](const DesignSpec& d, const sim::Kernel& k, const sim::SmConfig& sm,
                          const sp::KernelAnalysis& a,
                          const HarnessOptions& opt) -> std::unique_ptr<RfSystem> {
          // The cache is the design's validated RFC (gen/config/hierarchies/hw_rfc.cc), with as
          // many slots as this run's scheduler keeps warps active (--active-warps, or every warp
          // with a single-level scheduler).
          const auto rfc = std::find_if(d.structures.begin(), d.structures.end(),
                                        [](const DesignStructure& s) { return s.name == "rfc"; });
          if (rfc == d.structures.end() || !rfc->implemented())
            throw std::logic_error(fmt::format("design '{}' has no RFC structure", d.name));
          RfcConfig rc = RfcConfig::From(SpecAs<RfcSpec>(*rfc->spec));
          rc.slots = sm.active_warps;
          return std::make_unique<HwRfc>(k, sm, Banks(d), opt.mrf_collectors, rc, a.live,
                                         opt.liveness_hints);
        },
        .describe = [](const DesignSpec& d, const HarnessOptions& o, int slots) -> std::string {
          const auto& h = d.hierarchy;
          std::string s =
              h.levels == 3
                  ? fmt::format("HW RFC 2 levels: L1 {} + L0 {} entries/thread",
                                h.l1_entries_per_thread, h.l0_entries_per_thread)
                  : fmt::format("HW RFC 1 level: {} entries/thread", h.l1_entries_per_thread);
          return s + fmt::format(", {}, {} liveness hints, {} slots", h.replacement,
                                 o.liveness_hints ? "with" : "without", slots);
        },
        .rtl_structures = [](const DesignSpec&) { return std::vector<std::string>{"rfc"}; },
        .compiler_note =
            [](const DesignSpec& d) {
              return fmt::format(
                  "design '{}' uses a hardware register file cache: the compiler provides strand "
                  "ends and liveness hints ('*'), not ORF levels",
                  d.name);
            },
        .energies = GebhartFrame,
    }))

}  // namespace gpurf::harness
