// Verilog generator for FineReg's pending-CTA register file (see pcrf_spec.h for the port
// contract, the cycle semantics and the invariants).
#pragma once

#include "gen/output/artifact.h"
#include "gen/structures/pcrf/pcrf_spec.h"

namespace gpurf {

GeneratedStructure EmitPcrf(const PcrfSpec& spec);

}  // namespace gpurf
