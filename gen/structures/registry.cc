#include "gen/structures/registry.h"

#include <algorithm>
#include <utility>

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

namespace {

// Every kind the papers describe is implemented today; the list stays for the next one (and the
// tests fill it through ScopedPlannedKind).
std::vector<PlannedKind>& Planned() {
  static std::vector<PlannedKind> kinds;
  return kinds;
}

}  // namespace

const std::vector<PlannedKind>& PlannedStructureKinds() {
  return Planned();
}

ScopedPlannedKind::ScopedPlannedKind(PlannedKind kind) {
  Planned().push_back(std::move(kind));
}

ScopedPlannedKind::~ScopedPlannedKind() {
  Planned().pop_back();
}

}  // namespace gpurf
