// The per-level table of a characterization: for every register-file level a design has (MRF
// bank, MRF collectors, L1 ORF or RFC, L0, RFC tag check, warp scheduler), E_read and E_write at
// the library node and scaled, area and fmax, with what a read and a write mean there.
//
// A characterized module's rows come from its family (LevelRowsFamily, registered next to the
// family's activity driver: orf_driver.cc, model_drivers.cc), built from its named access
// components; a kind without an entry gets one gate-level row "array <instance>". A figure that
// does not apply is empty (NaN in the JSON: null).
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "base/registry.h"
#include "synth/characterize.h"

namespace gpurf {

struct LevelRow {
  std::string level;     // "MRF bank", "warp scheduler", ...
  std::string module;    // generated module the figures come from
  std::string instance;  // role in the design ("mrf", ...)
  std::string method;    // "gate-level", "SRAM model", "gate-level + SRAM model"
  std::string read_meaning, write_meaning;
  std::optional<double> e_read_pj, e_write_pj;                // at the library node
  std::optional<double> scaled_e_read_pj, scaled_e_write_pj;  // at the target node
  std::optional<double> area, scaled_area;                    // um^2
  std::optional<double> fmax_mhz;
};

// The level-table rows of a family's characterized module (one per energy level it provides:
// the MRF's banks and logic, an RFC's data levels and tag check, ...), registered by the family's
// kind (base/registry.h). A kind without an entry gets one gate-level row named after its
// instance ("array orf_l1_storage").
struct LevelRowsFamily {
  std::function<void(const ModuleCharacterization&, std::vector<LevelRow>&)> rows;
};

// Helpers for LevelRowsFamily entries: a row with the module's identity, area and timing and no
// energies, and one with the gate-level fit's read and write energies.
LevelRow BaseLevelRow(const ModuleCharacterization& r, std::string level, std::string method);
LevelRow GateLevelRow(const ModuleCharacterization& r, std::string level);
// A gate-level row of r's named components: `read`'s energy and meaning as its E_read and,
// unless empty, `write`'s as its E_write. Throws ToolError when r lacks one of them.
LevelRow ComponentLevelRow(const ModuleCharacterization& r, std::string level,
                           const std::string& read, const std::string& write = {});
// The rows of a module whose storage is SRAM macros beside gate-level logic (r.synth.macros not
// empty): the macro's row (SRAM model at the model's node, per row read and write, with these
// meanings; area of one macro), the logic's gate-level row, and the per-access total (macro +
// logic; area of the module with all its macros).
struct MacroRowLabels {
  std::string macro, macro_read, macro_write, logic, total;
};
void AppendMacroLevelRows(const ModuleCharacterization& r, const MacroRowLabels& labels,
                          std::vector<LevelRow>& out);
// `v` when r is scaled, else empty (the scaled columns of a row).
std::optional<double> ScaledLevelFigure(const ModuleCharacterization& r, double v);

std::vector<LevelRow> CharacterizationLevels(const std::vector<ModuleCharacterization>& rs);

nlohmann::ordered_json LevelsJson(const std::vector<LevelRow>& rows);
std::string LevelsCsv(const std::vector<LevelRow>& rows);
// A Markdown section; `library_node`/`target_node` label the columns (0: unknown / unscaled).
std::string LevelsMarkdown(const std::vector<LevelRow>& rows, int library_node, int target_node);

}  // namespace gpurf
