// The command line on users' files (issue 14): `gpurf compile kernel.ptx` and `gpurf workload
// show kernel.ptx` need no launch (static passes); `gpurf workload run path/launch.yaml` runs any
// launch file, without a reference prints checksums and values, and `--dump DIR` writes each
// output buffer as .bin and shape-aware .csv atomically; `gpurf workload list` shows per kernel
// registers, CTAs, threads, shared memory, occupancy and its limiter on options-given SM limits;
// `gpurf sim` simulates every launch of a multi-kernel workload ("multi#2").

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "sim/tests/cli_fixture.h"

namespace gpurf::test {
namespace {

namespace fs = std::filesystem;

const std::string kData = GPURF_SOURCE_DIR "/sim/tests/data/launch";
const std::string kMulti = kData + "/multi/launch.yaml";
const std::string kPtx = kData + "/multi/steps.ptx";

class CliLaunch : public CliFixture {
 protected:
  CliLaunch() : CliFixture("gpurf-cli-launch-") {}
  static bool Has(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
  }
};

TEST_F(CliLaunch, CompileTakesAPtxFileAlone) {
  const CliResult r = Run("compile '" + kPtx + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* k : {"kernel init:", "kernel step:", "kernel fill2d:"})
    EXPECT_TRUE(Has(r.out, k)) << k << "\n" << r.out;
  EXPECT_TRUE(Has(r.out, "static counts: no launch given")) << r.out;
  EXPECT_FALSE(Has(r.out, "dynamic counts")) << r.out;
  // --kernel selects, --max-regs is the register budget.
  const CliResult one = Run("compile '" + kPtx + "' --kernel fill2d --max-regs 16");
  ASSERT_EQ(one.code, 0) << one.err;
  EXPECT_TRUE(Has(one.out, "kernel fill2d:")) << one.out;
  EXPECT_FALSE(Has(one.out, "kernel init:")) << one.out;
  const CliResult none = Run("compile '" + kPtx + "' --kernel nosuch");
  EXPECT_EQ(none.code, 2);
  EXPECT_TRUE(Has(none.err, "init, step, fill2d")) << none.err;
  EXPECT_EQ(Run("compile '" + kPtx + "' --max-regs 8").code, 2);
  // With its launch file the counts are dynamic, one summary per executed launch.
  const CliResult dyn =
      Run("compile '" + kMulti + "' --config '" GPURF_SOURCE_DIR "/configs/fermi_gebhart.yaml'");
  ASSERT_EQ(dyn.code, 0) << dyn.err;
  EXPECT_TRUE(Has(dyn.out, "launch #4 (kernel step)")) << dyn.out;
  EXPECT_TRUE(Has(dyn.out, "(dynamic counts)")) << dyn.out;
  EXPECT_FALSE(Has(dyn.out, "static counts")) << dyn.out;
  // A PTX file alone still cannot be simulated: it has no launch.
  const CliResult sim = Run("sim '" GPURF_SOURCE_DIR
                            "/configs/examples/mrf_only.yaml' "
                            "--workload '" +
                            kPtx + "'");
  EXPECT_EQ(sim.code, 2);
  EXPECT_TRUE(Has(sim.err, "a PTX file alone has no launch configuration")) << sim.err;
}

TEST_F(CliLaunch, AnalyzeStillNeedsALaunchAndCompileOtherwiseNeedsADesign) {
  // Value usage is measured on a run: analyze points a PTX file alone at compile and show.
  CliResult r = Run("workload analyze '" + kPtx + "'");
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(Has(r.err, "gpurf compile and gpurf workload show take a PTX file alone")) << r.err;
  // Only a PTX file alone has a default design.
  r = Run("compile '" + kMulti + "'");
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(Has(r.err, "--config is required")) << r.err;
}

TEST_F(CliLaunch, ShowTakesAPtxFileOrALaunchPath) {
  CliResult r = Run("workload show '" + kPtx + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "kernel init from")) << r.out;
  EXPECT_TRUE(Has(r.out, "kernel fill2d from")) << r.out;
  EXPECT_TRUE(Has(r.out, "(no launch: static)")) << r.out;
  EXPECT_TRUE(Has(r.out, "registers per thread:")) << r.out;
  r = Run("workload show '" + kPtx + "' --kernel step");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(Has(r.out, "kernel init from")) << r.out;
  EXPECT_EQ(Run("workload show '" + kPtx + "' --kernel nosuch").code, 2);
  // A launch path: each kernel once, with its launches.
  r = Run("workload show '" + kMulti + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "workload multi: kernel step from")) << r.out;
  EXPECT_TRUE(Has(r.out, "launch 2: grid 2x1x1, block 64x1x1, repeated 3 times")) << r.out;
  EXPECT_TRUE(Has(r.out, "launch 3: grid 1x1x1, block 8x4x1")) << r.out;
  r = Run("workload show '" + kData + "/dynshared/launch.yaml'");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "128 dynamic shared bytes")) << r.out;
}

TEST_F(CliLaunch, RunALaunchFileWithoutReference) {
  const CliResult r = Run("workload run '" + kMulti + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "launch #1 init: grid 2x1x1, block 64x1x1: 4 warps")) << r.out;
  EXPECT_TRUE(Has(r.out, "launch #5 fill2d")) << r.out;
  // x = 8i + 7 (i % 3): 0 15 30 24 39 54 48 63.
  EXPECT_TRUE(Has(r.out, "output x (100 x s32): fnv1a64 ")) << r.out;
  EXPECT_TRUE(Has(r.out, "first values 0 15 30 24 39 54 48 63 ...")) << r.out;
  EXPECT_TRUE(Has(r.out, "output m (15 x f32)")) << r.out;
  EXPECT_TRUE(Has(r.out, "first values 0 1 2 3 4 100 101 102 ...")) << r.out;
  EXPECT_FALSE(Has(r.out, "output add")) << r.out;  // outputs: names x and m only
  EXPECT_TRUE(Has(r.out, "DONE multi: 5 launches")) << r.out;
  // The same checksum on every run.
  EXPECT_EQ(Run("workload run '" + kMulti + "'").out.substr(r.out.find("fnv1a64"), 24),
            r.out.substr(r.out.find("fnv1a64"), 24));
  // A corpus workload still runs by name and passes.
  const CliResult corpus = Run("workload run vectorAdd");
  EXPECT_EQ(corpus.code, 0) << corpus.err;
  EXPECT_TRUE(Has(corpus.out, "PASS vectorAdd")) << corpus.out;
  // A launch path that does not exist is bad input.
  const CliResult missing = Run("workload run '" + dir_.string() + "/none/launch.yaml'");
  EXPECT_EQ(missing.code, 2);
}

TEST_F(CliLaunch, DumpWritesBinaryAndCsvAtomically) {
  const fs::path out = dir_ / "dump";
  const CliResult r = Run("workload run '" + kMulti + "' --dump '" + out.string() + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "output buffers written to")) << r.out;
  EXPECT_EQ(fs::file_size(out / "x.bin"), 400u);
  EXPECT_EQ(fs::file_size(out / "m.bin"), 60u);
  EXPECT_FALSE(fs::exists(out / "add.bin"));
  // 2D buffers as rows; 1-D one value per line.
  EXPECT_EQ(Slurp(out / "m.csv"), "0,1,2,3,4\n100,101,102,103,104\n200,201,202,203,204\n");
  const std::string x = Slurp(out / "x.csv");
  EXPECT_EQ(x.substr(0, 12), "0\n15\n30\n24\n3");
  EXPECT_EQ(std::count(x.begin(), x.end(), '\n'), 100);
  // Raw little-endian: x[1] = 15.
  std::ifstream bin(out / "x.bin", std::ios::binary);
  int32_t v[2];
  bin.read(reinterpret_cast<char*>(v), 8);
  EXPECT_EQ(v[1], 15);
  // Dumping again replaces gpurf's own folder; a folder holding a user's file is refused and
  // left as it was.
  EXPECT_EQ(Run("workload run '" + kMulti + "' --dump '" + out.string() + "'").code, 0);
  const fs::path mine = dir_ / "mine";
  fs::create_directories(mine);
  std::ofstream(mine / "notes.txt") << "keep";
  const CliResult refused = Run("workload run '" + kMulti + "' --dump '" + mine.string() + "'");
  EXPECT_EQ(refused.code, 2) << refused.out;
  EXPECT_EQ(Slurp(mine / "notes.txt"), "keep");
  EXPECT_FALSE(fs::exists(mine / "x.bin"));
  // Without outputs: every buffer.
  const CliResult all = Run("workload run '" + kData + "/dynshared/launch.yaml' --dump '" +
                            (dir_ / "d2").string() + "'");
  ASSERT_EQ(all.code, 0) << all.err;
  EXPECT_TRUE(Has(all.out, "first values 1 0 3 2 5 4 7 6 ...")) << all.out;
  EXPECT_EQ(fs::file_size(dir_ / "d2" / "out.bin"), 128u);
}

TEST_F(CliLaunch, ListShowsOccupancyAndItsLimiter) {
  CliResult r = Run("workload list");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "SM: 48 warps, 32768 registers, 8 CTA slots, 49152 shared bytes"))
      << r.out;
  for (const char* col : {"regs", "CTAs", "thr/CTA", "shared", "CTAs/SM", "occ", "limited by"})
    EXPECT_TRUE(Has(r.out, col)) << col;
  // vectorAdd: 16 CTAs of 256 threads, no shared memory; 8 warps per CTA -> 6 CTAs by warps.
  const size_t va = r.out.find("\nvectorAdd ");
  ASSERT_NE(va, std::string::npos) << r.out;
  const std::string line = r.out.substr(va + 1, r.out.find('\n', va + 1) - va - 1);
  EXPECT_TRUE(Has(line, " 16     256       0         6  100%  warps")) << line;
  // Smaller SM limits change the answer: 4 CTA slots limit vectorAdd to 4 CTAs (32 warps).
  r = Run("workload list --sm-cta-slots 4");
  ASSERT_EQ(r.code, 0) << r.err;
  const size_t va4 = r.out.find("\nvectorAdd ");
  const std::string line4 = r.out.substr(va4 + 1, r.out.find('\n', va4 + 1) - va4 - 1);
  EXPECT_TRUE(Has(line4, "         4   67%  CTA slots")) << line4;
  // A register file too small for one CTA: does not fit.
  r = Run("workload list --sm-registers 2048");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "does not fit: registers")) << r.out;
  EXPECT_EQ(Run("workload list --sm-warps 0").code, 2);
  // A corpus folder with a multi-kernel workload: one row per launch entry.
  const fs::path corpus = dir_ / "corpus";
  fs::create_directories(corpus);
  fs::copy(kData + "/multi", corpus / "multi");
  r = Run("workload list --corpus-dir '" + corpus.string() + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "step x3")) << r.out;
  EXPECT_TRUE(Has(r.out, "fill2d")) << r.out;
}

TEST_F(CliLaunch, SimSimulatesEveryLaunchOfAMultiKernelWorkload) {
  const CliResult r = Run("sim '" GPURF_SOURCE_DIR
                          "/configs/examples/mrf_only.yaml' "
                          "--workload '" +
                          kMulti + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  for (int i = 1; i <= 5; ++i) {
    const std::string name = kMulti + "#" + std::to_string(i);
    EXPECT_TRUE(Has(r.out, "#" + std::to_string(i) + " ")) << i << "\n" << r.out;
  }
  EXPECT_TRUE(Has(r.out, "step")) << r.out;
  EXPECT_TRUE(Has(r.out, "fill2d")) << r.out;
}

}  // namespace
}  // namespace gpurf::test
