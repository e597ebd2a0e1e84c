// Verilog generator for the availability vectors of GPU register file virtualization (see
// availability_vectors_spec.h for the port contract, the cycle semantics and the invariants).
#pragma once

#include "gen/output/artifact.h"
#include "gen/structures/availability_vectors/availability_vectors_spec.h"

namespace gpurf {

GeneratedStructure EmitAvailabilityVectors(const AvailabilityVectorsSpec& spec);

}  // namespace gpurf
