#include "gen/structures/emit.h"

#include "gen/structures/flop_array/flop_array_gen.h"

namespace gpurf {

GeneratedStructure Emit(const StructureSpec& spec) {
  return std::visit([](const FlopArraySpec& s) { return EmitFlopArray(s); }, spec);
}

}  // namespace gpurf
