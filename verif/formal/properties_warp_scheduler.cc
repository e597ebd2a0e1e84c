// Formal properties of the two-level warp scheduler (gen/structures/warp_scheduler/
// warp_scheduler_spec.h), proven from the RTL's own invariant assertions I1-I3
// (warp_scheduler_gen.cc) with every input free (the port contract constrains none):
//   active-slots        I1: never more than NumActive active warps, and the active bits are
//                       exactly the warps the slots hold, each in one slot;
//   no-suspended-issue  I2: a suspended (waiting) warp never issues; it relies on the auxiliary
//                       assertion that a waiting warp holds no slot, and on I1;
//   no-idle-slot        I3: no ready pending warp waits while an active slot stays free.
#include <fmt/format.h>

#include "verif/formal/family.h"

namespace gpurf::formal {

namespace {

constexpr const char* kFreeInputs =
    "ready_i, valid_i, suspend_i and wake_i may take any value in any cycle.";

PropertyDef Def(const std::string& name, const std::string& summary, int depth,
                std::vector<std::string> checks) {
  return AssumptionFreeProperty(name, summary, depth, std::move(checks), kFreeInputs);
}

}  // namespace

namespace {

Family WarpSchedulerFamily() {
  Family f;
  f.kinds = {"warp-scheduler"};
  f.properties = [](const StructureSpec&) {
    return std::vector<PropertyDef>{
        Def("active-slots",
            "I1: never more than NumActive active warps; the active bits are exactly the warps "
            "held by the slots, each in one slot",
            5, {"I1 violated"}),
        Def("no-suspended-issue",
            "I2: a suspended (waiting) warp never issues (with the auxiliary invariants that a "
            "waiting warp holds no slot, and I1)",
            5, {"I2 violated", "I1 violated"}),
        Def("no-idle-slot",
            "I3: no ready pending warp waits while an active slot stays free (with I1)", 5,
            {"I3 violated", "I1 violated"}),
    };
  };
  return f;
}

}  // namespace

GPURF_REGISTER(Family, warp_scheduler, "warp-scheduler", WarpSchedulerFamily())

}  // namespace gpurf::formal
