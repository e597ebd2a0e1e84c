// Typed, range-checked parameters: the one description of a knob that the YAML loader, the
// command-line flags, `gpurf gen --list` and the manifest all read. A structure declares its
// parameters once as ParamDesc; values arrive as text (flags) or YAML scalars and are checked
// here, so every front end gives the same error for the same mistake.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "base/diag.h"

namespace gpurf {

enum class ParamType { kInt, kBool, kEnum, kString };

struct ParamDesc {
  std::string name;  // snake_case; the flag is the kebab-case form (--read-ports)
  ParamType type = ParamType::kInt;
  int64_t min = 0;  // kInt only, inclusive
  int64_t max = 0;
  std::vector<std::string> choices;  // kEnum only
  std::string default_value;         // textual default, always legal
  std::string help;

  std::string flag() const;     // "--read-ports"
  std::string allowed() const;  // "integer 1..1024", "one of: comb, reg", "true or false"
};

ParamDesc IntParam(std::string name, int64_t min, int64_t max, int64_t def, std::string help);
ParamDesc BoolParam(std::string name, bool def, std::string help);
ParamDesc EnumParam(std::string name, std::vector<std::string> choices, std::string def,
                    std::string help);
// Free text of 1..max_len printable characters without quotes or backslashes.
ParamDesc StringParam(std::string name, std::string def, int max_len, std::string help);

struct ParamValue {
  ParamType type = ParamType::kInt;
  int64_t i = 0;
  bool b = false;
  std::string s;      // enum choice, or the textual form of any value
  SourceLoc loc;      // where it was given (unknown for defaults and flags)
  std::string field;  // field path used in messages ("structures[0].entries", "--entries")
  bool defaulted = true;
};

// An ordered set of checked values for one ParamDesc list.
class ParamSet {
 public:
  ParamSet() = default;
  explicit ParamSet(const std::vector<ParamDesc>& descs);  // all defaults

  // Parses `text` for parameter `name` and stores it; throws InputError naming `field` and
  // `loc` for an unknown name (with a suggestion), a wrong type or an out-of-range value.
  void Set(const std::string& name, const std::string& text, const SourceLoc& loc,
           const std::string& field);

  bool Has(const std::string& name) const { return values_.count(name) != 0; }
  const ParamValue& Get(const std::string& name) const;
  int64_t Int(const std::string& name) const { return Get(name).i; }
  int IntAsInt(const std::string& name) const { return static_cast<int>(Get(name).i); }
  bool Bool(const std::string& name) const { return Get(name).b; }
  const std::string& Enum(const std::string& name) const { return Get(name).s; }
  const std::string& Str(const std::string& name) const { return Get(name).s; }

  const std::vector<ParamDesc>& descs() const { return descs_; }
  const ParamDesc* Find(const std::string& name) const;

  // Gives every value still at its default the location `loc` and the field path
  // "`prefix`.name", so a cross-field rejection of a default points into the input too.
  void LocateDefaults(const SourceLoc& loc, const std::string& prefix);

  // Raises an InputError located at parameter `name` (for cross-field checks).
  [[noreturn]] void Reject(const std::string& name, const std::string& problem,
                           const std::string& allowed) const;

  // {"entries": 48, "read_mode": "comb", ...} in declaration order of the descs.
  nlohmann::ordered_json ToJson() const;
  // Canonical text used for hashing: "name=value;" in declaration order.
  std::string Canonical() const;

 private:
  std::vector<ParamDesc> descs_;
  std::map<std::string, ParamValue> values_;
};

// Parses a decimal integer; nullopt when `text` is not exactly one.
std::optional<int64_t> ParseInt(const std::string& text);
std::optional<bool> ParseBool(const std::string& text);

}  // namespace gpurf
