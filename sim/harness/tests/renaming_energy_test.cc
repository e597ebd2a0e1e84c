// The renaming hierarchy's per-event energies (label unit): gpurf's own characterization of the
// renaming table and the release flag cache by default (docs/renaming-table.md,
// "Characterization"), Jeon Table 2 with `table_energy: jeon-table-2`; the leakage is Jeon's in
// both.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "gen/config/yaml_loader.h"
#include "sim/harness/hierarchy.h"
#include "sim/passes/rf_energies.h"

namespace gpurf::harness {
namespace {

energy::Energies RenamingEnergiesOf(const std::string& keys) {
  const DesignSpec d = LoadDesignFromString(
      "hierarchy:\n  kind: renaming\n" + keys + "scheduler:\n  kind: single-level\n", "t.yaml");
  return HarnessHierarchyOf(d).energies(d, 2, sim::passes::GebhartEnergies(), "");
}

const energy::ComponentEnergy& Component(const energy::Energies& e, const std::string& name) {
  for (const auto& c : e.components) {
    if (c.name == name)
      return c;
  }
  throw std::runtime_error("no component " + name);
}

TEST(RenamingEnergies, CharacterizedByDefault) {
  const energy::Energies e = RenamingEnergiesOf("");
  // docs/renaming-table.md: the 1 KB default (48 warp slots), 40 nm.
  EXPECT_DOUBLE_EQ(Component(e, "renaming lookups").pj, 1.373);
  EXPECT_DOUBLE_EQ(Component(e, "renaming allocations").pj, 6.744);
  EXPECT_DOUBLE_EQ(Component(e, "renaming releases").pj, 4.870);
  // The 10-entry flag cache: a hit is a lookup, a pir fetch a lookup and a fill.
  EXPECT_DOUBLE_EQ(Component(e, "flag cache hits").pj, 0.735);
  EXPECT_DOUBLE_EQ(Component(e, "pir fetches").pj, 0.735 + 0.688);
  for (const char* c : {"renaming lookups", "flag cache hits", "pir fetches"})
    EXPECT_NE(Component(e, c).source.find("gpurf characterization"), std::string::npos) << c;
  EXPECT_DOUBLE_EQ(Component(e, "renaming table cycles").leakage_mw, 4 * 0.27);
}

TEST(RenamingEnergies, NoFlagCacheNoFlagCacheEnergy) {
  const energy::Energies e = RenamingEnergiesOf("  flag_cache_entries: 0\n");
  EXPECT_EQ(Component(e, "flag cache hits").pj, 0.0);
  EXPECT_EQ(Component(e, "pir fetches").pj, 0.0);
  EXPECT_DOUBLE_EQ(Component(e, "renaming lookups").pj, 1.373);
}

TEST(RenamingEnergies, JeonTable2OnRequest) {
  const energy::Energies e = RenamingEnergiesOf("  table_energy: jeon-table-2\n");
  for (const char* c : {"renaming lookups", "renaming allocations", "renaming releases"}) {
    EXPECT_DOUBLE_EQ(Component(e, c).pj, 1.14) << c;
    EXPECT_NE(Component(e, c).source.find("Jeon Table 2"), std::string::npos) << c;
  }
  EXPECT_EQ(Component(e, "flag cache hits").pj, 0.0);
  EXPECT_EQ(Component(e, "pir fetches").pj, 0.0);
  EXPECT_DOUBLE_EQ(Component(e, "renaming table cycles").leakage_mw, 4 * 0.27);
}

}  // namespace
}  // namespace gpurf::harness
