// Quality-of-results benchmark (not part of the test suite): for several flop-array shapes,
// characterizes (a) the generated array, (b) a naive behavioral array with the same ports
// (`reg [W-1:0] mem [E]`, one always block, Yosys infers it) and (c) the storage-and-selection
// floor from the same Liberty (E*W smallest flip-flops + R*W*E half AOI22s: one AND-OR term per
// entry, the cheapest one-hot read mux), and prints area, E_read, E_write, fmax and the ratios
// a/b and a/c as a Markdown table.
//
//   cmake -S . -B build -DGPURF_BUILD_BENCHMARKS=ON && cmake --build build --target gpurf_qor_bench
//   build/gpurf_qor_bench [--accesses N]
#include <fmt/format.h>

#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include "gen/structures/flop_array/flop_array_gen.h"
#include "synth/characterize.h"
#include "verif/harness/verilator_build.h"
#include "verif/tests/test_util.h"

namespace gpurf {
namespace {

// The naive array: same ports and port contract as the generated one.
GeneratedStructure NaiveArray(const GeneratedStructure& gen, const test::Shape& s) {
  GeneratedStructure g = gen;
  g.top = fmt::format("rf_naive_{}r{}w_{}x{}", s.read_ports, s.write_ports, s.entries, s.width);
  const int aw = gen.derived["addr_width"].get<int>();
  std::string v = fmt::format(
      "// Naive behavioral register array for the gpurf QoR benchmark (Yosys infers it).\n"
      "module {top} (\n"
      "  input  logic clk_i,\n  input  logic rst_ni,\n"
      "  input  logic [{W}-1:0] we_i,\n  input  logic [{W}*{AW}-1:0] waddr_i,\n"
      "  input  logic [{W}*{DW}-1:0] wdata_i,\n  input  logic [{R}*{AW}-1:0] raddr_i,\n"
      "  output logic [{R}*{DW}-1:0] rdata_o\n);\n"
      "  reg [{DW}-1:0] mem [{E}];\n"
      "  wire unused_rst_n = rst_ni;\n"
      "  always @(posedge clk_i) begin\n"
      "    for (int w = 0; w < {W}; w++)\n"
      "      if (we_i[w]) mem[waddr_i[w*{AW} +: {AW}]] <= wdata_i[w*{DW} +: {DW}];\n"
      "  end\n"
      "  for (genvar p = 0; p < {R}; p++) begin : gen_read\n"
      "    assign rdata_o[p*{DW} +: {DW}] = mem[raddr_i[p*{AW} +: {AW}]];\n"
      "  end\n"
      "endmodule\n",
      fmt::arg("top", g.top), fmt::arg("W", s.write_ports), fmt::arg("R", s.read_ports),
      fmt::arg("AW", aw), fmt::arg("DW", s.width), fmt::arg("E", s.entries));
  g.files = {{g.top + ".sv", g.top, v, false}};
  return g;
}

std::string StaDiff(const ModuleCharacterization& r) {
  return r.sta.available ? fmt::format("{:+.2f}%", 100 * r.sta.dynamic_diff) : "n/a";
}

int Main(int argc, char** argv) {
  CharacterizeOptions opt;
  opt.cycles = 2000;
  opt.synth.jobs = 2;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--accesses") == 0)
      opt.cycles = std::stoull(argv[i + 1]);
  const LibertyLibrary lib = LoadLiberty(DefaultLibertyPath());
  const std::vector<test::Shape> shapes = {
      {48, 128, 3, 1, false, false, true},
      {24, 128, 3, 1, false, false, true},
      {16, 64, 2, 1, false, false, true},
      {8, 128, 1, 1, false, false, true},
  };
  std::vector<GeneratedStructure> gs;
  for (const auto& s : shapes) {
    gs.push_back(EmitFlopArray(test::MakeSpec(s)));
    gs.push_back(NaiveArray(gs.back(), s));
  }
  std::vector<const GeneratedStructure*> ptrs;
  for (const auto& g : gs)
    ptrs.push_back(&g);
  const auto t0 = std::chrono::steady_clock::now();
  const auto rs = CharacterizeAll(ptrs, lib, opt);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  const double dff = lib.SmallestFlipFlop()->area;
  const double aoi22 = lib.Find("AOI22X1") ? lib.Find("AOI22X1")->area : 0;
  fmt::print(
      "| shape | area (a) gen | area (b) naive | area (c) floor | a/b | a/c | E_read a / b (pJ) | "
      "E_write a / b (pJ) | E_write a/b | idle a / b (pJ/cycle) | fmax a / b (MHz) | cells a / b | "
      "fit residual a / b | OpenSTA dyn. diff a / b |\n"
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (size_t i = 0; i < shapes.size(); ++i) {
    const auto& s = shapes[i];
    const auto& a = rs[2 * i];
    const auto& b = rs[2 * i + 1];
    const double floor = s.entries * s.width * dff + s.read_ports * s.width * s.entries * aoi22 / 2;
    fmt::print(
        "| {}x{} {}R{}W | {:.0f} | {:.0f} | {:.0f} | {:.2f} | {:.2f} | {:.2f} / {:.2f} | {:.2f} / "
        "{:.2f} | {:.2f} | {:.2f} / {:.2f} | {:.0f} / {:.0f} | {} / {} | {:.4f} / {:.4f} | {} / {} "
        "|\n",
        s.entries, s.width, s.read_ports, s.write_ports, a.synth.total_area, b.synth.total_area,
        floor, a.synth.total_area / b.synth.total_area, a.synth.total_area / floor, a.e_read_pj(),
        b.e_read_pj(), a.e_write_pj(), b.e_write_pj(), a.e_write_pj() / b.e_write_pj(),
        a.idle_pj_per_cycle, b.idle_pj_per_cycle, a.synth.timing.fmax_mhz, b.synth.timing.fmax_mhz,
        a.synth.cell_count(), b.synth.cell_count(), a.fit_residual, b.fit_residual, StaDiff(a),
        StaDiff(b));
  }
  fmt::print(
      "\nOSU018 at the library node (180 nm, unscaled); {} cycles per stimulus set; {:.0f} s "
      "in total (synthesis and characterization, cache as found).\n",
      opt.cycles, secs);
  return 0;
}

}  // namespace
}  // namespace gpurf

int main(int argc, char** argv) {
  return gpurf::Main(argc, argv);
}
