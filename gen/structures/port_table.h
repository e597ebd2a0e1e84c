// The port table of a structure kind: the one list of its ports, from which the emitter prints
// the SystemVerilog port list, the manifest gets its port table, and the golden model resolves
// its port indices.
//
// Each kind declares its port handles (an enum, `XxxPort::kName`, numbered 0..kNumPorts-1 in
// port order) and a function `XxxPortTable(const XxxSpec&)` next to its spec
// (gen/structures/<kind>/<kind>_ports.{h,cc}) that lists every port once, with its width for the
// spec, the parameter expression the Verilog prints, and whether the spec has it. A port's
// index in the manifest (and in a golden model's PortValues) is its position among the present
// ports: `Index(handle)`. A kind whose ports are all present for every spec has handle = index.
#pragma once

#include <string>
#include <vector>

#include "base/bits.h"
#include "gen/output/artifact.h"
#include "gen/vlog/ast.h"

namespace gpurf {

struct PortDef {
  int handle = 0;    // the kind's port enum value
  std::string name;  // "lu_valid_i"
  PortDir dir = PortDir::kInput;
  int width = 1;            // total bits of the flat vector for this spec
  std::string msb;          // its MSB as the Verilog prints it ("NumOperands-1"); "" for 1 bit
  int count = 1;            // logical ports packed into it
  std::string role;         // manifest role: clock, reset_n, write_enable, ...
  std::string description;  // manifest description
  std::string comment;      // comment of the Verilog port declaration
  bool present = true;      // the spec has this port (lu_l0_o only with two RFC levels)
};

// The clock (rising edge) and the asynchronous active-low reset every kind has, named clk_i and
// rst_ni; `description` is the manifest's, the Verilog comment stays "clock".
PortDef ClockPort(int handle, std::string description = "clock");
PortDef ResetPort(int handle);

class PortTable {
 public:
  // `ports` lists every handle of the kind once, in handle order (checked: std::logic_error).
  explicit PortTable(std::vector<PortDef> ports);

  const PortDef& operator[](int handle) const { return ports_.at(handle); }
  // Position of the port among the present ports (its manifest index), -1 when absent.
  int Index(int handle) const { return index_.at(handle); }
  // Number of present ports.
  int size() const { return present_; }

  std::vector<PortInfo> Manifest() const;
  // One zero value per present port, in index order: the PortValues a golden model takes.
  std::vector<Bits> ZeroValues() const;
  std::vector<vlog::Port> Verilog() const;

 private:
  std::vector<PortDef> ports_;
  std::vector<int> index_;
  int present_ = 0;
};

}  // namespace gpurf
