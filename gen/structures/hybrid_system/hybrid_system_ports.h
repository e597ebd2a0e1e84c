// The port table of the hybrid-system (port_table.h): the one list of its ports, from which
// EmitHybridSystem prints the Verilog port list and the manifest's ports, and the golden model
// takes its port indices. The contract of each port: hybrid_system_spec.h.
#pragma once

#include "gen/structures/hybrid_system/hybrid_system_spec.h"
#include "gen/structures/port_table.h"

namespace gpurf {

// Port handles, in port order. Every port is present for every spec, so a handle is the port's
// manifest index.
struct HybridSystemPort {
  enum Port : int {
    kClk,
    kRstN,
    kIssueValid,
    kIssueReady,
    kIssueTag,
    kIssueWarp,
    kIssueSrcValid,
    kIssueSrcRsp,
    kIssueSrcSlot,
    kIssueSrcReg,
    kIssueSrcLast,
    kDispValid,
    kDispReady,
    kDispTag,
    kDispWarp,
    kDispSrcValid,
    kDispData,
    kResValid,
    kResReady,
    kResRsp,
    kResSlot,
    kResWarp,
    kResReg,
    kResData,
    kXfValid,
    kXfReady,
    kXfOp,
    kXfSlot,
    kXfWarp,
    kXfReg,
    kFlValid,
    kFlReady,
    kNumPorts
  };
};

PortTable HybridSystemPortTable(const HybridSystemSpec& s);

}  // namespace gpurf
