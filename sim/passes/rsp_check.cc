// CheckRspAllocation (rsp_alloc.h): an allocation checker written against the semantics of the
// hybrid register hierarchy, not against the allocator's candidates. It simulates each strand
// over its forward control flow with must-facts, merging the states of paths that join:
// - per RSP entry, the register whose current value (in every active lane) it holds, if any;
// - per register, whether its backing copy (RC, else MRF) may be stale (the current value lives
//   only in the RSP).
// Live-outs are checked against thread-level liveness: transfers and writes touch the active
// lanes only, so a parked thread's lanes are never stale (the allocator decides write-backs
// with warp-level liveness, a superset).
// Entries start empty and every backing copy current at each strand's first instruction.

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "sim/passes/rsp_alloc.h"

namespace gpurf::sim::passes {
namespace {

constexpr int kNone = -1;

struct State {
  std::vector<int> holds;  // per entry: the register it holds current, or kNone
  RegSet stale;            // backing copy may be stale

  void Merge(const State& o) {
    for (size_t e = 0; e < holds.size(); ++e) {
      if (holds[e] != o.holds[e])
        holds[e] = kNone;
    }
    stale |= o.stale;
  }
};

class Checker {
 public:
  Checker(const Kernel& k, const Liveness& live, const Strands& st, const RspAllocation& a)
      : k_(k), live_(live), st_(st), a_(a) {}

  std::vector<std::string> Run() {
    for (const RspRange& r : a_.ranges) {
      if (r.first >= k_.code.size() || r.last >= k_.code.size() ||
          st_.strand_of[r.first] != st_.strand_of[r.last]) {
        Bad(fmt::format("range of {} [{}, {}] crosses a strand boundary", Name(r.group), r.first,
                        r.last));
      }
    }
    for (uint32_t s = 0; s < st_.strands.size(); ++s)
      Strand(st_.strands[s].first, st_.strands[s].end);
    return bad_;
  }

 private:
  static std::string Name(const RegOperand& g) {
    return g.count == 1 ? fmt::format("R{}", g.first)
                        : fmt::format("R{}:R{}", g.first, g.first + g.count - 1);
  }

  void Bad(std::string msg) {
    if (bad_.size() < 50)
      bad_.push_back(std::move(msg));
  }

  bool SlotOk(uint32_t i, uint8_t slot, const char* what) {
    if (static_cast<int>(slot) < a_.entries)
      return true;
    Bad(fmt::format("{}: {} uses RSP entry {}, beyond the {} entries per warp", i, what, slot,
                    a_.entries));
    return false;
  }

  void Strand(uint32_t first, uint32_t end) {
    std::map<uint32_t, State> incoming;
    for (uint32_t i = first; i < end; ++i) {
      State cur;
      auto it = incoming.find(i);
      if (i == first || it == incoming.end()) {
        cur.holds.assign(static_cast<size_t>(std::max(a_.entries, 0)), kNone);
      } else {
        cur = std::move(it->second);
        incoming.erase(it);
      }
      Step(i, cur);
      const BasicBlock& bb = k_.blocks[k_.block_of[i]];
      std::vector<uint32_t> succ;
      if (i + 1 < bb.end) {
        succ.push_back(i + 1);
      } else {
        for (uint32_t sb : bb.succs) {
          if (sb != kExitBlock)
            succ.push_back(k_.blocks[sb].first);
        }
      }
      for (uint32_t y : succ) {
        if (y > i && y < end && st_.strand_of[y] == st_.strand_of[i]) {
          auto [in, fresh] = incoming.insert({y, cur});
          if (!fresh)
            in->second.Merge(cur);
          continue;
        }
        const RegSet lost = live_.live_in[y] & cur.stale;
        for (size_t r = 0; r < lost.size(); ++r) {
          if (lost.test(r))
            Bad(
                fmt::format("{}: R{} is live out of the strand (to {}) but its current value is "
                            "only in the RSP: live-out not written back",
                            i, r, y));
        }
      }
    }
  }

  void Step(uint32_t i, State& cur) {
    const Instruction& in = k_.code[i];
    const RspInst& ai = a_.insts[i];
    // Reads, all on the state before the instruction.
    std::vector<std::pair<uint8_t, uint16_t>> fills;
    for (size_t sl = 0; sl < in.srcs.size(); ++sl) {
      const RegOperand& g = in.srcs[sl];
      const RspOperand& o = ai.srcs[sl];
      if (o.rsp && o.fill)
        Bad(fmt::format("{}: source operand {} both reads and fills the RSP", i, sl));
      if ((o.rsp || o.fill) && sl >= static_cast<size_t>(kRspOperandSlots))
        Bad(
            fmt::format("{}: source operand {} uses the RSP, which has read ports for operand "
                        "slots A, B and C only",
                        i, sl));
      for (int j = 0; j < g.count; ++j) {
        const auto r = static_cast<uint16_t>(g.first + j);
        const uint8_t slot = o.slots[static_cast<size_t>(j)];
        if (o.rsp) {
          if (!SlotOk(i, slot, "an RSP read"))
            continue;
          if (cur.holds[slot] != r)
            Bad(
                fmt::format("{}: RSP miss: R{} read from RSP entry {}, which does not hold its "
                            "current value (never written or filled in this strand, or stale)",
                            i, r, slot));
        } else {
          if (cur.stale.test(r))
            Bad(
                fmt::format("{}: R{} read from the RC/MRF, whose copy is stale (its current value "
                            "is only in the RSP)",
                            i, r));
          if (o.fill && SlotOk(i, slot, "a fill"))
            fills.push_back({slot, r});
        }
      }
    }
    // Fills (the background transfer), then the results.
    for (const auto& [slot, r] : fills)
      cur.holds[slot] = r;
    for (size_t d = 0; d < in.dsts.size(); ++d) {
      const RegOperand& g = in.dsts[d];
      const RspResult& w = ai.dsts[d];
      for (int j = 0; j < g.count; ++j) {
        const auto r = static_cast<uint16_t>(g.first + j);
        const uint8_t slot = w.slots[static_cast<size_t>(j)];
        if (w.rsp && !SlotOk(i, slot, "an RSP write"))
          continue;
        const int before = w.rsp ? cur.holds[slot] : kNone;
        for (int& h : cur.holds) {
          if (h == r)
            h = kNone;
        }
        if (w.rsp) {
          // A guarded write updates some lanes: the entry is current only if it was before.
          cur.holds[slot] = in.guard == kNoPred || before == r ? r : kNone;
          cur.stale.set(r);
        } else if (in.guard == kNoPred) {
          cur.stale.reset(r);
        }
      }
    }
    // Live-out write-backs after the instruction.
    for (const RspWriteBack& wb : ai.writebacks) {
      for (int j = 0; j < wb.group.count; ++j) {
        const auto r = static_cast<uint16_t>(wb.group.first + j);
        const uint8_t slot = wb.slots[static_cast<size_t>(j)];
        if (!SlotOk(i, slot, "a write-back"))
          continue;
        if (cur.holds[slot] != r) {
          Bad(
              fmt::format("{}: write-back of R{} from RSP entry {}, which does not hold its "
                          "current value",
                          i, r, slot));
          continue;
        }
        cur.stale.reset(r);
      }
    }
  }

  const Kernel& k_;
  const Liveness& live_;
  const Strands& st_;
  const RspAllocation& a_;
  std::vector<std::string> bad_;
};

}  // namespace

std::vector<std::string> CheckRspAllocation(const Kernel& k, const Liveness& live,
                                            const Strands& st, const RspAllocation& a) {
  if (a.insts.size() != k.code.size())
    return {fmt::format("the allocation covers {} instructions, the kernel has {}", a.insts.size(),
                        k.code.size())};
  return Checker(k, live, st, a).Run();
}

}  // namespace gpurf::sim::passes
