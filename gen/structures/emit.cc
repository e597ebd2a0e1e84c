#include "gen/structures/emit.h"

#include <fmt/format.h>

#include <stdexcept>

namespace gpurf {

GeneratedStructure Emit(const StructureSpec& spec) {
  const StructureKind* k = FindStructureKind(spec.kind());
  if (k == nullptr || !k->emit)
    throw std::logic_error(fmt::format("no emitter registered for kind '{}'", spec.kind()));
  return k->emit(spec);
}

}  // namespace gpurf
