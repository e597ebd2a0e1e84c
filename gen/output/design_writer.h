// Writes a whole design point: one sub-folder per generated structure (its own Verilog,
// filelist.f and manifest.json) plus a design-level manifest.json and filelist.f, all staged
// and moved into place in one rename.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "gen/config/design_spec.h"
#include "gen/output/artifact.h"

namespace gpurf {

struct GeneratedDesign {
  const DesignSpec* spec = nullptr;
  std::vector<std::pair<const DesignStructure*, GeneratedStructure>> structures;

  nlohmann::ordered_json ManifestJson() const;
  std::string Filelist()
      const;  // every unique file, dependency order, paths relative to the folder
};

// Generates every implemented structure of `spec`.
GeneratedDesign GenerateDesign(const DesignSpec& spec);

// Writes into the existing folder `dir`.
void WriteDesign(const fs::path& dir, const GeneratedDesign& g);

}  // namespace gpurf
