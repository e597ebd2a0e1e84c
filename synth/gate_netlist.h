// A mapped gate-level netlist as a bit-level graph: cells of the Liberty library, single-bit
// nets with their driver and loads, and the module ports. Read from the JSON netlist Yosys
// writes next to netlist.v (`write_json`), in which every net bit already has a number, so no
// Verilog has to be parsed and aliases (`assign a = b`) are already resolved.
#pragma once

#include <string>
#include <vector>

#include "base/fs.h"
#include "gen/output/artifact.h"
#include "synth/liberty.h"

namespace gpurf {

// A connection: a net index, or a constant.
inline constexpr int kConst0 = -1;
inline constexpr int kConst1 = -2;

struct GateCell {
  std::string name;  // instance name
  std::string type;  // Liberty cell name
  const LibertyCell* lib = nullptr;
  std::vector<std::pair<std::string, int>> inputs;   // pin -> net (or constant)
  std::vector<std::pair<std::string, int>> outputs;  // pin -> net (outputs left open: skipped)

  int InputNet(const std::string& pin) const;  // kConst0 when unconnected
};

struct GateLoad {
  int cell = 0;
  std::string pin;
};

struct GateNet {
  std::string name;        // a readable name (Yosys net name and bit)
  int driver_cell = -1;    // cell index driving it, or -1
  std::string driver_pin;  // that cell's output pin
  bool primary_input = false;
  std::vector<GateLoad> loads;  // cell input pins it drives
  int output_ports = 0;         // module output bits it drives
};

struct GatePort {
  std::string name;
  PortDir dir = PortDir::kInput;
  std::vector<int> bits;  // LSB first: net index or constant
};

struct GateNetlist {
  std::string top;
  std::vector<GatePort> ports;
  std::vector<GateCell> cells;
  std::vector<GateNet> nets;

  const GatePort* FindPort(const std::string& name) const;
};

// Reads module `top` of a Yosys JSON netlist and links its cells to `lib`. Throws ToolError on
// an unreadable file, a cell the library lacks, or a net with two drivers.
GateNetlist ReadYosysJsonNetlist(const fs::path& json, const std::string& top,
                                 const LibertyLibrary& lib);

}  // namespace gpurf
