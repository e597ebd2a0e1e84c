// Output folders: StagingDir commit into a new, empty, previous-gpurf or foreign destination,
// and abandon without commit (nothing left behind). The design writer on the Fermi config and
// on a design with two identical standalone arrays: design manifest (generated and skipped
// entries), filelist.f with each file once, per-structure sub-folders and manifests.

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "base/cache.h"
#include "base/diag.h"
#include "base/fs.h"
#include "gen/config/yaml_loader.h"
#include "gen/output/design_writer.h"
#include "gen/tests/test_util.h"

namespace gpurf {
namespace {

class OutputTest : public testing::Test {
 protected:
  void SetUp() override { tmp_ = MakeTempDir(fs::temp_directory_path(), "gpurf-output-test"); }
  void TearDown() override { fs::remove_all(tmp_); }

  // Names of the entries of `dir` but gpurf's output marker (tested on its own).
  static std::set<std::string> Entries(const fs::path& dir) {
    std::set<std::string> names;
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().filename() != kOutputMarker)
        names.insert(e.path().filename().string());
    return names;
  }

  // A gpurf output folder at `dest` holding `files` (name -> contents).
  static void MakeOutput(const fs::path& dest, const std::map<std::string, std::string>& files) {
    StagingDir stage(dest);
    for (const auto& [name, text] : files) {
      fs::create_directories((stage.path() / name).parent_path());
      WriteFile(stage.path() / name, text);
    }
    stage.Commit();
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
  try {
    StagingDir stage(dest);
    FAIL() << "accepted a folder gpurf did not write";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("refusing to replace the output folder"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("not written by gpurf"), std::string::npos) << e.what();
  }
  EXPECT_EQ(Entries(dest), std::set<std::string>{"notes.txt"});
  EXPECT_EQ(ReadFile(dest / "notes.txt"), "precious");
  EXPECT_EQ(Entries(tmp_), std::set<std::string>{"out"});  // no staging folder made
}

// Issue reproducer: a manifest.json (or design.json) of the user's own does not make a folder
// gpurf's; before the fix `gpurf gen flop-array -o /tmp/app` deleted /tmp/app/src.
TEST_F(OutputTest, AManifestJsonOfTheUsersDoesNotMakeAFolderGpurfs) {
  for (const char* name : {"manifest.json", "design.json"}) {
    const fs::path dest = tmp_ / "app";
    fs::create_directories(dest / "src");
    WriteFile(dest / name, "{}");
    WriteFile(dest / "src" / "main.js", "x");
    EXPECT_THROW(StagingDir{dest}, InputError) << name;
    EXPECT_EQ(ReadFile(dest / "src" / "main.js"), "x");
    fs::remove_all(dest);
  }
}

TEST_F(OutputTest, RefusesToReplaceAFile) {
  const fs::path dest = tmp_ / "out";
  WriteFile(dest, "a file");
  EXPECT_THROW(StagingDir{dest}, InputError);
  EXPECT_EQ(ReadFile(dest), "a file");
  EXPECT_EQ(Entries(tmp_), std::set<std::string>{"out"});
}

TEST_F(OutputTest, RefusesToReplaceASymbolicLink) {
  fs::create_directories(tmp_ / "real");
  fs::create_directory_symlink(tmp_ / "real", tmp_ / "out");
  EXPECT_THROW(StagingDir{tmp_ / "out"}, InputError);
  EXPECT_TRUE(fs::is_symlink(tmp_ / "out"));
}

TEST_F(OutputTest, ReplacesAPreviousGpurfOutput) {
  const fs::path dest = tmp_ / "out";
  MakeOutput(dest, {{"manifest.json", "{\"old\": true}"},
                    {"stale.sv", "module stale; endmodule"},
                    {"old_sub/x.sv", ""}});
  // A report folder written later inside it, with its own marker (gpurf flow's synthesis/).
  MakeOutput(dest / "synthesis", {{"synthesis.md", "table"}});
  StagingDir stage(dest);
  WriteFile(stage.path() / "manifest.json", "{\"new\": true}");
  WriteFile(stage.path() / "fresh.sv", "module fresh; endmodule");
  stage.Commit();
  EXPECT_EQ(Entries(dest), (std::set<std::string>{"manifest.json", "fresh.sv"}));
  EXPECT_EQ(ReadFile(dest / "manifest.json"), "{\"new\": true}");
  EXPECT_EQ(Entries(tmp_), std::set<std::string>{"out"});  // no .out.old-* left
}

// Files a user adds to a real gpurf output folder, or edits in it, are never deleted: the
// regeneration is refused before it starts and names them.
TEST_F(OutputTest, RefusesWhenAUserAddedOrChangedAFileInAGpurfOutput) {
  const fs::path dest = tmp_ / "out";
  MakeOutput(dest, {{"a.sv", "module a; endmodule"}, {"sub/b.sv", "module b; endmodule"}});
  WriteFile(dest / "sub" / "my_notes.txt", "mine");
  try {
    StagingDir stage(dest);
    FAIL() << "would delete a user's file";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("gpurf did not write: sub/my_notes.txt"),
              std::string::npos)
        << e.what();
  }
  fs::remove(dest / "sub" / "my_notes.txt");
  WriteFile(dest / "a.sv", "module a; /* hand edit */ endmodule");
  try {
    StagingDir stage(dest);
    FAIL() << "would delete a user's edit";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("changed since gpurf wrote them: a.sv"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(ReadFile(dest / "a.sv"), "module a; /* hand edit */ endmodule");
  // Restored to what gpurf wrote, the folder is replaceable again.
  WriteFile(dest / "a.sv", "module a; endmodule");
  MakeOutput(dest, {{"c.sv", ""}});
  EXPECT_EQ(Entries(dest), std::set<std::string>{"c.sv"});
}

TEST_F(OutputTest, TheMarkerNamesGpurfItsVersionAndEveryFile) {
  const fs::path dest = tmp_ / "out";
  MakeOutput(dest, {{"a.sv", "abc"}, {"sub/b.sv", ""}});
  const auto m = nlohmann::json::parse(ReadFile(dest / kOutputMarker));
  EXPECT_EQ(m["generator"], "gpurf");
  EXPECT_EQ(m["version"], GeneratorVersion());
  ASSERT_EQ(m["files"].size(), 2U);
  EXPECT_EQ(m["files"][0]["path"], "a.sv");
  EXPECT_EQ(m["files"][0]["size"], 3);
  EXPECT_EQ(m["files"][1]["path"], "sub/b.sv");
  const auto seal = ReadSeal(dest / kOutputMarker);
  ASSERT_EQ(seal.size(), 2U);
  EXPECT_EQ(seal[0].fnv1a64, DigestFile(dest / "a.sv")->fnv1a64);
}

// Issue defect 9: outputs were created 0700 (mkdtemp's mode) whatever the umask.
TEST_F(OutputTest, OutputFoldersFollowTheUmask) {
  const mode_t old = umask(022);
  MakeOutput(tmp_ / "out", {{"a.sv", ""}});
  umask(old);
  const auto perms = fs::status(tmp_ / "out").permissions();
  EXPECT_EQ(perms & fs::perms::all, fs::perms::owner_all | fs::perms::group_read |
                                        fs::perms::group_exec | fs::perms::others_read |
                                        fs::perms::others_exec);
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
      std::set<std::string> want = {"manifest.json", "filelist.f",
                                    e["top"].get<std::string>() + ".core"};
      for (const auto& line : Lines(ReadFile(dest / name / "filelist.f")))
        want.insert(line == "+incdir+." ? "gpurf_assert.svh" : line);  // the `included header
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
  ASSERT_EQ(l1.files.size(), 4U);  // assertion header, clock gate, flop array, ORF
  ASSERT_EQ(l0.files.size(), 4U);
  ASSERT_EQ(sys.files[3].name.rfind("rf_mrf_", 0), 0U);  // after the header and SRAM wrappers
  EXPECT_EQ(files, (std::vector<std::string>{
                       "+incdir+mrf", "mrf/gpurf_sram_1r1w_macro.sv", "mrf/gpurf_sram_1r1w.sv",
                       "mrf/" + mrf.top + ".sv", "orf_l1/gpurf_clock_gate.sv",
                       "orf_l1/" + l1.files[2].name, "orf_l1/" + l1.top + ".sv",
                       "orf_l0/" + l0.files[2].name, "orf_l0/" + l0.top + ".sv",
                       // the system's own MRF (2-bit tags), then the top itself
                       "rf_system/" + sys.files[3].name, "rf_system/" + sys.top + ".sv",
                       "warp_scheduler/" + ws.top + ".sv"}));
  for (const auto& f : files) {
    if (f.starts_with("+incdir+"))  // the folder of the `included assertion header
      EXPECT_TRUE(fs::is_regular_file(dest / f.substr(8) / "gpurf_assert.svh")) << f;
    else
      EXPECT_TRUE(fs::is_regular_file(dest / f)) << f;
  }
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
  EXPECT_EQ(g.Filelist(),
            "+incdir+mrf\nmrf/gpurf_sram_1r1w_macro.sv\nmrf/gpurf_sram_1r1w.sv\nmrf/" + mrf +
                ".sv\nrf_system/" + sys_mrf + ".sv\nrf_system/" + sys.top +
                ".sv\na/gpurf_clock_gate.sv\na/" + same + ".sv\nc/" + other + ".sv\n");
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

// Cache entries (base/cache.h): sealed on publication, verified before use, repaired when
// damaged (issue defect 4: a truncated libdut.so crashed with SIGBUS, an emptied or garbage one
// failed forever, a deleted one could not be placed again).
TEST(CacheEntry, PublishesOnceAndKeepsTheFirstOfTwoBuilders) {
  const TempDir root("gpurf-cache-test");
  const fs::path dest = root.path() / "entry";
  {
    CacheBuild b(root.path(), "entry");
    WriteFile(b.path() / "result.json", "mine");
    b.Publish("test entry");
  }
  EXPECT_EQ(ReadFile(dest / "result.json"), "mine");
  EXPECT_TRUE(VerifyCacheEntry(dest, "test entry", {"result.json"}));
  EXPECT_FALSE(fs::exists(dest / ".lock"));
  {
    CacheBuild late(root.path(), "entry");
    WriteFile(late.path() / "result.json", "late");
    late.Publish("test entry");
  }
  EXPECT_EQ(ReadFile(dest / "result.json"), "mine");
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(root.path()))
    names.insert(e.path().filename().string());
  EXPECT_EQ(names, std::set<std::string>{"entry"});  // no build folder left
}

TEST(CacheEntry, EveryKindOfDamageIsDetectedRemovedAndReplaced) {
  const TempDir root("gpurf-cache-test");
  const fs::path dest = root.path() / "entry";
  const auto publish = [&](const std::string& text) {
    CacheBuild b(root.path(), "entry");
    fs::create_directories(b.path() / "obj");
    WriteFile(b.path() / "obj" / "libdut.so", text);
    b.Publish("test model");
  };
  const std::string good(5000, 'x');
  const std::vector<std::pair<std::string, std::function<void()>>> damages = {
      {"truncated", [&] { fs::resize_file(dest / "obj" / "libdut.so", 100); }},
      {"emptied", [&] { WriteFile(dest / "obj" / "libdut.so", ""); }},
      {"garbage", [&] { WriteFile(dest / "obj" / "libdut.so", std::string(5000, 'y')); }},
      {"deleted", [&] { fs::remove(dest / "obj" / "libdut.so"); }},
      {"no seal", [&] { fs::remove(dest / kSealFile); }},
      {"seal cut", [&] { fs::resize_file(dest / kSealFile, 10); }},
  };
  for (const auto& [what, damage] : damages) {
    publish(good);
    damage();
    EXPECT_TRUE(CheckCacheEntry(dest).has_value()) << what;
    EXPECT_FALSE(VerifyCacheEntry(dest, "test model", {"obj/libdut.so"})) << what;
    EXPECT_FALSE(fs::exists(dest)) << what;
    publish(good);  // the rebuild can be placed
    EXPECT_TRUE(VerifyCacheEntry(dest, "test model", {"obj/libdut.so"})) << what;
    fs::remove_all(dest);
  }
  // Damaged entries still in the way when a build publishes are replaced, not fatal.
  publish(good);
  fs::remove(dest / "obj" / "libdut.so");
  publish(good);
  EXPECT_EQ(ReadFile(dest / "obj" / "libdut.so"), good);
  EXPECT_TRUE(CheckCacheEntry(dest, {"obj/libdut.so"}) == std::nullopt);
  EXPECT_EQ(CheckCacheEntry(dest, {"obj/other.so"}), "the seal does not list obj/other.so");
}

TEST(CacheEntry, StaleBuildFoldersOfDeadProcessesAreRemovedLiveOnesKept) {
  const TempDir root("gpurf-cache-test");
  CacheBuild live(root.path(), "live");  // holds its lock while it exists
  // A dead builder's folder: lock file present, nobody holds it.
  fs::create_directories(root.path() / ".build-dead-abc123");
  WriteFile(root.path() / ".build-dead-abc123" / ".lock", "");
  WriteFile(root.path() / ".build-dead-abc123" / "half.o", "x");
  fs::create_directories(root.path() / ".damaged-entry-xyz");
  // A fresh folder without a lock (its builder between mkdtemp and lock) is kept...
  fs::create_directories(root.path() / ".build-young-def456");
  // ...an old one (an older gpurf's, or a crash at that point) is not.
  fs::create_directories(root.path() / ".build-old-ghi789");
  fs::last_write_time(root.path() / ".build-old-ghi789",
                      fs::file_time_type::clock::now() - std::chrono::hours(2));
  EXPECT_EQ(RemoveStaleBuilds(root.path()), 3);
  EXPECT_TRUE(fs::exists(live.path()));
  EXPECT_TRUE(fs::exists(root.path() / ".build-young-def456"));
  EXPECT_FALSE(fs::exists(root.path() / ".build-dead-abc123"));
  EXPECT_FALSE(fs::exists(root.path() / ".build-old-ghi789"));
  EXPECT_FALSE(fs::exists(root.path() / ".damaged-entry-xyz"));
}

}  // namespace
}  // namespace gpurf
