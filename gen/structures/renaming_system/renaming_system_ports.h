// The port table of the renaming-system (port_table.h): the one list of its ports, from which
// EmitRenamingSystem prints the Verilog port list and the manifest's ports, and the golden model
// takes its port indices. The contract of each port:
// gen/structures/renaming_system/renaming_system_spec.h.
#pragma once

#include "gen/structures/port_table.h"
#include "gen/structures/renaming_system/renaming_system_spec.h"

namespace gpurf {

// Port handles, in port order. Every port is present for every spec, so a handle is the port's
// manifest index.
struct RenamingSystemPort {
  enum Port : int {
    kClk,
    kRstN,
    kReqValid,
    kReqReady,
    kReqOp,
    kReqTag,
    kReqWarp,
    kReqSrcValid,
    kReqSrcReg,
    kReqDstValid,
    kReqDstReg,
    kReqPirValid,
    kReqPirPc,
    kReqPirIdx,
    kReqRelMask,
    kReqFlagMiss,
    kFillValid,
    kFillPc,
    kFillFlags,
    kFlush,
    kDispValid,
    kDispReady,
    kDispTag,
    kDispWarp,
    kDispSrcValid,
    kDispData,
    kDispDstValid,
    kDispDstPhys,
    kResValid,
    kResReady,
    kResPhys,
    kResData,
    kLaunchValid,
    kLaunchSlot,
    kLaunchNeed,
    kCtaExitValid,
    kCtaExitSlot,
    kThrottle,
    kIssueOk,
    kFreeCount,
    kSpareValid,
    kFlagHits,
    kFlagMisses,
    kRenameConflicts,
    kNumPorts
  };
};

PortTable RenamingSystemPortTable(const RenamingSystemSpec& s);

}  // namespace gpurf
