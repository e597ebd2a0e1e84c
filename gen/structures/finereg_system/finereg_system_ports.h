// The port table of the finereg-system top (port_table.h): the one list of its ports, from which
// EmitFineregSystem prints the Verilog port list and the manifest's ports, and the golden model
// takes its port indices. The contract of each port:
// gen/structures/finereg_system/finereg_system_spec.h.
#pragma once

#include "gen/structures/finereg_system/finereg_system_spec.h"
#include "gen/structures/port_table.h"

namespace gpurf {

// Port handles, in port order. Every port is present for every spec, so a handle is the port's
// manifest index.
struct FineregSystemPort {
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
    kSvValid,
    kSvReady,
    kSvCta,
    kSvBase,
    kSvLive,
    kRsValid,
    kRsReady,
    kRsCta,
    kRsBase,
    kRsCount,
    kBusy,
    kFreeCount,
    kNumPorts
  };
};

PortTable FineregSystemPortTable(const FineregSystemSpec& s);

}  // namespace gpurf
