// The software ORF's structure transactions (transaction.h), made by the SW ORF register-file
// system (rf_systems.cc) from the compiler's allocation, and driven into the RTL by the
// transactor of the ORF level they name (orf_transactor.cc).
#pragma once

#include "sim/harness/transaction.h"
#include "sim/passes/orf_alloc.h"

namespace gpurf::harness {

// Source operand `src` reads `reg` from (level, entry) of the warp's slot.
struct OrfRead : StructureTransaction {
  static constexpr TransactionType kType{"ORF read"};
  OrfRead(sim::passes::RfLevel a_level, int a_src, int a_reg, int a_entry)
      : StructureTransaction(kType), level(a_level), src(a_src), reg(a_reg), entry(a_entry) {}
  sim::passes::RfLevel level;
  int src, reg, entry;
};

// `reg` is written to (level, entry): a result, or (fill) the value of a source operand read
// from the MRF.
struct OrfWrite : StructureTransaction {
  static constexpr TransactionType kType{"ORF write"};
  OrfWrite(sim::passes::RfLevel a_level, int a_reg, int a_entry, bool a_fill)
      : StructureTransaction(kType), level(a_level), reg(a_reg), entry(a_entry), fill(a_fill) {}
  sim::passes::RfLevel level;
  int reg, entry;
  bool fill;
};

}  // namespace gpurf::harness
