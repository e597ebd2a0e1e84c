// The port table of the CTA status monitor (port_table.h). The contract of each port:
// gen/structures/cta_status_monitor/cta_status_monitor_spec.h.
#pragma once

#include "gen/structures/cta_status_monitor/cta_status_monitor_spec.h"
#include "gen/structures/port_table.h"

namespace gpurf {

// Port handles, in port order; every port is present for every spec.
struct CtaStatusMonitorPort {
  enum Port : int {
    kClk,
    kRstN,
    kStallValid,
    kStallCta,
    kStallLive,
    kReady,
    kFree,
    kCanLaunch,
    kSetValid,
    kSetCta,
    kSetCtx,
    kSetReg,
    kSetLive,
    kQCta,
    kDecKind,
    kDecSel,
    kDecRestore,
    kDecAvail,
    kQCtx,
    kQReg,
    kQLive,
    kActiveCount,
    kPendingCount,
    kNumPorts
  };
};

// dec_kind_o values.
enum class CtaDecision : int { kNone = 0, kKeep = 1, kSwitch = 2, kLaunch = 3 };

PortTable CtaStatusMonitorPortTable(const CtaStatusMonitorSpec& s);

}  // namespace gpurf
