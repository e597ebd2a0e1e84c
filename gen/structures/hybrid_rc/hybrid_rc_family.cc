// The generator layer of the hybrid-rc family: its parameters, spec and emitter, registered by
// name (gen/structures/registry.h).
#include "gen/structures/hybrid_rc/hybrid_rc_gen.h"
#include "gen/structures/hybrid_rc/hybrid_rc_spec.h"
#include "gen/structures/registry.h"

namespace gpurf {

GPURF_REGISTER(
    StructureKind, hybrid_rc, "hybrid-rc",
    (StructureKind{
        .name = "hybrid-rc",
        .summary = "per-scheduler hybrid register cache / scratchpad, 6R2W (Bailey)",
        .list_order = 90,
        .params = HybridRcSpec::ParamDescs(),
        .make_spec = [](const ParamSet& p) -> StructureSpec { return HybridRcSpec::FromParams(p); },
        .emit = [](const StructureSpec& s) { return EmitHybridRc(SpecAs<HybridRcSpec>(s)); },
        .not_applicable = {},
    }))

}  // namespace gpurf
