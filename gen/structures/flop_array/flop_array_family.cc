// The generator layer of the flop-array family: its parameters, spec and emitter, registered by
// name (gen/structures/registry.h).
#include "gen/structures/flop_array/flop_array_gen.h"
#include "gen/structures/flop_array/flop_array_spec.h"
#include "gen/structures/registry.h"

namespace gpurf {

GPURF_REGISTER(
    StructureKind, flop_array, "flop-array",
    (StructureKind{
        .name = "flop-array",
        .summary = "multi-ported flip-flop register array (storage of ORF/RFC/RSP levels)",
        .list_order = 10,
        .params = FlopArraySpec::ParamDescs(),
        .make_spec = [](const ParamSet& p) -> StructureSpec {
          return FlopArraySpec::FromParams(p);
        },
        .emit = [](const StructureSpec& s) { return EmitFlopArray(SpecAs<FlopArraySpec>(s)); },
        .not_applicable =
            {
                {"transactor",
                 "the SM harness drives the structures that hold flip-flop arrays (ORF levels, "
                 "RFC), never an array on its own"},
            },
    }))

}  // namespace gpurf
