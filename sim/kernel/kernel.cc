#include "sim/kernel/kernel.h"

#include <fmt/format.h>

#include <algorithm>

namespace gpurf::sim {

const char* OpClassName(OpClass c) {
  switch (c) {
    case OpClass::kAlu:
      return "alu";
    case OpClass::kSfu:
      return "sfu";
    case OpClass::kConstMem:
      return "const";
    case OpClass::kGlobalMem:
      return "global";
    case OpClass::kLocalMem:
      return "local";
    case OpClass::kSharedMem:
      return "shared";
    case OpClass::kTexture:
      return "texture";
    case OpClass::kBranch:
      return "branch";
    case OpClass::kBarrier:
      return "barrier";
    case OpClass::kExit:
      return "exit";
  }
  return "?";
}

bool IsSharedUnit(OpClass c) {
  switch (c) {
    case OpClass::kSfu:
    case OpClass::kConstMem:
    case OpClass::kGlobalMem:
    case OpClass::kLocalMem:
    case OpClass::kSharedMem:
    case OpClass::kTexture:
      return true;
    default:
      return false;
  }
}

namespace {
int CountRegs(const std::vector<RegOperand>& ops) {
  int n = 0;
  for (const auto& o : ops)
    n += o.count;
  return n;
}
}  // namespace

int Instruction::NumSrcRegs() const {
  return CountRegs(srcs);
}
int Instruction::NumDstRegs() const {
  return CountRegs(dsts);
}

void Kernel::BuildCfg() {
  blocks.clear();
  block_of.assign(code.size(), 0);
  if (code.empty())
    return;
  const auto n_inst = static_cast<uint32_t>(code.size());

  // Leaders.
  std::vector<bool> leader(n_inst, false);
  leader[0] = true;
  for (uint32_t i = 0; i < n_inst; ++i) {
    const Instruction& in = code[i];
    if (in.op_class == OpClass::kBranch && in.target >= 0) {
      if (static_cast<uint32_t>(in.target) >= n_inst) {
        throw InputError(in.loc, "branch target", std::to_string(in.target),
                         fmt::format("{} jumps past the end of kernel {}", in.opcode, name),
                         fmt::format("an instruction index in 0..{}", n_inst - 1));
      }
      leader[static_cast<uint32_t>(in.target)] = true;
    }
    for (int32_t t : in.extra_targets) {
      if (t < 0 || static_cast<uint32_t>(t) >= n_inst) {
        throw InputError(in.loc, "branch target", std::to_string(t),
                         fmt::format("{} jumps outside kernel {}", in.opcode, name),
                         fmt::format("an instruction index in 0..{}", n_inst - 1));
      }
      leader[static_cast<uint32_t>(t)] = true;
    }
    if ((in.op_class == OpClass::kBranch || in.op_class == OpClass::kExit) && i + 1 < n_inst)
      leader[i + 1] = true;
  }
  for (uint32_t i = 0; i < n_inst; ++i) {
    if (leader[i]) {
      if (!blocks.empty())
        blocks.back().end = i;
      blocks.push_back(BasicBlock{i, n_inst, {}, {}, kExitBlock});
    }
    block_of[i] = static_cast<uint32_t>(blocks.size() - 1);
  }

  // Successors. A guarded branch or exit falls through as well; the last block falls off the
  // end of the code into the exit.
  const auto n_blocks = static_cast<uint32_t>(blocks.size());
  for (uint32_t b = 0; b < n_blocks; ++b) {
    BasicBlock& bb = blocks[b];
    const Instruction& last = code[bb.end - 1];
    const bool guarded = last.guard != kNoPred;
    auto add = [&bb](uint32_t s) {
      if (std::find(bb.succs.begin(), bb.succs.end(), s) == bb.succs.end())
        bb.succs.push_back(s);
    };
    bool falls_through = true;
    if (last.op_class == OpClass::kExit) {
      add(kExitBlock);
      falls_through = guarded;
    } else if (last.op_class == OpClass::kBranch) {
      if (last.target >= 0)
        add(block_of[static_cast<uint32_t>(last.target)]);
      else
        add(kExitBlock);  // return from the kernel
      for (int32_t t : last.extra_targets)
        add(block_of[static_cast<uint32_t>(t)]);
      falls_through = guarded || last.conditional;
    }
    if (falls_through)
      add(b + 1 < n_blocks ? b + 1 : kExitBlock);
  }
  for (uint32_t b = 0; b < n_blocks; ++b) {
    for (uint32_t s : blocks[b].succs) {
      if (s != kExitBlock)
        blocks[s].preds.push_back(b);
    }
  }

  // Immediate post-dominators: dominators of the reverse CFG rooted at the virtual exit (node
  // index n_blocks). Reverse-graph children of a block are its forward predecessors; the exit's
  // children are the blocks that exit.
  const uint32_t exit_node = n_blocks;
  auto node = [&](uint32_t s) { return s == kExitBlock ? exit_node : s; };
  std::vector<std::vector<uint32_t>> rchildren(n_blocks + 1);
  for (uint32_t b = 0; b < n_blocks; ++b) {
    for (uint32_t s : blocks[b].succs)
      rchildren[node(s)].push_back(b);
  }
  std::vector<uint32_t> postorder;
  std::vector<uint32_t> po_index(n_blocks + 1, UINT32_MAX);
  {
    std::vector<std::pair<uint32_t, size_t>> stack = {{exit_node, 0}};
    std::vector<bool> seen(n_blocks + 1, false);
    seen[exit_node] = true;
    while (!stack.empty()) {
      auto& [v, next] = stack.back();
      if (next < rchildren[v].size()) {
        const uint32_t c = rchildren[v][next++];
        if (!seen[c]) {
          seen[c] = true;
          stack.push_back({c, 0});
        }
      } else {
        po_index[v] = static_cast<uint32_t>(postorder.size());
        postorder.push_back(v);
        stack.pop_back();
      }
    }
  }
  std::vector<uint32_t> idom(n_blocks + 1, UINT32_MAX);
  idom[exit_node] = exit_node;
  auto intersect = [&](uint32_t a, uint32_t b) {
    while (a != b) {
      while (po_index[a] < po_index[b])
        a = idom[a];
      while (po_index[b] < po_index[a])
        b = idom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = postorder.rbegin(); it != postorder.rend(); ++it) {
      const uint32_t v = *it;
      if (v == exit_node)
        continue;
      uint32_t new_idom = UINT32_MAX;
      // Reverse-graph parents of v are its forward successors.
      for (uint32_t s : blocks[v].succs) {
        const uint32_t p = node(s);
        if (idom[p] == UINT32_MAX)
          continue;
        new_idom = new_idom == UINT32_MAX ? p : intersect(p, new_idom);
      }
      if (new_idom != UINT32_MAX && idom[v] != new_idom) {
        idom[v] = new_idom;
        changed = true;
      }
    }
  }
  // Blocks that cannot reach the exit (infinite loops) reconverge only at the exit.
  for (uint32_t b = 0; b < n_blocks; ++b) {
    blocks[b].ipdom = (idom[b] == UINT32_MAX || idom[b] == exit_node) ? kExitBlock : idom[b];
  }
}

uint32_t Kernel::ReconvergencePoint(uint32_t inst) const {
  const uint32_t pd = blocks.at(block_of.at(inst)).ipdom;
  return pd == kExitBlock ? static_cast<uint32_t>(code.size()) : blocks[pd].first;
}

OpClass WarpStream::SpaceOf(const DynInst& d, OpClass c) const {
  if (c != OpClass::kGlobalMem || resolved.empty())
    return c;
  const uint32_t record = d.addrs / 32;
  const auto it =
      std::lower_bound(resolved.begin(), resolved.end(), record,
                       [](const ResolvedGeneric& r, uint32_t v) { return r.record < v; });
  return it != resolved.end() && it->record == record ? it->space : c;
}

uint64_t KernelRun::WarpInstructions() const {
  uint64_t n = 0;
  for (const auto& w : warps)
    n += w.insts.size();
  return n;
}

uint64_t KernelRun::ThreadInstructions() const {
  uint64_t n = 0;
  for (const auto& w : warps) {
    for (const auto& d : w.insts)
      n += static_cast<uint64_t>(__builtin_popcount(d.active_mask));
  }
  return n;
}

}  // namespace gpurf::sim
