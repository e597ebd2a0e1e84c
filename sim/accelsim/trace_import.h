// Accel-Sim trace import: kernelslist.g and kernel-N.traceg (NVBit tracer versions 3, 4 and 5)
// -> sim::Kernel (static code rebuilt from the PCs, CFG) and sim::KernelRun (per-warp dynamic
// streams with active masks, no register values).
//
// Trace format (one .traceg per kernel launch):
//   -kernel name = NAME            header lines "-key = value" (grid dim, block dim, nregs,
//   -grid dim = (x,y,z)            binary version, accelsim tracer version, enable lineinfo, ...)
//   #traces format = ...           comment lines start with '#'
//   #BEGIN_TB / thread block = x,y,z / warp = N / insts = M / M instruction lines / #END_TB
// Instruction line: [line_num] PC mask dest_num [Rd...] opcode src_num [Rs...] mem_width
//   [address_format addresses] [immediate (version 5)]. PC and mask in hex; the mask is the
//   active mask ANDed with the guard predicate. Address formats: 0 = one hex address per active
//   lane, 1 = hex base and decimal stride, 2 = hex base and one decimal delta per active lane
//   after the first.
//
// What the trace does not say is inferred and documented here:
// - Register widths: the tracer names the first register of each operand; .64/.128 modifiers,
//   64-bit types and extended addresses decide how many registers it spans (sass.h). RZ (R255)
//   is not a register and is dropped.
// - Branch targets: from the PC that follows each executed branch in a warp's stream, when the
//   masks show the warp did not switch to another divergent path (the next mask overlaps and is
//   a subset or superset of the branch's mask). A branch seen both taken and falling through,
//   or splitting its mask, is conditional. A branch never seen taken jumps to the next
//   instruction. Several targets (BRX) go to Instruction::extra_targets. CALL falls through to
//   its return site; RET leaves the kernel.
// - Guards: traces do not name guard predicates. An instruction is marked guarded
//   (guard = kUnknownGuard) when a warp executed it with an empty mask, or with fewer lanes
//   than the sequential non-branch instruction before or after it. An exit followed by its
//   fall-through PC in a warp's stream is guarded too (its other lanes went on).
// - Long latency: loads and atomics with a result from global, local, generic or texture memory.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/kernel/kernel.h"

namespace gpurf::sim::accelsim {

// Guard value for instructions the importer knows are predicated without knowing the predicate.
constexpr uint8_t kUnknownGuard = 0xfe;

struct TraceHeader {
  std::string kernel_name;
  int kernel_id = 0;
  Dim3 grid, block;
  uint32_t shmem = 0;
  int nregs = 0;
  int binary_version = 0;  // SM version the code was compiled for: 61, 70, 86, 90...
  int tracer_version = 0;
  bool lineinfo = false;
};

struct ImportedKernel {
  TraceHeader header;
  std::unique_ptr<Kernel> kernel;  // heap-allocated so run.kernel stays valid when moved
  KernelRun run;                   // run.kernel == kernel.get()
  std::string file;
  uint64_t bytes = 0;        // size of the trace text
  uint64_t trace_lines = 0;  // instruction lines read
};

// A host-to-device copy listed in kernelslist.g.
struct MemcpyCommand {
  uint64_t address = 0;
  uint64_t bytes = 0;
};

struct TraceWorkload {
  std::string list_file;  // the kernelslist.g read
  std::vector<MemcpyCommand> memcpys;
  std::vector<ImportedKernel> kernels;  // in launch order
  uint64_t bytes = 0;                   // total size of the kernel traces
};

// Reads a trace: a folder holding kernelslist.g, a kernelslist.g file, or one .traceg file.
// Throws InputError (file:line:column, field, value, what is allowed) on any malformed input,
// including a missing or unreadable file.
TraceWorkload ImportTrace(const std::string& path);

// One kernel trace from a file, or from text already in memory (`file_name` for messages).
ImportedKernel ImportKernelTrace(const std::string& traceg_path);
ImportedKernel ImportKernelTraceText(std::string_view text, const std::string& file_name);

// A kernelslist.g already in memory; `list_path` names it in messages and its folder is where
// the listed traces are. Each listed trace is read, in order, by `load_kernel(path, named_at,
// listed_as)`: the path resolved against that folder, where the list names it, and the line as
// written. ImportTrace passes a loader that reads the file (a missing one is an InputError at
// `named_at`).
using KernelTraceLoader = std::function<ImportedKernel(
    const std::string& path, const SourceLoc& named_at, const std::string& listed_as)>;
TraceWorkload ImportKernelsListText(std::string_view text, const std::string& list_path,
                                    const KernelTraceLoader& load_kernel);

}  // namespace gpurf::sim::accelsim
