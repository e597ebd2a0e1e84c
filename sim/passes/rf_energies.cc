#include "sim/passes/rf_energies.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "base/diag.h"
#include "base/fs.h"
#include "energy/gebhart.h"

namespace gpurf::sim::passes {

const char* RfLevelName(RfLevel l) {
  switch (l) {
    case RfLevel::kMrf:
      return "MRF";
    case RfLevel::kL1:
      return "L1";
    case RfLevel::kL0:
      return "L0";
  }
  return "?";
}

namespace {
constexpr double kWordsPerAccess = 4;  // 128 bits = four 32-bit lanes

double Distance(const RegisterFileEnergies& e, RfLevel level, bool shared) {
  switch (level) {
    case RfLevel::kMrf:
      return shared ? e.mrf_shared_mm : e.mrf_private_mm;
    case RfLevel::kL1:
      return shared ? e.l1_shared_mm : e.l1_private_mm;
    case RfLevel::kL0:
      return e.l0_private_mm;
  }
  return 0;
}
}  // namespace

double RegisterFileEnergies::Read(RfLevel level, bool shared_unit) const {
  const double access = level == RfLevel::kMrf  ? mrf_read_pj
                        : level == RfLevel::kL1 ? l1_read_pj
                                                : l0_read_pj;
  return access + kWordsPerAccess * wire_pj_per_mm_32bit * Distance(*this, level, shared_unit);
}

double RegisterFileEnergies::Write(RfLevel level, bool shared_unit) const {
  const double access = level == RfLevel::kMrf  ? mrf_write_pj
                        : level == RfLevel::kL1 ? l1_write_pj
                                                : l0_write_pj;
  return access + kWordsPerAccess * wire_pj_per_mm_32bit * Distance(*this, level, shared_unit);
}

RegisterFileEnergies GebhartEnergies(int l1_entries_per_thread, int active_warps) {
  // One source of the published figures: the energy library (Tables IV and V, wire model).
  namespace gb = energy::gebhart;
  const energy::LevelEnergy mrf = gb::Level("MRF", l1_entries_per_thread, active_warps);
  const energy::LevelEnergy l1 = gb::Level("L1", l1_entries_per_thread, active_warps);
  const energy::LevelEnergy l0 = gb::Level("L0", l1_entries_per_thread, active_warps);
  constexpr auto kPrivate = static_cast<size_t>(energy::Unit::kPrivate);
  constexpr auto kShared = static_cast<size_t>(energy::Unit::kShared);
  RegisterFileEnergies e;
  e.mrf_read_pj = mrf.read_pj;
  e.mrf_write_pj = mrf.write_pj;
  e.l1_read_pj = l1.read_pj;
  e.l1_write_pj = l1.write_pj;
  e.l0_read_pj = l0.read_pj;
  e.l0_write_pj = l0.write_pj;
  e.wire_pj_per_mm_32bit = gb::kWirePjPerMmWord;
  e.mrf_private_mm = mrf.mm[kPrivate];
  e.mrf_shared_mm = mrf.mm[kShared];
  e.l1_private_mm = l1.mm[kPrivate];
  e.l1_shared_mm = l1.mm[kShared];
  e.l0_private_mm = l0.mm[kPrivate];
  e.source = fmt::format("Gebhart TOCS 2012 Table V; L1 from {}", l1.source);
  return e;
}

namespace {

SourceLoc LocOfByte(const std::string& text, const std::string& file, size_t byte) {
  int line = 1, col = 1;
  for (size_t i = 0; i < byte && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return SourceLoc{file, line, col};
}

// `text` as JSON; InputError at file:line:column when it is malformed.
nlohmann::json ParseJsonInput(const std::string& text, const std::string& file) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    const size_t byte = e.byte > 0 ? e.byte - 1 : 0;
    throw InputError(LocOfByte(text, file, byte), "json", "", "malformed JSON", "valid JSON");
  }
}

}  // namespace

RegisterFileEnergies ParseRegisterFileEnergies(const std::string& text, const std::string& file,
                                               const RegisterFileEnergies& base) {
  const nlohmann::json j = ParseJsonInput(text, file);
  const SourceLoc loc{file, 0, 0};
  if (!j.is_object())
    throw InputError(loc, "(top level)", j.dump(), "expected an object");
  RegisterFileEnergies e = base;
  struct Field {
    const char* name;
    double* value;
  };
  auto section = [&](const char* name, std::vector<Field> fields) {
    if (!j.contains(name))
      return;
    const auto& s = j.at(name);
    if (!s.is_object())
      throw InputError(loc, name, s.dump(), "expected an object");
    for (const auto& [key, val] : s.items()) {
      Field* f = nullptr;
      for (auto& c : fields) {
        if (key == c.name)
          f = &c;
      }
      const std::string path = fmt::format("{}.{}", name, key);
      if (!f) {
        std::vector<std::string> names;
        for (const auto& c : fields)
          names.emplace_back(c.name);
        std::string allowed = fmt::format("{}", fmt::join(names, ", "));
        if (auto s2 = ClosestMatchIn(key, names))
          allowed = fmt::format("{} (did you mean '{}'?)", allowed, *s2);
        throw InputError(loc, path, key, "unknown key", allowed);
      }
      if (!val.is_number() || val.get<double>() < 0)
        throw InputError(loc, path, val.dump(), "expected a non-negative number", ">= 0");
      *f->value = val.get<double>();
    }
  };
  for (const auto& [key, val] : j.items()) {
    static const std::vector<std::string> kTop = {"source", "mrf", "l1", "l0", "rfc", "wire"};
    if (std::find(kTop.begin(), kTop.end(), key) == kTop.end()) {
      std::string allowed = "source, mrf, l1, l0, rfc, wire";
      if (auto s = ClosestMatchIn(key, kTop))
        allowed += fmt::format(" (did you mean '{}'?)", *s);
      throw InputError(loc, key, key, "unknown key", allowed);
    }
    if (key == "source") {
      if (!val.is_string())
        throw InputError(loc, "source", val.dump(), "expected a string");
      e.source = val.get<std::string>();
    }
  }
  section("mrf", {{"read_pj", &e.mrf_read_pj}, {"write_pj", &e.mrf_write_pj}});
  section("l1", {{"read_pj", &e.l1_read_pj}, {"write_pj", &e.l1_write_pj}});
  section("l0", {{"read_pj", &e.l0_read_pj}, {"write_pj", &e.l0_write_pj}});
  section("rfc", {{"tag_pj", &e.rfc_tag_pj}});
  section("wire", {{"pj_per_mm_32bit", &e.wire_pj_per_mm_32bit},
                   {"mrf_private_mm", &e.mrf_private_mm},
                   {"mrf_shared_mm", &e.mrf_shared_mm},
                   {"l1_private_mm", &e.l1_private_mm},
                   {"l1_shared_mm", &e.l1_shared_mm},
                   {"l0_private_mm", &e.l0_private_mm}});
  if (!j.contains("source"))
    e.source = file;
  return e;
}

RegisterFileEnergies LoadRegisterFileEnergies(const std::string& path,
                                              const RegisterFileEnergies& base) {
  return ParseRegisterFileEnergies(ReadInputFile(path, "energies", kMaxJsonInputBytes), path, base);
}

}  // namespace gpurf::sim::passes

namespace gpurf::sim::passes {

namespace {

std::string ModulePath(const StructureCharacterization& c, const std::string& rest) {
  return fmt::format("modules[{}].{}", c.index, rest);
}

double NonNegative(const nlohmann::json& v, const SourceLoc& loc, const std::string& path) {
  if (!v.is_number() || v.get<double>() < 0)
    throw InputError(loc, path, v.dump(), "expected a non-negative number", ">= 0");
  return v.get<double>();
}

}  // namespace

std::string StructureCharacterization::Source() const {
  std::vector<std::string> ps;
  for (const auto& [k, v] : parameters)
    ps.push_back(fmt::format("{} {:g}", k, v));
  return fmt::format("gpurf characterize {} ({}; {} nm), {}", kind, fmt::join(ps, ", "), node_nm,
                     file);
}

double StructureCharacterization::Component(const std::string& name) const {
  const auto it = components.find(name);
  if (it != components.end())
    return it->second;
  std::vector<std::string> names;
  for (const auto& [k, v] : components)
    names.push_back(k);
  throw InputError(
      SourceLoc{file, 0, 0}, ModulePath(*this, "scaled.components." + name), "",
      fmt::format("the {} characterization has no component '{}'", kind, name),
      fmt::format("a characterization with it (this one has: {})", fmt::join(names, ", ")));
}

double StructureCharacterization::Parameter(const std::string& name) const {
  const auto it = parameters.find(name);
  if (it == parameters.end()) {
    throw InputError(SourceLoc{file, 0, 0}, ModulePath(*this, "parameters." + name), "",
                     fmt::format("the {} characterization has no parameter '{}'", kind, name),
                     fmt::format("a {} characterization of gpurf characterize", kind));
  }
  return it->second;
}

double StructureCharacterization::ReadPj(double macro_scale) const {
  return Component("read") + macro_read_pj * macro_scale;
}

double StructureCharacterization::WritePj(double macro_scale) const {
  return Component("write") + macro_write_pj * macro_scale;
}

const StructureCharacterization* RegisterFileEnergies::Structure(const std::string& kind) const {
  for (const auto& s : structures) {
    if (s.kind == kind)
      return &s;
  }
  return nullptr;
}

std::vector<StructureCharacterization> ParseStructureCharacterizations(const std::string& text,
                                                                       const std::string& file) {
  const nlohmann::json j = ParseJsonInput(text, file);
  const SourceLoc loc{file, 0, 0};
  const char* kReport = "the characterization.json of `gpurf characterize -o DIR`";
  if (!j.is_object() || !j.contains("modules"))
    throw InputError(loc, "modules", "", "missing: not a characterization report", kReport);
  const auto& mods = j.at("modules");
  if (!mods.is_array() || mods.empty())
    throw InputError(loc, "modules", mods.dump(), "expected a non-empty array", kReport);
  std::vector<StructureCharacterization> out;
  for (size_t i = 0; i < mods.size(); ++i) {
    const auto& m = mods[i];
    StructureCharacterization c;
    c.file = file;
    c.index = static_cast<int>(i);
    auto path = [&](const std::string& rest) { return ModulePath(c, rest); };
    if (!m.is_object())
      throw InputError(loc, fmt::format("modules[{}]", i), m.dump(), "expected an object", kReport);
    for (const char* key : {"kind", "module"}) {
      if (!m.contains(key) || !m.at(key).is_string()) {
        throw InputError(loc, path(key), m.contains(key) ? m.at(key).dump() : "",
                         "missing or not a string", kReport);
      }
    }
    c.kind = m.at("kind").get<std::string>();
    c.module = m.at("module").get<std::string>();
    if (m.contains("parameters") && m.at("parameters").is_object()) {
      for (const auto& [k, v] : m.at("parameters").items()) {
        if (v.is_number())
          c.parameters[k] = v.get<double>();
      }
    }
    if (!m.contains("scaled") || !m.at("scaled").is_object()) {
      throw InputError(loc, path("scaled"), m.contains("scaled") ? m.at("scaled").dump() : "",
                       "no energies scaled to a target node (characterized with --no-scale?)",
                       "a characterization scaled to the node of the design's energies (without "
                       "--no-scale)");
    }
    const auto& sc = m.at("scaled");
    if (!sc.contains("to_nm") || !sc.at("to_nm").is_number_integer())
      throw InputError(loc, path("scaled.to_nm"), "", "missing or not an integer", "a node in nm");
    c.node_nm = sc.at("to_nm").get<int>();
    if (!sc.contains("components") || !sc.at("components").is_object() ||
        sc.at("components").empty()) {
      throw InputError(loc, path("scaled.components"), "", "missing or empty",
                       "the per-access energy of every component the family declares");
    }
    for (const auto& [k, v] : sc.at("components").items())
      c.components[k] = NonNegative(v, loc, path("scaled.components." + k));
    if (m.contains("sram_macro") && !m.at("sram_macro").is_null()) {
      const auto& sm = m.at("sram_macro");
      for (const char* key : {"scaled_e_read_pj", "scaled_e_write_pj"}) {
        if (!sm.is_object() || !sm.contains(key))
          throw InputError(loc, path(std::string("sram_macro.") + key), "", "missing", kReport);
      }
      c.macro_read_pj =
          NonNegative(sm.at("scaled_e_read_pj"), loc, path("sram_macro.scaled_e_read_pj"));
      c.macro_write_pj =
          NonNegative(sm.at("scaled_e_write_pj"), loc, path("sram_macro.scaled_e_write_pj"));
    }
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<StructureCharacterization> LoadStructureCharacterizations(const std::string& path) {
  // The output folder of `gpurf characterize -o DIR` stands for its characterization.json.
  std::error_code ec;
  const std::string file =
      fs::is_directory(path, ec) ? (fs::path(path) / "characterization.json").string() : path;
  return ParseStructureCharacterizations(
      ReadInputFile(file, "--characterization", kMaxJsonInputBytes), file);
}

}  // namespace gpurf::sim::passes
