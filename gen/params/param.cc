#include "gen/params/param.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <nlohmann/json.hpp>

namespace gpurf {

std::string ParamDesc::flag() const {
  std::string f = "--" + name;
  std::replace(f.begin(), f.end(), '_', '-');
  return f;
}

std::string ParamDesc::allowed() const {
  switch (type) {
    case ParamType::kInt:
      return fmt::format("integer {}..{}", min, max);
    case ParamType::kBool:
      return "true or false";
    case ParamType::kEnum:
      return fmt::format("one of: {}", fmt::join(choices, ", "));
    case ParamType::kString:
      return fmt::format("text of 1..{} printable characters, no quotes or backslashes", max);
  }
  return {};
}

ParamDesc IntParam(std::string name, int64_t min, int64_t max, int64_t def, std::string help) {
  ParamDesc d;
  d.name = std::move(name);
  d.type = ParamType::kInt;
  d.min = min;
  d.max = max;
  d.default_value = std::to_string(def);
  d.help = std::move(help);
  return d;
}

ParamDesc BoolParam(std::string name, bool def, std::string help) {
  ParamDesc d;
  d.name = std::move(name);
  d.type = ParamType::kBool;
  d.default_value = def ? "true" : "false";
  d.help = std::move(help);
  return d;
}

ParamDesc EnumParam(std::string name, std::vector<std::string> choices, std::string def,
                    std::string help) {
  ParamDesc d;
  d.name = std::move(name);
  d.type = ParamType::kEnum;
  d.choices = std::move(choices);
  d.default_value = std::move(def);
  d.help = std::move(help);
  return d;
}

ParamDesc StringParam(std::string name, std::string def, int max_len, std::string help) {
  ParamDesc d;
  d.name = std::move(name);
  d.type = ParamType::kString;
  d.min = 1;
  d.max = max_len;
  d.default_value = std::move(def);
  d.help = std::move(help);
  return d;
}

std::optional<int64_t> ParseInt(const std::string& text) {
  if (text.empty() || text.size() > 19)
    return std::nullopt;
  size_t i = (text[0] == '-' || text[0] == '+') ? 1 : 0;
  if (i == text.size())
    return std::nullopt;
  for (size_t k = i; k < text.size(); ++k) {
    if (text[k] < '0' || text[k] > '9')
      return std::nullopt;
  }
  errno = 0;
  const long long v = std::strtoll(text.c_str(), nullptr, 10);
  if (errno != 0)
    return std::nullopt;
  return v;
}

std::optional<bool> ParseBool(const std::string& text) {
  if (text == "true" || text == "on" || text == "yes" || text == "1")
    return true;
  if (text == "false" || text == "off" || text == "no" || text == "0")
    return false;
  return std::nullopt;
}

namespace {

ParamValue Parse(const ParamDesc& d, const std::string& text, const SourceLoc& loc,
                 const std::string& field) {
  ParamValue v;
  v.type = d.type;
  v.loc = loc;
  v.field = field;
  v.defaulted = false;
  switch (d.type) {
    case ParamType::kInt: {
      const auto i = ParseInt(text);
      if (!i)
        throw InputError(loc, field, text, "expected an integer", d.allowed());
      if (*i < d.min || *i > d.max)
        throw InputError(loc, field, text, "out of range", d.allowed());
      v.i = *i;
      v.s = std::to_string(*i);
      break;
    }
    case ParamType::kBool: {
      const auto b = ParseBool(text);
      if (!b)
        throw InputError(loc, field, text, "expected a boolean", d.allowed());
      v.b = *b;
      v.s = *b ? "true" : "false";
      break;
    }
    case ParamType::kEnum: {
      if (std::find(d.choices.begin(), d.choices.end(), text) == d.choices.end()) {
        std::string problem = "not a valid choice";
        if (auto s = ClosestMatchIn(text, d.choices))
          problem += fmt::format(" (did you mean '{}'?)", *s);
        throw InputError(loc, field, text, problem, d.allowed());
      }
      v.s = text;
      break;
    }
    case ParamType::kString: {
      bool ok = !text.empty() && static_cast<int64_t>(text.size()) <= d.max;
      for (char ch : text)
        ok = ok && ch >= 0x20 && ch < 0x7f && ch != '"' && ch != '\\';
      if (!ok)
        throw InputError(loc, field, text, "not a valid text value", d.allowed());
      v.s = text;
      break;
    }
  }
  return v;
}

}  // namespace

ParamSet::ParamSet(const std::vector<ParamDesc>& descs) : descs_(descs) {
  for (const auto& d : descs_) {
    ParamValue v = Parse(d, d.default_value, {}, d.name);
    v.defaulted = true;
    values_[d.name] = v;
  }
}

const ParamDesc* ParamSet::Find(const std::string& name) const {
  for (const auto& d : descs_) {
    if (d.name == name)
      return &d;
  }
  return nullptr;
}

void ParamSet::Set(const std::string& name, const std::string& text, const SourceLoc& loc,
                   const std::string& field) {
  const ParamDesc* d = Find(name);
  if (d == nullptr) {
    std::vector<std::string> names;
    for (const auto& x : descs_)
      names.push_back(x.name);
    std::string problem = "unknown parameter";
    if (auto s = ClosestMatchIn(name, names))
      problem += fmt::format(" (did you mean '{}'?)", *s);
    throw InputError(loc, field, name, problem, fmt::format("{}", fmt::join(names, ", ")));
  }
  values_[name] = Parse(*d, text, loc, field);
}

const ParamValue& ParamSet::Get(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end())
    throw std::logic_error("gpurf: no parameter named " + name);
  return it->second;
}

void ParamSet::LocateDefaults(const SourceLoc& loc, const std::string& prefix) {
  for (auto& [name, v] : values_) {
    if (!v.defaulted)
      continue;
    v.loc = loc;
    v.field = prefix.empty() ? name : prefix + "." + name;
  }
}

void ParamSet::Reject(const std::string& name, const std::string& problem,
                      const std::string& allowed) const {
  const ParamValue& v = Get(name);
  throw InputError(v.loc, v.field.empty() ? name : v.field, v.s,
                   v.defaulted ? problem + " (the default value; set it explicitly)" : problem,
                   allowed);
}

nlohmann::ordered_json ParamSet::ToJson() const {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const auto& d : descs_) {
    const ParamValue& v = Get(d.name);
    switch (d.type) {
      case ParamType::kInt:
        j[d.name] = v.i;
        break;
      case ParamType::kBool:
        j[d.name] = v.b;
        break;
      case ParamType::kEnum:
      case ParamType::kString:
        j[d.name] = v.s;
        break;
    }
  }
  return j;
}

std::string ParamSet::Canonical() const {
  std::string s;
  for (const auto& d : descs_)
    s += d.name + "=" + Get(d.name).s + ";";
  return s;
}

}  // namespace gpurf
