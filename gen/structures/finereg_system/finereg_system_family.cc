// The generator layer of the finereg-system family: its parameters, spec and emitter, registered
// by name (gen/structures/registry.h).
#include "gen/structures/finereg_system/finereg_system_gen.h"
#include "gen/structures/finereg_system/finereg_system_spec.h"
#include "gen/structures/registry.h"

namespace gpurf {

GPURF_REGISTER(
    StructureKind, finereg_system, "finereg-system",
    (StructureKind{
        .name = "finereg-system",
        .summary = "FineReg register-file system top: ACRF (MRF) + PCRF + register management "
                   "unit (save / restore engines)",
        .list_order = 137,
        .params = FineregSystemSpec::ParamDescs(),
        .make_spec = [](const ParamSet& p) -> StructureSpec {
          return FineregSystemSpec::FromParams(p);
        },
        .emit =
            [](const StructureSpec& s) { return EmitFineregSystem(SpecAs<FineregSystemSpec>(s)); },
        .not_applicable =
            {
                {"activity",
                 "the system top is characterized through its structures (MRF, pcrf), each with "
                 "its own activity driver; its energy is theirs"},
            },
    }))

}  // namespace gpurf
