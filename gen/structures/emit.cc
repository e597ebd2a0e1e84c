#include "gen/structures/emit.h"

#include "gen/structures/flop_array/flop_array_gen.h"
#include "gen/structures/mrf/mrf_gen.h"
#include "gen/structures/orf/orf_gen.h"
#include "gen/structures/rf_system/rf_system_gen.h"
#include "gen/structures/rfc/rfc_gen.h"
#include "gen/structures/warp_scheduler/warp_scheduler_gen.h"

namespace gpurf {

namespace {
template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;
}  // namespace

GeneratedStructure Emit(const StructureSpec& spec) {
  struct Emitter {
    GeneratedStructure operator()(const FlopArraySpec& s) const { return EmitFlopArray(s); }
    GeneratedStructure operator()(const MrfSpec& s) const { return EmitMrf(s); }
    GeneratedStructure operator()(const RfcSpec& s) const { return EmitRfc(s); }
    GeneratedStructure operator()(const WarpSchedulerSpec& s) const { return EmitWarpScheduler(s); }
    GeneratedStructure operator()(const OrfSpec& s) const { return EmitOrf(s); }
    GeneratedStructure operator()(const RfSystemSpec& s) const { return EmitRfSystem(s); }
  };
  return std::visit(Emitter{}, spec);
}

}  // namespace gpurf
