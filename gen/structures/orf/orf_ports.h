// The port table of the orf (port_table.h): the one list of its ports, from which
// EmitOrf prints the Verilog port list and the manifest's ports, and the golden model takes its
// port indices. The contract of each port: gen/structures/orf/orf_spec.h.
#pragma once

#include "gen/structures/orf/orf_spec.h"
#include "gen/structures/port_table.h"

namespace gpurf {

// Port handles, in port order. Every port is present for every spec, so a handle is
// the port's manifest index.
struct OrfPort {
  enum Port : int {
    kClk,
    kRstN,
    kWe,
    kWslot,
    kWentry,
    kWdata,
    kRe,
    kRslot,
    kRentry,
    kRdata,
    kInv,
    kInvSlot,
    kNumPorts
  };
};

PortTable OrfPortTable(const OrfSpec& s);

}  // namespace gpurf
