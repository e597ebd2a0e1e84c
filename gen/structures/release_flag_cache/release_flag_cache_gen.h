// Verilog generator for the release flag cache of GPU register file virtualization (see
// release_flag_cache_spec.h for the port contract, the cycle semantics and the invariants).
#pragma once

#include "gen/output/artifact.h"
#include "gen/structures/release_flag_cache/release_flag_cache_spec.h"

namespace gpurf {

GeneratedStructure EmitReleaseFlagCache(const ReleaseFlagCacheSpec& spec);

}  // namespace gpurf
