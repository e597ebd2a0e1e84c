// Specification of the register renaming table of GPU register file virtualization (Jeon et
// al., MICRO 2015, section 7.1): per SM, the map from (warp, architected register) to the
// physical register that holds it, filled at a register's first write and emptied when the
// compiler's release flags say the value is dead. The semantics below are the contract the RTL
// (renaming_table_gen.cc) and the golden model (models/renaming_table_model.h) are written from;
// docs/renaming-table.md explains the choices.
//
// Parameters: Wp warp slots, R architected registers per thread, P physical registers
// (PhysBits = ceil(log2 P) bits per id), B banks (power of two), and a capacity budget in bytes
// that bounds the stored physical ids (valid bits are extra, one per entry). The budget gives
// K = min(R, floor(8 * capacity / (Wp * PhysBits))) entries per warp (the renamed window); the
// paper's 1 KB at 48 x 63 x 1024 gives K = 17, its full table (3,780 B) K = 63.
//
// Run-time configuration: exempt_i = N, the kernel's number of renaming-exempt registers (the
// compiler numbers them lowest). Register r of warp w is
//   exempt   (r < N):          physical register w*N + r, never stored, never released;
//   renamed  (N <= r < N+K, r < R): entry j = r - N of warp w, in bank j mod B, row j div B of
//                              the warp's rows in that bank;
//   outside  (any other r):    a contract violation (the compiler picks N >= R_kernel - K).
// Contract: Wp*N <= P (the exempt blocks of every warp slot fit), N changes only while no entry
// is valid, and an allocated physical id is free (the availability vectors hand it out): below
// P, not in the exempt blocks [0, Wp*N), and held by no valid entry.
//
// Requests (one per instruction the table accepts: req_valid_i && req_ready_o), req_op_i:
//   instr (0)  up to three sources (src_valid_i[p], src_reg_i, src_release_i[p]: the pir bit,
//              the value is dead after this read) and a destination (dst_valid_i, dst_reg_i,
//              dst_phys_i: the free physical id to map if the destination has no mapping);
//   release (1) the pbr list: rel_mask_i[r] releases register r of the warp (exempt and
//              unmapped registers are ignored);
//   exit (2)   the warp exits: every mapping of the warp is released.
// Cycle semantics:
//  1. The request's inputs are latched at acceptance; what is served in the accepting cycle is
//     answered combinationally, the rest in later cycles with req_ready_o low.
//  2. Exempt and outside operands are served in the accepting cycle (no bank access).
//  3. Each bank serves one entry per cycle. instr: the entry of the lowest-numbered pending
//     source of the bank, together with every pending source naming the same register (the
//     same entry is read once); the destination only when no source of its bank is pending
//     (it is served in a later cycle than a source of its bank, after that source's release).
//     release/exit: the lowest pending entry j of the bank; the pending entries are those of
//     the mask (every entry for exit) that hold a mapping at acceptance.
//  4. A served source answers src_mapped_o (the entry holds a mapping; a read of a released or
//     never-written register is flagged by src_mapped_o low) and src_phys_o (the mapping, w*N+r
//     for an exempt register, 0 when not mapped). If any source naming the entry has its release
//     bit, a held mapping is released: the entry becomes invalid, its id goes out on the bank's
//     free port.
//  5. A served destination keeps its mapping (dst_alloc_o low) or, when it has none, maps
//     dst_phys_i (dst_alloc_o high: the id is consumed); dst_phys_o is the id written.
//  6. A served release entry is invalidated and its id goes out on the bank's free port.
//  conflict_cycles_o counts the cycles in which an instr request was pending (bank conflicts;
//  wraps at 2^32). While rst_ni is low no entry is valid, nothing is pending, counter zero.
//
// Invariants (RTL assertions under GPURF_ASSERTIONS, checked by the golden model):
//   I1 no physical register is mapped twice: an allocated id is below P, outside the exempt
//      blocks and held by no valid entry;
//   I2 a released mapping is never read before it is rewritten: a source answered as mapped
//      reads a valid entry;
//   I3 every id on a free port was mapped and is freed once: the entry freed is valid and is
//      invalidated in that cycle;
//   C1, C2, C3 the contract: operands are exempt or renamed; Wp*N <= P; req_warp_i < Wp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gen/params/param.h"

namespace gpurf {

struct RenamingTableSpec {
  enum Op : int { kInstr = 0, kRelease = 1, kExit = 2 };
  static constexpr int kSources = 3;

  // Parameters.
  int warps = 0;      // Wp
  int regs = 0;       // R
  int phys_regs = 0;  // P
  int capacity_bytes = 0;
  int banks = 0;  // B

  // Derived once.
  int phys_bits = 0;         // ceil(log2 P)
  int warp_bits = 0;         // ceil(log2 Wp), at least 1
  int reg_bits = 0;          // ceil(log2 R), at least 1 (also the width of exempt_i: N <= R)
  int exempt_bits = 0;       // bits of exempt_i: ceil(log2 (R+1))
  int bank_bits = 0;         // log2 B
  int window = 0;            // K: entries per warp
  bool full_window = false;  // K == R: the full table
  int table_bits = 0;        // Wp * K * PhysBits: the budgeted id storage
  std::string kind;          // "renaming-table"
  std::string config_hash;
  std::string module_name;  // rf_rename_48w63r1024p17k_a1b2c3
  ParamSet params;

  static const std::vector<ParamDesc>& ParamDescs();
  // Range checks and derivation; throws InputError.
  static RenamingTableSpec FromParams(const ParamSet& p);

  // Entries of warp slot in bank b (ceil((K - b) / B)).
  int RowsPerWarp(int bank) const { return (window - bank + banks - 1) / banks; }
  // Entry j's bank and its row within the warp's rows of that bank.
  int BankOfEntry(int j) const { return j % banks; }
  int RowOfEntry(int j) const { return j / banks; }
  // Whether register r is exempt / renamed under N exempt registers.
  static bool Exempt(int r, int n) { return r < n; }
  bool Renamed(int r, int n) const { return r >= n && r < n + window && r < regs; }
  int ExemptPhys(int warp, int r, int n) const { return warp * n + r; }
};

}  // namespace gpurf
