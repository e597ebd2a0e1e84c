// The port table of the live-register vector cache (port_table.h). The contract of each port:
// gen/structures/live_vector_cache/live_vector_cache_spec.h.
#pragma once

#include "gen/structures/live_vector_cache/live_vector_cache_spec.h"
#include "gen/structures/port_table.h"

namespace gpurf {

// Port handles, in port order; every port is present for every spec.
struct LiveVectorCachePort {
  enum Port : int {
    kClk,
    kRstN,
    kLkValid,
    kLkPc,
    kMemReqReady,
    kMemRespValid,
    kMemRespVector,
    kDecReady,
    kLkReady,
    kLkHit,
    kMemReqValid,
    kMemReqPc,
    kDecValid,
    kDecCount,
    kDecIdx,
    kDecLast,
    kDecLive,
    kHitCount,
    kMissCount,
    kNumPorts
  };
};

PortTable LiveVectorCachePortTable(const LiveVectorCacheSpec& s);

}  // namespace gpurf
