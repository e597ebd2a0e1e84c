// The finereg hierarchy: Oh et al.'s FineReg (MICRO 2018, sections IV-V). The register file is
// split into the active-CTA register file (ACRF: the MRF the running CTAs' registers live in)
// and the pending-CTA register file (PCRF: the live registers of CTAs switched out, one chain
// per CTA), with the register management unit's live-register vector cache and the CTA status
// monitor deciding the switches. The SM-harness system is
// sim/harness/hierarchies/finereg_system.cc; the register-file system top (RTL) has no FineReg
// composition, so it is listed as skipped.
#include <fmt/format.h>

#include <bit>

#include "gen/config/hierarchy.h"

namespace gpurf {
namespace {

std::vector<DesignStructure> FineRegStructures(const HierarchyInputs& in) {
  const DesignSpec& d = in.design;
  const ParamSet& hier = in.hierarchy;
  const int row = d.sm.WarpRegisterBytes();
  const long long acrf = hier.Int("acrf_bytes");
  const long long pcrf = hier.Int("pcrf_bytes");
  if (acrf < row || acrf % row != 0) {
    hier.Reject("acrf_bytes",
                fmt::format("the ACRF holds whole warp registers of {} bytes, at least one", row),
                fmt::format("a positive multiple of {}", row));
  }
  if (acrf != d.mrf.capacity_bytes) {
    hier.Reject("acrf_bytes",
                fmt::format("the ACRF is the MRF: {} bytes (mrf.banks x entries x width)",
                            d.mrf.capacity_bytes),
                fmt::format("{} (or change the mrf section)", d.mrf.capacity_bytes));
  }
  if (pcrf % row != 0 || (pcrf != 0 && pcrf / row < 4) || pcrf / row > 4096) {
    hier.Reject("pcrf_bytes",
                fmt::format("the PCRF holds whole warp registers of {} bytes, 4 to 4096 of them "
                            "(the pcrf family's entries)",
                            row),
                fmt::format("0 or a multiple of {} from {} to {}", row, 4 * row, 4096LL * row));
  }
  const int vlines = hier.IntAsInt("vector_cache_entries");
  if (!std::has_single_bit(static_cast<unsigned>(vlines))) {
    hier.Reject("vector_cache_entries", "the live-register vector cache is direct-mapped",
                "a power of two from 2 to 256");
  }
  if (d.scheduler == "two-level") {
    hier.Reject("kind",
                "FineReg switches whole CTAs in and out of the pipeline, which needs every warp "
                "schedulable (scheduler.kind single-level; the GPU's policy picks among them)",
                "finereg with `scheduler: {kind: single-level}`");
  }
  const std::string target = hier.Enum("switch_target");
  const int ctas = hier.IntAsInt("resident_ctas");
  const int regs = std::max(2, d.mrf.registers_per_thread);
  std::vector<DesignStructure> out;
  if (target == "pcrf" && pcrf > 0) {
    out.push_back(DerivedStructure(
        "pcrf", "pcrf",
        fmt::format("pending-CTA register file: {} KB, {} entries of {} bytes, {} CTA chains, {} "
                    "cycles per hop",
                    pcrf / 1024, pcrf / row, row, ctas, hier.Int("hop_cycles")),
        1,
        {{"entries", std::to_string(pcrf / row), &hier.Get("pcrf_bytes")},
         {"row_bytes", std::to_string(row), &in.sm.Get("lanes")},
         {"ctas", std::to_string(ctas), &hier.Get("resident_ctas")},
         {"warps", "32", &hier.Get("kind")},
         {"regs", std::to_string(std::min(256, regs)), &in.mrf.Get("entries")},
         {"hop_cycles", hier.Get("hop_cycles").s, &hier.Get("hop_cycles")}},
        in.loc));
  }
  if (target != "full-rf") {
    out.push_back(DerivedStructure(
        "live_vector_cache", "live-vector-cache",
        fmt::format("live-register vector cache: {} lines, {}-cycle miss", vlines,
                    hier.Int("vector_miss_cycles")),
        1,
        {{"entries", std::to_string(vlines), &hier.Get("vector_cache_entries")},
         {"fetch_latency", hier.Get("vector_miss_cycles").s, &hier.Get("vector_miss_cycles")}},
        in.loc));
  }
  out.push_back(DerivedStructure(
      "cta_status_monitor", "cta-status-monitor",
      fmt::format("CTA status monitor: {} resident CTA slots", ctas), 1,
      {{"ctas", std::to_string(ctas), &hier.Get("resident_ctas")},
       {"pcrf_entries", std::to_string(std::max<long long>(4, std::min(4096LL, pcrf / row))),
        &hier.Get("pcrf_bytes")}},
      in.loc));
  return out;
}

}  // namespace

GPURF_REGISTER(HierarchyKind, finereg, "finereg",
               (HierarchyKind{
                   .name = "finereg",
                   .summary = "active + pending-CTA register files with CTA switching on "
                              "long-latency stalls (FineReg, Oh et al. 2018)",
                   .list_order = 70,
                   .min_levels = 1,
                   .max_levels = 1,
                   .structures = FineRegStructures,
                   .system_skip_reason =
                       [](const HierarchyInputs&) {
                         return std::string(
                             "the register-file system top has no FineReg composition (the SM "
                             "harness runs the ACRF/PCRF system on the C++ models)");
                       },
                   .energy_sources =
                       [](const DesignSpec&) {
                         return std::vector<EnergySource>{MrfEnergySource()};
                       },
               }))

}  // namespace gpurf
