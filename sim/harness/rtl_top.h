// RTL in the loop at system granularity (`gpurf sim/energy ... --rtl-top`): the SM harness
// drives the ONE register-file system top of the design point (a structure of a kind that
// registers an RtlTopKind: today the `rf_system` structure, kind rf-system, whose system is in
// transactors/rf_system_top.cc) cycle by cycle through its request interface, alone
// (--rtl --rtl-top) or with its golden model on the same ports, every output compared every cycle
// (--lockstep --rtl-top).
//
// As in rtl_loop.h, the C++ models' register-file system (rf_systems.h) keeps the SM timing and
// the access counts; the top's RtlTopSystem wraps it, collects the structure transactions it
// makes for each pipeline event (StructureListener) and turns them into requests of the top.
// Data, value checks, toggles and divergence reports: as in rtl_loop.h.
#pragma once

#include <functional>
#include <memory>

#include "sim/harness/rtl_loop.h"

namespace gpurf::harness {

// Builds the Verilator model of the design's register-file system top (the one structure whose
// kind registers an RtlTopKind). Throws InputError when the design's top cannot run in the loop
// (named field), std::runtime_error when it has none, ToolError when the build fails.
RtlStructure PrepareRtlTop(const DesignSpec& d, const sim::SmConfig& sm, const BuildOptions& build);

// The register-file system with a system top in the loop. Call Finish() after RunSm.
class RtlTopSystem : public sim::RegisterFileSystem, public StructureListener {
 public:
  // Drains the top (every issued instruction dispatched and checked), compares what it counted
  // and finishes the inner system.
  virtual void Finish() = 0;
  virtual const DataActivity& activity() const = 0;
  virtual bool has_values() const = 0;
};

// The harness side of a kind that is a register-file system top (registered under the kind's
// name, base/registry.h).
struct RtlTopKind {
  // The top is generated again for each kernel (make() builds it): PrepareRtlTop only checks
  // that the design's top is generated and builds no model.
  bool per_kernel = false;
  // Warp slots of the top (0: it holds every warp); must equal the SM's active warps.
  std::function<int(const StructureSpec&)> warp_slots;
  // Why kernel `k` cannot run with this top in the loop on `sm` (as RtlTransactorKind's).
  std::function<std::string(const StructureSpec&, const sim::Kernel& k, const sim::SmConfig& sm)>
      kernel_problem;
  // The system for `top` (from PrepareRtlTop); `inner` does the timing and counting.
  std::function<std::unique_ptr<RtlTopSystem>(const DesignSpec&, const sim::Kernel&,
                                              const sim::SmConfig&, RfSystem& inner,
                                              const RtlStructure& top, const RtlLoopOptions&)>
      make;
};

// Why kernel `k` cannot run on (a partition of) `sm` with the RTL `structures` in the loop
// (PrepareRtl's, or PrepareRtlTop's one top), empty when it can.
std::string RtlKernelProblem(const std::vector<RtlStructure>& structures, const sim::Kernel& k,
                             const sim::SmConfig& sm);

// For the tops' divergence reports: "warp W, instruction I at PC 0x.. (opcode)", or "warp W"
// when `inst` is no instruction of `k`.
std::string KernelWhere(const sim::Kernel& k, uint32_t warp, uint32_t inst);
// A row `now` crossed a data port of level `l` whose previous row was `last`: its toggled bits
// counted in `a`, and `last` becomes `now`.
void CountToggles(DataActivity& a, ActivityLevel l, Bits& last, const Bits& now);

// The system of the kind of `top`.
std::unique_ptr<RtlTopSystem> MakeRtlTopSystem(const DesignSpec& d, const sim::Kernel& k,
                                               const sim::SmConfig& sm, RfSystem& inner,
                                               const RtlStructure& top, const RtlLoopOptions& opt);

}  // namespace gpurf::harness
