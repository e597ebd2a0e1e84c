#include "synth/characterize_cache.h"

#include <fmt/format.h>

#include <string>

#include "base/cache.h"
#include "base/diag.h"
#include "base/hash.h"

namespace gpurf {
namespace {

// Bumped whenever the method changes in a way that changes results (invalidates the cache).
// Naming the components in the result format changed no result: characterize-v2 files are read.
constexpr const char* kMethodVersion = "characterize-v2";

nlohmann::ordered_json EnergyJson(const RunEnergy& e) {
  return {{"internal_pj", e.internal_pj},
          {"switching_pj", e.switching_pj},
          {"input_port_switching_pj", e.input_port_switching_pj},
          {"leakage_pj", e.leakage_pj},
          {"dynamic_pj", e.dynamic_pj()},
          {"time_ns", e.time_ns}};
}

RunEnergy EnergyFromJson(const nlohmann::json& j) {
  RunEnergy e;
  e.internal_pj = j.at("internal_pj").get<double>();
  e.switching_pj = j.at("switching_pj").get<double>();
  e.input_port_switching_pj = j.at("input_port_switching_pj").get<double>();
  e.leakage_pj = j.at("leakage_pj").get<double>();
  e.time_ns = j.at("time_ns").get<double>();
  return e;
}

}  // namespace

std::vector<EnergyComponent> DeclaredComponents(const std::vector<AccessComponent>& declared) {
  if (declared.size() < 2 || declared[kReadComponent].name != "read" ||
      declared[kWriteComponent].name != "write")
    throw ToolError("an activity driver's access components must begin with read and write");
  std::vector<EnergyComponent> out;
  for (const auto& c : declared)
    out.push_back({c.name, c.meaning, 0, 0});
  return out;
}

nlohmann::ordered_json CharacterizationResultJson(const ModuleCharacterization& r) {
  nlohmann::ordered_json j;
  j["method"] = {{"version", kMethodVersion},
                 {"simulation", "Verilator, mapped netlist, cells from Liberty functions"},
                 {"period_ns", r.period_ns},
                 {"slew_ns", r.slew_ns},
                 {"wire_cap_per_fanout_pf", r.wire_cap_per_fanout_pf},
                 {"vdd_v", r.vdd_v},
                 {"seed", r.seed},
                 {"fit", "least squares over reads, writes, mixed after idle subtraction"}};
  j["nets"] = r.nets;
  j["e_read_pj"] = r.e_read_pj();
  j["e_write_pj"] = r.e_write_pj();
  j["idle_pj_per_cycle"] = r.idle_pj_per_cycle;
  j["leakage_w"] = r.leakage_w;
  j["leakage_pj_per_cycle"] = r.leakage_pj_per_cycle;
  j["fit_residual"] = r.fit_residual;
  auto& comps = j["components"] = nlohmann::ordered_json::object();
  for (const auto& c : r.components)
    comps[c.name] = {{"e_pj", c.e_pj}, {"meaning", c.meaning}};
  auto& sets = j["stimulus_sets"] = nlohmann::ordered_json::array();
  for (const auto& s : r.sets) {
    nlohmann::ordered_json accesses = nlohmann::ordered_json::object();
    for (size_t c = 0; c < r.components.size() && c < s.accesses.size(); ++c)
      accesses[r.components[c].name] = s.accesses[c];
    sets.push_back({{"set", s.set},
                    {"cycles", s.cycles},
                    {"accesses", accesses},
                    {"energy", EnergyJson(s.energy)}});
  }
  if (r.sta.available) {
    j["opensta_check"] = {{"available", true},
                          {"stimulus_set", "mixed"},
                          {"sta_internal_w", r.sta.sta_internal_w},
                          {"sta_switching_w", r.sta.sta_switching_w},
                          {"sta_leakage_w", r.sta.sta_leakage_w},
                          {"ours_internal_w", r.sta.ours_internal_w},
                          {"ours_switching_w", r.sta.ours_switching_w},
                          {"ours_leakage_w", r.sta.ours_leakage_w},
                          {"dynamic_difference", r.sta.dynamic_diff}};
  } else {
    j["opensta_check"] = {{"available", false}, {"reason", r.sta.reason}};
  }
  j["notes"] = r.notes;
  return j;
}

void ReadCharacterizationResult(const nlohmann::json& j,
                                const std::vector<AccessComponent>& declared,
                                ModuleCharacterization& r) {
  const auto& m = j.at("method");
  r.period_ns = m.at("period_ns").get<double>();
  r.slew_ns = m.at("slew_ns").get<double>();
  r.wire_cap_per_fanout_pf = m.at("wire_cap_per_fanout_pf").get<double>();
  r.vdd_v = m.at("vdd_v").get<double>();
  r.seed = m.at("seed").get<uint64_t>();
  r.nets = j.at("nets").get<int>();
  r.idle_pj_per_cycle = j.at("idle_pj_per_cycle").get<double>();
  r.leakage_w = j.at("leakage_w").get<double>();
  r.leakage_pj_per_cycle = j.at("leakage_pj_per_cycle").get<double>();
  r.fit_residual = j.at("fit_residual").get<double>();
  r.components = DeclaredComponents(declared);
  // characterize-v2 results: e_<name>_pj (read and write required, as that writer always wrote
  // them), counts <name>s.
  const bool named = j.contains("components");
  for (size_t c = 0; c < declared.size(); ++c) {
    const AccessComponent& d = declared[c];
    if (named) {
      r.components[c].e_pj = j.at("components").at(d.name).at("e_pj").get<double>();
      continue;
    }
    const std::string key = d.v2_energy_key.empty() ? "e_" + d.name + "_pj" : d.v2_energy_key;
    r.components[c].e_pj =
        c == kReadComponent || c == kWriteComponent ? j.at(key).get<double>() : j.value(key, 0.0);
  }
  for (const auto& s : j.at("stimulus_sets")) {
    StimulusSetResult sr;
    sr.set = s.at("set").get<std::string>();
    sr.cycles = s.at("cycles").get<uint64_t>();
    sr.accesses.assign(declared.size(), 0);
    for (size_t c = 0; c < declared.size(); ++c) {
      const std::string& name = declared[c].name;
      if (named)
        sr.accesses[c] = s.at("accesses").at(name).get<uint64_t>();
      else if (c == kReadComponent || c == kWriteComponent)
        sr.accesses[c] = s.at(name + "s").get<uint64_t>();
      else
        sr.accesses[c] = s.value(name + "s", uint64_t{0});
    }
    sr.energy = EnergyFromJson(s.at("energy"));
    r.sets.push_back(sr);
  }
  const auto& c = j.at("opensta_check");
  r.sta.available = c.at("available").get<bool>();
  if (r.sta.available) {
    r.sta.sta_internal_w = c.at("sta_internal_w").get<double>();
    r.sta.sta_switching_w = c.at("sta_switching_w").get<double>();
    r.sta.sta_leakage_w = c.at("sta_leakage_w").get<double>();
    r.sta.ours_internal_w = c.at("ours_internal_w").get<double>();
    r.sta.ours_switching_w = c.at("ours_switching_w").get<double>();
    r.sta.ours_leakage_w = c.at("ours_leakage_w").get<double>();
    r.sta.dynamic_diff = c.at("dynamic_difference").get<double>();
  } else {
    r.sta.reason = c.at("reason").get<std::string>();
  }
  r.notes = j.at("notes").get<std::vector<std::string>>();
}

fs::path CharacterizationCacheEntry(const GeneratedStructure& g, const ModuleSynthResult& synth,
                                    const CharacterizeOptions& opt) {
  const fs::path cache_root =
      (opt.synth.cache_dir.empty() ? DefaultCacheDir() : opt.synth.cache_dir) / "characterize";
  std::string key_text = fmt::format(
      "{}\n{}\n{}\nperiod {}\nslew {}\nwire {}\ncycles {}\nseed {}\nsta {}\n", kMethodVersion,
      GeneratorVersion(), synth.work_dir.filename().string(), opt.synth.clock_period_ns,
      opt.energy.slew_ns, opt.energy.wire_cap_per_fanout_pf, opt.cycles, opt.seed, opt.sta_check);
  if (const std::string v = ActivityDriverVersion(g.kind); !v.empty())
    key_text += "driver " + v + "\n";
  return cache_root / (g.top + "-" + HashHex(key_text, 16));
}

}  // namespace gpurf
