// Verilog generator for the CTA register balance counters and issue throttle of GPU register
// file virtualization (see cta_throttle_spec.h for the port contract, the cycle semantics and
// the invariants).
#pragma once

#include "gen/output/artifact.h"
#include "gen/structures/cta_throttle/cta_throttle_spec.h"

namespace gpurf {

GeneratedStructure EmitCtaThrottle(const CtaThrottleSpec& spec);

}  // namespace gpurf
