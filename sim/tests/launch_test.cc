// Launch-file additions (issue 14): buffers by shape, file init, dynamic shared memory, several
// kernels in sequence (`launches:` with repeat), and the occupancy calculator. Every new key is
// parsed into the spec, every bad value is an InputError at file:line:column naming the field;
// a multi-kernel workload (sim/tests/data/launch/multi, PTX from steps.cu) runs end to end with
// buffers kept across launches; dynamic shared memory extends the CTA's shared memory.

#include "sim/workload/launch.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "base/diag.h"
#include "sim/ptx/ptx_parser.h"
#include "sim/workload/occupancy.h"

namespace gpurf::sim {
namespace {

namespace fs = std::filesystem;

const fs::path kData = GPURF_SOURCE_DIR "/sim/tests/data/launch";

class LaunchFiles : public testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        fs::temp_directory_path() / ("gpurf-launch-test-" + std::to_string(::getpid()) + "-" +
                                     testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "w");
    for (const char* f : {"steps.ptx", "add.bin"})
      fs::copy_file(kData / "multi" / f, dir_ / "w" / f);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Write(const std::string& text) {
    const fs::path p = dir_ / "w" / "launch.yaml";
    std::ofstream(p) << text;
    return p.string();
  }

  void ExpectError(const std::string& text, int line, int col,
                   const std::vector<std::string>& parts) {
    const std::string path = Write(text);
    try {
      RunWorkload(LoadLaunch(path));
      ADD_FAILURE() << "accepted:\n" << text;
    } catch (const InputError& e) {
      const std::string msg = e.what();
      EXPECT_EQ(msg.rfind(fmt::format("{}:{}:{}: error:", path, line, col), 0), 0u) << msg;
      for (const auto& p : parts)
        EXPECT_NE(msg.find(p), std::string::npos) << "missing '" << p << "' in " << msg;
    }
  }

  fs::path dir_;
};

int32_t S32(const std::vector<uint8_t>& b, size_t i) {
  int32_t v;
  std::memcpy(&v, b.data() + 4 * i, 4);
  return v;
}

TEST_F(LaunchFiles, NewKeysAreParsed) {
  const LaunchSpec s = LoadLaunch(Write(R"(ptx: steps.ptx
buffers:
  - {name: x, type: s32, count: 100}
  - {name: add, type: s32, shape: [10, 10], init: {file: add.bin}}
  - {name: m, type: f32, shape: [2, 3, 4]}
launches:
  - {kernel: init, grid: [2], block: [64], params: [x, 100]}
  - {kernel: step, grid: 2, block: 64, params: [x, add, 100], repeat: 3, dynamic_shared_bytes: 64}
)"));
  ASSERT_EQ(s.launches.size(), 2u);
  EXPECT_EQ(s.launches[0].kernel, "init");
  EXPECT_EQ(s.launches[0].repeat, 1u);
  EXPECT_EQ(s.launches[0].dynamic_shared_bytes, 0u);
  EXPECT_EQ(s.launches[1].kernel, "step");
  EXPECT_EQ(s.launches[1].repeat, 3u);
  EXPECT_EQ(s.launches[1].dynamic_shared_bytes, 64u);
  EXPECT_EQ(s.launches[1].params.size(), 3u);
  EXPECT_EQ(s.ExecutedLaunches(), 4u);
  // The top level mirrors the first launch (what the C++ references read).
  EXPECT_EQ(s.kernel, "init");
  EXPECT_EQ(s.grid, (Dim3{2, 1, 1}));
  EXPECT_EQ(s.params.size(), 2u);
  ASSERT_EQ(s.buffers.size(), 3u);
  EXPECT_EQ(s.buffers[1].count, 100u);
  EXPECT_EQ(s.buffers[1].shape, (std::vector<uint64_t>{10, 10}));
  EXPECT_EQ(s.buffers[1].init.kind, BufferInit::kFile);
  EXPECT_EQ(s.buffers[1].file, (dir_ / "w" / "add.bin").string());
  EXPECT_EQ(s.buffers[2].count, 24u);
  EXPECT_EQ(s.buffers[2].bytes(), 96u);
  // The file's bytes are the buffer's initial contents.
  const std::vector<uint8_t> add = InitialContents(s.buffers[1]);
  ASSERT_EQ(add.size(), 400u);
  EXPECT_EQ(S32(add, 0), 0);
  EXPECT_EQ(S32(add, 4), 1);
  EXPECT_EQ(S32(add, 98), 2);

  // The single-kernel form: one launch, with its dynamic shared memory.
  const LaunchSpec one = LoadLaunch(
      Write("kernel: init\nptx: steps.ptx\ngrid: 1\nblock: 32\ndynamic_shared_bytes: 256\n"
            "buffers:\n  - {name: x, type: s32, count: 32}\nparams: [x, 32]\n"));
  ASSERT_EQ(one.launches.size(), 1u);
  EXPECT_EQ(one.launches[0].dynamic_shared_bytes, 256u);
  EXPECT_EQ(one.launches[0].kernel, "init");
  EXPECT_EQ(one.ExecutedLaunches(), 1u);
}

const std::string kBufs = "ptx: steps.ptx\nbuffers:\n  - {name: x, type: s32, count: 100}\n";

TEST_F(LaunchFiles, BadNewValuesNameLineColumnAndField) {
  // Buffers.
  ExpectError(
      "kernel: init\nptx: steps.ptx\ngrid: 1\nblock: 32\nbuffers:\n"
      "  - {name: x, type: s32, count: 4, shape: [2, 2]}\nparams: [x, 4]\n",
      6, 43, {"buffers[0].shape", "give count or shape, not both"});
  ExpectError(
      "kernel: init\nptx: steps.ptx\ngrid: 1\nblock: 32\nbuffers:\n"
      "  - {name: x, type: s32, shape: [2, 0]}\nparams: [x, 4]\n",
      6, 37, {"buffers[0].shape[1]", "out of range"});
  ExpectError(
      "kernel: init\nptx: steps.ptx\ngrid: 1\nblock: 32\nbuffers:\n"
      "  - {name: x, type: s32, shape: [1, 2, 3, 4]}\nparams: [x, 4]\n",
      6, 33, {"buffers[0].shape", "1 to 3 dimensions"});
  ExpectError(
      "kernel: init\nptx: steps.ptx\ngrid: 1\nblock: 32\nbuffers:\n"
      "  - {name: x, type: s32, shape: [65536, 65536]}\nparams: [x, 4]\n",
      6, 33, {"buffers[0].shape", "a product of at most 67108864"});
  ExpectError(
      "kernel: init\nptx: steps.ptx\ngrid: 1\nblock: 32\nbuffers:\n"
      "  - {name: x, type: s32}\nparams: [x, 4]\n",
      6, 5, {"buffers[0]", "name, type and count (or shape)"});
  // File init: missing, wrong size, a folder, mixed with another init.
  ExpectError(
      "kernel: init\nptx: steps.ptx\ngrid: 1\nblock: 32\nbuffers:\n"
      "  - {name: x, type: s32, count: 100, init: {file: nope.bin}}\nparams: [x, 4]\n",
      6, 51, {"buffers[0].init.file", "nope.bin", "data file not found"});
  ExpectError(
      "kernel: init\nptx: steps.ptx\ngrid: 1\nblock: 32\nbuffers:\n"
      "  - {name: x, type: s32, count: 99, init: {file: add.bin}}\nparams: [x, 4]\n",
      6, 50, {"buffers[0].init.file", "the file holds 400 bytes", "exactly 396 bytes"});
  ExpectError(
      "kernel: init\nptx: steps.ptx\ngrid: 1\nblock: 32\nbuffers:\n"
      "  - {name: x, type: u8, count: 100, init: {file: .}}\nparams: [x, 4]\n",
      6, 50, {"buffers[0].init.file", "a folder"});
  ExpectError(
      "kernel: init\nptx: steps.ptx\ngrid: 1\nblock: 32\nbuffers:\n"
      "  - {name: x, type: s32, count: 100, init: {file: add.bin, constant: 1}}\n"
      "params: [x, 4]\n",
      6, 60, {"buffers[0].init.constant", "unknown key"});
  // Dynamic shared memory and repeat.
  ExpectError(
      "kernel: init\nptx: steps.ptx\ngrid: 1\nblock: 32\ndynamic_shared_bytes: -4\n"
      "params: [0, 4]\n",
      5, 23, {"dynamic_shared_bytes", "non-negative integer"});
  ExpectError(
      "kernel: init\nptx: steps.ptx\ngrid: 1\nblock: 32\ndynamic_shared_bytes: 99999999\n"
      "params: [0, 4]\n",
      5, 23, {"dynamic_shared_bytes", "out of range", "0..16777216"});
  ExpectError("kernel: init\nptx: steps.ptx\ngrid: 1\nblock: 32\nrepeat: 2\nparams: [0, 4]\n", 5, 1,
              {"unknown key", "repeat"});
  ExpectError(kBufs +
                  "launches:\n  - {kernel: init, grid: 1, block: 32, params: [x, 4], "
                  "repeat: 0}\n",
              5, 64, {"launches[0].repeat", "out of range", "1..100000"});
  // The launch list.
  ExpectError(kBufs + "launches: []\n", 4, 11, {"launches", "non-empty list"});
  ExpectError(kBufs + "launches: {kernel: init}\n", 4, 11, {"launches", "non-empty list"});
  ExpectError(kBufs + "launches:\n  - {kernel: init, grid: 1, params: [x]}\n", 5, 5,
              {"launches[0].block", "missing required key"});
  ExpectError(kBufs +
                  "launches:\n  - {kernel: init, grid: 1, block: 32, params: [x, 4], "
                  "blocks: 2}\n",
              5, 56, {"launches[0].blocks", "unknown key (did you mean 'block'?)"});
  ExpectError(kBufs + "grid: 1\nlaunches:\n  - {kernel: init, grid: 1, block: 32, params: [x]}\n",
              4, 7, {"grid", "each launch gives its own"});
  ExpectError(kBufs +
                  "launches:\n  - {kernel: init, grid: 1, block: 32, params: [x, 4]}\n"
                  "  - {kernel: step, grid: [1, 0], block: 32, params: [x, y, 4]}\n",
              6, 30, {"launches[1].grid[1]", "out of range"});
  ExpectError(kBufs +
                  "launches:\n  - {kernel: init, grid: 1, block: 32, params: [x, 4]}\n"
                  "  - {kernel: step, grid: 1, block: 32, params: [x, y, 4]}\n",
              6, 52, {"launches[1].params[1]", "neither a number nor a buffer name"});
  ExpectError(kBufs + "launches:\n  - {kernel: init, grid: 1, block: 2048, params: [x, 4]}\n", 5,
              36, {"launches[0].block", "too many threads per CTA"});
  // Checked when the kernels are known: the parameter count, and the kernel name.
  ExpectError(kBufs +
                  "launches:\n  - {kernel: init, grid: 1, block: 32, params: [x, 4]}\n"
                  "  - {kernel: step, grid: 1, block: 32, params: [x, 4]}\n",
              6, 49, {"launches[1].params", "kernel step declares 3 parameters"});
  ExpectError(kBufs +
                  "launches:\n  - {kernel: init, grid: 1, block: 32, params: [x, 4]}\n"
                  "  - {kernel: stop, grid: 1, block: 32, params: [x, 4]}\n",
              6, 5, {"kernel", "stop", "init, step, fill2d"});
  // Without a reference, outputs only name the buffers to report: a tolerance is an error.
  ExpectError(
      "kernel: init\nptx: steps.ptx\ngrid: 1\nblock: 32\nbuffers:\n"
      "  - {name: x, type: s32, count: 100}\nparams: [x, 4]\noutputs:\n"
      "  - {buffer: x, tolerance: 0.1}\n",
      9, 3, {"outputs to check need a reference"});
  EXPECT_NO_THROW(
      LoadLaunch(Write("kernel: init\nptx: steps.ptx\ngrid: 1\nblock: 32\nbuffers:\n"
                       "  - {name: x, type: s32, count: 100}\nparams: [x, 4]\n"
                       "outputs:\n  - {buffer: x}\n")));
}

TEST_F(LaunchFiles, SeveralKernelsRunInSequenceOverTheSameBuffers) {
  const LaunchSpec s = LoadLaunch((kData / "multi" / "launch.yaml").string());
  const auto r = RunWorkload(s);
  ASSERT_EQ(r->launches.size(), 5u);  // init, step x 3, fill2d
  const std::vector<std::string> kernels = {"init", "step", "step", "step", "fill2d"};
  for (size_t i = 0; i < r->launches.size(); ++i) {
    const LaunchRun& l = *r->launches[i];
    EXPECT_EQ(l.label, fmt::format("#{}", i + 1));
    EXPECT_EQ(l.compiled->kernel.name, kernels[i]);
    EXPECT_EQ(l.run.kernel, &l.compiled->kernel);
    EXPECT_GT(l.run.ThreadInstructions(), 0u);
  }
  EXPECT_EQ(r->launches[2]->iteration, 1u);
  EXPECT_EQ(r->launches[2]->step, 1u);
  // The three step launches share one compiled kernel.
  EXPECT_EQ(r->launches[1]->compiled, r->launches[3]->compiled);
  // compiled/run are the first launch's.
  EXPECT_EQ(&r->compiled, r->launches[0]->compiled.get());
  EXPECT_EQ(&r->run, &r->launches[0]->run);
  EXPECT_EQ(r->run.warps.size(), 4u);  // 2 CTAs of 64 threads
  EXPECT_EQ(r->launches[4]->run.warps.size(), 1u);
  // x = i after init; three times x = 2x + add gives 8i + 7 add[i] (add[i] = i % 3 from add.bin).
  const auto& x = r->final_buffers.Get("x").bytes;
  for (int i = 0; i < 100; ++i)
    ASSERT_EQ(S32(x, static_cast<size_t>(i)), 8 * i + 7 * (i % 3)) << i;
  // The 2D fill: m[r][c] = 100 r + c over a [3, 5] buffer.
  const auto& m = r->final_buffers.Get("m").bytes;
  ASSERT_EQ(m.size(), 60u);
  for (int row = 0; row < 3; ++row) {
    for (int c = 0; c < 5; ++c) {
      float v;
      std::memcpy(&v, m.data() + 4 * (row * 5 + c), 4);
      EXPECT_EQ(v, static_cast<float>(100 * row + c));
    }
  }
  EXPECT_TRUE(r->passed());  // no reference: nothing can fail
  EXPECT_TRUE(r->outputs.empty());
}

TEST_F(LaunchFiles, SingleLaunchWorkloadsHaveOneUnlabelledLaunch) {
  const auto r =
      RunWorkload(LoadLaunch(Write("kernel: init\nptx: steps.ptx\ngrid: 1\nblock: 32\nbuffers:\n"
                                   "  - {name: x, type: s32, count: 32}\nparams: [x, 32]\n")));
  ASSERT_EQ(r->launches.size(), 1u);
  EXPECT_EQ(r->launches[0]->label, "");
  // One launch repeated is several executed launches: labelled.
  const auto rep = RunWorkload(
      LoadLaunch(Write(kBufs + "launches:\n  - {kernel: init, grid: 1, block: 32, params: [x, 32], "
                               "repeat: 2}\n")));
  ASSERT_EQ(rep->launches.size(), 2u);
  EXPECT_EQ(rep->launches[1]->label, "#2");
}

TEST_F(LaunchFiles, FileInitThatChangedAfterLoadingIsAnInputError) {
  const std::string path = Write(
      "kernel: step\nptx: steps.ptx\ngrid: 1\nblock: 32\nbuffers:\n"
      "  - {name: x, type: s32, count: 100, init: {file: add.bin}}\nparams: [x, x, 100]\n");
  const LaunchSpec s = LoadLaunch(path);
  std::ofstream(dir_ / "w" / "add.bin", std::ios::trunc) << "short";
  try {
    RunWorkload(s);
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(fmt::format("{}:6:51: error: x.init.file", path), 0), 0u)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("exactly 400 bytes"), std::string::npos);
  }
}

TEST_F(LaunchFiles, DynamicSharedMemoryFollowsTheStaticArrays) {
  EXPECT_EQ(SharedBytesWithDynamic(0, 0), 0u);
  EXPECT_EQ(SharedBytesWithDynamic(4, 0), 4u);
  EXPECT_EQ(SharedBytesWithDynamic(4, 128), 144u);  // 4 rounded up to 16, then 128
  EXPECT_EQ(SharedBytesWithDynamic(32, 8), 40u);
  EXPECT_EQ(SharedBytesWithDynamic(0, 100), 100u);

  // dynrev stores at s + 16 + 4 tid, past its 4-byte static array: in the dynamic part.
  const LaunchSpec s = LoadLaunch((kData / "dynshared" / "launch.yaml").string());
  const auto r = RunWorkload(s);
  EXPECT_EQ(r->compiled.fn.shared_bytes, 144u);
  EXPECT_EQ(r->compiled.kernel.shared_bytes, 144u);  // the SM model's occupancy sees it
  const auto& out = r->final_buffers.Get("out").bytes;
  for (uint32_t i = 0; i < 32; ++i)
    EXPECT_EQ(S32(out, i), static_cast<int32_t>(i ^ 1u)) << i;
  // Without the dynamic memory the same stores leave the CTA's shared memory.
  LaunchSpec none = s;
  none.launches[0].dynamic_shared_bytes = 0;
  try {
    RunWorkload(none);
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("shared address outside the CTA's 4 bytes"),
              std::string::npos)
        << e.what();
  }
  // Too little: the last lanes' stores fall outside.
  LaunchSpec small = s;
  small.launches[0].dynamic_shared_bytes = 64;
  EXPECT_THROW(RunWorkload(small), InputError);
}

// nvcc's `extern __shared__ float s[];` is a module-scope `.extern .shared .align 16 .b8 s[];`
// (sim/tests/data/dynshared_cuda/dynshared.cu): the parser places it after the kernel's static
// arrays at the offset where SharedBytesWithDynamic starts the launch's dynamic memory.
TEST_F(LaunchFiles, CudaExternSharedArrayIsTheLaunchsDynamicMemory) {
  const fs::path dir = GPURF_SOURCE_DIR "/sim/tests/data/dynshared_cuda";
  const LaunchSpec s = LoadLaunch((dir / "launch.yaml").string());
  ASSERT_EQ(s.launches.size(), 1u);
  EXPECT_EQ(s.launches[0].dynamic_shared_bytes, 512u);
  const auto r = RunWorkload(s);
  // Static: the 12-byte tag array; dynamic: 512 bytes from 16 (12 rounded up to 16).
  const ptx::PtxModule module = ptx::LoadPtx((dir / "dynshared.ptx").string());
  const ptx::PtxFunction* f = module.Find("dynShared");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->shared_bytes, 12u);
  const ptx::Symbol* ext = nullptr;
  for (const auto& sym : f->symbols) {
    if (sym.name == "s")
      ext = &sym;
  }
  ASSERT_NE(ext, nullptr);
  EXPECT_TRUE(ext->dynamic);
  EXPECT_EQ(ext->offset, 16u);
  EXPECT_EQ(ext->offset, SharedBytesWithDynamic(f->shared_bytes, 512) - 512);
  EXPECT_EQ(r->compiled.fn.shared_bytes, 528u);
  EXPECT_EQ(r->compiled.kernel.shared_bytes, 528u);
  // out[64b + t] = in[64b + 63 - t] + 2 in[64b + t] + 100 (t % 3 + 1), in[i] = i.
  const auto& out = r->final_buffers.Get("out").bytes;
  ASSERT_EQ(out.size(), 128u * 4);
  for (uint32_t b = 0; b < 2; ++b) {
    for (uint32_t t = 0; t < 64; ++t) {
      float got = 0;
      std::memcpy(&got, out.data() + (64 * b + t) * 4, 4);
      const auto want =
          static_cast<float>((64 * b + 63 - t) + 2 * (64 * b + t) + 100 * (t % 3 + 1));
      EXPECT_EQ(got, want) << b << " " << t;
    }
  }
  // With `dynamic` bytes the store at `line` is the first outside the CTA's `total` bytes.
  auto expect_out_of_bounds = [&](uint32_t dynamic, int line, uint32_t total,
                                  const std::string& addr) {
    LaunchSpec small = s;
    small.launches[0].dynamic_shared_bytes = dynamic;
    try {
      RunWorkload(small);
      ADD_FAILURE() << dynamic;
    } catch (const InputError& e) {
      const std::string m = e.what();
      EXPECT_EQ(m.rfind(fmt::format("{}:{}:2: error:", (dir / "dynshared.ptx").string(), line), 0),
                0u)
          << m;
      EXPECT_NE(m.find(fmt::format("shared address outside the CTA's {} bytes", total)),
                std::string::npos)
          << m;
      EXPECT_NE(m.find(addr), std::string::npos) << m;
    }
  };
  // 256 dynamic bytes: thread 0's store to s[64] (byte 16 + 256) is past static + dynamic.
  expect_out_of_bounds(256, 56, 272, "0x110");
  // None: the first store to s (byte 16) is already outside the 12 static bytes.
  expect_out_of_bounds(0, 52, 12, "");
}

// ------------------------------------------------------------------------------ occupancy

TEST(Occupancy, HandComputedFermiCases) {
  const SmLimits fermi;  // 48 warps, 32768 registers, 8 CTAs, 48 KiB
  // 256 threads = 8 warps; 20 regs -> 8 x 32 x 20 = 5120 regs/CTA -> 6 by registers, 6 by
  // warps (48 / 8), 8 slots: 6 CTAs, 100%, warps and registers tie.
  OccupancyResult o = ComputeOccupancy({20, 256, 0}, fermi);
  EXPECT_EQ(o.warps_per_cta, 8u);
  EXPECT_EQ(o.regs_per_cta, 5120u);
  EXPECT_EQ(o.by_warps, 6u);
  EXPECT_EQ(o.by_registers, 6u);
  EXPECT_EQ(o.by_slots, 8u);
  EXPECT_EQ(o.by_shared, UINT64_MAX);
  EXPECT_EQ(o.resident_ctas, 6u);
  EXPECT_EQ(o.resident_warps, 48u);
  EXPECT_DOUBLE_EQ(o.occupancy, 1.0);
  EXPECT_EQ(o.LimiterText(), "warps+registers");
  // 63 regs, 256 threads: 8 x 32 x 63 = 16128 -> 2 CTAs (16 warps, 1/3).
  o = ComputeOccupancy({63, 256, 0}, fermi);
  EXPECT_EQ(o.resident_ctas, 2u);
  EXPECT_NEAR(o.occupancy, 16.0 / 48.0, 1e-12);
  EXPECT_EQ(o.limiters, (std::vector<std::string>{"registers"}));
  // 64 threads, 10 regs: 2 warps, 640 regs -> 24 by warps, 51 by registers, 8 slots.
  o = ComputeOccupancy({10, 64, 0}, fermi);
  EXPECT_EQ(o.resident_ctas, 8u);
  EXPECT_EQ(o.LimiterText(), "CTA slots");
  EXPECT_NEAR(o.occupancy, 16.0 / 48.0, 1e-12);
  // 20 KiB of shared memory: 2 CTAs of 49152 / 20480.
  o = ComputeOccupancy({16, 128, 20480}, fermi);
  EXPECT_EQ(o.by_shared, 2u);
  EXPECT_EQ(o.resident_ctas, 2u);
  EXPECT_EQ(o.LimiterText(), "shared memory");
  // A partial warp counts as a whole one: 33 threads are 2 warps.
  o = ComputeOccupancy({8, 33, 0}, fermi);
  EXPECT_EQ(o.warps_per_cta, 2u);
  // A CTA that does not fit: 1024 threads = 32 warps x 32 x 40 regs = 40960 > 32768.
  o = ComputeOccupancy({40, 1024, 0}, fermi);
  EXPECT_EQ(o.resident_ctas, 0u);
  EXPECT_EQ(o.LimiterText(), "registers");
  // 0 registers still take one per thread (as the SM model assumes).
  EXPECT_EQ(ComputeOccupancy({0, 32, 0}, fermi).regs_per_cta, 32u);
}

TEST(Occupancy, LimitsAreOptionsAndGranularityRoundsPerWarp) {
  SmLimits sm;
  sm.warps = 64;
  sm.registers = 65536;
  sm.cta_slots = 32;
  sm.shared_bytes = 96 * 1024;
  // 256 threads, 32 regs: 8192 regs/CTA -> 8 by registers and by warps.
  OccupancyResult o = ComputeOccupancy({32, 256, 0}, sm);
  EXPECT_EQ(o.resident_ctas, 8u);
  EXPECT_EQ(o.LimiterText(), "warps+registers");
  // 21 regs x 32 lanes = 672 per warp; in units of 256 it takes 768.
  sm.register_granularity = 256;
  o = ComputeOccupancy({21, 32, 0}, sm);
  EXPECT_EQ(o.regs_per_cta, 768u);
  EXPECT_EQ(o.by_registers, 85u);  // 65536 / 768
  EXPECT_EQ(o.resident_ctas, 32u);
  EXPECT_EQ(o.LimiterText(), "CTA slots");
  // Bad limits are programming errors.
  sm.warps = 0;
  EXPECT_THROW(ComputeOccupancy({21, 32, 0}, sm), std::invalid_argument);
  EXPECT_THROW(ComputeOccupancy({21, 0, 0}, SmLimits{}), std::invalid_argument);
}

}  // namespace
}  // namespace gpurf::sim
