// A small Liberty (.lib) reader: just enough of the format to know, per cell, its area, whether
// it is sequential (an `ff` or `latch` group), whether it carries power data, its pins and
// directions, and for latches which pins are data, enable and output. Used to sanity-check the
// library before synthesis, to classify mapped cells and to map latches (Yosys 0.23's dfflibmap
// maps flip-flops only).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gen/util/fs.h"

namespace gpurf {

struct LibertyPin {
  std::string name;
  std::string direction;  // input, output, inout, internal ("" if not declared)
  std::string function;   // Boolean function of an output pin ("" if none)
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

  bool sequential() const { return is_ff || is_latch; }
  const LibertyPin* FindPin(const std::string& pin) const;
};

struct LibertyLibrary {
  fs::path path;
  std::string name;       // library (NAME)
  std::string time_unit;  // e.g. "1ns"
  std::string contents;   // the file text (hashed into cache keys)
  std::map<std::string, LibertyCell> cells;

  const LibertyCell* Find(const std::string& cell) const;
  // The sequential cell with an `ff` group and the smallest area > 0, if any.
  const LibertyCell* SmallestFlipFlop() const;
  // Sanity findings: cells with zero/missing area or no power data. One line each.
  std::vector<std::string> Warnings() const;
};

// Parses Liberty text; `origin` names the file in messages. Throws InputError on malformed
// input (with line number).
LibertyLibrary ParseLiberty(const std::string& text, const std::string& origin);

// Reads and parses a Liberty file. A missing or unreadable file is an InputError naming it.
LibertyLibrary LoadLiberty(const fs::path& path);

// The Debian qflow-tech-osu018 library, the default of `gpurf synth`.
fs::path DefaultLibertyPath();

}  // namespace gpurf
