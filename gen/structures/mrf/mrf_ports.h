// The port table of the mrf (port_table.h): the one list of its ports, from which
// EmitMrf prints the Verilog port list and the manifest's ports, and the golden model takes its
// port indices. The contract of each port: gen/structures/mrf/mrf_spec.h.
#pragma once

#include "gen/structures/mrf/mrf_spec.h"
#include "gen/structures/port_table.h"

namespace gpurf {

// Port handles, in port order. Every port is present for every spec, so a handle is
// the port's manifest index.
struct MrfPort {
  enum Port : int {
    kClk,
    kRstN,
    kIssueValid,
    kIssueReady,
    kIssueTag,
    kIssueWarp,
    kIssueSrcValid,
    kIssueSrcReg,
    kWbValid,
    kWbReady,
    kWbWarp,
    kWbReg,
    kWbData,
    kDispValid,
    kDispReady,
    kDispTag,
    kDispWarp,
    kDispSrcValid,
    kDispData,
    kCntReads,
    kCntWrites,
    kCntConflicts,
    kCntIssueStalls,
    kCntWbStalls,
    kNumPorts
  };
};

PortTable MrfPortTable(const MrfSpec& s);

}  // namespace gpurf
