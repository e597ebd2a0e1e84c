// The generator layer of the warp-scheduler family: its parameters, spec and emitter, registered by
// name (gen/structures/registry.h).
#include "gen/structures/registry.h"
#include "gen/structures/warp_scheduler/warp_scheduler_gen.h"
#include "gen/structures/warp_scheduler/warp_scheduler_spec.h"

namespace gpurf {

GPURF_REGISTER(
    StructureKind, warp_scheduler, "warp-scheduler",
    (StructureKind{
        .name = "warp-scheduler",
        .summary =
            "two-level warp scheduler: active/pending warps, greedy or round-robin (Gebhart)",
        .list_order = 40,
        .params = WarpSchedulerSpec::ParamDescs(),
        .make_spec = [](const ParamSet& p) -> StructureSpec {
          return WarpSchedulerSpec::FromParams(p);
        },
        .emit =
            [](const StructureSpec& s) { return EmitWarpScheduler(SpecAs<WarpSchedulerSpec>(s)); },
        .not_applicable =
            {
                {"transactor",
                 "the SM timing model schedules the warps itself (sim/sm); the scheduler's RTL "
                 "is checked against its golden model by gpurf verify, not in the SM loop"},
            },
    }))

}  // namespace gpurf
