// Register-file hierarchies: the organisation of a design point's register file (the MRF alone,
// Gebhart's software operand register files or hardware register file cache today; renaming,
// pending-CTA chains, cache emulation and hybrid caches next). A hierarchy registers itself by
// name (base/registry.h) in its own file under gen/config/hierarchies/ and derives, from the
// design's validated YAML sections, the structures it puts between the MRF and the register-file
// system top. The design loader reads the YAML and calls the hierarchy named by hierarchy.kind;
// it never names one.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "base/registry.h"
#include "gen/config/design_spec.h"
#include "gen/params/param.h"

namespace gpurf {

// The hierarchy every design is compared against (its energy and timing baseline).
inline constexpr const char* kBaselineHierarchy = "mrf-only";
// Whether `d` is organised as the baseline (its comparison with the baseline is with itself).
bool IsBaselineHierarchy(const DesignSpec& d);

// What a hierarchy's derivation reads: the design so far (sm, mrf and hierarchy filled in) and
// the checked YAML sections, whose values carry the file locations errors point at.
struct HierarchyInputs {
  const DesignSpec& design;
  const ParamSet& hierarchy;
  const ParamSet& sm;
  const ParamSet& mrf;
  const ParamSet& storage;
  SourceLoc loc;  // the hierarchy section
};

// Where a figure of the `--energies` JSON of the SM harness (sim/passes/rf_energies.h: sections
// "mrf", "l1", "l0" with read_pj/write_pj, "rfc" with tag_pj) comes from in a characterization of
// the design (synth/characterize.h): the per-access energy of a named access component of a
// design structure's module (the component names its activity driver declares), scaled to the
// target node unless --no-scale.
struct EnergyField {
  std::string field;      // "read_pj"
  std::string component;  // "read"
  // Adds the module's SRAM-model energy per bank access (its black-boxed macros), of reads or of
  // writes.
  enum class Macro { kNone, kRead, kWrite } macro = Macro::kNone;
};
struct EnergySource {
  std::string instance;  // the design structure (DesignStructure::name): "mrf"
  std::string section;   // "mrf"
  std::vector<EnergyField> fields;
  // Only when the module has black-boxed SRAM macros (a flip-flop MRF keeps the default figures).
  bool needs_macros = false;
};

struct HierarchyKind {
  std::string name;     // hierarchy.kind in the design YAML: "hw-rfc"
  std::string summary;  // one line for the schema reference
  int list_order = 0;   // position among the allowed values
  int min_levels = 1;   // levels including the MRF
  int max_levels = 1;
  // The structures of this hierarchy between the MRF and the system top, in order. May reject
  // a value of the sections (ParamSet::Reject) that this hierarchy cannot build.
  std::function<std::vector<DesignStructure>(const HierarchyInputs&)> structures;
  // Why the register-file system top cannot compose this design point, or "" when it can.
  std::function<std::string(const HierarchyInputs&)> system_skip_reason;
  // The --energies figures a characterization of the design gives, in the order they are
  // written. A section is written when every one of its fields is positive; one the design does
  // not characterize keeps Gebhart's published figures.
  std::function<std::vector<EnergySource>(const DesignSpec&)> energy_sources;
};

// The MRF's source (every hierarchy has the MRF): per bank access, the gate-level read and write
// (collectors, arbitration) plus the SRAM model's bank access; only with SRAM macros.
EnergySource MrfEnergySource();

// Registered hierarchies, in list order.
const std::vector<HierarchyKind>& HierarchyKinds();
const HierarchyKind* FindHierarchyKind(const std::string& name);

// One parameter of a structure the design derives, with the YAML field that decided it.
struct DerivedValue {
  std::string key;
  std::string text;
  const ParamValue* from;
};

// Builds a structure of the design point from derived values, each traced to its YAML field so a
// cross-field rejection points at something the user wrote.
DesignStructure DerivedStructure(const std::string& name, const std::string& kind,
                                 const std::string& role, int count,
                                 const std::vector<DerivedValue>& values, const SourceLoc& loc);

// The flip-flop storage options (storage section) every ORF/RFC level takes.
std::vector<DerivedValue> StorageValues(const ParamSet& storage);

}  // namespace gpurf
