#pragma once

#include "gen/output/artifact.h"
#include "gen/structures/live_vector_cache/live_vector_cache_spec.h"

namespace gpurf {

GeneratedStructure EmitLiveVectorCache(const LiveVectorCacheSpec& s);

}  // namespace gpurf
