#include "models/registry.h"

#include <fmt/format.h>

#include <stdexcept>

namespace gpurf {

std::unique_ptr<CycleModel> MakeModel(const StructureSpec& spec) {
  const ModelFamily* f = Registry<ModelFamily>::Get().Find(spec.kind());
  if (f == nullptr)
    throw std::logic_error(fmt::format("no golden model registered for kind '{}'", spec.kind()));
  return f->make(spec);
}

}  // namespace gpurf
