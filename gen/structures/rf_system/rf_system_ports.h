// The port table of the rf-system (port_table.h): the one list of its ports, from which
// EmitRfSystem prints the Verilog port list and the manifest's ports, and the golden model takes
// its port indices. The contract of each port: gen/structures/rf_system/rf_system_spec.h.
#pragma once

#include "gen/structures/port_table.h"
#include "gen/structures/rf_system/rf_system_spec.h"

namespace gpurf {

// Port handles, in port order. Every port is present for every spec, so a handle is
// the port's manifest index.
struct RfSystemPort {
  enum Port : int {
    kClk,
    kRstN,
    kIssueValid,
    kIssueReady,
    kIssueTag,
    kIssueWarp,
    kIssueSlot,
    kIssueSrcValid,
    kIssueSrcReg,
    kIssueSrcLevel,
    kIssueSrcEntry,
    kIssueSrcDead,
    kDispValid,
    kDispReady,
    kDispTag,
    kDispWarp,
    kDispSrcValid,
    kDispData,
    kResValid,
    kResReady,
    kResWarp,
    kResSlot,
    kResReg,
    kResData,
    kResMrf,
    kResOrf,
    kResOrfL0,
    kResOrfEntry,
    kResLong,
    kResNoL0,
    kFlValid,
    kFlReady,
    kFlWarp,
    kFlSlot,
    kCntMrfReads,
    kCntMrfWrites,
    kCntMrfConflicts,
    kCntIssueStalls,
    kCntMrfWbStalls,
    kCntL1Reads,
    kCntL0Reads,
    kCntL1Writes,
    kCntL0Writes,
    kCntTagChecks,
    kCntTagHits,
    kCntWritebacks,
    kNumPorts
  };
};

PortTable RfSystemPortTable(const RfSystemSpec& s);

}  // namespace gpurf
