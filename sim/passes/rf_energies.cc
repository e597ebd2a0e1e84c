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

}  // namespace

RegisterFileEnergies ParseRegisterFileEnergies(const std::string& text, const std::string& file,
                                               const RegisterFileEnergies& base) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    const size_t byte = e.byte > 0 ? e.byte - 1 : 0;
    throw InputError(LocOfByte(text, file, byte), "json", "", "malformed JSON", "valid JSON");
  }
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
