// Design point + workload -> per kernel timing, access counts and register-file energy,
// normalized to the MRF-only baseline of the same SM and workload (Gebhart TOCS 2012, section
// 6.3 and Figures 24-25).
//
// The SM comes from the design (lanes, warps, active warps, two-level or single-level
// scheduling with a round-robin inner policy); the register-file system from its hierarchy
// (rf_systems.h). The baseline is the same design with an MRF-only hierarchy, simulated too (on
// a second thread, beside the design), so its IPC is known as well. Energies: the levels and
// components the design's hierarchy declares (HarnessHierarchy::energies), with the figures of
// a characterization JSON in the format of sim/passes/rf_energies.h when given, otherwise
// Gebhart's Tables IV and V, the upper level's energy looked up for (L1 entries per thread x
// slots) rows; the baseline is evaluated with the same energies.
#pragma once

#include <string>
#include <vector>

#include "energy/energy_model.h"
#include "gen/config/design_spec.h"
#include "sim/harness/gpu.h"
#include "sim/harness/rf_systems.h"
#include "sim/harness/rtl_loop.h"
#include "sim/kernel/kernel.h"
#include "sim/mem/memory.h"
#include "sim/sm/sm.h"

namespace gpurf::harness {

struct WorkloadKernel {
  std::string workload;  // the name the user gave
  const sim::Kernel* kernel = nullptr;
  const sim::KernelRun* run = nullptr;
};

struct DriverOptions {
  std::string energies_json;  // "" = Gebhart defaults
  // --characterization: structures' own characterizations; a design's hierarchy prices the
  // structures it has from those of the kinds it declares (HarnessHierarchy::
  // characterized_kinds) and ignores the others.
  std::vector<sim::passes::StructureCharacterization> characterizations;
  HarnessOptions harness;
  int active_warps = 0;      // > 0: overrides the design's active warps
  std::string scheduler;     // "" = the design's; single-level | two-level
  std::string inner_policy;  // "" = the design's; greedy | round-robin
  bool baseline = true;      // also simulate the MRF-only baseline
  // --rtl / --lockstep: the design's structures as Verilated RTL in the loop (rtl_loop.h). The
  // MRF-only baseline always runs on the C++ models (it only normalizes).
  RtlLoopOptions rtl;
  // --gpu / --sms / --memory: with the design's `gpu:` section, the GPU it runs on
  // (ResolveGpu(design, gpu), sim/harness/gpu.h). Per design: `energy` runs several.
  GpuCliOptions gpu;
};

struct KernelResult {
  std::string workload, kernel;
  sim::SmStats sm;
  RfStats rf;
  energy::Breakdown energy;
  std::vector<sim::SmStats> sms;  // per SM (sm: their sum, cycles the GPU's)
  sim::mem::MemStats mem;         // the memory hierarchy's (empty with ideal memory)
  uint32_t l1d_bytes = 0;         // its L1D: l1d.bytes, or a unified memory's share (UnifiedL1d)
  sim::SmStats base_sm;           // MRF-only baseline (when simulated)
  sim::mem::MemStats base_mem;    // the baseline's memory hierarchy (empty with ideal memory)
  energy::Breakdown base_energy;
  DataActivity activity;  // RTL in the loop: data-port toggles
  // RTL in the loop generated for this kernel's resident warps rather than the partition's
  // (driver.cc RtlForResidentWarps): what and why; empty otherwise.
  std::string rtl_sm;
};

struct DesignResult {
  std::string design, hierarchy;  // name, one-line description of the hierarchy
  sim::SmConfig sm;
  sim::GpuConfig gpu;  // the GPU it ran on (GpuFor)
  bool two_level = false;
  std::string inner_policy;   // greedy | round-robin (the inner selection, two-level or not)
  energy::Energies energies;  // the hierarchy's levels and components (counts index them)
  energy::SmGeometry geometry;
  std::vector<KernelResult> kernels;
  // Sums over the kernels.
  energy::AccessCounts counts;
  sim::mem::MemStats mem;
  energy::Breakdown energy, base_energy;
  uint64_t cycles = 0, base_cycles = 0, warp_instructions = 0;
  std::array<uint64_t, energy::kNumUnits> bank_conflicts{};
  uint64_t dispatch_mismatches = 0;
  // RTL in the loop: the mode, whether every kernel had recorded values, the toggles and the
  // access energy rescaled by them (beside the uniform-random `energy`).
  RfMode mode = RfMode::kModels;
  bool rtl_top = false;  // the rf_system top rather than the structures (rtl_top.h)
  bool values = true;
  DataActivity activity;
  energy::Breakdown data_energy;
  // RTL in the loop: kernels the design's RTL cannot hold (registers per thread, warps), not
  // simulated.
  struct Skip {
    std::string workload, kernel, reason;
  };
  std::vector<Skip> rtl_skipped;
  // RTL in the loop on an SM (partition) other than the design file's: what was generated.
  std::string rtl_sm;
  double sim_seconds = 0;       // CPU seconds of the design's simulations (baseline excluded)
  double base_seconds = 0;      // ... of the MRF-only baseline's (on a thread beside the design's)
  double wall_seconds = 0;      // wall-clock seconds of the simulations, baseline included
  bool base_simulated = false;  // the baseline ran beside the design (not MRF-only itself)

  double Ipc() const;
  double BaseIpc() const;
  double Normalized() const;  // total energy / baseline total energy
};

// The SM configuration the design describes: the SM of its GPU (ResolveGpu(d, o.gpu)) with the
// option overrides (--active-warps, --scheduler); `two_level` is set to whether warps are
// descheduled on long-latency waits. Without a `gpu:` section and GPU flags it is the SM gpurf
// built before the presets, field for field.
sim::SmConfig SmConfigFor(const DesignSpec& d, const DriverOptions& o, bool& two_level);

// The GPU the design runs on: ResolveGpu(d, o.gpu), and when --sms asks for fewer SMs than the
// GPU has, each SM's share of the DRAM bandwidth (the full GPU's divided by its SM count).
sim::GpuConfig GpuFor(const DesignSpec& d, const DriverOptions& o);

// The energies for the design's hierarchy (see the file comment), at the design's row width,
// and the per-access energies the compiler passes use; `structures`: the structures'
// characterizations (those of kinds the hierarchy does not price are left out). Throws
// InputError for a bad characterization JSON or a component a characterization lacks.
void EnergiesFor(const DesignSpec& d, int slots, const std::string& json, energy::Energies& e,
                 sim::passes::RegisterFileEnergies& pass_energies,
                 const std::vector<sim::passes::StructureCharacterization>& structures = {});

// One line: "HW RFC, 1 level of 6 entries/thread, LRU, liveness hints, 8 slots".
std::string DescribeHierarchy(const DesignSpec& d, const DriverOptions& o, int slots);

// Throws std::runtime_error when a kernel cannot run on the SM, InputError on bad energies.
DesignResult RunDesign(const DesignSpec& d, const std::vector<WorkloadKernel>& kernels,
                       const DriverOptions& o);

}  // namespace gpurf::harness
