// Shared helpers of the finereg-system tests: a spec from a few shape parameters.
#pragma once

#include <map>
#include <string>

#include "gen/structures/finereg_system/finereg_system_spec.h"

namespace gpurf::test {

// The finereg-system spec of the defaults with `overrides` (parameter name -> value).
inline FineregSystemSpec MakeFineregSystemSpec(
    const std::map<std::string, std::string>& overrides) {
  ParamSet p(FineregSystemSpec::ParamDescs());
  for (const auto& [name, v] : overrides)
    p.Set(name, v, {}, name);
  return FineregSystemSpec::FromParams(p);
}

}  // namespace gpurf::test
