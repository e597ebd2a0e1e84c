// Register scratchpad (RSP) allocation of the hybrid register cache / scratchpad: Bailey,
// Kloosterman and Mahlke, section III-B. The RSP is a distinct segment of the register name
// space in front of the register cache (RC) and the MRF; the compiler renames a register's
// accesses inside a range to an RSP entry of the warp, and directs the transfers between the RSP
// and its backing store (RC, then MRF). Design decisions: docs/hybrid-rc.md, "Compiler".
//
// Per strand (strands.h), per register operand group (a register, pair or quad, by its exact
// shape), the accesses in code order give the candidates:
// - write allocation: from an unguarded write to the last read before the next unguarded write
//   that follows a read of an earlier instruction (where the slot would hold a dead value). Every
//   write of the register inside the range goes to the RSP (several writes per range, Bailey's
//   extension over Gebhart), every read inside it reads the RSP. When the value is live after the
//   range's last read (warp-level liveness), it is a live-out allocation: the RSP entry is written
//   back to the backing store right after that instruction.
// - read allocation: a run of reads with no write between them: the first reads the backing
//   store and fills the RSP entry, the later ones read the RSP. Never written, never written back.
// A range is a contiguous run of instructions [first, last] of one strand that is entered only
// at `first` and left only after `last` (or by a thread exit): so every access of the range runs
// after `first` with the same active mask, which makes the entry hold the current value of every
// active lane, and the write-back after `last` runs on every path.
//
// Selection (III-B): savings = sum over RSP reads (E_read(MRF) - E_read(RSP)) + sum over RSP
// writes (E_write(MRF) - E_write(RSP)) - read fill E_write(RSP) - live-out (E_read(RSP) +
// E_write(MRF)), per register of the group; score = savings / range length (instruction gaps the
// entry is held, one more for a write-back). Greedy in score order, each range in the first
// entries free over its whole length. A range that does not fit (or is not a valid range) is
// reduced and reinserted: a write allocation loses accesses from its tail; with nothing left, it
// restarts from the original range without the accesses before its next opening write. A read
// allocation of N reads becomes its windows of N-1 consecutive reads, then N-2, ... When a
// reduced range is mapped, the removed parts of its original range are candidates again
// (Bailey's regeneration; Gebhart only trims the tail and drops the rest).
//
// The RSP is priced with the L1 ORF figures of rf_energies.h (RfLevel::kL1): both are small
// compiler-managed flip-flop arrays of entries x active warps rows next to the datapath.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/kernel/kernel.h"
#include "sim/passes/liveness.h"
#include "sim/passes/rf_energies.h"
#include "sim/passes/strands.h"

namespace gpurf::sim::passes {

// The RSP serves the source operand slots A, B and C; a fourth source operand reads the RC/MRF.
constexpr int kRspOperandSlots = 3;

struct RspConfig {
  int rsp_bytes = 4096;      // RSP capacity per SM (Bailey's best split: 4 KB of 12 KB)
  int active_warps = 16;     // active warps per SM sharing it (gtx980: 4 per scheduler x 4)
  int register_bytes = 128;  // one warp-wide 32-bit register
  bool reduce = true;        // reduce ranges that do not fit (false: all or nothing)
  bool regenerate = true;    // Bailey: removed parts of a mapped reduced range become candidates
  // RSP entries per warp: capacity / active warps / bytes per register (0 when it does not fit).
  int EntriesPerWarp() const;
};

enum class RspRangeKind : uint8_t { kWrite, kRead };

struct RspRange {
  RspRangeKind kind = RspRangeKind::kWrite;
  RegOperand group;
  uint32_t strand = 0;
  uint32_t first = 0;        // opening write (write) or filling read (read)
  uint32_t last = 0;         // last RSP read
  bool live_out = false;     // written back to the RC/MRF after `last`
  bool reduced = false;      // a reduction of a larger candidate
  bool regenerated = false;  // built from the removed part of a mapped reduced range
  int rsp_reads = 0;         // operand reads served by the RSP (per operand, not per register)
  int rsp_writes = 0;        // results written to the RSP
  std::array<uint8_t, 4> slots{};  // RSP entry per register of the group
  double savings_pj = 0;
};

struct RspOperand {
  bool rsp = false;   // read from the RSP
  bool fill = false;  // read from the RC/MRF and also written to the RSP (read allocation)
  std::array<uint8_t, 4> slots{};
};

struct RspResult {
  bool rsp = false;  // written to the RSP only (else to the RC, write-allocate, then the MRF)
  std::array<uint8_t, 4> slots{};
};

struct RspWriteBack {
  RegOperand group;
  std::array<uint8_t, 4> slots{};
};

struct RspInst {
  std::vector<RspOperand> srcs;          // parallel to Instruction::srcs
  std::vector<RspResult> dsts;           // parallel to Instruction::dsts
  std::vector<RspWriteBack> writebacks;  // live-outs, after the instruction
};

struct RspStats {
  int candidates = 0;   // maximal candidates
  int reductions = 0;   // reduced candidates generated
  int regenerated = 0;  // candidates regenerated from removed parts
  int write_ranges = 0, read_ranges = 0, live_out_ranges = 0;
  int reduced_ranges = 0, regenerated_ranges = 0;
  // Static counts per 32-bit register (each instruction once).
  int operand_reads = 0, rsp_reads = 0, fills = 0;
  int result_writes = 0, rsp_writes = 0, writebacks = 0;
  double savings_pj = 0;
};

struct RspAllocation {
  RspConfig config;
  int entries = 0;             // per warp
  std::vector<RspInst> insts;  // parallel to Kernel::code
  std::vector<RspRange> ranges;
  RspStats stats;
};

RspAllocation AllocateRsp(const Kernel& kernel, const Liveness& live, const Strands& strands,
                          const RspConfig& config, const RegisterFileEnergies& energies);

// Independent check of an allocation (rsp_check.cc), by a must-simulation of every strand over
// its forward control flow: RSP entries within the capacity per warp at every access, every RSP
// read sees an entry holding its register's current value (written or filled earlier in the
// strand: the pipeline never misses in the RSP; entries start empty at every strand, so nothing
// crosses a strand boundary), no RSP read through a fourth operand slot, every RC/MRF read and
// fill sees a current backing copy, every write-back takes its register from its entry, every
// register live out of a strand has a current backing copy (live-outs written back), and every
// listed range lies in one strand. Returns the violations found (empty = ok).
std::vector<std::string> CheckRspAllocation(const Kernel& kernel, const Liveness& live,
                                            const Strands& strands, const RspAllocation& alloc);

}  // namespace gpurf::sim::passes
