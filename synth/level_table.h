// The per-level table of a characterization: for every register-file level a design has (MRF
// bank, MRF collectors, L1 ORF or RFC, L0, RFC tag check, warp scheduler), E_read and E_write at
// the library node and scaled, area and fmax, with what a read and a write mean there.
//
// Rows per characterized module, by kind:
//   mrf            "MRF bank" (SRAM model, per bank access; area of one bank; only with SRAM
//                  macros), "MRF logic" (gate-level: collectors, arbitration, operand buffers;
//                  with flip-flop banks the whole MRF) and, with macros, "MRF per access" (bank +
//                  logic; area of the module with all its banks);
//   orf-l1, orf-l0 "L1 ORF", "L0 ORF";
//   rfc            "RFC L1" (E_read per L1 hit; E_write per result write with one level),
//                  "RFC L0" (two levels: E_read per L0 hit, E_write per result write),
//                  "RFC tag check" (E_read column: per operand lookup; area and fmax: the whole
//                  RFC module, which the three rows share);
//   warp-scheduler "warp scheduler" (E_read column: per issue; E_write column: per activation);
//   flop-array     "array <instance>".
// A figure that does not apply is empty (NaN in the JSON: null).
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
  std::string level;     // "MRF bank", "RFC tag check", ...
  std::string module;    // generated module the figures come from
  std::string instance;  // role in the design ("mrf", "rfc", ...)
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

std::vector<LevelRow> CharacterizationLevels(const std::vector<ModuleCharacterization>& rs);

nlohmann::ordered_json LevelsJson(const std::vector<LevelRow>& rows);
std::string LevelsCsv(const std::vector<LevelRow>& rows);
// A Markdown section; `library_node`/`target_node` label the columns (0: unknown / unscaled).
std::string LevelsMarkdown(const std::vector<LevelRow>& rows, int library_node, int target_node);

}  // namespace gpurf
