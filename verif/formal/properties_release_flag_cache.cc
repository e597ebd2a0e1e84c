// Formal properties of the release flag cache (gen/structures/release_flag_cache/
// release_flag_cache_spec.h), proven from the RTL's own invariant assertions F1-F3
// (release_flag_cache_gen.cc) with every input free (the port contract constrains none: any PC
// has an entry, lookups, fills and flushes may come in any cycle, together):
//   hit-is-its-entry  F1: a hit is a valid entry that holds the lookup's tag and answers its
//                     payload;
//   lookup-accounting F2: hits + misses = lookups since reset, and every lookup is exactly one of
//                     them (no answer without a lookup);
//   empty-after-flush F3: after a flush no entry is valid, even with a fill in the flush's cycle
//                     (K = 4: a fill, a flush with a fill, and the check after it).
#include <fmt/format.h>

#include "verif/formal/family.h"

namespace gpurf::formal {

namespace {

constexpr const char* kFreeInputs =
    "lookups, fills and flushes may come in any cycle, with any PC.";

PropertyDef Def(const std::string& name, const std::string& summary, int depth,
                std::vector<std::string> checks) {
  return AssumptionFreeProperty(name, summary, depth, std::move(checks), kFreeInputs);
}

}  // namespace

namespace {

Family ReleaseFlagCacheFamily() {
  Family f;
  f.kinds = {"release-flag-cache"};
  f.properties = [](const StructureSpec&) {
    return std::vector<PropertyDef>{
        Def("hit-is-its-entry",
            "F1: a hit is a valid entry holding the lookup's tag and answers its payload", 3,
            {"F1 violated"}),
        Def("lookup-accounting",
            "F2: hits + misses = lookups since reset; every lookup is exactly one of them", 3,
            {"F2 violated"}),
        Def("empty-after-flush",
            "F3: after a flush no entry is valid, not even one filled in the flush's cycle", 4,
            {"F3 violated"}),
    };
  };
  return f;
}

}  // namespace

GPURF_REGISTER(Family, release_flag_cache, "release-flag-cache", ReleaseFlagCacheFamily())

}  // namespace gpurf::formal
