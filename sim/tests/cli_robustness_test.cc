// The real gpurf binary on the workload / simulation side's reliability defects: kernels that
// cannot run on a design's SM are skipped (and reported) when they come from "all"; a runaway
// kernel stops at the recording limit quickly and small; report outputs are all-or-nothing.

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "sim/tests/cli_fixture.h"

namespace gpurf {
namespace {

namespace fs = std::filesystem;

using Result = test::CliResult;
using test::Slurp;

const std::string kCorpus = GPURF_SOURCE_DIR "/workloads/corpus";
const std::string kSmall = GPURF_SOURCE_DIR "/configs/examples/small_arrays.yaml";
const std::string kMrfOnly = GPURF_SOURCE_DIR "/configs/examples/mrf_only.yaml";

class CliRobustness : public test::CliFixture {
 protected:
  CliRobustness() : CliFixture("gpurf-cli-robustness-") {}

  std::vector<std::string> Listing(const fs::path& d) const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(d))
      names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }
};

TEST_F(CliRobustness, EnergyOverAllSkipsKernelsThatDoNotFitTheSm) {
  // small_arrays has 4 warps per SM and 1024 registers (8 lanes): the 256-thread kernels (8
  // warps per CTA) cannot run; the 128-thread ones with at most 32 registers (nbody,
  // scalarProd, spmv, particleFilter, pathfinder, backprop, stencil3d, warpScan) and the one-warp
  // ones (nw, lud) can. Before: exit 1 "kernel bfs does not fit".
  const fs::path out = dir_ / "e";
  fs::create_directories(out);
  const Result r = Run("energy " + kSmall + " --workload all --md " + (out / "e.md").string() +
                       " --csv " + (out / "e.csv").string() + " --json " +
                       (out / "e.json").string() + " --svg " + (out / "e.svg").string());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("skipping kernel bfs of workload bfs: kernel bfs does not fit one CTA on "
                       "the SM: 8 warps/CTA (SM 4)"),
            std::string::npos)
      << r.err;
  const std::string md = Slurp(out / "e.md");
  EXPECT_NE(md.find("Skipped kernels"), std::string::npos) << md;
  EXPECT_NE(md.find("- `bfs` (workload bfs): kernel bfs does not fit"), std::string::npos) << md;
  EXPECT_EQ(md.find("`nbody`"), std::string::npos) << md;
  // The reason holds commas: quoted, so the comment line still has four fields.
  const std::string csv = Slurp(out / "e.csv");
  EXPECT_NE(csv.find("# skipped,bfs,bfs,\"kernel bfs does not fit one CTA on the SM: 8 "
                     "warps/CTA (SM 4), "),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find("(design small-arrays)\"\n"), std::string::npos) << csv;
  const auto j = nlohmann::json::parse(Slurp(out / "e.json"));
  ASSERT_TRUE(j.contains("skipped"));
  bool bfs = false, nbody = false;
  for (const auto& s : j["skipped"]) {
    bfs |= s["kernel"] == "bfs";
    nbody |= s["kernel"] == "nbody";
  }
  EXPECT_TRUE(bfs);
  EXPECT_FALSE(nbody);
  EXPECT_EQ(j["skipped"].size(), 19u);  // all but the ten above
  EXPECT_EQ(j["designs"][0]["kernels"].size(), 10u);
  EXPECT_EQ(Listing(out), (std::vector<std::string>{"e.csv", "e.json", "e.md", "e.svg"}));
}

TEST_F(CliRobustness, AllWithNothingThatFitsIsBadInput) {
  const fs::path d = dir_ / "tiny.yaml";
  std::string text = Slurp(kSmall);
  text.replace(text.find("warps: 4"), 8, "warps: 2");
  text.replace(text.find("active_warps: 4"), 15, "active_warps: 2");
  std::ofstream(d) << text;
  // A one-warp CTA of 16 registers fits every valid design (nw, lud), so "all" runs over a corpus
  // of two 256-thread kernels, through GPURF_HOME.
  const fs::path home = dir_ / "home";
  fs::create_directories(home / "workloads" / "corpus");
  for (const char* w : {"vectorAdd", "bfs"})
    fs::copy(kCorpus + "/" + w, home / "workloads" / "corpus" / w, fs::copy_options::recursive);
  setenv("GPURF_HOME", home.c_str(), 1);
  const Result r = Run("sim " + d.string() + " --workload all");
  unsetenv("GPURF_HOME");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("none of the 2 kernels fits the design's SM"), std::string::npos) << r.err;
}

TEST_F(CliRobustness, ExplicitKernelThatDoesNotFitIsBadInput) {
  for (const char* cmd : {"sim", "energy"}) {
    const Result r = Run(std::string(cmd) + " " + kSmall + " --workload bfs");
    EXPECT_EQ(r.code, 2) << cmd << ": " << r.err;
    EXPECT_NE(r.err.find("kernel bfs does not fit one CTA on the SM: 8 warps/CTA (SM 4)"),
              std::string::npos)
        << r.err;
  }
  // Named explicitly beside "all": still an error.
  const Result r = Run("sim " + kSmall + " --workload all --workload bfs");
  EXPECT_EQ(r.code, 2) << r.err;
}

TEST_F(CliRobustness, EndlessKernelStopsQuicklyAndSmall) {
  // vectorAdd with an endless loop: before, bad_alloc at several GB.
  const fs::path w = dir_ / "w";
  fs::create_directories(w);
  fs::copy_file(kCorpus + "/vectorAdd/launch.yaml", w / "launch.yaml");
  std::string ptx = Slurp(kCorpus + "/vectorAdd/vectorAdd.ptx");
  ptx.replace(ptx.find("$L__BB0_2:\n\tret;"), 16,
              "$L__BB0_2:\n\tadd.s32 %r2, %r2, 1;\n\tbra.uni $L__BB0_2;\n\tret;");
  std::ofstream(w / "vectorAdd.ptx") << ptx;
  const auto t0 = std::chrono::steady_clock::now();
  const Result r = Run("workload analyze " + (w / "launch.yaml").string());
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("vectorAdd.ptx:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("exceed the limit of 512 MiB"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--max-record-mb"), std::string::npos) << r.err;
  EXPECT_LT(s, 60.0);
  rusage u{};
  getrusage(RUSAGE_CHILDREN, &u);  // the largest child so far: this test runs alone
  // 512 MiB of records plus the program: under 1 GiB. AddressSanitizer's shadow memory and
  // quarantine of freed blocks add about half as much again, so the sanitizer build allows 2 GiB
  // (still far below the several GB the endless kernel took before the limit).
#if defined(__SANITIZE_ADDRESS__)
  constexpr long kMaxRssKib = 2L * 1024 * 1024;
#else
  constexpr long kMaxRssKib = 1024L * 1024;
#endif
  EXPECT_LT(u.ru_maxrss, kMaxRssKib) << "KiB of peak RSS";
}

TEST_F(CliRobustness, ReportOutputsAreAllOrNothing) {
  const fs::path out = dir_ / "o";
  fs::create_directories(out);
  // A bad --svg is found before anything is simulated or written: no CSV either.
  Result r = Run("energy " + kMrfOnly + " --workload vectorAdd --csv " + (out / "e.csv").string() +
                 " --svg " + (out / "missing" / "e.svg").string());
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("--svg"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find((out / "missing" / "e.svg").string()), std::string::npos) << r.err;
  EXPECT_TRUE(Listing(out).empty());
  // Same for analyze's --csv (before: exit 3 after the analysis).
  r = Run("workload analyze vectorAdd --csv " + (out / "missing" / "u.csv").string());
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("--csv"), std::string::npos) << r.err;
  // Success: exactly the files asked for, no temporaries; an existing file is replaced whole.
  std::ofstream(out / "s.json") << std::string(100000, 'x');
  r = Run("sim " + kMrfOnly + " --workload vectorAdd --json " + (out / "s.json").string());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(Listing(out), std::vector<std::string>{"s.json"});
  EXPECT_TRUE(nlohmann::json::accept(Slurp(out / "s.json")));
  // A write that fails after opening (disk full) is an environment failure.
  r = Run("workload analyze vectorAdd --csv /dev/full");
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_NE(r.err.find("--csv /dev/full: write failed"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace gpurf
