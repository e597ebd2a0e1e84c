// The model layer of a structure family: its cycle-accurate golden model, registered by the
// family's kind in the model's own file (base/registry.h), so that `gpurf verify`, the synthesis
// activity drivers and the SM harness find the model of any spec without naming its family.
#pragma once

#include <functional>
#include <memory>

#include "gen/structures/registry.h"
#include "models/cycle_model.h"

namespace gpurf {

struct ModelFamily {
  std::function<std::unique_ptr<CycleModel>(const StructureSpec&)> make;
};

// The golden model of `spec` (std::logic_error when its family registered none).
std::unique_ptr<CycleModel> MakeModel(const StructureSpec& spec);

}  // namespace gpurf
