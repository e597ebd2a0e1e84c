// The reports of `gpurf characterize` (characterize.h): characterization.json (per module its
// synthesis, the characterization part of characterize_cache.h and the scaled figures; the
// per-level table of level_table.h), characterization.csv and characterization.md.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/fs.h"
#include "synth/characterize.h"

namespace gpurf {

nlohmann::ordered_json CharacterizationJson(const std::vector<ModuleCharacterization>& rs,
                                            const CharacterizeOptions& opt);
std::string CharacterizationCsv(const std::vector<ModuleCharacterization>& rs);
std::string CharacterizationMarkdown(const std::vector<ModuleCharacterization>& rs);
// Writes characterization.{json,csv,md}, characterization_levels.csv and manifest.json into the
// existing folder `dir`.
void WriteCharacterizationOutputs(const fs::path& dir,
                                  const std::vector<ModuleCharacterization>& rs,
                                  const CharacterizeOptions& opt);

}  // namespace gpurf
