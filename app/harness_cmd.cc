#include "app/harness_cmd.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <memory>

#include "app/passes_cmd.h"
#include "base/diag.h"
#include "energy/report.h"
#include "gen/config/derive.h"
#include "gen/config/yaml_loader.h"
#include "sim/harness/driver.h"
#include "sim/harness/hierarchy.h"
#include "sim/sm/sm.h"
#include "sim/workload/launch.h"

namespace gpurf {

namespace h = harness;
namespace sp = sim::passes;

namespace {

void AddCommon(CLI::App* cmd, HarnessArgs& a) {
  cmd->add_option("--workload,-w", a.workloads,
                  "corpus workload name, launch.yaml, Accel-Sim trace folder/kernelslist.g/"
                  ".traceg, or 'all' (every corpus workload); repeatable")
      ->required();
  cmd->add_option("--energies", a.energies,
                  "per-access energies JSON (characterization; default Gebhart TOCS 2012 "
                  "Tables IV/V)");
  cmd->add_option("--characterization", a.characterizations,
                  "a structure's own characterization (the characterization.json, or its "
                  "folder, that `gpurf characterize -o` writes): prices the design's structures "
                  "of its kind (finereg: pcrf, live-vector-cache; hybrid: hybrid-rc); "
                  "repeatable");
  cmd->add_flag("--no-hints", a.no_hints, "HW RFC without liveness hints");
  cmd->add_option("--active-warps", a.active_warps,
                  "override the design's active warps (two-level scheduling; 1..64, at most the "
                  "design's warps)")
      ->check(CLI::Range(1, 64));
  AddRecordLimitOption(cmd, a.record);
  cmd->add_option("--scheduler", a.scheduler, "override the scheduler")
      ->check(CLI::IsMember({"single-level", "two-level"}));
  cmd->add_option("--inner-policy", a.inner_policy,
                  "override the two-level scheduler's inner selection")
      ->check(CLI::IsMember({"greedy", "round-robin"}));
  cmd->add_option("--json", a.json, "write the results as JSON to this file");
  cmd->add_option("--gpu", a.gpu.preset,
                  "GPU preset the design runs on, overriding the design's gpu.preset (`gpurf gpu "
                  "list`)");
  cmd->add_option("--sms", a.gpu.sms, "override the GPU's number of SMs")
      ->check(CLI::Range(1, 1024));
  cmd->add_option("--memory", a.gpu.memory,
                  "override the GPU's memory: ideal (fixed latency, today's figures) or hierarchy")
      ->check(CLI::IsMember({"ideal", "hierarchy"}));
  auto* rtl = cmd->add_flag("--rtl", a.rtl,
                            "drive the design's Verilated RTL (MRF, RFC or ORF levels) in the loop "
                            "with the kernel's register values; data-dependent switching energy");
  cmd->add_flag("--lockstep", a.lockstep,
                "as --rtl, and run each structure's golden model beside its RTL, compared every "
                "cycle; exit 1 at the first divergence")
      ->excludes(rtl);
  cmd->add_flag("--rtl-top", a.rtl_top,
                "with --rtl / --lockstep (alone: --rtl): drive the design's one register-file "
                "system top (rf_system) through its request interface instead of its structures "
                "one by one; --lockstep runs the RfSystem golden model beside it");
  cmd->add_option("--cache-dir", a.cache_dir,
                  "Verilator model cache for --rtl/--lockstep (default $GPURF_CACHE_DIR, else "
                  "$XDG_CACHE_HOME/gpurf, else ~/.cache/gpurf)");
}

// The workloads' kernels, loaded once; keeps the front ends' objects alive.
struct Loaded {
  std::vector<WorkloadKernels> owners;
  std::vector<h::WorkloadKernel> kernels;
  std::vector<bool> from_all;  // per kernel: it came from "all", not a name the user gave
};

// A design's compiler section: the register budget its workloads are compiled with, and the
// register file whose resident CTAs each workload must keep (0: none) on the design's SM.
struct CompileBudget {
  int max_regs = 63;
  int fit_registers = 0;
  sim::SmConfig sm;
  bool operator==(const CompileBudget& o) const {
    return max_regs == o.max_regs && fit_registers == o.fit_registers &&
           (fit_registers == 0 || sm.registers == o.sm.registers);
  }
};

CompileBudget BudgetOf(const DesignSpec& d, const h::DriverOptions& o) {
  CompileBudget b;
  if (d.sections != nullptr) {
    const auto it = d.sections->sections.find("compiler");
    if (it != d.sections->sections.end()) {
      b.max_regs = it->second.IntAsInt("max_regs");
      b.fit_registers = it->second.IntAsInt("fit_registers");
    }
  }
  bool two_level = false;
  b.sm = h::SmConfigFor(d, o, two_level);
  return b;
}

// The register budget for workload `w` (compiled at b.max_regs) under b.fit_registers: the
// largest budget <= b.max_regs at which every kernel keeps resident on b.sm as many warps as it
// holds on an SM of b.fit_registers registers at its own budget (one budget per workload, as
// nvcc's -maxrregcount is per application; a kernel that already fits keeps its registers).
// Never below the allocator's 16, which may then keep fewer warps resident.
int FitBudget(const WorkloadKernels& w, const CompileBudget& b) {
  constexpr int kMinRegs = 16;  // the allocator's least budget (sim/ptx/regalloc.h)
  int budget = b.max_regs;
  sim::SmConfig ref = b.sm;
  ref.registers = static_cast<uint32_t>(b.fit_registers);
  for (const auto& it : w.kernels) {
    if (it.kernel == nullptr || it.run == nullptr)
      continue;
    const uint64_t want = sim::MaxLiveWarps(*it.run, ref);
    int r = it.kernel->regs_per_thread;
    if (sim::MaxLiveWarps(*it.run, b.sm, r) >= want)
      continue;
    while (r > kMinRegs && sim::MaxLiveWarps(*it.run, b.sm, r) < want)
      --r;
    budget = std::min(budget, std::max(kMinRegs, r));
  }
  return budget;
}

// `values`: record the lanes' register values (the RTL in the loop drives them).
Loaded LoadAll(const std::vector<std::string>& names, const RecordLimit& limit, bool values,
               const CompileBudget& budget = {}) {
  std::vector<std::pair<std::string, bool>> expanded;
  for (const auto& n : names) {
    if (n == "all") {
      for (const auto& w : sim::ListWorkloads(sim::DefaultCorpusDir()))
        expanded.emplace_back(w, true);
    } else {
      expanded.emplace_back(n, false);
    }
  }
  Loaded l;
  for (const auto& [n, from_all] : expanded) {
    PtxLoadOptions ptx;
    ptx.values = values;
    ptx.max_regs = budget.max_regs;
    l.owners.push_back(LoadWorkloadKernels(n, limit, ptx));
    if (budget.fit_registers > 0) {
      const int fit = FitBudget(l.owners.back(), budget);
      bool over = false;  // a kernel uses more registers than the budget: recompile
      for (const auto& it : l.owners.back().kernels)
        over = over || it.kernel->regs_per_thread > fit;
      if (over) {
        // The compiler-spill baseline: the workload again with the smaller budget.
        std::string was;
        for (const auto& it : l.owners.back().kernels)
          was += fmt::format(" {}{}={}", it.kernel->name, it.launch, it.kernel->regs_per_thread);
        ptx.max_regs = fit;
        l.owners.back() = LoadWorkloadKernels(n, limit, ptx);
        spdlog::info(
            "workload {}: compiled with at most {} registers per thread (at {}:{}) so "
            "that the CTAs of a {}-register file fit {} registers",
            n, fit, budget.max_regs, was, budget.fit_registers, budget.sm.registers);
      }
    }
    for (const auto& it : l.owners.back().kernels) {
      // A workload of several launches: one entry per executed launch, "bfs#2".
      l.kernels.push_back({n + it.launch, it.kernel, it.run});
      l.from_all.push_back(from_all);
    }
  }
  return l;
}

struct Skipped {
  std::string workload, kernel, reason;
};

// Drops the kernels that cannot run on the SM of every design (see harness_cmd.h).
std::vector<Skipped> DropUnfit(Loaded& l, const std::vector<DesignSpec>& designs,
                               const h::DriverOptions& o) {
  std::vector<Skipped> skipped;
  std::vector<h::WorkloadKernel> keep;
  size_t runnable = 0;
  for (size_t i = 0; i < l.kernels.size(); ++i) {
    const h::WorkloadKernel& wk = l.kernels[i];
    std::string reason;
    if (wk.kernel != nullptr && wk.run != nullptr) {
      ++runnable;
      for (const auto& d : designs) {
        bool two_level = false;
        const std::string p = sim::CtaFitProblem(*wk.run, h::SmConfigFor(d, o, two_level));
        if (!p.empty()) {
          reason = fmt::format("{} (design {})", p, d.name);
          if (!l.from_all[i])
            throw InputError({d.source, 0, 0}, "--workload", wk.workload, reason,
                             "kernels whose CTA fits the design's SM (sm.warps, sm.registers, "
                             "shared memory), or a larger SM");
          break;
        }
      }
    }
    if (reason.empty()) {
      keep.push_back(wk);
    } else {
      spdlog::warn("skipping kernel {} of workload {}: {}", wk.kernel->name, wk.workload, reason);
      skipped.push_back({wk.workload, wk.kernel->name, reason});
    }
  }
  if (runnable > 0 && runnable == skipped.size())
    throw InputError({designs.front().source, 0, 0}, "--workload", "all",
                     fmt::format("none of the {} kernels fits the design's SM (first: {})",
                                 runnable, skipped.front().reason),
                     "a design whose SM holds one CTA of some corpus kernel");
  l.kernels = std::move(keep);
  return skipped;
}

std::string SkippedMarkdown(const std::vector<Skipped>& s) {
  if (s.empty())
    return {};
  std::string out = "\nSkipped kernels (they cannot run on the SM of every design):\n\n";
  for (const auto& k : s)
    out += fmt::format("- `{}` (workload {}): {}\n", k.kernel, k.workload, k.reason);
  return out;
}

// CSV readers that honour comments (pandas comment='#') skip these lines.
std::string SkippedCsv(const std::vector<Skipped>& s) {
  auto field = [](const std::string& f) {  // RFC 4180 quoting: the reasons hold commas
    if (f.find_first_of(",\"\n") == std::string::npos)
      return f;
    std::string q = "\"";
    for (char c : f)
      q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
  };
  std::string out;
  for (const auto& k : s)
    out += fmt::format("# skipped,{},{},{}\n", field(k.workload), field(k.kernel), field(k.reason));
  return out;
}

// The kernels a design's RTL in the loop could not hold (RunDesign skipped them).
void AddRtlSkipped(const h::DesignResult& r, std::vector<Skipped>& skipped) {
  for (const auto& k : r.rtl_skipped) {
    spdlog::warn("skipping kernel {} of workload {} with the RTL in the loop: {}", k.kernel,
                 k.workload, k.reason);
    skipped.push_back(
        {k.workload, k.kernel, fmt::format("RTL in the loop: {} (design {})", k.reason, r.design)});
  }
}

nlohmann::ordered_json SkippedJson(const std::vector<Skipped>& s) {
  auto j = nlohmann::ordered_json::array();
  for (const auto& k : s)
    j.push_back({{"workload", k.workload}, {"kernel", k.kernel}, {"reason", k.reason}});
  return j;
}

h::DriverOptions Options(const HarnessArgs& a) {
  h::DriverOptions o;
  o.energies_json = a.energies;
  for (const std::string& path : a.characterizations) {
    for (auto& c : sp::LoadStructureCharacterizations(path))
      o.characterizations.push_back(std::move(c));
  }
  o.harness.liveness_hints = !a.no_hints;
  if (a.active_warps < 0 || a.active_warps > 64) {
    throw InputError({}, "--active-warps", std::to_string(a.active_warps), "out of range",
                     "1..64 (at most the design's warps)");
  }
  o.active_warps = a.active_warps;
  o.scheduler = a.scheduler;
  o.inner_policy = a.inner_policy;
  o.rtl.mode = a.lockstep             ? h::RfMode::kLockstep
               : (a.rtl || a.rtl_top) ? h::RfMode::kRtl
                                      : h::RfMode::kModels;
  o.rtl.top = a.rtl_top;
  o.rtl.build.cache_dir = a.cache_dir;
  o.gpu = a.gpu;
  h::CheckGpuCliOptions(o.gpu);
  return o;
}

// Bad input of the design's GPU (its gpu: section with --gpu/--sms/--memory) or --active-warps,
// before any workload is loaded.
void CheckDesign(const DesignSpec& d, const h::DriverOptions& o) {
  const int warps = h::ResolveGpu(d, o.gpu).sm.warps;
  if (o.active_warps > warps) {
    throw InputError({d.source, 0, 0}, "--active-warps", std::to_string(o.active_warps),
                     fmt::format("more than the design's {} warps", warps),
                     fmt::format("1..{}", warps));
  }
}

// Bad --characterization input before any workload is loaded: a report none of whose modules
// prices a structure of `designs`, two of one kind, or a component a design needs missing.
void CheckCharacterizations(const std::vector<DesignSpec>& designs, const h::DriverOptions& o) {
  if (o.characterizations.empty())
    return;
  std::vector<std::string> kinds;
  for (const auto& d : designs) {
    for (const auto& k : h::HarnessHierarchyOf(d).characterized_kinds) {
      if (std::find(kinds.begin(), kinds.end(), k) == kinds.end())
        kinds.push_back(k);
    }
  }
  std::map<std::string, std::string> seen;  // kind -> file
  std::map<std::string, std::vector<const sp::StructureCharacterization*>> by_file;
  for (const auto& c : o.characterizations)
    by_file[c.file].push_back(&c);
  for (const auto& [file, mods] : by_file) {
    bool used = false;
    std::vector<std::string> have;
    for (const sp::StructureCharacterization* c : mods) {
      have.push_back(c->kind);
      if (std::find(kinds.begin(), kinds.end(), c->kind) == kinds.end())
        continue;
      used = true;
      if (auto it = seen.find(c->kind); it != seen.end() && it->second != file) {
        throw InputError(
            {file, 0, 0}, fmt::format("modules[{}].kind", c->index), c->kind,
            fmt::format("a second characterization of this kind (the first: {})", it->second),
            "one characterization per structure kind");
      }
      seen[c->kind] = file;
    }
    if (!used) {
      throw InputError(
          {file, 0, 0}, "modules[].kind", fmt::format("{}", fmt::join(have, ", ")),
          "no structure of the design's hierarchy is priced from a characterization of this kind",
          kinds.empty() ? std::string("none: the design's hierarchy takes no characterization")
                        : fmt::format("{}", fmt::join(kinds, ", ")));
    }
  }
  // A component a hierarchy needs and the characterization lacks: now, not after the runs.
  for (const auto& d : designs) {
    energy::Energies e;
    sp::RegisterFileEnergies pe;
    h::EnergiesFor(d, 1, o.energies_json, e, pe, o.characterizations);
  }
}

// Counts `c`, indexed like `e`: per level by name, then the events per component by name.
nlohmann::ordered_json CountsJson(const energy::AccessCounts& c, const energy::Energies& e) {
  nlohmann::ordered_json j;
  for (size_t l = 0; l < e.levels.size(); ++l) {
    const auto& lc = c.levels[l];
    j[e.levels[l].name] = {{"reads_private", lc.reads[0]},
                           {"reads_shared", lc.reads[1]},
                           {"writes_private", lc.writes[0]},
                           {"writes_shared", lc.writes[1]},
                           {"writebacks", lc.writebacks},
                           {"fills", lc.fills},
                           {"drains", lc.drains}};
  }
  j["events"] = nlohmann::ordered_json::object();
  for (size_t k = 0; k < e.components.size(); ++k)
    j["events"][e.components[k].name] = c.events[k];
  return j;
}

// The uniform-random access energy of the level `name` in `b` (0 when it has none).
// The access energy of the levels whose toggles data-activity level `name` counts (a level
// names its activity level, energy::LevelEnergy::activity: the hybrid's RC is L0's, else it is
// its own name's).
double AccessPj(const energy::Breakdown& b, const std::string& name) {
  double pj = 0;
  for (const energy::LevelBreakdown& l : b.levels)
    pj += (l.activity.empty() ? l.name : l.activity) == name ? l.access_pj : 0.0;
  return pj;
}

// The energy of FineReg's PCRF row accesses in `b` (its components that are one row each,
// h::DataActivity::kPcrfRowComponents).
double PcrfRowPj(const energy::Breakdown& b) {
  double pj = 0;
  for (const char* name : h::DataActivity::kPcrfRowComponents) {
    if (const energy::ComponentBreakdown* c = b.FindComponent(name))
      pj += c->pj;
  }
  return pj;
}

nlohmann::ordered_json MemoryJson(const sim::mem::MemStats& m) {
  nlohmann::ordered_json j;
  j["warp_accesses"] = m.warp_accesses;
  auto level = [](const sim::mem::LevelStats& l) {
    return nlohmann::ordered_json{{"accesses", l.accesses},
                                  {"hits", l.hits},
                                  {"misses", l.misses},
                                  {"mshr_merges", l.mshr_merges},
                                  {"reservation_stalls", l.reservation_stalls},
                                  {"bank_conflicts", l.bank_conflicts},
                                  {"bytes", l.bytes}};
  };
  j["l1d"] = level(m.l1d);
  j["shared"] = level(m.shared);
  j["constant"] = level(m.constant);
  j["l2"] = level(m.l2);
  j["dram"] = level(m.dram);
  return j;
}

// Where each level's and component's per-access figures come from (Gebhart, an estimate, our
// characterization report), as the design's hierarchy named them.
nlohmann::ordered_json SourcesJson(const energy::Energies& e) {
  nlohmann::ordered_json j;
  j["levels"] = nlohmann::ordered_json::object();
  for (const auto& l : e.levels)
    j["levels"][l.name] = l.source;
  j["components"] = nlohmann::ordered_json::object();
  for (const auto& c : e.components)
    j["components"][c.name] = c.source;
  return j;
}

std::string SourcesMarkdown(const h::DesignResult& r) {
  std::string s = fmt::format("\nEnergy figures of {}:\n", r.hierarchy);
  for (const auto& l : r.energies.levels)
    s += fmt::format("- {}: {}\n", l.name, l.source);
  for (const auto& c : r.energies.components)
    s += fmt::format("- {}: {}\n", c.name, c.source);
  return s;
}

nlohmann::ordered_json ResultJson(const h::DesignResult& r) {
  nlohmann::ordered_json j;
  j["design"] = r.design;
  j["hierarchy"] = r.hierarchy;
  j["energy_sources"] = SourcesJson(r.energies);
  j["active_warps"] = r.sm.active_warps;
  j["two_level"] = r.two_level;
  j["inner_policy"] = r.inner_policy;
  j["gpu"] = {{"preset", r.gpu.preset},
              {"sms", r.gpu.sms},
              {"schedulers", r.sm.schedulers},
              {"issue_width", r.sm.issue_width},
              {"policy", sim::WarpPolicyName(r.sm.policy)},
              {"memory", r.gpu.mem.ideal ? "ideal" : "hierarchy"}};
  j["ipc"] = r.Ipc();
  j["baseline_ipc"] = r.BaseIpc();
  j["cycles"] = r.cycles;
  j["warp_instructions"] = r.warp_instructions;
  j["counts"] = CountsJson(r.counts, r.energies);
  j["bank_conflicts"] = {{"private", r.bank_conflicts[0]}, {"shared", r.bank_conflicts[1]}};
  j["energy"] = r.energy.ToJson();
  j["baseline_energy_pj"] = r.base_energy.total_pj();
  j["normalized"] = r.Normalized();
  if (!r.gpu.mem.ideal)
    j["memory"] = MemoryJson(r.mem);
  j["sim_seconds"] = r.sim_seconds;
  j["baseline_seconds"] = r.base_seconds;
  j["wall_seconds"] = r.wall_seconds;
  j["warp_instructions_per_second"] =
      r.sim_seconds > 0 ? static_cast<double>(r.warp_instructions) / r.sim_seconds : 0.0;
  j["rf_mode"] = h::RfModeName(r.mode);
  if (r.mode != h::RfMode::kModels)
    j["rtl_granularity"] = r.rtl_top ? "system" : "structures";
  if (!r.rtl_sm.empty())
    j["rtl_sm"] = r.rtl_sm;
  if (r.mode != h::RfMode::kModels) {
    nlohmann::ordered_json a;
    a["values"] = r.values ? "kernel" : "pseudo-random";
    a["value_checks"] = r.activity.value_checks;
    a["rtl_cycles"] = r.activity.rtl_cycles;
    a["dropped_result_writes"] = r.activity.dropped_result_writes;
    a["pcrf_restored_rows"] = r.activity.restored_rows;
    a["pcrf_restored_superseded"] = r.activity.restored_superseded;
    a["vector_cache_lookups"] = r.activity.vector_lookups;
    a["status_monitor_decisions"] = r.activity.status_decisions;
    a["status_monitor_multi_ready"] = r.activity.status_multi_ready;
    for (size_t l = 0; l < r.activity.level.size(); ++l) {
      const auto& la = r.activity.level[l];
      const std::string name = h::DataActivity::LevelName(l);
      a["levels"][name] = {{"transfers", la.transfers},
                           {"bits", la.bits},
                           {"toggles", la.toggles},
                           {"activity", la.Activity()},
                           {"uniform_access_pj", AccessPj(r.energy, name)},
                           {"data_access_pj", AccessPj(r.data_energy, name)}};
    }
    if (r.activity.pcrf.transfers > 0) {
      const auto& la = r.activity.pcrf;
      a["levels"]["PCRF"] = {{"transfers", la.transfers},
                             {"bits", la.bits},
                             {"toggles", la.toggles},
                             {"activity", la.Activity()},
                             {"uniform_access_pj", PcrfRowPj(r.energy)},
                             {"data_access_pj", PcrfRowPj(r.data_energy)}};
    }
    a["data_energy_pj"] = r.data_energy.total_pj();
    j["rtl"] = a;
  }
  auto& ks = j["kernels"] = nlohmann::ordered_json::array();
  for (const auto& k : r.kernels) {
    nlohmann::ordered_json kj;
    kj["workload"] = k.workload;
    kj["kernel"] = k.kernel;
    kj["cycles"] = k.sm.cycles;
    kj["warp_instructions"] = k.sm.warp_instructions;
    kj["ipc"] = k.sm.Ipc();
    kj["baseline_ipc"] = k.base_sm.Ipc();
    kj["counts"] = CountsJson(k.rf.counts, r.energies);
    for (const auto& [name, v] : k.rf.extra)
      kj["hierarchy_stats"][name] = v;
    kj["bank_conflicts"] = {{"private", k.rf.bank_conflicts[0]},
                            {"shared", k.rf.bank_conflicts[1]}};
    kj["sm_stats"] = {{"dual_issues", k.sm.dual_issues},
                      {"alloc_stalls", k.sm.alloc_stalls},
                      {"mem_stalls", k.sm.mem_stalls},
                      {"cta_refusals", k.sm.cta_refusals},
                      {"max_resident_ctas", k.sm.max_resident_ctas}};
    if (k.sms.size() > 1) {
      auto& per = kj["sms"] = nlohmann::ordered_json::array();
      for (const auto& sm : k.sms)
        per.push_back({{"cycles", sm.cycles},
                       {"warp_instructions", sm.warp_instructions},
                       {"ctas", sm.ctas},
                       {"ipc", sm.Ipc()}});
    }
    if (!r.gpu.mem.ideal)
      kj["memory"] = MemoryJson(k.mem);
    if (r.base_simulated) {
      // The MRF-only baseline run beside the design: what the papers' CTA, stall and memory
      // traffic ratios divide by.
      auto& b = kj["baseline"];
      b["cycles"] = k.base_sm.cycles;
      b["warp_instructions"] = k.base_sm.warp_instructions;
      b["max_resident_ctas"] = k.base_sm.max_resident_ctas;
      b["mem_stalls"] = k.base_sm.mem_stalls;
      if (!r.gpu.mem.ideal)
        b["memory"] = MemoryJson(k.base_mem);
    }
    if (r.gpu.mem.unified_bytes != 0)
      kj["l1d_bytes"] = k.l1d_bytes;  // the unified memory's share for this kernel
    kj["energy_pj"] = k.energy.total_pj();
    kj["baseline_energy_pj"] = k.base_energy.total_pj();
    if (!k.rtl_sm.empty())
      kj["rtl_sm"] = k.rtl_sm;
    ks.push_back(kj);
  }
  return j;
}

// Counts `c`, indexed like `e`: a row per level, then the events per component.
std::string CountsTable(const energy::AccessCounts& c, const energy::Energies& e,
                        const std::array<uint64_t, energy::kNumUnits>& conflicts) {
  std::string s =
      fmt::format("  {:<4} {:>12} {:>12} {:>12} {:>12} {:>11} {:>10} {:>10}\n", "lvl", "rd private",
                  "rd shared", "wr private", "wr shared", "write-backs", "fills", "drains");
  for (size_t l = 0; l < e.levels.size(); ++l) {
    const auto& lc = c.levels[l];
    s += fmt::format("  {:<4} {:>12} {:>12} {:>12} {:>12} {:>11} {:>10} {:>10}\n", e.levels[l].name,
                     lc.reads[0], lc.reads[1], lc.writes[0], lc.writes[1], lc.writebacks, lc.fills,
                     lc.drains);
  }
  s += " ";
  for (size_t k = 0; k < e.components.size(); ++k)
    s += fmt::format(" {} {},", e.components[k].name, c.events[k]);
  s += fmt::format(" MRF bank conflicts {} private / {} shared (register-cycles)\n", conflicts[0],
                   conflicts[1]);
  return s;
}

// RTL in the loop: what ran, what was checked, and the data-dependent switching energy beside
// the uniform-random estimate.
std::string RtlSummary(const h::DesignResult& r) {
  if (r.mode == h::RfMode::kModels)
    return {};
  const double wi = static_cast<double>(r.warp_instructions);
  std::string s = fmt::format(
      "RTL in the loop ({}): {} RTL cycles, {} rows checked against {}; {:.0f} warp "
      "instructions/s\n",
      r.mode == h::RfMode::kLockstep
          ? (r.rtl_top ? "rf_system top in lockstep with its golden model, zero divergence"
                       : "lockstep with the golden models, zero divergence")
          : (r.rtl_top ? "Verilated rf_system top" : "Verilated structures"),
      r.activity.rtl_cycles, r.activity.value_checks,
      r.values ? "the kernel's register values"
               : "the rows written (pseudo-random data: the run "
                 "recorded no values)",
      r.sim_seconds > 0 ? wi / r.sim_seconds : 0.0);
  if (!r.rtl_sm.empty())
    s += fmt::format("  {}\n", r.rtl_sm);
  for (const auto& k : r.kernels) {
    if (!k.rtl_sm.empty())
      s += fmt::format("  kernel {} ({}): {}\n", k.kernel, k.workload, k.rtl_sm);
  }
  if (r.activity.dropped_result_writes > 0)
    s += fmt::format(
        "  {} ORF result writes dropped: their warp was descheduled before they "
        "arrived\n",
        r.activity.dropped_result_writes);
  // FineReg's register management unit (only the structures the design has in the loop).
  std::vector<std::string> rmu;
  if (r.activity.restored_rows > 0)
    rmu.push_back(
        fmt::format("{} rows walked out of the PCRF RTL, each the row saved ({} "
                    "superseded by a result landing while switched out, the rest equal "
                    "to the kernel's value)",
                    r.activity.restored_rows, r.activity.restored_superseded));
  if (r.activity.vector_lookups > 0)
    rmu.push_back(
        fmt::format("{} live-vector-cache lookups with the system's hit/miss and "
                    "registers",
                    r.activity.vector_lookups));
  if (r.activity.status_decisions > 0)
    rmu.push_back(
        fmt::format("{} CTA status monitor decisions the system's ({} with several ready "
                    "candidates)",
                    r.activity.status_decisions, r.activity.status_multi_ready));
  if (!rmu.empty())
    s += fmt::format("  FineReg: {}\n", fmt::join(rmu, "; "));
  s += "data-dependent switching (toggles on the data ports; uniform random data toggles half "
       "the bits):\n";
  s += fmt::format("  {:<4} {:>12} {:>14} {:>9} {:>16} {:>16}\n", "lvl", "row transfers",
                   "bits toggled", "activity", "uniform pJ", "data pJ");
  for (size_t l = 0; l < r.activity.level.size(); ++l) {
    const auto& la = r.activity.level[l];
    const std::string name = h::DataActivity::LevelName(l);
    s += fmt::format("  {:<4} {:>12} {:>14} {:>9.3f} {:>16.1f} {:>16.1f}\n", name, la.transfers,
                     la.toggles, la.Activity(), AccessPj(r.energy, name),
                     AccessPj(r.data_energy, name));
  }
  if (r.activity.pcrf.transfers > 0) {
    const auto& la = r.activity.pcrf;
    s += fmt::format(
        "  {:<4} {:>12} {:>14} {:>9.3f} {:>16.1f} {:>16.1f}  (appends and walks, "
        "the lane cluster's bits; its tag+row writes and chain hops)\n",
        "PCRF", la.transfers, la.toggles, la.Activity(), PcrfRowPj(r.energy),
        PcrfRowPj(r.data_energy));
  }
  const double b = r.base_energy.total_pj();
  s += fmt::format(
      "  total {:.1f} nJ data-dependent vs {:.1f} nJ uniform-random ({:.3f} vs {:.3f} "
      "of the MRF-only baseline)\n",
      r.data_energy.total_pj() / 1e3, r.energy.total_pj() / 1e3,
      b > 0 ? r.data_energy.total_pj() / b : 0.0, b > 0 ? r.energy.total_pj() / b : 0.0);
  return s;
}

std::string Header(const h::DesignResult& r) {
  return fmt::format(
      "design {}: {}; SM {} lanes, {} warps, {} scheduling{} ({})\n"
      "  GPU {}: {} SM{}, {} scheduler{} x {} issue per SM, {} KB registers per SM, {} memory\n",
      r.design, r.hierarchy, r.sm.lanes, r.sm.warps, r.two_level ? "two-level" : "single-level",
      r.two_level ? fmt::format(" with {} active", r.sm.active_warps) : "",
      // Without the design's two-level scheduler a GTO or loose round-robin GPU selects by its
      // own policy (driver.cc Policies).
      !r.two_level && r.sm.policy != sim::WarpPolicy::kTwoLevel
          ? std::string(sim::WarpPolicyName(r.sm.policy)) + " selection"
          : r.inner_policy + " inner",
      r.gpu.preset, r.gpu.sms, r.gpu.sms == 1 ? "" : "s", r.sm.schedulers,
      r.sm.schedulers == 1 ? "" : "s", r.sm.issue_width, r.sm.registers / 256,
      r.gpu.mem.ideal ? "ideal (fixed-latency)" : "hierarchy");
}

// The memory hierarchy's statistics per level (--stats).
std::string MemoryTable(const sim::mem::MemStats& m) {
  std::string s = fmt::format("  {:<8} {:>11} {:>11} {:>11} {:>12} {:>12} {:>12} {:>12}\n",
                              "memory", "accesses", "hits", "misses", "MSHR merges", "reserv. fail",
                              "bank confl.", "bytes");
  auto row = [&](const char* name, const sim::mem::LevelStats& l) {
    s += fmt::format("  {:<8} {:>11} {:>11} {:>11} {:>12} {:>12} {:>12} {:>12}\n", name, l.accesses,
                     l.hits, l.misses, l.mshr_merges, l.reservation_stalls, l.bank_conflicts,
                     l.bytes);
  };
  row("L1D", m.l1d);
  row("shared", m.shared);
  row("const", m.constant);
  row("L2", m.l2);
  row("DRAM", m.dram);
  return s;
}

// Per-SM IPC of a kernel (--stats): the busiest and idlest SMs and how many ran at all.
std::string PerSmLine(const h::KernelResult& k) {
  if (k.sms.size() <= 1)
    return {};
  double lo = 1e300, hi = 0;
  size_t used = 0;
  for (const auto& s : k.sms) {
    if (s.warp_instructions == 0)
      continue;
    ++used;
    lo = std::min(lo, s.Ipc());
    hi = std::max(hi, s.Ipc());
  }
  return fmt::format("  SMs: {} of {} ran CTAs, per-SM IPC {:.3f}..{:.3f}, whole GPU {:.3f}\n",
                     used, k.sms.size(), used ? lo : 0.0, hi, k.sm.Ipc());
}

}  // namespace

CLI::App* AddSimCommand(CLI::App& app, HarnessArgs& a) {
  CLI::App* cmd = app.add_subcommand(
      "sim", "simulate a design's register-file hierarchy (C++ models) in the SM timing model");
  cmd->add_option("design", a.designs, "design .yaml")->required()->expected(1);
  AddCommon(cmd, a);
  cmd->add_flag("--stats", a.stats, "per kernel access counts and stall statistics");
  return cmd;
}

CLI::App* AddEnergyCommand(CLI::App& app, HarnessArgs& a) {
  CLI::App* cmd = app.add_subcommand(
      "energy", "register-file energy of one or more designs, normalized to the MRF-only baseline");
  cmd->add_option("designs", a.designs, "design .yaml files")->required();
  AddCommon(cmd, a);
  cmd->add_option("--csv", a.csv, "write the breakdown as CSV");
  cmd->add_option("--svg", a.svg, "write a stacked-bar SVG chart of the breakdown");
  cmd->add_option("--md", a.md, "write the Markdown table");
  cmd->add_option("--title", a.title, "chart title");
  return cmd;
}

int RunSimCommand(const HarnessArgs& a) {
  const DesignSpec d = LoadDesign(a.designs.at(0));
  const h::DriverOptions o = Options(a);
  CheckDesign(d, o);
  CheckCharacterizations({d}, o);
  if (!a.json.empty())
    CheckOutputPath(a.json, "--json");
  Loaded l = LoadAll(a.workloads, a.record, a.rtl || a.lockstep || a.rtl_top, BudgetOf(d, o));
  std::vector<Skipped> skipped = DropUnfit(l, {d}, o);
  h::DesignResult r;
  try {
    r = h::RunDesign(d, l.kernels, o);
    AddRtlSkipped(r, skipped);
  } catch (const InputError&) {
    throw;
  } catch (const ToolError&) {
    throw;
  } catch (const std::runtime_error& e) {
    fmt::print(stderr, "gpurf: sim: {}\n", e.what());
    return kExitCheckFailed;
  }
  fmt::print("{}", Header(r));
  fmt::print("  {:<22} {:<28} {:>10} {:>11} {:>7} {:>8} {:>8}\n", "workload", "kernel", "cycles",
             "warp-insts", "IPC", "base IPC", "energy");
  for (const auto& k : r.kernels) {
    const double b = k.base_energy.total_pj();
    fmt::print("  {:<22} {:<28} {:>10} {:>11} {:>7.3f} {:>8.3f} {:>8.3f}\n", k.workload,
               k.kernel.substr(0, 28), k.sm.cycles, k.sm.warp_instructions, k.sm.Ipc(),
               k.base_sm.Ipc(), b > 0 ? k.energy.total_pj() / b : 0.0);
    if (a.stats) {
      fmt::print("{}", CountsTable(k.rf.counts, r.energies, k.rf.bank_conflicts));
      fmt::print(
          "  stalls: idle {} scoreboard {} unit {} register-file {}; operand delay {} cycles; "
          "(de)activations {}/{}; RFC flushes {}, dead kills {}; MrfCore reads {} conflicts {} "
          "collector stalls {}, dispatches off the prediction {}\n",
          k.sm.idle_cycles, k.sm.scoreboard_stalls, k.sm.unit_stalls, k.sm.rf_stalls,
          k.sm.operand_delay_cycles, k.sm.activations, k.sm.deactivations, k.rf.flushes,
          k.rf.dead_kills, k.rf.core_reads, k.rf.core_conflicts, k.rf.core_issue_stalls,
          k.rf.dispatch_mismatches);
      if (!k.rf.extra.empty()) {
        std::string line;
        for (const auto& [name, v] : k.rf.extra)
          line += fmt::format("{}{} {}", line.empty() ? "" : ", ", name, v);
        fmt::print("  {}: {}\n", r.hierarchy.substr(0, r.hierarchy.find(':')), line);
      }
      if (k.sm.dual_issues + k.sm.alloc_stalls + k.sm.mem_stalls + k.sm.cta_refusals > 0)
        fmt::print(
            "  dual issues {}, allocation stalls {}, memory reservation stalls {}, CTA "
            "launches refused {}\n",
            k.sm.dual_issues, k.sm.alloc_stalls, k.sm.mem_stalls, k.sm.cta_refusals);
      fmt::print("{}", PerSmLine(k));
      if (!r.gpu.mem.ideal)
        fmt::print("{}", MemoryTable(k.mem));
    }
  }
  fmt::print("total: {} cycles, {} warp instructions, IPC {:.3f} (MRF-only baseline {:.3f})\n",
             r.cycles, r.warp_instructions, r.Ipc(), r.BaseIpc());
  fmt::print("{}", CountsTable(r.counts, r.energies, r.bank_conflicts));
  if (a.stats && !r.gpu.mem.ideal)
    fmt::print("{}", MemoryTable(r.mem));
  if (a.stats) {
    const double wi = static_cast<double>(r.warp_instructions);
    const std::string base =
        r.base_simulated
            ? fmt::format("the MRF-only baseline {:.2f} s on a thread beside it", r.base_seconds)
            : std::string("the design is the MRF-only baseline");
    fmt::print(
        "simulation: the design {:.2f} s ({:.0f} warp instructions/s), {} (CPU seconds of each "
        "thread); {:.2f} s wall clock ({:.0f} warp instructions/s)\n",
        r.sim_seconds, r.sim_seconds > 0 ? wi / r.sim_seconds : 0.0, base, r.wall_seconds,
        r.wall_seconds > 0 ? wi / r.wall_seconds : 0.0);
  }
  const double b = r.base_energy.total_pj();
  fmt::print("energy: {:.1f} nJ = {:.3f} of the MRF-only baseline ({:.1f} nJ)\n",
             r.energy.total_pj() / 1e3, b > 0 ? r.energy.total_pj() / b : 0.0, b / 1e3);
  for (const auto& lb : r.energy.levels)
    fmt::print("  {:<4} access {:>12.1f} pJ  wire {:>12.1f} pJ\n", lb.name, lb.access_pj,
               lb.wire_pj);
  for (const auto& c : r.energy.components)
    fmt::print("  {} {:.1f} pJ\n", c.name, c.pj);
  fmt::print("{}", RtlSummary(r));
  for (const auto& k : skipped)
    fmt::print("skipped: kernel {} of workload {}: {}\n", k.kernel, k.workload, k.reason);
  if (!a.json.empty()) {
    nlohmann::ordered_json j = ResultJson(r);
    j["skipped"] = SkippedJson(skipped);
    WriteOutputFile(a.json, j.dump(2) + "\n", "--json");
  }
  return kExitOk;
}

int RunEnergyCommand(const HarnessArgs& a) {
  const h::DriverOptions o = Options(a);
  std::vector<DesignSpec> designs;
  for (const auto& p : a.designs) {
    designs.push_back(LoadDesign(p));
    CheckDesign(designs.back(), o);
  }
  CheckCharacterizations(designs, o);
  for (const auto& [path, option] : {std::pair{a.csv, "--csv"}, std::pair{a.svg, "--svg"},
                                     std::pair{a.md, "--md"}, std::pair{a.json, "--json"}}) {
    if (!path.empty())
      CheckOutputPath(path, option);
  }
  // One compilation of the workloads serves every design: their compiler sections must agree.
  const CompileBudget budget = BudgetOf(designs.front(), o);
  for (const auto& d : designs) {
    if (!(BudgetOf(d, o) == budget))
      throw InputError({d.source, 0, 0}, "compiler", d.name,
                       fmt::format("its compiler section (or, with compiler.fit_registers, "
                                   "sm.registers) differs from design {}'s",
                                   designs.front().name),
                       "designs of one energy run compiled alike (run the others apart)");
  }
  Loaded l = LoadAll(a.workloads, a.record, a.rtl || a.lockstep || a.rtl_top, budget);
  std::vector<Skipped> skipped = DropUnfit(l, designs, o);
  std::vector<h::DesignResult> results;
  try {
    for (const auto& d : designs)
      results.push_back(h::RunDesign(d, l.kernels, o));
    for (const auto& r : results)
      AddRtlSkipped(r, skipped);
  } catch (const InputError&) {
    throw;
  } catch (const ToolError&) {
    throw;
  } catch (const std::runtime_error& e) {
    fmt::print(stderr, "gpurf: energy: {}\n", e.what());
    return kExitCheckFailed;
  }
  const double base = results.front().base_energy.total_pj();
  if (base <= 0) {
    fmt::print(stderr, "gpurf: energy: the workloads have no register accesses\n");
    return kExitCheckFailed;
  }
  for (const auto& r : results) {
    if (std::abs(r.base_energy.total_pj() - base) > 1e-9 * base) {
      fmt::print(stderr,
                 "gpurf: energy: note: design {} has another MRF-only baseline ({:.1f} vs {:.1f} "
                 "pJ; different SM or energies); all bars are normalized to the first's\n",
                 r.design, r.base_energy.total_pj(), base);
    }
  }
  // The baseline as a configuration: the MRF-only run of the first design's SM.
  std::vector<energy::ConfigEnergy> configs;
  configs.push_back({"MRF only (baseline)", results.front().base_energy});
  for (const auto& r : results)
    configs.push_back({r.hierarchy, r.energy});
  fmt::print("{}", energy::RenderMarkdown(configs, base));
  fmt::print("\n| configuration | IPC | baseline IPC | IPC ratio |\n|---|---:|---:|---:|\n");
  for (const auto& r : results) {
    fmt::print("| {} | {:.3f} | {:.3f} | {:.3f} |\n", r.hierarchy, r.Ipc(), r.BaseIpc(),
               r.BaseIpc() > 0 ? r.Ipc() / r.BaseIpc() : 0.0);
  }
  for (const auto& r : results) {
    if (r.mode != h::RfMode::kModels)
      fmt::print("\n{}: {}", r.hierarchy, RtlSummary(r));
  }
  for (const auto& r : results)
    fmt::print("{}", SourcesMarkdown(r));
  fmt::print("{}", SkippedMarkdown(skipped));
  const std::string title =
      a.title.empty() ? "Register-file energy normalized to the MRF-only baseline" : a.title;
  if (!a.csv.empty())
    WriteOutputFile(a.csv, energy::RenderCsv(configs, base) + SkippedCsv(skipped), "--csv");
  if (!a.svg.empty())
    WriteOutputFile(a.svg, energy::RenderSvg(configs, base, title), "--svg");
  if (!a.md.empty())
    WriteOutputFile(a.md, energy::RenderMarkdown(configs, base) + SkippedMarkdown(skipped), "--md");
  if (!a.json.empty()) {
    nlohmann::ordered_json j;
    j["breakdown"] = energy::RenderJson(configs, base);
    j["skipped"] = SkippedJson(skipped);
    auto& rs = j["designs"] = nlohmann::ordered_json::array();
    for (const auto& r : results)
      rs.push_back(ResultJson(r));
    WriteOutputFile(a.json, j.dump(2) + "\n", "--json");
  }
  return kExitOk;
}

}  // namespace gpurf
