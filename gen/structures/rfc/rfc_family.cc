// The generator layer of the rfc family: its parameters, spec and emitter, registered by name
// (gen/structures/registry.h).
#include "gen/structures/registry.h"
#include "gen/structures/rfc/rfc_gen.h"
#include "gen/structures/rfc/rfc_spec.h"

namespace gpurf {

GPURF_REGISTER(
    StructureKind, rfc, "rfc",
    (StructureKind{
        .name = "rfc",
        .summary =
            "hardware register file cache, 1 or 2 levels, FIFO/LRU, liveness hints (Gebhart)",
        .list_order = 30,
        .params = RfcSpec::ParamDescs(),
        .make_spec = [](const ParamSet& p) -> StructureSpec { return RfcSpec::FromParams(p); },
        .emit = [](const StructureSpec& s) { return EmitRfc(SpecAs<RfcSpec>(s)); },
        .not_applicable = {},
    }))

}  // namespace gpurf
