#include "sim/harness/driver.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <future>
#include <map>

#include "gen/config/derive.h"
#include "gen/config/hierarchy.h"
#include "sim/harness/hierarchy.h"
#include "sim/harness/rtl_top.h"
#include "sim/mem/memory.h"
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
                 sp::RegisterFileEnergies& pe,
                 const std::vector<sp::StructureCharacterization>& structures) {
  // The compiler passes' defaults for the design's allocation, overridden by the JSON.
  pe = sp::DefaultEnergies(PassOptionsFor(d), slots);
  if (!json.empty())
    pe = sp::LoadRegisterFileEnergies(json, pe);
  const HarnessHierarchy& h = HarnessHierarchyOf(d);
  for (const sp::StructureCharacterization& s : structures) {
    if (std::find(h.characterized_kinds.begin(), h.characterized_kinds.end(), s.kind) !=
        h.characterized_kinds.end())
      pe.structures.push_back(s);
  }
  e = h.energies(d, slots, pe, json);
  // Per-access energies are per 128-bit row; a lane cluster of another width scales them.
  e.ScaleRows(32 * d.sm.lane_cluster);
}

std::string DescribeHierarchy(const DesignSpec& d, const DriverOptions& o, int slots) {
  return HarnessHierarchyOf(d).describe(d, o.harness, slots);
}

sim::GpuConfig GpuFor(const DesignSpec& d, const DriverOptions& o) {
  sim::GpuConfig g = ResolveGpu(d, o.gpu);
  if (!g.mem.ideal && o.gpu.sms > 0) {
    // Fewer SMs than the GPU has: each still gets its share of the DRAM bandwidth.
    GpuCliOptions configured = o.gpu;
    configured.sms = 0;
    const int full = ResolveGpu(d, configured).sms;
    if (g.sms < full)
      g.mem.dram_bytes_per_cycle *= static_cast<double>(g.sms) / static_cast<double>(full);
  }
  return g;
}

namespace {

// CPU seconds of this thread (the simulation rate on one core, whatever else the machine runs).
double ThreadSeconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// The SM as one register-file partition sees it: its share of the warps and active warps.
sim::SmConfig PartitionOf(const sim::SmConfig& sm) {
  const int parts = std::max(1, sm.rf_partitions);
  sim::SmConfig part = sm;
  part.warps = sm.warps / parts;
  part.active_warps = std::max(1, sm.active_warps / parts);
  return part;
}

struct One {
  sim::SmStats sm;
  std::vector<sim::SmStats> sms;  // per SM
  sim::mem::MemStats mem;
  RfStats rf;
  DataActivity activity;
  bool values = true;
  uint32_t l1d_bytes = 0;  // the L1D it ran with (a unified memory's share, per kernel)
};

// The warp selection policy: the design's two-level scheduler picks greedily or round-robin
// among its active warps; without it the GPU's policy (greedy-then-oldest, loose round-robin,
// or for a two-level GPU the design's inner policy over all warps).
struct Policies {
  explicit Policies(uint32_t warps) : round_robin(warps), greedy(warps) {}
  sim::SchedulerPolicy& For(const sim::SmConfig& sm, bool two_level, bool greedy_inner) {
    if (!two_level && sm.policy == sim::WarpPolicy::kGto)
      return gto;
    if (!two_level && sm.policy == sim::WarpPolicy::kLooseRoundRobin)
      return round_robin;
    return greedy_inner ? static_cast<sim::SchedulerPolicy&>(greedy) : round_robin;
  }
  sim::RoundRobinPolicy round_robin;
  sim::GreedyPolicy greedy;
  sim::GtoPolicy gto;
};

// The RTL in the loop of one kernel: the design its structures were generated for, the
// register-file partition they serve (warps, active warps), the structures, and the mode.
struct RtlRun {
  const DesignSpec* d = nullptr;
  sim::SmConfig part;
  const std::vector<RtlStructure>* structures = nullptr;
  const RtlLoopOptions* opt = nullptr;
};

// Counts into `energies`. `rtl` non-null: the RTL in the loop beside the C++ systems. Every SM
// of `gpu` gets sm.rf_partitions register-file systems (each with the partition's warps and
// active warps) and, unless the memory is ideal, the SMs share one memory system.
One Simulate(const DesignSpec& d, const sim::Kernel& k, const sim::KernelRun& run,
             const sim::GpuConfig& gpu, const sim::SmConfig& sm, bool two_level, bool greedy,
             const sp::PassOptions& po, bool allocates, const HarnessOptions& ho,
             const energy::Energies& energies, const RtlRun* rtl = nullptr) {
  // Every design runs the same two-level scheduler, which deschedules where the strand analysis
  // says a warp waits for its long-latency results (the SW ORF allocation relies on it).
  sp::KernelAnalysis a;
  if (allocates) {  // the hierarchy's compiler allocates register-file levels
    a = sp::AnalyzeKernel(k, po);
  } else {
    a.live = sp::ComputeLiveness(k);
    a.strands = sp::FormStrands(k, a.live, po.strands);
  }
  // Register release flags (Jeon's pir/pbr) for hierarchies that release registers.
  std::vector<std::vector<uint16_t>> release_at;
  if (const auto& rc = HarnessHierarchyOf(d).release_config; rc) {
    a.release = sp::ComputeReleaseFlags(k, a.live, rc(d, sm));
    release_at.assign(k.code.size(), {});
    for (const sp::PbrRelease& p : a.release.pbr)
      release_at[p.inst] = p.regs;
  }
  const int sms = std::max(1, gpu.sms);
  const int parts = std::max(1, sm.rf_partitions);
  const sim::SmConfig part = PartitionOf(sm);
  std::vector<std::unique_ptr<RfSystem>> systems;
  std::vector<std::unique_ptr<RtlTopSystem>> tops;
  std::vector<std::unique_ptr<RtlLoopSystem>> loops;
  std::vector<std::vector<sim::RegisterFileSystem*>> grid(static_cast<size_t>(sms));
  for (int s = 0; s < sms; ++s) {
    for (int p = 0; p < parts; ++p) {
      systems.push_back(MakeRfSystem(d, k, part, a, ho, energies));
      sim::RegisterFileSystem* sys = systems.back().get();
      if (rtl != nullptr && rtl->opt->top) {
        tops.push_back(MakeRtlTopSystem(*rtl->d, k, rtl->part, *systems.back(),
                                        rtl->structures->front(), *rtl->opt));
        sys = tops.back().get();
      } else if (rtl != nullptr) {
        loops.push_back(std::make_unique<RtlLoopSystem>(*rtl->d, k, rtl->part, *systems.back(),
                                                        *rtl->structures, *rtl->opt));
        sys = loops.back().get();
      }
      grid[static_cast<size_t>(s)].push_back(sys);
    }
  }
  std::unique_ptr<sim::mem::MemorySystem> memory;
  // A unified memory gives the L1D what the kernel's resident CTAs leave of it.
  sim::MemoryConfig mem = gpu.mem;
  mem.l1d = sim::UnifiedL1d(gpu.mem, sim::ResidentRegisters(run, sm, sms) * 4);
  if (!gpu.mem.ideal)
    memory = std::make_unique<sim::mem::MemorySystem>(mem, sms);
  for (size_t i = 0; i < systems.size(); ++i)
    systems[i]->AttachMemory(memory.get(), static_cast<int>(i) / parts);
  Policies policies(static_cast<uint32_t>(sm.warps));
  sim::SmOptions so;
  so.two_level = two_level;
  so.long_wait = &a.strands.waits;
  if (!release_at.empty()) {
    so.release_after_read = &a.release.release;
    so.release_at = &release_at;
  }
  sim::SmConfig gpu_sm = sm;
  gpu_sm.rf_partitions = parts;
  const sim::GpuStats gs =
      sim::RunGpu(run, gpu_sm, policies.For(sm, two_level, greedy), grid, memory.get(), so);
  One r;
  r.l1d_bytes = mem.l1d.bytes;
  r.sm = gs.total;
  r.sms = gs.sms;
  if (memory)
    r.mem = memory->Total();
  for (auto& t : tops) {
    t->Finish();
    r.activity += t->activity();
    r.values = r.values && t->has_values();
  }
  for (auto& l : loops) {
    l->Finish();
    r.activity += l->activity();
    r.values = r.values && l->has_values();
  }
  for (auto& sys : systems) {
    if (rtl == nullptr)
      sys->Finish();
    r.rf += sys->stats();
  }
  // Level leakage (the energies' leakage_mw x cycles) is charged to the MRF-only baseline only:
  // its file is powered on every SM for the whole kernel. A hierarchy that models leakage
  // (renaming: Jeon's Fig. 12) gives its MRF the ungated file's leakage and charges its own
  // powered storage per event-cycle (ComponentEnergy::leakage_mw); every other hierarchy's
  // levels leak 0 mW, so Gebhart's comparison has no leakage term.
  r.rf.counts.cycles = IsBaselineHierarchy(d) ? gs.total.cycles * static_cast<uint64_t>(sms) : 0;
  return r;
}

// The structures of the RTL in the loop, generated for `d` serving partition `part`.
struct PreparedRtl {
  DesignSpec d;
  sim::SmConfig part;
  std::vector<RtlStructure> structures;
};

PreparedRtl PrepareFor(const DesignSpec& d, const sim::SmConfig& part, const RtlLoopOptions& o) {
  PreparedRtl p{d, part, {}};
  if (o.top)
    p.structures.push_back(PrepareRtlTop(d, part, o.build));
  else
    p.structures = PrepareRtl(d, part, o.build);
  return p;
}

// The RTL's register layout (warps x registers per thread: row = warp * rows per warp + ...) is
// static, as the MRF's address decode is. A kernel with more registers per thread than the
// partition's layout holds keeps fewer warps resident (static allocation, shared memory or CTA
// slots); for it the design's structures are generated again for the warps it keeps resident
// per partition (at least the active warps), which gives every warp more registers in the same
// banks, as a GPU allocates registers per kernel. Cached in `cache` by that warp count. Null
// when that cannot help (the kernel keeps every warp of the partition resident, or the design
// cannot be derived for the count); `problem` then says why.
const PreparedRtl* RtlForResidentWarps(const DesignSpec& d, const sim::KernelRun& run,
                                       const sim::SmConfig& sm, const sim::SmConfig& part,
                                       const RtlLoopOptions& o, std::map<int, PreparedRtl>& cache,
                                       std::string& problem) {
  const uint64_t parts = static_cast<uint64_t>(std::max(1, sm.rf_partitions));
  const auto& home_warps = HarnessHierarchyOf(d).home_resident_warps;
  const uint64_t most = home_warps ? home_warps(d, run, sm) : sim::MaxLiveWarps(run, sm);
  const auto live = static_cast<int>((most + parts - 1) / parts);
  // At least the active warps: the two-level scheduler's slots are the structures' own. With
  // single-level scheduling (every warp active) the resident warps are all active.
  const bool single = part.active_warps >= part.warps;
  const int warps = single ? live : std::max(live, part.active_warps);
  if (live < 1 || warps >= part.warps)
    return nullptr;
  auto it = cache.find(warps);
  if (it == cache.end()) {
    sim::SmConfig kp = part;
    kp.warps = warps;
    if (single)
      kp.active_warps = warps;
    DesignSpec kd;
    try {
      kd = DesignForSm(d, warps, kp.active_warps);
    } catch (const InputError& e) {
      problem +=
          fmt::format("; nor can the design be generated for the {} warps it keeps resident: {}",
                      warps, e.problem());
      return nullptr;
    }
    it = cache.emplace(warps, PrepareFor(kd, kp, o)).first;
  }
  if (std::string p = RtlKernelProblem(it->second.structures, *run.kernel, it->second.part);
      !p.empty()) {
    problem += fmt::format("; generated for the {} warps it keeps resident: {}", warps, p);
    return nullptr;
  }
  return &it->second;
}

}  // namespace

DesignResult RunDesign(const DesignSpec& d, const std::vector<WorkloadKernel>& kernels,
                       const DriverOptions& o) {
  DesignResult res;
  res.design = d.name;
  res.sm = SmConfigFor(d, o, res.two_level);
  res.gpu = GpuFor(d, o);
  res.inner_policy = o.inner_policy.empty() ? d.inner_policy : o.inner_policy;
  if (res.inner_policy.empty())
    res.inner_policy = "round-robin";
  const bool greedy = res.inner_policy == "greedy";
  const int slots = res.sm.active_warps;
  res.hierarchy = DescribeHierarchy(d, o, slots);
  sp::PassOptions po = PassOptionsFor(d);
  const bool allocates = CompilerAllocates(d);
  EnergiesFor(d, slots, o.energies_json, res.energies, po.energies, o.characterizations);
  res.counts = energy::AccessCounts(res.energies);
  res.geometry.lanes = d.sm.lanes;
  res.geometry.cluster_lanes = d.sm.lane_cluster;
  res.geometry.clock_ghz = res.gpu.core_mhz / 1000.0;  // for leakage (mW x ns = pJ)

  DesignSpec base = d;
  base.hierarchy.kind = kBaselineHierarchy;
  base.hierarchy.levels = 1;
  const bool same = IsBaselineHierarchy(d);
  res.mode = o.rtl.mode;
  res.rtl_top = o.rtl.mode != RfMode::kModels && o.rtl.top;
  // RTL in the loop: the design's structures generated for one register-file partition of the
  // GPU's SM (its warps and active warps), which is what each RTL instance serves. With
  // single-level scheduling every warp of the partition is active, so the per-warp structures
  // (RFC, ORF) get a slot per warp of the partition, as the C++ systems of the run do.
  const sim::SmConfig part = PartitionOf(res.sm);
  DesignSpec rtl_d;
  if (o.rtl.mode != RfMode::kModels) {
    rtl_d = DesignForSm(d, part.warps, part.active_warps);
    if (rtl_d.config_hash != d.config_hash)
      res.rtl_sm = fmt::format(
          "structures generated for one register-file partition of the SM: {} warps, {} active "
          "(the design file: {}, {})",
          part.warps, part.active_warps, d.sm.warps, d.sm.active_warps);
  }
  std::map<int, PreparedRtl> rtl;  // by the warps of the partition it serves
  if (o.rtl.mode != RfMode::kModels)
    rtl.emplace(part.warps, PrepareFor(rtl_d, part, o.rtl));

  for (const auto& wk : kernels) {
    if (wk.kernel == nullptr || wk.run == nullptr)
      continue;
    const PreparedRtl* kernel_rtl = nullptr;
    if (!rtl.empty()) {
      // The RTL holds a fixed number of registers per thread and warps; the models do not.
      kernel_rtl = &rtl.at(part.warps);
      std::string p = RtlKernelProblem(kernel_rtl->structures, *wk.kernel, part);
      if (!p.empty())
        kernel_rtl = RtlForResidentWarps(d, *wk.run, res.sm, part, o.rtl, rtl, p);
      if (kernel_rtl == nullptr) {
        res.rtl_skipped.push_back({wk.workload, wk.kernel->name, std::move(p)});
        continue;
      }
    }
    KernelResult kr;
    kr.workload = wk.workload;
    kr.kernel = wk.kernel->name;
    const auto w0 = std::chrono::steady_clock::now();
    // The MRF-only baseline runs on a thread of its own beside the design, so that it does not
    // double the wall-clock time of a run on a machine with a second core. It shares only
    // read-only inputs (the kernel, its dynamic streams, the options and energies) with the
    // design's simulation; each builds its own register-file systems and memory system.
    struct Base {
      One one;
      double seconds = 0;
    };
    std::future<Base> base_run;
    if (o.baseline && !same) {
      base_run = std::async(std::launch::async, [&] {
        const double tb = ThreadSeconds();
        Base b;
        b.one = Simulate(base, *wk.kernel, *wk.run, res.gpu, res.sm, res.two_level, greedy, po,
                         allocates, o.harness, res.energies);
        b.seconds = ThreadSeconds() - tb;
        return b;
      });
    }
    RtlRun rtl_run;
    if (kernel_rtl != nullptr) {
      rtl_run = RtlRun{&kernel_rtl->d, kernel_rtl->part, &kernel_rtl->structures, &o.rtl};
      if (kernel_rtl->part.warps != part.warps)
        kr.rtl_sm = fmt::format(
            "RTL generated for {} warps per partition, enough for the warps the kernel keeps "
            "resident ({} registers per thread)",
            kernel_rtl->part.warps, wk.kernel->regs_per_thread);
    }
    const double t0 = ThreadSeconds();
    One r = o.rtl.mode == RfMode::kModels
                ? Simulate(d, *wk.kernel, *wk.run, res.gpu, res.sm, res.two_level, greedy, po,
                           allocates, o.harness, res.energies)
                : Simulate(rtl_d, *wk.kernel, *wk.run, res.gpu, res.sm, res.two_level, greedy, po,
                           allocates, o.harness, res.energies, &rtl_run);
    res.sim_seconds += ThreadSeconds() - t0;
    kr.sm = r.sm;
    kr.sms = r.sms;
    kr.mem = r.mem;
    kr.l1d_bytes = r.l1d_bytes;
    res.mem.Add(r.mem);
    kr.rf = r.rf;
    kr.activity = r.activity;
    res.activity += r.activity;
    res.values = res.values && r.values;
    kr.energy = energy::Evaluate(r.rf.counts, res.energies, res.geometry);
    if (o.baseline) {
      if (!same) {
        // The baseline counts into the design's energies (every hierarchy's has the MRF).
        const Base b = base_run.get();
        res.base_simulated = true;
        res.base_seconds += b.seconds;
        kr.base_sm = b.one.sm;
        kr.base_mem = b.one.mem;
        kr.base_energy = energy::Evaluate(b.one.rf.counts, res.energies, res.geometry);
      } else {
        kr.base_sm = kr.sm;
        kr.base_mem = kr.mem;
        kr.base_energy = kr.energy;
      }
    }
    res.wall_seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
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
