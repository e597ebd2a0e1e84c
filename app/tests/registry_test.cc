// Every structure family is registered in every layer, or says why a layer does not apply to it;
// and every registration of every layer works on the family's default spec.
#include "gen/structures/registry.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <set>
#include <sstream>
#include <string>

#include "gen/config/hierarchy.h"
#include "gen/structures/emit.h"
#include "gen/structures/flop_array/flop_array_spec.h"
#include "gen/structures/mrf/mrf_spec.h"
#include "models/registry.h"
#include "sim/harness/hierarchy.h"
#include "sim/harness/rtl_top.h"
#include "sim/harness/transactor.h"
#include "synth/activity_driver.h"
#include "verif/formal/family.h"
#include "verif/stimulus/registry.h"

namespace gpurf {
namespace {

bool HasLayer(const std::string& layer, const std::string& kind) {
  if (layer == "gen") {
    const StructureKind* k = FindStructureKind(kind);
    return k != nullptr && k->make_spec && k->emit;
  }
  if (layer == "model")
    return Registry<ModelFamily>::Get().Find(kind) != nullptr;
  if (layer == "stimulus")
    return Registry<StimulusFamily>::Get().Find(kind) != nullptr;
  if (layer == "activity")
    return Registry<ActivityFamily>::Get().Find(kind) != nullptr;
  if (layer == "transactor") {
    return Registry<harness::RtlTransactorKind>::Get().Find(kind) != nullptr ||
           Registry<harness::RtlTopKind>::Get().Find(kind) != nullptr;
  }
  ADD_FAILURE() << "layer '" << layer << "' of FamilyLayers() is not known to this test";
  return false;
}

TEST(FamilyRegistry, EveryKindHasEveryLayerOrSaysWhyNot) {
  ASSERT_GE(StructureKinds().size(), 7u);
  std::ostringstream table;
  table << "kind";
  for (const std::string& layer : FamilyLayers())
    table << " | " << layer;
  for (const StructureKind& k : StructureKinds()) {
    table << "\n" << k.name;
    for (const std::string& layer : FamilyLayers()) {
      const bool has = HasLayer(layer, k.name);
      const auto na = k.not_applicable.find(layer);
      if (na != k.not_applicable.end()) {
        EXPECT_FALSE(has) << k.name << " registers layer '" << layer
                          << "' but also declares it not applicable";
        EXPECT_GE(na->second.size(), 20u) << k.name << ": give the reason for '" << layer << "'";
        table << " | n/a";
      } else {
        EXPECT_TRUE(has) << k.name << " has no '" << layer
                         << "' registration and does not declare the layer not applicable";
        table << " | " << (has ? "yes" : "MISSING");
      }
    }
    for (const auto& [layer, reason] : k.not_applicable) {
      EXPECT_NE(std::find(FamilyLayers().begin(), FamilyLayers().end(), layer),
                FamilyLayers().end())
          << k.name << " declares unknown layer '" << layer << "' not applicable";
    }
  }
  std::cout << table.str() << "\n";
}

TEST(FamilyRegistry, NoLayerRegistersAKindTheGeneratorsDoNotKnow) {
  std::set<std::string> kinds;
  for (const StructureKind& k : StructureKinds())
    kinds.insert(k.name);
  for (const std::string& n : Registry<ModelFamily>::Get().Names())
    EXPECT_TRUE(kinds.contains(n)) << "model of unknown kind " << n;
  for (const std::string& n : Registry<StimulusFamily>::Get().Names())
    EXPECT_TRUE(kinds.contains(n)) << "stimulus of unknown kind " << n;
  for (const std::string& n : Registry<ActivityFamily>::Get().Names())
    EXPECT_TRUE(kinds.contains(n)) << "activity driver of unknown kind " << n;
  for (const std::string& n : Registry<harness::RtlTransactorKind>::Get().Names())
    EXPECT_TRUE(kinds.contains(n)) << "RTL transactor of unknown kind " << n;
  for (const std::string& n : Registry<harness::RtlTopKind>::Get().Names())
    EXPECT_TRUE(kinds.contains(n)) << "RTL system top of unknown kind " << n;
  for (const auto& [name, family] : Registry<formal::Family>::Get().All()) {
    EXPECT_FALSE(family.kinds.empty()) << "formal family " << name;
    for (const std::string& k : family.kinds)
      EXPECT_TRUE(kinds.contains(k)) << "formal family " << name << " covers unknown kind " << k;
  }
}

TEST(FamilyRegistry, EveryRegistrationWorksOnTheDefaultSpec) {
  for (const StructureKind& k : StructureKinds()) {
    SCOPED_TRACE(k.name);
    const StructureSpec spec = k.make_spec(ParamSet(k.params));
    EXPECT_EQ(spec.kind(), k.name);
    const GeneratedStructure g = Emit(spec);
    EXPECT_EQ(g.kind, k.name);
    EXPECT_EQ(g.top, spec.module_name());
    EXPECT_FALSE(g.ports.empty());
    if (HasLayer("model", k.name)) {
      EXPECT_NE(MakeModel(spec), nullptr);
    }
    if (HasLayer("stimulus", k.name)) {
      EXPECT_NE(MakeStimulus(spec, 1), nullptr);
    }
    if (HasLayer("activity", k.name)) {
      EXPECT_NE(MakeActivityDriver(g), nullptr);
    }
  }
}

TEST(FamilyRegistry, SpecOfAnotherFamilyIsNotCastSilently) {
  const StructureKind* fa = FindStructureKind("flop-array");
  ASSERT_NE(fa, nullptr);
  const StructureSpec spec = fa->make_spec(ParamSet(fa->params));
  EXPECT_NE(spec.If<FlopArraySpec>(), nullptr);
  EXPECT_EQ(spec.If<MrfSpec>(), nullptr);
  EXPECT_THROW(SpecAs<MrfSpec>(spec), std::bad_cast);
}

TEST(HierarchyRegistry, EveryHierarchyOfTheDesignLoaderRunsInTheHarness) {
  ASSERT_GE(HierarchyKinds().size(), 3u);
  std::set<std::string> names;
  for (const HierarchyKind& h : HierarchyKinds()) {
    names.insert(h.name);
    EXPECT_LE(h.min_levels, h.max_levels) << h.name;
    EXPECT_TRUE(h.structures && h.system_skip_reason) << h.name;
    const harness::HarnessHierarchy* hh = Registry<harness::HarnessHierarchy>::Get().Find(h.name);
    ASSERT_NE(hh, nullptr) << h.name << " has no harness side (sim/harness/hierarchy.h)";
    EXPECT_TRUE(hh->allocated_levels && hh->make_system && hh->describe && hh->rtl_structures &&
                hh->compiler_note && hh->energies)
        << h.name;
  }
  EXPECT_TRUE(names.contains(kBaselineHierarchy));
  for (const std::string& n : Registry<harness::HarnessHierarchy>::Get().Names())
    EXPECT_TRUE(names.contains(n)) << "harness hierarchy " << n << " unknown to the design loader";
}

}  // namespace
}  // namespace gpurf
