// Verilog generator for the two-level warp scheduler (see warp_scheduler_spec.h for the port
// contract, the cycle semantics and the invariants).
#pragma once

#include "gen/output/artifact.h"
#include "gen/structures/warp_scheduler/warp_scheduler_spec.h"

namespace gpurf {

GeneratedStructure EmitWarpScheduler(const WarpSchedulerSpec& spec);

}  // namespace gpurf
