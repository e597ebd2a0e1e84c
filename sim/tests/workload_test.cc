// Launch files and the `gpurf workload` command: every rejection of a malformed launch file
// names file:line:column and the field; buffer initialisation is deterministic; and the real
// gpurf binary lists and runs the corpus (exit 0), rejects an unknown workload, a malformed PTX
// file (unknown opcode, bad operand, undeclared register) and a bad launch file with exit 2 and
// file:line:column, and reports outputs that differ from the reference with exit 1.

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/workload/launch.h"

namespace gpurf::sim {
namespace {

namespace fs = std::filesystem;

const std::string kCorpus = GPURF_SOURCE_DIR "/workloads/corpus";

class WorkloadFiles : public testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        fs::temp_directory_path() / ("gpurf-workload-test-" + std::to_string(::getpid()) + "-" +
                                     testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "corpus");
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A workload folder `name` in the scratch corpus with the vectorAdd PTX (or `ptx` text) and
  // the given launch file.
  std::string Make(const std::string& name, const std::string& launch,
                   const std::string& ptx = "") {
    const fs::path d = dir_ / "corpus" / name;
    fs::create_directories(d);
    if (ptx.empty())
      fs::copy_file(kCorpus + "/vectorAdd/vectorAdd.ptx", d / "k.ptx",
                    fs::copy_options::overwrite_existing);
    else
      std::ofstream(d / "k.ptx") << ptx;
    std::ofstream(d / "launch.yaml") << launch;
    return (d / "launch.yaml").string();
  }

  void ExpectLaunchError(const std::string& launch, int line, int col,
                         const std::vector<std::string>& parts) {
    const std::string path = Make("w", launch);
    try {
      LoadLaunch(path);
      ADD_FAILURE() << "accepted:\n" << launch;
    } catch (const InputError& e) {
      const std::string msg = e.what();
      EXPECT_EQ(msg.rfind(fmt::format("{}:{}:{}: error:", path, line, col), 0), 0u) << msg;
      for (const auto& p : parts)
        EXPECT_NE(msg.find(p), std::string::npos) << "missing '" << p << "' in " << msg;
    }
  }

  struct Cli {
    int code = -1;
    std::string out, err;
  };
  Cli Gpurf(const std::string& args) const {
    const fs::path out = dir_ / "stdout.txt", err = dir_ / "stderr.txt";
    const std::string cmd =
        "'" GPURF_BINARY "' " + args + " >'" + out.string() + "' 2>'" + err.string() + "'";
    const int status = std::system(cmd.c_str());
    Cli r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::stringstream a, b;
    a << std::ifstream(out).rdbuf();
    b << std::ifstream(err).rdbuf();
    r.out = a.str();
    r.err = b.str();
    return r;
  }

  fs::path dir_;
};

const std::string kGood = R"(kernel: vectorAdd
ptx: k.ptx
grid: [2]
block: [64]
buffers:
  - {name: a, type: f32, count: 128, init: {sequence: {start: 1, step: 2}}}
  - {name: b, type: f32, count: 128, init: {random: {seed: 3, min: 0, max: 1}}}
  - {name: c, type: f32, count: 128}
params: [a, b, c, 128]
reference: vectorAdd
outputs:
  - {buffer: c}
)";

TEST_F(WorkloadFiles, GoodLaunchRunsAndMatches) {
  const LaunchSpec s = LoadLaunch(Make("w", kGood));
  EXPECT_EQ(s.name, "w");
  EXPECT_EQ(s.grid, (Dim3{2, 1, 1}));
  ASSERT_EQ(s.buffers.size(), 3u);
  EXPECT_EQ(s.params[3].text, "128");
  const auto r = RunWorkload(s);
  ASSERT_EQ(r->outputs.size(), 1u);
  EXPECT_EQ(r->outputs[0].mismatches, 0u);
  // sequence init: a[i] = 1 + 2i
  const auto& a = r->final_buffers.Get("a").bytes;
  float a5;
  std::memcpy(&a5, a.data() + 20, 4);
  EXPECT_EQ(a5, 11.0f);
}

TEST_F(WorkloadFiles, RandomInitIsSeededAndInRange) {
  BufferSpec b;
  b.type = ptx::Type::kS32;
  b.count = 1000;
  b.init = {BufferInit::kRandom, -5, 5, 7};
  const auto x = InitialContents(b), y = InitialContents(b);
  EXPECT_EQ(x, y);
  std::vector<int32_t> v(1000);
  std::memcpy(v.data(), x.data(), 4000);
  EXPECT_EQ(*std::min_element(v.begin(), v.end()), -5);
  EXPECT_EQ(*std::max_element(v.begin(), v.end()), 5);
  b.init.seed = 8;
  EXPECT_NE(InitialContents(b), x);
}

TEST_F(WorkloadFiles, MalformedLaunchFilesNameLineAndColumn) {
  ExpectLaunchError("kernal: vectorAdd\n", 1, 1, {"unknown key (did you mean 'kernel'?)"});
  ExpectLaunchError("kernel: vectorAdd\nptx: k.ptx\ngrid: [2]\nblock: [64]\n", 1, 1,
                    {"params", "missing required key"});
  ExpectLaunchError("kernel: vectorAdd\nptx: nope.ptx\ngrid: [2]\nblock: [64]\nparams: []\n", 2, 6,
                    {"PTX file not found"});
  ExpectLaunchError("kernel: k\nptx: k.ptx\ngrid: [0]\nblock: [64]\nparams: []\n", 3, 8,
                    {"grid[0]", "out of range"});
  ExpectLaunchError(
      "kernel: k\nptx: k.ptx\ngrid: 1\nblock: 64\nbuffers:\n  - {name: a, type: f31, count: 4}\n"
      "params: [a]\n",
      6, 21, {"buffers[0].type", "f31", "unknown buffer type"});
  ExpectLaunchError(
      "kernel: k\nptx: k.ptx\ngrid: 1\nblock: 64\nbuffers:\n  - {name: a, type: f32, count: 4}\n"
      "params: [a, zz]\n",
      7, 13, {"params[1]", "zz", "neither a number nor a buffer name"});
  ExpectLaunchError("kernel: k\nptx: k.ptx\ngrid: 1\nblock: 64\nparams: []\nreference: nosuch\n", 6,
                    12, {"no C++ reference", "vectorAdd"});
  ExpectLaunchError("kernel: k\nptx: k.ptx\ngrid: [1\nblock: 64\n", 4, 6, {"yaml"});
  ExpectLaunchError(
      "kernel: k\nptx: k.ptx\ngrid: 1\nblock: 64\nbuffers:\n  - {name: a, type: u32, count: 4, "
      "init: {random: {seed: 1, min: 5, max: 2}}}\nparams: [a]\n",
      6, 74, {"max is below min"});
}

TEST_F(WorkloadFiles, NonScalarKeysAndOverlongPtxNamesAreInputErrors) {
  // Found by launch_fuzz: a key that is a list or a mapping made yaml-cpp throw
  // TypedBadConversion (not InputError) out of the reader.
  ExpectLaunchError("? [kernel]\n: vectorAdd\n", 1, 3, {"launch file", "keys must be plain names"});
  ExpectLaunchError("{[a]: 1}\n", 1, 2, {"keys must be plain names", "kernel, ptx"});
  ExpectLaunchError(
      "kernel: k\nptx: k.ptx\ngrid: 1\nblock: 1\nparams: []\nbuffers:\n  - {? [x] : 1}\n", 7, 8,
      {"buffers[0]", "keys must be plain names", "name, type, count, init"});
  ExpectLaunchError(
      "kernel: k\nptx: k.ptx\ngrid: 1\nblock: 1\nparams: []\nbuffers:\n"
      "  - {name: a, type: u32, count: 1, init: {? {random: 1} : 2}}\n",
      7, 45, {"buffers[0].init", "keys must be plain names"});
  // Found by launch_fuzz: a PTX name longer than the file system allows made fs::exists throw
  // std::filesystem::filesystem_error out of the reader.
  ExpectLaunchError(
      "kernel: k\nptx: " + std::string(300, 'x') + ".ptx\ngrid: 1\nblock: 1\nparams: []\n", 2, 6,
      {"ptx", "cannot look up the PTX file", "File name too long"});
  // The in-memory reader is the file reader: same spec, same errors.
  const std::string path = Make("w", kGood);
  const LaunchSpec a = LoadLaunch(path), b = LoadLaunchFromString(kGood, path);
  EXPECT_EQ(a.ptx, b.ptx);
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.buffers.size(), b.buffers.size());
  EXPECT_EQ(a.params.size(), b.params.size());
  EXPECT_THROW(LoadLaunchFromString("kernal: vectorAdd\n", path), InputError);
}

TEST_F(WorkloadFiles, ParameterMismatchesAreReportedAtTheParameter) {
  std::string bad = kGood;
  bad.replace(bad.find("params: [a, b, c, 128]"), 22, "params: [a, b, c, -1]");
  try {
    RunWorkload(LoadLaunch(Make("w", bad)));
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(":9:19: error: params[3]"), std::string::npos) << e.what();
  }
  bad = kGood;
  bad.replace(bad.find("params: [a, b, c, 128]"), 22, "params: [a, b, c]");
  EXPECT_THROW(RunWorkload(LoadLaunch(Make("w", bad))), InputError);
  bad = kGood;
  bad.replace(bad.find("params: [a, b, c, 128]"), 22, "params: [a, b, 5, 128]");
  EXPECT_THROW(RunWorkload(LoadLaunch(Make("w", bad))), InputError);
  // A reference that cannot read the launch's bindings (histogram reads params[2] as a scalar,
  // here it is buffer c; and its data as u32, here f32) is bad input at the offending param.
  bad = kGood;
  bad.replace(bad.find("reference: vectorAdd"), 20, "reference: histogram");
  try {
    RunWorkload(LoadLaunch(Make("w", bad)));
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(":9:16: error: params[2]: reference histogram reads "
                                         "this parameter as a number"),
              std::string::npos)
        << e.what();
  }
  // Its data read with the wrong element type: at the buffer.
  bad = kGood;
  bad.replace(bad.find("reference: vectorAdd"), 20, "reference: histogram");
  bad.replace(bad.find("params: [a, b, c, 128]"), 22, "params: [a, b, 128, 0]");
  try {
    RunWorkload(LoadLaunch(Make("w", bad)));
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(":6:5: error: a: reference histogram reads buffer 'a' "
                                         "as 4-byte integer elements"),
              std::string::npos)
        << e.what();
  }
}

// ----------------------------------------------------------------------------------- CLI

TEST_F(WorkloadFiles, CliListsAndRunsTheCorpus) {
  Cli r = Gpurf("workload list");
  EXPECT_EQ(r.code, 0) << r.err;
  for (const char* n : {"vectorAdd", "bitonicSort", "nbody"})
    EXPECT_NE(r.out.find(n), std::string::npos) << n;
  r = Gpurf("workload run vectorAdd");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.find("PASS vectorAdd:"), r.out.find("PASS"));
  EXPECT_NE(r.out.find("registers per thread"), std::string::npos) << r.out;
  r = Gpurf("workload show reduction");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("registers per thread"), std::string::npos);
  EXPECT_NE(r.out.find("ipdom"), std::string::npos);
  r = Gpurf("workload run vectorAdd --max-regs 16");
  EXPECT_EQ(r.code, 0) << r.err;
}

TEST_F(WorkloadFiles, CliRejectsBadInputWithExitTwo) {
  Cli r = Gpurf("workload run vectorAd");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("did you mean 'vectorAdd'"), std::string::npos) << r.err;

  const std::string corpus = "--corpus-dir '" + (dir_ / "corpus").string() + "'";
  const std::string launch = "kernel: k\nptx: k.ptx\ngrid: 1\nblock: 32\nparams: []\n";
  const std::string head =
      ".version 9.0\n.target sm_80\n.address_size 64\n"
      ".visible .entry k()\n{\n\t.reg .b32 %r<4>;\n";
  struct Case {
    std::string name, body, expect;
  };
  const std::vector<Case> cases = {
      {"opcode", "\tmov.u32 %r1, 1;\n\tfoo.u32 %r1, %r2;\n\tret;\n}\n",
       "k.ptx:8:2: error: instruction: unsupported PTX instruction 'foo'"},
      {"operand", "\tadd.s32 %r1, %r2, [%r3];\n\tret;\n}\n", "k.ptx:7:20: error: operand"},
      {"undeclared", "\tadd.s32 %r1, %r2, %r9;\n\tret;\n}\n",
       "k.ptx:7:20: error: operand: undeclared register (got '%r9')"},
  };
  for (const auto& c : cases) {
    Make(c.name, launch, head + c.body);
    r = Gpurf("workload run " + c.name + " " + corpus);
    EXPECT_EQ(r.code, 2) << c.name << ": " << r.err;
    EXPECT_NE(r.err.find(c.expect), std::string::npos) << c.name << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  Make("badlaunch", "kernel: k\nptx: k.ptx\ngrid: 1\nblock: 32\nparams: []\nfoo: 1\n",
       head + "\tret;\n}\n");
  r = Gpurf("workload run badlaunch " + corpus);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("badlaunch/launch.yaml:6:1: error: foo: unknown key"), std::string::npos)
      << r.err;
}

TEST_F(WorkloadFiles, CliReportsReferenceMismatchWithExitOne) {
  // The kernel subtracts where the reference adds.
  std::stringstream ptx;
  ptx << std::ifstream(kCorpus + "/vectorAdd/vectorAdd.ptx").rdbuf();
  std::string text = ptx.str();
  text.replace(text.find("add.f32"), 7, "sub.f32");
  Make("mismatch", kGood, text);
  const Cli r = Gpurf("workload run mismatch --corpus-dir '" + (dir_ / "corpus").string() + "'");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.out.find("FAIL mismatch"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("elements differ from the reference; first c["), std::string::npos) << r.out;
}

}  // namespace
}  // namespace gpurf::sim
