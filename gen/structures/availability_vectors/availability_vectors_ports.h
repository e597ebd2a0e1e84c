// The port table of the availability vectors (port_table.h): the one list of its ports, from
// which EmitAvailabilityVectors prints the Verilog port list and the manifest's ports, and the
// golden model takes its port indices. The contract of each port: availability_vectors_spec.h.
#pragma once

#include "gen/structures/availability_vectors/availability_vectors_spec.h"
#include "gen/structures/port_table.h"

namespace gpurf {

// Port handles, in port order. Every port is present for every spec.
struct AvailabilityVectorsPort {
  enum Port : int {
    kClk,
    kRstN,
    kAllocReq,
    kRelValid,
    kRelId,
    kAllocGrant,
    kAllocId,
    kAllocNone,
    kFreeCount,
    kPowered,
    kWaking,
    kNumPorts
  };
};

PortTable AvailabilityVectorsPortTable(const AvailabilityVectorsSpec& s);

}  // namespace gpurf
