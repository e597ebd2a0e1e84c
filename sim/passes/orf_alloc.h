// Operand register file (ORF) allocation: Gebhart et al., TOCS 2012, Sections 5.2-5.6.
//
// Per strand (strands.h), every value is a candidate for the ORF:
// - write values (5.2): a result and the reads it reaches inside the strand. Reads reached by
//   several writes of the same register (both sides of a hammock, Fig. 14(c)) join one value
//   whose writes all target the same entry (5.5). A read the value may reach from outside the
//   strand or through a path without the write (Fig. 14(a)/(b)) reads the MRF, and so do the
//   writes reaching it.
// - read operands (5.4): a register read in the strand but not written before: the first read
//   comes from the MRF and also fills the ORF; later reads it dominates may use the ORF copy.
// Savings of allocating a value to level X (Fig. 10; Fig. 13 for read operands), with energies
// per access from rf_energies.h including the wire to the reading or writing unit:
//   sum over ORF reads (E_read(MRF) - E_read(X)) - sum over ORF writes E_write(X)
//   + sum over writes that need no MRF copy E_write(MRF)
// A write needs an MRF copy when the value is live out of the strand (it must survive the ORF
// invalidation at the strand end) or reaches a read served from the MRF.
// Greedy allocation (Fig. 11): candidates sorted by savings / range (instruction slots from the
// write, or fill, to the last ORF read), each placed in the first entries free over its whole
// range. Three levels (5.6): first the L0 pass (full ranges; only values produced and read by the
// private datapath, never by shared units; a split L0 has one single-entry bank per operand slot
// A/B/C and a value read through several slots is L1-only), then the L1 pass on the rest, where
// a value that does not fit is shortened by moving its last ORF read to the MRF until it fits or
// stops saving energy (partial ranges, 5.3). A value is written to at most one ORF level
// besides the MRF. Wide values (register pairs, quads) take one entry per register.
//
// The output is an annotation parallel to Kernel::code: for each source operand the level and
// entries it is read from (and for a read-operand fill, the level it is also written to), for
// each result the write targets (MRF and/or one ORF level with its entries).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "sim/kernel/kernel.h"
#include "sim/passes/liveness.h"
#include "sim/passes/rf_energies.h"
#include "sim/passes/strands.h"

namespace gpurf::sim::passes {

constexpr int kL0Banks = 3;  // split L0: one bank per operand slot A, B, C
// The ORF levels serve the source operand slots A, B and C (one read port each); a fourth
// source operand (shfl.sync's membermask, for one) always reads the MRF.
constexpr int kOrfOperandSlots = 3;

struct OrfConfig {
  int levels = 3;                // 1: MRF only, 2: MRF + L1, 3: MRF + L1 + L0
  int l1_entries = 3;            // L1 entries per thread
  bool l0_split = true;          // split L0 (one single-entry bank per slot) or one entry
  bool partial_ranges = true;    // 5.3
  bool read_operands = true;     // 5.4
  bool forward_branches = true;  // 5.5; false: ORF values never cross a basic block boundary
};

struct OperandAlloc {
  RfLevel level = RfLevel::kMrf;     // where the operand is read from
  RfLevel fill = RfLevel::kMrf;      // read-operand fill: this MRF read also writes `fill`
  std::array<uint8_t, 4> entries{};  // ORF entry (L1) or L0 bank, per register of the group
};

struct ResultAlloc {
  bool mrf = true;                   // written to the MRF
  RfLevel orf = RfLevel::kMrf;       // ORF level also written, kMrf when none
  std::array<uint8_t, 4> entries{};  // per register of the group
};

struct InstAlloc {
  std::vector<OperandAlloc> srcs;  // parallel to Instruction::srcs
  std::vector<ResultAlloc> dsts;   // parallel to Instruction::dsts
};

struct OrfStats {
  int candidates = 0;
  int l0_values = 0, l1_values = 0;
  int read_operand_values = 0;   // of which read-operand allocations
  int partial_values = 0;        // allocated with a shortened range
  double static_savings_pj = 0;  // sum of the savings function over allocated values
};

struct OrfAllocation {
  OrfConfig config;
  std::vector<InstAlloc> insts;  // parallel to Kernel::code
  OrfStats stats;
};

// Capacity of a level in entries per thread (L0: entries per bank when split).
int LevelCapacity(const OrfConfig& c, RfLevel level);

OrfAllocation AllocateOrf(const Kernel& kernel, const Liveness& live, const Strands& strands,
                          const OrfConfig& config, const RegisterFileEnergies& energies);

// Independent check of an allocation against its kernel, by a path-merging simulation of every
// strand: entries within capacity (L0 banks matching the operand slot), no L0 access by a shared
// unit, every ORF read sees exactly the current value of its register (so never a read before
// the write in the same strand), every MRF read sees the current value, and every register live
// out of a strand has its current value in the MRF. Returns the violations found (empty = ok).
std::vector<std::string> CheckOrfAllocation(const Kernel& kernel, const Liveness& live,
                                            const Strands& strands, const OrfAllocation& alloc);

}  // namespace gpurf::sim::passes
