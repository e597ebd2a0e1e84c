// The result format of `gpurf characterize` (characterize.h) and its cache. A result's
// characterization part (method, fitted components, stimulus sets, OpenSTA check, notes: what
// <cache>/characterize/<top>-<hash>/result.json holds, and what each module of
// characterization.json carries beside its synthesis) names every access component by the name
// its activity driver declared:
//   "components": {"read": {"e_pj": 0.12, "meaning": "..."}, "write": {...}, ...}
//   "stimulus_sets": [{"set": "reads", "cycles": 4000, "accesses": {"read": 12000, ...},
//                      "energy": {...}}, ...]
// The reader also takes the characterize-v2 files written before components had names: energies
// as e_<name>_pj (or the component's v2_energy_key), counts as <name>s in each set.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "base/fs.h"
#include "synth/characterize.h"

namespace gpurf {

// The characterization part of `r` (no synthesis, no scaled figures).
nlohmann::ordered_json CharacterizationResultJson(const ModuleCharacterization& r);

// Reads a characterization part into `r`: its components are `declared` (the module's activity
// driver's, today's wording) with the energies read; throws nlohmann::json::exception when a
// figure is missing.
void ReadCharacterizationResult(const nlohmann::json& j,
                                const std::vector<AccessComponent>& declared,
                                ModuleCharacterization& r);

// The components a driver declared, with no energies yet.
std::vector<EnergyComponent> DeclaredComponents(const std::vector<AccessComponent>& declared);

// The cache folder of g's characterization with `opt` (the synthesis result's key, the options,
// the method and driver versions).
fs::path CharacterizationCacheEntry(const GeneratedStructure& g, const ModuleSynthResult& synth,
                                    const CharacterizeOptions& opt);

}  // namespace gpurf
