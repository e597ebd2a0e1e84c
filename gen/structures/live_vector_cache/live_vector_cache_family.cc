// The generator layer of the live-vector-cache family (gen/structures/registry.h).
#include "gen/structures/live_vector_cache/live_vector_cache_gen.h"
#include "gen/structures/live_vector_cache/live_vector_cache_spec.h"
#include "gen/structures/registry.h"

namespace gpurf {

GPURF_REGISTER(StructureKind, live_vector_cache, "live-vector-cache",
               (StructureKind{
                   .name = "live-vector-cache",
                   .summary = "live-register vector cache with its register index decoder "
                              "(FineReg)",
                   .list_order = 92,
                   .params = LiveVectorCacheSpec::ParamDescs(),
                   .make_spec = [](const ParamSet& p) -> StructureSpec {
                     return LiveVectorCacheSpec::FromParams(p);
                   },
                   .emit =
                       [](const StructureSpec& s) {
                         return EmitLiveVectorCache(SpecAs<LiveVectorCacheSpec>(s));
                       },
                   .not_applicable = {},
               }))

}  // namespace gpurf
