// Verilog generator for the software-managed operand register file levels (see orf_spec.h for
// the port contract and semantics). The storage is the generated flop array of the spec's
// `storage`, instantiated once (L1, unified L0) or three times (split L0); its files are part of
// the output.
#pragma once

#include "gen/output/artifact.h"
#include "gen/structures/orf/orf_spec.h"

namespace gpurf {

GeneratedStructure EmitOrf(const OrfSpec& spec);

}  // namespace gpurf
