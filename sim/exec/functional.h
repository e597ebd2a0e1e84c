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

// Global memory: buffers at kGlobalBase upwards, 256-byte aligned. Every access must lie inside
// one buffer: the gaps between buffers and the bytes past a buffer's end are out of bounds even
// though the next buffer's storage follows.
class DeviceMemory {
 public:
  static constexpr uint64_t kGlobalBase = 0x100000000ull;  // above 4 GiB: 32-bit truncation shows

  // Reserves `bytes` (zero-filled) and returns the device address; `name` names the buffer in
  // out-of-bounds errors.
  uint64_t Allocate(uint64_t bytes, std::string name = {});
  // Host view of [addr, addr + bytes), or nullptr when it is not inside one buffer.
  uint8_t* At(uint64_t addr, uint64_t bytes) {
    const Region* r = last_ < regions_.size() ? &regions_[last_] : nullptr;
    if (r == nullptr || addr < r->addr || addr - r->addr >= r->bytes) {
      r = Find(addr);
      if (r == nullptr)
        return nullptr;
      last_ = static_cast<size_t>(r - regions_.data());
    }
    if (bytes > r->bytes - (addr - r->addr))
      return nullptr;
    return data_.data() + (addr - kGlobalBase);
  }
  // Which buffer [addr, addr + bytes) overruns, or why it touches none, for error messages:
  // "4 bytes past the end of buffer 'a' (400 bytes at 0x100000000)".
  std::string Describe(uint64_t addr, uint64_t bytes) const;
  uint64_t size() const { return data_.size(); }

 private:
  struct Region {
    uint64_t addr = 0, bytes = 0;
    std::string name;
  };
  // The buffer holding addr, or nullptr.
  const Region* Find(uint64_t addr) const;
  std::vector<Region> regions_;  // ascending addresses
  std::vector<uint8_t> data_;
  size_t last_ = 0;  // the buffer of the previous access
};

struct ExecOptions {
  bool record_values = true;
  // Record the 32 lane addresses of every executed memory instruction (WarpStream::addrs):
  // global accesses the device address, shared/local accesses the byte offset in the CTA's
  // shared memory / the thread's local memory (generic accesses too, once resolved to that
  // space), parameter loads the offset in the parameter buffer; inactive lanes 0.
  bool record_addresses = true;
  // A warp that executes more instructions than this is reported as a runaway loop.
  uint64_t max_warp_instructions = 100'000'000;
  // Memory the run's streams may take (DynInst records, recorded register values and
  // addresses, and the per-warp stream headers): beyond it the run stops with an InputError naming
  // the limit, so a runaway loop or a launch too large to record is a clear error long before the
  // machine runs out of memory. `record_limit_option` is the command-line option that raises it,
  // named in that error.
  uint64_t max_recorded_bytes = kDefaultMaxRecordedBytes;
  std::string record_limit_option = "--max-record-mb";

  static constexpr uint64_t kDefaultMaxRecordedBytes = uint64_t{512} << 20;
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
