// The design file's schema: its sections (design, sm, mrf, hierarchy, storage, scheduler) and
// the checked fields of each, with defaults, ranges and help. The YAML reader (yaml_loader.h)
// reads against it; `gpurf gen --list` and the README print it. The `gpu:` section is read as
// dotted paths and values (design_spec.h GpuSection) and checked by the harness
// (sim/harness/gpu.h).
#pragma once

#include <string>
#include <vector>

#include "gen/params/param.h"

namespace gpurf {

struct DesignSection {
  std::string key;   // top-level key in the design file
  std::string help;  // one line
  std::vector<ParamDesc> fields;
};

// Every section, in file order; hierarchy.kind allows one value per registered hierarchy.
const std::vector<DesignSection>& DesignSections();

// The documented schema, for `gpurf gen --list` and the README reference.
std::string DesignSchemaReference();

}  // namespace gpurf
