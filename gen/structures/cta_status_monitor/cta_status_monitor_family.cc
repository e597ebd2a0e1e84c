// The generator layer of the cta-status-monitor family (gen/structures/registry.h).
#include "gen/structures/cta_status_monitor/cta_status_monitor_gen.h"
#include "gen/structures/cta_status_monitor/cta_status_monitor_spec.h"
#include "gen/structures/registry.h"

namespace gpurf {

GPURF_REGISTER(StructureKind, cta_status_monitor, "cta-status-monitor",
               (StructureKind{
                   .name = "cta-status-monitor",
                   .summary = "CTA status monitor (Table IV fields) and switch decision (FineReg)",
                   .list_order = 94,
                   .params = CtaStatusMonitorSpec::ParamDescs(),
                   .make_spec = [](const ParamSet& p) -> StructureSpec {
                     return CtaStatusMonitorSpec::FromParams(p);
                   },
                   .emit =
                       [](const StructureSpec& s) {
                         return EmitCtaStatusMonitor(SpecAs<CtaStatusMonitorSpec>(s));
                       },
                   .not_applicable = {},
               }))

}  // namespace gpurf
