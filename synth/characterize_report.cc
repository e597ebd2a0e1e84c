#include "synth/characterize_report.h"

#include <fmt/format.h>

#include "synth/characterize_cache.h"
#include "synth/level_table.h"

namespace gpurf {
namespace {

std::string Fmt(double v, int digits = 3) {
  return fmt::format("{:.{}f}", v, digits);
}

std::string ShapeText(const ModuleCharacterization& r) {
  const auto& p = r.synth.parameters;
  if (p.contains("entries") && p.contains("width") && p.contains("read_ports") &&
      p.contains("write_ports"))
    return fmt::format("{}x{} {}R{}W", p["entries"].dump(), p["width"].dump(),
                       p["read_ports"].dump(), p["write_ports"].dump());
  return p.dump();
}

}  // namespace

nlohmann::ordered_json ModuleCharacterization::Json() const {
  nlohmann::ordered_json j;
  j["module"] = synth.top;
  j["structure"] = synth.instance;
  j["kind"] = synth.kind;
  j["parameters"] = synth.parameters;
  j["library"] = {{"name", synth.library_name}, {"path", synth.library_path.string()}};
  j["area_unit"] = synth.area_unit;
  j["area"] = synth.total_area;
  j["fmax_mhz"] = synth.timing.available ? nlohmann::ordered_json(synth.timing.fmax_mhz)
                                         : nlohmann::ordered_json(nullptr);
  j["cell_count"] = synth.cell_count();
  const nlohmann::ordered_json part = CharacterizationResultJson(*this);
  for (auto it = part.begin(); it != part.end(); ++it)
    j[it.key()] = it.value();
  if (scaling) {
    j["scaled"] = {{"from_nm", scaling->from_nm},
                   {"to_nm", scaling->to_nm},
                   {"area_factor", scaling->area},
                   {"energy_factor", scaling->energy},
                   {"area", scaled_area},
                   {"e_read_pj", scaled_e_read_pj()},
                   {"e_write_pj", scaled_e_write_pj()},
                   {"idle_pj_per_cycle", scaled_idle_pj_per_cycle},
                   {"components", nlohmann::ordered_json::object()},
                   {"source", scaling->source}};
    for (const auto& c : components)
      j["scaled"]["components"][c.name] = c.scaled_e_pj;
  } else {
    j["scaled"] = nullptr;
  }
  if (!synth.macros.empty()) {
    // Per bank access: the SRAM model's bank plus the gate-level logic around the banks.
    j["sram_macro"] = {{"module", synth.macros.front().module},
                       {"count", synth.macros.front().count},
                       {"e_read_pj", macro_e_read_pj},
                       {"e_write_pj", macro_e_write_pj},
                       {"scaled_e_read_pj", scaled_macro_e_read_pj},
                       {"scaled_e_write_pj", scaled_macro_e_write_pj},
                       {"total_e_read_pj", e_read_pj() + macro_e_read_pj},
                       {"total_e_write_pj", e_write_pj() + macro_e_write_pj},
                       {"scaled_total_e_read_pj", scaled_e_read_pj() + scaled_macro_e_read_pj},
                       {"scaled_total_e_write_pj", scaled_e_write_pj() + scaled_macro_e_write_pj},
                       {"source", "synth/sram_model.h (per bank access)"}};
  }
  j["synthesis"] = synth.Json();
  j["from_cache"] = from_cache;
  return j;
}

nlohmann::ordered_json CharacterizationJson(const std::vector<ModuleCharacterization>& rs,
                                            const CharacterizeOptions& opt) {
  nlohmann::ordered_json j;
  j["generator"] = "gpurf characterize " + GeneratorVersion();
  j["options"] = {{"cycles_per_set", opt.cycles},
                  {"seed", opt.seed},
                  {"period_ns", opt.synth.clock_period_ns},
                  {"slew_ns", opt.energy.slew_ns},
                  {"wire_cap_per_fanout_pf", opt.energy.wire_cap_per_fanout_pf},
                  {"scale", opt.scale},
                  {"target_node_nm", opt.scale ? nlohmann::ordered_json(opt.target_node_nm)
                                               : nlohmann::ordered_json(nullptr)}};
  auto& mods = j["modules"] = nlohmann::ordered_json::array();
  for (const auto& r : rs)
    mods.push_back(r.Json());
  j["levels"] = LevelsJson(CharacterizationLevels(rs));
  return j;
}

std::string CharacterizationCsv(const std::vector<ModuleCharacterization>& rs) {
  std::string s =
      "module,structure,shape,area_um2,fmax_mhz,e_read_pj,e_write_pj,idle_pj_per_cycle,"
      "leakage_uw,node_nm,scaled_node_nm,scaled_area_um2,scaled_e_read_pj,scaled_e_write_pj,"
      "scaled_idle_pj_per_cycle,sta_dynamic_diff\n";
  for (const auto& r : rs) {
    s += fmt::format("{},{},\"{}\",{:.2f},{},{:.5f},{:.5f},{:.5f},{:.5f},{},{},{},{},{},{},{}\n",
                     r.top(), r.synth.instance, ShapeText(r), r.synth.total_area,
                     r.synth.timing.available ? Fmt(r.synth.timing.fmax_mhz, 2) : "", r.e_read_pj(),
                     r.e_write_pj(), r.idle_pj_per_cycle, r.leakage_w * 1e6,
                     r.scaling ? std::to_string(r.scaling->from_nm) : "",
                     r.scaling ? std::to_string(r.scaling->to_nm) : "",
                     r.scaling ? Fmt(r.scaled_area, 2) : "",
                     r.scaling ? Fmt(r.scaled_e_read_pj(), 5) : "",
                     r.scaling ? Fmt(r.scaled_e_write_pj(), 5) : "",
                     r.scaling ? Fmt(r.scaled_idle_pj_per_cycle, 5) : "",
                     r.sta.available ? Fmt(r.sta.dynamic_diff, 4) : "");
  }
  return s;
}

std::string CharacterizationMarkdown(const std::vector<ModuleCharacterization>& rs) {
  std::string s =
      "| module | structure | shape | area (um^2) | fmax (MHz) | E_read (pJ) | E_write (pJ) | "
      "idle (pJ/cycle) | leakage (uW) | OpenSTA dyn. diff |";
  const bool scaled = !rs.empty() && rs.front().scaling.has_value();
  if (scaled)
    s += fmt::format(" area @{0} nm | E_read @{0} nm | E_write @{0} nm |",
                     rs.front().scaling->to_nm);
  s += "\n|---|---|---|---:|---:|---:|---:|---:|---:|---:|";
  if (scaled)
    s += "---:|---:|---:|";
  s += "\n";
  std::vector<std::string> notes;
  for (const auto& r : rs) {
    s += fmt::format("| {} | {} | {} | {:.0f} | {} | {:.3f} | {:.3f} | {:.3f} | {:.3f} | {} |",
                     r.top(), r.synth.instance, ShapeText(r), r.synth.total_area,
                     r.synth.timing.available ? Fmt(r.synth.timing.fmax_mhz, 1) : "n/a",
                     r.e_read_pj(), r.e_write_pj(), r.idle_pj_per_cycle, r.leakage_w * 1e6,
                     r.sta.available ? fmt::format("{:+.1f}%", 100 * r.sta.dynamic_diff) : "n/a");
    if (r.scaling)
      s += fmt::format(" {:.0f} | {:.3f} | {:.3f} |", r.scaled_area, r.scaled_e_read_pj(),
                       r.scaled_e_write_pj());
    s += "\n";
    for (const auto& n : r.notes)
      notes.push_back(r.top() + ": " + n);
  }
  if (!rs.empty()) {
    const auto& r = rs.front();
    s += fmt::format(
        "\nLibrary {} at {:.2f} V; energies at the library node per access from gate-level "
        "simulation ({} cycles per stimulus set, reference clock {} ns, internal power read at "
        "{} ns input slew, wire load {} pF per fanout); leakage at the library node.\n",
        r.synth.library_name, r.vdd_v, r.sets.empty() ? 0 : r.sets.front().cycles, r.period_ns,
        r.slew_ns, r.wire_cap_per_fanout_pf);
    if (r.scaling)
      s += "Scaled columns: " + r.scaling->source + ".\n";
  }
  for (const auto& n : notes)
    s += "- " + n + "\n";
  if (!rs.empty()) {
    const auto& sc = rs.front().scaling;
    s += LevelsMarkdown(CharacterizationLevels(rs), sc ? sc->from_nm : 0, sc ? sc->to_nm : 0);
  }
  return s;
}

void WriteCharacterizationOutputs(const fs::path& dir,
                                  const std::vector<ModuleCharacterization>& rs,
                                  const CharacterizeOptions& opt) {
  nlohmann::ordered_json manifest;
  manifest["generator"] = "gpurf characterize " + GeneratorVersion();
  manifest["modules"] = nlohmann::ordered_json::array();
  for (const auto& r : rs)
    manifest["modules"].push_back(r.top());
  WriteFile(dir / "manifest.json", manifest.dump(2) + "\n");
  WriteFile(dir / "characterization.json", CharacterizationJson(rs, opt).dump(2) + "\n");
  WriteFile(dir / "characterization.csv", CharacterizationCsv(rs));
  WriteFile(dir / "characterization_levels.csv", LevelsCsv(CharacterizationLevels(rs)));
  WriteFile(dir / "characterization.md", CharacterizationMarkdown(rs));
}

}  // namespace gpurf
