#pragma once

#include "gen/output/artifact.h"
#include "gen/structures/cta_status_monitor/cta_status_monitor_spec.h"

namespace gpurf {

GeneratedStructure EmitCtaStatusMonitor(const CtaStatusMonitorSpec& s);

}  // namespace gpurf
