#include "sim/passes/strands.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace gpurf::sim::passes {

const char* StrandStartName(StrandStart s) {
  switch (s) {
    case StrandStart::kKernelEntry:
      return "kernel entry";
    case StrandStart::kLongLatencyUse:
      return "long-latency dependence";
    case StrandStart::kBackwardTarget:
      return "backward-branch target";
    case StrandStart::kMultipleEntry:
      return "predecessor outside the strand";
    case StrandStart::kAfterBackward:
      return "after a backward branch";
    case StrandStart::kAfterCall:
      return "after a call or return";
    case StrandStart::kAfterBarrier:
      return "after a barrier";
    case StrandStart::kDivergentSplit:
      return "after a branch whose paths split strands";
  }
  return "?";
}

bool IsCall(const Instruction& in) {
  if (in.op_class != OpClass::kBranch)
    return false;
  std::string op;
  for (char c : in.opcode)
    op.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return op.starts_with("call") || op.starts_with("jcal") || op.starts_with("cal.");
}

bool IsReturn(const Instruction& in) {
  return in.op_class == OpClass::kBranch && in.target < 0;
}

bool IsBackwardBranch(const Instruction& in, uint32_t index) {
  if (in.op_class != OpClass::kBranch || IsCall(in))
    return false;
  if (in.target >= 0 && static_cast<uint32_t>(in.target) <= index)
    return true;
  return std::any_of(in.extra_targets.begin(), in.extra_targets.end(),
                     [&](int32_t t) { return static_cast<uint32_t>(t) <= index; });
}

namespace {

// One pass in code order with the long-latency results possibly in flight at each block's end
// taken from `pending_end` (the previous pass's, for back edges); updates `pending_end` by union,
// so repeated passes reach the may-pending fixed point.
Strands ScanOnce(const Kernel& k, const std::vector<bool>& forced, const StrandOptions& opt,
                 std::vector<RegSet>& pending_end) {
  const auto n = static_cast<uint32_t>(k.code.size());
  Strands st;
  st.strand_of.assign(n, 0);
  st.ends_strand.assign(n, 0);
  st.waits.assign(n, 0);
  if (n == 0)
    return st;
  RegSet pending;
  uint32_t cur = 0;
  // Bailey: only a predicated return that exits the kernel keeps the strand going. Without a
  // call every return exits the kernel; with one, a return may end a called function.
  const bool has_calls = std::any_of(k.code.begin(), k.code.end(), IsCall);
  for (uint32_t i = 0; i < n; ++i) {
    const Instruction& in = k.code[i];
    const uint32_t b = k.block_of[i];
    const BasicBlock& bb = k.blocks[b];
    if (i == bb.first) {
      pending.reset();
      for (uint32_t p : bb.preds)
        pending |= pending_end[p];
    }
    bool start = false;
    StrandStart why = StrandStart::kKernelEntry;
    if (i == 0) {
      start = true;
    } else {
      const Instruction& prev = k.code[i - 1];
      if (forced[i - 1]) {
        start = true;
        why = StrandStart::kDivergentSplit;
      } else if (IsBackwardBranch(prev, i - 1)) {
        start = true;
        why = StrandStart::kAfterBackward;
      } else if (IsCall(prev) || (IsReturn(prev) && (prev.guard == kNoPred || has_calls))) {
        start = true;
        why = StrandStart::kAfterCall;
      } else if (opt.barrier_ends_strand && prev.op_class == OpClass::kBarrier) {
        start = true;
        why = StrandStart::kAfterBarrier;
      }
      if (!start && i == bb.first) {
        for (uint32_t p : bb.preds) {
          if (k.blocks[p].end - 1 >= i) {
            start = true;
            why = StrandStart::kBackwardTarget;
            break;
          }
        }
        if (!start) {
          for (uint32_t p : bb.preds) {
            if (st.strand_of[k.blocks[p].end - 1] != cur) {
              start = true;
              why = StrandStart::kMultipleEntry;
              break;
            }
          }
        }
      }
    }
    // The warp waits here for its long-latency results when this instruction reads or
    // overwrites a register one of them may still be writing; the wait drains all of them.
    if (((ReadSet(in) | WriteSet(in)) & pending).any()) {
      st.waits[i] = 1;
      pending.reset();
      if (!start) {
        start = true;
        why = StrandStart::kLongLatencyUse;
      }
    }
    if (start) {
      if (i > 0) {
        ++cur;
        st.strands.back().end = i;
      }
      st.strands.push_back(Strand{i, n, why});
    }
    st.strand_of[i] = cur;
    pending &= ~KillSet(in);
    if (in.long_latency)
      pending |= WriteSet(in);
    if (i + 1 == bb.end)
      pending_end[b] |= pending;
  }
  for (uint32_t i = 0; i < n; ++i)
    st.ends_strand[i] = (i + 1 == n || st.strand_of[i + 1] != st.strand_of[i]) ? 1 : 0;
  return st;
}

Strands Scan(const Kernel& k, const std::vector<bool>& forced, const StrandOptions& opt) {
  std::vector<RegSet> pending_end(k.blocks.size());
  for (;;) {
    const std::vector<RegSet> before = pending_end;
    Strands st = ScanOnce(k, forced, opt, pending_end);
    if (pending_end == before)
      return st;
  }
}

}  // namespace

Strands FormStrands(const Kernel& k, const Liveness& live, const StrandOptions& opt) {
  std::vector<bool> forced(k.code.size(), false);
  for (;;) {
    Strands st = Scan(k, forced, opt);
    bool changed = false;
    for (const DivergentRegion& r : live.regions) {
      const uint32_t branch = k.blocks[r.branch_block].end - 1;
      if (forced[branch] || st.ends_strand[branch])
        continue;
      // Does some path hold a strand start, while another path continues the branch's strand?
      const uint32_t strand = st.strand_of[branch];
      std::vector<bool> path_has_start(r.paths.size(), false);
      std::vector<bool> path_continues(r.paths.size(), false);
      for (size_t j = 0; j < r.paths.size(); ++j) {
        const uint32_t entry = k.blocks[r.paths[j]].first;
        path_continues[j] = st.strand_of[entry] == strand && entry > branch;
        for (uint32_t x = 0; x < k.blocks.size(); ++x) {
          if (!(r.reach[x] & (1u << std::min<size_t>(j, 31))) || x == r.branch_block)
            continue;
          for (uint32_t i = k.blocks[x].first; i < k.blocks[x].end && !path_has_start[j]; ++i) {
            if (st.strand_of[i] != strand || i < branch)
              path_has_start[j] = true;
          }
        }
      }
      bool split = false;
      for (size_t j = 0; j < r.paths.size() && !split; ++j) {
        for (size_t m = 0; m < r.paths.size(); ++m) {
          if (m != j && path_has_start[j] && path_continues[m]) {
            split = true;
            break;
          }
        }
      }
      if (split) {
        forced[branch] = true;
        changed = true;
      }
    }
    if (!changed)
      return st;
  }
}

}  // namespace gpurf::sim::passes
