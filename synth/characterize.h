// `gpurf characterize`: area, timing and per-access energy of each generated module from its
// mapped netlist. Per module: synthesize (synth.h, cached), simulate the gate-level netlist with
// Verilator under the driver's stimulus sets (activity_driver.h: idle, reads, writes, mixed and
// any the driver adds), price every toggle with the Liberty library (power.h), fit the energy of
// each access component the driver declared (characterize_fit.h), cross-check the dynamic power
// with OpenSTA, and scale to a target node (scaling.h).
//
// The fit: with D_s the dynamic energy of set s (internal + switching of cell-driven nets),
// I the idle dynamic energy per cycle, N_s the cycles and R_s, W_s the reads and writes made,
//   D_s - I * N_s = E_read * R_s + E_write * W_s     for s in {reads, writes, mixed},
// solved by least squares (three equations, two unknowns; the residual is reported). A read is
// one read port presenting a new random address in a cycle; a write is one write port writing
// random data to a random address. Leakage is reported separately, as power and per cycle of the
// reference clock.
// Kinds with handshakes define their own reads and writes and may declare further components
// (activity_driver.h, model_drivers.cc) with stimulus sets of their own; the right-hand side then
// sums E_c * C_s over every component c and the sets are all the non-idle ones
// (FitAccessComponents). A structure with black-boxed SRAM macros (the MRF) is simulated with the
// macros cut out (macro_cut.h): E_read/E_write are then the logic around the banks, and the SRAM
// model's per-access bank energy is reported beside them (macro_*) and added in the per-level
// table (level_table.h).
//
// The files: characterize.cc runs a module and fans modules out to threads; characterize_fit.cc
// solves the fit; characterize_cache.cc is the result format and the cache;
// characterize_scaling.cc scales to the target node and adds the SRAM macros' energies;
// characterize_report.cc writes characterization.{json,csv,md}; gebhart_table_iv.cc compares
// with the paper's Table IV.
//
// Results are cached by content under <cache>/characterize/<top>-<hash>/ (the synthesis cache
// key, the options and the method version), so an unchanged module is not simulated again.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
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
  StimulusSet set = kIdleSet;
  uint64_t cycles = 0;
  AccessCounts accesses;  // per component of the module (ModuleCharacterization::components)
  RunEnergy energy;
};

// One access component of a module (as its activity driver declared it) and its fitted energy.
struct EnergyComponent {
  std::string name;        // "read", "write", or the family's own
  std::string meaning;     // what one access is
  double e_pj = 0;         // per access at the library node (0: no set exercised it)
  double scaled_e_pj = 0;  // at the target node (when scaling is on)
};

struct ModuleCharacterization {
  ModuleSynthResult synth;
  // Method and operating point.
  double period_ns = 0, slew_ns = 0, wire_cap_per_fanout_pf = 0, vdd_v = 0;
  uint64_t seed = 0;
  std::vector<StimulusSetResult> sets;  // idle, reads, writes, mixed, then the driver's own
  // Every component the driver declared, in its order: "read" and "write", then its own.
  std::vector<EnergyComponent> components;
  // At the library node.
  double idle_pj_per_cycle = 0;  // dynamic, clock only
  double leakage_w = 0;
  double leakage_pj_per_cycle = 0;  // at the reference period
  double fit_residual = 0;          // |residual| / |rhs| of the least-squares fit
  // Black-boxed SRAM macros (synth.macros non-empty): per bank access from the SRAM model, at
  // the library node (when its node is known, else at the model's node, see notes) and scaled.
  double macro_e_read_pj = 0, macro_e_write_pj = 0;
  double scaled_macro_e_read_pj = 0, scaled_macro_e_write_pj = 0;
  int nets = 0;
  StaPowerCheck sta;
  // Scaled (when scaling is on).
  std::optional<ScalingFactors> scaling;
  double scaled_area = 0, scaled_idle_pj_per_cycle = 0;
  std::vector<std::string> notes;
  bool from_cache = false;
  double seconds = 0;  // characterization (not synthesis) time of this run

  const std::string& top() const { return synth.top; }
  // The component of that name, nullptr when the driver declared none.
  const EnergyComponent* Component(std::string_view name) const;
  // The energies of the "read" and "write" components every driver declares.
  double e_read_pj() const;
  double e_write_pj() const;
  double scaled_e_read_pj() const;
  double scaled_e_write_pj() const;
  nlohmann::ordered_json Json() const;  // characterize_report.cc
};

// Characterizes (or finds in the cache) one synthesized module.
ModuleCharacterization CharacterizeModule(const GeneratedStructure& g,
                                          const ModuleSynthResult& synth, const LibertyLibrary& lib,
                                          const CharacterizeOptions& opt);

// Synthesizes and characterizes every module (opt.synth.jobs at a time); input order.
std::vector<ModuleCharacterization> CharacterizeAll(
    const std::vector<const GeneratedStructure*>& gs, const LibertyLibrary& lib,
    const CharacterizeOptions& opt);

}  // namespace gpurf
