// The generator layer of the cerf-system family: its parameters, spec and emitter, registered by
// name (gen/structures/registry.h).
#include "gen/structures/cerf_system/cerf_system_gen.h"
#include "gen/structures/cerf_system/cerf_system_spec.h"
#include "gen/structures/registry.h"

namespace gpurf {

GPURF_REGISTER(
    StructureKind, cerf_system, "cerf-system",
    (StructureKind{
        .name = "cerf-system",
        .summary = "register-file system top of a cache-emulated register file: tag arrays + "
                   "integrated data array + L2/MSHR and spill/fill ports (Jing)",
        .list_order = 82,
        .params = CerfSystemSpec::ParamDescs(),
        .make_spec = [](const ParamSet& p) -> StructureSpec {
          return CerfSystemSpec::FromParams(p);
        },
        .emit = [](const StructureSpec& s) { return EmitCerfSystem(SpecAs<CerfSystemSpec>(s)); },
        .not_applicable =
            {
                {"activity",
                 "the system top is characterized through its structures (the tag-array has its "
                 "own activity driver; the data array's energy is the MRF banks'), as rf-system"},
                {"transactor",
                 "not yet: the SM harness drives the cerf hierarchy's tag-array as RTL "
                 "(--rtl); an RtlTopKind for this top (--rtl-top) is not written"},
            },
    }))

}  // namespace gpurf
