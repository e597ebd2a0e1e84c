// Workload launch files: one kernel launch described in YAML (which kernel of which PTX file,
// grid and CTA shape, device buffers and their initial contents, the parameter list, the C++
// reference that computes the expected outputs, and which buffers to compare), and the driver
// that compiles, runs and checks it.
//
//   description: one line
//   kernel: vectorAdd              # .entry name in the PTX file
//   ptx: vectorAdd.ptx             # relative to the launch file
//   grid: [16, 1, 1]               # 1 to 3 values; missing ones are 1
//   block: [256]
//   buffers:                       # device buffers, allocated in this order
//     - {name: a, type: f32, count: 4096, init: {random: {seed: 1, min: -1, max: 1}}}
//     - {name: i, type: u32, count: 4097, init: {sequence: {start: 0, step: 4}}}
//     - {name: c, type: f32, count: 4096}              # init defaults to {constant: 0}
//   params: [a, b, c, 4096]        # one per .param: a buffer name (its address) or a number
//   reference: vectorAdd           # C++ reference computation (sim/workload/reference.h)
//   outputs:                       # buffers compared with the reference after the run
//     - {buffer: c, tolerance: 0}  # |got - expected| <= tolerance * max(1, |expected|)
//
// Buffer types: u8 u16 u32 u64 s8 s16 s32 s64 f32 f64. Random integers are uniform in
// [min, max] (inclusive), random floats in [min, max); the generator is SplitMix64, so contents
// are identical on every machine.
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
  enum Kind : uint8_t { kConstant, kSequence, kRandom };
  Kind kind = kConstant;
  double a = 0;  // constant value, sequence start, or random min
  double b = 0;  // sequence step, or random max
  uint64_t seed = 0;
};

struct BufferSpec {
  std::string name;
  ptx::Type type = ptx::Type::kU32;
  uint64_t count = 0;
  BufferInit init;
  SourceLoc loc;
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

struct LaunchSpec {
  std::string file;  // the launch file
  std::string name;  // workload name: the launch file's folder
  std::string description;
  std::string kernel;
  std::string ptx;  // resolved path
  Dim3 grid, block;
  std::vector<BufferSpec> buffers;
  std::vector<ParamBinding> params;
  std::string reference;
  std::vector<OutputCheck> outputs;
  SourceLoc reference_loc;

  const BufferSpec* Buffer(const std::string& n) const;
};

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

// Initial contents of a buffer.
std::vector<uint8_t> InitialContents(const BufferSpec& b);

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

// Everything a run produced; `run.kernel` points at `compiled.kernel`.
struct WorkloadRun {
  LaunchSpec spec;
  ptx::CompiledKernel compiled;
  KernelRun run;
  HostBuffers final_buffers;  // device contents after the run
  std::vector<OutputResult> outputs;
  double exec_seconds = 0;  // CPU seconds of the functional execution only
  bool passed() const;
};

// Parses the PTX, allocates registers, builds the memory image and the parameter buffer, runs
// the kernel and, with opt.check, compares the outputs with the reference.
std::unique_ptr<WorkloadRun> RunWorkload(const LaunchSpec& spec, const RunOptions& opt = {});

// Workload folders of a corpus directory: every subfolder with a launch.yaml, sorted by name.
std::vector<std::string> ListWorkloads(const std::string& corpus_dir);
// The launch file of workload `name` in `corpus_dir` (InputError naming the known workloads).
std::string WorkloadLaunchPath(const std::string& corpus_dir, const std::string& name);
// The corpus shipped with gpurf: $GPURF_HOME/workloads/corpus, else the source tree's.
std::string DefaultCorpusDir();

}  // namespace gpurf::sim
