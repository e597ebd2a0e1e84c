#include "sim/passes/rsp_alloc.h"

#include <algorithm>
#include <map>
#include <queue>
#include <set>
#include <tuple>

namespace gpurf::sim::passes {

int RspConfig::EntriesPerWarp() const {
  if (active_warps <= 0 || register_bytes <= 0 || rsp_bytes <= 0)
    return 0;
  return rsp_bytes / active_warps / register_bytes;
}

namespace {

// One access of a register group in a strand. Reads of the group by several operand slots of one
// instruction are one access. A barrier is an access no range may contain: a read through a
// fourth operand slot (no RSP read port), or an access of an overlapping group of another shape.
struct Access {
  enum Kind : uint8_t { kRead, kWrite, kBarrier };
  uint32_t inst = 0;
  Kind kind = kRead;
  uint8_t order = 0;  // within an instruction: reads (0) before writes (1)
  bool guarded = false;
  bool shared = false;
  std::vector<uint8_t> slots;  // reads: operand slots; writes: the destination index
};

using Key = std::pair<uint16_t, uint8_t>;  // first register, count

bool Overlap(const Key& a, const Key& b) {
  return a.first < b.first + b.second && b.first < a.first + a.second;
}

struct Cand {
  uint32_t key = 0;
  RspRangeKind kind = RspRangeKind::kWrite;
  uint32_t lo = 0, hi = 0;    // access indices, inclusive
  uint32_t olo = 0, ohi = 0;  // the original range it was reduced from
  bool reduced = false, regenerated = false;
};

struct Eval {
  bool valid = false;
  uint32_t b = 0, e = 0;
  bool live_out = false;
  double savings = 0;
  uint32_t length = 0;
};

class StrandRsp {
 public:
  StrandRsp(const Kernel& k, const Liveness& live, const Strands& st, uint32_t s,
            const RspConfig& cfg, int entries, const RegisterFileEnergies& e, RspAllocation& out)
      : k_(k), live_(live), s_(s), cfg_(cfg), entries_(entries), e_(e), out_(out) {
    first_ = st.strands[s].first;
    end_ = st.strands[s].end;
    occ_.assign(static_cast<size_t>(entries), std::vector<bool>(end_ - first_ + 1, false));
  }

  void Run() {
    Collect();
    mapped_.resize(keys_.size());
    for (uint32_t key = 0; key < keys_.size(); ++key) {
      const auto n = static_cast<uint32_t>(accs_[key].size());
      if (n > 0)
        Generate(key, 0, n - 1, /*regenerated=*/false);
    }
    while (!queue_.empty()) {
      const Item it = queue_.top();
      queue_.pop();
      const Cand c = cands_[it.cand];
      const Eval ev = Evaluate(c);
      if (Conflicts(c))
        continue;
      if (Place(c, ev))
        continue;
      Reduce(c);
    }
  }

 private:
  struct Item {
    double score;
    uint32_t b;
    uint16_t reg;
    uint8_t kind;
    uint32_t lo;
    size_t cand;
    // Highest score first; ties: earlier range, lower register, write before read.
    bool operator<(const Item& o) const {
      if (score != o.score)
        return score < o.score;
      return std::tie(b, reg, kind, lo) > std::tie(o.b, o.reg, o.kind, o.lo);
    }
  };

  // ----------------------------------------------------------------- accesses
  uint32_t KeyIndex(const RegOperand& g) {
    const Key key{g.first, static_cast<uint8_t>(g.count)};
    auto [it, fresh] = key_index_.insert({key, static_cast<uint32_t>(keys_.size())});
    if (fresh) {
      keys_.push_back(key);
      accs_.emplace_back();
    }
    return it->second;
  }

  void Collect() {
    for (uint32_t i = first_; i < end_; ++i) {
      const Instruction& in = k_.code[i];
      const bool shared = IsSharedUnit(in.op_class);
      std::map<uint32_t, Access> reads;
      for (size_t sl = 0; sl < in.srcs.size(); ++sl) {
        const uint32_t key = KeyIndex(in.srcs[sl]);
        Access& a = reads[key];
        a.inst = i;
        a.shared = shared;
        if (sl >= static_cast<size_t>(kRspOperandSlots))
          a.kind = Access::kBarrier;
        a.slots.push_back(static_cast<uint8_t>(sl));
      }
      for (auto& [key, a] : reads)
        accs_[key].push_back(a);
      for (size_t d = 0; d < in.dsts.size(); ++d) {
        Access a;
        a.inst = i;
        a.kind = Access::kWrite;
        a.order = 1;
        a.guarded = in.guard != kNoPred;
        a.shared = shared;
        a.slots.push_back(static_cast<uint8_t>(d));
        accs_[KeyIndex(in.dsts[d])].push_back(a);
      }
    }
    // An access of an overlapping group of another shape is a barrier.
    std::vector<std::vector<Access>> extra(keys_.size());
    for (uint32_t a = 0; a < keys_.size(); ++a) {
      for (uint32_t b = 0; b < keys_.size(); ++b) {
        if (a == b || !Overlap(keys_[a], keys_[b]))
          continue;
        for (const Access& x : accs_[b]) {
          Access y;
          y.inst = x.inst;
          y.kind = Access::kBarrier;
          y.order = x.order;
          extra[a].push_back(y);
        }
      }
    }
    for (uint32_t a = 0; a < keys_.size(); ++a) {
      auto& v = accs_[a];
      v.insert(v.end(), extra[a].begin(), extra[a].end());
      std::stable_sort(v.begin(), v.end(), [](const Access& x, const Access& y) {
        // A barrier first: a range containing an access of the same instruction contains it.
        const bool xb = x.kind != Access::kBarrier, yb = y.kind != Access::kBarrier;
        return std::tie(x.inst, x.order, xb) < std::tie(y.inst, y.order, yb);
      });
    }
  }

  // ----------------------------------------------------------------- candidates
  // The maximal write and read candidates of accesses [lo, hi] of `key`.
  void Generate(uint32_t key, uint32_t lo, uint32_t hi, bool regenerated) {
    const auto& A = accs_[key];
    for (uint32_t j = lo; j <= hi;) {
      if (A[j].kind != Access::kWrite || A[j].guarded) {
        ++j;
        continue;
      }
      uint32_t t = j + 1;
      int64_t last_read = -1;
      for (; t <= hi; ++t) {
        const Access& a = A[t];
        if (a.kind == Access::kBarrier)
          break;
        if (a.kind == Access::kWrite && !a.guarded && A[t - 1].inst < a.inst)
          break;  // the entry would hold a dead value until this write
        if (a.kind == Access::kRead)
          last_read = t;
      }
      if (last_read >= 0) {
        const auto h = static_cast<uint32_t>(last_read);
        Consider(Cand{key, RspRangeKind::kWrite, j, h, j, h, false, regenerated}, true);
      }
      j = t;
    }
    for (uint32_t j = lo; j <= hi;) {
      if (A[j].kind != Access::kRead) {
        ++j;
        continue;
      }
      uint32_t t = j;
      while (t + 1 <= hi && A[t + 1].kind == Access::kRead)
        ++t;
      if (t > j)
        Consider(Cand{key, RspRangeKind::kRead, j, t, j, t, false, regenerated}, true);
      j = t + 1;
    }
  }

  // Queues a candidate, or its reductions when it cannot be a range or saves nothing.
  void Consider(const Cand& c, bool maximal) {
    if (!seen_.insert({c.key, static_cast<uint8_t>(c.kind), c.lo, c.hi}).second)
      return;
    if (maximal && c.regenerated)
      ++out_.stats.regenerated;
    else if (maximal)
      ++out_.stats.candidates;
    else
      ++out_.stats.reductions;
    const Eval ev = Evaluate(c);
    if (ev.valid && ev.savings > 0) {
      cands_.push_back(c);
      queue_.push(Item{ev.savings / ev.length, ev.b, keys_[c.key].first,
                       static_cast<uint8_t>(c.kind), c.lo, cands_.size() - 1});
      return;
    }
    Reduce(c);
  }

  void Reduce(const Cand& c) {
    if (!cfg_.reduce)
      return;
    const auto& A = accs_[c.key];
    if (c.kind == RspRangeKind::kRead) {
      // Windows of one read fewer.
      if (c.hi - c.lo >= 2) {
        Cand a = c, b = c;
        a.lo = c.lo + 1;
        b.hi = c.hi - 1;
        a.reduced = b.reduced = true;
        Consider(a, false);
        Consider(b, false);
      }
      return;
    }
    // Write: drop the tail access, and any writes left at the new tail.
    uint32_t h = c.hi;
    if (h > c.lo)
      --h;
    while (h > c.lo && A[h].kind != Access::kRead)
      --h;
    if (h > c.lo) {
      Cand t = c;
      t.hi = h;
      t.reduced = true;
      Consider(t, false);
      return;
    }
    // Nothing left: restart from the original range without the accesses before the next
    // opening (unguarded) write.
    for (uint32_t j = c.lo + 1; j <= c.ohi; ++j) {
      if (A[j].kind == Access::kWrite && !A[j].guarded) {
        int64_t last_read = -1;
        for (uint32_t x = j + 1; x <= c.ohi; ++x) {
          if (A[x].kind == Access::kRead)
            last_read = x;
        }
        if (last_read > static_cast<int64_t>(j)) {
          Cand r = c;
          r.lo = j;
          r.hi = static_cast<uint32_t>(last_read);
          r.reduced = true;
          Consider(r, false);
        }
        return;
      }
    }
  }

  // ----------------------------------------------------------------- evaluation
  Eval Evaluate(const Cand& c) const {
    const auto& A = accs_[c.key];
    const Key& key = keys_[c.key];
    Eval ev;
    ev.b = A[c.lo].inst;
    ev.e = A[c.hi].inst;
    if (ev.e <= ev.b || A[c.hi].kind != Access::kRead)
      return ev;
    if (c.kind == RspRangeKind::kWrite && (A[c.lo].kind != Access::kWrite || A[c.lo].guarded))
      return ev;
    for (uint32_t x = c.lo; x <= c.hi; ++x) {
      if (A[x].kind == Access::kBarrier ||
          (c.kind == RspRangeKind::kRead && A[x].kind != Access::kRead))
        return ev;
    }
    // Entered only at b, left only after e (or by a thread exit).
    for (uint32_t x = ev.b; x <= ev.e; ++x) {
      const BasicBlock& bb = k_.blocks[k_.block_of[x]];
      if (x > ev.b && x == bb.first) {
        for (uint32_t p : bb.preds) {
          const uint32_t last = k_.blocks[p].end - 1;
          if (last < ev.b || last >= x)
            return ev;
        }
      }
      if (x < ev.e && x + 1 == bb.end) {
        for (uint32_t sb : bb.succs) {
          if (sb == kExitBlock)
            continue;
          const uint32_t f = k_.blocks[sb].first;
          if (f <= ev.b || f > ev.e)
            return ev;
        }
      }
    }
    // Live out: the value is needed after e, unless e overwrites the whole group.
    if (c.kind == RspRangeKind::kWrite) {
      // Warp level, and what any successor keeps (a parked path's registers included).
      RegSet after = live_.warp_live_out[ev.e];
      const BasicBlock& eb = k_.blocks[k_.block_of[ev.e]];
      if (ev.e + 1 < eb.end) {
        after |= live_.warp_live_in[ev.e + 1];
      } else {
        for (uint32_t sb : eb.succs) {
          if (sb != kExitBlock)
            after |= live_.warp_live_in[k_.blocks[sb].first];
        }
      }
      bool live = false;
      for (int j = 0; j < key.second; ++j)
        live = live || after.test(static_cast<size_t>(key.first + j));
      const Instruction& in = k_.code[ev.e];
      bool killed = false, touched = false;
      for (const RegOperand& d : in.dsts) {
        if (!Overlap(key, Key{d.first, static_cast<uint8_t>(d.count)}))
          continue;
        touched = true;
        killed = killed || (in.guard == kNoPred && d.first <= key.first &&
                            d.first + d.count >= key.first + key.second);
      }
      if (touched && !killed && live)
        return ev;  // a write-back after e would undo e's own (partial) write
      ev.live_out = live && !killed;
    }
    // Savings per register of the group.
    double s = 0;
    for (uint32_t x = c.lo; x <= c.hi; ++x) {
      const Access& a = A[x];
      if (a.kind == Access::kRead) {
        if (c.kind == RspRangeKind::kRead && x == c.lo) {
          s -= e_.Write(RfLevel::kL1, false);  // the fill
          continue;
        }
        const double d = e_.Read(RfLevel::kMrf, a.shared) - e_.Read(RfLevel::kL1, a.shared);
        s += d * static_cast<double>(a.slots.size());
      } else {
        s += e_.Write(RfLevel::kMrf, a.shared) - e_.Write(RfLevel::kL1, a.shared);
      }
    }
    if (ev.live_out)
      s -= e_.Read(RfLevel::kL1, false) + e_.Write(RfLevel::kMrf, false);
    ev.savings = s * key.second;
    ev.length = ev.e - ev.b + (ev.live_out ? 1 : 0);
    ev.valid = true;
    return ev;
  }

  // ----------------------------------------------------------------- placement
  bool Conflicts(const Cand& c) const {
    for (const auto& [lo, hi] : mapped_[c.key]) {
      if (c.lo <= hi && lo <= c.hi)
        return true;
    }
    return false;
  }

  bool Place(const Cand& c, const Eval& ev) {
    if (!ev.valid || ev.savings <= 0)
      return false;
    const Key& key = keys_[c.key];
    const uint32_t gap_end = ev.e + (ev.live_out ? 1 : 0);  // gaps [b, gap_end)
    std::vector<uint8_t> chosen;
    for (size_t slot = 0; slot < occ_.size() && chosen.size() < key.second; ++slot) {
      bool free = true;
      for (uint32_t g = ev.b; g < gap_end && free; ++g)
        free = !occ_[slot][g - first_];
      if (free)
        chosen.push_back(static_cast<uint8_t>(slot));
    }
    if (chosen.size() < key.second)
      return false;
    RspRange r;
    r.kind = c.kind;
    r.group = RegOperand{key.first, key.second};
    r.strand = s_;
    r.first = ev.b;
    r.last = ev.e;
    r.live_out = ev.live_out;
    r.reduced = c.reduced;
    r.regenerated = c.regenerated;
    r.savings_pj = ev.savings;
    for (size_t j = 0; j < chosen.size(); ++j) {
      for (uint32_t g = ev.b; g < gap_end; ++g)
        occ_[chosen[j]][g - first_] = true;
      r.slots[j] = chosen[j];
    }
    Record(c, r);
    out_.ranges.push_back(r);
    mapped_[c.key].push_back({c.lo, c.hi});
    if (c.reduced && cfg_.regenerate) {
      if (c.lo > c.olo)
        Generate(c.key, c.olo, c.lo - 1, true);
      if (c.hi < c.ohi)
        Generate(c.key, c.hi + 1, c.ohi, true);
    }
    return true;
  }

  void Record(const Cand& c, RspRange& r) {
    const auto& A = accs_[c.key];
    for (uint32_t x = c.lo; x <= c.hi; ++x) {
      const Access& a = A[x];
      RspInst& ri = out_.insts[a.inst];
      if (a.kind == Access::kRead) {
        for (uint8_t sl : a.slots) {
          RspOperand& o = ri.srcs[sl];
          o.slots = r.slots;
          if (c.kind == RspRangeKind::kRead && x == c.lo) {
            o.fill = true;
          } else {
            o.rsp = true;
            ++r.rsp_reads;
          }
        }
      } else {
        RspResult& w = ri.dsts[a.slots[0]];
        w.rsp = true;
        w.slots = r.slots;
        ++r.rsp_writes;
      }
    }
    if (r.live_out)
      out_.insts[r.last].writebacks.push_back(RspWriteBack{r.group, r.slots});
  }

  const Kernel& k_;
  const Liveness& live_;
  uint32_t s_;
  const RspConfig& cfg_;
  int entries_;
  const RegisterFileEnergies& e_;
  RspAllocation& out_;
  uint32_t first_ = 0, end_ = 0;
  std::map<Key, uint32_t> key_index_;
  std::vector<Key> keys_;
  std::vector<std::vector<Access>> accs_;
  std::vector<Cand> cands_;
  std::priority_queue<Item> queue_;
  std::set<std::tuple<uint32_t, uint8_t, uint32_t, uint32_t>> seen_;
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> mapped_;
  std::vector<std::vector<bool>> occ_;  // [slot][gap - first]
};

}  // namespace

RspAllocation AllocateRsp(const Kernel& k, const Liveness& live, const Strands& st,
                          const RspConfig& cfg, const RegisterFileEnergies& e) {
  RspAllocation out;
  out.config = cfg;
  out.entries = cfg.EntriesPerWarp();
  out.insts.resize(k.code.size());
  for (size_t i = 0; i < k.code.size(); ++i) {
    out.insts[i].srcs.resize(k.code[i].srcs.size());
    out.insts[i].dsts.resize(k.code[i].dsts.size());
  }
  if (out.entries > 0) {
    for (uint32_t s = 0; s < st.strands.size(); ++s)
      StrandRsp(k, live, st, s, cfg, out.entries, e, out).Run();
  }
  std::stable_sort(out.ranges.begin(), out.ranges.end(), [](const RspRange& a, const RspRange& b) {
    return std::tie(a.first, a.group.first) < std::tie(b.first, b.group.first);
  });
  RspStats& s = out.stats;
  for (const RspRange& r : out.ranges) {
    (r.kind == RspRangeKind::kWrite ? s.write_ranges : s.read_ranges) += 1;
    s.live_out_ranges += r.live_out;
    s.reduced_ranges += r.reduced;
    s.regenerated_ranges += r.regenerated;
    s.savings_pj += r.savings_pj;
    if (r.kind == RspRangeKind::kRead)
      s.fills += r.group.count;
    if (r.live_out)
      s.writebacks += r.group.count;
  }
  for (size_t i = 0; i < k.code.size(); ++i) {
    for (size_t sl = 0; sl < k.code[i].srcs.size(); ++sl) {
      s.operand_reads += k.code[i].srcs[sl].count;
      if (out.insts[i].srcs[sl].rsp)
        s.rsp_reads += k.code[i].srcs[sl].count;
    }
    for (size_t d = 0; d < k.code[i].dsts.size(); ++d) {
      s.result_writes += k.code[i].dsts[d].count;
      if (out.insts[i].dsts[d].rsp)
        s.rsp_writes += k.code[i].dsts[d].count;
    }
  }
  return out;
}

}  // namespace gpurf::sim::passes
