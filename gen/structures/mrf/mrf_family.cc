// The generator layer of the mrf family: its parameters, spec and emitter, registered by name
// (gen/structures/registry.h).
#include "gen/structures/mrf/mrf_gen.h"
#include "gen/structures/mrf/mrf_spec.h"
#include "gen/structures/registry.h"

namespace gpurf {

GPURF_REGISTER(StructureKind, mrf, "mrf",
               (StructureKind{
                   .name = "mrf",
                   .summary = "banked main register file with operand collectors (Gebhart)",
                   .list_order = 20,
                   .params = MrfSpec::ParamDescs(),
                   .make_spec = [](const ParamSet& p) -> StructureSpec {
                     return MrfSpec::FromParams(p);
                   },
                   .emit = [](const StructureSpec& s) { return EmitMrf(SpecAs<MrfSpec>(s)); },
                   .not_applicable = {},
               }))

}  // namespace gpurf
