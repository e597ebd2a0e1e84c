// Specification of the banked main register file (MRF) with operand collection (Gebhart et al.,
// TOCS 2012, section 2.1 and Figure 1(c); the MRF level of Figures 5 and 8).
//
// Organisation. `banks` single-read, single-write SRAM banks of `rows` x `width` bits behind the
// gpurf_sram_1r1w wrapper; a row holds one architected register of one warp for the lanes of a
// lane cluster (128 bits = 4 lanes x 32 bits). `warps` x `regs` registers are interleaved over
// the banks (the mapping below). `collectors` operand collectors each hold one warp instruction
// while its up to three source operands (slots A, B, C) are read from the banks.
//
// Register -> (bank, row), with S = ceil(regs / banks) rows per warp in every bank:
//   register      (paper): bank = reg mod banks,          row = warp * S + reg div banks
//   warp-swizzled        : bank = (warp + reg) mod banks, row = warp * S + reg div banks
// "register" is the interleaving of Gebhart section 2.1 (consecutive registers in consecutive
// banks, so the operands of one instruction tend to sit in different banks); "warp-swizzled"
// rotates it by the warp id so that different warps running the same code use different banks.
// Both are one-to-one; they need warps * S <= rows.
//
// Port contract (fixed; RW = reg bits, WW = warp bits, TW = tag bits, CW = counter bits, DW =
// width; bits of a vector of three slots: slot s at [s*X +: X]):
//   clk_i, rst_ni (asynchronous, active low)
//   issue_valid_i, issue_ready_o, issue_tag_i[TW], issue_warp_i[WW], issue_src_valid_i[3],
//     issue_src_reg_i[3*RW]                     - a warp instruction into a free collector
//   wb_valid_i, wb_ready_o, wb_warp_i[WW], wb_reg_i[RW], wb_data_i[DW] - a result to write
//   disp_valid_o, disp_ready_i, disp_tag_o[TW], disp_warp_o[WW], disp_src_valid_o[3],
//     disp_data_o[3*DW]                         - an instruction with all its operands
//   cnt_reads_o, cnt_writes_o, cnt_conflicts_o, cnt_issue_stalls_o, cnt_wb_stalls_o [CW each]
//
// Cycle semantics (outputs of cycle t, then the rising edge that ends it; nothing is accepted
// and every counter and collector is cleared while rst_ni is low; the banks are not reset):
//   issue_ready_o = some collector is free. On issue_valid_i && issue_ready_o the lowest-numbered
//     free collector takes the instruction; each valid slot then needs one bank read.
//   Read arbitration, each cycle, each bank: among the slots that still need a read from it, the
//     slot of the oldest instruction (earliest issued) wins, ties by slot A < B < C. So each
//     bank serves at most one read per cycle, and operands of one instruction in one bank are
//     read on successive cycles. A granted read reads the bank at the edge; its data (SRAM read
//     latency 1 cycle) enters the collector's operand buffer at the next edge.
//   Write-back and reads (the 1R1W macro cannot read and write one row in one cycle):
//     write-priority: wb_ready_o = 1; slots whose (bank, row) is the write's are not eligible
//       this cycle (another row of that bank may still be read).
//     read-priority: reads are arbitrated first; wb_ready_o = 0 when wb_valid_i and the read
//       granted on the write's bank is of the write's row.
//     An accepted write-back writes its row at the edge; reads granted from the next cycle on
//     see it.
//   disp_valid_o = some collector has all of its valid operands in its buffer; the oldest such
//     instruction is presented (tag, warp, source valid bits, slot s data at [s*DW +: DW]) and
//     its collector is freed at the edge where disp_ready_i is high. disp_data_o of an invalid
//     slot, and every disp_* output other than disp_valid_o while it is low, are undefined.
//   Counters (wrap modulo 2^CW, registered, count events of earlier cycles): reads = bank reads
//     granted, writes = write-backs accepted, conflicts = slot-cycles a slot needed a read and
//     was not granted one (another slot or the write-back held its bank), issue_stalls = cycles
//     with issue_valid_i && !issue_ready_o, wb_stalls = cycles with wb_valid_i && !wb_ready_o.
//   Fastest path: issue in cycle t, read granted in t+1, data captured at the end of t+2,
//   disp_valid_o in t+3; every read serialized behind another adds a cycle.
// Misuse (caught by assertions): a warp >= warps or a valid source / write-back register
// >= regs.
#pragma once

#include <string>
#include <vector>

#include "gen/params/param.h"

namespace gpurf {

struct MrfSpec {
  enum class Interleave { kRegister, kWarpSwizzled };
  enum class WbPolicy { kWritePriority, kReadPriority };
  enum class BankImpl { kMacro, kFlops };

  static constexpr int kSlots = 3;  // source operands per instruction (A, B, C)

  // Parameters.
  int banks = 0;
  int rows = 0;
  int width = 0;
  int warps = 0;
  int regs = 0;  // architected registers per thread
  int collectors = 0;
  Interleave interleave = Interleave::kRegister;
  WbPolicy wb_policy = WbPolicy::kWritePriority;
  BankImpl bank_impl = BankImpl::kMacro;
  int tag_width = 0;
  int counter_width = 0;

  // Derived once.
  int row_addr_width = 0;  // max(1, ceil(log2(rows)))
  int bank_width = 0;      // max(1, ceil(log2(banks)))
  int warp_width = 0;      // max(1, ceil(log2(warps)))
  int reg_width = 0;       // max(1, ceil(log2(regs)))
  int rows_per_warp = 0;   // S = ceil(regs / banks), rows of every bank per warp
  int num_slots = 0;       // collectors * 3
  std::string kind;        // "mrf"
  std::string config_hash;
  std::string module_name;  // rf_mrf_32b_256x128_k4_a1b2c3
  ParamSet params;

  static const std::vector<ParamDesc>& ParamDescs();
  // Cross-field validation and derivation; throws InputError.
  static MrfSpec FromParams(const ParamSet& p);

  // The interleaving, for any warp / register value (also out-of-range ones, as the RTL).
  int BankOf(int warp, int reg) const;
  int RowOf(int warp, int reg) const;
  // One line describing the mapping, for the manifest.
  std::string MappingText() const;
  const char* InterleaveName() const;
  const char* WbPolicyName() const;
};

}  // namespace gpurf
