// Verilog generator for one scheduler's hybrid register cache / register scratchpad (see
// hybrid_rc_spec.h for the port contract, the cycle semantics and the invariants).
#pragma once

#include "gen/output/artifact.h"
#include "gen/structures/hybrid_rc/hybrid_rc_spec.h"

namespace gpurf {

GeneratedStructure EmitHybridRc(const HybridRcSpec& spec);

}  // namespace gpurf
