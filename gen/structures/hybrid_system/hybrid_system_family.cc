// The generator layer of the hybrid-system family: its parameters, spec and emitter, registered
// by name (gen/structures/registry.h).
#include "gen/structures/hybrid_system/hybrid_system_gen.h"
#include "gen/structures/hybrid_system/hybrid_system_spec.h"
#include "gen/structures/registry.h"

namespace gpurf {

GPURF_REGISTER(
    StructureKind, hybrid_system, "hybrid-system",
    (StructureKind{
        .name = "hybrid-system",
        .summary = "hybrid register-file system top of one scheduler: MRF + RC + RSP (Bailey)",
        .list_order = 135,
        .params = HybridSystemSpec::ParamDescs(),
        .make_spec = [](const ParamSet& p) -> StructureSpec {
          return HybridSystemSpec::FromParams(p);
        },
        .emit =
            [](const StructureSpec& s) { return EmitHybridSystem(SpecAs<HybridSystemSpec>(s)); },
        .not_applicable =
            {
                {"activity",
                 "the system top is characterized through its structures (MRF, hybrid-rc), each "
                 "with its own activity driver; its energy is theirs"},
                {"transactor",
                 "not yet driven in the SM harness loop (no --rtl-top transactor); with --rtl "
                 "the harness drives each scheduler's hybrid-rc beside the C++ MRF"},
            },
    }))

}  // namespace gpurf
