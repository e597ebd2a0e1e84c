// The generator layer of the tag-array family: its parameters, spec and emitter, registered by
// name (gen/structures/registry.h).
#include "gen/structures/registry.h"
#include "gen/structures/tag_array/tag_array_gen.h"
#include "gen/structures/tag_array/tag_array_spec.h"

namespace gpurf {

GPURF_REGISTER(
    StructureKind, tag_array, "tag-array",
    (StructureKind{
        .name = "tag-array",
        .summary = "banked set-associative tag array of a cache-emulated register file (Jing)",
        .list_order = 80,
        .params = TagArraySpec::ParamDescs(),
        .make_spec = [](const ParamSet& p) -> StructureSpec { return TagArraySpec::FromParams(p); },
        .emit = [](const StructureSpec& s) { return EmitTagArray(SpecAs<TagArraySpec>(s)); },
        .not_applicable = {},
    }))

}  // namespace gpurf
