// The finereg hierarchy: Oh et al.'s FineReg (MICRO 2018, sections IV-V). The register file is
// split into the active-CTA register file (ACRF: the MRF the running CTAs' registers live in)
// and the pending-CTA register file (PCRF: the live registers of CTAs switched out, one chain
// per CTA), with the register management unit's live-register vector cache and the CTA status
// monitor deciding the switches. The SM-harness system is
// sim/harness/hierarchies/finereg_system.cc. The design's register-file system top is the
// finereg_system structure (finereg-system family: ACRF + PCRF + RMU of one lane cluster, the top
// `--rtl-top` drives, sim/harness/transactors/finereg_system_top.cc); the generic rf_system top
// has no FineReg composition, so it is listed as skipped.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <string>
#include <vector>

#include "gen/config/hierarchy.h"

namespace gpurf {
namespace {

// The FineReg system top of one lane cluster (gen/structures/finereg_system): the ACRF with the
// design's MRF organisation (its banks per cluster, collectors, row width) for every warp context,
// the PCRF with the design's entries (one lane cluster's slice of each warp register) and pending
// CTA slots. Warps per CTA and registers per thread are the largest the design allows (32 warps,
// the registers per thread rounded up to a power of two); `--rtl-top` derives the top again per
// kernel (its CTA's warps and registers). A design outside the family's ranges lists it skipped.
DesignStructure FineRegSystemTop(const HierarchyInputs& in, long long entries) {
  const DesignSpec& d = in.design;
  const ParamSet& hier = in.hierarchy;
  const int regs = static_cast<int>(
      std::bit_ceil(static_cast<unsigned>(std::max(2, d.mrf.registers_per_thread))));
  const int row_bytes = d.mrf.width / 8;
  std::string why;
  if (d.sm.warps < 2 || d.sm.warps > 64)
    why = fmt::format("sm.warps {} is outside the finereg-system family's 2..64 ACRF warps",
                      d.sm.warps);
  else if (regs > 256)
    why = fmt::format("{} registers per thread exceed the family's 256", regs);
  else if (row_bytes < 4 || row_bytes > 128 || d.mrf.banks_per_cluster > 64)
    why = fmt::format(
        "an MRF row of {} bytes in {} banks per cluster is outside the family's "
        "4..128 bytes, 1..64 banks",
        row_bytes, d.mrf.banks_per_cluster);
  else if (hier.Int("resident_ctas") > 256)
    why = "more than 256 resident CTAs exceed the family's pending CTA slots";
  if (!why.empty()) {
    DesignStructure s;
    s.name = "finereg_system";
    s.kind = "finereg-system";
    s.count = d.sm.clusters;
    s.role = "FineReg register-file system top of one lane cluster";
    s.loc = in.loc;
    s.skip_reason = why;
    return s;
  }
  const int cta_warps =
      static_cast<int>(std::bit_floor(static_cast<unsigned>(std::min(32, d.sm.warps))));
  std::vector<DerivedValue> v = {
      {"warps", std::to_string(d.sm.warps), &in.sm.Get("warps")},
      {"cta_warps", std::to_string(cta_warps), &hier.Get("kind")},
      {"regs", std::to_string(regs), &in.mrf.Get("entries")},
      {"row_bytes", std::to_string(row_bytes), &in.mrf.Get("width")},
      {"banks", std::to_string(d.mrf.banks_per_cluster), &in.mrf.Get("banks")},
      {"entries", std::to_string(entries), &hier.Get("pcrf_bytes")},
      {"ctas", std::to_string(hier.Int("resident_ctas")), &hier.Get("resident_ctas")},
      {"hop_cycles", hier.Get("hop_cycles").s, &hier.Get("hop_cycles")}};
  for (const char* k : {"collectors", "wb_policy", "bank_impl"})
    v.push_back({k, in.mrf.Get(k).s, &in.mrf.Get(k)});
  return DerivedStructure(
      "finereg_system", "finereg-system",
      fmt::format("FineReg register-file system top of one lane cluster: ACRF {} warps x {} "
                  "registers of {} bytes, PCRF {} entries, {} pending CTA slots",
                  d.sm.warps, regs, row_bytes, entries, hier.Int("resident_ctas")),
      d.sm.clusters, v, in.loc);
}

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
  if (target == "pcrf" && pcrf > 0)
    out.push_back(FineRegSystemTop(in, pcrf / row));
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
                       [](const HierarchyInputs& in) {
                         if (in.hierarchy.Enum("switch_target") == "pcrf" &&
                             in.hierarchy.Int("pcrf_bytes") > 0)
                           return std::string(
                               "the generic register-file system top has no FineReg "
                               "composition: the design's top is finereg_system "
                               "(finereg-system family)");
                         return std::string(
                             "the generic register-file system top has no FineReg composition, "
                             "and the FineReg top (finereg_system) needs switch_target: pcrf "
                             "with pcrf_bytes > 0");
                       },
                   .energy_sources =
                       [](const DesignSpec&) {
                         return std::vector<EnergySource>{MrfEnergySource()};
                       },
               }))

}  // namespace gpurf
