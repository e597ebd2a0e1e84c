// Shapes of the cerf-system top for its tests.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "gen/structures/cerf_system/cerf_system_spec.h"

namespace gpurf::test {

// The default spec with the named parameters replaced ({"ways", "8"}, {"policy", "lru-fair"}).
inline CerfSystemSpec MakeCerfSpec(const std::vector<std::pair<std::string, std::string>>& set) {
  ParamSet p(CerfSystemSpec::ParamDescs());
  for (const auto& [name, value] : set)
    p.Set(name, value, {}, name);
  return CerfSystemSpec::FromParams(p);
}

}  // namespace gpurf::test
