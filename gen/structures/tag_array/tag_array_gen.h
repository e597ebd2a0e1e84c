// Verilog generator for the banked set-associative tag array of a cache-emulated register file
// (see tag_array_spec.h for the port contract, the cycle semantics and the invariants).
#pragma once

#include "gen/output/artifact.h"
#include "gen/structures/tag_array/tag_array_spec.h"

namespace gpurf {

GeneratedStructure EmitTagArray(const TagArraySpec& spec);

}  // namespace gpurf
