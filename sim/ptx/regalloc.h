// Register allocation of a parsed PTX kernel onto architected registers, and the translation
// to the shared sim::Kernel representation.
//
// Allocation is linear scan (Poletto & Sarkar) over live intervals computed from liveness on
// the CFG: a value's interval spans every program point where it is live (the conservative
// single-range form, so two values that are ever live at the same point never share a
// register). Positions are 2i for the reads of instruction i and 2i+1 for its writes, so a
// result may reuse the register of an operand that dies at the same instruction. A guarded
// (@p) write does not kill the previous value: lanes whose guard is false keep it.
//   - 32-bit values take one register, 64-bit values an aligned even/odd pair.
//   - The registers of a vector load/store ({%f1,%f2,%f3,%f4}) are allocated together as one
//     aligned group (a 128-bit quad for .v4.b32), as ptxas does for LDS.128/LDG.128; a vector
//     whose registers cannot form a group (a register reused in another vector at another
//     position) gets fresh group registers and explicit movs.
//   - Predicates are allocated separately (their own namespace, unbounded).
//   - If the values do not fit in max_regs registers, intervals are spilled to thread-local
//     memory (furthest end first) and every access to a spilled value goes through a small pool
//     of scratch registers reserved at the top: ld.local before a read, st.local after a write
//     (class kLocalMem, long latency). Allocation never fails.
// The register count reported per thread is the highest register used + 1, as ptxas reports it.
#pragma once

#include <string>
#include <vector>

#include "sim/kernel/kernel.h"
#include "sim/ptx/ptx_ir.h"

namespace gpurf::sim::ptx {

struct AllocOptions {
  int max_regs = 63;  // architected 32-bit registers per thread available (16..255)
};

struct AllocStats {
  int virtual_regs = 0;        // PTX data registers that appear in the code
  int spilled_values = 0;      // values kept in local memory
  int spill_instructions = 0;  // inserted ld.local / st.local
  int group_copies = 0;        // movs inserted for vector operands that could not be grouped
};

// A kernel ready for functional execution: `fn` holds the allocated code (register operands
// are architected registers; fn.code[i] is kernel.code[i]) and `kernel` its shared
// representation with the CFG built.
struct CompiledKernel {
  PtxFunction fn;
  Kernel kernel;
  AllocStats stats;
  // The allocation itself, for inspection and the invariant tests: the code in virtual
  // registers just before allocation (vector groups formed), and per virtual register its first
  // architected register (data) or predicate register, -1 when unused or spilled.
  PtxFunction virt;
  std::vector<int> vreg_arch;
};

CompiledKernel CompileKernel(const PtxModule& module, const std::string& entry,
                             const AllocOptions& opt = {});

// The register liveness view used by the allocator and its tests: for every instruction of
// `fn` (virtual registers), the data vregs read and written. Exposed for the invariant tests.
struct VregInterval {
  int start = -1, end = -1;  // positions (2i read, 2i+1 write); start == -1 when unused
};
std::vector<VregInterval> LiveIntervals(const PtxFunction& fn);

// OpClass and long-latency flag of a decoded instruction. Long latency follows Gebhart Table I:
// global and local memory (400 cycles, DRAM) and texture; shared memory and the SFU (20 cycles)
// are short. Loads and atomics that return a value are long latency; stores produce no result.
OpClass ClassOf(const PtxInst& in);
bool LongLatency(const PtxInst& in);

}  // namespace gpurf::sim::ptx
