// The port table of the warp-scheduler (port_table.h): the one list of its ports, from which
// EmitWarpScheduler prints the Verilog port list and the manifest's ports, and the golden model
// takes its port indices. The contract of each port:
// gen/structures/warp_scheduler/warp_scheduler_spec.h.
#pragma once

#include "gen/structures/port_table.h"
#include "gen/structures/warp_scheduler/warp_scheduler_spec.h"

namespace gpurf {

// Port handles, in port order. Every port is present for every spec, so a handle is
// the port's manifest index.
struct WarpSchedulerPort {
  enum Port : int {
    kClk,
    kRstN,
    kReady,
    kValid,
    kSuspend,
    kWake,
    kIssueValid,
    kIssueWarp,
    kIssueSlot,
    kDeactValid,
    kDeactWarp,
    kDeactSlot,
    kActValid,
    kActWarp,
    kSlotValid,
    kSlotWarp,
    kActive,
    kWaiting,
    kNumPorts
  };
};

PortTable WarpSchedulerPortTable(const WarpSchedulerSpec& s);

}  // namespace gpurf
