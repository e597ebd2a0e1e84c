#include "synth/level_table.h"

#include <fmt/format.h>

#include "synth/scaling.h"

namespace gpurf {
namespace {

std::optional<double> Fmax(const ModuleCharacterization& r) {
  if (!r.synth.timing.available)
    return std::nullopt;
  return r.synth.timing.fmax_mhz;
}

}  // namespace

std::optional<double> ScaledLevelFigure(const ModuleCharacterization& r, double v) {
  if (!r.scaling)
    return std::nullopt;
  return v;
}

LevelRow BaseLevelRow(const ModuleCharacterization& r, std::string level, std::string method) {
  LevelRow row;
  row.level = std::move(level);
  row.module = r.top();
  row.instance = r.synth.instance;
  row.method = std::move(method);
  if (const EnergyComponent* c = r.Component("read"))
    row.read_meaning = c->meaning;
  if (const EnergyComponent* c = r.Component("write"))
    row.write_meaning = c->meaning;
  row.area = r.synth.total_area;
  row.scaled_area = ScaledLevelFigure(r, r.scaled_area);
  row.fmax_mhz = Fmax(r);
  return row;
}

LevelRow GateLevelRow(const ModuleCharacterization& r, std::string level) {
  LevelRow row = BaseLevelRow(r, std::move(level), "gate-level");
  row.e_read_pj = r.e_read_pj();
  row.e_write_pj = r.e_write_pj();
  row.scaled_e_read_pj = ScaledLevelFigure(r, r.scaled_e_read_pj());
  row.scaled_e_write_pj = ScaledLevelFigure(r, r.scaled_e_write_pj());
  return row;
}

LevelRow ComponentLevelRow(const ModuleCharacterization& r, std::string level,
                           const std::string& read, const std::string& write) {
  auto component = [&](const std::string& name) {
    const EnergyComponent* c = r.Component(name);
    if (c == nullptr)
      throw ToolError(fmt::format("{}: characterization without its {} component (level {})",
                                  r.top(), name, level));
    return c;
  };
  const EnergyComponent* rd = component(read);
  const EnergyComponent* wr = write.empty() ? nullptr : component(write);
  LevelRow row = BaseLevelRow(r, level, "gate-level");
  row.read_meaning = rd->meaning;
  row.write_meaning = "";
  row.e_read_pj = rd->e_pj;
  row.scaled_e_read_pj = ScaledLevelFigure(r, rd->scaled_e_pj);
  if (wr != nullptr) {
    row.write_meaning = wr->meaning;
    row.e_write_pj = wr->e_pj;
    row.scaled_e_write_pj = ScaledLevelFigure(r, wr->scaled_e_pj);
  }
  return row;
}

void AppendMacroLevelRows(const ModuleCharacterization& r, const MacroRowLabels& labels,
                          std::vector<LevelRow>& out) {
  const MacroUse& m = r.synth.macros.front();
  LevelRow macro = BaseLevelRow(r, labels.macro, "SRAM model");
  macro.read_meaning = labels.macro_read;
  macro.write_meaning = labels.macro_write;
  macro.e_read_pj = r.macro_e_read_pj;
  macro.e_write_pj = r.macro_e_write_pj;
  macro.scaled_e_read_pj = r.scaled_macro_e_read_pj;
  macro.scaled_e_write_pj = r.scaled_macro_e_write_pj;
  macro.area = std::nullopt;  // the macro's area is only known at the SRAM model's node
  macro.scaled_area =
      m.figures.area_um2 *
      (r.scaling
           ? StillmakerBaasScaling(static_cast<int>(m.figures.node.node_nm), r.scaling->to_nm).area
           : 1.0);
  macro.fmax_mhz = std::nullopt;
  out.push_back(macro);
  out.push_back(GateLevelRow(r, labels.logic));
  LevelRow total = GateLevelRow(r, labels.total);
  total.method = "gate-level + SRAM model";
  total.e_read_pj = r.e_read_pj() + r.macro_e_read_pj;
  total.e_write_pj = r.e_write_pj() + r.macro_e_write_pj;
  if (r.scaling) {
    total.scaled_e_read_pj = r.scaled_e_read_pj() + r.scaled_macro_e_read_pj;
    total.scaled_e_write_pj = r.scaled_e_write_pj() + r.scaled_macro_e_write_pj;
    total.scaled_area = *macro.scaled_area * m.count + r.scaled_area;
  }
  total.area = std::nullopt;  // logic at the library node, macros at the model's: no one figure
  out.push_back(total);
}

namespace {

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
