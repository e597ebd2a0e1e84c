// The generator layer of the cta-throttle family: its parameters, spec and emitter, registered
// by name (gen/structures/registry.h).
#include "gen/structures/cta_throttle/cta_throttle_gen.h"
#include "gen/structures/cta_throttle/cta_throttle_spec.h"
#include "gen/structures/registry.h"

namespace gpurf {

GPURF_REGISTER(
    StructureKind, cta_throttle, "cta-throttle",
    (StructureKind{
        .name = "cta-throttle",
        .summary = "CTA register balance counters and issue throttle (Jeon)",
        .list_order = 95,
        .params = CtaThrottleSpec::ParamDescs(),
        .make_spec = [](const ParamSet& p) -> StructureSpec {
          return CtaThrottleSpec::FromParams(p);
        },
        .emit = [](const StructureSpec& s) { return EmitCtaThrottle(SpecAs<CtaThrottleSpec>(s)); },
        .not_applicable = {},
    }))

}  // namespace gpurf
