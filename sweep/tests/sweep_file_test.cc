// Sweep files: every bad input is an InputError at the sweep file's file:line:column (the CLI's
// exit 2), raised before anything runs; points expand in a fixed order with stable hashes.
#include "sweep/sweep_file.h"

#include <gtest/gtest.h>

#include <fstream>

#include "base/fs.h"

namespace gpurf {
namespace {

fs::path WriteSweep(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / "gpurf-sweep-file-test";
  fs::create_directories(dir);
  const fs::path p = dir / name;
  std::ofstream(p) << text;
  return p;
}

const char* kBase = R"(base:
  design:
    name: t
  hierarchy:
    kind: sw-orf
    levels: 2
    l1_entries_per_thread: 3
)";

// The message of the InputError that loading and expanding `text` raises.
std::string ErrorOf(const std::string& name, const std::string& text) {
  const fs::path p = WriteSweep(name, text);
  try {
    ExpandSweep(LoadSweepFile(p.string()));
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(SweepFile, ExpandsListsAndRangesInOrder) {
  const fs::path p = WriteSweep("ok.yaml", std::string(kBase) + R"(axes:
  hierarchy.l1_entries_per_thread: {from: 1, to: 7, step: 2}
  sm.active_warps: [4, 8]
constraints:
  - "hierarchy.l1_entries_per_thread * sm.active_warps <= 40"
steps: [simulate, energy]
workloads: [vectorAdd]
)");
  const SweepFile sw = LoadSweepFile(p.string());
  EXPECT_EQ(sw.steps, (std::vector<std::string>{"simulate", "energy"}));
  const auto pts = ExpandSweep(sw);
  // 1,3,5,7 x 4,8 = 8 combinations; 7*8 = 56 and 5*8 = 40 (kept), so one is dropped.
  ASSERT_EQ(pts.size(), 7u);
  EXPECT_EQ(pts[0].axis_values[0].second, "1");
  EXPECT_EQ(pts[0].axis_values[1].second, "4");
  EXPECT_EQ(pts[1].axis_values[1].second, "8");
  EXPECT_EQ(pts[0].params["hierarchy.kind"], "sw-orf");
  EXPECT_EQ(pts[0].params["sm.active_warps"], 4);
}

TEST(SweepFile, HashIsStableAndContentBased) {
  const std::string text =
      std::string(kBase) + "axes:\n  sm.active_warps: [4, 8]\nsteps: [energy]\n";
  const auto a = ExpandSweep(LoadSweepFile(WriteSweep("h1.yaml", text).string()));
  // The same points written in another key order, another file and a comment: same hashes.
  const std::string reordered = R"(# comment
steps: [energy]
axes:
  sm.active_warps: [4, 8]
base:
  hierarchy: {l1_entries_per_thread: 3, levels: 2, kind: sw-orf}
  design: {name: t}
)";
  const auto b = ExpandSweep(LoadSweepFile(WriteSweep("h2.yaml", reordered).string()));
  ASSERT_EQ(a.size(), 2u);
  ASSERT_EQ(b.size(), 2u);
  EXPECT_EQ(a[0].hash, b[0].hash);
  EXPECT_EQ(a[1].hash, b[1].hash);
  EXPECT_NE(a[0].hash, a[1].hash);
  EXPECT_EQ(a[0].hash.size(), 16u);
  // Another workload list is another point.
  const auto c =
      ExpandSweep(LoadSweepFile(WriteSweep("h3.yaml", text + "workloads: [vectorAdd]\n").string()));
  EXPECT_NE(a[0].hash, c[0].hash);
}

TEST(SweepFile, BadInputNamesFileLineColumn) {
  const std::string f = (fs::temp_directory_path() / "gpurf-sweep-file-test").string();
  // An axis value the design loader rejects: blamed at the value in the sweep file.

  {
    const std::string e = ErrorOf("bad_value.yaml", std::string(kBase) +
                                                        "axes:\n  hierarchy.l1_entries_per_thread: "
                                                        "[3, 99]\nsteps: [energy]\n");
    EXPECT_NE(e.find("bad_value.yaml:9:40: error: hierarchy.l1_entries_per_thread"),
              std::string::npos)
        << e;
    EXPECT_NE(e.find("got '99'"), std::string::npos) << e;
  }
  // A misspelt dotted path: blamed at the path, with a suggestion.
  {
    const std::string e = ErrorOf("bad_path.yaml", std::string(kBase) +
                                                       "axes:\n  hierarchy.l1_entries_per_thred: "
                                                       "[3]\nsteps: [energy]\n");
    EXPECT_NE(e.find("bad_path.yaml:9:3: error:"), std::string::npos) << e;
    EXPECT_NE(e.find("did you mean"), std::string::npos) << e;
  }
  // A path through a value.
  {
    const std::string e = ErrorOf("through.yaml", std::string(kBase) +
                                                      "axes:\n  hierarchy.kind.x: [3]\nsteps: "
                                                      "[energy]\n");
    EXPECT_NE(e.find("through.yaml:9:3: error: axes: 'hierarchy.kind' is a value"),
              std::string::npos)
        << e;
  }
  // An unknown step, a bad range, an unknown top-level key, a bad constraint.
  EXPECT_NE(ErrorOf("step.yaml", std::string(kBase) + "steps: [energy, simulte]\n")
                .find("step.yaml:8:17: error: steps: unknown step (did you mean 'simulate'?)"),
            std::string::npos);
  EXPECT_NE(
      ErrorOf("range.yaml",
              std::string(kBase) + "axes:\n  sm.active_warps: {from: 8, to: 4}\nsteps: [energy]\n")
          .find("range.yaml:9:34: error: axes.sm.active_warps.to: smaller than from"),
      std::string::npos);
  EXPECT_NE(ErrorOf("key.yaml", std::string(kBase) + "stepz: [energy]\nsteps: [energy]\n")
                .find("key.yaml:8:1: error: stepz: unknown key (did you mean 'steps'?)"),
            std::string::npos);
  EXPECT_NE(
      ErrorOf("constraint.yaml", std::string(kBase) + "axes:\n  sm.active_warps: [4]\nconstraints: "
                                                      "[\"sm.warps < 3\"]\nsteps: [energy]\n")
          .find("constraint.yaml:10:15: error: constraints: 'sm.warps' is not a field"),
      std::string::npos);
  EXPECT_NE(
      ErrorOf("none.yaml", std::string(kBase) + "axes:\n  sm.active_warps: [4]\nconstraints: "
                                                "[\"sm.active_warps > 4\"]\nsteps: [energy]\n")
          .find("no point satisfies the constraints"),
      std::string::npos);
  EXPECT_NE(ErrorOf("malformed.yaml", "base: [\n").find("malformed.yaml:"), std::string::npos);
  (void)f;
}

}  // namespace
}  // namespace gpurf
