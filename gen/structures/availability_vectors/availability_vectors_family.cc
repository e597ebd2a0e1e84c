// The generator layer of the availability-vectors family: its parameters, spec and emitter,
// registered by name (gen/structures/registry.h).
#include "gen/structures/availability_vectors/availability_vectors_gen.h"
#include "gen/structures/availability_vectors/availability_vectors_spec.h"
#include "gen/structures/registry.h"

namespace gpurf {

GPURF_REGISTER(StructureKind, availability_vectors, "availability-vectors",
               (StructureKind{
                   .name = "availability-vectors",
                   .summary = "free physical registers per MRF bank, subarray power gating (Jeon)",
                   .list_order = 92,
                   .params = AvailabilityVectorsSpec::ParamDescs(),
                   .make_spec = [](const ParamSet& p) -> StructureSpec {
                     return AvailabilityVectorsSpec::FromParams(p);
                   },
                   .emit =
                       [](const StructureSpec& s) {
                         return EmitAvailabilityVectors(SpecAs<AvailabilityVectorsSpec>(s));
                       },
                   .not_applicable = {},
               }))

}  // namespace gpurf
