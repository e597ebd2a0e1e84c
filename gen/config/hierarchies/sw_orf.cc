// The sw-orf hierarchy: Gebhart's software-managed operand register files (sections 4.2-4.6): an
// L1 ORF of l1_entries_per_thread entries per thread for each active warp and, with three levels,
// an L0 ORF, unified or split per operand slot; one copy of each per lane cluster.
#include <fmt/format.h>

#include "gen/config/hierarchy.h"

namespace gpurf {
namespace {

std::vector<DesignStructure> SwOrfStructures(const HierarchyInputs& in) {
  const DesignSpec& d = in.design;
  const int l1 = d.hierarchy.l1_entries_per_thread;
  const int aw = d.sm.active_warps;
  std::vector<DesignStructure> out;
  std::vector<DerivedValue> v1 = {
      {"entries_per_thread", std::to_string(l1), &in.hierarchy.Get("l1_entries_per_thread")},
      {"active_warps", std::to_string(aw), &in.sm.Get("active_warps")},
      {"width", std::to_string(d.mrf.width), &in.mrf.Get("width")}};
  for (auto& x : StorageValues(in.storage))
    v1.push_back(x);
  out.push_back(DerivedStructure(
      "orf_l1", "orf-l1",
      fmt::format("L1 ORF of one lane cluster: {} entries/thread x {} active warps, 3R1W", l1, aw),
      d.sm.clusters, v1, in.loc));
  if (d.hierarchy.levels == 3) {
    std::vector<DerivedValue> v0 = {
        {"active_warps", std::to_string(aw), &in.sm.Get("active_warps")},
        {"width", std::to_string(d.mrf.width), &in.mrf.Get("width")},
        {"split", d.hierarchy.l0_split ? "true" : "false", &in.hierarchy.Get("l0_split")}};
    for (auto& x : StorageValues(in.storage))
      v0.push_back(x);
    out.push_back(DerivedStructure(
        "orf_l0", "orf-l0",
        d.hierarchy.l0_split
            ? fmt::format("split L0 ORF of one lane cluster: one 1R1W bank per operand slot "
                          "(A, B, C), {} active warps",
                          aw)
            : fmt::format("unified L0 ORF of one lane cluster, {} active warps, 3R1W", aw),
        d.sm.clusters, v0, in.loc));
  }
  return out;
}

// L1 from orf_l1 and L0 from orf_l0: their gate-level read and write (per 128-bit row access).
std::vector<EnergySource> SwOrfEnergySources(const DesignSpec&) {
  return {MrfEnergySource(),
          {"orf_l1", "l1", {{"read_pj", "read"}, {"write_pj", "write"}}},
          {"orf_l0", "l0", {{"read_pj", "read"}, {"write_pj", "write"}}}};
}

}  // namespace

GPURF_REGISTER(HierarchyKind, sw_orf, "sw-orf",
               (HierarchyKind{
                   .name = "sw-orf",
                   .summary = "software operand register files (Gebhart 4.2-4.6)",
                   .list_order = 20,
                   .min_levels = 2,
                   .max_levels = 3,
                   .structures = SwOrfStructures,
                   .system_skip_reason = [](const HierarchyInputs&) { return std::string(); },
                   .energy_sources = SwOrfEnergySources,
               }))

}  // namespace gpurf
