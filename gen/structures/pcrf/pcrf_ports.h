// The port table of the pcrf (port_table.h): the one list of its ports, from which EmitPcrf
// prints the Verilog port list and the manifest's ports, and the golden model takes its port
// indices. The contract of each port: gen/structures/pcrf/pcrf_spec.h.
#pragma once

#include "gen/structures/pcrf/pcrf_spec.h"
#include "gen/structures/port_table.h"

namespace gpurf {

// Port handles, in port order. Every port is present for every spec, so a handle is the port's
// manifest index.
struct PcrfPort {
  enum Port : int {
    kClk,
    kRstN,
    kAppValid,
    kAppCta,
    kAppWarp,
    kAppReg,
    kAppData,
    kRsValid,
    kRsCta,
    kOutReady,
    kQCta,
    kAppReady,
    kAppEntry,
    kRsReady,
    kOutValid,
    kOutCta,
    kOutWarp,
    kOutReg,
    kOutEntry,
    kOutLast,
    kOutData,
    kQCount,
    kQHeadValid,
    kQHead,
    kFreeCount,
    kNumPorts
  };
};

PortTable PcrfPortTable(const PcrfSpec& s);

}  // namespace gpurf
