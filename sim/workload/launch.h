// Workload launch files: kernel launches described in YAML (which kernels of which PTX file,
// grid and CTA shapes, device buffers and their initial contents, the parameter lists, the C++
// reference that computes the expected outputs, and which buffers to compare or report), and the
// driver that compiles, runs and checks them.
//
//   description: one line
//   kernel: vectorAdd              # .entry name in the PTX file
//   ptx: vectorAdd.ptx             # relative to the launch file
//   grid: [16, 1, 1]               # 1 to 3 values; missing ones are 1
//   block: [256]
//   dynamic_shared_bytes: 0        # extern .shared memory per CTA (default 0)
//   buffers:                       # device buffers, allocated in this order
//     - {name: a, type: f32, count: 4096, init: {random: {seed: 1, min: -1, max: 1}}}
//     - {name: i, type: u32, count: 4097, init: {sequence: {start: 0, step: 4}}}
//     - {name: m, type: f32, shape: [64, 64]}         # 2D/3D: row-major, count = product
//     - {name: d, type: u8, count: 100, init: {file: d.bin}}  # raw little-endian elements
//     - {name: c, type: f32, count: 4096}              # init defaults to {constant: 0}
//   params: [a, b, c, 4096]        # one per .param: a buffer name (its address) or a number
//   reference: vectorAdd           # C++ reference computation (sim/workload/reference.h)
//   outputs:                       # buffers compared with the reference after the run (without
//     - {buffer: c, tolerance: 0}  # a reference: the buffers reported and dumped)
//                                  # |got - expected| <= tolerance * max(1, |expected|)
//
// Several kernels in sequence over the same buffers (iterative algorithms): instead of kernel,
// grid, block, params and dynamic_shared_bytes at the top, a `launches:` list
//
//   launches:
//     - {kernel: init, grid: [4], block: [128], params: [dist, 512]}
//     - {kernel: step, grid: [4], block: [128], params: [dist, 512], repeat: 8}
//
// runs each entry `repeat` times (default 1) in order; buffers keep their contents from one
// launch to the next. The top-level kernel/grid/block/params of LaunchSpec mirror the first
// launch (what a C++ reference reads).
//
// Buffer types: u8 u16 u32 u64 s8 s16 s32 s64 f32 f64. Random integers are uniform in
// [min, max] (inclusive), random floats in [min, max); the generator is SplitMix64, so contents
// are identical on every machine. A file init must hold exactly count x element size bytes.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "sim/exec/functional.h"
#include "sim/kernel/kernel.h"
#include "sim/ptx/ptx_ir.h"
#include "sim/ptx/regalloc.h"

namespace gpurf::sim {

struct BufferInit {
  enum Kind : uint8_t { kConstant, kSequence, kRandom, kFile };  // kFile: BufferSpec::file
  Kind kind = kConstant;
  double a = 0;  // constant value, sequence start, or random min
  double b = 0;  // sequence step, or random max
  uint64_t seed = 0;
};

struct BufferSpec {
  std::string name;
  ptx::Type type = ptx::Type::kU32;
  uint64_t count = 0;
  std::vector<uint64_t> shape;  // from `shape:` (row-major, last index fastest); empty: 1-D
  BufferInit init;
  SourceLoc loc;
  // init {file: ...}: the data file resolved against the launch file's folder, the path as
  // written, and where it is written.
  std::string file, file_text;
  SourceLoc file_loc;
  uint64_t bytes() const { return count * static_cast<uint64_t>(ptx::TypeBits(type) / 8); }
};

struct ParamBinding {
  bool is_buffer = false;
  std::string buffer;  // when is_buffer
  std::string text;    // the number as written
  SourceLoc loc;
};

struct OutputCheck {
  std::string buffer;
  double tolerance = 0;
  SourceLoc loc;
};

// One entry of the launch sequence.
struct LaunchStep {
  std::string kernel;
  Dim3 grid, block;
  std::vector<ParamBinding> params;
  uint32_t dynamic_shared_bytes = 0;  // extern .shared bytes per CTA
  uint32_t repeat = 1;
  SourceLoc loc;
};

struct LaunchSpec {
  std::string file;  // the launch file
  std::string name;  // workload name: the launch file's folder
  std::string description;
  // The first launch (kept at the top level for the C++ references and single-kernel users).
  std::string kernel;
  std::string ptx;  // resolved path
  Dim3 grid, block;
  std::vector<BufferSpec> buffers;
  std::vector<ParamBinding> params;
  std::vector<LaunchStep> launches;  // at least one; the single-kernel form gives exactly one
  std::string reference;
  std::vector<OutputCheck> outputs;
  SourceLoc reference_loc;

  const BufferSpec* Buffer(const std::string& n) const;
  // Kernel launches executed, counting repeats.
  uint64_t ExecutedLaunches() const;
};

// The bytes of shared memory a CTA of `kernel` gets with `dynamic_bytes` of extern .shared
// memory: the static arrays, rounded up to 16 bytes, then the dynamic ones (0 dynamic bytes:
// the static size unchanged).
uint32_t SharedBytesWithDynamic(uint32_t static_bytes, uint32_t dynamic_bytes);

// Reads and validates a launch file (InputError with file:line:column on any problem).
LaunchSpec LoadLaunch(const std::string& path);
// Same, from the launch file's text already in memory: `path` names it in messages and its
// folder is where the `ptx:` file is looked up (it must exist).
LaunchSpec LoadLaunchFromString(const std::string& text, const std::string& path);

// Typed host copies of the buffers of a launch.
class HostBuffers {
 public:
  struct Buf {
    ptx::Type type;
    std::vector<uint8_t> bytes;
  };
  void Add(const std::string& name, ptx::Type type, std::vector<uint8_t> bytes);
  const Buf& Get(const std::string& name) const;
  Buf& Get(const std::string& name);
  template <typename T>
  std::span<T> As(const std::string& name) {
    Buf& b = Get(name);
    CheckElement(name, b.type, sizeof(T), std::is_floating_point_v<T>);
    return {reinterpret_cast<T*>(b.bytes.data()), b.bytes.size() / sizeof(T)};
  }
  const std::map<std::string, Buf>& all() const { return bufs_; }

 private:
  static void CheckElement(const std::string& name, ptx::Type t, size_t size, bool is_float);
  std::map<std::string, Buf> bufs_;
};

// Initial contents of a buffer (a file init that no longer has the right size is an
// InputError at the `file:` key).
std::vector<uint8_t> InitialContents(const BufferSpec& b);
// Element i of a buffer's bytes as a double (integers exactly up to 2^53).
double ElementValue(const std::vector<uint8_t>& bytes, ptx::Type t, uint64_t i);
// An element as text: floats with 9 significant digits, integers exactly.
std::string ElementText(const std::vector<uint8_t>& bytes, ptx::Type t, uint64_t i);

struct OutputResult {
  std::string buffer;
  uint64_t elements = 0;
  uint64_t mismatches = 0;
  double max_error = 0;        // largest |got - expected| / max(1, |expected|)
  std::string first_mismatch;  // "c[17]: got 1.5, expected 2.5" when mismatches > 0
};

struct RunOptions {
  ptx::AllocOptions alloc;
  ExecOptions exec;
  bool check = true;  // run the C++ reference and compare the outputs
};

// One executed kernel launch of a workload.
struct LaunchRun {
  std::string label;  // "" for a workload of one launch, else "#1", "#2", ... (execution order)
  size_t step = 0;    // index into LaunchSpec::launches
  uint32_t iteration = 0;  // 0 .. repeat - 1
  // The kernel as launched: its shared_bytes include the launch's dynamic shared memory.
  // Shared by the launches of one kernel with the same dynamic size.
  std::shared_ptr<const ptx::CompiledKernel> compiled;
  KernelRun run;  // run.kernel points at compiled->kernel
  double exec_seconds = 0;
};

// Everything a run produced. `compiled` and `run` are the first launch's (single-kernel
// workloads have only that one); `launches` holds every executed launch in order.
struct WorkloadRun {
  explicit WorkloadRun(std::vector<std::unique_ptr<LaunchRun>> runs);
  WorkloadRun(const WorkloadRun&) = delete;
  WorkloadRun& operator=(const WorkloadRun&) = delete;

  LaunchSpec spec;
  std::vector<std::unique_ptr<LaunchRun>> launches;
  const ptx::CompiledKernel& compiled;
  const KernelRun& run;
  HostBuffers final_buffers;  // device contents after the last launch
  std::vector<OutputResult> outputs;
  double exec_seconds = 0;  // CPU seconds of the functional execution only (all launches)
  bool passed() const;
};

// Parses the PTX, allocates registers, builds the memory image, then per launch the parameter
// buffer, runs the kernels in order and, with opt.check, compares the outputs with the
// reference. opt.exec.max_recorded_bytes bounds the recording of all launches together.
std::unique_ptr<WorkloadRun> RunWorkload(const LaunchSpec& spec, const RunOptions& opt = {});

// Workload folders of a corpus directory: every subfolder with a launch.yaml, sorted by name.
std::vector<std::string> ListWorkloads(const std::string& corpus_dir);
// The launch file of workload `name` in `corpus_dir` (InputError naming the known workloads).
std::string WorkloadLaunchPath(const std::string& corpus_dir, const std::string& name);
// The corpus shipped with gpurf: $GPURF_HOME/workloads/corpus, else the source tree's.
std::string DefaultCorpusDir();

}  // namespace gpurf::sim
