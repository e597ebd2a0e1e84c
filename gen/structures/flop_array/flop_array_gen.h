// Verilog generator for the multi-ported flip-flop register array (see flop_array_spec.h for
// the port contract and cycle semantics).
#pragma once

#include "gen/output/artifact.h"
#include "gen/structures/flop_array/flop_array_spec.h"

namespace gpurf {

GeneratedStructure EmitFlopArray(const FlopArraySpec& spec);

}  // namespace gpurf
