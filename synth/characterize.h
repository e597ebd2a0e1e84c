// `gpurf characterize`: area, timing and per-access energy of each generated module from its
// mapped netlist. Per module: synthesize (synth.h, cached), simulate the gate-level netlist with
// Verilator under four stimulus sets (activity_driver.h: idle, reads, writes, mixed), price every
// toggle with the Liberty library (power.h), fit E_read and E_write, cross-check the dynamic
// power with OpenSTA, and scale to a target node (scaling.h).
//
// The fit: with D_s the dynamic energy of set s (internal + switching of cell-driven nets),
// I the idle dynamic energy per cycle, N_s the cycles and R_s, W_s the reads and writes made,
//   D_s - I * N_s = E_read * R_s + E_write * W_s     for s in {reads, writes, mixed},
// solved by least squares (three equations, two unknowns; the residual is reported). A read is
// one read port presenting a new random address in a cycle; a write is one write port writing
// random data to a random address. Leakage is reported separately, as power and per cycle of the
// reference clock.
// Kinds with handshakes define their own reads and writes and may count more components
// (activity_driver.h, model_drivers.cc): the RFC adds E_tag per operand lookup and, with two
// levels, E_read of L0 hits, fitted together with E_read and E_write over the sets plus its
// `misses` set (FitAccessComponents). A structure with black-boxed SRAM macros (the MRF) is
// simulated with the macros cut out (macro_cut.h): E_read/E_write are then the logic around the
// banks, and the SRAM model's per-access bank energy is reported beside them (macro_*) and added
// in the per-level table (level_table.h).
//
// Results are cached by content under <cache>/characterize/<top>-<hash>/ (the synthesis cache
// key, the options and the method version), so an unchanged module is not simulated again.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "gen/output/artifact.h"
#include "synth/activity_driver.h"
#include "synth/power.h"
#include "synth/scaling.h"
#include "synth/synth.h"

namespace gpurf {

struct CharacterizeOptions {
  SynthOptions synth;  // cache folder, parallel modules, reference clock period
  EnergyOptions energy;
  uint64_t cycles = 4000;  // per stimulus set
  uint64_t seed = 1;
  bool scale = true;
  int target_node_nm = 40;
  std::optional<int> library_node_nm;  // default: guessed from the library name
  bool sta_check = true;
  double sta_tolerance = 0.15;  // relative dynamic-power difference reported as agreeing
  // Parallel C++ compile jobs of one gate-level model; CharacterizeAll sets it to the jobs
  // (synth.jobs) left per module it characterizes at once.
  int build_jobs = 1;
  // Progress lines ("what, how far"); default: spdlog info.
  std::function<void(const std::string&)> progress;
};

struct StimulusSetResult {
  StimulusSet set = StimulusSet::kIdle;
  uint64_t cycles = 0;
  AccessCounts accesses;
  RunEnergy energy;
};

struct ModuleCharacterization {
  ModuleSynthResult synth;
  // Method and operating point.
  double period_ns = 0, slew_ns = 0, wire_cap_per_fanout_pf = 0, vdd_v = 0;
  uint64_t seed = 0;
  std::vector<StimulusSetResult> sets;  // idle, reads, writes, mixed
  // At the library node.
  double e_read_pj = 0, e_write_pj = 0;
  double idle_pj_per_cycle = 0;  // dynamic, clock only
  double leakage_w = 0;
  double leakage_pj_per_cycle = 0;  // at the reference period
  double fit_residual = 0;          // |residual| / |rhs| of the least-squares fit
  // Further fitted components (0 when the kind has none): energy per operand lookup (tag
  // check, hit or miss) and per L0 hit of a two-level RFC, at the library node.
  double e_tag_pj = 0, e_l0_read_pj = 0;
  AccessSemantics semantics;  // what a read, write, tag check, L0 read is for this kind
  // Black-boxed SRAM macros (synth.macros non-empty): per bank access from the SRAM model, at
  // the library node (when its node is known, else at the model's node, see notes) and scaled.
  double macro_e_read_pj = 0, macro_e_write_pj = 0;
  double scaled_macro_e_read_pj = 0, scaled_macro_e_write_pj = 0;
  int nets = 0;
  StaPowerCheck sta;
  // Scaled (when scaling is on).
  std::optional<ScalingFactors> scaling;
  double scaled_area = 0, scaled_e_read_pj = 0, scaled_e_write_pj = 0, scaled_idle_pj_per_cycle = 0;
  double scaled_e_tag_pj = 0, scaled_e_l0_read_pj = 0;
  std::vector<std::string> notes;
  bool from_cache = false;
  double seconds = 0;  // characterization (not synthesis) time of this run

  const std::string& top() const { return synth.top; }
  nlohmann::ordered_json Json() const;
};

// Characterizes (or finds in the cache) one synthesized module.
ModuleCharacterization CharacterizeModule(const GeneratedStructure& g,
                                          const ModuleSynthResult& synth, const LibertyLibrary& lib,
                                          const CharacterizeOptions& opt);

// Synthesizes and characterizes every module (opt.synth.jobs at a time); input order.
std::vector<ModuleCharacterization> CharacterizeAll(
    const std::vector<const GeneratedStructure*>& gs, const LibertyLibrary& lib,
    const CharacterizeOptions& opt);

// Solves the least-squares fit above (public for tests): rows (reads, writes, rhs).
struct AccessFit {
  double e_read = 0, e_write = 0, residual = 0;
};
AccessFit FitAccessEnergies(const std::vector<std::array<double, 3>>& rows);

// The same fit for any number of components: rows of (counts..., rhs). Components whose count is
// zero in every row are left out (energy 0); ToolError when the sets do not separate the rest.
struct ComponentFit {
  std::vector<double> energy;  // per component
  double residual = 0;
};
ComponentFit FitAccessComponents(const std::vector<std::vector<double>>& counts,
                                 const std::vector<double>& rhs);

nlohmann::ordered_json CharacterizationJson(const std::vector<ModuleCharacterization>& rs,
                                            const CharacterizeOptions& opt);
std::string CharacterizationCsv(const std::vector<ModuleCharacterization>& rs);
std::string CharacterizationMarkdown(const std::vector<ModuleCharacterization>& rs);
// Writes characterization.{json,csv,md}, manifest.json and per-module OpenSTA power files into
// the existing folder `dir`.
void WriteCharacterizationOutputs(const fs::path& dir,
                                  const std::vector<ModuleCharacterization>& rs,
                                  const CharacterizeOptions& opt);

// Gebhart et al. Table IV (40 nm, 3R1W, 128-bit): area um^2, read pJ, write pJ by entries per
// thread (4, 6, 8) and active warps (4, 6, 8).
struct GebhartCell {
  int entries_per_thread, warps;
  double area_um2, read_pj, write_pj;
};
const std::vector<GebhartCell>& GebhartTableIv();
// The side-by-side table (Markdown) of our scaled figures against the paper's, with ratios and
// the monotonicity verdict; `by_entries` maps total entries (e * w) to our characterization.
struct GebhartComparison {
  std::string markdown;
  bool monotonic = false;
  std::vector<std::string> violations;
};
GebhartComparison CompareWithGebhart(
    const std::function<const ModuleCharacterization*(int entries)>& by_entries);

}  // namespace gpurf
