// The port table of the hybrid-rc (port_table.h): the one list of its ports, from which
// EmitHybridRc prints the Verilog port list and the manifest's ports, and the golden model takes
// its port indices. The contract of each port: gen/structures/hybrid_rc/hybrid_rc_spec.h.
#pragma once

#include "gen/structures/hybrid_rc/hybrid_rc_spec.h"
#include "gen/structures/port_table.h"

namespace gpurf {

// Port handles, in port order. Every port is present for every spec (parallel-lifetime keeps the
// transfer ports and asserts they stay idle), so a handle is the port's manifest index.
struct HybridRcPort {
  enum Port : int {
    kClk,
    kRstN,
    kRdValid,
    kRdRsp,
    kRdSlot,
    kRdWarp,
    kRdReg,
    kRdLast,
    kWrValid,
    kWrRsp,
    kWrSlot,
    kWrWarp,
    kWrReg,
    kWrData,
    kXfValid,
    kXfOp,
    kXfSlot,
    kXfWarp,
    kXfReg,
    kXfData,
    kRdHit,
    kRdData,
    kXfHit,
    kWbValid,
    kWbWarp,
    kWbReg,
    kWbData,
    kNumPorts
  };
};

PortTable HybridRcPortTable(const HybridRcSpec& s);

}  // namespace gpurf
