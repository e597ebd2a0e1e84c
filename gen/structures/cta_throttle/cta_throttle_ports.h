// The port table of the CTA register balance counters and throttle (port_table.h): the one list
// of its ports, from which EmitCtaThrottle prints the Verilog port list and the manifest's
// ports, and the golden model takes its port indices. The contract of each port:
// cta_throttle_spec.h.
#pragma once

#include "gen/structures/cta_throttle/cta_throttle_spec.h"
#include "gen/structures/port_table.h"

namespace gpurf {

// Port handles, in port order. Every port is present for every spec.
struct CtaThrottlePort {
  enum Port : int {
    kClk,
    kRstN,
    kLaunchValid,
    kLaunchSlot,
    kLaunchNeed,
    kExitValid,
    kExitSlot,
    kAllocValid,
    kAllocBank,
    kAllocSlot,
    kRelValid,
    kRelSlot,
    kRelBank,
    kAllocGrant,
    kSpill,
    kIssueOk,
    kThrottle,
    kReservedValid,
    kReserved,
    kSpillMode,
    kFreeCount,
    kNumPorts
  };
};

PortTable CtaThrottlePortTable(const CtaThrottleSpec& s);

}  // namespace gpurf
