// Register liveness on sim::Kernel, per instruction, at the granularity of 32-bit architected
// registers, in two flavours:
//
// - Thread level: the classic backward dataflow on the CFG. A register is live before an
//   instruction if some path from it reads the register before an unguarded write. A guarded
//   (predicated) write does not kill: lanes whose predicate is false keep the old value.
//
// - Warp level: what a warp must keep when its threads may be split over divergent paths of a
//   SIMT stack that reconverges at immediate post-dominators. For a block B ending in a branch
//   with several successors S_j and reconvergence block R = ipdom(B), while the warp runs an
//   instruction reachable from S_j (before R), threads parked on the other successors still need
//   live_in(S_k) (k != j) and threads that finished their path wait at R and need live_in(R).
//   An instruction reachable from several successors may run for any of them, so it keeps all.
//   This is FineReg's "traverse all basic blocks along the control paths" (Section V.B, Fig. 9),
//   Jeon's conservative release across diverged flows and loop iterations (Section 6.1) and
//   CERF's "dead only when all 32 threads reach the post-dominating last read" (Jing, III-B).
//
// Last-use bits per source operand ("dead after this read"): set on the last operand slot of an
// instruction that reads the register when every register of the operand is dead after the
// instruction (not live out, or overwritten by the instruction's own unguarded result).
#pragma once

#include <bitset>
#include <cstdint>
#include <vector>

#include "sim/kernel/kernel.h"

namespace gpurf::sim::passes {

using RegSet = std::bitset<256>;

// The registers an instruction reads (every register of every source group), and writes.
RegSet ReadSet(const Instruction& in);
RegSet WriteSet(const Instruction& in);
// Writes that kill the old value: the write set of an unguarded instruction, empty otherwise.
RegSet KillSet(const Instruction& in);

// One divergent branch and the code its threads may run split.
struct DivergentRegion {
  uint32_t branch_block = 0;
  uint32_t reconvergence_block = kExitBlock;  // ipdom of branch_block
  // Successor blocks other than the exit and the reconvergence block.
  std::vector<uint32_t> paths;
  // reach[b] = bit j set when block b is reachable from paths[j] without passing the
  // reconvergence block (blocks of the region).
  std::vector<uint32_t> reach;
};

struct Liveness {
  // Thread level, per instruction.
  std::vector<RegSet> live_in, live_out;
  // Warp level (a superset of thread level), per instruction.
  std::vector<RegSet> warp_live_in, warp_live_out;
  // Per instruction, per source operand: 1 when the value read dies with this read.
  std::vector<std::vector<uint8_t>> dead_after;       // thread level (per-lane dataflow)
  std::vector<std::vector<uint8_t>> warp_dead_after;  // warp level (safe to release/invalidate)
  // Per block, thread level.
  std::vector<RegSet> block_live_in, block_live_out;
  std::vector<DivergentRegion> regions;
};

// Requires kernel.BuildCfg() to have run.
Liveness ComputeLiveness(const Kernel& kernel);

// FineReg (Section V.A): the live registers of each instruction (the warp-level registers live
// before it, i.e. what a warp stalled at that PC keeps) as a 64-bit vector, bit r = register r.
struct LiveVectors {
  std::vector<uint64_t> bits;  // per instruction
  // Registers >= 64 do not fit FineReg's 64-bit vector; listed here, never silently dropped.
  std::vector<uint16_t> unrepresentable;
};
LiveVectors FineRegLiveVectors(const Kernel& kernel, const Liveness& live);

}  // namespace gpurf::sim::passes
