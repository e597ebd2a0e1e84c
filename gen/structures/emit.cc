#include "gen/structures/emit.h"

#include "gen/structures/flop_array/flop_array_gen.h"
#include "gen/structures/mrf/mrf_gen.h"

namespace gpurf {

GeneratedStructure Emit(const StructureSpec& spec) {
  struct Emitter {
    GeneratedStructure operator()(const FlopArraySpec& s) const { return EmitFlopArray(s); }
    GeneratedStructure operator()(const MrfSpec& s) const { return EmitMrf(s); }
  };
  return std::visit(Emitter{}, spec);
}

}  // namespace gpurf
