// The generator layer of the pcrf family: its parameters, spec and emitter, registered by name
// (gen/structures/registry.h).
#include "gen/structures/pcrf/pcrf_gen.h"
#include "gen/structures/pcrf/pcrf_spec.h"
#include "gen/structures/registry.h"

namespace gpurf {

GPURF_REGISTER(
    StructureKind, pcrf, "pcrf",
    (StructureKind{
        .name = "pcrf",
        .summary = "pending-CTA register file: chains, pointer table, free-space monitor (FineReg)",
        .list_order = 90,
        .params = PcrfSpec::ParamDescs(),
        .make_spec = [](const ParamSet& p) -> StructureSpec { return PcrfSpec::FromParams(p); },
        .emit = [](const StructureSpec& s) { return EmitPcrf(SpecAs<PcrfSpec>(s)); },
        .not_applicable = {},
    }))

}  // namespace gpurf
