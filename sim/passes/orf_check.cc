// CheckOrfAllocation (orf_alloc.h): an allocation checker written against the semantics of the
// register-file levels, not against the allocator's data structures. It simulates each strand
// over its forward control flow, merging the states of paths that join: every ORF entry holds a
// set of possible (register, version) tokens, every register a set of possible current versions
// (its reaching writes) and a set of versions its MRF copy may hold.

#include <fmt/format.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "sim/passes/orf_alloc.h"

namespace gpurf::sim::passes {
namespace {

constexpr int32_t kEntryVersion = -1;  // the value a register holds when the strand starts
constexpr uint16_t kEmpty = 0xffff;    // an ORF entry nobody wrote in this strand

using Versions = std::set<int32_t>;
using Token = std::pair<uint16_t, int32_t>;  // register, version
using Content = std::set<Token>;

struct State {
  std::map<std::pair<int, int>, Content> entries;  // (level, entry) -> possible contents
  std::map<uint16_t, Versions> cur, mrf;           // absent = {kEntryVersion}

  static const Versions& Get(const std::map<uint16_t, Versions>& m, uint16_t r) {
    static const Versions kEntry = {kEntryVersion};
    const auto it = m.find(r);
    return it == m.end() ? kEntry : it->second;
  }
  const Content& Entry(int level, int e) const {
    static const Content kNone = {{kEmpty, 0}};
    const auto it = entries.find({level, e});
    return it == entries.end() ? kNone : it->second;
  }

  void Merge(const State& o) {
    auto merge_versions = [](std::map<uint16_t, Versions>& a,
                             const std::map<uint16_t, Versions>& b) {
      std::set<uint16_t> keys;
      for (const auto& [r, v] : a)
        keys.insert(r);
      for (const auto& [r, v] : b)
        keys.insert(r);
      for (uint16_t r : keys) {
        Versions u = Get(a, r);
        const Versions& w = Get(b, r);
        u.insert(w.begin(), w.end());
        a[r] = u;
      }
    };
    merge_versions(cur, o.cur);
    merge_versions(mrf, o.mrf);
    std::set<std::pair<int, int>> keys;
    for (const auto& [k, v] : entries)
      keys.insert(k);
    for (const auto& [k, v] : o.entries)
      keys.insert(k);
    for (const auto& k : keys) {
      Content u = Entry(k.first, k.second);
      const Content& w = o.Entry(k.first, k.second);
      u.insert(w.begin(), w.end());
      entries[k] = u;
    }
  }
};

Content Expected(uint16_t r, const Versions& v) {
  Content c;
  for (int32_t x : v)
    c.insert({r, x});
  return c;
}

}  // namespace

std::vector<std::string> CheckOrfAllocation(const Kernel& k, const Liveness& live,
                                            const Strands& st, const OrfAllocation& alloc) {
  std::vector<std::string> bad;
  const OrfConfig& cfg = alloc.config;
  auto fail = [&](uint32_t i, const std::string& what) {
    bad.push_back(
        fmt::format("instruction {} (pc 0x{:x} {}): {}", i, k.code[i].pc, k.code[i].opcode, what));
  };
  if (alloc.insts.size() != k.code.size()) {
    bad.push_back("annotation size differs from the code size");
    return bad;
  }

  // Static rules: capacities, banks, shared units.
  auto check_entry = [&](uint32_t i, RfLevel level, uint8_t e, int slot, const char* what) {
    if (level == RfLevel::kMrf)
      return;
    const int cap = LevelCapacity(cfg, level);
    if (cap == 0) {
      fail(i, fmt::format("{} uses {} but the hierarchy has {} level(s)", what, RfLevelName(level),
                          cfg.levels));
      return;
    }
    if (level == RfLevel::kL1 && e >= cap)
      fail(i, fmt::format("{} uses L1 entry {} of {}", what, e, cap));
    if (level == RfLevel::kL0) {
      if (IsSharedUnit(k.code[i].op_class))
        fail(i, fmt::format("{} uses the L0 from a shared unit ({})", what,
                            OpClassName(k.code[i].op_class)));
      if (cfg.l0_split && slot >= 0 && e != slot)
        fail(i, fmt::format("{} in slot {} uses L0 bank {}", what, slot, e));
      if (cfg.l0_split ? e >= kL0Banks : e != 0)
        fail(i, fmt::format("{} uses L0 bank {}", what, e));
    }
  };
  for (uint32_t i = 0; i < k.code.size(); ++i) {
    const InstAlloc& a = alloc.insts[i];
    if (a.srcs.size() != k.code[i].srcs.size() || a.dsts.size() != k.code[i].dsts.size()) {
      fail(i, "operand annotations do not match the instruction");
      return bad;
    }
    for (size_t s = 0; s < a.srcs.size(); ++s) {
      for (int j = 0; j < k.code[i].srcs[s].count; ++j) {
        check_entry(i, a.srcs[s].level, a.srcs[s].entries[j], static_cast<int>(s), "operand read");
        check_entry(i, a.srcs[s].fill, a.srcs[s].entries[j], static_cast<int>(s), "operand fill");
      }
      if (a.srcs[s].level != RfLevel::kMrf && a.srcs[s].fill != RfLevel::kMrf)
        fail(i, "an operand read from the ORF cannot also fill it");
      if (s >= static_cast<size_t>(kOrfOperandSlots) &&
          (a.srcs[s].level != RfLevel::kMrf || a.srcs[s].fill != RfLevel::kMrf))
        fail(i, fmt::format("source operand {} uses the ORF, which has read ports for operand "
                            "slots A, B and C only",
                            s));
    }
    for (size_t d = 0; d < a.dsts.size(); ++d) {
      for (int j = 0; j < k.code[i].dsts[d].count; ++j)
        check_entry(i, a.dsts[d].orf, a.dsts[d].entries[j], -1, "result write");
    }
  }

  // Dynamic rules, strand by strand.
  for (uint32_t s = 0; s < st.strands.size(); ++s) {
    const uint32_t first = st.strands[s].first, end = st.strands[s].end;
    std::map<uint32_t, State> incoming;
    State cur;
    for (uint32_t i = first; i < end; ++i) {
      if (i != first) {
        auto it = incoming.find(i);
        if (it == incoming.end())
          continue;  // not reachable inside the strand (dead code)
        cur = std::move(it->second);
        incoming.erase(it);
      }
      const Instruction& in = k.code[i];
      const InstAlloc& a = alloc.insts[i];
      for (size_t sl = 0; sl < in.srcs.size(); ++sl) {
        const RegOperand& g = in.srcs[sl];
        const OperandAlloc& oa = a.srcs[sl];
        for (int j = 0; j < g.count; ++j) {
          const auto r = static_cast<uint16_t>(g.first + j);
          const Versions& v = State::Get(cur.cur, r);
          if (oa.level == RfLevel::kMrf) {
            if (State::Get(cur.mrf, r) != v)
              fail(i, fmt::format("slot {} reads R{} from the MRF, which may hold a stale value",
                                  sl, r));
          } else if (cur.Entry(static_cast<int>(oa.level), oa.entries[j]) != Expected(r, v)) {
            const Content& c = cur.Entry(static_cast<int>(oa.level), oa.entries[j]);
            fail(i, fmt::format(
                        "slot {} reads R{} from {} entry {}, which may hold {}", sl, r,
                        RfLevelName(oa.level), oa.entries[j],
                        c.count({kEmpty, 0}) ? "nothing written in this strand" : "another value"));
          }
        }
      }
      // An instruction reads all its operands before it writes anything: fills, then results.
      for (size_t sl = 0; sl < in.srcs.size(); ++sl) {
        const RegOperand& g = in.srcs[sl];
        const OperandAlloc& oa = a.srcs[sl];
        if (oa.fill == RfLevel::kMrf)
          continue;
        for (int j = 0; j < g.count; ++j) {
          const auto r = static_cast<uint16_t>(g.first + j);
          cur.entries[{static_cast<int>(oa.fill), oa.entries[j]}] =
              Expected(r, State::Get(cur.cur, r));
        }
      }
      for (size_t d = 0; d < in.dsts.size(); ++d) {
        const RegOperand& g = in.dsts[d];
        const ResultAlloc& ra = a.dsts[d];
        const auto version = static_cast<int32_t>(i * 8 + d);
        const bool guarded = in.guard != kNoPred;
        for (int j = 0; j < g.count; ++j) {
          const auto r = static_cast<uint16_t>(g.first + j);
          Versions nv = guarded ? State::Get(cur.cur, r) : Versions{};
          nv.insert(version);
          cur.cur[r] = nv;
          if (ra.mrf) {
            Versions mv = guarded ? State::Get(cur.mrf, r) : Versions{};
            mv.insert(version);
            cur.mrf[r] = mv;
          }
          if (ra.orf != RfLevel::kMrf) {
            const std::pair<int, int> key{static_cast<int>(ra.orf), ra.entries[j]};
            Content c = guarded ? cur.Entry(key.first, key.second) : Content{};
            c.insert({r, version});
            cur.entries[key] = c;
          }
        }
      }
      // Successors.
      const BasicBlock& bb = k.blocks[k.block_of[i]];
      std::vector<uint32_t> succ;
      if (i + 1 < bb.end) {
        succ.push_back(i + 1);
      } else {
        for (uint32_t sb : bb.succs) {
          if (sb != kExitBlock)
            succ.push_back(k.blocks[sb].first);
        }
      }
      for (uint32_t y : succ) {
        if (y > i && y < end && st.strand_of[y] == s) {
          auto [it, fresh] = incoming.try_emplace(y, cur);
          if (!fresh)
            it->second.Merge(cur);
          continue;
        }
        for (size_t r = 0; r < live.live_in[y].size(); ++r) {
          if (!live.live_in[y].test(r))
            continue;
          const auto reg = static_cast<uint16_t>(r);
          if (State::Get(cur.mrf, reg) != State::Get(cur.cur, reg))
            fail(i, fmt::format("R{} is live into instruction {} (another strand) but its current "
                                "value is not in the MRF",
                                r, y));
        }
      }
    }
  }
  return bad;
}

}  // namespace gpurf::sim::passes
