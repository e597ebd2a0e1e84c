// The tag array's structure transactions (transaction.h), made by the cerf register-file system
// (sim/harness/hierarchies/cerf_system.cc) with its TagArray's answers, and driven into the RTL
// by the tag array's transactor (tag_array_transactor.cc), which checks that the RTL answers the
// same.
#pragma once

#include <cstdint>
#include <vector>

#include "models/tag_array_model.h"
#include "sim/harness/transaction.h"

namespace gpurf::harness {

// One lookup as the system performed it, and the system's answer.
struct TagLookup {
  TagArraySpec::Op op = TagArraySpec::kReadReg;
  bool last = false;  // read-reg: the compiler's last use
  int warp = -1;      // register ops: the warp and register re-indexed into `addr`
  int reg = -1;
  uint64_t addr = 0;     // the line address looked up (the reg-mem address for registers)
  TagArray::Result res;  // the system's answer
};

// The lookups of one request of the tag array, in the order the system performed them.
struct TagRequest : StructureTransaction {
  static constexpr TransactionType kType{"tag-array request"};
  enum class Cause {
    kOperands,  // an instruction's distinct source registers (the tagging stage)
    kResults,   // an instruction's result registers (write-back)
    kMemory,    // a global / local / texture load or store line (the L1D side)
    kExitFree,  // a finished CTA's warp register: read-reg with the last-use bit
  };
  TagRequest(Cause a_cause, const std::vector<TagLookup>& a_lookups, int a_conflict_cycles,
             int a_rgen_warps, int a_rgen_regs)
      : StructureTransaction(kType),
        cause(a_cause),
        lookups(a_lookups),
        conflict_cycles(a_conflict_cycles),
        rgen_warps(a_rgen_warps),
        rgen_regs(a_rgen_regs) {}
  Cause cause;
  const std::vector<TagLookup>& lookups;
  // kOperands: the operand delay the system charged for same-bank lookups; -1 otherwise.
  int conflict_cycles;
  // The system's re-indexing: warp contexts and registers per warp it packs (the warps are the
  // SM partition's, which can be more than the RTL was generated for when a kernel keeps fewer
  // warps resident).
  int rgen_warps, rgen_regs;
};

}  // namespace gpurf::harness
