// The port table of the flop-array (port_table.h): the one list of its ports, from which
// EmitFlopArray prints the Verilog port list and the manifest's ports, and the golden model takes
// its port indices. The contract of each port: gen/structures/flop_array/flop_array_spec.h.
#pragma once

#include "gen/structures/flop_array/flop_array_spec.h"
#include "gen/structures/port_table.h"

namespace gpurf {

// Port handles, in port order. Every port is present for every spec, so a handle is
// the port's manifest index.
struct FlopArrayPort {
  enum Port : int { kClk, kRstN, kWe, kWaddr, kWdata, kRaddr, kRdata, kNumPorts };
};

PortTable FlopArrayPortTable(const FlopArraySpec& s);

}  // namespace gpurf
