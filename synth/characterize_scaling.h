// The node-dependent figures of a characterization (characterize.h): its energies and area scaled
// from the library's node to the target node, and the per-access energy of black-boxed SRAM
// macros, which the SRAM model gives at its own node.
#pragma once

#include "synth/characterize.h"

namespace gpurf {

// Fills r.scaling and every scaled_* figure (area, each component, idle) when opt.scale; the
// library's node from opt or its name (InputError when neither tells).
void ApplyScaling(ModuleCharacterization& r, const LibertyLibrary& lib,
                  const CharacterizeOptions& opt);

// The SRAM model's per-access energy of r's black-boxed banks (one kind of macro per structure:
// the MRF's), carried from the model's node to the library node and to the target node, and a
// note saying so. Nothing without macros.
void ApplyMacroEnergies(ModuleCharacterization& r, const LibertyLibrary& lib,
                        const CharacterizeOptions& opt);

}  // namespace gpurf
