// Verilog generator of the register-file system top level (see rf_system_spec.h for the port
// contract, cycle semantics and harness contract). The top instantiates the generated MRF and,
// per hierarchy, the generated RFC or ORF L1 / L0 modules, whose files (with their flop arrays,
// SRAM wrappers and clock gates) are part of the output; the top itself adds only the glue:
//   - operand buffer: one entry per MRF collector (indexed by the MRF tag the top assigns, the
//     lowest free entry) holding the user's tag, the source valid bits and the operands an upper
//     level supplied at issue; dispatch merges them with the MRF collector's operands;
//   - sw-orf: per operand slot the level the request names (MRF operands go to the collector,
//     L1/L0 operands are read at issue, or one cycle later with registered reads); results to
//     the MRF and/or one ORF level; a deschedule invalidates the slot in every ORF level;
//   - hw-rfc: tag check of every operand at issue (hits are buffered, misses go to the MRF),
//     liveness hints, results into the RFC or (warps without a slot) directly into the MRF, the
//     RFC's write-backs into the MRF with the warp of their slot (a slot -> warp table), and the
//     deschedule handshake held until the RFC's flush is done;
//   - event counters per level.
#pragma once

#include "gen/output/artifact.h"
#include "gen/structures/rf_system/rf_system_spec.h"

namespace gpurf {

GeneratedStructure EmitRfSystem(const RfSystemSpec& spec);

}  // namespace gpurf
