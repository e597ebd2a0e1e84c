// Verilog generator for the banked main register file with operand collectors (see mrf_spec.h
// for the port contract and cycle semantics).
#pragma once

#include "gen/output/artifact.h"
#include "gen/structures/mrf/mrf_spec.h"

namespace gpurf {

GeneratedStructure EmitMrf(const MrfSpec& spec);

}  // namespace gpurf
