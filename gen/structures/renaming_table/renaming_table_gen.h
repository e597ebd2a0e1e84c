// Verilog generator for the register renaming table of GPU register file virtualization (see
// renaming_table_spec.h for the port contract, the cycle semantics and the invariants).
#pragma once

#include "gen/output/artifact.h"
#include "gen/structures/renaming_table/renaming_table_spec.h"

namespace gpurf {

GeneratedStructure EmitRenamingTable(const RenamingTableSpec& spec);

}  // namespace gpurf
