// Dispatch from a structure spec to its Verilog generator.
#pragma once

#include "gen/output/artifact.h"
#include "gen/structures/registry.h"

namespace gpurf {

GeneratedStructure Emit(const StructureSpec& spec);

}  // namespace gpurf
