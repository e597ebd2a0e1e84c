// Verilog generator of the renaming register-file system top (see renaming_system_spec.h for the
// port contract, cycle semantics and harness contract). The top instantiates the generated MRF,
// renaming table, availability vectors, release flag cache and CTA throttle, whose files are part
// of the output; the top itself adds only the glue: the request gate (table idle, stage free,
// flag-cache hit, CTA issue_ok, spare register and throttle grant), the release flags of the
// pir's group, the rename stage that collects the table's answers and issues to the MRF, the
// per-collector entries (tag, warp, destination) merged at dispatch, the spare free register of
// each bank refilled from its availability vector while nothing renamed is in flight, and the
// release routing (table free ports to the vectors and to the throttle's balance of the CTA).
#pragma once

#include "gen/output/artifact.h"
#include "gen/structures/renaming_system/renaming_system_spec.h"

namespace gpurf {

GeneratedStructure EmitRenamingSystem(const RenamingSystemSpec& spec);

}  // namespace gpurf
