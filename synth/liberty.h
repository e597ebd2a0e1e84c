// A small Liberty (.lib) reader: just enough of the format to know, per cell, its area, whether
// it is sequential (an `ff` or `latch` group) and how (clock, next state, clear, preset), its pins
// with directions, functions and capacitances, its internal_power tables and leakage, and the
// library's units and nominal voltage. Used to sanity-check the library before synthesis, to
// classify mapped cells, to map latches (Yosys 0.23's dfflibmap maps flip-flops only), to build
// gate-level simulation models from the cell functions and to price switching activity.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/fs.h"

namespace gpurf {

// A lookup table (an internal_power rise_power/fall_power group) with its axes resolved from
// its template. Axes other than input slew and output load are not supported for energy.
struct LibertyTable {
  enum class Var { kNone, kInputSlew, kOutputLoad, kOther };
  Var var1 = Var::kNone, var2 = Var::kNone;
  std::vector<double> index1, index2;
  std::vector<double> values;  // index1.size() x max(1, index2.size()), row-major

  // Value at the given input slew and output load (library units): linear interpolation
  // inside the table, linear extrapolation outside it (as OpenSTA does).
  double Lookup(double slew, double load) const;
};

// One internal_power group of a pin. On an output pin, `related_pin` is the input whose change
// causes the output transition (rise/fall = output direction); on an input pin there is usually
// no related pin and rise/fall are the input's own transitions (e.g. a flip-flop's clock pin).
struct LibertyInternalPower {
  std::string related_pin;
  std::string when;  // condition; not evaluated (groups of one pin are averaged)
  std::optional<LibertyTable> rise, fall;
};

struct LibertyPin {
  std::string name;
  std::string direction;    // input, output, inout, internal ("" if not declared)
  std::string function;     // Boolean function of an output pin ("" if none)
  std::string three_state;  // three_state condition of a tristate output ("" if none)
  double capacitance = 0;   // input pin capacitance, library capacitance units
  std::vector<LibertyInternalPower> internal_power;
};

struct LibertyCell {
  std::string name;
  double area = 0;
  bool has_area = false;
  bool is_ff = false;
  bool is_latch = false;
  bool has_internal_power = false;
  bool has_leakage_power = false;  // cell_leakage_power or a leakage_power group
  std::vector<LibertyPin> pins;
  // For a latch: the variable names of its `latch (IQ, IQN)` group and its data / enable.
  std::vector<std::string> state_vars;
  std::string latch_data_in;  // e.g. "D"
  std::string latch_enable;   // e.g. "CLK" or "!G"
  // For a flip-flop: clocked_on and next_state; for both: asynchronous clear / preset and
  // what the state becomes when both are active (clear_preset_var1: L, H, N, T, X).
  std::string ff_clocked_on;
  std::string ff_next_state;
  std::string clear, preset;
  std::string clear_preset_var1;
  double leakage_power = 0;  // cell_leakage_power (or the mean of leakage_power groups)

  bool sequential() const { return is_ff || is_latch; }
  const LibertyPin* FindPin(const std::string& pin) const;
};

struct LibertyLibrary {
  fs::path path;
  std::string name;       // library (NAME)
  std::string time_unit;  // e.g. "1ns"
  // Units as declared, and in SI-based multiples; nullopt when the library does not declare
  // them (energy characterization then refuses to guess).
  std::string voltage_unit, leakage_power_unit, capacitive_load_unit;
  std::optional<double> time_unit_ns;          // 1 for "1ns"
  std::optional<double> voltage_unit_v;        // 1 for "1V"
  std::optional<double> capacitive_unit_pf;    // 1 for (1,pf), 0.001 for (1,ff)
  std::optional<double> leakage_power_unit_w;  // 1e-9 for "1nW"
  std::optional<double> nom_voltage;           // in voltage units
  std::string contents;                        // the file text (hashed into cache keys)
  std::map<std::string, LibertyCell> cells;

  const LibertyCell* Find(const std::string& cell) const;
  // The sequential cell with an `ff` group and the smallest area > 0, if any.
  const LibertyCell* SmallestFlipFlop() const;
  // Sanity findings: cells with zero/missing area or no power data. One line each.
  std::vector<std::string> Warnings() const;
  // Internal-power tables are energies in capacitance unit x voltage unit^2 (Liberty
  // convention); this is that unit in pJ. Throws InputError when a unit is missing.
  double EnergyUnitPj() const;
};

// Parses Liberty text; `origin` names the file in messages. Throws InputError on malformed
// input (with line number).
LibertyLibrary ParseLiberty(const std::string& text, const std::string& origin);

// Reads and parses a Liberty file. A missing or unreadable file is an InputError naming it.
LibertyLibrary LoadLiberty(const fs::path& path);

// The Debian qflow-tech-osu018 library, the default of `gpurf synth`.
fs::path DefaultLibertyPath();

}  // namespace gpurf
