// The port table of the renaming-table (port_table.h): the one list of its ports, from which
// EmitRenamingTable prints the Verilog port list and the manifest's ports, and the golden model
// takes its port indices. The contract of each port: renaming_table_spec.h.
#pragma once

#include "gen/structures/port_table.h"
#include "gen/structures/renaming_table/renaming_table_spec.h"

namespace gpurf {

// Port handles, in port order. Every port is present for every spec, so a handle is the port's
// manifest index.
struct RenamingTablePort {
  enum Port : int {
    kClk,
    kRstN,
    kExempt,
    kReqValid,
    kReqOp,
    kReqWarp,
    kSrcValid,
    kSrcReg,
    kSrcRelease,
    kDstValid,
    kDstReg,
    kDstPhys,
    kRelMask,
    kReqReady,
    kSrcServed,
    kSrcMapped,
    kSrcPhys,
    kDstServed,
    kDstAlloc,
    kDstPhysOut,
    kFreeValid,
    kFreePhys,
    kConflictCycles,
    kNumPorts
  };
};

PortTable RenamingTablePortTable(const RenamingTableSpec& s);

}  // namespace gpurf
