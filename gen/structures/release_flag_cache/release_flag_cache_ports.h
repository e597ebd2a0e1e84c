// The port table of the release flag cache (port_table.h): the one list of its ports, from which
// EmitReleaseFlagCache prints the Verilog port list and the manifest's ports, and the golden
// model takes its port indices. The contract of each port: release_flag_cache_spec.h.
#pragma once

#include "gen/structures/port_table.h"
#include "gen/structures/release_flag_cache/release_flag_cache_spec.h"

namespace gpurf {

// Port handles, in port order. Every port is present for every spec.
struct ReleaseFlagCachePort {
  enum Port : int {
    kClk,
    kRstN,
    kFlush,
    kLkValid,
    kLkPc,
    kFillValid,
    kFillPc,
    kFillFlags,
    kLkHit,
    kLkMiss,
    kLkFlags,
    kHitCount,
    kMissCount,
    kNumPorts
  };
};

PortTable ReleaseFlagCachePortTable(const ReleaseFlagCacheSpec& s);

}  // namespace gpurf
