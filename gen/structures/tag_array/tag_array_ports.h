// The port table of the tag-array (port_table.h): the one list of its ports, from which
// EmitTagArray prints the Verilog port list and the manifest's ports, and the golden model takes
// its port indices. The contract of each port: gen/structures/tag_array/tag_array_spec.h.
#pragma once

#include "gen/structures/port_table.h"
#include "gen/structures/tag_array/tag_array_spec.h"

namespace gpurf {

// Port handles, in port order. Every port is present for every spec, so a handle is the port's
// manifest index.
struct TagArrayPort {
  enum Port : int {
    kClk,
    kRstN,
    kReqValid,
    kLkValid,
    kLkOp,
    kLkLast,
    kLkWarp,
    kLkReg,
    kLkAddr,
    kReqReady,
    kRspValid,
    kRspAddr,
    kRspHit,
    kRspWay,
    kRspState,
    kRspNext,
    kRspVictimValid,
    kRspVictimState,
    kRspVictimAddr,
    kConflictCycles,
    kNumPorts
  };
};

PortTable TagArrayPortTable(const TagArraySpec& s);

}  // namespace gpurf
