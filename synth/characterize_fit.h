// The least-squares fit of `gpurf characterize` (characterize.h): the energy per access of each
// component a module's activity driver declared, from the stimulus sets' dynamic energies after
// the idle (clock only) energy is subtracted.
#pragma once

#include <array>
#include <vector>

#include "synth/characterize.h"

namespace gpurf {

// The two-component fit (public for tests): rows (reads, writes, rhs).
struct AccessFit {
  double e_read = 0, e_write = 0, residual = 0;
};
AccessFit FitAccessEnergies(const std::vector<std::array<double, 3>>& rows);

// The same fit for any number of components: rows of (counts..., rhs). Components whose count is
// zero in every row are left out (energy 0); ToolError when the sets do not separate the rest.
// Non-negative: a component the fit would make negative is held at 0 (held_at_zero, in the order
// they were held) and the others refitted.
struct ComponentFit {
  std::vector<double> energy;  // per component
  double residual = 0;
  std::vector<size_t> held_at_zero;
};
ComponentFit FitAccessComponents(const std::vector<std::vector<double>>& counts,
                                 const std::vector<double>& rhs);

// Fits r.components' energies, r.idle_pj_per_cycle and r.fit_residual from r.sets (the idle set
// first, then every set with accesses).
void FitStimulusSets(ModuleCharacterization& r);

}  // namespace gpurf
