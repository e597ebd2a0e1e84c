#include "synth/level_table.h"

#include <fmt/format.h>

namespace gpurf {
namespace {

std::optional<double> Fmax(const ModuleCharacterization& r) {
  if (!r.synth.timing.available)
    return std::nullopt;
  return r.synth.timing.fmax_mhz;
}

std::optional<double> Scaled(const ModuleCharacterization& r, double v) {
  if (!r.scaling)
    return std::nullopt;
  return v;
}

}  // namespace

LevelRow BaseLevelRow(const ModuleCharacterization& r, std::string level, std::string method) {
  LevelRow row;
  row.level = std::move(level);
  row.module = r.top();
  row.instance = r.synth.instance;
  row.method = std::move(method);
  row.read_meaning = r.semantics.read;
  row.write_meaning = r.semantics.write;
  row.area = r.synth.total_area;
  row.scaled_area = Scaled(r, r.scaled_area);
  row.fmax_mhz = Fmax(r);
  return row;
}

LevelRow GateLevelRow(const ModuleCharacterization& r, std::string level) {
  LevelRow row = BaseLevelRow(r, std::move(level), "gate-level");
  row.e_read_pj = r.e_read_pj;
  row.e_write_pj = r.e_write_pj;
  row.scaled_e_read_pj = Scaled(r, r.scaled_e_read_pj);
  row.scaled_e_write_pj = Scaled(r, r.scaled_e_write_pj);
  return row;
}

namespace {

void MrfRows(const ModuleCharacterization& r, std::vector<LevelRow>& out) {
  if (r.synth.macros.empty()) {
    out.push_back(GateLevelRow(r, "MRF (flip-flop banks)"));
    return;
  }
  const MacroUse& m = r.synth.macros.front();
  // One bank, from the SRAM model (at the model's node; its area is not scaled to the library).
  LevelRow bank = BaseLevelRow(r, "MRF bank", "SRAM model");
  bank.read_meaning = "one bank read of one row";
  bank.write_meaning = "one bank write of one row";
  bank.e_read_pj = r.macro_e_read_pj;
  bank.e_write_pj = r.macro_e_write_pj;
  bank.scaled_e_read_pj = r.scaled_macro_e_read_pj;
  bank.scaled_e_write_pj = r.scaled_macro_e_write_pj;
  bank.area = std::nullopt;  // the macro's area is only known at the SRAM model's node
  bank.scaled_area =
      m.figures.area_um2 *
      (r.scaling
           ? StillmakerBaasScaling(static_cast<int>(m.figures.node.node_nm), r.scaling->to_nm).area
           : 1.0);
  bank.fmax_mhz = std::nullopt;
  out.push_back(bank);
  out.push_back(GateLevelRow(r, "MRF logic (collectors, arbitration)"));
  LevelRow total = GateLevelRow(r, "MRF per access (bank + logic)");
  total.method = "gate-level + SRAM model";
  total.e_read_pj = r.e_read_pj + r.macro_e_read_pj;
  total.e_write_pj = r.e_write_pj + r.macro_e_write_pj;
  if (r.scaling) {
    total.scaled_e_read_pj = r.scaled_e_read_pj + r.scaled_macro_e_read_pj;
    total.scaled_e_write_pj = r.scaled_e_write_pj + r.scaled_macro_e_write_pj;
    total.scaled_area = *bank.scaled_area * m.count + r.scaled_area;
  }
  total.area = std::nullopt;  // logic at the library node, banks at the model's: no one figure
  out.push_back(total);
}

void RfcRows(const ModuleCharacterization& r, std::vector<LevelRow>& out) {
  const bool two = r.e_l0_read_pj != 0 || !r.semantics.l0_read.empty();
  LevelRow l1 = GateLevelRow(r, "RFC L1");
  if (two) {
    l1.e_write_pj.reset();
    l1.scaled_e_write_pj.reset();
    l1.write_meaning = "(results are written into L0; L0 victims moving to L1 are in L0's E_write)";
  }
  out.push_back(l1);
  if (two) {
    LevelRow l0 = GateLevelRow(r, "RFC L0");
    l0.read_meaning = r.semantics.l0_read;
    l0.e_read_pj = r.e_l0_read_pj;
    l0.scaled_e_read_pj = Scaled(r, r.scaled_e_l0_read_pj);
    out.push_back(l0);
  }
  LevelRow tag = BaseLevelRow(r, "RFC tag check", "gate-level");
  tag.read_meaning = r.semantics.tag_check;
  tag.write_meaning = "";
  tag.e_read_pj = r.e_tag_pj;
  tag.scaled_e_read_pj = Scaled(r, r.scaled_e_tag_pj);
  out.push_back(tag);
}

std::string Num(const std::optional<double>& v, int digits) {
  return v ? fmt::format("{:.{}f}", *v, digits) : "";
}

std::string CsvText(const std::string& s) {
  std::string q = "\"";
  for (const char c : s)
    q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

}  // namespace

std::vector<LevelRow> CharacterizationLevels(const std::vector<ModuleCharacterization>& rs) {
  std::vector<LevelRow> out;
  for (const auto& r : rs) {
    if (const LevelRowsFamily* f = Registry<LevelRowsFamily>::Get().Find(r.synth.kind))
      f->rows(r, out);
    else
      out.push_back(GateLevelRow(r, fmt::format("array {}", r.synth.instance)));
  }
  return out;
}

// The Gebhart families' rows.
GPURF_REGISTER(LevelRowsFamily, mrf, "mrf", LevelRowsFamily{MrfRows})
GPURF_REGISTER(LevelRowsFamily, rfc, "rfc", LevelRowsFamily{RfcRows})
GPURF_REGISTER(LevelRowsFamily, orf_l1, "orf-l1",
               (LevelRowsFamily{[](const ModuleCharacterization& r, std::vector<LevelRow>& out) {
                 out.push_back(GateLevelRow(r, "L1 ORF"));
               }}))
GPURF_REGISTER(LevelRowsFamily, orf_l0, "orf-l0",
               (LevelRowsFamily{[](const ModuleCharacterization& r, std::vector<LevelRow>& out) {
                 out.push_back(GateLevelRow(r, "L0 ORF"));
               }}))
GPURF_REGISTER(LevelRowsFamily, warp_scheduler, "warp-scheduler",
               (LevelRowsFamily{[](const ModuleCharacterization& r, std::vector<LevelRow>& out) {
                 out.push_back(GateLevelRow(r, "warp scheduler"));
               }}))

nlohmann::ordered_json LevelsJson(const std::vector<LevelRow>& rows) {
  const auto num = [](const std::optional<double>& v) {
    return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
  };
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  for (const auto& r : rows)
    a.push_back({{"level", r.level},
                 {"module", r.module},
                 {"structure", r.instance},
                 {"method", r.method},
                 {"read", r.read_meaning},
                 {"write", r.write_meaning},
                 {"e_read_pj", num(r.e_read_pj)},
                 {"e_write_pj", num(r.e_write_pj)},
                 {"scaled_e_read_pj", num(r.scaled_e_read_pj)},
                 {"scaled_e_write_pj", num(r.scaled_e_write_pj)},
                 {"area_um2", num(r.area)},
                 {"scaled_area_um2", num(r.scaled_area)},
                 {"fmax_mhz", num(r.fmax_mhz)}});
  return a;
}

std::string LevelsCsv(const std::vector<LevelRow>& rows) {
  std::string s =
      "level,module,structure,method,e_read_pj,e_write_pj,scaled_e_read_pj,scaled_e_write_pj,"
      "area_um2,scaled_area_um2,fmax_mhz,read,write\n";
  for (const auto& r : rows)
    s += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{}\n", CsvText(r.level), r.module,
                     r.instance, CsvText(r.method), Num(r.e_read_pj, 5), Num(r.e_write_pj, 5),
                     Num(r.scaled_e_read_pj, 5), Num(r.scaled_e_write_pj, 5), Num(r.area, 2),
                     Num(r.scaled_area, 2), Num(r.fmax_mhz, 2), CsvText(r.read_meaning),
                     CsvText(r.write_meaning));
  return s;
}

std::string LevelsMarkdown(const std::vector<LevelRow>& rows, int library_node, int target_node) {
  const std::string lib = library_node > 0 ? fmt::format("@{} nm", library_node) : "@library";
  std::string s = "\n## Per-level energies\n\n";
  s += fmt::format(
      "| level | module | method | E_read {0} (pJ) | E_write {0} (pJ) |{1} area {0} (um^2) |{2} "
      "fmax (MHz) |\n|---|---|---|---:|---:|{3}---:|{4}---:|\n",
      lib,
      target_node > 0 ? fmt::format(" E_read @{0} nm (pJ) | E_write @{0} nm (pJ) |", target_node)
                      : "",
      target_node > 0 ? fmt::format(" area @{} nm (um^2) |", target_node) : "",
      target_node > 0 ? "---:|---:|" : "", target_node > 0 ? "---:|" : "");
  for (const auto& r : rows) {
    s += fmt::format("| {} | {} | {} | {} | {} |", r.level, r.module, r.method, Num(r.e_read_pj, 3),
                     Num(r.e_write_pj, 3));
    if (target_node > 0)
      s += fmt::format(" {} | {} |", Num(r.scaled_e_read_pj, 3), Num(r.scaled_e_write_pj, 3));
    s += fmt::format(" {} |", Num(r.area, 0));
    if (target_node > 0)
      s += fmt::format(" {} |", Num(r.scaled_area, 0));
    s += fmt::format(" {} |\n", Num(r.fmax_mhz, 1));
  }
  s += "\nWhat a read and a write are, per level:\n";
  for (const auto& r : rows)
    s += fmt::format("- {} ({}): read = {}; write = {}\n", r.level, r.module,
                     r.read_meaning.empty() ? "-" : r.read_meaning,
                     r.write_meaning.empty() ? "-" : r.write_meaning);
  return s;
}

}  // namespace gpurf
