#include "app/target.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "gen/config/yaml_loader.h"
#include "gen/structures/emit.h"

namespace gpurf {

namespace {

bool LooksLikeFile(const std::string& t) {
  return t.find('/') != std::string::npos || t.ends_with(".yaml") || t.ends_with(".yml");
}

std::vector<std::string> KindNames() {
  std::vector<std::string> names;
  for (const auto& k : StructureKinds())
    names.push_back(k.name);
  return names;
}

}  // namespace

Target ResolveTarget(const std::string& target, const std::vector<std::string>& extras) {
  Target t;
  if (target.empty()) {
    throw InputError({}, "TARGET", "", "missing structure kind or design file",
                     fmt::format("{} or a design .yaml file", fmt::join(KindNames(), ", ")));
  }
  if (LooksLikeFile(target)) {
    if (!extras.empty()) {
      throw InputError({}, extras.front(), extras.front(),
                       "structure parameters cannot be combined with a design file",
                       "edit the design file instead");
    }
    t.design = LoadDesign(target);
    return t;
  }
  const StructureKind* kind = FindStructureKind(target);
  if (kind == nullptr) {
    for (const auto& p : PlannedStructureKinds()) {
      if (p.name == target) {
        throw InputError({}, "TARGET", target, "this structure kind is not implemented yet",
                         fmt::format("{}", fmt::join(KindNames(), ", ")));
      }
    }
    std::string problem = "unknown structure kind (and not a .yaml file)";
    if (auto s = ClosestMatchIn(target, KindNames()))
      problem += fmt::format(" (did you mean '{}'?)", *s);
    throw InputError({}, "TARGET", target, problem,
                     fmt::format("{}", fmt::join(KindNames(), ", ")));
  }
  ParamSet p(kind->params);
  std::set<std::string> given;
  for (size_t i = 0; i < extras.size(); ++i) {
    const std::string& a = extras[i];
    if (!a.starts_with("--") || a.size() < 3) {
      throw InputError({}, a, a, "unexpected argument",
                       "--<parameter> <value> pairs after the structure kind");
    }
    std::string name = a.substr(2), value;
    const auto eq = name.find('=');
    if (eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    } else {
      if (i + 1 >= extras.size()) {
        std::string key = name;
        std::replace(key.begin(), key.end(), '-', '_');
        const ParamDesc* d = p.Find(key);
        throw InputError({}, a, "", "missing value", d ? d->allowed() : "a value");
      }
      value = extras[++i];
    }
    std::string key = name;
    std::replace(key.begin(), key.end(), '-', '_');
    if (p.Find(key) == nullptr) {
      std::vector<std::string> flags;
      for (const auto& d : kind->params)
        flags.push_back(d.flag());
      std::string problem = fmt::format("unknown parameter of {}", kind->name);
      if (auto s = ClosestMatchIn("--" + name, flags))
        problem += fmt::format(" (did you mean '{}'?)", *s);
      throw InputError({}, "--" + name, value, problem, fmt::format("{}", fmt::join(flags, ", ")));
    }
    if (!given.insert(key).second) {
      throw InputError({}, "--" + name, value, "given twice", "each parameter at most once");
    }
    p.Set(key, value, {}, "--" + name);
  }
  t.single = kind->make_spec(p);
  return t;
}

std::vector<TargetStructure> Target::Generate() const {
  std::vector<TargetStructure> out;
  if (single) {
    out.push_back({*single, Emit(*single)});
    return out;
  }
  std::set<std::string> modules;
  for (const DesignStructure* s : design->Implemented()) {
    if (!modules.insert(ModuleName(*s->spec)).second)
      continue;
    GeneratedStructure g = Emit(*s->spec);
    g.instance = s->name;
    out.push_back({*s->spec, std::move(g)});
  }
  return out;
}

std::string Target::Describe() const {
  if (single)
    return fmt::format("{} {}", KindName(*single), ModuleName(*single));
  return fmt::format("design '{}' ({})", design->name, design->source);
}

std::string ListStructures() {
  std::string s = "Structures (gpurf gen <structure> [--parameter value ...] -o DIR):\n";
  size_t w_flag = 14, w_allowed = 26, w_default = 6;  // columns fit the longest entry
  for (const auto& k : StructureKinds()) {
    for (const auto& d : k.params) {
      w_flag = std::max(w_flag, d.flag().size());
      w_allowed = std::max(w_allowed, d.allowed().size());
      w_default = std::max(w_default, d.default_value.size());
    }
  }
  for (const auto& k : StructureKinds()) {
    s += fmt::format("\n  {}: {}\n", k.name, k.summary);
    for (const auto& d : k.params) {
      s += fmt::format("    {:<{}} {:<{}} default {:<{}} {}\n", d.flag(), w_flag, d.allowed(),
                       w_allowed, d.default_value, w_default, d.help);
    }
  }
  if (PlannedStructureKinds().empty())
    return s;
  s += "\nDescribed in design files but not generated yet:\n";
  size_t w_planned = 0;
  for (const auto& p : PlannedStructureKinds())
    w_planned = std::max(w_planned, p.name.size());
  for (const auto& p : PlannedStructureKinds())
    s += fmt::format("  {:<{}}  {}\n", p.name, w_planned, p.summary);
  return s;
}

}  // namespace gpurf
