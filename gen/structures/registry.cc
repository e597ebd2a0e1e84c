#include "gen/structures/registry.h"

#include <algorithm>

namespace gpurf {

const std::vector<StructureKind>& StructureKinds() {
  static const std::vector<StructureKind> kinds = [] {
    std::vector<StructureKind> v;
    for (const auto& [name, kind] : Registry<StructureKind>::Get().All())
      v.push_back(kind);
    std::stable_sort(v.begin(), v.end(), [](const StructureKind& a, const StructureKind& b) {
      return a.list_order < b.list_order;
    });
    return v;
  }();
  return kinds;
}

const StructureKind* FindStructureKind(const std::string& name) {
  return Registry<StructureKind>::Get().Find(name);
}

const std::vector<PlannedKind>& PlannedStructureKinds() {
  static const std::vector<PlannedKind> kinds = {
      {"cta-throttle", "CTA register balance counters and issue throttle (Jeon)"},
  };
  return kinds;
}

}  // namespace gpurf
