#include "gen/config/derive.h"

#include <fmt/format.h>

#include <algorithm>

#include "gen/config/hierarchy.h"
#include "gen/structures/mrf/mrf_spec.h"
#include "gen/structures/rf_system/rf_system_spec.h"

namespace gpurf {

namespace {

// The MRF of one lane cluster (Gebhart Figure 1(c): each cluster of lane_cluster lanes owns
// banks / clusters of the banks; the clusters run in lockstep, so one collector unit per
// cluster sees every bank conflict): its parameters traced to the YAML fields that decided them.
DesignStructure MrfFor(const DesignSpec& d, const ParamSet& mrf, const ParamSet& sm,
                       const SourceLoc& loc) {
  ParamSet p(MrfSpec::ParamDescs());
  auto from = [&](const std::string& key, const std::string& text, const ParamValue& v) {
    p.Set(key, text, v.loc, v.field + " (-> mrf." + key + ")");
  };
  from("banks", std::to_string(d.mrf.banks_per_cluster), mrf.Get("banks"));
  from("rows", std::to_string(d.mrf.entries), mrf.Get("entries"));
  from("width", std::to_string(d.mrf.width), mrf.Get("width"));
  from("warps", std::to_string(d.sm.warps), sm.Get("warps"));
  from("regs", std::to_string(d.mrf.registers_per_thread), mrf.Get("entries"));
  for (const char* k : {"collectors", "interleave", "wb_policy", "bank_impl"}) {
    const ParamValue& v = mrf.Get(k);
    p.Set(k, v.s, v.loc, v.field.empty() ? std::string("mrf.") + k : v.field);
  }
  DesignStructure s;
  s.name = "mrf";
  s.kind = "mrf";
  s.count = d.sm.clusters;
  s.role = fmt::format(
      "MRF of one lane cluster: {} banks x {} rows x {} bits, {} operand collectors, {} warps x "
      "{} registers",
      d.mrf.banks_per_cluster, d.mrf.entries, d.mrf.width, mrf.IntAsInt("collectors"), d.sm.warps,
      d.mrf.registers_per_thread);
  s.loc = loc;
  s.spec = MrfSpec::FromParams(p);
  return s;
}

// The register-file system top of one lane cluster: the MRF with the design's hierarchy behind
// one request interface (gen/structures/rf_system/rf_system_spec.h), every value traced to the
// YAML field that decided it. A combination the system cannot compose is listed as skipped.
DesignStructure RfSystemFor(const HierarchyKind& h, const HierarchyInputs& in) {
  const DesignSpec& d = in.design;
  const ParamSet& hier = in.hierarchy;
  const ParamSet& sm = in.sm;
  const ParamSet& mrf = in.mrf;
  const ParamSet& storage = in.storage;
  DesignStructure s;
  s.name = "rf_system";
  s.kind = "rf-system";
  s.count = d.sm.clusters;
  s.loc = in.loc;
  if (std::string why = h.system_skip_reason(in); !why.empty()) {
    s.role = "register-file system top of one lane cluster";
    s.skip_reason = std::move(why);
    return s;
  }
  ParamSet p(RfSystemSpec::ParamDescs());
  auto set = [&](const std::string& key, const std::string& text, const ParamValue& from) {
    p.Set(key, text, from.loc, from.field + " (-> rf_system." + key + ")");
  };
  set("hierarchy", d.hierarchy.kind, hier.Get("kind"));
  set("levels", std::to_string(d.hierarchy.levels), hier.Get("levels"));
  set("l1_entries", std::to_string(d.hierarchy.l1_entries_per_thread),
      hier.Get("l1_entries_per_thread"));
  set("l0_entries", std::to_string(d.hierarchy.l0_entries_per_thread),
      hier.Get("l0_entries_per_thread"));
  set("l0_split", d.hierarchy.l0_split ? "true" : "false", hier.Get("l0_split"));
  set("replacement", d.hierarchy.replacement, hier.Get("replacement"));
  set("warps", std::to_string(d.sm.warps), sm.Get("warps"));
  set("active_warps", std::to_string(d.sm.active_warps), sm.Get("active_warps"));
  set("banks", std::to_string(d.mrf.banks_per_cluster), mrf.Get("banks"));
  set("rows", std::to_string(d.mrf.entries), mrf.Get("entries"));
  set("regs", std::to_string(d.mrf.registers_per_thread), mrf.Get("entries"));
  set("width", std::to_string(d.mrf.width), mrf.Get("width"));
  for (const char* k : {"collectors", "interleave", "wb_policy", "bank_impl"})
    set(k, mrf.Get(k).s, mrf.Get(k));
  for (const char* k : {"read_mode", "bypass", "clock_gate"})
    set(k, storage.Get(k).s, storage.Get(k));
  s.spec = RfSystemSpec::FromParams(p);
  s.role = "register-file system top of one lane cluster: " +
           SpecAs<RfSystemSpec>(*s.spec).Description();
  return s;
}

}  // namespace

DesignSpec DeriveDesign(const CheckedSections& in, const std::string& file_name) {
  const ParamSet& design = in.sections.at("design");
  const ParamSet& sm = in.sections.at("sm");
  const ParamSet& mrf = in.sections.at("mrf");
  const ParamSet& hier = in.sections.at("hierarchy");
  const ParamSet& storage = in.sections.at("storage");
  const ParamSet& sched = in.sections.at("scheduler");

  DesignSpec d;
  d.source = file_name;
  d.sections = std::make_shared<const CheckedSections>(in);
  d.name = design.Str("name");
  d.description = design.Str("description");

  // --- SM organisation.
  d.sm.lanes = sm.IntAsInt("lanes");
  d.sm.lane_cluster = sm.IntAsInt("lane_cluster");
  d.sm.warps = sm.IntAsInt("warps");
  d.sm.active_warps = sm.IntAsInt("active_warps");
  d.sm.warp_size = d.sm.lanes;
  for (const char* f : {"lanes", "lane_cluster", "warps", "active_warps"}) {
    if (!sm.Get(f).defaulted)
      d.sm.given.emplace(f, sm.Get(f).loc);
  }
  if (d.sm.lanes % d.sm.lane_cluster != 0) {
    sm.Reject("lane_cluster", fmt::format("must divide sm.lanes = {}", d.sm.lanes),
              "a divisor of sm.lanes");
  }
  d.sm.clusters = d.sm.lanes / d.sm.lane_cluster;
  if (d.sm.active_warps > d.sm.warps) {
    sm.Reject("active_warps", fmt::format("exceeds sm.warps = {}", d.sm.warps),
              fmt::format("integer 1..{} (sm.warps)", d.sm.warps));
  }

  // --- MRF.
  d.mrf.banks = mrf.IntAsInt("banks");
  d.mrf.entries = mrf.IntAsInt("entries");
  d.mrf.width = mrf.IntAsInt("width");
  if (d.mrf.width != 32 * d.sm.lane_cluster) {
    mrf.Reject("width",
               fmt::format("a row holds one 32-bit register of each of the {} lanes of a cluster",
                           d.sm.lane_cluster),
               fmt::format("{} (32 x sm.lane_cluster)", 32 * d.sm.lane_cluster));
  }
  d.mrf.capacity_bytes = static_cast<long long>(d.mrf.banks) * d.mrf.entries * d.mrf.width / 8;
  if (!mrf.Get("capacity_kb").defaulted && mrf.Int("capacity_kb") * 1024 != d.mrf.capacity_bytes) {
    mrf.Reject(
        "capacity_kb",
        fmt::format("does not match banks x entries x width = {} bytes", d.mrf.capacity_bytes),
        fmt::format("{} (or leave it out)", d.mrf.capacity_bytes / 1024.0));
  }
  const long long thread_regs =
      static_cast<long long>(d.mrf.banks) * d.mrf.entries * d.sm.lane_cluster;
  d.mrf.registers_per_thread =
      static_cast<int>(thread_regs / (static_cast<long long>(d.sm.warps) * d.sm.lanes));
  if (d.mrf.registers_per_thread < 1) {
    mrf.Reject(
        "entries",
        fmt::format(
            "the MRF holds {} thread-registers, fewer than one per thread of {} warps x {} lanes",
            thread_regs, d.sm.warps, d.sm.lanes),
        "banks x entries x lane_cluster >= warps x lanes");
  }
  if (d.mrf.banks % d.sm.clusters != 0) {
    mrf.Reject(
        "banks",
        fmt::format("each of the {} lane clusters owns an equal share of the banks", d.sm.clusters),
        fmt::format("a multiple of {} (sm.lanes / sm.lane_cluster)", d.sm.clusters));
  }
  d.mrf.banks_per_cluster = d.mrf.banks / d.sm.clusters;
  // Every warp owns ceil(regs / banks) rows of each bank of its cluster: keep the registers
  // per thread to what that layout holds (equal to the capacity share when warps divide entries).
  if (d.mrf.entries < d.sm.warps) {
    mrf.Reject("entries",
               fmt::format("every warp owns at least one row of each bank, and there are {} warps",
                           d.sm.warps),
               fmt::format("entries >= {} (sm.warps)", d.sm.warps));
  }
  d.mrf.registers_per_thread =
      std::min(d.mrf.registers_per_thread, d.mrf.banks_per_cluster * (d.mrf.entries / d.sm.warps));

  // --- Hierarchy.
  d.hierarchy.kind = hier.Enum("kind");
  d.hierarchy.levels = hier.IntAsInt("levels");
  d.hierarchy.l1_entries_per_thread = hier.IntAsInt("l1_entries_per_thread");
  d.hierarchy.l0_entries_per_thread = hier.IntAsInt("l0_entries_per_thread");
  d.hierarchy.l0_split = hier.Bool("l0_split");
  d.hierarchy.replacement = hier.Enum("replacement");
  d.hierarchy.rc_bytes = hier.IntAsInt("rc_bytes");
  d.hierarchy.rsp_bytes = hier.IntAsInt("rsp_bytes");
  d.hierarchy.organization = hier.Enum("organization");
  d.hierarchy.cerf_bytes = hier.IntAsInt("cerf_bytes");
  d.hierarchy.ways = hier.IntAsInt("ways");
  d.hierarchy.tag_banks = hier.IntAsInt("tag_banks");
  d.hierarchy.address_prefix = hier.Int("address_prefix");
  const bool levels_given = !hier.Get("levels").defaulted;
  const HierarchyKind& hk = *FindHierarchyKind(d.hierarchy.kind);  // the enum allows no other
  if (hk.min_levels == hk.max_levels) {
    if (levels_given && d.hierarchy.levels != hk.min_levels) {
      hier.Reject("levels",
                  hk.min_levels == 1
                      ? fmt::format("an {} hierarchy has exactly one level", hk.name)
                      : fmt::format("a {} hierarchy has exactly {} levels", hk.name, hk.min_levels),
                  fmt::format("{} (or leave it out)", hk.min_levels));
    }
    d.hierarchy.levels = hk.min_levels;
  } else if (d.hierarchy.levels < hk.min_levels || d.hierarchy.levels > hk.max_levels) {
    hier.Reject("levels", fmt::format("a {} hierarchy needs the MRF plus at least an L1", hk.name),
                hk.max_levels == hk.min_levels + 1
                    ? fmt::format("{} or {}", hk.min_levels, hk.max_levels)
                    : fmt::format("{} to {}", hk.min_levels, hk.max_levels));
  }

  d.scheduler = sched.Enum("kind");
  d.inner_policy = sched.Enum("inner_policy");

  // --- Structures of the design point.
  const SourceLoc mrf_loc = in.loc.at("mrf");
  const SourceLoc hier_loc = in.loc.at("hierarchy");
  d.structures.push_back(MrfFor(d, mrf, sm, mrf_loc));
  const int aw = d.sm.active_warps;
  const HierarchyInputs hin{d, hier, sm, mrf, storage, hier_loc};
  for (DesignStructure& s : hk.structures(hin))
    d.structures.push_back(std::move(s));
  d.structures.push_back(RfSystemFor(hk, hin));
  if (d.scheduler == "two-level") {
    d.structures.push_back(
        DerivedStructure("warp_scheduler", "warp-scheduler",
                         fmt::format("two-level scheduler, {} of {} warps active, {} inner policy",
                                     aw, d.sm.warps, sched.Enum("inner_policy")),
                         1,
                         {{"warps", std::to_string(d.sm.warps), &sm.Get("warps")},
                          {"active", std::to_string(aw), &sm.Get("active_warps")},
                          {"inner_policy", sched.Enum("inner_policy"), &sched.Get("inner_policy")}},
                         in.loc.at("scheduler")));
  }
  return d;
}

DesignSpec DesignForSm(const DesignSpec& d, int warps, int active_warps) {
  if (d.sm.warps == warps && d.sm.active_warps == active_warps)
    return d;
  if (d.sections == nullptr)
    throw std::logic_error("DesignForSm: design " + d.name + " was not derived from sections");
  CheckedSections in = *d.sections;
  ParamSet& sm = in.sections.at("sm");
  const SourceLoc loc = in.loc.at("sm");
  DesignSpec out;
  try {
    sm.Set("warps", std::to_string(warps), loc, "sm.warps");
    sm.Set("active_warps", std::to_string(active_warps), loc, "sm.active_warps");
    out = DeriveDesign(in, d.source);
  } catch (const InputError& e) {
    throw InputError(loc, "sm", fmt::format("{} warps, {} active", warps, active_warps),
                     fmt::format("the design cannot be derived for an SM (or register-file "
                                 "partition) of {} warps with {} active: {} {} ({}{})",
                                 warps, active_warps, e.field(), e.problem(), e.value(),
                                 e.allowed().empty() ? "" : "; allowed: " + e.allowed()),
                     "a GPU whose register-file partitions fit the design");
  }
  // What the file gives beside its sections: the GPU and the extra standalone structures (those
  // of `d` the sections do not derive; structure names are unique in a design).
  out.gpu = d.gpu;
  const size_t derived = out.structures.size();
  for (const DesignStructure& s : d.structures) {
    const auto end = out.structures.begin() + static_cast<std::ptrdiff_t>(derived);
    if (std::none_of(out.structures.begin(), end,
                     [&](const DesignStructure& o) { return o.name == s.name; }))
      out.structures.push_back(s);
  }
  return out;
}

}  // namespace gpurf
