// Strand formation: Gebhart et al. (TOCS 2012) Section 5.1 with the stricter rules of Bailey et
// al. (Section III-B). A strand is a run of consecutive instructions (in code order, which is the
// SIMT execution order of the compiler's layout) in which every dependence on a long-latency
// operation is on an operation issued in an earlier strand; the ORF is only used within a
// strand and every value crossing a strand boundary goes through the MRF.
//
// A new strand starts at instruction i when:
//   kLongLatencyUse   i reads or overwrites a register that a long-latency operation may still
//                     be writing (on some path since the warp last waited, across strand
//                     boundaries and loop back edges: Bailey's "possibly the first dynamically
//                     executed instruction with this dependency", covering Gebhart Fig. 9(b));
//                     the warp is descheduled before i until all its long-latency operations
//                     complete (Strands::waits; the SM's two-level scheduler does exactly this).
//   kBackwardTarget   i starts a block targeted by a backward branch (a loop header);
//   kMultipleEntry    i starts a block with a predecessor outside the current strand (single
//                     entry point), which also handles a strand boundary on one side of a hammock;
//   kAfterBackward    the previous instruction is a backward branch;
//   kAfterCall        the previous instruction is a call or a return, unless it is a predicated
//                     return that exits the kernel (Bailey; a kernel without calls has no other
//                     returns);
//   kAfterBarrier     the previous instruction is a barrier (optional; a CTA barrier may park the
//                     warp for an unknown time, an "uncertain long-latency event");
//   kDivergentSplit   the previous instruction is a branch whose diverged paths would otherwise
//                     run in different strands while some other path still continues the
//                     branch's strand: SIMT runs the paths one after another, so a boundary on
//                     one path would invalidate ORF values the parked path still expects. We end
//                     the strand at such a branch (our addition; neither paper spells it out).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/kernel/kernel.h"
#include "sim/passes/liveness.h"

namespace gpurf::sim::passes {

enum class StrandStart : uint8_t {
  kKernelEntry,
  kLongLatencyUse,
  kBackwardTarget,
  kMultipleEntry,
  kAfterBackward,
  kAfterCall,
  kAfterBarrier,
  kDivergentSplit,
};
const char* StrandStartName(StrandStart s);

struct StrandOptions {
  bool barrier_ends_strand = true;
};

struct Strand {
  uint32_t first = 0;  // first instruction
  uint32_t end = 0;    // one past the last
  StrandStart reason = StrandStart::kKernelEntry;
};

struct Strands {
  std::vector<Strand> strands;       // in code order, covering every instruction
  std::vector<uint32_t> strand_of;   // instruction -> strand index
  std::vector<uint8_t> ends_strand;  // the instruction's successor starts another strand
  // The warp must wait for all its long-latency results before issuing the instruction (it
  // reads or overwrites a register one may still be writing). Every such instruction starts a
  // strand; the SM's two-level scheduler deschedules the warp before it (sm.h, SmOptions).
  std::vector<uint8_t> waits;
  bool Contains(uint32_t strand, uint32_t inst) const { return strand_of[inst] == strand; }
};

bool IsCall(const Instruction& in);
bool IsReturn(const Instruction& in);
bool IsBackwardBranch(const Instruction& in, uint32_t index);

Strands FormStrands(const Kernel& kernel, const Liveness& live, const StrandOptions& opt = {});

}  // namespace gpurf::sim::passes
