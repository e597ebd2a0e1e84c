// Synthesis of generated RTL onto a Liberty library with Yosys, area and cell statistics from
// the mapped netlist, and timing with OpenSTA. Results are cached by content (module files,
// library, scripts) under <cache>/synth/<top>-<hash>/, so an unchanged module is synthesized
// once per cache folder.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "base/fs.h"
#include "gen/output/artifact.h"
#include "synth/liberty.h"
#include "synth/sram_model.h"

namespace gpurf {

struct SynthOptions {
  fs::path cache_dir;             // empty: DefaultCacheDir()
  NodeScaling sram_node;          // node of the SRAM-model area of black-boxed macros
  int jobs = 2;                   // modules synthesized in parallel
  double clock_period_ns = 10.0;  // STA reference clock on clk_i
};

struct CellUse {
  std::string cell;
  int count = 0;
  double area_each = 0;  // library area, or the estimate for a zero-area cell
  bool sequential = false;
  bool estimated = false;  // the library declares no/zero area: area_each is an estimate
  double area() const { return count * area_each; }
};

// A black-boxed SRAM macro (the manifest's derived.sram_macros) kept as one cell by Yosys; its
// area comes from the SRAM model, not from the Liberty library.
struct MacroUse {
  std::string module;
  int count = 0;
  SramFigures figures;  // per macro
  double area() const { return count * figures.area_um2; }
};

struct TimingResult {
  bool available = false;
  std::string reason;           // why not, when unavailable
  double critical_path_ns = 0;  // minimum clock period the worst path needs
  double fmax_mhz = 0;          // 1000 / critical_path_ns
  std::string startpoint, endpoint;
  double path_delay_ns = 0;  // that path's data delay plus setup
  double path_span_ns = 0;   // launch-to-capture time it has at the reference period
};

struct ModuleSynthResult {
  std::string top;
  std::string kind;
  std::string instance;
  nlohmann::ordered_json parameters;
  std::string library_name;
  fs::path library_path;
  std::string area_unit = "um^2";
  double total_area = 0;
  double sequential_area = 0;
  double combinational_area = 0;
  std::optional<double> yosys_chip_area;  // Yosys `stat -liberty` figure (zero-area cells as 0)
  std::vector<CellUse> cells;             // sorted by cell name
  // Black-boxed SRAM macros: not in total_area (library cells only, possibly another node);
  // macro_area is their SRAM-model area at the model's node (macros[].figures.node).
  std::vector<MacroUse> macros;
  double macro_area = 0;
  std::vector<std::string> notes;  // estimates, tool remarks
  TimingResult timing;
  double clock_period_ns = 0;
  fs::path work_dir;  // cache folder: netlist.v, yosys.log, sta.log
  bool from_cache = false;
  double seconds = 0;

  int cell_count() const;
  int count_of(const std::string& cell) const;
  nlohmann::ordered_json Json() const;
};

// The Yosys script (read, hierarchy, synth, map flip-flops and latches, abc, stat, write).
std::string YosysScript(const GeneratedStructure& g, const LibertyLibrary& lib);
// Yosys techmap mapping $_DLATCH_P_/$_DLATCH_N_ onto the library's latch cell; "" when the
// library has no usable latch cell.
std::string LatchTechmap(const LibertyLibrary& lib);
// The OpenSTA script.
std::string StaScript(const std::string& top, const LibertyLibrary& lib, double period_ns);

// Synthesizes (or finds in the cache) one module. Throws ToolError with the tail of the Yosys
// log on failure; an STA failure is reported in `timing`, not thrown.
ModuleSynthResult SynthesizeModule(const GeneratedStructure& g, const LibertyLibrary& lib,
                                   const SynthOptions& opt);

// Every module, opt.jobs at a time; results in input order.
std::vector<ModuleSynthResult> SynthesizeAll(const std::vector<const GeneratedStructure*>& gs,
                                             const LibertyLibrary& lib, const SynthOptions& opt);

// Parses OpenSTA `report_checks` output into the critical path (public for tests).
TimingResult ParseStaReport(const std::string& log, double period_ns);

// Reports over several modules.
nlohmann::ordered_json SynthesisJson(const std::vector<ModuleSynthResult>& rs);
std::string SynthesisCsv(const std::vector<ModuleSynthResult>& rs);
std::string SynthesisMarkdown(const std::vector<ModuleSynthResult>& rs);

// Writes <dir>/<top>/{netlist.v,yosys.log,sta.log} and synthesis.{json,csv,md} into the
// existing folder `dir`.
void WriteSynthesisOutputs(const fs::path& dir, const std::vector<ModuleSynthResult>& rs);

}  // namespace gpurf
