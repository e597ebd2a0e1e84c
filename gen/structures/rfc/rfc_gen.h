// Verilog generator for the hardware-managed register file cache (see rfc_spec.h for the port
// contract and the cycle semantics). The data of each level is a generated flip-flop array,
// instantiated as a sub-module; tags, valid bits, replacement ages, the flush engine and the
// write-back register are generated here.
#pragma once

#include "gen/output/artifact.h"
#include "gen/structures/rfc/rfc_spec.h"

namespace gpurf {

GeneratedStructure EmitRfc(const RfcSpec& spec);

}  // namespace gpurf
