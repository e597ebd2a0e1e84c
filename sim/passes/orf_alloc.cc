#include "sim/passes/orf_alloc.h"

#include <algorithm>
#include <functional>
#include <iterator>
#include <map>
#include <set>

namespace gpurf::sim::passes {

int LevelCapacity(const OrfConfig& c, RfLevel level) {
  switch (level) {
    case RfLevel::kMrf:
      return 0;
    case RfLevel::kL1:
      return c.levels >= 2 ? c.l1_entries : 0;
    case RfLevel::kL0:
      return c.levels >= 3 ? 1 : 0;
  }
  return 0;
}

namespace {

constexpr int32_t kEntryDef = -1;  // the value a register holds when the strand starts

// A definition: instruction index * 8 + destination operand index.
int32_t DefKey(uint32_t inst, size_t dst) {
  return static_cast<int32_t>(inst * 8 + dst);
}
uint32_t DefInst(int32_t key) {
  return static_cast<uint32_t>(key) / 8;
}
size_t DefDst(int32_t key) {
  return static_cast<size_t>(key) % 8;
}

// Reaching definitions of the registers written in the strand so far (absent = {kEntryDef}).
using RdState = std::map<uint16_t, std::vector<int32_t>>;

void MergeInto(RdState& into, const RdState& from, bool first) {
  if (first) {
    into = from;
    return;
  }
  // A register absent on one side holds the strand-entry value there.
  for (auto& [r, defs] : into) {
    auto it = from.find(r);
    const std::vector<int32_t> other =
        it == from.end() ? std::vector<int32_t>{kEntryDef} : it->second;
    for (int32_t d : other) {
      if (std::find(defs.begin(), defs.end(), d) == defs.end())
        defs.push_back(d);
    }
    std::sort(defs.begin(), defs.end());
  }
  for (const auto& [r, defs] : from) {
    if (into.count(r))
      continue;
    std::vector<int32_t> merged = defs;
    if (std::find(merged.begin(), merged.end(), kEntryDef) == merged.end())
      merged.push_back(kEntryDef);
    std::sort(merged.begin(), merged.end());
    into[r] = merged;
  }
}

const std::vector<int32_t>& DefsOf(const RdState& s, uint16_t r) {
  static const std::vector<int32_t> kEntry = {kEntryDef};
  const auto it = s.find(r);
  return it == s.end() ? kEntry : it->second;
}

void ApplyDefs(RdState& s, const Instruction& in, uint32_t i) {
  for (size_t d = 0; d < in.dsts.size(); ++d) {
    for (int j = 0; j < in.dsts[d].count; ++j) {
      const auto r = static_cast<uint16_t>(in.dsts[d].first + j);
      if (in.guard == kNoPred) {
        s[r] = {DefKey(i, d)};
      } else {
        std::vector<int32_t> defs = DefsOf(s, r);
        defs.push_back(DefKey(i, d));
        std::sort(defs.begin(), defs.end());
        s[r] = defs;
      }
    }
  }
}

struct Read {
  uint32_t inst = 0;
  uint8_t slot = 0;
  bool shared = false;
  std::vector<int32_t> defs;  // write values: the definitions reaching it
};

struct Candidate {
  bool read_operand = false;
  RegOperand group;
  std::vector<int32_t> defs;  // write values
  std::vector<Read> reads;    // in code order; read operands: reads[0] is the fill
  // Allocation state.
  bool done = false;
  RfLevel level = RfLevel::kMrf;
  size_t kept = 0;  // reads served from the ORF (a prefix of `reads`)
  std::array<uint8_t, 4> entries{};
};

class StrandAllocator {
 public:
  StrandAllocator(const Kernel& k, const Liveness& live, const Strands& st, uint32_t strand,
                  const OrfConfig& cfg, const RegisterFileEnergies& e, OrfAllocation& out)
      : k_(k), live_(live), st_(st), s_(strand), cfg_(cfg), e_(e), out_(out) {
    first_ = st.strands[strand].first;
    end_ = st.strands[strand].end;
  }

  void Run() {
    Analyze();
    BuildCandidates();
    out_.stats.candidates += static_cast<int>(cands_.size());
    if (cfg_.levels >= 3)
      Pass(RfLevel::kL0, /*partial=*/false);
    if (cfg_.levels >= 2)
      Pass(RfLevel::kL1, cfg_.partial_ranges);
    Record();
  }

 private:
  bool InStrand(uint32_t i) const { return i >= first_ && i < end_ && st_.strand_of[i] == s_; }

  // ----------------------------------------------------------------- reaching definitions
  void Analyze() {
    std::map<uint32_t, RdState> incoming;  // instruction -> merged state from forward edges
    std::map<uint32_t, bool> has_incoming;
    RdState cur;
    for (uint32_t i = first_; i < end_; ++i) {
      const Instruction& in = k_.code[i];
      if (i != first_) {
        auto it = incoming.find(i);
        cur = it == incoming.end() ? RdState{} : std::move(it->second);
        if (it != incoming.end())
          incoming.erase(it);
      }
      // Reads.
      for (size_t sl = 0; sl < in.srcs.size(); ++sl) {
        const RegOperand& g = in.srcs[sl];
        Classify(i, sl, g, cur);
      }
      ApplyDefs(cur, in, i);
      // Successors: forward edges inside the strand carry the state; any other edge leaves it.
      std::vector<uint32_t> succ_insts;
      const BasicBlock& bb = k_.blocks[k_.block_of[i]];
      if (i + 1 < bb.end) {
        succ_insts.push_back(i + 1);
      } else {
        for (uint32_t sb : bb.succs)
          succ_insts.push_back(sb == kExitBlock ? UINT32_MAX : k_.blocks[sb].first);
      }
      for (uint32_t y : succ_insts) {
        if (y != UINT32_MAX && y > i && InStrand(y)) {
          MergeInto(incoming[y], cur, !has_incoming[y]);
          has_incoming[y] = true;
          continue;
        }
        if (y == UINT32_MAX)
          continue;
        // Leaving the strand: registers live there need their MRF copy.
        const RegSet& need = live_.live_in[y];
        for (const auto& [r, defs] : cur) {
          if (!need.test(r))
            continue;
          for (int32_t d : defs) {
            if (d != kEntryDef)
              mrf_required_[d] = true;
          }
        }
      }
    }
  }

  void Classify(uint32_t i, size_t sl, const RegOperand& g, const RdState& cur) {
    Read rd;
    rd.inst = i;
    rd.slot = static_cast<uint8_t>(sl);
    rd.shared = IsSharedUnit(k_.code[i].op_class);
    const std::vector<int32_t>& d0 = DefsOf(cur, g.first);
    bool same = true;
    for (int j = 1; j < g.count; ++j)
      same = same && DefsOf(cur, static_cast<uint16_t>(g.first + j)) == d0;
    bool entry_only = same && d0.size() == 1 && d0[0] == kEntryDef;
    bool pure = same && !d0.empty() && d0[0] != kEntryDef;  // sorted: kEntryDef first if present
    if (pure) {
      for (int32_t d : d0) {
        const RegOperand& dg = k_.code[DefInst(d)].dsts[DefDst(d)];
        if (!(dg == g) || (!cfg_.forward_branches && k_.block_of[DefInst(d)] != k_.block_of[i]))
          pure = false;
      }
    }
    if (sl >= static_cast<size_t>(kOrfOperandSlots))
      pure = entry_only = false;  // no ORF read port: the MRF serves it
    if (entry_only) {
      entry_reads_[{g.first, g.count}].push_back(rd);
      return;
    }
    if (pure) {
      rd.defs = d0;
      pure_reads_.push_back(rd);
      return;
    }
    // Mixed: the read comes from the MRF, so every definition reaching it writes the MRF.
    for (int j = 0; j < g.count; ++j) {
      for (int32_t d : DefsOf(cur, static_cast<uint16_t>(g.first + j))) {
        if (d != kEntryDef)
          mrf_required_[d] = true;
      }
    }
  }

  // ----------------------------------------------------------------- candidates
  bool Dominates(uint32_t a, uint32_t b) {
    // Does instruction a lie on every path from the strand entry to instruction b?
    const uint32_t ba = k_.block_of[a], bb = k_.block_of[b];
    if (ba == bb)
      return a < b;
    if (dom_.empty())
      ComputeDominators();
    const auto it = dom_.find(bb);
    return it != dom_.end() && it->second.count(ba) > 0;
  }

  void ComputeDominators() {
    std::vector<uint32_t> blocks;
    for (uint32_t i = first_; i < end_; ++i) {
      if (blocks.empty() || blocks.back() != k_.block_of[i])
        blocks.push_back(k_.block_of[i]);
    }
    const std::set<uint32_t> all(blocks.begin(), blocks.end());
    for (uint32_t b : blocks)
      dom_[b] = all;
    dom_[blocks.front()] = {blocks.front()};
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t x = 1; x < blocks.size(); ++x) {
        const uint32_t b = blocks[x];
        std::set<uint32_t> d = all;
        bool any = false;
        for (uint32_t p : k_.blocks[b].preds) {
          const uint32_t last = k_.blocks[p].end - 1;
          if (!all.count(p) || !InStrand(last) || last >= k_.blocks[b].first)
            continue;
          any = true;
          std::set<uint32_t> inter;
          std::set_intersection(d.begin(), d.end(), dom_[p].begin(), dom_[p].end(),
                                std::inserter(inter, inter.begin()));
          d = std::move(inter);
        }
        if (!any)
          d.clear();  // only reachable from outside the strand (cannot happen: single entry)
        d.insert(b);
        if (d != dom_[b]) {
          dom_[b] = std::move(d);
          changed = true;
        }
      }
    }
  }

  void BuildCandidates() {
    // Write values: union the definitions that reach a common read.
    std::map<int32_t, int32_t> parent;
    std::function<int32_t(int32_t)> find = [&](int32_t x) {
      auto it = parent.find(x);
      if (it == parent.end()) {
        parent[x] = x;
        return x;
      }
      if (it->second == x)
        return x;
      const int32_t root = find(it->second);
      parent[x] = root;
      return root;
    };
    for (const Read& r : pure_reads_) {
      const int32_t a = find(r.defs[0]);
      for (int32_t d : r.defs)
        parent[find(d)] = a;
    }
    std::map<int32_t, size_t> web;
    for (const Read& r : pure_reads_) {
      const int32_t root = find(r.defs[0]);
      auto [it, fresh] = web.insert({root, cands_.size()});
      if (fresh) {
        Candidate c;
        c.group = k_.code[DefInst(r.defs[0])].dsts[DefDst(r.defs[0])];
        cands_.push_back(c);
      }
      Candidate& c = cands_[it->second];
      c.reads.push_back(r);
      for (int32_t d : r.defs) {
        if (std::find(c.defs.begin(), c.defs.end(), d) == c.defs.end())
          c.defs.push_back(d);
      }
    }
    for (auto& c : cands_) {
      std::sort(c.defs.begin(), c.defs.end());
      std::sort(c.reads.begin(), c.reads.end(), [](const Read& a, const Read& b) {
        return a.inst != b.inst ? a.inst < b.inst : a.slot < b.slot;
      });
    }
    // Read operands: the first read fills the ORF; later reads it dominates may use it.
    if (cfg_.read_operands) {
      for (auto& [key, reads] : entry_reads_) {
        Candidate c;
        c.read_operand = true;
        c.group = RegOperand{key.first, key.second};
        const Read& fill = reads.front();
        c.reads.push_back(fill);
        for (size_t x = 1; x < reads.size(); ++x) {
          const Read& r = reads[x];
          if (r.inst == fill.inst)
            continue;  // read in the same instruction as the fill: not yet in the ORF
          if (!cfg_.forward_branches && k_.block_of[r.inst] != k_.block_of[fill.inst])
            continue;
          if (Dominates(fill.inst, r.inst))
            c.reads.push_back(r);
        }
        if (c.reads.size() >= 2)
          cands_.push_back(std::move(c));
      }
    }
  }

  // ----------------------------------------------------------------- savings and placement
  // Definitions of a write value that reach one of its first `kept` reads.
  std::vector<int32_t> OrfDefs(const Candidate& c, size_t kept) const {
    std::vector<int32_t> defs;
    for (size_t x = 0; x < kept; ++x) {
      for (int32_t d : c.reads[x].defs) {
        if (std::find(defs.begin(), defs.end(), d) == defs.end())
          defs.push_back(d);
      }
    }
    std::sort(defs.begin(), defs.end());
    return defs;
  }

  bool DefNeedsMrf(const Candidate& c, int32_t d, size_t kept) const {
    if (mrf_required_.count(d))
      return true;
    for (size_t x = kept; x < c.reads.size(); ++x) {
      const auto& defs = c.reads[x].defs;
      if (std::find(defs.begin(), defs.end(), d) != defs.end())
        return true;
    }
    return false;
  }

  uint32_t Creation(const Candidate& c, size_t kept) const {
    if (c.read_operand)
      return c.reads[0].inst;
    return DefInst(OrfDefs(c, kept).front());
  }

  double Savings(const Candidate& c, RfLevel x, size_t kept) const {
    double s = 0;
    if (c.read_operand) {
      for (size_t r = 1; r < kept; ++r)
        s += e_.Read(RfLevel::kMrf, c.reads[r].shared) - e_.Read(x, c.reads[r].shared);
      s -= e_.Write(x, c.reads[0].shared);
    } else {
      for (size_t r = 0; r < kept; ++r)
        s += e_.Read(RfLevel::kMrf, c.reads[r].shared) - e_.Read(x, c.reads[r].shared);
      for (int32_t d : OrfDefs(c, kept)) {
        const bool sh = IsSharedUnit(k_.code[DefInst(d)].op_class);
        s -= e_.Write(x, sh);
        if (!DefNeedsMrf(c, d, kept))
          s += e_.Write(RfLevel::kMrf, sh);
      }
    }
    return s * c.group.count;
  }

  bool L0Eligible(const Candidate& c, size_t kept, int& bank) const {
    if (c.group.count != 1)
      return false;
    bank = -1;
    for (size_t r = 0; r < kept; ++r) {
      const Read& rd = c.reads[r];
      if (rd.shared)
        return false;
      // The fill of a read operand reads the MRF; its slot picks the bank it writes.
      if (cfg_.l0_split) {
        if (rd.slot >= kL0Banks || (bank >= 0 && bank != rd.slot))
          return false;
        bank = rd.slot;
      }
    }
    if (!c.read_operand) {
      for (int32_t d : OrfDefs(c, kept)) {
        if (IsSharedUnit(k_.code[DefInst(d)].op_class))
          return false;
      }
    }
    if (!cfg_.l0_split)
      bank = 0;
    return true;
  }

  std::vector<std::vector<bool>>& Occupancy(RfLevel x, int bank) {
    auto& occ = x == RfLevel::kL1 ? l1_occ_ : l0_occ_[static_cast<size_t>(bank)];
    const size_t entries = x == RfLevel::kL1 ? static_cast<size_t>(cfg_.l1_entries) : 1;
    if (occ.empty())
      occ.assign(entries, std::vector<bool>(end_ - first_, false));
    return occ;
  }

  // Places the value over gaps [begin, end) (gap g lies between instructions g and g+1).
  bool Place(Candidate& c, RfLevel x, int bank, size_t kept) {
    const uint32_t begin = Creation(c, kept);
    const uint32_t last = c.reads[kept - 1].inst;
    auto& occ = Occupancy(x, bank);
    std::vector<uint8_t> chosen;
    for (size_t e = 0; e < occ.size() && chosen.size() < c.group.count; ++e) {
      bool free = true;
      for (uint32_t g = begin; g < last && free; ++g)
        free = !occ[e][g - first_];
      if (free)
        chosen.push_back(static_cast<uint8_t>(e));
    }
    if (chosen.size() < c.group.count)
      return false;
    for (size_t j = 0; j < chosen.size(); ++j) {
      for (uint32_t g = begin; g < last; ++g)
        occ[chosen[j]][g - first_] = true;
      c.entries[j] = x == RfLevel::kL0 ? static_cast<uint8_t>(bank) : chosen[j];
    }
    c.done = true;
    c.level = x;
    c.kept = kept;
    return true;
  }

  void Pass(RfLevel x, bool partial) {
    struct Item {
      double priority;
      uint32_t creation;
      size_t index;
    };
    std::vector<Item> queue;
    for (size_t i = 0; i < cands_.size(); ++i) {
      const Candidate& c = cands_[i];
      if (c.done)
        continue;
      const size_t kept = c.reads.size();
      const double s = Savings(c, x, kept);
      const uint32_t range = c.reads[kept - 1].inst - Creation(c, kept);
      if (s <= 0 || range == 0)
        continue;
      queue.push_back(Item{s / range, Creation(c, kept), i});
    }
    std::stable_sort(queue.begin(), queue.end(), [&](const Item& a, const Item& b) {
      if (a.priority != b.priority)
        return a.priority > b.priority;
      if (a.creation != b.creation)
        return a.creation < b.creation;
      return cands_[a.index].group.first < cands_[b.index].group.first;
    });
    for (const Item& it : queue) {
      Candidate& c = cands_[it.index];
      const size_t min_kept = c.read_operand ? 2 : 1;
      for (size_t kept = c.reads.size(); kept >= min_kept; --kept) {
        if (kept < c.reads.size()) {
          // Partial range: the dropped reads go to the MRF; stop when it no longer pays.
          if (!partial || Savings(c, x, kept) <= 0)
            break;
        }
        if (c.reads[kept - 1].inst == Creation(c, kept))
          break;
        int bank = 0;
        if (x == RfLevel::kL0 && !L0Eligible(c, kept, bank))
          break;
        if (x == RfLevel::kL1 && c.group.count > cfg_.l1_entries)
          break;
        if (Place(c, x, bank, kept)) {
          out_.stats.static_savings_pj += Savings(c, x, kept);
          if (kept < c.reads.size())
            ++out_.stats.partial_values;
          break;
        }
      }
    }
  }

  // ----------------------------------------------------------------- annotation
  void Record() {
    for (const Candidate& c : cands_) {
      if (!c.done)
        continue;
      if (c.level == RfLevel::kL0)
        ++out_.stats.l0_values;
      else
        ++out_.stats.l1_values;
      if (c.read_operand)
        ++out_.stats.read_operand_values;
      for (size_t r = 0; r < c.kept; ++r) {
        OperandAlloc& a = out_.insts[c.reads[r].inst].srcs[c.reads[r].slot];
        if (c.read_operand && r == 0) {
          a.level = RfLevel::kMrf;
          a.fill = c.level;
        } else {
          a.level = c.level;
        }
        a.entries = c.entries;
      }
      if (!c.read_operand) {
        for (int32_t d : OrfDefs(c, c.kept)) {
          ResultAlloc& w = out_.insts[DefInst(d)].dsts[DefDst(d)];
          w.orf = c.level;
          w.entries = c.entries;
          w.mrf = DefNeedsMrf(c, d, c.kept);
        }
      }
    }
  }

  const Kernel& k_;
  const Liveness& live_;
  const Strands& st_;
  uint32_t s_;
  const OrfConfig& cfg_;
  const RegisterFileEnergies& e_;
  OrfAllocation& out_;
  uint32_t first_ = 0, end_ = 0;
  std::map<int32_t, bool> mrf_required_;
  std::vector<Read> pure_reads_;
  std::map<std::pair<uint16_t, uint8_t>, std::vector<Read>> entry_reads_;
  std::vector<Candidate> cands_;
  std::map<uint32_t, std::set<uint32_t>> dom_;
  std::vector<std::vector<bool>> l1_occ_;
  std::array<std::vector<std::vector<bool>>, kL0Banks> l0_occ_;
};

}  // namespace

OrfAllocation AllocateOrf(const Kernel& k, const Liveness& live, const Strands& st,
                          const OrfConfig& cfg, const RegisterFileEnergies& e) {
  OrfAllocation out;
  out.config = cfg;
  out.insts.resize(k.code.size());
  for (size_t i = 0; i < k.code.size(); ++i) {
    out.insts[i].srcs.resize(k.code[i].srcs.size());
    out.insts[i].dsts.resize(k.code[i].dsts.size());
  }
  if (cfg.levels < 2)
    return out;
  for (uint32_t s = 0; s < st.strands.size(); ++s)
    StrandAllocator(k, live, st, s, cfg, e, out).Run();
  return out;
}

}  // namespace gpurf::sim::passes
