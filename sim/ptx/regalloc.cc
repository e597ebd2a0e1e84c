#include "sim/ptx/regalloc.h"

#include <fmt/format.h>

#include <algorithm>
#include <bitset>
#include <map>
#include <numeric>

#include "sim/mem/memory.h"

namespace gpurf::sim::ptx {

// PtxInst::cache_op uses the memory model's numbering.
static_assert(static_cast<int>(mem::CacheOp::kCa) == 1 &&
              static_cast<int>(mem::CacheOp::kCg) == 2 &&
              static_cast<int>(mem::CacheOp::kCs) == 3 &&
              static_cast<int>(mem::CacheOp::kNc) == 4 &&
              static_cast<int>(mem::CacheOp::kLu) == 5 && static_cast<int>(mem::CacheOp::kCv) == 6);

OpClass ClassOf(const PtxInst& in) {
  switch (in.op) {
    case Op::kShfl:
      // SHFL crosses lanes on the shared-memory (MIO) crossbar: a shared unit with shared-memory
      // latency, as the Accel-Sim importer classes SASS SHFL (sim/accelsim/sass.cc). It has no
      // address (its recorded lane addresses are 0).
      return OpClass::kSharedMem;
    case Op::kLd:
    case Op::kSt:
    case Op::kAtom:
    case Op::kPrefetch:
      switch (in.space) {
        case Space::kParam:
          return OpClass::kConstMem;
        case Space::kShared:
          return OpClass::kSharedMem;
        case Space::kLocal:
          return OpClass::kLocalMem;
        case Space::kGlobal:
        case Space::kGeneric:
          return OpClass::kGlobalMem;
      }
      return OpClass::kGlobalMem;
    case Op::kDiv:
    case Op::kRem:
    case Op::kRcp:
    case Op::kSqrt:
    case Op::kRsqrt:
    case Op::kEx2:
    case Op::kLg2:
    case Op::kSin:
    case Op::kCos:
      return OpClass::kSfu;
    case Op::kBra:
      return OpClass::kBranch;
    case Op::kBar:
    case Op::kMembar:
      return OpClass::kBarrier;
    case Op::kRet:
      return OpClass::kExit;
    default:
      return OpClass::kAlu;
  }
}

bool LongLatency(const PtxInst& in) {
  if (in.op != Op::kLd && !(in.op == Op::kAtom && in.n_dst > 0))
    return false;
  return in.space == Space::kGlobal || in.space == Space::kGeneric || in.space == Space::kLocal;
}

namespace {

// Calls f(reg_field, is_pred, is_def) for every register field of an instruction: reads first
// (operands in order, address bases, vector elements, predicates), then writes.
template <typename Inst, typename F>
void ForEachReg(Inst& in, F&& f) {
  for (int i = 0; i < in.n_src; ++i) {
    auto& o = in.src[static_cast<size_t>(i)];
    if (o.kind == Operand::kReg)
      f(o.reg, o.width == 0, false);
    else if (o.kind == Operand::kAddr && o.has_base)
      f(o.reg, false, false);
    else if (o.kind == Operand::kVec)
      for (int k = 0; k < o.n; ++k)
        f(o.vec[static_cast<size_t>(k)], false, false);
  }
  if (in.has_guard)
    f(in.guard.reg, true, false);
  if (in.has_psrc)
    f(in.psrc.reg, true, false);
  if (in.n_dst > 0) {
    auto& o = in.dst;
    if (o.kind == Operand::kReg)
      f(o.reg, false, true);
    else if (o.kind == Operand::kVec)
      for (int k = 0; k < o.n; ++k)
        f(o.vec[static_cast<size_t>(k)], false, true);
  }
  for (int i = 0; i < in.n_pdst; ++i)
    f(in.pdst[static_cast<size_t>(i)].reg, true, true);
}

// A CFG-only view of the code (classes, guards, targets) for liveness.
Kernel CfgShell(const PtxFunction& fn) {
  Kernel k;
  k.name = fn.name;
  k.code.resize(fn.code.size());
  for (size_t i = 0; i < fn.code.size(); ++i) {
    const PtxInst& in = fn.code[i];
    Instruction& o = k.code[i];
    o.pc = i;
    o.opcode = in.opcode;
    o.op_class = ClassOf(in);
    o.cta_barrier = in.op == Op::kBar;
    o.target = in.target;
    o.loc = in.loc;
    if (in.has_guard) {
      o.guard = 0;
      o.conditional = in.op == Op::kBra;
    }
  }
  k.BuildCfg();
  return k;
}

// Replaces code[i] by before[i] + code[i] + after[i], remapping branch targets to the first
// instruction emitted for the old target.
void Splice(std::vector<PtxInst>& code, std::vector<std::vector<PtxInst>>& before,
            std::vector<std::vector<PtxInst>>& after) {
  std::vector<uint32_t> new_index(code.size());
  std::vector<PtxInst> out;
  for (size_t i = 0; i < code.size(); ++i) {
    new_index[i] = static_cast<uint32_t>(out.size());
    for (auto& b : before[i])
      out.push_back(std::move(b));
    out.push_back(std::move(code[i]));
    for (auto& a : after[i])
      out.push_back(std::move(a));
  }
  for (auto& in : out) {
    if (in.target >= 0)
      in.target = static_cast<int32_t>(new_index[static_cast<size_t>(in.target)]);
  }
  code = std::move(out);
}

PtxInst MakeMov(const PtxInst& at, uint16_t dst, uint16_t src, uint8_t width) {
  PtxInst m;
  m.op = Op::kMov;
  m.type = width == 2 ? Type::kB64 : Type::kB32;
  m.opcode = width == 2 ? "mov.b64" : "mov.b32";
  m.loc = at.loc;
  m.has_guard = at.has_guard;
  m.guard = at.guard;
  m.n_dst = 1;
  m.dst.kind = Operand::kReg;
  m.dst.reg = dst;
  m.dst.width = width;
  m.n_src = 1;
  m.src[0].kind = Operand::kReg;
  m.src[0].reg = src;
  m.src[0].width = width;
  return m;
}

// Vector operands: make every {..} a consistent group of distinct registers, inserting fresh
// group registers and movs where a register would have to sit at two places. Returns the groups
// (members in order) and counts the inserted movs.
std::vector<std::vector<uint16_t>> FormGroups(PtxFunction& fn, int& copies) {
  std::vector<std::vector<uint16_t>> groups;
  std::map<uint16_t, std::pair<size_t, int>> where;  // vreg -> (group, position)
  std::vector<std::vector<PtxInst>> before(fn.code.size()), after(fn.code.size());
  bool changed = false;
  for (size_t i = 0; i < fn.code.size(); ++i) {
    PtxInst& in = fn.code[i];
    Operand* vec = nullptr;
    bool is_dst = false;
    if (in.n_dst > 0 && in.dst.kind == Operand::kVec) {
      vec = &in.dst;
      is_dst = true;
    }
    for (int s = 0; s < in.n_src; ++s) {
      if (in.src[static_cast<size_t>(s)].kind == Operand::kVec)
        vec = &in.src[static_cast<size_t>(s)];
    }
    if (!vec)
      continue;
    // Existing group with the same members in the same order?
    bool all_new = true, same = true;
    std::optional<size_t> g;
    for (int k = 0; k < vec->n; ++k) {
      const uint16_t r = vec->vec[static_cast<size_t>(k)];
      for (int j = 0; j < k; ++j) {
        if (vec->vec[static_cast<size_t>(j)] == r)
          all_new = same = false;
      }
      auto it = where.find(r);
      if (it == where.end()) {
        same = false;
        continue;
      }
      all_new = false;
      if (it->second.second != k || (g && *g != it->second.first))
        same = false;
      g = it->second.first;
    }
    if (same && g && groups[*g].size() == vec->n)
      continue;
    if (all_new) {
      groups.emplace_back(vec->vec.begin(), vec->vec.begin() + vec->n);
      for (int k = 0; k < vec->n; ++k)
        where[vec->vec[static_cast<size_t>(k)]] = {groups.size() - 1, k};
      continue;
    }
    // Fresh registers for this operand.
    std::vector<uint16_t> fresh;
    for (int k = 0; k < vec->n; ++k) {
      const uint16_t old = vec->vec[static_cast<size_t>(k)];
      const VReg v = fn.vregs[old];
      const auto id = static_cast<uint16_t>(fn.vregs.size());
      fn.vregs.push_back(VReg{fmt::format("%vec{}", id), v.type});
      fresh.push_back(id);
      if (is_dst)
        after[i].push_back(MakeMov(in, old, id, vec->width));
      else
        before[i].push_back(MakeMov(in, id, old, vec->width));
      vec->vec[static_cast<size_t>(k)] = id;
      where[id] = {groups.size(), k};
      ++copies;
      changed = true;
    }
    groups.push_back(fresh);
  }
  if (changed)
    Splice(fn.code, before, after);
  return groups;
}

// Dynamic bitset over vregs.
struct Bits {
  std::vector<uint64_t> w;
  explicit Bits(size_t n = 0) : w((n + 63) / 64, 0) {}
  void set(size_t i) { w[i / 64] |= uint64_t{1} << (i % 64); }
  void reset(size_t i) { w[i / 64] &= ~(uint64_t{1} << (i % 64)); }
  bool test(size_t i) const { return (w[i / 64] >> (i % 64)) & 1; }
  bool OrWith(const Bits& o) {  // returns true when this changed
    bool ch = false;
    for (size_t k = 0; k < w.size(); ++k) {
      const uint64_t n = w[k] | o.w[k];
      ch |= n != w[k];
      w[k] = n;
    }
    return ch;
  }
  template <typename F>
  void ForEach(F&& f) const {
    for (size_t k = 0; k < w.size(); ++k) {
      for (uint64_t x = w[k]; x; x &= x - 1)
        f(k * 64 + static_cast<size_t>(__builtin_ctzll(x)));
    }
  }
};

}  // namespace

std::vector<VregInterval> LiveIntervals(const PtxFunction& fn) {
  const size_t nv = fn.vregs.size();
  std::vector<VregInterval> iv(nv);
  if (fn.code.empty())
    return iv;
  const Kernel cfg = CfgShell(fn);
  const size_t nb = cfg.blocks.size();
  std::vector<Bits> gen(nb, Bits(nv)), kill(nb, Bits(nv)), in(nb, Bits(nv)), out(nb, Bits(nv));
  for (size_t b = 0; b < nb; ++b) {
    for (uint32_t i = cfg.blocks[b].first; i < cfg.blocks[b].end; ++i) {
      const PtxInst& x = fn.code[i];
      ForEachReg(x, [&](const uint16_t& r, bool, bool def) {
        if (!def) {
          if (!kill[b].test(r))
            gen[b].set(r);
        } else if (!x.has_guard) {
          kill[b].set(r);
        }
      });
    }
  }
  // Backward dataflow to a fixed point, blocks in reverse order.
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t bi = nb; bi-- > 0;) {
      Bits o(nv);
      for (uint32_t s : cfg.blocks[bi].succs) {
        if (s != kExitBlock)
          o.OrWith(in[s]);
      }
      out[bi] = o;
      Bits n = o;
      for (size_t k = 0; k < n.w.size(); ++k)
        n.w[k] = (n.w[k] & ~kill[bi].w[k]) | gen[bi].w[k];
      if (n.w != in[bi].w) {
        in[bi] = std::move(n);
        changed = true;
      }
    }
  }
  auto extend = [&](size_t r, int pos) {
    VregInterval& v = iv[r];
    if (v.start < 0 || pos < v.start)
      v.start = pos;
    if (pos > v.end)
      v.end = pos;
  };
  for (size_t b = 0; b < nb; ++b) {
    const int first = 2 * static_cast<int>(cfg.blocks[b].first);
    const int last = 2 * static_cast<int>(cfg.blocks[b].end - 1) + 1;
    in[b].ForEach([&](size_t r) { extend(r, first); });
    out[b].ForEach([&](size_t r) { extend(r, last); });
    for (uint32_t i = cfg.blocks[b].first; i < cfg.blocks[b].end; ++i) {
      ForEachReg(fn.code[i], [&](const uint16_t& r, bool, bool def) {
        extend(r, 2 * static_cast<int>(i) + (def ? 1 : 0));
      });
    }
  }
  return iv;
}

namespace {

struct Unit {
  int start = -1, end = -1;
  int width = 1, align = 1;
  bool group = false;
  std::vector<uint16_t> members;  // vregs; member k at offset k * elem_width
  int elem_width = 1;
  int reg = -1;
  bool spilled = false;
};

constexpr int kMaxArch = 256;
using RegSet = std::bitset<kMaxArch>;

int FindRun(const RegSet& used, int limit, int width, int align) {
  for (int base = 0; base + width <= limit; base += align) {
    bool ok = true;
    for (int k = 0; k < width && ok; ++k)
      ok = !used[static_cast<size_t>(base + k)];
    if (ok)
      return base;
  }
  return -1;
}

void Mark(RegSet& used, int base, int width, bool v) {
  for (int k = 0; k < width; ++k)
    used[static_cast<size_t>(base + k)] = v;
}

// Linear scan over `units` with `limit` registers. Without `allow_spill`, returns false as soon
// as a unit does not fit; with it, spills (furthest end first) and always succeeds.
bool Scan(std::vector<Unit>& units, int limit, bool allow_spill) {
  std::vector<size_t> order(units.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return units[a].start < units[b].start; });
  std::vector<size_t> active;
  RegSet used;
  for (size_t ui : order) {
    Unit& u = units[ui];
    u.reg = -1;
    u.spilled = false;
    // Expire intervals that ended before this one starts.
    for (size_t k = 0; k < active.size();) {
      if (units[active[k]].end < u.start) {
        Mark(used, units[active[k]].reg, units[active[k]].width, false);
        active.erase(active.begin() + static_cast<std::ptrdiff_t>(k));
      } else {
        ++k;
      }
    }
    int base = FindRun(used, limit, u.width, u.align);
    if (base < 0) {
      if (!allow_spill)
        return false;
      // Evict active single values, furthest end first, while that helps this unit.
      std::vector<size_t> cands;
      for (size_t a : active) {
        if (!units[a].group && (u.group || units[a].end > u.end))
          cands.push_back(a);
      }
      std::stable_sort(cands.begin(), cands.end(),
                       [&](size_t a, size_t b) { return units[a].end > units[b].end; });
      RegSet trial = used;
      std::vector<size_t> evicted;
      for (size_t a : cands) {
        Mark(trial, units[a].reg, units[a].width, false);
        evicted.push_back(a);
        base = FindRun(trial, limit, u.width, u.align);
        if (base >= 0)
          break;
      }
      if (base >= 0) {
        used = trial;
        for (size_t a : evicted) {
          units[a].spilled = true;
          units[a].reg = -1;
          active.erase(std::find(active.begin(), active.end(), a));
        }
      } else {
        // Nothing evictable makes room (for a vector group: the other active units are groups
        // too): this unit lives in local memory.
        u.spilled = true;
        continue;
      }
    }
    u.reg = base;
    Mark(used, base, u.width, true);
    active.push_back(ui);
  }
  return true;
}

// Predicates: unbounded linear scan, lowest free register first.
std::vector<int> AllocatePreds(const PtxFunction& fn, const std::vector<VregInterval>& iv,
                               int& count) {
  std::vector<int> arch(fn.vregs.size(), -1);
  std::vector<size_t> order;
  for (size_t v = 0; v < fn.vregs.size(); ++v) {
    if (fn.vregs[v].pred() && iv[v].start >= 0)
      order.push_back(v);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return iv[a].start < iv[b].start; });
  std::vector<int> busy_until;  // per predicate register: end of its current interval
  count = 0;
  for (size_t v : order) {
    int chosen = -1;
    for (size_t p = 0; p < busy_until.size(); ++p) {
      if (busy_until[p] < iv[v].start) {
        chosen = static_cast<int>(p);
        break;
      }
    }
    if (chosen < 0) {
      if (busy_until.size() >= kNoPred) {
        const PtxInst& at = fn.code[static_cast<size_t>(iv[v].start / 2)];
        throw InputError(at.loc, "kernel", fn.name,
                         fmt::format("{} is the {}th predicate live at once at this instruction",
                                     fn.vregs[v].name, kNoPred + 1),
                         fmt::format("at most {} simultaneously live predicates", kNoPred));
      }
      chosen = static_cast<int>(busy_until.size());
      busy_until.push_back(0);
    }
    busy_until[static_cast<size_t>(chosen)] = iv[v].end;
    arch[v] = chosen;
    count = std::max(count, chosen + 1);
  }
  return arch;
}

std::vector<RegOperand> RegsOf(const Operand& o) {
  switch (o.kind) {
    case Operand::kReg:
      if (o.width == 0)
        return {};
      return {RegOperand{o.reg, o.width}};
    case Operand::kAddr:
      if (o.has_base)
        return {RegOperand{o.reg, o.width}};
      return {};
    case Operand::kVec:
      return {RegOperand{o.vec[0], static_cast<uint8_t>(o.n * o.width)}};
    default:
      return {};
  }
}

Instruction ToInstruction(const PtxInst& in, uint32_t index) {
  Instruction o;
  o.pc = index;
  o.opcode = in.opcode;
  o.op_class = ClassOf(in);
  o.cta_barrier = in.op == Op::kBar;
  o.loc = in.loc;
  for (int i = 0; i < in.n_src; ++i) {
    const Operand& s = in.src[static_cast<size_t>(i)];
    if (s.kind == Operand::kReg && s.width == 0) {
      o.pred_srcs.push_back(static_cast<uint8_t>(s.reg));
      continue;
    }
    for (const auto& r : RegsOf(s))
      o.srcs.push_back(r);
  }
  if (in.has_psrc)
    o.pred_srcs.push_back(static_cast<uint8_t>(in.psrc.reg));
  if (in.n_dst > 0)
    o.dsts = RegsOf(in.dst);
  for (int i = 0; i < in.n_pdst; ++i)
    o.pred_dsts.push_back(static_cast<uint8_t>(in.pdst[static_cast<size_t>(i)].reg));
  if (in.has_guard) {
    o.guard = static_cast<uint8_t>(in.guard.reg);
    o.guard_negated = in.guard.negated;
  }
  o.long_latency = LongLatency(in);
  o.conditional = in.op == Op::kBra && in.has_guard && !in.uni;
  o.target = in.target;
  if (in.op == Op::kLd || in.op == Op::kSt || in.op == Op::kAtom) {
    o.mem_bytes = static_cast<uint8_t>(TypeBits(in.type) / 8 * in.vec);
    o.mem_write = in.op != Op::kLd;
    o.mem_atomic = in.op == Op::kAtom;
    o.cache_op = in.cache_op;
  }
  return o;
}

}  // namespace

CompiledKernel CompileKernel(const PtxModule& module, const std::string& entry,
                             const AllocOptions& opt) {
  const PtxFunction* src = module.Find(entry);
  if (!src) {
    std::vector<std::string> names;
    for (const auto& f : module.entries)
      names.push_back(f.name);
    throw InputError({module.file, 0, 0}, "kernel", entry,
                     fmt::format("no .entry of this name in {}", module.file),
                     fmt::format("{}", fmt::join(names, ", ")));
  }
  if (opt.max_regs < 16 || opt.max_regs > 255)
    throw InputError({}, "max_regs", std::to_string(opt.max_regs), "register budget out of range",
                     "16..255");
  CompiledKernel ck;
  ck.fn = *src;
  PtxFunction& fn = ck.fn;
  const std::vector<std::vector<uint16_t>> groups = FormGroups(fn, ck.stats.group_copies);
  const std::vector<VregInterval> iv = LiveIntervals(fn);

  // Allocation units: vector groups, then the other data registers.
  std::vector<Unit> units;
  std::vector<int> unit_of(fn.vregs.size(), -1);
  for (const auto& g : groups) {
    Unit u;
    u.group = true;
    u.members = g;
    u.elem_width = fn.vregs[g[0]].width();
    u.width = static_cast<int>(g.size()) * u.elem_width;
    u.align = u.width > 2 ? 4 : u.width;
    for (uint16_t m : g) {
      if (iv[m].start < 0)
        continue;
      u.start = u.start < 0 ? iv[m].start : std::min(u.start, iv[m].start);
      u.end = std::max(u.end, iv[m].end);
      unit_of[m] = static_cast<int>(units.size());
    }
    if (u.start >= 0)
      units.push_back(u);
  }
  for (size_t v = 0; v < fn.vregs.size(); ++v) {
    if (fn.vregs[v].pred() || iv[v].start < 0 || unit_of[v] >= 0)
      continue;
    Unit u;
    u.members = {static_cast<uint16_t>(v)};
    u.width = u.align = u.elem_width = fn.vregs[v].width();
    u.start = iv[v].start;
    u.end = iv[v].end;
    unit_of[v] = static_cast<int>(units.size());
    units.push_back(u);
  }
  for (size_t v = 0; v < fn.vregs.size(); ++v)
    ck.stats.virtual_regs += (!fn.vregs[v].pred() && iv[v].start >= 0) ? 1 : 0;

  // First try without spilling; otherwise reserve a scratch pool at the top and spill.
  int pool_start = opt.max_regs;
  if (!Scan(units, opt.max_regs, false)) {
    int need = 0;
    for (const auto& in : fn.code) {
      std::vector<uint16_t> seen;
      int w = 0;
      ForEachReg(in, [&](const uint16_t& r, bool pred, bool) {
        if (pred || std::find(seen.begin(), seen.end(), r) != seen.end())
          return;
        seen.push_back(r);
        w += fn.vregs[r].width();
      });
      need = std::max(need, w);
    }
    pool_start = (opt.max_regs - need) / 4 * 4;
    Scan(units, pool_start, true);
  }

  // Spill slots in local memory, after the kernel's own local arrays; a spilled vector group
  // keeps its members side by side.
  std::vector<int> slot(fn.vregs.size(), -1);
  uint32_t local = (fn.local_bytes + 7) / 8 * 8;
  for (const Unit& u : units) {
    if (!u.spilled)
      continue;
    ++ck.stats.spilled_values;
    const auto bytes = static_cast<uint32_t>(u.width) * 4;
    local = (local + bytes - 1) / bytes * bytes;  // naturally aligned slots
    for (size_t k = 0; k < u.members.size(); ++k)
      slot[u.members[k]] = static_cast<int>(local + k * static_cast<uint32_t>(u.elem_width) * 4);
    local += bytes;
  }
  fn.local_bytes = local;

  int n_pred = 0;
  const std::vector<int> pred_arch = AllocatePreds(fn, iv, n_pred);
  ck.virt = fn;
  ck.vreg_arch.assign(fn.vregs.size(), -1);
  for (size_t v = 0; v < fn.vregs.size(); ++v) {
    if (fn.vregs[v].pred()) {
      ck.vreg_arch[v] = pred_arch[v];
    } else if (unit_of[v] >= 0 && !units[static_cast<size_t>(unit_of[v])].spilled) {
      const Unit& u = units[static_cast<size_t>(unit_of[v])];
      const auto pos = std::find(u.members.begin(), u.members.end(), v) - u.members.begin();
      ck.vreg_arch[v] = u.reg + static_cast<int>(pos) * u.elem_width;
    }
  }

  // Rewrite operands to architected registers; spilled values go through scratch registers.
  std::vector<std::vector<PtxInst>> before(fn.code.size()), after(fn.code.size());
  for (size_t i = 0; i < fn.code.size(); ++i) {
    PtxInst& in = fn.code[i];
    // Scratch registers for the spilled values of this instruction, widest first.
    std::vector<uint16_t> spilled;
    bool reads_spilled = false;
    ForEachReg(in, [&](const uint16_t& r, bool pred, bool) {
      if (!pred && slot[r] >= 0 && std::find(spilled.begin(), spilled.end(), r) == spilled.end())
        spilled.push_back(r);
    });
    std::stable_sort(spilled.begin(), spilled.end(), [&](uint16_t a, uint16_t b) {
      return fn.vregs[a].width() > fn.vregs[b].width();
    });
    std::map<uint16_t, int> temp;
    int next = pool_start;
    // A vector operand of a spilled group first: its members in order from the bottom of the
    // pool (a multiple of 4, so the run is aligned); an instruction has at most one vector.
    const auto place_vector = [&](const Operand& o) {
      if (o.kind != Operand::kVec || slot[o.vec[0]] < 0)
        return;
      for (int k = 0; k < o.n; ++k) {
        temp[o.vec[static_cast<size_t>(k)]] = next;
        next += o.width;
      }
    };
    if (in.n_dst > 0)
      place_vector(in.dst);
    for (int s = 0; s < in.n_src; ++s)
      place_vector(in.src[static_cast<size_t>(s)]);
    for (uint16_t r : spilled) {
      if (temp.count(r))
        continue;
      const int w = fn.vregs[r].width();
      next = (next + w - 1) / w * w;
      temp[r] = next;
      next += w;
    }
    std::vector<bool> is_read(spilled.size()), is_written(spilled.size());
    ForEachReg(in, [&](const uint16_t& r, bool pred, bool def) {
      if (pred || slot[r] < 0)
        return;
      const size_t k =
          static_cast<size_t>(std::find(spilled.begin(), spilled.end(), r) - spilled.begin());
      if (def) {
        is_written[k] = true;
        if (in.has_guard)
          is_read[k] = true;  // lanes whose guard is false keep the old value
      } else {
        is_read[k] = true;
      }
    });
    (void)reads_spilled;
    for (size_t k = 0; k < spilled.size(); ++k) {
      const uint16_t r = spilled[k];
      const int w = fn.vregs[r].width();
      PtxInst m;
      m.spill = true;
      m.space = Space::kLocal;
      m.type = w == 2 ? Type::kB64 : Type::kB32;
      m.loc = in.loc;
      Operand addr;
      addr.kind = Operand::kAddr;
      addr.imm = slot[r];
      Operand reg;
      reg.kind = Operand::kReg;
      reg.reg = static_cast<uint16_t>(temp[r]);
      reg.width = static_cast<uint8_t>(w);
      if (is_read[k]) {
        PtxInst ld = m;
        ld.op = Op::kLd;
        ld.opcode = w == 2 ? "ld.local.b64" : "ld.local.b32";
        ld.src[0] = addr;
        ld.n_src = 1;
        ld.dst = reg;
        ld.n_dst = 1;
        before[i].push_back(ld);
      }
      if (is_written[k]) {
        PtxInst st = m;
        st.op = Op::kSt;
        st.opcode = w == 2 ? "st.local.b64" : "st.local.b32";
        st.src[0] = addr;
        st.src[1] = reg;
        st.n_src = 2;
        after[i].push_back(st);
      }
    }
    ck.stats.spill_instructions +=
        static_cast<int>(std::count(is_read.begin(), is_read.end(), true) +
                         std::count(is_written.begin(), is_written.end(), true));
    ForEachReg(in, [&](uint16_t& r, bool pred, bool) {
      if (pred) {
        r = static_cast<uint16_t>(pred_arch[r]);
        return;
      }
      if (slot[r] >= 0) {
        r = static_cast<uint16_t>(temp[r]);
        return;
      }
      const Unit& u = units[static_cast<size_t>(unit_of[r])];
      const auto pos =
          static_cast<int>(std::find(u.members.begin(), u.members.end(), r) - u.members.begin());
      r = static_cast<uint16_t>(u.reg + pos * u.elem_width);
    });
  }
  Splice(fn.code, before, after);

  Kernel& k = ck.kernel;
  k.name = fn.name;
  k.source = module.file;
  k.shared_bytes = fn.shared_bytes;
  k.local_bytes = fn.local_bytes;
  k.pred_regs = n_pred;
  int max_reg = -1;
  for (uint32_t i = 0; i < fn.code.size(); ++i) {
    k.code.push_back(ToInstruction(fn.code[i], i));
    for (const auto& r : k.code.back().srcs)
      max_reg = std::max(max_reg, r.first + r.count - 1);
    for (const auto& r : k.code.back().dsts)
      max_reg = std::max(max_reg, r.first + r.count - 1);
  }
  k.regs_per_thread = max_reg + 1;
  k.BuildCfg();
  return ck;
}

}  // namespace gpurf::sim::ptx
