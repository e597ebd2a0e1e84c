// The real gpurf binary on workloads: `workload analyze` and `compile` on the vectoradd trace
// (exit 0, the sections they promise), and bad input (missing trace, malformed trace, bad
// energies file, missing design) with exit code 2 and file:line in the message.

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "sim/tests/cli_fixture.h"

namespace gpurf {
namespace {

namespace fs = std::filesystem;

using Result = test::CliResult;
using test::Slurp;

class CliPasses : public test::CliFixture {
 protected:
  CliPasses() : CliFixture("gpurf-cli-passes-") {}
};

const std::string kTrace = GPURF_SOURCE_DIR "/workloads/accelsim/vectoradd";
const std::string kDesign = GPURF_SOURCE_DIR "/configs/fermi_gebhart.yaml";

TEST_F(CliPasses, AnalyzeTheRealTrace) {
  const fs::path csv = dir_ / "usage.csv";
  const Result r = Run("workload analyze " + kTrace + " --csv " + csv.string());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("Value usage"), std::string::npos);
  EXPECT_NE(r.out.find("strands: 2"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("register-file energy"), std::string::npos);
  EXPECT_NE(r.out.find("sweep"), std::string::npos);
  const std::string c = Slurp(csv);
  EXPECT_EQ(c.rfind("kernel,values,", 0), 0u) << c;
  EXPECT_NE(c.find("_Z6vecAddIfEvPT_S1_S1_i,"), std::string::npos);
}

TEST_F(CliPasses, CompilePrintsTheAnnotatedCode) {
  const Result r = Run("compile " + kTrace + " --config " + kDesign);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("---- strand 1 (long-latency dependence) ----"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("FADD"), std::string::npos);
  EXPECT_NE(r.out.find("@L0.A"), std::string::npos);
  EXPECT_NE(r.out.find("pir "), std::string::npos);
  // Deterministic output.
  EXPECT_EQ(Run("compile " + kTrace + " --config " + kDesign).out, r.out);
}

TEST_F(CliPasses, AnalyzeAndCompileACorpusPtxKernel) {
  // By corpus name: the PTX front end runs the kernel, so value usage is measured.
  Result r = Run("workload analyze matrixMul");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("kernel matrixMul:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Value usage"), std::string::npos);
  // By launch file, with the design's hierarchy.
  r = Run("compile " GPURF_SOURCE_DIR "/workloads/corpus/reduction/launch.yaml --config " +
          kDesign);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("strand"), std::string::npos) << r.out;
  // A bare PTX file has no launch configuration.
  r = Run("workload analyze " GPURF_SOURCE_DIR "/workloads/corpus/reduction/reduction.ptx");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("launch"), std::string::npos) << r.err;
}

TEST_F(CliPasses, BadInputExitsTwoWithLocation) {
  Result r = Run("workload analyze " + (dir_ / "missing").string());
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("no such file"), std::string::npos) << r.err;

  const fs::path t = dir_ / "kernel-1.traceg";
  std::ifstream in(kTrace + "/kernel-1.traceg");
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  text.replace(text.find("FADD"), 4, "FZZZ");
  std::ofstream(t) << text;
  r = Run("workload analyze " + t.string());
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find(t.string() + ":44:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("unknown SASS opcode"), std::string::npos) << r.err;

  const fs::path e = dir_ / "e.json";
  std::ofstream(e) << "{\"mrf\": {\"read\": 1}}";
  r = Run("compile " + kTrace + " --config " + kDesign + " --energies " + e.string());
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("mrf.read"), std::string::npos) << r.err;

  r = Run("compile " + kTrace);
  EXPECT_EQ(r.code, 2);  // --config is required
  r = Run("compile " + kTrace + " --config " + (dir_ / "nope.yaml").string());
  EXPECT_EQ(r.code, 2);
}

}  // namespace
}  // namespace gpurf
