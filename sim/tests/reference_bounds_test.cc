// The C++ references and the functional executor never touch memory outside a launch's
// buffers. Per reference, a corpus launch with one buffer smaller than its scalars imply is an
// InputError at that buffer's line of the launch file naming the buffer, its count and the count
// needed (before: heap corruption, "double free or corruption", SIGSEGV). Data-dependent indices
// (bfs edge targets) are checked element by element. A kernel that reads past the end of its
// buffer into the next one is an InputError naming the buffer, the warp, the instruction and
// the PC (before: the check covered only the whole arena). A runaway kernel stops at the
// recording limit, not at bad_alloc.

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <string>
#include <vector>

#include "sim/ptx/ptx_parser.h"
#include "sim/workload/launch.h"
#include "sim/workload/reference.h"

namespace gpurf::sim {
namespace {

const std::string kCorpus = GPURF_SOURCE_DIR "/workloads/corpus";

LaunchSpec Corpus(const std::string& name) {
  return LoadLaunch(kCorpus + "/" + name + "/launch.yaml");
}

HostBuffers Initial(const LaunchSpec& s) {
  HostBuffers h;
  for (const auto& b : s.buffers)
    h.Add(b.name, b.type, InitialContents(b));
  return h;
}

BufferSpec& BufferOf(LaunchSpec& s, const std::string& name) {
  for (auto& b : s.buffers) {
    if (b.name == name)
      return b;
  }
  throw std::logic_error("no buffer " + name);
}

void RunReference(const LaunchSpec& s) {
  HostBuffers h = Initial(s);
  ReferenceContext ctx{h, s};
  FindReference(s.reference)(ctx);
}

struct Undersized {
  std::string workload, buffer;
  uint64_t count;   // the smaller count
  uint64_t needed;  // what the reference must report
};

class ReferenceBounds : public testing::TestWithParam<Undersized> {};

TEST_P(ReferenceBounds, UndersizedBufferIsAnInputErrorAtTheBuffer) {
  const Undersized& u = GetParam();
  LaunchSpec s = Corpus(u.workload);
  ASSERT_NO_THROW(RunReference(s)) << "the corpus launch itself must fit its reference";
  BufferSpec& b = BufferOf(s, u.buffer);
  b.count = u.count;
  size_t index = 0;
  while (s.buffers[index].name != u.buffer)
    ++index;
  try {
    RunReference(s);
    FAIL() << "no error for " << u.workload << " with " << u.buffer << " count " << u.count;
  } catch (const InputError& e) {
    const std::string w = e.what();
    EXPECT_EQ(e.loc().file, s.file) << w;
    EXPECT_EQ(e.loc().line, b.loc.line) << w;
    EXPECT_EQ(e.field(), "buffers[" + std::to_string(index) + "].count") << w;
    EXPECT_EQ(e.value(), std::to_string(u.count)) << w;
    EXPECT_NE(
        w.find("buffer '" + u.buffer + "' holds " + std::to_string(u.count) +
               " elements but reference " + s.reference + " needs " + std::to_string(u.needed)),
        std::string::npos)
        << w;
  }
}

INSTANTIATE_TEST_SUITE_P(
    EveryReference, ReferenceBounds,
    testing::Values(
        Undersized{"vectorAdd", "a", 100, 4000}, Undersized{"vectorAdd", "c", 3999, 4000},
        Undersized{"matrixMul", "b", 4000, 4096}, Undersized{"reduction", "in", 7999, 8000},
        Undersized{"reduction", "partial", 15, 16}, Undersized{"scalarProd", "b", 32767, 32768},
        Undersized{"scalarProd", "out", 31, 32}, Undersized{"histogram", "data", 8191, 8192},
        Undersized{"histogram", "hist", 255, 256},
        Undersized{"convolutionSeparable", "in", 2879, 2880},
        Undersized{"convolutionSeparable", "filter", 8, 9},
        Undersized{"transpose", "out", 6000, 6144}, Undersized{"blackScholes", "years", 4095, 4096},
        Undersized{"hotspot", "power", 4000, 4096}, Undersized{"bfs", "row_offsets", 257, 2049},
        Undersized{"bfs", "cols", 8191, 8192}, Undersized{"bfs", "cost", 2047, 2048},
        Undersized{"nbody", "acc", 1, 1536}, Undersized{"nbody", "pos", 2047, 2048},
        Undersized{"bitonicSort", "keys", 4095, 4096}, Undersized{"sgemm", "c", 524287, 524288},
        Undersized{"kmeans", "feat", 737279, 737280}, Undersized{"monteCarlo", "s0", 239, 240},
        Undersized{"srad", "j", 61439, 61440}, Undersized{"stencil2d", "in", 614399, 614400},
        Undersized{"spmv", "row_offsets", 3840, 3841},
        Undersized{"particleFilter", "image", 8191, 8192}, Undersized{"nw", "sub", 575, 576},
        Undersized{"pathfinder", "wall", 368639, 368640}, Undersized{"backprop", "w", 16383, 16384},
        Undersized{"subHistogram", "hist", 1023, 1024}, Undersized{"lud", "in", 122879, 122880},
        Undersized{"stencil3d", "in", 270335, 270336}, Undersized{"mriQ", "ks", 31, 32},
        Undersized{"warpReduce", "m", 262143, 262144}, Undersized{"warpReduce", "rowMax", 255, 256},
        Undersized{"warpScan", "in", 262143, 262144}, Undersized{"warpScan", "out", 1000, 262144},
        Undersized{"warpHistogram", "img", 255999, 256000},
        Undersized{"warpHistogram", "hist", 15, 16}),
    [](const testing::TestParamInfo<Undersized>& i) {
      return i.param.workload + "_" + i.param.buffer;
    });

TEST(ReferenceBoundsChecks, EveryReferenceIsCovered) {
  // A reference added later must get a row above.
  std::vector<std::string> names = ReferenceNames();
  EXPECT_EQ(names.size(), 29u);
  for (const auto& n : names)
    EXPECT_NO_THROW(RunReference(Corpus(n))) << n;
}

TEST(ReferenceBoundsChecks, DataDependentIndexIsChecked) {
  // bfs edge targets beyond the cost buffer: found while traversing, named by the edge.
  LaunchSpec s = Corpus("bfs");
  BufferOf(s, "cols").init.b = 100000;  // random targets up to 100000 with 2048 nodes
  try {
    RunReference(s);
    FAIL() << "no error";
  } catch (const InputError& e) {
    const std::string w = e.what();
    EXPECT_NE(w.find("buffer 'cost' holds 2048 elements"), std::string::npos) << w;
    EXPECT_NE(w.find("edge target cols["), std::string::npos) << w;
  }
}

TEST(ReferenceBoundsChecks, ScalarsAreCheckedAtTheParam) {
  LaunchSpec s = Corpus("vectorAdd");
  s.params[3].text = "-1";
  try {
    RunReference(s);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.loc().line, s.params[3].loc.line);
    EXPECT_EQ(e.field(), "params[3]");
  }
  s = Corpus("matrixMul");
  s.params[3].text = "4294967295";  // n * n overflows nothing: it is simply too large
  EXPECT_THROW(RunReference(s), InputError);
  s = Corpus("bfs");
  s.params[4].text = "2048";  // source node outside the graph
  EXPECT_THROW(RunReference(s), InputError);
  s = Corpus("vectorAdd");
  s.params[3] = s.params[0];  // a buffer where the reference reads a number
  EXPECT_THROW(RunReference(s), InputError);
}

TEST(ReferenceBoundsChecks, RunWorkloadChecksBeforeTheKernelRuns) {
  LaunchSpec s = Corpus("nbody");
  BufferOf(s, "acc").count = 1;
  try {
    RunWorkload(s);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("reference nbody needs 1536"), std::string::npos)
        << e.what();
  }
}

// ------------------------------------------------------------------- functional executor

TEST(KernelBounds, ReadPastTheEndOfOneBufferIntoTheNext) {
  LaunchSpec s = Corpus("vectorAdd");
  BufferOf(s, "a").count = 100;  // b follows a in the arena: before, these reads went into b
  RunOptions o;
  o.check = false;
  try {
    RunWorkload(s, o);
    FAIL() << "no error";
  } catch (const InputError& e) {
    const std::string w = e.what();
    EXPECT_NE(w.find("vectorAdd.ptx:"), std::string::npos) << w;
    EXPECT_NE(w.find("global access out of bounds"), std::string::npos) << w;
    EXPECT_NE(w.find("past the end of buffer 'a' (400 bytes at 0x100000000)"), std::string::npos)
        << w;
    EXPECT_NE(w.find("warp 3 of CTA (0,0,0), lane 4"), std::string::npos) << w;  // thread 100
    EXPECT_NE(w.find("at PC 0x"), std::string::npos) << w;
    EXPECT_NE(w.find("(ld.global.f32)"), std::string::npos) << w;
  }
}

TEST(KernelBounds, LaunchShapeCountSaturatesInsteadOfWrapping) {
  EXPECT_EQ((Dim3{16, 2, 3}.count()), 96u);
  EXPECT_EQ((Dim3{0xffffffffu, 0xffffffffu, 1}.count()), 0xfffffffe00000001ull);
  EXPECT_EQ((Dim3{1u << 24, 1u << 24, 1u << 24}.count()), UINT64_MAX);  // 2^72, was 0
  EXPECT_EQ((Dim3{1u << 22, 1u << 22, 1u << 20}.count()), UINT64_MAX);  // 2^64, was 0
  EXPECT_EQ((Dim3{7, 0, 9}.count()), 0u);
}

TEST(KernelBounds, GapsAndEndsAreOutOfBounds) {
  DeviceMemory m;
  const uint64_t a = m.Allocate(100, "a");
  const uint64_t b = m.Allocate(8, "b");
  EXPECT_NE(m.At(a, 100), nullptr);
  EXPECT_NE(m.At(a + 96, 4), nullptr);
  EXPECT_EQ(m.At(a + 98, 4), nullptr);   // straddles a's end
  EXPECT_EQ(m.At(a + 100, 4), nullptr);  // in the gap before b
  EXPECT_NE(m.At(b, 8), nullptr);
  EXPECT_EQ(m.At(b + 8, 1), nullptr);
  EXPECT_EQ(m.At(a - 4, 4), nullptr);
  EXPECT_NE(m.Describe(a + 98, 4).find("runs 2 bytes past the end of buffer 'a'"),
            std::string::npos)
      << m.Describe(a + 98, 4);
  EXPECT_NE(m.Describe(a + 104, 4).find("before buffer 'b'"), std::string::npos);
  EXPECT_NE(m.Describe(b + 64, 4).find("outside every buffer"), std::string::npos);
  EXPECT_NE(m.Describe(a - 4, 4).find("below the first buffer 'a'"), std::string::npos);
}

TEST(KernelBounds, EveryCorpusKernelStaysInsideItsBuffers) {
  // Bounds and outputs only: without recorded values and addresses the largest kernels stay well
  // below the peak RSS that RecordLimit's check (later in this process) allows; recording them
  // took the process past 256 MiB once warpScan joined sgemm and kmeans in the corpus.
  RunOptions opt;
  opt.exec.record_values = false;
  opt.exec.record_addresses = false;
  for (const auto& n : ListWorkloads(kCorpus)) {
    std::unique_ptr<WorkloadRun> r;
    ASSERT_NO_THROW(r = RunWorkload(Corpus(n), opt)) << n;
    EXPECT_TRUE(r->passed()) << n;
  }
}

// ------------------------------------------------------------------- recording limit

TEST(RecordLimit, EndlessKernelStopsAtTheLimitNamingTheOption) {
  const std::string ptx = R"(.version 9.0
.target sm_80
.address_size 64
.visible .entry spin(.param .u64 p)
{
	.reg .b32 %r<3>;
	mov.u32 %r1, 0;
$L:
	add.s32 %r1, %r1, 1;
	bra.uni $L;
}
)";
  // The process's peak before the run: the binary's own footprint (several times larger under
  // the sanitizers, whose shadow memory and quarantine grow with everything linked in).
  rusage before{};
  getrusage(RUSAGE_SELF, &before);
  const ptx::PtxModule m = ptx::ParsePtx(ptx, "spin.ptx");
  const ptx::CompiledKernel ck = ptx::CompileKernel(m, "spin", {});
  DeviceMemory mem;
  std::vector<uint8_t> params(8, 0);
  ExecOptions o;
  o.max_recorded_bytes = uint64_t{32} << 20;
  o.record_limit_option = "--test-limit";
  try {
    Execute(ck, Dim3{4, 1, 1}, Dim3{64, 1, 1}, params, mem, o);
    FAIL() << "no error";
  } catch (const InputError& e) {
    const std::string w = e.what();
    EXPECT_EQ(e.loc().file, "spin.ptx");
    EXPECT_NE(w.find("exceed the limit of 32 MiB"), std::string::npos) << w;
    EXPECT_NE(w.find("--test-limit"), std::string::npos) << w;
    EXPECT_NE(w.find("runaway loop"), std::string::npos) << w;
  }
  // A 32 MiB limit keeps the run small: the peak grows by well under 256 MiB (an endless kernel
  // without the limit records until the machine runs out of memory).
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  EXPECT_LT(u.ru_maxrss - before.ru_maxrss, 256 * 1024)
      << "KiB (peak " << u.ru_maxrss << " KiB, " << before.ru_maxrss << " KiB before the run)";
}

TEST(RecordLimit, TooManyWarpsToRecordIsRejectedUpFront) {
  const std::string ptx =
      ".version 9.0\n.target sm_80\n.address_size 64\n"
      ".visible .entry e(.param .u64 p)\n{\n\tret;\n}\n";
  const ptx::CompiledKernel ck = ptx::CompileKernel(ptx::ParsePtx(ptx, "e.ptx"), "e", {});
  DeviceMemory mem;
  std::vector<uint8_t> params(8, 0);
  ExecOptions o;
  o.max_recorded_bytes = uint64_t{1} << 20;
  EXPECT_THROW(Execute(ck, Dim3{1u << 24, 1, 1}, Dim3{1024, 1, 1}, params, mem, o), InputError);
}

}  // namespace
}  // namespace gpurf::sim
