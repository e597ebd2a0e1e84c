// The SM-harness side of a register-file hierarchy (the design side is gen/config/hierarchy.h):
// how the hierarchy named by a design's hierarchy.kind runs in the SM timing model. Each
// hierarchy registers one HarnessHierarchy by name (base/registry.h) in the file that implements
// its register-file system; the driver, the RTL loop and the CLI look it up and never name one.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "energy/energy_model.h"
#include "gen/config/design_spec.h"
#include "sim/harness/rf_systems.h"
#include "sim/passes/analysis.h"
#include "sim/passes/rf_energies.h"

namespace gpurf::harness {

struct HarnessHierarchy {
  // The register-file levels, the MRF included, the compiler allocates for this design (1: it
  // allocates none; the kernel analysis then needs only liveness and strands).
  std::function<int(const DesignSpec&)> allocated_levels;
  // The register-file system on the C++ models for one kernel (see rf_systems.h MakeRfSystem).
  std::function<std::unique_ptr<RfSystem>(const DesignSpec&, const sim::Kernel&,
                                          const sim::SmConfig&, const sim::passes::KernelAnalysis&,
                                          const HarnessOptions&)>
      make_system;
  // One line for reports: the organisation, its sizes, `slots` warps with upper-level storage.
  std::function<std::string(const DesignSpec&, const HarnessOptions&, int slots)> describe;
  // The design instances that run as RTL in the loop (--rtl / --lockstep) beside the MRF.
  std::function<std::vector<std::string>(const DesignSpec&)> rtl_structures;
  // What the compiler passes provide for this hierarchy, when it is not ORF allocation ("" else).
  std::function<std::string(const DesignSpec&)> compiler_note;
  // The design's register-file energies for `slots` warps with upper-level storage: the levels
  // its systems count into (per-access energies, wire distances) and its per-event components,
  // in report order, per 128-bit row access, from the characterization energies `pe` (whose
  // figures are Gebhart's, or those of the characterization JSON `json` when it is not "";
  // the sources say which). Every system this hierarchy builds counts into these (RfSystem::
  // CountFor), and so does the MRF-only baseline run beside it.
  std::function<energy::Energies(const DesignSpec&, int slots,
                                 const sim::passes::RegisterFileEnergies& pe,
                                 const std::string& json)>
      energies;
  // The structure kinds (`gpurf characterize` families) whose own characterizations
  // (`--characterization`, RegisterFileEnergies::structures) `energies` prices from; empty: none.
  std::vector<std::string> characterized_kinds = {};
  // Optional (null: none): the compiler's register release flags (Jeon's pir/pbr,
  // sim/passes/release_flags.h) for this design on SM `sm`; the driver then computes them for
  // every kernel and gives them to the SM as its release points (SmOptions::release_after_read,
  // release_at).
  std::function<sim::passes::ReleaseConfig(const DesignSpec&, const sim::SmConfig&)>
      release_config = nullptr;
  // Optional (null: sim::MaxLiveWarps on `sm`, static allocation of the whole register file):
  // the most warps of `run` whose registers the register home (the MRF in the RTL loop) holds
  // at once on SM `sm`; the RTL in the loop is generated for that many warps when it is fewer
  // than the partition's (FineReg: the warps whose allocations fit the ACRF).
  std::function<uint64_t(const DesignSpec&, const sim::KernelRun&, const sim::SmConfig&)>
      home_resident_warps = nullptr;
};

// The harness side of `design`'s hierarchy; std::invalid_argument naming the kind when the
// harness has none registered.
const HarnessHierarchy& HarnessHierarchyOf(const DesignSpec& design);

// The compiler passes' allocation options for `design`: the levels its hierarchy's compiler
// allocates and their sizes from the hierarchy section (sim/passes/analysis.h PassOptions).
sim::passes::PassOptions PassOptionsFor(const DesignSpec& design);
// Whether the compiler allocates register-file levels for `design`.
bool CompilerAllocates(const DesignSpec& design);

}  // namespace gpurf::harness
