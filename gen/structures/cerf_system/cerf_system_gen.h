// Verilog generator of the cerf-system top (see cerf_system_spec.h for the port contract and
// cycle semantics). The top instantiates the generated tag-array (its file is part of the
// output) and adds the glue: the request's data latched for the lookups served after the
// accepting cycle, the integrated data array (one D-bit line per (set, way)), the register and
// memory reads and writes at the way the tags returned, the victims' write-backs and spills, the
// refill MSHR (one entry per lookup) with its L2 and fill responses, and the ready handshake.
#pragma once

#include "gen/output/artifact.h"
#include "gen/structures/cerf_system/cerf_system_spec.h"

namespace gpurf {

GeneratedStructure EmitCerfSystem(const CerfSystemSpec& spec);

}  // namespace gpurf
