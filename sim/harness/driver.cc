#include "sim/harness/driver.h"

#include <fmt/format.h>

#include <algorithm>
#include <ctime>

#include "gen/config/hierarchy.h"
#include "sim/harness/hierarchy.h"
#include "sim/harness/rtl_top.h"
#include "sim/passes/analysis.h"

namespace gpurf::harness {

namespace sp = sim::passes;

double DesignResult::Ipc() const {
  return cycles ? static_cast<double>(warp_instructions) / static_cast<double>(cycles) : 0.0;
}
double DesignResult::BaseIpc() const {
  return base_cycles ? static_cast<double>(warp_instructions) / static_cast<double>(base_cycles)
                     : 0.0;
}
double DesignResult::Normalized() const {
  const double b = base_energy.total_pj();
  return b > 0 ? energy.total_pj() / b : 0.0;
}

sim::SmConfig SmConfigFor(const DesignSpec& d, const DriverOptions& o, bool& two_level) {
  // lanes, warps, active warps and registers are the design's unless a GPU says otherwise
  // (sim/harness/gpu.h); the rest of the SM is the preset's.
  sim::SmConfig sm = ResolveGpu(d, o.gpu).sm;
  if (o.active_warps > 0)
    sm.active_warps = o.active_warps;
  const std::string& sched = o.scheduler.empty() ? d.scheduler : o.scheduler;
  two_level = sched == "two-level" && sm.active_warps < sm.warps;
  if (!two_level)
    sm.active_warps = sm.warps;
  return sm;
}

void EnergiesFor(const DesignSpec& d, int slots, const std::string& json, energy::Energies& e,
                 sp::RegisterFileEnergies& pe) {
  // The compiler passes' defaults for the design's allocation, overridden by the JSON.
  pe = sp::DefaultEnergies(PassOptionsFor(d), slots);
  if (!json.empty())
    pe = sp::LoadRegisterFileEnergies(json, pe);
  e = HarnessHierarchyOf(d).energies(d, slots, pe, json);
  // Per-access energies are per 128-bit row; a lane cluster of another width scales them.
  e.ScaleRows(32 * d.sm.lane_cluster);
}

std::string DescribeHierarchy(const DesignSpec& d, const DriverOptions& o, int slots) {
  return HarnessHierarchyOf(d).describe(d, o.harness, slots);
}

namespace {

// CPU seconds of this thread (the simulation rate on one core, whatever else the machine runs).
double ThreadSeconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

struct One {
  sim::SmStats sm;
  RfStats rf;
  DataActivity activity;
  bool values = true;
};

// Counts into `energies`. `rtl` non-null: the structures of the RTL in the loop (mode in `ro`).
One Simulate(const DesignSpec& d, const sim::Kernel& k, const sim::KernelRun& run,
             const sim::SmConfig& sm, bool two_level, bool greedy, const sp::PassOptions& po,
             bool allocates, const HarnessOptions& ho, const energy::Energies& energies,
             const std::vector<RtlStructure>* rtl = nullptr, const RtlLoopOptions* ro = nullptr) {
  // Every design runs the same two-level scheduler, which deschedules where the strand analysis
  // says a warp waits for its long-latency results (the SW ORF allocation relies on it).
  sp::KernelAnalysis a;
  if (allocates) {  // the hierarchy's compiler allocates register-file levels
    a = sp::AnalyzeKernel(k, po);
  } else {
    a.live = sp::ComputeLiveness(k);
    a.strands = sp::FormStrands(k, a.live, po.strands);
  }
  std::unique_ptr<RfSystem> rf = MakeRfSystem(d, k, sm, a, ho, energies);
  sim::RoundRobinPolicy round_robin(static_cast<uint32_t>(sm.warps));
  sim::GreedyPolicy greedy_policy(static_cast<uint32_t>(sm.warps));
  sim::SchedulerPolicy& policy =
      greedy ? static_cast<sim::SchedulerPolicy&>(greedy_policy) : round_robin;
  sim::SmOptions so;
  so.two_level = two_level;
  so.long_wait = &a.strands.waits;
  One r;
  if (rtl != nullptr && ro->top) {
    const std::unique_ptr<RtlTopSystem> loop = MakeRtlTopSystem(d, k, sm, *rf, rtl->front(), *ro);
    r.sm = sim::RunSm(run, sm, policy, loop.get(), so);
    loop->Finish();
    r.activity = loop->activity();
    r.values = loop->has_values();
  } else if (rtl != nullptr) {
    RtlLoopSystem loop(d, k, sm, *rf, *rtl, *ro);
    r.sm = sim::RunSm(run, sm, policy, &loop, so);
    loop.Finish();
    r.activity = loop.activity();
    r.values = loop.has_values();
  } else {
    r.sm = sim::RunSm(run, sm, policy, rf.get(), so);
    rf->Finish();
  }
  r.rf = rf->stats();
  r.rf.counts.cycles = 0;  // leakage is not in Gebhart's comparison: no leakage term
  return r;
}

}  // namespace

DesignResult RunDesign(const DesignSpec& d, const std::vector<WorkloadKernel>& kernels,
                       const DriverOptions& o) {
  DesignResult res;
  res.design = d.name;
  res.sm = SmConfigFor(d, o, res.two_level);
  res.inner_policy = o.inner_policy.empty() ? d.inner_policy : o.inner_policy;
  if (res.inner_policy.empty())
    res.inner_policy = "round-robin";
  const bool greedy = res.inner_policy == "greedy";
  const int slots = res.sm.active_warps;
  res.hierarchy = DescribeHierarchy(d, o, slots);
  sp::PassOptions po = PassOptionsFor(d);
  const bool allocates = CompilerAllocates(d);
  EnergiesFor(d, slots, o.energies_json, res.energies, po.energies);
  res.counts = energy::AccessCounts(res.energies);
  res.geometry.lanes = d.sm.lanes;
  res.geometry.cluster_lanes = d.sm.lane_cluster;

  DesignSpec base = d;
  base.hierarchy.kind = kBaselineHierarchy;
  base.hierarchy.levels = 1;
  const bool same = IsBaselineHierarchy(d);
  res.mode = o.rtl.mode;
  res.rtl_top = o.rtl.mode != RfMode::kModels && o.rtl.top;
  std::vector<RtlStructure> rtl;
  if (o.rtl.mode != RfMode::kModels && o.rtl.top)
    rtl.push_back(PrepareRtlTop(d, res.sm, o.rtl.build));
  else if (o.rtl.mode != RfMode::kModels)
    rtl = PrepareRtl(d, res.sm, o.rtl.build);

  for (const auto& wk : kernels) {
    if (wk.kernel == nullptr || wk.run == nullptr)
      continue;
    KernelResult kr;
    kr.workload = wk.workload;
    kr.kernel = wk.kernel->name;
    const double t0 = ThreadSeconds();
    One r = o.rtl.mode == RfMode::kModels
                ? Simulate(d, *wk.kernel, *wk.run, res.sm, res.two_level, greedy, po, allocates,
                           o.harness, res.energies)
                : Simulate(d, *wk.kernel, *wk.run, res.sm, res.two_level, greedy, po, allocates,
                           o.harness, res.energies, &rtl, &o.rtl);
    res.sim_seconds += ThreadSeconds() - t0;
    kr.sm = r.sm;
    kr.rf = r.rf;
    kr.activity = r.activity;
    res.activity += r.activity;
    res.values = res.values && r.values;
    kr.energy = energy::Evaluate(r.rf.counts, res.energies, res.geometry);
    if (o.baseline) {
      if (!same) {
        // The baseline counts into the design's energies (every hierarchy's has the MRF).
        One b = Simulate(base, *wk.kernel, *wk.run, res.sm, res.two_level, greedy, po, allocates,
                         o.harness, res.energies);
        kr.base_sm = b.sm;
        kr.base_energy = energy::Evaluate(b.rf.counts, res.energies, res.geometry);
      } else {
        kr.base_sm = kr.sm;
        kr.base_energy = kr.energy;
      }
    }
    res.counts += r.rf.counts;
    res.cycles += kr.sm.cycles;
    res.base_cycles += kr.base_sm.cycles;
    res.warp_instructions += kr.sm.warp_instructions;
    for (size_t u = 0; u < res.bank_conflicts.size(); ++u)
      res.bank_conflicts[u] += r.rf.bank_conflicts[u];
    res.dispatch_mismatches += r.rf.dispatch_mismatches;
    res.kernels.push_back(std::move(kr));
  }
  res.energy = energy::Evaluate(res.counts, res.energies, res.geometry);
  res.data_energy = res.activity.DataDependent(res.energy);
  // The baseline total is the sum of the per-kernel baselines (Evaluate is linear in counts).
  res.base_energy =
      energy::Evaluate(energy::AccessCounts(res.energies), res.energies, res.geometry);
  for (const auto& k : res.kernels)
    res.base_energy += k.base_energy;
  return res;
}

}  // namespace gpurf::harness
