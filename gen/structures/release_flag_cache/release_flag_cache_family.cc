// The generator layer of the release-flag-cache family: its parameters, spec and emitter,
// registered by name (gen/structures/registry.h).
#include "gen/structures/registry.h"
#include "gen/structures/release_flag_cache/release_flag_cache_gen.h"
#include "gen/structures/release_flag_cache/release_flag_cache_spec.h"

namespace gpurf {

GPURF_REGISTER(StructureKind, release_flag_cache, "release-flag-cache",
               (StructureKind{
                   .name = "release-flag-cache",
                   .summary = "PC-indexed direct-mapped cache of pir release flags (Jeon)",
                   .list_order = 94,
                   .params = ReleaseFlagCacheSpec::ParamDescs(),
                   .make_spec = [](const ParamSet& p) -> StructureSpec {
                     return ReleaseFlagCacheSpec::FromParams(p);
                   },
                   .emit =
                       [](const StructureSpec& s) {
                         return EmitReleaseFlagCache(SpecAs<ReleaseFlagCacheSpec>(s));
                       },
                   .not_applicable = {},
               }))

}  // namespace gpurf
