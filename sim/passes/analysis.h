// One entry point for every compiler analysis of this folder on a sim::Kernel, whichever front
// end produced it (PTX or an Accel-Sim trace), plus the reports `gpurf workload analyze` and
// `gpurf compile` print: the annotated code listing, access counts per register-file level and
// their energy against an MRF-only baseline.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/kernel/kernel.h"
#include "sim/passes/liveness.h"
#include "sim/passes/orf_alloc.h"
#include "sim/passes/release_flags.h"
#include "sim/passes/rf_energies.h"
#include "sim/passes/strands.h"

namespace gpurf::sim::passes {

struct PassOptions {
  OrfConfig orf;
  StrandOptions strands;
  ReleaseConfig release;
  RegisterFileEnergies energies;
};

struct KernelAnalysis {
  Liveness live;
  Strands strands;
  OrfAllocation alloc;
  ReleaseFlags release;
  LiveVectors live_vectors;
};

// Requires kernel.BuildCfg() to have run. Deterministic: the same kernel and options give the
// same result.
KernelAnalysis AnalyzeKernel(const Kernel& kernel, const PassOptions& options);

// Register accesses by level (index RfLevel), counting every 32-bit register of an operand, and
// their energy (RegisterFileEnergies per 128-bit access) against every access going to the MRF.
// Weighted by how many times each instruction ran in `run` (warp instructions), or once each
// when `run` is null (static counts).
struct AccessCounts {
  std::array<double, 3> reads{}, writes{};
  double energy_pj = 0, baseline_pj = 0;
  double Ratio() const { return baseline_pj > 0 ? energy_pj / baseline_pj : 1.0; }
};
AccessCounts CountAccesses(const Kernel& kernel, const OrfAllocation& alloc,
                           const RegisterFileEnergies& energies, const KernelRun* run);

// The annotated code: strand boundaries and why, per operand the level and entry it reads
// ("R2@L1.0", "R5@L0.B"), '*' after a warp-level last use, '^' after a released (pir) operand,
// result write targets ("R3>MRF+L1.2"), pbr releases before reconvergence points, and the
// FineReg live-register vector in hex.
std::string AnnotatedListing(const Kernel& kernel, const KernelAnalysis& a);

// Short text summary: strands, allocation statistics, access counts and energy ratio.
// Gebhart's per-access energies for the allocation of `options` with `active_warps` warps
// holding upper-level storage (rf_energies.h GebhartEnergies).
RegisterFileEnergies DefaultEnergies(const PassOptions& options, int active_warps);

// The ORF size sweep of `gpurf analyze`: the energy of the kernel, as a percentage of the
// MRF-only baseline, for 2 levels and for 3 levels with a split L0, with 1..6 L1 entries per
// thread. `default_energies`: each point uses Gebhart's energies for its L1 size (8 warps);
// otherwise every point uses options.energies. One line, without the newline.
std::string AllocationSweep(const Kernel& kernel, const PassOptions& options, const KernelRun* run,
                            bool default_energies);

std::string AnalysisSummary(const Kernel& kernel, const KernelAnalysis& a,
                            const AccessCounts& counts, const PassOptions& options);

}  // namespace gpurf::sim::passes
