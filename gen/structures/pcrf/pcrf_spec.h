// Specification of FineReg's pending-CTA register file (PCRF, Oh et al., MICRO 2018, sections
// IV-V): the register space that holds the live registers of CTAs switched out of the active
// register file, kept as one linked chain of entries per pending CTA, with the pointer table and
// the free-space monitor of the register management unit. The semantics below are the contract
// the RTL (pcrf_gen.cc) and the golden model (models/pcrf_model.h) are written from;
// docs/pcrf.md explains the choices and the paper's inconsistencies.
//
// Storage:
//   - E entries, each a tag {valid, end, next (EntryBits), warp id (WarpBits), register index
//     (RegBits)} in flip-flops and a RowBytes-byte row in the data array, one gpurf_sram_1r1w
//     (E rows, hard macro or flip-flops);
//   - the pointer table: per CTA slot c (C slots) the head pointer, its valid bit, the tail
//     pointer (where an append links) and the live count (CountBits = clog2(E + 1));
//   - the free-space monitor: one free bit per entry, the free count, and a find-next-free that
//     gives the lowest-numbered free entry every cycle (one allocation per cycle).
//
// Ports and cycle semantics (one rising edge per cycle; the outputs describe the state before
// the edge):
//  1. Append (save one live register): app_valid_i/app_ready_o with app_cta_i, app_warp_i,
//     app_reg_i, app_data_i. app_ready_o is high when some entry is free; app_entry_o is then
//     the lowest-numbered free entry, the one the append takes. At the edge the entry's tag
//     becomes {valid, end, warp, reg}, its row app_data_i; if the CTA has registers saved, the
//     previous last entry (the tail) clears its end bit and points to the new entry, the count
//     grows by one and the tail moves; otherwise the new entry is head and tail, the count 1.
//  2. Restore (walk): rs_valid_i/rs_ready_o with rs_cta_i. rs_ready_o is high when no walk is
//     issuing. The accepted CTA's chain (head, count) goes to the walker and the CTA's pointer
//     table line becomes empty (count 0, head not valid): an append to that CTA in the same or a
//     later cycle starts a new chain. A restore of an empty CTA is accepted and returns nothing.
//  3. Walk: from the cycle after acceptance the walker issues the chain's entries in save order,
//     one per cycle when Pipelined, else one when the walk pipeline is empty; it reads the tag
//     at issue and follows next. An entry issued in cycle t is returned on out_valid_o in cycle
//     t + HopCycles - 1 (HopCycles cycles per entry, counting the issue cycle) with out_cta_o,
//     out_warp_o, out_reg_o, out_entry_o, out_last_o (its end bit) and out_data_o (the row
//     saved). The pipeline stalls while out_valid_o && !out_ready_i. The entry's row is read,
//     and the entry freed, at the edge where it moves into the last stage.
//  4. Query (combinational): q_count_o, q_head_valid_o and q_head_o of CTA q_cta_i;
//     free_count_o the free entries.
//  Output fields without their valid are zero, except out_data_o (the SRAM's output latch:
//  undefined while out_valid_o is low).
//  While rst_ni is low every output is zero (out_data_o undefined), every entry is free, every CTA
//  empty, the walker idle, the pipeline empty. Same-cycle order: a restore accepted in the cycle of
//  an append to the same CTA takes the chain without the appended entry.
//
// Invariants (RTL assertions under GPURF_ASSERTIONS; the model checks its own side):
//   I1 free count + occupied entries = E, and the free count is the number of free bits;
//   I2 a free bit is set exactly when its entry's tag is not valid;
//   I3 no entry on two chains: an append takes a free entry, the walker issues only valid
//      entries not already in its pipeline, and the live counts of the pointer table plus the
//      walk's remaining and in-flight entries are the occupied entries;
//   I4 every chain ends with the end bit: the tail of every non-empty CTA is valid with its end
//      bit set, and a walk meets the end bit at its last entry and only there;
//   I5 the head pointer of an empty CTA is not valid (head valid exactly when the count is not
//      zero), and the pointers of a non-empty CTA point at valid entries.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gen/params/param.h"

namespace gpurf {

struct PcrfSpec {
  enum class DataImpl { kMacro, kFlops };

  // Parameters.
  int entries = 0;     // E
  int row_bytes = 0;   // bytes per register row (one warp register)
  int ctas = 0;        // C: pending CTA slots of the pointer table
  int warps = 0;       // warps per CTA
  int regs = 0;        // registers per thread
  int hop_cycles = 0;  // cycles per chain entry, issue to result
  bool pipelined = true;
  DataImpl data_impl = DataImpl::kMacro;

  // Derived once.
  int row_bits = 0;    // 8 * row_bytes
  int entry_bits = 0;  // clog2(E): a pointer
  int count_bits = 0;  // clog2(E + 1): a live count, 0..E
  int cta_bits = 0;    // clog2(C), at least 1
  int warp_bits = 0;   // clog2(warps), at least 1
  int reg_bits = 0;    // clog2(regs), at least 1
  int tag_bits = 0;    // 2 + entry_bits + warp_bits + reg_bits
  std::string kind;    // "pcrf"
  std::string config_hash;
  std::string module_name;  // rf_pcrf_1024x128b_c128_h4p_a1b2c3
  ParamSet params;

  static const std::vector<ParamDesc>& ParamDescs();
  // Width checks and derivation; throws InputError.
  static PcrfSpec FromParams(const ParamSet& p);

  bool macro() const { return data_impl == DataImpl::kMacro; }
};

}  // namespace gpurf
