#include "gen/structures/emit.h"

#include "gen/structures/flop_array/flop_array_gen.h"
#include "gen/structures/orf/orf_gen.h"
#include "gen/structures/warp_scheduler/warp_scheduler_gen.h"

namespace gpurf {

GeneratedStructure Emit(const StructureSpec& spec) {
  struct Emitter {
    GeneratedStructure operator()(const FlopArraySpec& s) const { return EmitFlopArray(s); }
    GeneratedStructure operator()(const WarpSchedulerSpec& s) const { return EmitWarpScheduler(s); }
    GeneratedStructure operator()(const OrfSpec& s) const { return EmitOrf(s); }
  };
  return std::visit(Emitter{}, spec);
}

}  // namespace gpurf
