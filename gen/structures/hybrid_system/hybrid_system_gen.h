// Verilog generator of the hybrid register-file system top (see hybrid_system_spec.h for the
// port contract and cycle semantics). The top instantiates the generated mrf and hybrid-rc
// modules, whose files are part of the output, and adds only the glue: the instruction queue
// (operands from the RSP / RC at issue, RC misses read through the MRF one cycle later, in-order
// dual dispatch), the write-back FIFO in front of the MRF's write port, the fill engine of the
// RSP read allocations, and the flush (drain) handshake.
#pragma once

#include "gen/output/artifact.h"
#include "gen/structures/hybrid_system/hybrid_system_spec.h"

namespace gpurf {

GeneratedStructure EmitHybridSystem(const HybridSystemSpec& spec);

}  // namespace gpurf
