// The mrf-only hierarchy: the baseline of every comparison, every operand read from and every
// result written to the banked MRF (Gebhart section 2.1). It adds no structure of its own.
#include "gen/config/hierarchy.h"

namespace gpurf {

GPURF_REGISTER(
    HierarchyKind, mrf_only, "mrf-only",
    (HierarchyKind{
        .name = "mrf-only",
        .summary = "the MRF alone (baseline)",
        .list_order = 10,
        .min_levels = 1,
        .max_levels = 1,
        .structures = [](const HierarchyInputs&) { return std::vector<DesignStructure>{}; },
        .system_skip_reason = [](const HierarchyInputs&) { return std::string(); },
        .energy_sources =
            [](const DesignSpec&) { return std::vector<EnergySource>{MrfEnergySource()}; },
    }))

}  // namespace gpurf
