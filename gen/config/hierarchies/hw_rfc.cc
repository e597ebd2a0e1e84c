// The hw-rfc hierarchy: Gebhart's hardware register file cache (section 4.1, 7.6) with one or two
// cache levels, one copy per lane cluster.
#include <fmt/format.h>

#include "gen/config/hierarchy.h"
#include "gen/structures/rfc/rfc_spec.h"

namespace gpurf {
namespace {

// The hardware RFC of a hw-rfc hierarchy: levels - 1 cache levels (L1, and L0 with 3 levels),
// one copy per lane cluster holding that cluster's 128-bit rows (each copy carries the tags).
std::vector<DesignStructure> HwRfcStructures(const HierarchyInputs& in) {
  const DesignSpec& d = in.design;
  const ParamSet& hier = in.hierarchy;
  const ParamSet& sm = in.sm;
  const ParamSet& mrf = in.mrf;
  const ParamSet& storage = in.storage;
  // Tag check and data read share one cycle, so the RFC reads its arrays combinationally.
  if (storage.Enum("read_mode") != "comb") {
    storage.Reject("read_mode",
                   "a hw-rfc hierarchy checks tags and reads data in one cycle (Gebhart 4.1)",
                   "comb (or leave it out)");
  }
  if (storage.Bool("bypass")) {
    storage.Reject("bypass",
                   "a hw-rfc lookup sees the state at the start of the cycle; write-to-read bypass "
                   "would return data its tags do not describe",
                   "false (or leave it out)");
  }
  ParamSet p(RfcSpec::ParamDescs());
  auto set = [&](const std::string& key, const std::string& text, const ParamValue& from) {
    p.Set(key, text, from.loc, from.field + " (-> rfc." + key + ")");
  };
  const int levels = d.hierarchy.levels - 1;
  set("active_warps", std::to_string(d.sm.active_warps), sm.Get("active_warps"));
  set("levels", std::to_string(levels), hier.Get("levels"));
  set("l1_entries", std::to_string(d.hierarchy.l1_entries_per_thread),
      hier.Get("l1_entries_per_thread"));
  if (levels == 2) {
    set("l0_entries", std::to_string(d.hierarchy.l0_entries_per_thread),
        hier.Get("l0_entries_per_thread"));
  }
  set("width", std::to_string(d.mrf.width), mrf.Get("width"));
  set("replacement", d.hierarchy.replacement, hier.Get("replacement"));
  set("clock_gate", storage.Get("clock_gate").s, storage.Get("clock_gate"));
  DesignStructure s;
  s.name = "rfc";
  s.kind = "rfc";
  s.count = d.sm.clusters;
  s.role = levels == 2
               ? fmt::format(
                     "2-level hardware register file cache of one lane cluster: L0 {} and "
                     "L1 {} entries/thread x {} active warps, {} replacement",
                     d.hierarchy.l0_entries_per_thread, d.hierarchy.l1_entries_per_thread,
                     d.sm.active_warps, d.hierarchy.replacement)
               : fmt::format(
                     "hardware register file cache of one lane cluster: {} entries/thread x "
                     "{} active warps, {} replacement",
                     d.hierarchy.l1_entries_per_thread, d.sm.active_warps, d.hierarchy.replacement);
  s.loc = in.loc;
  s.spec = RfcSpec::FromParams(p);
  return {s};
}

// The system top reads the MRF behind the RFC's write-backs.
std::string HwRfcSystemSkipReason(const HierarchyInputs& in) {
  if (in.mrf.Enum("wb_policy") != "write-priority") {
    return "a hw-rfc system needs mrf.wb_policy write-priority (an RFC write-back waiting behind "
           "a read of its own MRF row would be read stale)";
  }
  return "";
}

// The RFC's data reads per hit and its tag check per lookup (synth/model_drivers.cc names the
// components). With two cache levels the result write goes into L0 (its cascade of victims into
// L1 included) and L1 keeps its read only.
std::vector<EnergySource> HwRfcEnergySources(const DesignSpec& d) {
  const EnergySource tag{"rfc", "rfc", {{"tag_pj", "tag_check"}}};
  if (d.hierarchy.levels == 3)  // the MRF and two cache levels
    return {MrfEnergySource(),
            {"rfc", "l1", {{"read_pj", "read"}}},
            {"rfc", "l0", {{"read_pj", "l0_read"}, {"write_pj", "write"}}},
            tag};
  return {MrfEnergySource(), {"rfc", "l1", {{"read_pj", "read"}, {"write_pj", "write"}}}, tag};
}

}  // namespace

GPURF_REGISTER(HierarchyKind, hw_rfc, "hw-rfc",
               (HierarchyKind{
                   .name = "hw-rfc",
                   .summary = "hardware register file cache (Gebhart 4.1)",
                   .list_order = 30,
                   .min_levels = 2,
                   .max_levels = 3,
                   .structures = HwRfcStructures,
                   .system_skip_reason = HwRfcSystemSkipReason,
                   .energy_sources = HwRfcEnergySources,
               }))

}  // namespace gpurf
