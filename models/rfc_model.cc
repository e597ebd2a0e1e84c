#include "models/rfc_model.h"

#include <fmt/format.h>

#include <algorithm>

#include "gen/structures/rfc/rfc_spec.h"
#include "models/registry.h"

namespace gpurf {

RfcConfig RfcConfig::From(const RfcSpec& s) {
  RfcConfig c;
  c.slots = s.active_warps;
  c.levels = s.levels;
  c.l1_entries = s.l1_entries;
  c.l0_entries = s.l0_entries;
  c.width = s.width;
  c.reg_bits = s.reg_bits;
  c.lru = s.lru();
  return c;
}

// ------------------------------------------------------------------------------ RfcCache

RfcCache::RfcCache(const RfcConfig& c) : c_(c) {
  Reset();
}

void RfcCache::Reset() {
  const int per_level[2] = {c_.levels == 2 ? c_.l0_entries : 0, c_.l1_entries};
  for (int l = 0; l < 2; ++l) {
    entries_[l].assign(static_cast<size_t>(c_.slots), Slot(static_cast<size_t>(per_level[l]),
                                                           Entry{false, 0, Bits(c_.width), 0, 0}));
  }
  touched_.clear();
  for (Entry& e : evicted_)
    e = Entry{false, 0, Bits(c_.width), 0, 0};
}

int RfcCache::Find(int level, int slot, int reg) const {
  const Slot& s = At(level, slot);
  for (size_t e = 0; e < s.size(); ++e) {
    if (s[e].valid && s[e].reg == reg)
      return static_cast<int>(e);
  }
  return -1;
}

RfcCache::ReadResult RfcCache::Probe(int slot, int reg) const {
  for (int l = c_.levels == 2 ? 0 : 1; l < 2; ++l) {
    const int e = Find(l, slot, reg);
    if (e >= 0)
      return {true, l, At(l, slot)[e].data};
  }
  return {false, -1, Bits(c_.width)};
}

int RfcCache::LevelOf(int slot, int reg) const {
  for (int l = c_.levels == 2 ? 0 : 1; l < 2; ++l) {
    if (Find(l, slot, reg) >= 0)
      return l;
  }
  return -1;
}

void RfcCache::SyncStamps() {
  for (const Touched& t : touched_) {
    Entry& e = At(t.level, t.slot)[t.entry];
    e.victim_stamp = e.stamp;
  }
  touched_.clear();
}

std::vector<RfcCache::ReadResult> RfcCache::Read(const std::vector<Operand>& ops) {
  std::vector<ReadResult> res;
  Read(ops, res);
  return res;
}

void RfcCache::Read(const std::vector<Operand>& ops, std::vector<ReadResult>& res) {
  SyncStamps();
  if (res.size() < ops.size())
    res.resize(ops.size());
  for (size_t i = 0; i < ops.size(); ++i) {
    // As Probe, into the storage of res[i].
    ReadResult& r = res[i];
    r.hit = false;
    r.level = -1;
    for (int l = c_.levels == 2 ? 0 : 1; ops[i].valid && l < 2 && !r.hit; ++l) {
      const int e = Find(l, ops[i].slot, ops[i].reg);
      if (e >= 0) {
        r.hit = true;
        r.level = l;
        r.data = At(l, ops[i].slot)[e].data;
      }
    }
    if (!r.hit) {
      if (r.data.width() == c_.width)
        r.data.clear();
      else
        r.data = Bits(c_.width);
    }
  }
  const int first = c_.levels == 2 ? 0 : 1;
  for (size_t i = 0; i < ops.size(); ++i) {
    if (!ops[i].valid)
      continue;
    ++counters_.lookups;
    for (int l = first; l < 2; ++l) {
      ++counters_.level[l].tag_checks;
      if (res[i].hit && res[i].level == l) {
        ++counters_.level[l].hits;
        ++counters_.level[l].reads;
      } else if (!res[i].hit || res[i].level > l) {
        ++counters_.level[l].misses;
      }
    }
    if (!res[i].hit) {
      ++counters_.lookup_misses;
      continue;
    }
    if (c_.lru) {
      const int e = Find(res[i].level, ops[i].slot, ops[i].reg);
      if (e >= 0) {
        At(res[i].level, ops[i].slot)[e].stamp = ++clock_;
        touched_.push_back({res[i].level, ops[i].slot, e});
      }
    }
  }
  // Liveness hints: the value was read for the last time; it is dropped, not written back.
  for (size_t i = 0; i < ops.size(); ++i) {
    if (!ops[i].valid || !ops[i].last || !res[i].hit)
      continue;
    const int e = Find(res[i].level, ops[i].slot, ops[i].reg);
    if (e >= 0) {
      At(res[i].level, ops[i].slot)[e].valid = false;
      ++counters_.dead_kills;
    }
  }
}

bool RfcCache::Insert(int level, int slot, int reg, const Bits& data, Entry& evicted) {
  Slot& s = At(level, slot);
  ++counters_.level[level].writes;
  int e = fault_ == Fault::kDuplicateOnWrite ? -1 : Find(level, slot, reg);
  bool evicts = false;
  if (e < 0) {
    for (size_t i = 0; i < s.size() && e < 0; ++i) {
      if (!s[i].valid)
        e = static_cast<int>(i);
    }
  }
  if (e < 0) {
    // Full: the entry written (FIFO) or used (LRU) longest ago, before this cycle, leaves.
    e = 0;
    for (size_t i = 1; i < s.size(); ++i) {
      if (s[i].victim_stamp < s[e].victim_stamp)
        e = static_cast<int>(i);
    }
    evicted = s[e];
    evicts = true;
    ++counters_.level[level].evictions;
    ++counters_.level[level].wb_reads;
  }
  Entry& n = s[e];
  n.valid = true;
  n.reg = reg;
  n.data = data;
  n.stamp = ++clock_;
  n.victim_stamp = n.stamp;
  return evicts;
}

RfcCache::WriteResult RfcCache::Write(int slot, int reg, const Bits& data, bool bypass,
                                      bool not_l0) {
  WriteResult r;
  ++counters_.result_writes;
  const int first = c_.levels == 2 ? 0 : 1;
  const int target = bypass ? -1 : TopLevel(not_l0);
  // Every level checks its tags: a copy outside the target level is stale from now on.
  for (int l = first; l < 2; ++l) {
    ++counters_.level[l].tag_checks;
    if (l == target)
      continue;
    const int e = Find(l, slot, reg);
    if (e >= 0) {
      At(l, slot)[e].valid = false;
      ++counters_.superseded;
    }
  }
  if (bypass) {
    ++counters_.mrf_bypasses;
    r.to_mrf = RfcWriteBack{slot, reg, data, RfcWbKind::kBypass};
    SyncStamps();
    return r;
  }
  const Entry* out = Insert(target, slot, reg, data, evicted_[0]) ? &evicted_[0] : nullptr;
  if (out != nullptr && target == 0) {
    // L0 victim -> L1 (Gebhart 7.6); L1 may in turn evict to the MRF.
    r.l0_evicted = true;
    out = Insert(1, slot, out->reg, out->data, evicted_[1]) ? &evicted_[1] : nullptr;
  }
  if (out != nullptr && fault_ != Fault::kDropEviction) {
    Bits d = out->data;
    if (fault_ == Fault::kWrongWriteBackData)
      d.set_bit(0, !d.bit(0));
    ++counters_.mrf_evictions;
    r.to_mrf = RfcWriteBack{slot, out->reg, std::move(d), RfcWbKind::kEviction};
  }
  SyncStamps();
  return r;
}

int RfcCache::NextFlushLevel(int slot) const {
  for (int l = c_.levels == 2 ? 0 : 1; l < 2; ++l) {
    for (const Entry& e : At(l, slot)) {
      if (e.valid)
        return l;
    }
  }
  return -1;
}

bool RfcCache::HasLive(int slot) const {
  return NextFlushLevel(slot) >= 0;
}

int RfcCache::LiveCount(int slot) const {
  int n = 0;
  for (int l = 0; l < 2; ++l) {
    for (const Entry& e : At(l, slot))
      n += e.valid ? 1 : 0;
  }
  return n;
}

std::optional<RfcWriteBack> RfcCache::FlushNext(int slot) {
  const int l = NextFlushLevel(slot);
  if (l < 0)
    return std::nullopt;
  for (Entry& e : At(l, slot)) {
    if (e.valid) {
      e.valid = false;
      ++counters_.level[l].wb_reads;
      ++counters_.mrf_flushes;
      return RfcWriteBack{slot, e.reg, e.data, RfcWbKind::kFlush};
    }
  }
  return std::nullopt;
}

std::vector<RfcWriteBack> RfcCache::Flush(int slot) {
  CountFlush();
  std::vector<RfcWriteBack> out;
  while (auto wb = FlushNext(slot))
    out.push_back(std::move(*wb));
  return out;
}

std::string RfcCache::CheckUnique() const {
  for (int s = 0; s < c_.slots; ++s) {
    std::vector<int> seen(static_cast<size_t>(1) << c_.reg_bits, -1);
    for (int l = 0; l < 2; ++l) {
      const Slot& sl = At(l, s);
      for (size_t e = 0; e < sl.size(); ++e) {
        if (!sl[e].valid)
          continue;
        if (seen[sl[e].reg] >= 0) {
          return fmt::format("slot {} holds register {} twice (L{} entry {} and an earlier entry)",
                             s, sl[e].reg, l, e);
        }
        seen[sl[e].reg] = static_cast<int>(e);
      }
    }
  }
  return {};
}

// ------------------------------------------------------------------------------ RfcScoreboard

void RfcScoreboard::Fail(uint64_t cycle, const std::string& what) {
  if (failure_.empty())
    failure_ = fmt::format("cycle {}: {}", cycle, what);
}

int RfcScoreboard::Resident(int slot, int reg) const {
  for (size_t i = 0; i < owed_.size(); ++i) {
    if (!owed_[i].emitted && owed_[i].slot == slot && owed_[i].reg == reg)
      return static_cast<int>(i);
  }
  return -1;
}

void RfcScoreboard::Observe(uint64_t cycle, const Cycle& c) {
  if (c.reset) {
    owed_.clear();
    flushing_slot_ = -1;
    return;
  }
  // The write-back port: what it shows must be an owed value, shown until it transfers.
  int shown = -1;
  for (size_t i = 0; i < owed_.size(); ++i) {
    if (owed_[i].emitted)
      shown = static_cast<int>(i);
  }
  if (c.wb_valid) {
    if (shown >= 0 && (owed_[shown].slot != c.wb_slot || owed_[shown].reg != c.wb_reg ||
                       owed_[shown].data != c.wb_data)) {
      Fail(cycle, fmt::format("write-back of (slot {}, r{}) replaced by (slot {}, r{}) before "
                              "the MRF took it",
                              owed_[shown].slot, owed_[shown].reg, c.wb_slot, c.wb_reg));
      return;
    }
    if (shown < 0) {
      shown = Resident(c.wb_slot, c.wb_reg);
      if (shown < 0 || owed_[shown].data != c.wb_data) {
        Fail(cycle, fmt::format("write-back of (slot {}, r{}) data {} is not the live value of "
                                "that register (wrong data, or written back twice)",
                                c.wb_slot, c.wb_reg, c.wb_data.hex()));
        return;
      }
      owed_[shown].emitted = true;
    }
    if (c.wb_ready) {
      owed_.erase(owed_.begin() + shown);
      ++written_back_;
    }
  } else if (shown >= 0) {
    Fail(cycle, fmt::format("write-back of (slot {}, r{}) vanished before the MRF took it",
                            owed_[shown].slot, owed_[shown].reg));
    return;
  }
  // Lookups: a hit returns the live value; a miss means the value was written back (or none).
  for (int p = 0; p < 3; ++p) {
    const RfcCache::Operand& op = c.ops[p];
    if (!op.valid)
      continue;
    const int i = Resident(op.slot, op.reg);
    if (c.hit[p] && (i < 0 || owed_[i].data != c.data[p])) {
      Fail(cycle, fmt::format("operand {} hit (slot {}, r{}) with {}, which is not its live value",
                              p, op.slot, op.reg, c.data[p].hex()));
      return;
    }
    if (!c.hit[p] && i >= 0) {
      Fail(cycle, fmt::format("operand {} missed (slot {}, r{}): the live value was dropped "
                              "without a write-back",
                              p, op.slot, op.reg));
      return;
    }
  }
  for (int p = 0; p < 3; ++p) {
    if (c.ops[p].valid && c.ops[p].last && c.hit[p]) {
      const int i = Resident(c.ops[p].slot, c.ops[p].reg);
      if (i >= 0) {
        owed_.erase(owed_.begin() + i);
        ++dead_;
      }
    }
  }
  if (c.fl_done) {
    for (const Item& it : owed_) {
      if (it.slot == flushing_slot_) {
        Fail(cycle, fmt::format("flush of slot {} finished but r{} was never written back", it.slot,
                                it.reg));
        return;
      }
    }
    flushing_slot_ = -1;
  }
  if (c.fl_accept)
    flushing_slot_ = c.fl_slot;
  if (c.wr_fire) {
    const int i = Resident(c.wr_slot, c.wr_reg);
    if (i >= 0) {
      owed_.erase(owed_.begin() + i);
      ++superseded_;
    }
    owed_.push_back(Item{c.wr_slot, c.wr_reg, c.wr_data, false});
  }
}

// ------------------------------------------------------------------------------ RfcCycleModel

RfcPorts RfcPorts::For(const RfcSpec& s) {
  const PortTable t = RfcPortTable(s);
  using P = RfcPort;
  RfcPorts p{};
  p.clk = t.Index(P::kClk);
  p.rst_n = t.Index(P::kRstN);
  p.lu_valid = t.Index(P::kLuValid);
  p.lu_slot = t.Index(P::kLuSlot);
  p.lu_reg = t.Index(P::kLuReg);
  p.lu_last = t.Index(P::kLuLast);
  p.lu_hit = t.Index(P::kLuHit);
  p.lu_l0 = t.Index(P::kLuL0);
  p.lu_data = t.Index(P::kLuData);
  p.wr_valid = t.Index(P::kWrValid);
  p.wr_slot = t.Index(P::kWrSlot);
  p.wr_reg = t.Index(P::kWrReg);
  p.wr_data = t.Index(P::kWrData);
  p.wr_long = t.Index(P::kWrLong);
  p.wr_no_l0 = t.Index(P::kWrNoL0);
  p.wr_ready = t.Index(P::kWrReady);
  p.fl_valid = t.Index(P::kFlValid);
  p.fl_slot = t.Index(P::kFlSlot);
  p.fl_busy = t.Index(P::kFlBusy);
  p.fl_done = t.Index(P::kFlDone);
  p.wb_valid = t.Index(P::kWbValid);
  p.wb_slot = t.Index(P::kWbSlot);
  p.wb_reg = t.Index(P::kWbReg);
  p.wb_data = t.Index(P::kWbData);
  p.wb_ready = t.Index(P::kWbReady);
  p.count = t.size();
  return p;
}

RfcCycleModel::RfcCycleModel(const RfcSpec& spec)
    : spec_(spec), p_(RfcPorts::For(spec)), cache_(RfcConfig::From(spec)) {
  ResetState();
}

void RfcCycleModel::ResetState() {
  cache_.Reset();
  wb_valid_ = false;
  fl_busy_ = false;
  fl_slot_ = 0;
}

std::vector<RfcCache::Operand> RfcCycleModel::Operands(const PortValues& in) const {
  std::vector<RfcCache::Operand> ops(3);
  for (int k = 0; k < 3; ++k) {
    ops[k].valid = in[p_.lu_valid].bit(k);
    ops[k].slot = static_cast<int>(in[p_.lu_slot].get(k * spec_.slot_bits, spec_.slot_bits));
    ops[k].reg = static_cast<int>(in[p_.lu_reg].get(k * spec_.reg_bits, spec_.reg_bits));
    ops[k].last = in[p_.lu_last].bit(k);
  }
  return ops;
}

void RfcCycleModel::Outputs(const PortValues& in, PortValues& out, PortValues& defined) {
  if (!in[p_.rst_n].bit(0))
    ResetState();  // asynchronous reset: the state is cleared as soon as rst_ni is low
  const std::vector<RfcCache::Operand> ops = Operands(in);
  Bits ones(spec_.width);
  ones.fill_ones();
  // Lookups against the state at the start of the cycle.
  std::vector<std::pair<int, int>> killed;  // (slot, reg) read for the last time
  for (int k = 0; k < 3; ++k) {
    const RfcCache::ReadResult r =
        ops[k].valid ? cache_.Probe(ops[k].slot, ops[k].reg) : RfcCache::ReadResult{};
    hit_[k] = r.hit;
    data_[k] = r.hit ? r.data : Bits(spec_.width);
    out[p_.lu_hit].set_bit(k, r.hit);
    defined[p_.lu_hit].set_bit(k, true);
    if (p_.lu_l0 >= 0) {
      out[p_.lu_l0].set_bit(k, r.hit && r.level == 0);
      defined[p_.lu_l0].set_bit(k, true);
    }
    if (r.hit) {
      out[p_.lu_data].set_slice(k * spec_.width, r.data);
      defined[p_.lu_data].set_slice(k * spec_.width, ones);
      if (ops[k].last)
        killed.emplace_back(ops[k].slot, ops[k].reg);
    }
  }
  const bool wb_free = !wb_valid_ || in[p_.wb_ready].bit(0);
  out[p_.wr_ready] = Bits(1, wb_free);
  defined[p_.wr_ready] = Bits(1, 1);
  // The flush ends when the flushed slot holds no entry besides those dying this cycle and the
  // write-back register is free.
  bool done = false;
  if (fl_busy_) {
    int live = cache_.LiveCount(fl_slot_);
    std::vector<int> seen;
    for (const auto& [s, r] : killed) {
      if (s == fl_slot_ && std::find(seen.begin(), seen.end(), r) == seen.end()) {
        seen.push_back(r);
        --live;
      }
    }
    done = live == 0 && wb_free;
  }
  fl_done_ = done;
  out[p_.fl_busy] = Bits(1, fl_busy_);
  out[p_.fl_done] = Bits(1, done);
  defined[p_.fl_busy] = Bits(1, 1);
  defined[p_.fl_done] = Bits(1, 1);
  out[p_.wb_valid] = Bits(1, wb_valid_);
  defined[p_.wb_valid] = Bits(1, 1);
  if (wb_valid_) {
    out[p_.wb_slot] = Bits(spec_.slot_bits, static_cast<uint64_t>(wb_.slot));
    out[p_.wb_reg] = Bits(spec_.reg_bits, static_cast<uint64_t>(wb_.reg));
    out[p_.wb_data] = wb_.data;
    defined[p_.wb_slot].fill_ones();
    defined[p_.wb_reg].fill_ones();
    defined[p_.wb_data].fill_ones();
  }
}

void RfcCycleModel::Clock(const PortValues& in) {
  const uint64_t cycle = cycle_++;
  RfcScoreboard::Cycle sc;
  if (!in[p_.rst_n].bit(0)) {
    ResetState();
    sc.reset = true;
    board_.Observe(cycle, sc);
    return;
  }
  const std::vector<RfcCache::Operand> ops = Operands(in);
  const bool wb_ready = in[p_.wb_ready].bit(0);
  const bool wb_free = !wb_valid_ || wb_ready;

  // Scoreboard view of this cycle (outputs as computed by Outputs()).
  for (int k = 0; k < 3; ++k) {
    sc.ops[k] = ops[k];
    sc.hit[k] = hit_[k];
    sc.data[k] = data_[k];
  }
  sc.wb_valid = wb_valid_;
  sc.wb_ready = wb_ready;
  if (wb_valid_) {
    sc.wb_slot = wb_.slot;
    sc.wb_reg = wb_.reg;
    sc.wb_data = wb_.data;
  }
  sc.fl_done = fl_done_;

  // 1. Lookups.
  cache_.Read(ops);
  // 3 (decided on the state after the lookups, before the write; see rfc_spec.h).
  const int flush_level = fl_busy_ ? cache_.NextFlushLevel(fl_slot_) : -1;
  // 2. The write.
  std::optional<RfcWriteBack> load;
  const bool wr_fire = in[p_.wr_valid].bit(0) && wb_free;
  RfcCache::WriteResult wr;
  if (wr_fire) {
    const int slot = static_cast<int>(in[p_.wr_slot].get(0, spec_.slot_bits));
    const int reg = static_cast<int>(in[p_.wr_reg].get(0, spec_.reg_bits));
    const bool bypass = in[p_.wr_long].bit(0) || (fl_busy_ && slot == fl_slot_);
    const bool not_l0 = p_.wr_no_l0 >= 0 && in[p_.wr_no_l0].bit(0);
    wr = cache_.Write(slot, reg, in[p_.wr_data], bypass, not_l0);
    load = wr.to_mrf;
    sc.wr_fire = true;
    sc.wr_slot = slot;
    sc.wr_reg = reg;
    sc.wr_data = in[p_.wr_data];
  }
  // 3. The flush engine.
  bool done = false;
  if (fl_busy_) {
    if (flush_level < 0) {
      done = wb_free;
    } else if (wb_free && !load && !(flush_level == 0 && wr.l0_evicted)) {
      load = cache_.FlushNext(fl_slot_);
    }
  }
  // 4. The write-back register.
  if (load) {
    wb_valid_ = true;
    wb_ = std::move(*load);
  } else if (wb_ready) {
    wb_valid_ = false;
  }
  if (!fl_busy_ && in[p_.fl_valid].bit(0)) {
    fl_busy_ = true;
    fl_slot_ = static_cast<int>(in[p_.fl_slot].get(0, spec_.slot_bits));
    sc.fl_accept = true;
    sc.fl_slot = fl_slot_;
  } else if (done) {
    fl_busy_ = false;
  }
  if (sc.fl_accept)
    cache_.CountFlush();

  board_.Observe(cycle, sc);
  if (failure_.empty()) {
    if (const std::string u = cache_.CheckUnique(); !u.empty())
      failure_ = fmt::format("cycle {}: invariant 1 violated: {}", cycle, u);
    else if (!board_.Failure().empty())
      failure_ = "invariant 2 violated: " + board_.Failure();
    else if (done != fl_done_)
      failure_ = fmt::format("cycle {}: flush completion computed inconsistently", cycle);
  }
}

std::string RfcCycleModel::Failure() const {
  return failure_;
}

GPURF_REGISTER(ModelFamily, rfc, "rfc",
               ModelFamily{[](const StructureSpec& s) -> std::unique_ptr<CycleModel> {
                 return std::make_unique<RfcCycleModel>(SpecAs<RfcSpec>(s));
               }})

}  // namespace gpurf
