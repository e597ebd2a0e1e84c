// The port table of the cerf-system top (port_table.h): the one list of its ports, from which
// EmitCerfSystem prints the Verilog port list and the manifest's ports, and the golden model takes
// its port indices. The contract of each port: gen/structures/cerf_system/cerf_system_spec.h.
#pragma once

#include "gen/structures/cerf_system/cerf_system_spec.h"
#include "gen/structures/port_table.h"

namespace gpurf {

// Port handles, in port order. Every port is present for every spec, so a handle is the port's
// manifest index.
struct CerfSystemPort {
  enum Port : int {
    kClk,
    kRstN,
    kReqValid,
    kReqReady,
    kLkValid,
    kLkOp,
    kLkLast,
    kLkWarp,
    kLkReg,
    kLkAddr,
    kLkData,
    kRdValid,
    kRdData,
    kMemRdValid,
    kMemRdAddr,
    kMemWrValid,
    kMemWrAddr,
    kMemWrData,
    kMemRspValid,
    kMemRspId,
    kMemRspData,
    kSpillValid,
    kSpillAddr,
    kSpillData,
    kFillValid,
    kFillAddr,
    kFillRspValid,
    kFillRspId,
    kFillRspData,
    kConflictCycles,
    kNumPorts
  };
};

PortTable CerfSystemPortTable(const CerfSystemSpec& s);

}  // namespace gpurf
