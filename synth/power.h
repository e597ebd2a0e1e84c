// Energy of simulated switching activity on a mapped netlist, priced with the Liberty library,
// and the OpenSTA cross-check of the same activity.
//
// Per toggle of a net:
//   internal energy of its driving cell: the output pin's internal_power rise_power (net rose)
//     or fall_power (net fell) table of the related input that caused it, read at the stated
//     input slew and at the net's load (see GateSimulator::Run for the attribution);
//   internal energy of every load pin that has its own internal_power (e.g. a flip-flop's clock
//     pin: rise_power / fall_power at the stated slew);
//   switching energy 1/2 C V^2, C = sum of the fanout input-pin capacitances + a wire estimate of
//     `wire_cap_per_fanout_pf` per fanout (module outputs count as one fanout with no pin), V the
//     library's nom_voltage.
// Plus leakage: the sum of the cells' cell_leakage_power times the simulated time.
// Switching of nets driven from outside the module (its input ports) is reported separately
// (input_port_switching) and left out of the per-access energies, as OpenSTA does.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "base/fs.h"
#include "synth/gate_netlist.h"
#include "synth/gate_sim.h"
#include "synth/liberty.h"

namespace gpurf {

struct EnergyOptions {
  // The stated operating point of every internal-power lookup: one input slew for all pins
  // (library tables are read there, at each net's actual load). 0.1 ns is inside OSU018's
  // table range (0.06..1.8 ns) at the fast end a buffered 0.18 um netlist would see.
  double slew_ns = 0.1;
  // Wire-load estimate: capacitance per fanout (pF). 3 fF per fanout is about 15-20 um of
  // minimum-width metal at 0.18 um, a short local net in a dense array.
  double wire_cap_per_fanout_pf = 0.003;
};

// Per-net prices derived once per netlist.
struct EnergyModel {
  double vdd_v = 0;
  double energy_unit_pj = 0;
  std::vector<double> cap_pf;                  // load capacitance of each net
  std::vector<double> in_rise_pj, in_fall_pj;  // load-pin internal energy per net rise / fall
  std::vector<OutputArcs> arcs;                // driving-cell output arcs per net
  double leakage_w = 0;                        // whole netlist
  std::vector<std::string> notes;
};

// Throws InputError when the library lacks units or nom_voltage.
EnergyModel BuildEnergyModel(const GateNetlist& nl, const LibertyLibrary& lib,
                             const EnergyOptions& opt);

struct RunEnergy {
  double internal_pj = 0;
  double switching_pj = 0;             // nets driven by cells
  double input_port_switching_pj = 0;  // nets driven by the module's inputs (not in dynamic)
  double leakage_pj = 0;
  double time_ns = 0;
  double dynamic_pj() const { return internal_pj + switching_pj; }
  double total_pj() const { return dynamic_pj() + leakage_pj; }
};

RunEnergy PriceRun(const ToggleRun& run, const GateNetlist& nl, const EnergyModel& m);

// OpenSTA cross-check: OpenSTA's report_power on the same cells, loads, slew and per-pin
// activities of `run`. OpenSTA 2.0.17 (Debian 12) keeps user activities only on top-level
// inputs: it re-derives every cell output from its inputs (Boolean difference with independent
// inputs, register outputs from their data input) and overwrites annotations. So the check
// gives it a netlist in which nothing has to be derived:
//   - the netlist is cut at every cell pin: each cell input is its own top-level input port,
//     with the simulated activity and duty of the net it was connected to and the stated slew;
//     each cell output is its own output port loaded with the net's capacitance of our model
//     (fanout pin capacitances + wire estimate);
//   - a copy of the Liberty (sta_power.lib) routes the simulated output activities in: each
//     combinational output's `function` becomes a pseudo input GPURF_F_<pin>, each register's
//     next_state / latch data_in becomes GPURF_N (its output's activity), so OpenSTA's
//     propagation reproduces them exactly; each output internal_power group gets a
//     `when : "GPURF_W_<pin>_<k>"` pseudo input whose duty is the share of the output's toggles
//     our pricing attributed to that group's related pin, halved because OpenSTA 2.0.17 charges
//     the rise plus the fall energy of a group for every output transition. Pseudo pins have no
//     capacitance and no power; every table, capacitance, leakage and the voltage are still read
//     by OpenSTA from the library's own text.
// What it checks: the pricing (table lookups at slew and load, 1/2 C V^2, units, leakage),
// independently implemented; not the activity, which both take from the same simulation.

struct StaPowerCheck {
  bool available = false;
  std::string reason;  // why not, when unavailable
  double sta_internal_w = 0, sta_switching_w = 0, sta_leakage_w = 0;
  double ours_internal_w = 0, ours_switching_w = 0, ours_leakage_w = 0;
  double dynamic_diff = 0;  // (ours - sta) / sta, dynamic power
  double seconds = 0;
};

// Writes netlist and script into `work` and runs `sta`.
StaPowerCheck CrossCheckWithOpenSta(const GateNetlist& nl, const LibertyLibrary& lib,
                                    const EnergyModel& m, const EnergyOptions& opt,
                                    const ToggleRun& run, const fs::path& work);

// The library text with the cross-check's pseudo pins, for the cells named (see above).
// Throws ToolError when the text does not have the groups the parsed library has.
std::string CrossCheckLiberty(const LibertyLibrary& lib, const std::set<std::string>& cells);

// Parses report_power's Total line: internal, switching, leakage (W). False if absent.
bool ParseStaPowerTotal(const std::string& log, double& internal, double& switching,
                        double& leakage);

}  // namespace gpurf
