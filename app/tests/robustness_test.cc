// Bad input as a test suite (label "robustness"): a table of malformed inputs for the real gpurf
// binary, each row with its expected exit code and message fragments. Every row also checks the
// contract every bad input shares: the process exits with that code (no signal, no abort), the
// message starts with "gpurf: " and no line of it is longer than a screenful of text (a 10 MB
// value is never echoed whole), and nothing is left in the work folder (no output, no staging
// folder) unless the row says what must stay.
//
// Rows come from four sources:
//   - every parameter of every structure kind, from the parameter registry, with values of the
//     wrong type, below and above its range (so a new parameter is covered when it is declared);
//   - every field of the design-file schema mutated in a valid design file, the error expected
//     at the mutated value's line;
//   - hand-written rows for files that are not files, YAML syntax, command-line flags, Liberty
//     libraries and output folders (issue defects 3, 7, 11);
//   - the issue's reproducers, named after it.
// The workload side (launch files, PTX, traces, sim flags) has its own table in sim/tests.

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "base/fs.h"
#include "gen/structures/registry.h"
#include "gen/tests/test_util.h"

namespace gpurf {
namespace {

struct Case {
  std::string name;                          // gtest-safe name
  std::map<std::string, std::string> files;  // written into the work folder first
  std::string args;                          // gpurf arguments, run in the work folder
  int code = 2;
  std::vector<std::string> fragments;  // each must appear in stderr
  std::function<void(const fs::path& work)> setup;
  std::vector<std::string> keep;  // entries of the work folder that must be left untouched
};

std::string Sanitize(std::string s) {
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)))
      c = '_';
  return s;
}

// --------------------------------------------------------------- structure parameter flags

std::vector<Case> FlagCases() {
  std::vector<Case> cases;
  for (const StructureKind& k : StructureKinds()) {
    for (const ParamDesc& p : k.params) {
      std::vector<std::pair<std::string, std::string>> bad;  // value, label
      switch (p.type) {
        case ParamType::kInt:
          bad = {{"abc", "word"},
                 {"1.5", "fraction"},
                 {std::to_string(p.min - 1), "below"},
                 {std::to_string(p.max + 1), "above"},
                 {"99999999999999999999", "overflow"}};
          break;
        case ParamType::kBool:
          bad = {{"maybe", "word"}, {"2", "number"}};
          break;
        case ParamType::kEnum:
          bad = {{"bogus", "word"}, {"", "empty"}};
          break;
        case ParamType::kString:
          bad = {{"a\\\"b", "quote"}};
          break;
      }
      for (const auto& [value, label] : bad) {
        Case c;
        c.name = Sanitize("flag_" + k.name + "_" + p.name + "_" + label);
        c.args = "gen " + k.name + " " + p.flag() + " '" + value + "' -o OUT";
        c.fragments = {p.flag()};
        cases.push_back(std::move(c));
      }
    }
    Case unknown;
    unknown.name = Sanitize("flag_" + k.name + "_unknown_parameter");
    unknown.args = "gen " + k.name + " --no-such-parameter 3 -o OUT";
    unknown.fragments = {"--no-such-parameter"};
    cases.push_back(std::move(unknown));
    Case dangling;
    dangling.name = Sanitize("flag_" + k.name + "_value_missing");
    dangling.args = "gen " + k.name + " " + k.params.front().flag() + " -o OUT";
    dangling.fragments = {k.params.front().flag()};
    cases.push_back(std::move(dangling));
  }
  return cases;
}

// ------------------------------------------------------------------------- design files

// A valid design file; each line holds one field so that a row can name the line of its error.
const char* const kBaseDesign = R"(design:
  name: robust
  description: base design of the robustness table
sm:
  lanes: 32
  lane_cluster: 4
  warps: 32
  active_warps: 8
mrf:
  banks: 32
  entries: 256
  width: 128
  collectors: 4
  interleave: register
  wb_policy: write-priority
  bank_impl: macro
hierarchy:
  kind: sw-orf
  levels: 3
  l1_entries_per_thread: 3
  l0_entries_per_thread: 1
  l0_split: true
storage:
  read_mode: comb
  bypass: false
  clock_gate: true
scheduler:
  kind: two-level
  inner_policy: round-robin
)";

// The base design with the value of `section.key` replaced.
std::pair<std::string, int> Mutate(const std::string& section, const std::string& key,
                                   const std::string& value) {
  const auto lines = test::Lines(kBaseDesign);
  std::string out;
  int at = 0;
  bool in_section = false;
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string l = lines[i];
    if (!l.starts_with(" "))
      in_section = l == section + ":";
    if (in_section && l.starts_with("  " + key + ":")) {
      l = "  " + key + ": " + value;
      at = static_cast<int>(i) + 1;
    }
    out += l + "\n";
  }
  return {out, at};
}

std::vector<Case> DesignFieldCases() {
  struct Field {
    std::string section, key;
    std::vector<std::string> bad;
  };
  const std::vector<std::string> ints = {"abc", "-1", "1.5", "[1, 2]", "{a: 1}", "99999999999"};
  const std::vector<Field> fields = {
      {"design", "name", {"'has \"quote'", "''", std::string(70, 'n'), "[a]"}},
      {"design", "description", {std::string(300, 'd'), "{x: 1}"}},
      {"sm", "lanes", {"abc", "0", "65", "[1]", "1.5"}},
      {"sm", "lane_cluster", {"0", "33", "abc", "3"}},
      {"sm", "warps", {"0", "65", "abc", "-4"}},
      {"sm", "active_warps", {"0", "65", "abc", "33"}},
      {"mrf", "banks", {"0", "65", "abc", "{}"}},
      {"mrf", "entries", {"15", "4097", "abc", "-256"}},
      {"mrf", "width", ints},
      {"mrf", "collectors", {"0", "9", "abc"}},
      {"mrf", "interleave", {"bogus", "1", "[register]"}},
      {"mrf", "wb_policy", {"bogus", "true"}},
      {"mrf", "bank_impl", {"bogus", "sram"}},
      {"hierarchy", "kind", {"bogus", "hw_rfc", "3"}},
      {"hierarchy", "levels", {"0", "4", "abc"}},
      {"hierarchy", "l1_entries_per_thread", {"0", "9", "abc"}},
      {"hierarchy", "l0_entries_per_thread", {"0", "2", "abc"}},
      {"hierarchy", "l0_split", {"maybe", "2", "[true]"}},
      {"storage", "read_mode", {"bogus", "registered"}},
      {"storage", "bypass", {"maybe", "yes please"}},
      {"storage", "clock_gate", {"maybe", "{}"}},
      {"scheduler", "kind", {"bogus", "three-level"}},
      {"scheduler", "inner_policy", {"bogus", "gto"}},
  };
  std::vector<Case> cases;
  for (const Field& f : fields) {
    for (size_t i = 0; i < f.bad.size(); ++i) {
      const auto [text, line] = Mutate(f.section, f.key, f.bad[i]);
      if (line == 0)
        continue;  // Mutate found no such field: reported by the row count test below
      Case c;
      c.name = Sanitize("yaml_" + f.section + "_" + f.key + "_" + std::to_string(i));
      c.files = {{"d.yaml", text}};
      c.args = "gen d.yaml -o OUT";
      c.fragments = {"d.yaml:" + std::to_string(line) + ":", f.key};
      cases.push_back(std::move(c));
    }
  }
  // Keys that do not exist, at the top level and in each section.
  for (const std::string section : {"design", "sm", "mrf", "hierarchy", "storage", "scheduler"}) {
    std::string text = kBaseDesign;
    const std::string head = section + ":\n";
    text.insert(text.find(head) + head.size(), "  no_such_key: 1\n");
    Case c;
    c.name = "yaml_unknown_key_in_" + section;
    c.files = {{"d.yaml", text}};
    c.args = "gen d.yaml -o OUT";
    c.fragments = {"no_such_key"};
    cases.push_back(std::move(c));
  }
  return cases;
}

// ---------------------------------------------------------------------- hand-written rows

std::vector<Case> HandWrittenCases() {
  std::vector<Case> cases;
  const auto add = [&](std::string name, std::map<std::string, std::string> files, std::string args,
                       std::vector<std::string> fragments, int code = 2) {
    Case c;
    c.name = std::move(name);
    c.files = std::move(files);
    c.args = std::move(args);
    c.fragments = std::move(fragments);
    c.code = code;
    cases.push_back(std::move(c));
  };
  const std::string base = kBaseDesign;

  // Files that are not design files (issue defect 7).
  add("design_is_dev_zero", {}, "gen /dev/zero -o OUT", {"/dev/zero", "not a regular file"});
  add("design_is_dev_null", {}, "gen /dev/null -o OUT", {"/dev/null", "not a regular file"});
  {
    Case c;
    c.name = "design_is_a_folder";
    c.args = "gen dir.yaml -o OUT";
    c.setup = [](const fs::path& w) { fs::create_directories(w / "dir.yaml"); };
    c.fragments = {"dir.yaml", "is a folder"};
    c.keep = {"dir.yaml"};
    cases.push_back(std::move(c));
  }
  add("design_missing", {}, "gen missing.yaml -o OUT", {"missing.yaml", "no such file"});
  add("design_empty", {{"d.yaml", ""}}, "gen d.yaml -o OUT", {"d.yaml"});
  add("design_only_comment", {{"d.yaml", "# nothing\n"}}, "gen d.yaml -o OUT", {"d.yaml"});
  add("design_binary",
      {{"d.yaml", std::string("\x7f"
                              "ELF\x02\x01\x01\0\0\0",
                              10)}},
      "gen d.yaml -o OUT", {"d.yaml"});
  add("design_too_large", {{"d.yaml", "# " + std::string(17 << 20, 'x') + "\n"}},
      "gen d.yaml -o OUT", {"d.yaml", "too large", "at most 16777216 bytes"});
  add("design_huge_value", {{"d.yaml", Mutate("design", "name", std::string(10 << 20, 'v')).first}},
      "gen d.yaml -o OUT", {"d.yaml:2:", "bytes in all"});
  add("design_non_utf8_value", {{"d.yaml", Mutate("mrf", "interleave", "\xff\xfe\x01").first}},
      "gen d.yaml -o OUT", {"d.yaml:14:", "\\xff\\xfe"});
  add("design_control_chars_in_key", {{"d.yaml", "design:\n  \"na\\x1bme\": x\n"}},
      "gen d.yaml -o OUT", {"d.yaml:2:"});
  add("design_second_document", {{"d.yaml", base + "---\n" + base}}, "gen d.yaml -o OUT",
      {"d.yaml:", "second YAML document"});
  add("design_duplicate_key", {{"d.yaml", base + "sm:\n  lanes: 16\n"}}, "gen d.yaml -o OUT",
      {"d.yaml:", "sm"});
  // Found by yaml_fuzz: yaml-cpp's LoadAll never returned on ",z" (the second-document check
  // now scans the text).
  add("design_comma_z_no_hang", {{"d.yaml", ",z"}}, "gen d.yaml -o OUT", {"d.yaml"});
  add("design_tab_indent", {{"d.yaml", "design:\n\tname: x\n"}}, "gen d.yaml -o OUT", {"d.yaml:"});
  add("design_unclosed_bracket", {{"d.yaml", "sm: [1, 2\n"}}, "gen d.yaml -o OUT", {"d.yaml:"});
  add("design_unclosed_flow_list", {{"d.yaml", "design:\n  name: [abc\n"}}, "gen d.yaml -o OUT",
      {"d.yaml:"});
  add("design_top_is_list", {{"d.yaml", "- a\n- b\n"}}, "gen d.yaml -o OUT", {"d.yaml:"});
  add("design_top_is_scalar", {{"d.yaml", "42\n"}}, "gen d.yaml -o OUT", {"d.yaml:"});
  add("design_section_is_list", {{"d.yaml", "sm: [1, 2]\n"}}, "gen d.yaml -o OUT",
      {"d.yaml:1:", "sm"});
  add("design_anchor_alias_bomb",
      {{"d.yaml", "a: &a [x, x]\nb: &b [*a, *a]\nc: &c [*b, *b]\nd: &d [*c, *c]\n"}},
      "gen d.yaml -o OUT", {"d.yaml:"});
  add("design_deep_nesting", {{"d.yaml", std::string(5000, '[') + std::string(5000, ']') + "\n"}},
      "gen d.yaml -o OUT", {"d.yaml"});
  add("design_structures_not_list", {{"d.yaml", base + "structures: {a: 1}\n"}},
      "gen d.yaml -o OUT", {"d.yaml:", "structures"});
  add("design_structure_unknown_kind",
      {{"d.yaml", base + "structures:\n  - name: x\n    kind: flop-arary\n"}}, "gen d.yaml -o OUT",
      {"d.yaml:", "flop-arary", "flop-array"});
  add("design_structure_bad_param",
      {{"d.yaml", base + "structures:\n  - name: x\n    kind: flop-array\n    entries: 0\n"}},
      "gen d.yaml -o OUT", {"d.yaml:", "entries"});
  add("design_structure_missing_kind", {{"d.yaml", base + "structures:\n  - name: x\n"}},
      "gen d.yaml -o OUT", {"d.yaml:", "kind"});
  add("design_structure_duplicate_name",
      {{"d.yaml", base + "structures:\n  - name: x\n    kind: flop-array\n  - name: x\n    kind: "
                         "flop-array\n"}},
      "gen d.yaml -o OUT", {"d.yaml:", "x"});
  add("design_width_not_cluster", {{"d.yaml", Mutate("mrf", "width", "256").first}},
      "gen d.yaml -o OUT", {"d.yaml:", "width"});
  add("design_active_above_warps", {{"d.yaml", Mutate("sm", "warps", "4").first}},
      "gen d.yaml -o OUT", {"d.yaml:", "active_warps"});

  // Targets and subcommands.
  add("target_unknown_kind", {}, "gen flop-arary -o OUT", {"flop-arary", "flop-array"});
  add("target_empty", {}, "gen '' -o OUT", {"TARGET", "missing structure kind"});
  add("target_missing_for_lint", {}, "lint", {"target", "required"});
  add("subcommand_unknown", {}, "frobnicate", {"unknown subcommand 'frobnicate'"});
  add("subcommand_typo", {}, "verfy flop-array", {"did you mean 'verify'"});
  add("subcommand_missing", {}, "", {"subcommand", "required"});
  add("subcommand_only_flag", {}, "-q", {"subcommand", "required"});

  // Command-line flags (issue defect 11).
  add("seed_negative", {}, "verify flop-array --seed -1", {"--seed", "-1"});
  add("seed_word", {}, "verify flop-array --seed abc", {"--seed", "abc"});
  add("seed_too_large", {}, "verify flop-array --seed 99999999999999999999999", {"--seed"});
  add("cycles_zero", {}, "verify flop-array --cycles 0", {"--cycles", "out of range"});
  add("cycles_negative", {}, "verify flop-array --cycles -5", {"--cycles", "-5"});
  add("cycles_word", {}, "verify flop-array --cycles many", {"--cycles", "not a number"});
  add("cycles_too_many", {}, "verify flop-array --cycles 99999999999", {"--cycles"});
  add("jobs_zero", {}, "verify flop-array -j 0", {"--jobs", "1 to 64"});
  add("jobs_word", {}, "verify flop-array -j abc", {"--jobs", "not a number"});
  add("jobs_too_many", {}, "synth flop-array -j 65", {"--jobs", "1 to 64"});
  add("output_twice", {}, "gen flop-array -o A -o B", {"--output", "given 2 times"});
  add("output_missing_value", {}, "gen flop-array -o", {"-o"});
  add("output_missing", {}, "gen flop-array", {"-o", "missing output folder"});
  add("flow_output_missing", {}, "flow flop-array", {"--output", "required"});
  add("char_target_node_low", {}, "characterize flop-array --target-node 7",
      {"--target-node", "32 to 180"});
  add("char_library_node_high", {}, "characterize flop-array --library-node 999",
      {"--library-node"});
  add("char_accesses_low", {}, "characterize flop-array --accesses 1", {"--accesses"});
  add("char_slew_negative", {}, "characterize flop-array --slew -1", {"--slew"});
  add("char_wire_cap_high", {}, "characterize flop-array --wire-cap-per-fanout 5",
      {"--wire-cap-per-fanout"});
  add("char_seed_negative", {}, "characterize flop-array --seed -3", {"--seed"});
  add("char_gebhart_with_target", {}, "characterize flop-array --gebhart-table-iv",
      {"--gebhart-table-iv"});
  add("char_no_target", {}, "characterize", {"target"});
  add("workload_run_missing", {}, "workload run", {"workload", "required"});
  add("workload_max_regs_low", {}, "workload run vectorAdd --max-regs 3", {"--max-regs"});
  add("workload_unknown_sub", {}, "workload frob", {"subcommand", "required"});

  // Liberty libraries: parsed before any tool runs (`--liberty`).
  const std::string lib_head = "library (t) {\n  time_unit : \"1ns\";\n";
  add("liberty_missing", {}, "synth flop-array --liberty nope.lib", {"--liberty", "nope.lib"});
  add("liberty_folder", {}, "synth flop-array --liberty .", {"--liberty", "folder"});
  add("liberty_dev_zero", {}, "synth flop-array --liberty /dev/zero",
      {"--liberty", "not a regular file"});
  add("liberty_empty", {{"t.lib", ""}}, "synth flop-array --liberty t.lib", {"t.lib"});
  add("liberty_unclosed", {{"t.lib", lib_head}}, "synth flop-array --liberty t.lib",
      {"t.lib:1:", "never closed"});
  add("liberty_no_cells", {{"t.lib", lib_head + "}\n"}}, "synth flop-array --liberty t.lib",
      {"t.lib", "no cells"});
  add("liberty_not_library", {{"t.lib", "cell (x) { }\n"}}, "synth flop-array --liberty t.lib",
      {"t.lib:", "library"});
  add("liberty_unterminated_string", {{"t.lib", "library (t) {\n  time_unit : \"1ns;\n}\n"}},
      "synth flop-array --liberty t.lib", {"t.lib:2:", "unterminated string"});
  add("liberty_unterminated_comment", {{"t.lib", "library (t) {\n /* x\n}\n"}},
      "synth flop-array --liberty t.lib", {"t.lib:2:", "unterminated comment"});
  add("liberty_stray_brace", {{"t.lib", "library (t) {\n}\n}\n"}},
      "synth flop-array --liberty t.lib", {"t.lib:3:", "after the library group"});
  add("liberty_bad_area", {{"t.lib", lib_head + "  cell (INV) {\n    area : big;\n  }\n}\n"}},
      "synth flop-array --liberty t.lib", {"t.lib", "area", "not a number"});
  add("liberty_bad_voltage_unit",
      {{"t.lib",
        lib_head + "  voltage_unit : \"1parsec\";\n  cell (INV) {\n    area : 1;\n  }\n}\n"}},
      "synth flop-array --liberty t.lib", {"t.lib", "voltage_unit"});
  add("liberty_binary", {{"t.lib", std::string("\0\1\2\3library", 11)}},
      "synth flop-array --liberty t.lib", {"t.lib"});

  // Output folders (issue defect 3): refused before any work, nothing touched.
  {
    Case c;
    c.name = "output_user_folder_with_manifest_json";
    c.files = {{"app/manifest.json", "{}"}, {"app/src/main.js", "x"}};
    c.args = "gen flop-array -o app";
    c.fragments = {"refusing to replace the output folder", "not written by gpurf"};
    c.keep = {"app"};
    cases.push_back(c);
    c.name = "output_user_folder_with_design_json";
    c.files = {{"app/design.json", "{}"}, {"app/src/main.js", "x"}};
    cases.push_back(c);
    c.name = "output_is_a_file";
    c.files = {{"app", "a file"}};
    c.fragments = {"refusing to replace the output folder", "not a folder"};
    cases.push_back(c);
    c.name = "output_is_a_symlink";
    c.files = {{"real/x", "x"}};
    c.setup = [](const fs::path& w) { fs::create_directory_symlink(w / "real", w / "app"); };
    c.fragments = {"symbolic link"};
    c.keep = {"app", "real"};
    cases.push_back(c);
    c.name = "output_with_forged_marker";
    c.files = {{"app/.gpurf-output", "{\"generator\": \"gpurf\", \"files\": []}"},
               {"app/mine.txt", "x"}};
    c.setup = nullptr;
    c.fragments = {"gpurf did not write: mine.txt"};
    c.keep = {"app"};
    cases.push_back(c);
    c.name = "output_with_garbage_marker";
    c.files = {{"app/.gpurf-output", "garbage"}, {"app/mine.txt", "x"}};
    c.fragments = {"marker", "unreadable"};
    cases.push_back(c);
    c.name = "output_marker_with_escaping_path";
    c.files = {{"app/.gpurf-output",
                "{\"generator\": \"gpurf\", \"files\": [{\"path\": \"../x\", \"size\": 1, "
                "\"fnv1a64\": \"0\"}]}"},
               {"app/mine.txt", "x"}};
    c.fragments = {"marker", "unreadable"};
    cases.push_back(c);
  }
  add("output_inside_a_file", {{"f", "x"}}, "gen flop-array -o f/sub", {"f/sub", "not a folder"});
  return cases;
}

std::vector<Case> AllCases() {
  std::vector<Case> all = FlagCases();
  for (auto& c : DesignFieldCases())
    all.push_back(std::move(c));
  for (auto& c : HandWrittenCases())
    all.push_back(std::move(c));
  return all;
}

class Robustness : public testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    tmp_ = MakeTempDir(fs::temp_directory_path(), "gpurf-robustness");
    work_ = tmp_ / "work";
    fs::create_directories(work_);
  }
  void TearDown() override { fs::remove_all(tmp_); }
  fs::path tmp_, work_;
};

TEST_P(Robustness, BadInputIsRejectedCleanly) {
  const Case& c = GetParam();
  for (const auto& [name, text] : c.files) {
    fs::create_directories((work_ / name).parent_path());
    WriteFile(work_ / name, text);
  }
  if (c.setup)
    c.setup(work_);
  std::map<std::string, std::string> before;  // every file of the work folder, for `keep`
  for (const auto& e : fs::recursive_directory_iterator(work_))
    if (e.is_regular_file())
      before[e.path().lexically_relative(work_).string()] = ReadFile(e.path());

  const fs::path out = tmp_ / "stdout.txt", err = tmp_ / "stderr.txt";
  const std::string cmd = "cd '" + work_.string() + "' && '" GPURF_BINARY "' " + c.args + " >'" +
                          out.string() + "' 2>'" + err.string() + "'";
  const int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status)) << "gpurf " << c.args << " died";
  const std::string e = ReadFile(err);
  SCOPED_TRACE("gpurf " + c.args.substr(0, 200) + "\n" + e.substr(0, 2000));
  EXPECT_EQ(WEXITSTATUS(status), c.code);
  // The error itself is gpurf's line (warnings, e.g. about the Liberty library, may precede it).
  EXPECT_NE(("\n" + e).find("\ngpurf: "), std::string::npos);
  for (const auto& line : test::Lines(e))
    EXPECT_LE(line.size(), 2000U) << "a message line of " << line.size() << " characters";
  for (const auto& f : c.fragments)
    EXPECT_NE(e.find(f), std::string::npos) << "missing: " << f;

  // Nothing new in the work folder; what was there is unchanged.
  for (const auto& entry : fs::directory_iterator(work_)) {
    const std::string name = entry.path().filename().string();
    const bool given = std::any_of(c.files.begin(), c.files.end(), [&](const auto& f) {
      return fs::path(f.first).begin()->string() == name;
    });
    EXPECT_TRUE(given || std::find(c.keep.begin(), c.keep.end(), name) != c.keep.end())
        << "left behind: " << name;
  }
  for (const auto& [rel, text] : before) {
    ASSERT_TRUE(fs::exists(work_ / rel)) << "deleted: " << rel;
    EXPECT_EQ(ReadFile(work_ / rel), text) << "changed: " << rel;
  }
}

INSTANTIATE_TEST_SUITE_P(Table, Robustness, testing::ValuesIn(AllCases()),
                         [](const testing::TestParamInfo<Case>& i) { return i.param.name; });

// The table is as large as the issue asks and no mutation silently missed its field.
TEST(RobustnessTable, HasAtLeast250RowsAndUniqueNames) {
  const auto all = AllCases();
  EXPECT_GE(all.size(), 250U);
  std::set<std::string> names;
  for (const auto& c : all)
    EXPECT_TRUE(names.insert(c.name).second) << "duplicate row name " << c.name;
  for (const char* f : {"lanes", "bank_impl", "inner_policy", "l0_split"}) {
    bool found = false;
    for (const auto& c : all)
      found = found || c.name.find(f) != std::string::npos;
    EXPECT_TRUE(found) << f;
  }
}

}  // namespace
}  // namespace gpurf
