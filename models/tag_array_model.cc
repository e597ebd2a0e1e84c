#include "models/tag_array_model.h"

#include <fmt/format.h>

#include <algorithm>

#include "models/registry.h"

namespace gpurf {

namespace {

const char* StateName(TagArraySpec::State s) {
  switch (s) {
    case TagArraySpec::kInactive:
      return "inactive";
    case TagArraySpec::kReg:
      return "reg";
    case TagArraySpec::kCache:
      return "cache";
    case TagArraySpec::kDirty:
      return "dirty";
  }
  return "?";
}

}  // namespace

TagArray::TagArray(const TagArraySpec& spec) : spec_(spec) {
  Reset();
}

void TagArray::Reset() {
  sets_.assign(static_cast<size_t>(spec_.sets), Set{});
  for (Set& s : sets_) {
    s.state.assign(static_cast<size_t>(spec_.ways), TagArraySpec::kInactive);
    s.tag.assign(static_cast<size_t>(spec_.ways), 0);
    s.written_back.assign(static_cast<size_t>(spec_.ways), false);
    for (int w = 0; w < spec_.ways; ++w)
      s.recency.push_back(w);  // after reset way 0 is the most recently used
  }
}

bool TagArray::AllowedTransition(const TagArraySpec& spec, State from, State to) {
  using S = TagArraySpec;
  if (from == to)
    return true;
  switch (from) {
    case S::kInactive:
      return to == S::kReg || to == S::kCache;  // register write, load
    case S::kReg:
      // Last use; a register spilled for cache data only under lru-fair.
      return to == S::kInactive || (to == S::kCache && !spec.prioritized());
    case S::kCache:
      return to == S::kDirty || to == S::kReg;  // store; replaced by a register
    case S::kDirty:
      return to == S::kReg || to == S::kCache;  // replaced after the write-back
  }
  return false;
}

void TagArray::Fail(const std::string& what) {
  if (failure_.empty())
    failure_ = what;
}

void TagArray::Touch(Set& s, int way) {
  s.recency.erase(std::find(s.recency.begin(), s.recency.end(), way));
  s.recency.insert(s.recency.begin(), way);
}

int TagArray::ChooseWay(const Set& s, bool for_register) const {
  for (int w = 0; w < spec_.ways; ++w) {
    if (s.state[w] == TagArraySpec::kInactive)
      return w;  // a vacant line: nothing is evicted
  }
  // The least recently used way among the candidates, searched from the LRU end.
  auto lru_where = [&](auto pred) {
    for (auto it = s.recency.rbegin(); it != s.recency.rend(); ++it) {
      if (pred(*it))
        return *it;
    }
    return -1;
  };
  if (!spec_.prioritized())
    return s.recency.back();  // lru-fair: registers and cache data are alike
  const int not_reg = lru_where([&](int w) { return s.state[w] != TagArraySpec::kReg; });
  if (not_reg >= 0 || !for_register)
    return not_reg;         // cache data never displaces a register (-1: the load is not cached)
  return s.recency.back();  // a register when every way holds one
}

void TagArray::Change(int set, int way, State to) {
  Set& s = sets_[set];
  const State from = s.state[way];
  if (!AllowedTransition(spec_, from, to)) {
    Fail(fmt::format("I4 violated: set {} way {} went {} -> {}, not a Fig. 6 transition", set, way,
                     StateName(from), StateName(to)));
  }
  if (from == TagArraySpec::kDirty && to != TagArraySpec::kDirty && !s.written_back[way])
    Fail(fmt::format("I3 violated: dirty line of set {} way {} left without its write-back", set,
                     way));
  if (to == TagArraySpec::kDirty && from != TagArraySpec::kDirty)
    s.written_back[way] = false;
  s.state[way] = to;
}

TagArray::Result TagArray::Access(Op op, bool last, uint64_t addr) {
  const int set = spec_.SetOf(addr);
  const uint64_t tag = spec_.TagOf(addr);
  Set& s = sets_[set];
  Result r;
  int hit_way = -1;
  for (int w = 0; w < spec_.ways; ++w) {
    if (s.state[w] != TagArraySpec::kInactive && s.tag[w] == tag)
      hit_way = w;
  }
  if (hit_way >= 0) {
    ++hits_;
    r.hit = true;
    r.way = hit_way;
    r.before = s.state[hit_way];
    State to = r.before;
    if (op == TagArraySpec::kReadReg && last && r.before == TagArraySpec::kReg)
      to = TagArraySpec::kInactive;  // the compiler declared the register dead
    else if (op == TagArraySpec::kStore)
      to = TagArraySpec::kDirty;
    Change(set, hit_way, to);
    r.after = to;
    Touch(s, hit_way);
  } else {
    ++misses_;
    const bool is_reg = op == TagArraySpec::kReadReg || op == TagArraySpec::kWriteReg;
    const bool allocate =
        op == TagArraySpec::kWriteReg || op == TagArraySpec::kLoad ||
        (op == TagArraySpec::kReadReg && !last);  // stores do not allocate; dead regs stay out
    const int way = allocate ? ChooseWay(s, is_reg) : -1;
    if (way >= 0) {
      ++fills_;
      const State old = s.state[way];
      if (old != TagArraySpec::kInactive) {
        r.victim = true;
        r.victim_state = old;
        r.victim_addr = spec_.LineAddress(set, s.tag[way]);
        if (old == TagArraySpec::kDirty) {
          if (s.written_back[way])
            Fail(fmt::format("I3 violated: dirty line of set {} way {} written back twice", set,
                             way));
          s.written_back[way] = true;
          ++write_backs_;
        }
        if (old == TagArraySpec::kReg)
          ++spills_;
        if (old == TagArraySpec::kReg && op == TagArraySpec::kLoad && spec_.prioritized())
          Fail(fmt::format("I2 violated: register line of set {} way {} evicted for a load", set,
                           way));
      }
      r.filled = true;
      r.way = way;
      r.after = is_reg ? TagArraySpec::kReg : TagArraySpec::kCache;
      Change(set, way, r.after);
      s.tag[way] = tag;
      Touch(s, way);
    }
  }
  // I1: the lookup's set holds its tag at most once.
  int holders = 0;
  for (int w = 0; w < spec_.ways; ++w)
    holders += s.state[w] != TagArraySpec::kInactive && s.tag[w] == tag;
  if (holders > 1)
    Fail(fmt::format("I1 violated: set {} holds tag {:#x} in {} ways", set, tag, holders));
  return r;
}

TagArray::Result TagArray::Peek(Op op, bool last, uint64_t addr) {
  const int set = spec_.SetOf(addr);
  const Set saved = sets_[set];
  const std::string failure = failure_;
  const uint64_t h = hits_, m = misses_, f = fills_, wb = write_backs_, sp = spills_;
  const Result r = Access(op, last, addr);
  sets_[set] = saved;
  failure_ = failure;
  hits_ = h, misses_ = m, fills_ = f, write_backs_ = wb, spills_ = sp;
  return r;
}

// ------------------------------------------------------------------------------ cycle model

TagArrayCycleModel::TagArrayCycleModel(const TagArraySpec& spec)
    : spec_(spec), array_(spec), pending_(static_cast<size_t>(spec.lookups)) {}

bool TagArrayCycleModel::Ready() const {
  return std::none_of(pending_.begin(), pending_.end(), [](const Lookup& l) { return l.valid; });
}

std::vector<TagArrayCycleModel::Lookup> TagArrayCycleModel::Current(const PortValues& in) const {
  if (!Ready())
    return pending_;
  std::vector<Lookup> cur(static_cast<size_t>(spec_.lookups));
  if (!in[kReqValid].bit(0))
    return cur;
  for (int p = 0; p < spec_.lookups; ++p) {
    Lookup& l = cur[p];
    l.valid = in[kLkValid].bit(p);
    l.op = static_cast<TagArraySpec::Op>(in[kLkOp].get(2 * p, 2));
    l.last = in[kLkLast].bit(p);
    l.addr = spec_.LookupLine(l.op, in[kLkWarp], in[kLkReg], in[kLkAddr], p);
  }
  return cur;
}

std::vector<bool> TagArrayCycleModel::Served(const std::vector<Lookup>& cur) const {
  std::vector<bool> served(cur.size(), false);
  std::vector<bool> bank_taken(static_cast<size_t>(spec_.banks), false);
  for (size_t p = 0; p < cur.size(); ++p) {
    if (!cur[p].valid)
      continue;
    const int b = spec_.BankOf(cur[p].addr);
    if (!bank_taken[b]) {
      bank_taken[b] = true;
      served[p] = true;
    }
  }
  return served;
}

void TagArrayCycleModel::Outputs(const PortValues& in, PortValues& out, PortValues& defined) {
  for (int p = kReqReady; p < kNumPorts; ++p) {
    out[p].clear();
    defined[p].fill_ones();
  }
  if (!in[kRstN].bit(0))
    return;  // asynchronous reset: every output is zero while rst_ni is low
  out[kConflictCycles].set(0, 32, conflict_cycles_ & 0xffffffffULL);
  out[kReqReady].set_bit(0, Ready());
  const std::vector<Lookup> cur = Current(in);
  const std::vector<bool> served = Served(cur);
  const int aw = spec_.addr_width, wb = spec_.way_bits;
  for (int p = 0; p < spec_.lookups; ++p) {
    if (!served[p])
      continue;
    // The lookups served together are in different sets, so each one's answer is that of the
    // array as it is now.
    const TagArray::Result r = array_.Peek(cur[p].op, cur[p].last, cur[p].addr);
    out[kRspValid].set_bit(p, true);
    out[kRspAddr].set(p * aw, aw, cur[p].addr);
    out[kRspHit].set_bit(p, r.hit);
    out[kRspWay].set(p * wb, wb, static_cast<uint64_t>(r.way));
    out[kRspState].set(2 * p, 2, static_cast<uint64_t>(r.before));
    out[kRspNext].set(2 * p, 2, static_cast<uint64_t>(r.after));
    out[kRspVictimValid].set_bit(p, r.victim);
    out[kRspVictimState].set(2 * p, 2, static_cast<uint64_t>(r.victim_state));
    out[kRspVictimAddr].set(p * aw, aw, r.victim_addr);
  }
}

void TagArrayCycleModel::Clock(const PortValues& in) {
  if (!in[kRstN].bit(0)) {
    array_.Reset();
    for (Lookup& l : pending_)
      l = Lookup{};
    conflict_cycles_ = 0;
    return;
  }
  if (!Ready())
    conflict_cycles_ = (conflict_cycles_ + 1) & 0xffffffffULL;
  std::vector<Lookup> cur = Current(in);
  const std::vector<bool> served = Served(cur);
  for (size_t p = 0; p < cur.size(); ++p) {
    if (!served[p])
      continue;
    if ((cur[p].op == TagArraySpec::kLoad || cur[p].op == TagArraySpec::kStore) &&
        spec_.InRegSpace(cur[p].addr) && failure_.empty()) {
      failure_ = fmt::format("contract: memory lookup {} addresses the reg-mem space ({:#x})", p,
                             cur[p].addr);
    }
    array_.Access(cur[p].op, cur[p].last, cur[p].addr);
    cur[p].valid = false;
  }
  pending_ = cur;
}

std::string TagArrayCycleModel::Failure() const {
  return failure_.empty() ? array_.failure() : failure_;
}

GPURF_REGISTER(ModelFamily, tag_array, "tag-array",
               ModelFamily{[](const StructureSpec& s) -> std::unique_ptr<CycleModel> {
                 return std::make_unique<TagArrayCycleModel>(SpecAs<TagArraySpec>(s));
               }})

}  // namespace gpurf
