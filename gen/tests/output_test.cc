// Output folders: StagingDir commit into a new, empty, previous-gpurf or foreign destination,
// and abandon without commit (nothing left behind). The design writer on the Fermi config and
// on a design with two identical standalone arrays: design manifest (generated and skipped
// entries), filelist.f with each file once, per-structure sub-folders and manifests.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gen/config/yaml_loader.h"
#include "gen/output/design_writer.h"
#include "gen/tests/test_util.h"
#include "gen/util/diag.h"
#include "gen/util/fs.h"

namespace gpurf {
namespace {

class OutputTest : public testing::Test {
 protected:
  void SetUp() override { tmp_ = MakeTempDir(fs::temp_directory_path(), "gpurf-output-test"); }
  void TearDown() override { fs::remove_all(tmp_); }

  // Names of the entries of `dir`.
  static std::set<std::string> Entries(const fs::path& dir) {
    std::set<std::string> names;
    for (const auto& e : fs::directory_iterator(dir))
      names.insert(e.path().filename().string());
    return names;
  }

  fs::path tmp_;
};

using test::Lines;

TEST_F(OutputTest, StagingIsHiddenBesideTheDestinationUntilCommit) {
  const fs::path dest = tmp_ / "out";
  StagingDir stage(dest);
  EXPECT_EQ(stage.dest(), dest);
  EXPECT_EQ(stage.path().parent_path(), tmp_);
  EXPECT_EQ(stage.path().filename().string().rfind(".out.staging-", 0), 0U)
      << stage.path().filename();
  EXPECT_TRUE(fs::is_directory(stage.path()));
  EXPECT_FALSE(fs::exists(dest));
  WriteFile(stage.path() / "a.txt", "hello");
  EXPECT_FALSE(fs::exists(dest));
  stage.Commit();
  EXPECT_TRUE(fs::is_directory(dest));
  EXPECT_EQ(ReadFile(dest / "a.txt"), "hello");
  EXPECT_FALSE(fs::exists(stage.path()));
  EXPECT_EQ(Entries(tmp_), std::set<std::string>{"out"});
}

TEST_F(OutputTest, CommitSurvivesTheStagingObject) {
  {
    StagingDir stage(tmp_ / "out");
    WriteFile(stage.path() / "a.txt", "x");
    stage.Commit();
  }  // the destructor must not remove a committed folder
  EXPECT_EQ(ReadFile(tmp_ / "out" / "a.txt"), "x");
  EXPECT_EQ(Entries(tmp_), std::set<std::string>{"out"});
}

TEST_F(OutputTest, DestructorWithoutCommitLeavesNothing) {
  fs::path staged;
  {
    StagingDir stage(tmp_ / "out");
    staged = stage.path();
    fs::create_directories(staged / "sub");
    WriteFile(staged / "sub" / "a.txt", "partial");
  }
  EXPECT_FALSE(fs::exists(staged));
  EXPECT_FALSE(fs::exists(tmp_ / "out"));
  EXPECT_TRUE(Entries(tmp_).empty());
}

TEST_F(OutputTest, TrailingSlashNamesTheSameFolder) {
  StagingDir stage((tmp_ / "out").string() + "/");
  EXPECT_EQ(stage.dest(), tmp_ / "out");
  stage.Commit();
  EXPECT_TRUE(fs::is_directory(tmp_ / "out"));
}

TEST_F(OutputTest, RefusesToReplaceAForeignFolder) {
  const fs::path dest = tmp_ / "out";
  fs::create_directories(dest);
  WriteFile(dest / "notes.txt", "precious");
  {
    StagingDir stage(dest);
    WriteFile(stage.path() / "manifest.json", "{}");
    try {
      stage.Commit();
      FAIL() << "replaced a folder gpurf did not write";
    } catch (const ToolError& e) {
      EXPECT_NE(std::string(e.what()).find("refusing to replace '" + dest.string() + "'"),
                std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find("no manifest.json"), std::string::npos);
    }
  }
  EXPECT_EQ(Entries(dest), std::set<std::string>{"notes.txt"});
  EXPECT_EQ(ReadFile(dest / "notes.txt"), "precious");
  EXPECT_EQ(Entries(tmp_), std::set<std::string>{"out"});  // staging folder cleaned up
}

TEST_F(OutputTest, RefusesToReplaceAFile) {
  const fs::path dest = tmp_ / "out";
  WriteFile(dest, "a file");
  {
    StagingDir stage(dest);
    EXPECT_THROW(stage.Commit(), ToolError);
  }
  EXPECT_EQ(ReadFile(dest), "a file");
  EXPECT_EQ(Entries(tmp_), std::set<std::string>{"out"});
}

TEST_F(OutputTest, ReplacesAPreviousGpurfOutput) {
  const fs::path dest = tmp_ / "out";
  fs::create_directories(dest / "old_sub");
  WriteFile(dest / "manifest.json", "{\"old\": true}");
  WriteFile(dest / "stale.sv", "module stale; endmodule");
  WriteFile(dest / "old_sub" / "x.sv", "");
  StagingDir stage(dest);
  WriteFile(stage.path() / "manifest.json", "{\"new\": true}");
  WriteFile(stage.path() / "fresh.sv", "module fresh; endmodule");
  stage.Commit();
  EXPECT_EQ(Entries(dest), (std::set<std::string>{"manifest.json", "fresh.sv"}));
  EXPECT_EQ(ReadFile(dest / "manifest.json"), "{\"new\": true}");
  EXPECT_EQ(Entries(tmp_), std::set<std::string>{"out"});  // no .out.old-* left
}

TEST_F(OutputTest, ReplacesAnEmptyFolder) {
  const fs::path dest = tmp_ / "out";
  fs::create_directories(dest);
  StagingDir stage(dest);
  WriteFile(stage.path() / "a.txt", "a");
  stage.Commit();
  EXPECT_EQ(Entries(dest), std::set<std::string>{"a.txt"});
}

TEST_F(OutputTest, DesignWriterOnFermi) {
  const DesignSpec spec = LoadDesign(GPURF_SOURCE_DIR "/configs/fermi_gebhart.yaml");
  const GeneratedDesign g = GenerateDesign(spec);
  ASSERT_EQ(g.structures.size(), 5U);
  const fs::path dest = tmp_ / "fermi";
  {
    StagingDir stage(dest);
    WriteDesign(stage.path(), g);
    stage.Commit();
  }
  EXPECT_EQ(Entries(dest), (std::set<std::string>{"manifest.json", "filelist.f", "mrf", "orf_l1",
                                                  "orf_l0", "rf_system", "warp_scheduler"}));

  const auto m = nlohmann::json::parse(ReadFile(dest / "manifest.json"));
  EXPECT_EQ(m["generator"]["name"], "gpurf");
  EXPECT_EQ(m["generator"]["version"], GeneratorVersion());
  EXPECT_EQ(m["design"], "fermi-gebhart");
  EXPECT_EQ(m["config_hash"], spec.config_hash);
  ASSERT_EQ(m["structures"].size(), 5U);
  std::set<std::string> skipped, generated;
  for (const auto& e : m["structures"]) {
    const std::string name = e["name"];
    if (e.contains("skipped")) {
      skipped.insert(name);
      EXPECT_NE(e["skipped"].get<std::string>().find("not implemented yet"), std::string::npos);
      EXPECT_FALSE(e.contains("folder")) << name;
      EXPECT_FALSE(fs::exists(dest / name)) << name;
    } else {
      generated.insert(name);
      EXPECT_EQ(e["folder"], name);
      EXPECT_EQ(e["manifest"], name + "/manifest.json");
      // Each sub-folder is a complete structure output of its own.
      const auto sub = nlohmann::json::parse(ReadFile(dest / name / "manifest.json"));
      EXPECT_EQ(sub["instance"], name);
      EXPECT_EQ(sub["top"], e["top"]);
      std::set<std::string> want = {"manifest.json", "filelist.f"};
      for (const auto& line : Lines(ReadFile(dest / name / "filelist.f")))
        want.insert(line);
      EXPECT_EQ(Entries(dest / name), want) << name;
      EXPECT_TRUE(fs::exists(dest / name / (e["top"].get<std::string>() + ".sv")));
    }
  }
  EXPECT_TRUE(skipped.empty());
  EXPECT_EQ(generated,
            (std::set<std::string>{"mrf", "orf_l1", "orf_l0", "rf_system", "warp_scheduler"}));
  EXPECT_EQ(m["structures"][0]["count"], 8);  // one MRF per lane cluster
  EXPECT_EQ(m["structures"][1]["count"], 8);
  EXPECT_EQ(m["structures"][2]["count"], 8);
  EXPECT_EQ(m["structures"][3]["count"], 8);  // one system top per lane cluster
  EXPECT_EQ(m["structures"][4]["count"], 1);
  EXPECT_EQ(m["spec"]["mrf"]["capacity_bytes"], 131072);

  // filelist.f: every file once, primitives first, each ORF after the flop array it instantiates.
  const auto files = Lines(ReadFile(dest / "filelist.f"));
  const GeneratedStructure& mrf = g.structures[0].second;
  const GeneratedStructure& l1 = g.structures[1].second;
  const GeneratedStructure& l0 = g.structures[2].second;
  const GeneratedStructure& sys = g.structures[3].second;
  const GeneratedStructure& ws = g.structures[4].second;
  ASSERT_EQ(l1.files.size(), 3U);  // clock gate, flop array, ORF
  ASSERT_EQ(l0.files.size(), 3U);
  ASSERT_EQ(sys.files[2].name.rfind("rf_mrf_", 0), 0U);  // after the SRAM wrappers
  EXPECT_EQ(files, (std::vector<std::string>{
                       "mrf/gpurf_sram_1r1w_macro.sv", "mrf/gpurf_sram_1r1w.sv",
                       "mrf/" + mrf.top + ".sv", "orf_l1/gpurf_clock_gate.sv",
                       "orf_l1/" + l1.files[1].name, "orf_l1/" + l1.top + ".sv",
                       "orf_l0/" + l0.files[1].name, "orf_l0/" + l0.top + ".sv",
                       // the system's own MRF (2-bit tags), then the top itself
                       "rf_system/" + sys.files[2].name, "rf_system/" + sys.top + ".sv",
                       "warp_scheduler/" + ws.top + ".sv"}));
  for (const auto& f : files)
    EXPECT_TRUE(fs::is_regular_file(dest / f)) << f;
}

TEST_F(OutputTest, DesignFilelistListsIdenticalModulesOnce) {
  const DesignSpec spec = LoadDesignFromString(
      "sm: {lanes: 8, warps: 4, active_warps: 4}\n"
      "mrf: {banks: 4, entries: 64}\n"
      "hierarchy: {kind: mrf-only}\n"
      "scheduler: {kind: single-level}\n"
      "structures:\n"
      "  - {name: a, kind: flop-array, entries: 12, width: 32}\n"
      "  - {name: b, kind: flop-array, entries: 12, width: 32}\n"
      "  - {name: c, kind: flop-array, entries: 12, width: 33, clock_gate: false}\n",
      "t.yaml");
  const GeneratedDesign g = GenerateDesign(spec);
  ASSERT_EQ(g.structures.size(), 5U);  // mrf, rf_system, a, b, c
  const std::string mrf = g.structures[0].second.top;
  const GeneratedStructure& sys = g.structures[1].second;
  const std::string sys_mrf = sys.files[sys.files.size() - 2].module;  // its MRF (2-bit tags)
  const std::string same = g.structures[2].second.top;
  EXPECT_EQ(g.structures[3].second.top, same);
  const std::string other = g.structures[4].second.top;
  EXPECT_NE(other, same);
  EXPECT_EQ(g.Filelist(), "mrf/gpurf_sram_1r1w_macro.sv\nmrf/gpurf_sram_1r1w.sv\nmrf/" + mrf +
                              ".sv\nrf_system/" + sys_mrf + ".sv\nrf_system/" + sys.top +
                              ".sv\na/gpurf_clock_gate.sv\na/" + same + ".sv\nc/" + other +
                              ".sv\n");
  // Both instances still get their own complete folder.
  WriteDesign(tmp_, g);
  EXPECT_TRUE(fs::exists(tmp_ / "b" / (same + ".sv")));
  EXPECT_TRUE(fs::exists(tmp_ / "b" / "gpurf_clock_gate.sv"));
  EXPECT_FALSE(fs::exists(tmp_ / "c" / "gpurf_clock_gate.sv"));
  const auto m = nlohmann::json::parse(ReadFile(tmp_ / "manifest.json"));
  EXPECT_EQ(m["structures"][0]["folder"], "mrf");
  EXPECT_EQ(m["structures"][3]["folder"], "b");
}

}  // namespace
}  // namespace gpurf

namespace gpurf {
namespace {

TEST(PublishCacheEntry, MovesTheEntryOrKeepsTheOneAlreadyPlaced) {
  const TempDir root("gpurf-publish-test");
  const fs::path dest = root.path() / "entry";
  const fs::path mine = MakeTempDir(root.path(), ".tmp");
  WriteFile(mine / "result.json", "mine");
  PublishCacheEntry(mine, dest, "result.json", "test entry");
  EXPECT_EQ(ReadFile(dest / "result.json"), "mine");
  EXPECT_FALSE(fs::exists(mine));

  // A second builder finishing the same entry later keeps the first one and cleans up.
  const fs::path late = MakeTempDir(root.path(), ".tmp");
  WriteFile(late / "result.json", "late");
  WriteFile(late / "extra", "x");
  PublishCacheEntry(late, dest, "result.json", "test entry");
  EXPECT_EQ(ReadFile(dest / "result.json"), "mine");
  EXPECT_FALSE(fs::exists(late));

  // A destination that is occupied but not a complete entry is an error, and tmp is removed.
  const fs::path broken = root.path() / "broken";
  fs::create_directories(broken / "junk");
  const fs::path third = MakeTempDir(root.path(), ".tmp");
  WriteFile(third / "result.json", "third");
  EXPECT_THROW(PublishCacheEntry(third, broken, "result.json", "test entry"), ToolError);
  EXPECT_FALSE(fs::exists(third));
}

}  // namespace
}  // namespace gpurf
