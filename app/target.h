// What a gen/lint/verify command operates on: either a design file or one structure given by
// flags. Both end as specs; nothing downstream sees flags or YAML.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gen/config/design_spec.h"
#include "gen/output/design_writer.h"
#include "gen/structures/registry.h"

namespace gpurf {

struct TargetStructure {
  StructureSpec spec;
  GeneratedStructure rtl;
};

struct Target {
  std::optional<DesignSpec> design;     // from design.yaml
  std::optional<StructureSpec> single;  // from `<structure> --param value ...`

  // The generated RTL of every unique structure of the target (a design's structures that
  // share a module are listed once).
  std::vector<TargetStructure> Generate() const;
  std::string Describe() const;
};

// `target` is a structure kind or a path to a YAML file; `extras` are the remaining
// `--param value` / `--param=value` arguments. Throws InputError.
Target ResolveTarget(const std::string& target, const std::vector<std::string>& extras);

// The text of `gpurf gen --list`.
std::string ListStructures();

}  // namespace gpurf
