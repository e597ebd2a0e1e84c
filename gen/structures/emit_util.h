// Pieces every structure generator shares: the regenerate command recorded in the banner and
// the manifest, and the identity fields of a GeneratedStructure taken from a spec.
#pragma once

#include <functional>
#include <string>
#include <utility>

#include "gen/output/artifact.h"
#include "gen/params/param.h"

namespace gpurf {

// "gpurf gen <kind> --flag value ... -o DIR" from a structure's checked parameters, in
// declaration order; parameters for which `omit` returns true (ones that do not apply to this
// configuration) are left out.
std::string RegenerateCommand(const std::string& kind, const ParamSet& params,
                              const std::function<bool(const ParamDesc&)>& omit = {});

// A GeneratedStructure with the spec's identity filled in (kind, instance = kind, top module,
// config hash, parameters, regenerate command); the generator adds files, ports and `derived`.
template <typename Spec>
GeneratedStructure NewGeneratedStructure(const Spec& s, std::string regenerate) {
  GeneratedStructure g;
  g.kind = s.kind;
  g.instance = s.kind;
  g.top = s.module_name;
  g.config_hash = s.config_hash;
  g.regenerate = std::move(regenerate);
  g.parameters = s.params.ToJson();
  return g;
}

}  // namespace gpurf
