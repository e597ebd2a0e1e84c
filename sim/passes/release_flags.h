// Jeon et al., GPU register file virtualization (MICRO 2015), Sections 6 and 7.1: the compiler's
// register release flags and the choice of renamed registers.
//
// - A register is released (its physical register returned to the free pool) after the read
//   that makes it dead at warp level (liveness.h), as a per-instruction release flag (pir):
//   3 bits per instruction (one per source operand slot A, B, C), packed 18 instructions per
//   54-bit meta instruction at the start of each basic block and every 18 instructions after.
// - Registers whose last read sits inside diverged flows or loop iterations cannot be released
//   there (parked threads or later iterations still need them); they are released by a
//   per-branch release flag (pbr) at the reconvergence point: the registers that may still be
//   mapped on some incoming path and are dead at warp level there. A pbr lists up to 9 register
//   numbers of 6 bits. (On a path where the register was already released, the release finds no
//   mapping and does nothing.)
// - Renaming-table budget (7.1): the table holds budget_bits / (entry_bits x resident_warps)
//   registers per warp, entry_bits = ceil(log2(physical registers)). Registers are ranked by
//   their estimated value lifetime (instructions from each write to the next release point in
//   the code, averaged over the register's static writes), then by fewer value instances; the
//   shortest-lived are renamed and only they get release flags. The others are never released.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/kernel/kernel.h"
#include "sim/passes/liveness.h"

namespace gpurf::sim::passes {

struct ReleaseConfig {
  int budget_bytes = 1024;        // renaming-table size (Jeon: 1 KB, 25% of a full table)
  int physical_registers = 1024;  // per SM (128 KB / 32 lanes / 4 bytes) -> 10-bit entries
  int resident_warps = 48;        // warps per CTA x concurrent CTAs (Jeon's baseline: 48)
};

constexpr int kPirInstructions = 18;  // instructions covered by one pir meta instruction
constexpr int kPirSlots = 3;          // release bits per instruction
constexpr int kPbrRegisters = 9;      // registers listed by one pbr meta instruction

struct PirGroup {
  uint32_t block = 0;
  uint32_t first = 0;  // first instruction covered
  uint32_t count = 0;  // instructions covered (<= 18)
  uint64_t flags = 0;  // bit 3*j + k: release operand slot k of instruction first + j
};

struct PbrRelease {
  uint32_t inst = 0;           // first instruction of the reconvergence block
  std::vector<uint16_t> regs;  // registers released there, ascending
  int meta_instructions = 0;   // ceil(regs / 9)
};

struct RenameRank {
  uint16_t reg = 0;
  double lifetime = 0;  // average instructions from a write to the next release point
  int instances = 0;    // static writes of the register
  bool renamed = false;
};

struct ReleaseFlags {
  ReleaseConfig config;
  int table_registers = 0;          // registers per warp the renaming table holds
  std::vector<RenameRank> ranking;  // every register the kernel uses, best candidate first
  std::vector<uint16_t> renamed;    // the selected registers, ascending
  // Per instruction, per source operand: release after this read (renamed registers only;
  // slots >= 3 cannot be encoded and stay 0).
  std::vector<std::vector<uint8_t>> release;
  std::vector<PirGroup> pir;
  std::vector<PbrRelease> pbr;
  // Registers a pbr must release but cannot encode in 6 bits (>= 64).
  std::vector<uint16_t> unencodable;
};

// Requires kernel.BuildCfg() and liveness of the same kernel.
ReleaseFlags ComputeReleaseFlags(const Kernel& kernel, const Liveness& live,
                                 const ReleaseConfig& config = {});

}  // namespace gpurf::sim::passes
