// Gate-level switching simulation of a mapped netlist with Verilator, and per-net toggle counts.
//
// Cell models: generated from the Liberty `function`, `ff` and `latch` groups of each cell, not
// taken from the library's Verilog file. OSU018's own osu018_stdcells.v builds its flip-flops and
// latch from Verilog-1995 UDP tables (udp_dff, udp_tlat, udp_mux2) that Verilator 5.006 rejects
// with a syntax error, and other libraries' cell files are just as often UDP- or
// specify-heavy; the Liberty functions are what synthesis and STA use, so the simulated logic is
// by construction the logic that was timed and priced. Each cell instance becomes one
// continuous assignment per output (combinational), or a state variable with an always_ff /
// always_latch block (sequential), inlined into one flat module; no cell module hierarchy is left
// for Verilator to inline.
//
// Toggle counting: the emitted module has extra outputs, probe<k>_o, 64 nets each, that together
// concatenate every net (cell outputs and primary-input bits). After each evaluation (two per
// clock cycle: inputs changed with the clock low, then the clock high) the harness XORs each
// probe word with its previous value and counts the set bits per net, splitting rises from falls
// and integrating the time each net is high (for OpenSTA's duty). This is exact for the zero-delay
// simulation (the settled value of every net at every evaluation, so glitches are not seen, as in
// OpenSTA's activity model) and costs one XOR per 64 nets plus work proportional to the toggles.
// Verilator's own
// --coverage-toggle was the alternative: it counts per signal bit inside the model, but its
// counters come out through a coverage database keyed by mangled names, without rise/fall or
// duty, and cannot be zeroed per stimulus set without re-reading that database.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "gen/output/artifact.h"
#include "synth/activity_driver.h"
#include "synth/gate_netlist.h"
#include "synth/liberty.h"
#include "verif/harness/verilator_build.h"

namespace gpurf {

// The internal-energy arcs of one cell output: for each related input net, the energy of an
// output rise / fall caused by it (pJ). Used to attribute each output toggle to the related
// inputs that toggled in the same evaluation.
struct OutputArcs {
  std::vector<int> from;  // related input nets (or a constant: never toggles)
  std::vector<double> rise_pj, fall_pj;
};

struct ToggleRun {
  StimulusSet set = kIdleSet;
  uint64_t cycles = 0;
  double period_ns = 0;
  AccessCounts accesses;               // per component the driver declared
  std::vector<uint64_t> rises, falls;  // per net of the GateNetlist
  std::vector<double> high_ns;         // time each net was high
  // Internal energy of cell outputs, each toggle priced by the arcs of the related inputs that
  // toggled in the same evaluation (or by the mean of all arcs when none did), pJ.
  double output_internal_pj = 0;
  // The same attribution as counts, per net and arc (indexed like OutputArcs::from): each output
  // toggle adds 1/k to each of the k arcs whose related input toggled with it, or 1/n to each of
  // the n arcs when none did. Empty for nets without arcs. The OpenSTA cross-check weighs each
  // arc's internal-power group with it.
  std::vector<std::vector<double>> arc_share;

  uint64_t toggles(int net) const {
    return rises[static_cast<size_t>(net)] + falls[static_cast<size_t>(net)];
  }
  double duty(int net) const { return high_ns[static_cast<size_t>(net)] / (cycles * period_ns); }
};

// Nets per probe output port.
inline constexpr int kProbeWordBits = 64;

// The simulation module for `nl` (ports of `rtl`, plus the probe<k>_o words) as a
// GeneratedStructure that BuildModel can build; `probe_nets` lists the net of each probe bit
// (bit b is bit b % 64 of probe<b / 64>_o).
struct GateSimSource {
  GeneratedStructure rtl;
  std::vector<int> probe_nets;
};
// `sample_inputs`: every input but the clock goes through a register loaded at the falling
// clock edge (the default, see the .cc); false connects the ports straight to their nets (the
// reference the sampled form is tested against: same toggles at every evaluation).
GateSimSource EmitGateSimulation(const GateNetlist& nl, const LibertyLibrary& lib,
                                 const GeneratedStructure& rtl, bool sample_inputs = true);

class GateSimulator {
 public:
  // Emits and builds (or finds in the Verilator model cache) the simulation of `nl`.
  GateSimulator(const GateNetlist& nl, const LibertyLibrary& lib, const GeneratedStructure& rtl,
                const BuildOptions& opt, bool sample_inputs = true);
  ~GateSimulator();

  // Resets the netlist and runs the driver's warm-up. Call once before Run().
  void Start(ActivityDriver& driver, ActivityRng& rng);
  // Simulates `cycles` cycles of `set`, continuing from the current state. `arcs` (indexed by
  // net, may be empty) prices output toggles as they happen.
  ToggleRun Run(ActivityDriver& driver, const StimulusSet& set, uint64_t cycles, double period_ns,
                ActivityRng& rng, const std::vector<OutputArcs>& arcs);

  bool built_from_cache() const { return model_.from_cache; }
  double build_seconds() const { return model_.build_seconds; }

 private:
  void Apply(int clk);
  void Sample();

  const GateNetlist& nl_;
  GateSimSource src_;
  BuiltModel model_;
  std::unique_ptr<DutModel> dut_;
  DriveValues values_;
  int clock_port_ = -1;
  std::vector<int> probe_ports_;  // port index of each 64-net probe word
  std::vector<uint64_t> prev_, cur_;
};

}  // namespace gpurf
