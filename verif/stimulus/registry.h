// The stimulus layer of a structure family: the constrained-random stimulus `gpurf verify` drives
// its RTL and golden model with, registered by the family's kind in the stimulus's own file
// (base/registry.h).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "gen/structures/registry.h"
#include "verif/harness/stimulus.h"

namespace gpurf {

struct StimulusFamily {
  std::function<std::unique_ptr<Stimulus>(const StructureSpec&, uint64_t seed)> make;
};

// The stimulus of `spec` for `seed` (std::logic_error when its family registered none).
std::unique_ptr<Stimulus> MakeStimulus(const StructureSpec& spec, uint64_t seed);

}  // namespace gpurf
