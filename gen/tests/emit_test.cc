// Flop-array emission over its parameter space: determinism, banner, module naming and hash
// suffix, addr_width for entries 1..1024, clock_gate on/off (primitive file and filelist),
// read_mode comb/reg, bypass on/off, the GPURF_ASSERTIONS guard, and the manifest (files,
// parameters, all 7 ports with widths from W, R, AW, DW). Plus a golden-text test of the
// Verilog printer on a hand-built module.

#include "gen/structures/emit.h"

#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "base/diag.h"
#include "base/fs.h"
#include "gen/output/artifact.h"
#include "gen/rtl_primitives.h"
#include "gen/structures/flop_array/flop_array_gen.h"
#include "gen/structures/flop_array/flop_array_spec.h"
#include "gen/tests/test_util.h"
#include "gen/vlog/ast.h"
#include "gen/vlog/printer.h"

namespace gpurf {
namespace {

FlopArraySpec Spec(const std::map<std::string, std::string>& values = {}) {
  ParamSet p(FlopArraySpec::ParamDescs());
  for (const auto& [k, v] : values)
    p.Set(k, v, {}, "--" + k);
  return FlopArraySpec::FromParams(p);
}

const GeneratedFile& TopFile(const GeneratedStructure& g) {
  EXPECT_FALSE(g.files.empty());
  EXPECT_EQ(g.files.back().module, g.top);
  return g.files.back();
}

bool Contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

using test::Count;

const std::map<std::string, std::string> k3r1w = {
    {"entries", "48"}, {"width", "128"}, {"read_ports", "3"}, {"write_ports", "1"}};

// Write-data segmentation: "auto" segments from 24 entries up (8 rows), off below; explicit
// sizes; a segment as large as the array is the broadcast itself; values outside the list are
// rejected with the allowed values.
TEST(EmitFlopArray, WriteSegmentation) {
  EXPECT_EQ(FlopArraySpec::AutoWriteSegmentRows(16), 0);
  EXPECT_EQ(FlopArraySpec::AutoWriteSegmentRows(23), 0);
  EXPECT_EQ(FlopArraySpec::AutoWriteSegmentRows(24), 8);
  EXPECT_EQ(FlopArraySpec::AutoWriteSegmentRows(1024), 8);
  struct Case {
    std::string entries, rows;
    int segment_rows, segments;
  };
  for (const Case& c : {Case{"48", "auto", 8, 6}, Case{"16", "auto", 0, 1}, Case{"48", "off", 0, 1},
                        Case{"20", "4", 4, 5}, Case{"20", "16", 16, 2}, Case{"20", "32", 0, 1},
                        Case{"300", "256", 256, 2}}) {
    const FlopArraySpec s = Spec({{"entries", c.entries}, {"write_segment_rows", c.rows}});
    EXPECT_EQ(s.write_segment_rows, c.segment_rows) << c.entries << " " << c.rows;
    EXPECT_EQ(s.write_segments(), c.segments) << c.entries << " " << c.rows;
    const GeneratedStructure g = EmitFlopArray(s);
    const std::string& text = TopFile(g).contents;
    EXPECT_EQ(Contains(text, "gen_write_segments"), s.segmented());
    EXPECT_EQ(Contains(text, "seg_wdata"), s.segmented());
    if (s.segmented()) {
      EXPECT_TRUE(std::regex_search(text, std::regex("localparam int WriteSegmentRows += " +
                                                     std::to_string(c.segment_rows) + ",")));
      EXPECT_TRUE(
          Contains(text, "assign seg_wdata[s*NumWritePorts + w] = wdata[w] & {Width{hit}};"));
    } else {
      EXPECT_TRUE(Contains(text, "row_wdata = wdata[w];"));
    }
  }
  ParamSet p(FlopArraySpec::ParamDescs());
  try {
    p.Set("write_segment_rows", "6", {}, "--write-segment-rows");
    ADD_FAILURE() << "6 rows per segment accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--write-segment-rows");
    EXPECT_EQ(e.value(), "6");
    EXPECT_TRUE(Contains(e.allowed(), "auto, off, 2, 4, 8, 16")) << e.allowed();
  }
}

TEST(EmitFlopArray, DeterministicAcrossRunsAndWrites) {
  const GeneratedStructure a = EmitFlopArray(Spec(k3r1w));
  const GeneratedStructure b = EmitFlopArray(Spec(k3r1w));
  ASSERT_EQ(a.files.size(), b.files.size());
  for (size_t i = 0; i < a.files.size(); ++i) {
    EXPECT_EQ(a.files[i].name, b.files[i].name);
    EXPECT_EQ(a.files[i].contents, b.files[i].contents);
  }
  EXPECT_EQ(a.ManifestJson().dump(), b.ManifestJson().dump());
  // The dispatching Emit() produces the same thing.
  const GeneratedStructure c = Emit(StructureSpec{Spec(k3r1w)});
  EXPECT_EQ(TopFile(c).contents, TopFile(a).contents);

  // Written twice to disk: byte-identical folders.
  const fs::path tmp = MakeTempDir(fs::temp_directory_path(), "gpurf-emit-test");
  fs::create_directories(tmp / "a");
  fs::create_directories(tmp / "b");
  WriteStructure(tmp / "a", a);
  WriteStructure(tmp / "b", b);
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(tmp / "a"))
    names.insert(e.path().filename().string());
  EXPECT_EQ(names, (std::set<std::string>{"filelist.f", "manifest.json", "gpurf_assert.svh",
                                          "gpurf_clock_gate.sv", a.top + ".sv", a.top + ".core"}));
  for (const auto& n : names)
    EXPECT_EQ(ReadFile(tmp / "a" / n), ReadFile(tmp / "b" / n)) << n;
  fs::remove_all(tmp);
}

TEST(EmitFlopArray, BannerSaysDoNotEditWithVersionAndHash) {
  const FlopArraySpec s = Spec(k3r1w);
  const GeneratedStructure g = EmitFlopArray(s);
  const std::string& text = TopFile(g).contents;
  EXPECT_TRUE(std::regex_match(GeneratorVersion(), std::regex(R"(\d+\.\d+\.\d+)")));
  const std::string first = text.substr(0, text.find('\n'));
  EXPECT_EQ(first, "// Generated by gpurf " + GeneratorVersion() + " (flop-array, config " +
                       s.config_hash + "): do not edit.");
  // The command fits 100 columns, broken before an option with a shell line continuation.
  EXPECT_TRUE(Contains(text,
                       "//   gpurf gen flop-array --entries 48 --width 128 --read-ports 3 "
                       "--write-ports 1 \\\n"
                       "//     --read-mode comb --bypass false --clock-gate true "
                       "--write-segment-rows auto -o DIR\n"));
  // The assertion macros are included between the banner and the module.
  EXPECT_TRUE(Contains(text, "-o DIR\n\n`include \"gpurf_assert.svh\"\n\n// " + s.module_name));
  EXPECT_EQ(g.regenerate.substr(0, 20), "gpurf gen flop-array");
  EXPECT_EQ(Banner("k", "abc123", "cmd")[0],
            "Generated by gpurf " + GeneratorVersion() + " (k, config abc123): do not edit.");
}

TEST(EmitFlopArray, ModuleNameFormatAndUniqueness) {
  const std::regex name_re(R"(rf_flop_(\d+)r(\d+)w_(\d+)x(\d+)_([0-9a-f]{6}))");
  const FlopArraySpec s = Spec(k3r1w);
  std::smatch m;
  ASSERT_TRUE(std::regex_match(s.module_name, m, name_re)) << s.module_name;
  EXPECT_EQ(m[1], "3");
  EXPECT_EQ(m[2], "1");
  EXPECT_EQ(m[3], "48");
  EXPECT_EQ(m[4], "128");
  EXPECT_EQ(m[5], s.config_hash);
  const GeneratedStructure g = EmitFlopArray(s);
  EXPECT_EQ(g.top, s.module_name);
  EXPECT_EQ(TopFile(g).name, s.module_name + ".sv");
  EXPECT_EQ(Count(TopFile(g).contents, "module " + s.module_name + " #("), 1);
  EXPECT_EQ(Count(TopFile(g).contents, "\nendmodule\n"), 1);

  // Every parameter, including those not in the name's visible part, changes the name.
  std::set<std::string> names = {s.module_name};
  for (const auto& [k, v] :
       std::vector<std::pair<std::string, std::string>>{{"entries", "47"},
                                                        {"width", "127"},
                                                        {"read_ports", "2"},
                                                        {"write_ports", "2"},
                                                        {"read_mode", "reg"},
                                                        {"bypass", "true"},
                                                        {"clock_gate", "false"}}) {
    auto values = k3r1w;
    values[k] = v;
    const FlopArraySpec t = Spec(values);
    EXPECT_TRUE(std::regex_match(t.module_name, name_re)) << t.module_name;
    EXPECT_TRUE(names.insert(t.module_name).second) << k << " did not change " << t.module_name;
  }
}

TEST(EmitFlopArray, AddrWidth) {
  for (const auto& [entries, aw] :
       std::vector<std::pair<int, int>>{{1, 1}, {2, 1}, {3, 2}, {4, 2}, {5, 3}, {1024, 10}}) {
    const FlopArraySpec s = Spec({{"entries", std::to_string(entries)}, {"width", "8"}});
    EXPECT_EQ(s.addr_width, aw) << entries;
    const GeneratedStructure g = EmitFlopArray(s);
    EXPECT_EQ(g.derived["addr_width"], aw) << entries;
    ASSERT_NE(g.FindPort("raddr_i"), nullptr);
    EXPECT_EQ(g.FindPort("raddr_i")->width, 3 * aw) << entries;  // default 3 read ports
  }
}

TEST(EmitFlopArray, ClockGateOnIncludesThePrimitiveFirst) {
  const GeneratedStructure g = EmitFlopArray(Spec({{"clock_gate", "true"}}));
  ASSERT_EQ(g.files.size(), 3U);
  EXPECT_EQ(g.files[0].name, "gpurf_assert.svh");  // the assertion macros, `included
  EXPECT_EQ(g.files[0].module, "");
  EXPECT_TRUE(g.files[0].primitive);
  EXPECT_EQ(g.files[0].contents, std::string(RtlPrimitive("gpurf_assert.svh")));
  EXPECT_EQ(g.files[1].name, "gpurf_clock_gate.sv");
  EXPECT_EQ(g.files[1].module, "gpurf_clock_gate");
  EXPECT_TRUE(g.files[1].primitive);
  EXPECT_EQ(g.files[1].contents, std::string(RtlPrimitive("gpurf_clock_gate.sv")));
  EXPECT_TRUE(Contains(g.files[1].contents, "module gpurf_clock_gate"));
  EXPECT_FALSE(g.files[2].primitive);
  EXPECT_EQ(g.Filelist(), "+incdir+.\ngpurf_clock_gate.sv\n" + g.top + ".sv\n");
  const std::string& text = TopFile(g).contents;
  EXPECT_TRUE(Contains(text, "gpurf_clock_gate u_row_clock_gate ("));
  EXPECT_TRUE(Contains(text, "always_ff @(posedge row_clk) begin\n      row_q <= row_wdata;"));
  const auto j = g.ManifestJson();
  ASSERT_EQ(j["files"].size(), 3U);
  EXPECT_EQ(j["files"][0]["path"], "gpurf_assert.svh");
  EXPECT_EQ(j["files"][0]["origin"], "rtl-primitive");
  EXPECT_EQ(j["files"][1]["path"], "gpurf_clock_gate.sv");
  EXPECT_EQ(j["files"][1]["origin"], "rtl-primitive");
  EXPECT_EQ(j["files"][2]["origin"], "generated");
}

TEST(EmitFlopArray, ClockGateOffHasNoPrimitive) {
  const GeneratedStructure g = EmitFlopArray(Spec({{"clock_gate", "false"}}));
  ASSERT_EQ(g.files.size(), 2U);  // the assertion header and the array
  EXPECT_EQ(g.files[0].name, "gpurf_assert.svh");
  EXPECT_EQ(g.Filelist(), "+incdir+.\n" + g.top + ".sv\n");
  const std::string& text = TopFile(g).contents;
  EXPECT_FALSE(Contains(text, "gpurf_clock_gate"));
  EXPECT_FALSE(Contains(text, "row_clk"));
  EXPECT_TRUE(Contains(text,
                       "always_ff @(posedge clk_i) begin\n"
                       "      if (row_we) begin\n"
                       "        row_q <= row_wdata;\n"));
  EXPECT_EQ(g.ManifestJson()["files"].size(), 2U);
}

TEST(EmitFlopArray, RegisteredReadHasAsyncResetRegister) {
  const GeneratedStructure g = EmitFlopArray(Spec({{"read_mode", "reg"}}));
  const std::string& text = TopFile(g).contents;
  EXPECT_TRUE(std::regex_search(text, std::regex(R"(logic \[Width-1:0\] +rdata_q;)")));
  EXPECT_TRUE(Contains(text,
                       "    always_ff @(posedge clk_i or negedge rst_ni) begin\n"
                       "      if (!rst_ni) begin\n"
                       "        rdata_q <= '0;\n"
                       "      end else begin\n"
                       "        rdata_q <= rdata_d;\n"
                       "      end\n"
                       "    end\n"));
  EXPECT_TRUE(Contains(text, "assign rdata_o[p*Width +: Width] = rdata_q;"));
  EXPECT_TRUE(Contains(text, "assign rdata_d = mem[addr];"));
  EXPECT_FALSE(Contains(text, "unused_rst_n"));
  EXPECT_EQ(g.derived["read_latency"], 1);

  const GeneratedStructure comb = EmitFlopArray(Spec({{"read_mode", "comb"}}));
  const std::string& ctext = TopFile(comb).contents;
  EXPECT_FALSE(Contains(ctext, "rdata_q"));
  EXPECT_FALSE(Contains(ctext, "negedge rst_ni) begin\n      if (!rst_ni)"));
  EXPECT_TRUE(Contains(ctext, "assign rdata_o[p*Width +: Width] = mem[addr];"));
  EXPECT_TRUE(Contains(ctext, "assign unused_rst_n = rst_ni;"));
  EXPECT_EQ(comb.derived["read_latency"], 0);
}

TEST(EmitFlopArray, BypassEmitsTheForwardingLoop) {
  const std::string loop =
      "      rdata_d = mem[addr];\n"
      "      for (int w = 0; w < NumWritePorts; w++) begin\n"
      "        if (we_i[w] && (waddr[w] == addr)) begin\n"
      "          rdata_d = wdata[w];\n"
      "        end\n"
      "      end\n";
  for (const char* mode : {"comb", "reg"}) {
    SCOPED_TRACE(mode);
    const std::string on =
        TopFile(EmitFlopArray(Spec({{"bypass", "true"}, {"read_mode", mode}}))).contents;
    EXPECT_TRUE(Contains(on, loop));
    EXPECT_EQ(std::string(mode) == "comb",
              Contains(on, "assign rdata_o[p*Width +: Width] = rdata_d;"));
    const std::string off =
        TopFile(EmitFlopArray(Spec({{"bypass", "false"}, {"read_mode", mode}}))).contents;
    EXPECT_FALSE(Contains(off, "waddr[w] == addr"));
  }
}

TEST(EmitFlopArray, AssertionsAreGuardedByGpurfAssertions) {
  for (const char* mode : {"comb", "reg"}) {
    const std::string text = TopFile(EmitFlopArray(Spec({{"read_mode", mode}}))).contents;
    const size_t open = text.find("`ifdef GPURF_ASSERTIONS\n");
    const size_t close = text.find("`endif  // GPURF_ASSERTIONS\n");
    ASSERT_NE(open, std::string::npos);
    ASSERT_NE(close, std::string::npos);
    EXPECT_LT(open, close);
    EXPECT_EQ(Count(text, "`ifdef"), 1);
    EXPECT_EQ(Count(text, "`endif"), 1);
    // Every check is the assertion macro, between the guard lines; none is a bare $error.
    EXPECT_EQ(Count(text, "$error"), 0);
    EXPECT_EQ(Count(text, "`GPURF_ASSERT("), 6);
    for (size_t at = text.find("`GPURF_ASSERT("); at != std::string::npos;
         at = text.find("`GPURF_ASSERT(", at + 1)) {
      EXPECT_GT(at, open);
      EXPECT_LT(at, close);
    }
    EXPECT_TRUE(Contains(text,
                         "    `GPURF_ASSERT(Entries >= 1 && Entries <= 1024, "
                         "(\"%m: Entries must be in 1..1024\"))\n"));
    EXPECT_TRUE(Contains(text,
                         "        `GPURF_ASSERT(!we_i[w] || (32'(waddr[w]) < Entries),\n"
                         "                      (\"%m: write port %0d address %0d >= "
                         "Entries (%0d)\", w, waddr[w], Entries))\n"));
    const size_t param_check = text.find("initial begin : p_param_check");
    const size_t addr_check = text.find("begin : p_address_check");
    EXPECT_GT(param_check, open);
    EXPECT_LT(addr_check, close);
    // Only the endmodule follows the guard.
    EXPECT_EQ(text.substr(close), "`endif  // GPURF_ASSERTIONS\n\nendmodule\n");
  }
}

TEST(EmitFlopArray, ManifestJson) {
  const FlopArraySpec s = Spec({{"entries", "48"},
                                {"width", "40"},
                                {"read_ports", "3"},
                                {"write_ports", "2"},
                                {"read_mode", "reg"}});
  const GeneratedStructure g = EmitFlopArray(s);
  const nlohmann::ordered_json j = g.ManifestJson();
  EXPECT_EQ(j["generator"]["name"], "gpurf");
  EXPECT_EQ(j["generator"]["version"], GeneratorVersion());
  EXPECT_EQ(j["structure"], "flop-array");
  EXPECT_EQ(j["config_hash"], s.config_hash);
  EXPECT_EQ(j["top"], s.module_name);
  EXPECT_EQ(j["regenerate"], g.regenerate);
  ASSERT_EQ(j["files"].size(), 3U);
  EXPECT_EQ(j["files"][0]["path"], "gpurf_assert.svh");
  EXPECT_EQ(j["files"][1]["path"], "gpurf_clock_gate.sv");
  EXPECT_EQ(j["files"][2]["path"], s.module_name + ".sv");
  EXPECT_EQ(j["files"][2]["module"], s.module_name);
  EXPECT_EQ(j["parameters"], s.params.ToJson());
  EXPECT_EQ(j["parameters"].dump(),
            R"({"entries":48,"width":40,"read_ports":3,"write_ports":2,"read_mode":"reg",)"
            R"("bypass":false,"clock_gate":true,"write_segment_rows":"auto"})");
  EXPECT_EQ(j["derived"]["storage_bits"], 48 * 40);
  EXPECT_TRUE(j["defines"].contains("GPURF_ASSERTIONS"));

  // W = 2, R = 3, AW = 6, DW = 40.
  struct Expected {
    const char* name;
    const char* dir;
    int width;
    int count;
    const char* role;
  };
  const Expected ports[] = {
      {"clk_i", "input", 1, 1, "clock"},
      {"rst_ni", "input", 1, 1, "reset_n"},
      {"we_i", "input", 2, 2, "write_enable"},
      {"waddr_i", "input", 2 * 6, 2, "write_address"},
      {"wdata_i", "input", 2 * 40, 2, "write_data"},
      {"raddr_i", "input", 3 * 6, 3, "read_address"},
      {"rdata_o", "output", 3 * 40, 3, "read_data"},
  };
  ASSERT_EQ(j["ports"].size(), 7U);
  const std::string& text = TopFile(g).contents;
  size_t last_decl = 0;
  for (size_t i = 0; i < 7; ++i) {
    const auto& p = j["ports"][i];
    SCOPED_TRACE(ports[i].name);
    EXPECT_EQ(p["name"], ports[i].name);
    EXPECT_EQ(p["direction"], ports[i].dir);
    EXPECT_EQ(p["width"], ports[i].width);
    EXPECT_EQ(p["count"], ports[i].count);
    EXPECT_EQ(p["slice_width"], ports[i].width / ports[i].count);
    EXPECT_EQ(p["role"], ports[i].role);
    EXPECT_FALSE(p["description"].get<std::string>().empty());
    // The Verilog declares the same ports, same direction, same order.
    std::smatch m;
    const std::regex decl(std::string(R"(\n  )") + ports[i].dir + R"( +logic [^\n]*\b)" +
                          ports[i].name + R"([,\n ])");
    ASSERT_TRUE(std::regex_search(text, m, decl));
    EXPECT_GT(static_cast<size_t>(m.position(0)), last_decl);
    last_decl = static_cast<size_t>(m.position(0));
  }
  EXPECT_EQ(g.FindPort("nope"), nullptr);
}

TEST(EmitFlopArray, RejectsTooLargeArrays) {
  EXPECT_THROW(Spec({{"entries", "1024"}, {"width", "257"}}), InputError);
  EXPECT_NO_THROW(Spec({{"entries", "1024"}, {"width", "256"}}));
  try {
    Spec({{"entries", "600"}, {"width", "1000"}});
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--entries");
    EXPECT_EQ(e.value(), "600");
    EXPECT_NE(e.problem().find("600000 bits"), std::string::npos);
  }
}

// ------------------------------------------------------------------------------ printer

TEST(VlogPrinter, HandBuiltModule) {
  using namespace vlog;  // NOLINT(google-build-using-namespace)
  Module m;
  m.name = "demo";
  m.doc = {"demo: a test module.", "", "Second paragraph."};
  m.params = {{"Width", "8", "bits", false},
              {"Depth", "16", "", false},
              {"AddrW", "$clog2(Depth)", "address bits", true}};
  m.ports = {{Dir::kInput, "clk_i", "", "clock"},
             {Dir::kInput, "data_i", "Width-1", "data in"},
             {Dir::kOutput, "q_o", "Width-1", ""}};
  m.Add(MakeItem(Net{"a", "", "", "one bit", ""}));
  m.Add(MakeItem(Net{"bus", "Width-1", "Depth", "", "mem2reg"}));
  m.Blank();
  GenerateIf gi;
  gi.cond = "Width > 4";
  gi.label = "gen_wide";
  gi.items = {MakeItem(ContinuousAssign{"a", "data_i[4]"})};
  gi.else_label = "gen_narrow";
  gi.else_items = {MakeItem(ContinuousAssign{"a", "1'b0"})};
  m.Add(MakeItem(gi));
  GenerateFor gf{"gen_rows", "r", "Depth", {MakeItem(ContinuousAssign{"bus[r]", "data_i"})}};
  m.Add(MakeItem(gf));
  m.Comment("Chained if.");
  m.Add(MakeItem(Always{AlwaysKind::kFF,
                        "posedge clk_i",
                        "",
                        {IfThen("a", {NonBlocking("q_o", "bus[0]")},
                                {IfThen("data_i[0]", {NonBlocking("q_o", "bus[1]")},
                                        {NonBlocking("q_o", "'0")})})}}));
  m.Add(MakeItem(Instance{"sub", "u_sub", {{"W", "Width"}}, {{"clk_i", "clk_i"}, {"d", "a"}}}));

  const std::string expected =
      "// demo: a test module.\n"
      "//\n"
      "// Second paragraph.\n"
      "module demo #(\n"
      "  parameter  int Width = 8,             // bits\n"
      "  parameter  int Depth = 16,\n"
      "  localparam int AddrW = $clog2(Depth)  // address bits\n"
      ") (\n"
      "  input  logic             clk_i,  // clock\n"
      "  input  logic [Width-1:0] data_i, // data in\n"
      "  output logic [Width-1:0] q_o\n"
      ");\n"
      "\n"
      "  logic             a;           // one bit\n"
      "  (* mem2reg *)\n"
      "  logic [Width-1:0] bus [Depth];\n"
      "\n"
      "  if (Width > 4) begin : gen_wide\n"
      "    assign a = data_i[4];\n"
      "  end else begin : gen_narrow\n"
      "    assign a = 1'b0;\n"
      "  end\n"
      "  for (genvar r = 0; r < Depth; r++) begin : gen_rows\n"
      "    assign bus[r] = data_i;\n"
      "  end\n"
      "  // Chained if.\n"
      "  always_ff @(posedge clk_i) begin\n"
      "    if (a) begin\n"
      "      q_o <= bus[0];\n"
      "    end else if (data_i[0]) begin\n"
      "      q_o <= bus[1];\n"
      "    end else begin\n"
      "      q_o <= '0;\n"
      "    end\n"
      "  end\n"
      "  sub #(.W(Width)) u_sub (\n"
      "    .clk_i (clk_i),\n"
      "    .d     (a)\n"
      "  );\n"
      "\n"
      "endmodule\n";
  EXPECT_EQ(Print(m), expected);

  // A source file puts the banner first, then a blank line.
  const SourceFile f{"demo.sv", {"Banner line.", ""}, m, {}};
  EXPECT_EQ(Print(f), "// Banner line.\n//\n\n" + expected);
}

}  // namespace
}  // namespace gpurf
