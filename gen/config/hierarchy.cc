#include "gen/config/hierarchy.h"

#include <algorithm>

#include "gen/structures/registry.h"

namespace gpurf {

const std::vector<HierarchyKind>& HierarchyKinds() {
  static const std::vector<HierarchyKind> kinds = [] {
    std::vector<HierarchyKind> v;
    for (const auto& [name, kind] : Registry<HierarchyKind>::Get().All())
      v.push_back(kind);
    std::stable_sort(v.begin(), v.end(), [](const HierarchyKind& a, const HierarchyKind& b) {
      return a.list_order < b.list_order;
    });
    return v;
  }();
  return kinds;
}

const HierarchyKind* FindHierarchyKind(const std::string& name) {
  return Registry<HierarchyKind>::Get().Find(name);
}

bool IsBaselineHierarchy(const DesignSpec& d) {
  return d.hierarchy.kind == std::string(kBaselineHierarchy);
}

DesignStructure DerivedStructure(const std::string& name, const std::string& kind,
                                 const std::string& role, int count,
                                 const std::vector<DerivedValue>& values, const SourceLoc& loc) {
  const StructureKind* sk = FindStructureKind(kind);
  ParamSet p(sk->params);
  for (const DerivedValue& v : values)
    p.Set(v.key, v.text, v.from->loc, v.from->field + " (-> " + name + "." + v.key + ")");
  DesignStructure s;
  s.name = name;
  s.kind = kind;
  s.count = count;
  s.role = role;
  s.loc = loc;
  s.spec = sk->make_spec(p);
  return s;
}

std::vector<DerivedValue> StorageValues(const ParamSet& storage) {
  std::vector<DerivedValue> v;
  for (const char* k : {"read_mode", "bypass", "clock_gate"})
    v.push_back({k, storage.Get(k).s, &storage.Get(k)});
  return v;
}

EnergySource MrfEnergySource() {
  // The design derivation names the MRF "mrf" (derive.cc).
  return {"mrf",
          "mrf",
          {{"read_pj", "read", EnergyField::Macro::kRead},
           {"write_pj", "write", EnergyField::Macro::kWrite}},
          /*needs_macros=*/true};
}

}  // namespace gpurf
