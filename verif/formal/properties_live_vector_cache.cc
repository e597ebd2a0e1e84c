// Formal properties of FineReg's live-register vector cache with its register index decoder
// (gen/structures/live_vector_cache/live_vector_cache_spec.h), proven from the RTL's own invariant
// assertions I1-I5 (live_vector_cache_gen.cc). Every input is free, the memory response too: the
// interface contract (a response only while a request is outstanding) needs no assumption,
// because the RTL fills only in its wait state and ignores a stray response; the RTL's check of
// that contract is not part of these properties.
//   decoder-groups     I1, I2: every group shows live registers only, in ascending order, the
//                      lowest ones left, min(N, left) of them; the vector left after a group is the
//                      last one without the group, and the last group is flagged exactly when
//                      nothing is left;
//   lookup-accounting  I3: hits + misses = lookups accepted;
//   fill-and-accept    I4, I5: a fill writes the missing PC's line (valid, with its tag), and a
//                      lookup is accepted only when the unit is idle.
#include <fmt/format.h>

#include "verif/formal/family.h"

namespace gpurf::formal {

namespace {

constexpr const char* kFreeInputs =
    "lookups, the memory's handshake and response and the decoder's ready may\ntake any value in "
    "any cycle.";

PropertyDef Def(const std::string& name, const std::string& summary, int depth,
                std::vector<std::string> checks) {
  return AssumptionFreeProperty(name, summary, depth, std::move(checks), kFreeInputs);
}

Family LiveVectorCacheFamily() {
  Family f;
  f.kinds = {"live-vector-cache"};
  f.properties = [](const StructureSpec&) {
    return std::vector<PropertyDef>{
        Def("decoder-groups",
            "I1, I2: each group shows the min(N, left) lowest live registers left, ascending; "
            "the vector left after a group is the last one without it; the last group is flagged "
            "exactly when nothing is left",
            6, {"I1 violated", "I2 violated"}),
        Def("lookup-accounting", "I3: hits + misses = lookups accepted", 6, {"I3 violated"}),
        Def("fill-and-accept",
            "I4, I5: a fill writes the missing PC's line (valid, with its tag); a lookup is "
            "accepted only when the unit is idle",
            6, {"I4 violated", "I5 violated"}),
    };
  };
  return f;
}

}  // namespace

GPURF_REGISTER(Family, live_vector_cache, "live-vector-cache", LiveVectorCacheFamily())

}  // namespace gpurf::formal
