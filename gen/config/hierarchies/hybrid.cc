// The hybrid hierarchy: Bailey, Kloosterman and Mahlke's hybrid register cache / register
// scratchpad (sections III-A, IV-D): per warp scheduler a compiler-managed register scratchpad
// (RSP) in front of a 2-way LRU register cache (RC) in front of the MRF. `rc_bytes` and
// `rsp_bytes` are per SM (Bailey: 12 KB = 8 KB RC + 4 KB RSP); 0 for one of them is the RSP-only
// or RC-only design of the paper's comparison.
#include <fmt/format.h>

#include "gen/config/hierarchy.h"
#include "gen/structures/hybrid_rc/hybrid_rc_spec.h"

namespace gpurf {
namespace {

// Warp schedulers per SM the design's structure is split over (Bailey Table I, the GTX 980). The
// SM harness splits the capacities over its GPU's register-file partitions instead.
constexpr int kSchedulers = 4;
constexpr int kLineBytes = 128;  // one warp-wide 32-bit register
constexpr int kWays = 2;         // Bailey Table I: 2-way set-associative, LRU

int Pow2AtLeast(int v) {
  int p = 2;
  while (p < v)
    p *= 2;
  return p;
}

std::vector<DesignStructure> HybridStructures(const HierarchyInputs& in) {
  const DesignSpec& d = in.design;
  const ParamSet& hier = in.hierarchy;
  const int rc = d.hierarchy.rc_bytes;
  const int rsp = d.hierarchy.rsp_bytes;
  if (rc % (kLineBytes * kWays) != 0) {
    hier.Reject("rc_bytes",
                fmt::format("the RC holds whole sets of {} lines of {} bytes", kWays, kLineBytes),
                fmt::format("a multiple of {} (0: no RC)", kLineBytes * kWays));
  }
  if (rsp % kLineBytes != 0) {
    hier.Reject("rsp_bytes", fmt::format("the RSP holds whole {}-byte registers", kLineBytes),
                fmt::format("a multiple of {} (0: no RSP)", kLineBytes));
  }
  if (rc == 0 && rsp == 0) {
    hier.Reject("rsp_bytes", "a hybrid hierarchy with neither an RC nor an RSP is the MRF alone",
                "a positive multiple of 128 (or hierarchy.kind: mrf-only)");
  }
  if (rc == 0 && d.hierarchy.organization != "hierarchical") {
    hier.Reject("organization", "without an RC there is nothing to organize the RSP against",
                "hierarchical (or leave it out)");
  }
  // One scheduler's hybrid-rc structure, when the family can build the per-scheduler sizes
  // (no RC or at least two whole RC sets, no RSP or at least two slots: Bailey's hybrid, RC-only
  // and RSP-only points all build); the SM harness models any size in C++.
  DesignStructure s;
  s.name = "hybrid_rc";
  s.kind = "hybrid-rc";
  s.count = kSchedulers;
  s.loc = in.loc;
  s.role = fmt::format(
      "hybrid register cache / scratchpad of one of {} schedulers: RC {} B ({}-way LRU), RSP {} "
      "B, {}",
      kSchedulers, rc / kSchedulers, kWays, rsp / kSchedulers, d.hierarchy.organization);
  const int warps = Pow2AtLeast((d.sm.warps + kSchedulers - 1) / kSchedulers);
  ParamSet p(HybridRcSpec::ParamDescs());
  auto set = [&](const std::string& key, const std::string& text, const ParamValue& from) {
    p.Set(key, text, from.loc, from.field + " (-> hybrid_rc." + key + ")");
  };
  try {
    set("rc_bytes", std::to_string(rc / kSchedulers), hier.Get("rc_bytes"));
    set("rsp_bytes", std::to_string(rsp / kSchedulers), hier.Get("rsp_bytes"));
    set("warps", std::to_string(std::min(64, warps)), in.sm.Get("warps"));
    set("organization", d.hierarchy.organization, hier.Get("organization"));
    set("clock_gate", in.storage.Get("clock_gate").s, in.storage.Get("clock_gate"));
    s.spec = HybridRcSpec::FromParams(p);
  } catch (const InputError& e) {
    s.spec.reset();
    s.skip_reason = fmt::format(
        "the hybrid-rc family cannot build this scheduler's share ({}: {}); the SM harness "
        "models it in C++",
        e.field(), e.problem());
  }
  return {s};
}

std::string HybridSystemSkipReason(const HierarchyInputs&) {
  return "the rf-system top does not compose the hybrid register cache / scratchpad (the SM "
         "harness runs it on its C++ model)";
}

// A characterization of the design's hybrid-rc gives the RSP's read and write (the `l1` section,
// which prices the RSP for the compiler, sim/passes/rsp_alloc.h) and the RC's hit read and write
// (the `l0` section, which the hybrid's energies read as the RC's).
std::vector<EnergySource> HybridEnergySources(const DesignSpec& d) {
  std::vector<EnergySource> v = {MrfEnergySource()};
  for (const DesignStructure& s : d.structures) {
    // The characterization prices a hybrid (an RC with a power-of-two number of sets and an
    // RSP); the RC-only and RSP-only points keep the figures below.
    const HybridRcSpec* h = s.implemented() ? s.spec->If<HybridRcSpec>() : nullptr;
    if (s.name == "hybrid_rc" && h != nullptr && h->has_rc() && h->has_rsp() && h->sets_pow2) {
      v.push_back({"hybrid_rc", "l1", {{"read_pj", "read"}, {"write_pj", "write"}}});
      v.push_back({"hybrid_rc", "l0", {{"read_pj", "rc_hit_read"}, {"write_pj", "rc_write"}}});
    }
  }
  return v;
}

}  // namespace

GPURF_REGISTER(HierarchyKind, hybrid, "hybrid",
               (HierarchyKind{
                   .name = "hybrid",
                   .summary = "hybrid register cache / scratchpad per scheduler (Bailey III-A); "
                              "rc_bytes, rsp_bytes, organization",
                   .list_order = 40,
                   .min_levels = 3,
                   .max_levels = 3,
                   .structures = HybridStructures,
                   .system_skip_reason = HybridSystemSkipReason,
                   .energy_sources = HybridEnergySources,
               }))

}  // namespace gpurf
