#include "sim/passes/liveness.h"

#include <algorithm>

namespace gpurf::sim::passes {
namespace {

void AddGroup(RegSet& s, const RegOperand& o) {
  for (int j = 0; j < o.count; ++j)
    s.set(static_cast<size_t>(o.first + j));
}

// Blocks reachable from `start` without entering `stop` (kExitBlock = never stop).
std::vector<bool> Reachable(const Kernel& k, uint32_t start, uint32_t stop) {
  std::vector<bool> seen(k.blocks.size(), false);
  if (start == stop || start == kExitBlock)
    return seen;
  std::vector<uint32_t> work = {start};
  seen[start] = true;
  while (!work.empty()) {
    const uint32_t b = work.back();
    work.pop_back();
    for (uint32_t s : k.blocks[b].succs) {
      if (s == kExitBlock || s == stop || seen[s])
        continue;
      seen[s] = true;
      work.push_back(s);
    }
  }
  return seen;
}

}  // namespace

RegSet ReadSet(const Instruction& in) {
  RegSet s;
  for (const auto& o : in.srcs)
    AddGroup(s, o);
  return s;
}

RegSet WriteSet(const Instruction& in) {
  RegSet s;
  for (const auto& o : in.dsts)
    AddGroup(s, o);
  return s;
}

RegSet KillSet(const Instruction& in) {
  return in.guard == kNoPred ? WriteSet(in) : RegSet{};
}

Liveness ComputeLiveness(const Kernel& k) {
  Liveness L;
  const size_t n = k.code.size();
  const size_t nb = k.blocks.size();
  L.live_in.assign(n, {});
  L.live_out.assign(n, {});
  L.block_live_in.assign(nb, {});
  L.block_live_out.assign(nb, {});

  // Block summaries: upward-exposed uses and kills.
  std::vector<RegSet> use(nb), kill(nb);
  for (size_t b = 0; b < nb; ++b) {
    for (uint32_t i = k.blocks[b].first; i < k.blocks[b].end; ++i) {
      use[b] |= ReadSet(k.code[i]) & ~kill[b];
      kill[b] |= KillSet(k.code[i]);
    }
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t bi = nb; bi-- > 0;) {
      RegSet out;
      for (uint32_t s : k.blocks[bi].succs) {
        if (s != kExitBlock)
          out |= L.block_live_in[s];
      }
      const RegSet in = use[bi] | (out & ~kill[bi]);
      if (out != L.block_live_out[bi] || in != L.block_live_in[bi]) {
        L.block_live_out[bi] = out;
        L.block_live_in[bi] = in;
        changed = true;
      }
    }
  }
  for (size_t b = 0; b < nb; ++b) {
    RegSet live = L.block_live_out[b];
    for (uint32_t i = k.blocks[b].end; i-- > k.blocks[b].first;) {
      L.live_out[i] = live;
      live = ReadSet(k.code[i]) | (live & ~KillSet(k.code[i]));
      L.live_in[i] = live;
    }
  }

  // Divergent regions and the extra registers a warp keeps in them.
  std::vector<RegSet> keep(nb);  // per block: registers parked threads still need
  for (uint32_t b = 0; b < nb; ++b) {
    const BasicBlock& bb = k.blocks[b];
    if (bb.succs.size() < 2)
      continue;
    DivergentRegion r;
    r.branch_block = b;
    r.reconvergence_block = bb.ipdom;
    for (uint32_t s : bb.succs) {
      if (s != kExitBlock && s != bb.ipdom)
        r.paths.push_back(s);
    }
    r.reach.assign(nb, 0);
    for (size_t j = 0; j < r.paths.size(); ++j) {
      const auto seen = Reachable(k, r.paths[j], bb.ipdom);
      // Paths beyond the 31st share bit 31, which never counts as "exactly one path".
      const uint32_t bit = 1u << std::min<size_t>(j, 31);
      for (size_t x = 0; x < nb; ++x) {
        if (seen[x])
          r.reach[x] |= bit;
      }
    }
    const RegSet at_join = bb.ipdom == kExitBlock ? RegSet{} : L.block_live_in[bb.ipdom];
    for (size_t x = 0; x < nb; ++x) {
      const uint32_t m = r.reach[x];
      if (m == 0)
        continue;
      RegSet extra = at_join;
      for (size_t j = 0; j < r.paths.size(); ++j) {
        // A block reachable from exactly one path runs only for that path's threads; the
        // others are parked at their path's entry.
        if (j >= 31 || m != (1u << j))
          extra |= L.block_live_in[r.paths[j]];
      }
      keep[x] |= extra;
    }
    L.regions.push_back(std::move(r));
  }
  L.warp_live_in.resize(n);
  L.warp_live_out.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const RegSet& extra = keep[k.block_of[i]];
    L.warp_live_in[i] = L.live_in[i] | extra;
    L.warp_live_out[i] = L.live_out[i] | extra;
  }

  // Last-use bits.
  L.dead_after.resize(n);
  L.warp_dead_after.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const Instruction& in = k.code[i];
    const RegSet killed = KillSet(in);
    L.dead_after[i].assign(in.srcs.size(), 0);
    L.warp_dead_after[i].assign(in.srcs.size(), 0);
    RegSet later;  // registers read by a later operand slot of the same instruction
    for (size_t s = in.srcs.size(); s-- > 0;) {
      const RegOperand& o = in.srcs[s];
      bool dead = true, warp_dead = true, last_slot = true;
      for (int j = 0; j < o.count; ++j) {
        const size_t r = static_cast<size_t>(o.first + j);
        if (later.test(r))
          last_slot = false;
        if (L.live_out[i].test(r) && !killed.test(r))
          dead = false;
        if (L.warp_live_out[i].test(r) && !killed.test(r))
          warp_dead = false;
      }
      // A killed register is dead at warp level only if no parked thread needs it either.
      for (int j = 0; j < o.count; ++j) {
        const size_t r = static_cast<size_t>(o.first + j);
        if (killed.test(r) && keep[k.block_of[i]].test(r))
          warp_dead = false;
      }
      L.dead_after[i][s] = dead && last_slot;
      L.warp_dead_after[i][s] = warp_dead && last_slot;
      AddGroup(later, o);
    }
  }
  return L;
}

LiveVectors FineRegLiveVectors(const Kernel& k, const Liveness& live) {
  LiveVectors v;
  v.bits.assign(k.code.size(), 0);
  RegSet high;
  for (size_t i = 0; i < k.code.size(); ++i) {
    const RegSet& s = live.warp_live_in[i];
    for (size_t r = 0; r < 64; ++r) {
      if (s.test(r))
        v.bits[i] |= uint64_t{1} << r;
    }
    for (size_t r = 64; r < s.size(); ++r) {
      if (s.test(r))
        high.set(r);
    }
  }
  for (size_t r = 64; r < high.size(); ++r) {
    if (high.test(r))
      v.unrepresentable.push_back(static_cast<uint16_t>(r));
  }
  return v;
}

}  // namespace gpurf::sim::passes
