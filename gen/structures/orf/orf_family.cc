// The generator layer of the operand register file families (orf-l1, orf-l0): its parameters, spec
// and emitter, registered by name (gen/structures/registry.h).
#include "gen/structures/orf/orf_gen.h"
#include "gen/structures/orf/orf_spec.h"
#include "gen/structures/registry.h"

namespace gpurf {

GPURF_REGISTER(
    StructureKind, orf_l1, "orf-l1",
    (StructureKind{
        .name = "orf-l1",
        .summary = "software-managed L1 operand register file, 3R1W, active-slot x entry (Gebhart)",
        .list_order = 50,
        .params = OrfSpec::L1ParamDescs(),
        .make_spec = [](const ParamSet& p) -> StructureSpec { return OrfSpec::FromL1Params(p); },
        .emit = [](const StructureSpec& s) { return EmitOrf(SpecAs<OrfSpec>(s)); },
        .not_applicable = {},
    }))

GPURF_REGISTER(StructureKind, orf_l0, "orf-l0",
               (StructureKind{
                   .name = "orf-l0",
                   .summary = "software-managed L0 operand register file, unified or split per "
                              "operand slot (Gebhart)",
                   .list_order = 60,
                   .params = OrfSpec::L0ParamDescs(),
                   .make_spec = [](const ParamSet& p) -> StructureSpec {
                     return OrfSpec::FromL0Params(p);
                   },
                   .emit = [](const StructureSpec& s) { return EmitOrf(SpecAs<OrfSpec>(s)); },
                   .not_applicable = {},
               }))

}  // namespace gpurf
