// Verilog generator of the FineReg register-file system top (see finereg_system_spec.h for the
// port contract and cycle semantics). The top instantiates the generated mrf (the ACRF) and pcrf
// (PCRF, pointer table, free-space monitor) modules, whose files are part of the output, and
// adds only the register management unit: the save engine (live registers read from the ACRF
// into the row buffer and appended to the CTA's PCRF chain) and the restore engine (the chain
// walked, each row written back into the ACRF slots given for the CTA).
#pragma once

#include "gen/output/artifact.h"
#include "gen/structures/finereg_system/finereg_system_spec.h"

namespace gpurf {

GeneratedStructure EmitFineregSystem(const FineregSystemSpec& spec);

}  // namespace gpurf
