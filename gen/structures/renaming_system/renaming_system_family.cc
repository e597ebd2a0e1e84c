// The generator layer of the renaming-system family: its parameters, spec and emitter, registered
// by name (gen/structures/registry.h).
#include "gen/structures/registry.h"
#include "gen/structures/renaming_system/renaming_system_gen.h"
#include "gen/structures/renaming_system/renaming_system_spec.h"

namespace gpurf {

GPURF_REGISTER(
    StructureKind, renaming_system, "renaming-system",
    (StructureKind{
        .name = "renaming-system",
        .summary = "register-file system top of register renaming: MRF + renaming table, "
                   "availability vectors, release flag cache, CTA throttle (Jeon)",
        .list_order = 71,
        .params = RenamingSystemSpec::ParamDescs(),
        .make_spec = [](const ParamSet& p) -> StructureSpec {
          return RenamingSystemSpec::FromParams(p);
        },
        .emit =
            [](const StructureSpec& s) {
              return EmitRenamingSystem(SpecAs<RenamingSystemSpec>(s));
            },
        .not_applicable =
            {
                {"activity",
                 "the system top is characterized through its structures (MRF, renaming table, "
                 "availability vectors, flag cache, throttle), each with its own activity driver"},
                {"transactor",
                 "no --rtl-top transactor yet (future work, not a design exclusion): the renaming "
                 "design point runs the C++ renaming system of the SM harness "
                 "(sim/harness/hierarchies/renaming_system.cc), with the mrf, renaming-table, "
                 "availability-vectors and release-flag-cache transactors under --rtl"},
            },
    }))

}  // namespace gpurf
