#include "gen/structures/emit_util.h"

#include <fmt/format.h>

namespace gpurf {

std::string RegenerateCommand(const std::string& kind, const ParamSet& params,
                              const std::function<bool(const ParamDesc&)>& omit) {
  std::string cmd = "gpurf gen " + kind;
  for (const auto& d : params.descs()) {
    if (omit && omit(d))
      continue;
    cmd += fmt::format(" {} {}", d.flag(), params.Get(d.name).s);
  }
  return cmd + " -o DIR";
}

}  // namespace gpurf
