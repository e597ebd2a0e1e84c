// The port table of the rfc (port_table.h): the one list of its ports, from which
// EmitRfc prints the Verilog port list and the manifest's ports, and the golden model takes its
// port indices. The contract of each port: gen/structures/rfc/rfc_spec.h.
#pragma once

#include "gen/structures/port_table.h"
#include "gen/structures/rfc/rfc_spec.h"

namespace gpurf {

// Port handles, in port order. lu_l0_o and wr_no_l0_i exist with two levels only, so a model
// resolves a port's index with PortTable::Index.
struct RfcPort {
  enum Port : int {
    kClk,
    kRstN,
    kLuValid,
    kLuSlot,
    kLuReg,
    kLuLast,
    kLuHit,
    kLuL0,
    kLuData,
    kWrValid,
    kWrSlot,
    kWrReg,
    kWrData,
    kWrLong,
    kWrNoL0,
    kWrReady,
    kFlValid,
    kFlSlot,
    kFlBusy,
    kFlDone,
    kWbValid,
    kWbSlot,
    kWbReg,
    kWbData,
    kWbReady,
    kNumPorts
  };
};

PortTable RfcPortTable(const RfcSpec& s);

}  // namespace gpurf
