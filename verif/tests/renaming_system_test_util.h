// Shared helpers of the renaming-system tests: a spec from a few shape parameters.
#pragma once

#include <map>
#include <string>

#include "gen/structures/renaming_system/renaming_system_spec.h"

namespace gpurf::test {

// The renaming-system spec of the defaults with `overrides` (parameter name -> value).
inline RenamingSystemSpec MakeRenamingSystemSpec(const std::map<std::string, int>& overrides) {
  ParamSet p(RenamingSystemSpec::ParamDescs());
  for (const auto& [name, v] : overrides)
    p.Set(name, std::to_string(v), {}, name);
  return RenamingSystemSpec::FromParams(p);
}

}  // namespace gpurf::test
