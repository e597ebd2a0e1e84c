// `gpurf prove` through the real binary: a proof with its result line, exit 0 and an atomic
// output folder with manifest.json; kinds without properties listed as skipped; --list without
// proving (a structure and a design file); a solver timeout reported UNKNOWN with exit 1;
// bad input (unknown property, depth out of range, no target) with exit 2 and nothing written.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "app/tests/gpurf_cli_fixture.h"
#include "base/fs.h"

namespace gpurf {
namespace {

class ProveCliTest : public GpurfCliTest {
 protected:
  ProveCliTest() : GpurfCliTest("gpurf-prove-cli-test") {}
};

const std::string kFlop =
    "flop-array --entries 4 --width 4 --read-ports 2 --write-ports 2 --bypass true";

TEST_F(ProveCliTest, ProvesAndWritesTheManifest) {
  const RunResult r = Gpurf("prove " + kFlop + " -o proofs");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("PROVEN  rf_flop_2r2w_4x4_"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("read-returns-last-write: K = 3 cycles"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 properties: 1 proven, 0 failed, 0 unknown"), std::string::npos) << r.out;
  EXPECT_EQ(WorkEntries(), std::set<std::string>{"proofs"});
  const auto m = nlohmann::json::parse(ReadFile(work_ / "proofs" / "manifest.json"));
  EXPECT_EQ(m["generator"], "gpurf prove");
  ASSERT_EQ(m["results"].size(), 1u);
  EXPECT_EQ(m["results"][0]["status"], "PROVEN");
  EXPECT_EQ(m["results"][0]["property"], "read-returns-last-write");
  EXPECT_EQ(m["results"][0]["depth"], 3);
  // A second run replaces the folder it made.
  EXPECT_EQ(Gpurf("prove " + kFlop + " -o proofs").code, 0);
}

TEST_F(ProveCliTest, KindsWithoutPropertiesAreSkipped) {
  const RunResult r =
      Gpurf("prove mrf --banks 2 --rows 8 --width 8 --warps 2 --regs 4 --collectors 1");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("SKIPPED rf_mrf"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("no formal properties for this kind yet"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("0 properties: 0 proven, 0 failed, 0 unknown; 1 structure(s) skipped"),
            std::string::npos)
      << r.out;
}

TEST_F(ProveCliTest, ListsPropertiesWithoutProving) {
  RunResult r = Gpurf("prove rfc --active-warps 2 --l1-entries 2 --reg-bits 2 --list");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("no-duplicate-tag"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("live-values-kept"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("K = 4"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("PROVEN"), std::string::npos) << r.out;

  r = Gpurf("prove " GPURF_SOURCE_DIR "/configs/fermi_gebhart.yaml --list");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("empty-after-deschedule"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("active-slots"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("no formal properties for this kind yet"), std::string::npos) << r.out;
  EXPECT_TRUE(WorkEntries().empty());
}

TEST_F(ProveCliTest, TimeoutIsUnknownAndExitsOne) {
  // A solver run cut short by --timeout proves nothing: UNKNOWN, exit 1, never PROVEN.
  const RunResult r = Gpurf(
      "prove rfc --active-warps 2 --levels 2 --l1-entries 2 --l0-entries 1 --reg-bits 2 "
      "--width 2 --replacement lru --property no-duplicate-tag --timeout 1 -o proofs");
  ASSERT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("UNKNOWN rf_rfc_a2_l0x1_l1x2_2_"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("timed out after 1 s"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("PROVEN"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 properties: 0 proven, 0 failed, 1 unknown"), std::string::npos) << r.out;
  const auto m = nlohmann::json::parse(ReadFile(work_ / "proofs" / "manifest.json"));
  EXPECT_EQ(m["results"][0]["status"], "UNKNOWN");
  // The proof's inputs are kept to rerun it by hand.
  const std::string top = m["results"][0]["top"];
  EXPECT_TRUE(fs::exists(work_ / "proofs" / top / "no-duplicate-tag" / "run.sh"));
}

TEST_F(ProveCliTest, BadInputExitsTwoAndWritesNothing) {
  RunResult r = Gpurf("prove " + kFlop + " --property no-such-thing -o proofs");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("--property"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("allowed: read-returns-last-write"), std::string::npos) << r.err;

  r = Gpurf("prove " + kFlop + " --property live-values-kep");
  EXPECT_EQ(r.code, 2) << r.err;

  r = Gpurf("prove " + kFlop + " --depth 0");
  EXPECT_EQ(r.code, 2) << r.err;

  r = Gpurf("prove");
  EXPECT_EQ(r.code, 2) << r.err;

  r = Gpurf("prove flop-array --entries 0");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("--entries"), std::string::npos) << r.err;
  EXPECT_TRUE(WorkEntries().empty());
}

}  // namespace
}  // namespace gpurf
