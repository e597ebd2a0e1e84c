// Functional execution of a compiled PTX kernel (sim/ptx/regalloc.h) over a grid: per-thread
// architected registers, a SIMT reconvergence stack per warp, global/shared/local/parameter
// memory, barriers and atomics. Produces a KernelRun whose per-warp streams carry the active
// mask of every executed instruction and the 32-bit values each active lane read and wrote.
//
// Semantics and scheduling:
//   - CTAs run one after another in linear order; inside a CTA, warps run in order, each until
//     it reaches bar.sync or exits; when every live warp waits at the barrier, all are released.
//     The result is deterministic (atomics are applied in this order).
//   - Divergence: a conditional branch whose lanes disagree turns the top stack entry into the
//     reconvergence entry (pc = the immediate post-dominator, Kernel::ReconvergencePoint), then
//     pushes the not-taken and the taken paths (taken on top) with that reconvergence pc; an
//     entry pops when its pc reaches its reconvergence pc. Exiting lanes leave every entry.
//   - Stream conventions: an instruction whose guard is false in every active lane is still
//     issued and recorded with active_mask 0; a branch is recorded with the lanes that evaluated
//     it (the warp's active mask before the branch), other instructions with the lanes whose
//     guard held. Values: each source register then each destination register, 32 lanes each,
//     inactive lanes 0 (sim/kernel/kernel.h DynInst).
//   - Approximate SFU instructions (ex2/lg2/rsqrt/sin/cos/rcp .approx) are computed with the
//     host's correctly rounded functions; hardware differs in the last bits.
//   - Errors in the kernel or the launch (out-of-range or misaligned address, a runaway loop,
//     more than 1024 threads per CTA, a barrier inside divergent code) raise InputError at the
//     instruction's PTX location.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/kernel/kernel.h"
#include "sim/ptx/regalloc.h"

namespace gpurf::sim {

// Global memory: one arena of buffers at kGlobalBase upwards, 256-byte aligned.
class DeviceMemory {
 public:
  static constexpr uint64_t kGlobalBase = 0x100000000ull;  // above 4 GiB: 32-bit truncation shows

  // Reserves `bytes` (zero-filled) and returns the device address.
  uint64_t Allocate(uint64_t bytes);
  // Host view of [addr, addr + bytes), or nullptr when it is not inside the arena.
  uint8_t* At(uint64_t addr, uint64_t bytes) {
    const uint64_t off = addr - kGlobalBase;
    if (addr < kGlobalBase || off > data_.size() || bytes > data_.size() - off)
      return nullptr;
    return data_.data() + off;
  }
  uint64_t size() const { return data_.size(); }

 private:
  std::vector<uint8_t> data_;
};

struct ExecOptions {
  bool record_values = true;
  // A warp that executes more instructions than this is reported as a runaway loop.
  uint64_t max_warp_instructions = 100'000'000;
};

// Generic-address windows of the shared and local state spaces (cvta and generic ld/st).
constexpr uint64_t kSharedWindow = 0x7f0000000000ull;
constexpr uint64_t kLocalWindow = 0x7e0000000000ull;
constexpr uint64_t kWindowSize = 1ull << 32;

// Runs the kernel over grid x block threads. `params` is the parameter buffer laid out as the
// PTX .param list (ptx::Param offsets). The returned run points at ck.kernel.
KernelRun Execute(const ptx::CompiledKernel& ck, Dim3 grid, Dim3 block,
                  const std::vector<uint8_t>& params, DeviceMemory& mem,
                  const ExecOptions& opt = {});

}  // namespace gpurf::sim
