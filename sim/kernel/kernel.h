// The one kernel representation shared by both front ends (PTX with functional execution, and
// Accel-Sim SASS traces), the compiler passes and the SM harness.
//
// Static code: a kernel is a vector of instructions in program order. Registers are the
// architected 32-bit registers of one thread after register allocation (R0..R254; 64-bit values
// occupy an aligned pair, 128-bit values an aligned quad); predicate registers live in their own
// namespace. Operand order matters: source operand k is "slot" k (A, B, C) of Gebhart's split L0
// ORF, so a source operand is a register group, never split across slots.
//
// Control flow: basic blocks, a CFG with a virtual exit, and immediate post-dominators, which
// are the reconvergence points of the SIMT stack (both for functional execution and for the
// divergence-aware passes).
//
// Dynamic streams: per warp, the instructions it executed in order with their active masks and,
// when the front end knows them (functional execution), the 32-bit values each active lane read
// and wrote.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/diag.h"

namespace gpurf::sim {

// What kind of unit an instruction uses. The class decides latency (SM timing model), whether
// the instruction runs on the private datapath (ALU) or a shared unit (SFU, memory, texture),
// and the strand rules of the passes.
enum class OpClass : uint8_t {
  kAlu,        // integer/float arithmetic, logic, moves, conversions, compares, selects
  kSfu,        // transcendental and other special-function-unit operations, integer divide
  kConstMem,   // loads from the constant / kernel-parameter space
  kGlobalMem,  // global memory loads, stores and atomics
  kLocalMem,   // thread-local memory loads and stores (spills, local arrays)
  kSharedMem,  // shared memory loads, stores and atomics
  kTexture,    // texture / surface fetches
  kBranch,     // branches, calls, returns (not the final exit)
  kBarrier,    // CTA barriers, memory fences
  kExit,       // thread exit
};
const char* OpClassName(OpClass c);
// True for the units Gebhart calls shared (SFU, memory, texture): their operands are never
// allocated to the L0 ORF.
bool IsSharedUnit(OpClass c);

constexpr uint16_t kMaxRegs = 255;  // architected registers per thread (R0..R254)
constexpr uint8_t kNoPred = 0xff;

// A group of consecutive architected registers forming one operand: count is 1 for 32-bit
// values, 2 for an aligned 64-bit pair, 4 for a 128-bit vector.
struct RegOperand {
  uint16_t first = 0;
  uint8_t count = 1;

  bool operator==(const RegOperand&) const = default;
};

struct Instruction {
  uint64_t pc = 0;     // SASS byte address, or the PTX instruction index
  std::string opcode;  // as written by the front end: "add.s32", "IMAD.WIDE"
  OpClass op_class = OpClass::kAlu;
  std::vector<RegOperand> dsts;    // registers written (results)
  std::vector<RegOperand> srcs;    // registers read, operand slot = index
  std::vector<uint8_t> pred_dsts;  // predicate registers written (setp)
  std::vector<uint8_t> pred_srcs;  // predicate registers read as data (selp), not the guard
  uint8_t guard = kNoPred;         // guard predicate (@p / @!p), kNoPred when unguarded
  bool guard_negated = false;
  bool long_latency = false;  // its results arrive after a long-latency operation
  // A CTA-wide barrier (bar.sync, BAR.SYNC): the warp waits until every live warp of its CTA
  // arrived. Other kBarrier-class instructions (membar/fence, MEMBAR, WARPSYNC) do not wait.
  bool cta_barrier = false;
  bool conditional = false;  // branch that may diverge (guarded, not known uniform)
  int32_t target = -1;       // instruction index of a branch target, -1 otherwise
  uint8_t mem_bytes = 0;     // bytes per thread of a memory access, 0 otherwise
  bool mem_write = false;    // a memory access that writes (stores, atomics, reductions)
  bool mem_atomic = false;   // a read-modify-write (atom, red)
  uint8_t cache_op = 0;      // load/store cache operator (sim/mem/memory.h CacheOp), 0 default
  SourceLoc loc;             // where the front end read it (PTX line or trace line)
  // Further targets of a branch with several (an indirect BRX/JMX seen jumping to different
  // places in a trace); empty for ordinary branches.
  std::vector<int32_t> extra_targets;

  // Number of 32-bit registers read / written, counting every register of a group.
  int NumSrcRegs() const;
  int NumDstRegs() const;
};

struct BasicBlock {
  uint32_t first = 0;           // index of the first instruction
  uint32_t end = 0;             // one past the last instruction
  std::vector<uint32_t> succs;  // successor blocks (kExitBlock when the block exits)
  std::vector<uint32_t> preds;
  uint32_t ipdom = 0;  // immediate post-dominator block, kExitBlock for the virtual exit
};

// Index of the virtual exit node in successor and post-dominator fields.
constexpr uint32_t kExitBlock = 0xffffffffu;

struct Kernel {
  std::string name;
  std::string source;  // file it came from
  std::vector<Instruction> code;
  int regs_per_thread = 0;    // architected 32-bit registers per thread (as ptxas reports)
  int pred_regs = 0;          // predicate registers per thread
  uint32_t shared_bytes = 0;  // static shared memory per CTA
  uint32_t local_bytes = 0;   // local memory per thread (arrays and spills)

  // Derived by BuildCfg() from `code`.
  std::vector<BasicBlock> blocks;
  std::vector<uint32_t> block_of;  // instruction index -> block index

  // Splits `code` into basic blocks (leaders: the first instruction, branch targets, and the
  // instruction after a branch or exit), links successors (fall-through, target; an exit or an
  // unconditional branch has no fall-through), and computes immediate post-dominators with a
  // virtual exit node (Cooper, Harvey & Kennedy's iterative algorithm on the reverse CFG).
  // Throws InputError when a branch target is out of range.
  void BuildCfg();

  // The instruction index where threads that diverged at branch `inst` reconverge: the first
  // instruction of the branch block's immediate post-dominator, or code.size() for the exit.
  uint32_t ReconvergencePoint(uint32_t inst) const;
};

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  // x * y * z, saturating at UINT64_MAX: three 32-bit dimensions can overflow 64 bits, and a
  // wrapped product would let an absurd shape through a range check.
  uint64_t count() const {
    uint64_t r = 0;
    if (__builtin_mul_overflow(uint64_t{x} * y, uint64_t{z}, &r))
      return UINT64_MAX;
    return r;
  }
  bool operator==(const Dim3&) const = default;
};

// One executed warp instruction.
struct DynInst {
  uint32_t inst = 0;         // index into Kernel::code
  uint32_t active_mask = 0;  // lanes that executed it (guard already applied)
  // Offset into WarpStream::values of this instruction's values when the stream has them:
  // for each source register (operand order, registers of a group in order) 32 lane values,
  // then the same for each destination register. Inactive lanes hold 0.
  uint32_t values = 0;
  // Offset into WarpStream::addrs of this instruction's 32 lane addresses when the stream has
  // them and the instruction accesses memory (OpClass kGlobalMem, kLocalMem, kSharedMem,
  // kConstMem, kTexture): the byte address each lane accessed, in the address space of the
  // instruction's class (global: the device address; shared: the offset in the CTA's shared
  // memory; local: the offset in the thread's local memory; const: the offset in the constant
  // bank), inactive lanes 0. Other instructions: 0 (unused).
  uint32_t addrs = 0;
};

struct WarpStream {
  uint32_t cta = 0;  // linear CTA id
  uint32_t warp_in_cta = 0;
  std::vector<DynInst> insts;
  bool has_values = false;
  std::vector<uint32_t> values;
  // Per-lane memory addresses of the memory instructions (DynInst::addrs), when the front end
  // knows them (functional execution, Accel-Sim traces).
  bool has_addrs = false;
  std::vector<uint64_t> addrs;
  // Generic accesses (class kGlobalMem) whose every active lane's address fell in the shared or
  // the local window: the space they resolved to, by their first lane address record
  // (DynInst::addrs / 32); their addrs then hold offsets in that space. Sorted by record, so a
  // stream without generic accesses to those windows has none.
  struct ResolvedGeneric {
    uint32_t record = 0;                  // DynInst::addrs / 32
    OpClass space = OpClass::kGlobalMem;  // kSharedMem or kLocalMem
  };
  std::vector<ResolvedGeneric> resolved;
  // The 32 lane addresses of memory instruction `d`, or nullptr without addresses.
  const uint64_t* Addresses(const DynInst& d) const {
    return has_addrs ? addrs.data() + d.addrs : nullptr;
  }
  // The state space memory instruction `d` accessed: its class `c`, or for a generic access
  // resolved to the shared or the local window, that space's class.
  OpClass SpaceOf(const DynInst& d, OpClass c) const;
};

// The dynamic side of one kernel launch: what every warp executed.
struct KernelRun {
  const Kernel* kernel = nullptr;
  Dim3 grid, block;
  std::vector<WarpStream> warps;  // ordered by (cta, warp_in_cta)

  uint64_t WarpInstructions() const;
  uint64_t ThreadInstructions() const;  // sum of active lanes
};

}  // namespace gpurf::sim
