// The renaming hierarchy: Jeon et al.'s GPU register file virtualization (MICRO 2015, sections
// 5-8): the banked MRF behind a renaming table, one availability vector per bank (subarrays
// power-gated, filled in order) and a release flag cache for the compiler's pir meta
// instructions, and the CTA register balance counters and throttle (8.1). A physical file
// smaller than the architected one (GPU-shrink) is the design's physical_bytes. The system model is
// sim/harness/hierarchies/renaming_system.cc; the register-file system top (RTL) has no renaming
// composition, so it is listed as skipped.
#include <fmt/format.h>

#include "gen/config/hierarchy.h"

namespace gpurf {
namespace {

// Physical registers per bank of one lane cluster's MRF (the renaming keeps a register in the
// bank of its architected number, so every bank has its share).
int PhysicalPerBank(const DesignSpec& d, const ParamSet& hier) {
  const long long bytes =
      hier.Int("physical_bytes") == 0 ? d.mrf.capacity_bytes : hier.Int("physical_bytes");
  return static_cast<int>(bytes / d.sm.WarpRegisterBytes() / std::max(1, d.mrf.banks_per_cluster));
}

std::vector<DesignStructure> RenamingStructures(const HierarchyInputs& in) {
  const DesignSpec& d = in.design;
  const ParamSet& hier = in.hierarchy;
  const int banks = std::max(1, d.mrf.banks_per_cluster);
  const long long unit = static_cast<long long>(d.sm.WarpRegisterBytes()) * banks;
  const long long phys = hier.Int("physical_bytes");
  if (phys != 0 && (phys % unit != 0 || phys > d.mrf.capacity_bytes)) {
    hier.Reject("physical_bytes",
                fmt::format("the physical file holds whole warp registers ({} bytes) in each of "
                            "the {} banks and at most the architected {} bytes",
                            d.sm.WarpRegisterBytes(), banks, d.mrf.capacity_bytes),
                fmt::format("a multiple of {} up to {} (0: the architected file)", unit,
                            d.mrf.capacity_bytes));
  }
  const int per_bank = PhysicalPerBank(d, hier);
  const int subarrays = hier.IntAsInt("subarrays");
  if (per_bank % subarrays != 0) {
    hier.Reject("subarrays",
                fmt::format("must divide the {} physical registers per bank", per_bank),
                fmt::format("a divisor of {}", per_bank));
  }
  if (d.scheduler == "two-level") {
    // The throttle holds back every CTA but one; a two-level scheduler only deschedules a warp
    // at a strand end, so held-back warps could fill its active set for ever.
    hier.Reject("kind",
                "a renaming hierarchy throttles CTAs at issue, which needs every warp schedulable "
                "(scheduler.kind single-level; the GPU's policy then picks among all warps)",
                "renaming with `scheduler: {kind: single-level}`");
  }
  std::vector<DesignStructure> out;
  const int rt_banks = std::min(8, banks);
  out.push_back(DerivedStructure(
      "renaming_table", "renaming-table",
      fmt::format("renaming table: {} warps x {} registers onto {} physical, {} bytes", d.sm.warps,
                  d.mrf.registers_per_thread, per_bank * banks, hier.Int("table_bytes")),
      1,
      {{"warps", std::to_string(d.sm.warps), &in.sm.Get("warps")},
       {"regs", std::to_string(d.mrf.registers_per_thread), &in.mrf.Get("entries")},
       {"phys_regs", std::to_string(per_bank * banks), &hier.Get("physical_bytes")},
       {"capacity_bytes", hier.Get("table_bytes").s, &hier.Get("table_bytes")},
       {"banks", std::to_string(rt_banks), &in.mrf.Get("banks")}},
      in.loc));
  out.push_back(DerivedStructure(
      "availability_vectors", "availability-vectors",
      fmt::format("availability vectors: {} banks x {} physical registers, {} subarrays, wake {}",
                  banks, per_bank, subarrays, hier.Int("wake_cycles")),
      1,
      {{"banks", std::to_string(banks), &in.mrf.Get("banks")},
       {"regs_per_bank", std::to_string(per_bank), &hier.Get("physical_bytes")},
       {"subarrays", hier.Get("subarrays").s, &hier.Get("subarrays")},
       {"wake_cycles", hier.Get("wake_cycles").s, &hier.Get("wake_cycles")}},
      in.loc));
  // The CTA register balance counters and throttle (8.1), per bank as the system keeps them;
  // declared with the paper's 8 resident CTAs (the SM harness generates it for the GPU's
  // sm.cta_slots), one warp's group of up to 8 new registers per instruction, and one release
  // port (the system returns one register per event).
  out.push_back(DerivedStructure(
      "cta_throttle", "cta-throttle",
      fmt::format("CTA throttle: balance counters of 8 CTAs x {} banks of {} physical registers",
                  banks, per_bank),
      1,
      {{"slots", "8", &hier.Get("kind")},
       {"banks", std::to_string(banks), &in.mrf.Get("banks")},
       {"regs_per_bank", std::to_string(per_bank), &hier.Get("physical_bytes")},
       {"alloc_ports", "8", &hier.Get("kind")},
       {"release_ports", "1", &hier.Get("kind")}},
      in.loc));
  if (hier.Int("flag_cache_entries") >= 2) {
    out.push_back(DerivedStructure(
        "release_flag_cache", "release-flag-cache",
        fmt::format("release flag cache: {} pir entries", hier.Int("flag_cache_entries")), 1,
        {{"entries", hier.Get("flag_cache_entries").s, &hier.Get("flag_cache_entries")}}, in.loc));
  }
  return out;
}

}  // namespace

GPURF_REGISTER(HierarchyKind, renaming, "renaming",
               (HierarchyKind{
                   .name = "renaming",
                   .summary = "register renaming with release flags, GPU-shrink (Jeon 2015)",
                   .list_order = 50,
                   .min_levels = 1,
                   .max_levels = 1,
                   .structures = RenamingStructures,
                   .system_skip_reason =
                       [](const HierarchyInputs&) {
                         return std::string(
                             "the register-file system top has no renaming composition (the SM "
                             "harness runs the renaming system on the C++ models)");
                       },
                   .energy_sources =
                       [](const DesignSpec&) {
                         return std::vector<EnergySource>{MrfEnergySource()};
                       },
               }))

}  // namespace gpurf
