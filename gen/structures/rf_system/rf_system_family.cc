// The generator layer of the rf-system family: its parameters, spec and emitter, registered by name
// (gen/structures/registry.h).
#include "gen/structures/registry.h"
#include "gen/structures/rf_system/rf_system_gen.h"
#include "gen/structures/rf_system/rf_system_spec.h"

namespace gpurf {

GPURF_REGISTER(
    StructureKind, rf_system, "rf-system",
    (StructureKind{
        .name = "rf-system",
        .summary =
            "register-file system top of one lane cluster: MRF + HW RFC or SW ORF levels (Gebhart)",
        .list_order = 70,
        .params = RfSystemSpec::ParamDescs(),
        .make_spec = [](const ParamSet& p) -> StructureSpec { return RfSystemSpec::FromParams(p); },
        .emit = [](const StructureSpec& s) { return EmitRfSystem(SpecAs<RfSystemSpec>(s)); },
        .not_applicable =
            {
                {"activity",
                 "the system top is characterized through its structures (MRF, RFC or ORF levels), "
                 "each with its own activity driver; its energy is theirs"},
            },
    }))

}  // namespace gpurf
