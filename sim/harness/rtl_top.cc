#include "sim/harness/rtl_top.h"

#include <fmt/format.h>

#include "base/diag.h"
#include "base/registry.h"
#include "gen/structures/emit.h"
#include "sim/harness/transactor.h"
#include "verif/verify.h"

namespace gpurf::harness {

RtlStructure PrepareRtlTop(const DesignSpec& d, const sim::SmConfig& sm,
                           const BuildOptions& build) {
  const DesignStructure* ds = nullptr;
  const RtlTopKind* kind = nullptr;
  for (const auto& s : d.structures) {
    // A generated top wins over one the design lists as skipped (finereg: the generic rf_system
    // is skipped, its finereg_system is the top).
    const RtlTopKind* t = Registry<RtlTopKind>::Get().Find(s.kind);
    if (t != nullptr && (ds == nullptr || s.implemented() || !ds->implemented())) {
      ds = &s;
      kind = t;
    }
  }
  if (ds == nullptr)
    throw std::runtime_error(
        fmt::format("design {} has no register-file system top to put in the loop", d.name));
  if (!ds->implemented()) {
    throw InputError({d.source, ds->loc.line, ds->loc.column}, "hierarchy", d.hierarchy.kind,
                     "the design's register-file system top is not generated: " + ds->skip_reason,
                     fmt::format("a design whose {} is generated (see `gpurf gen`), or --rtl / "
                                 "--lockstep without --rtl-top (the structures one by one)",
                                 ds->name));
  }
  const int slots = kind->warp_slots(*ds->spec);
  if (slots > 0 && slots != sm.active_warps) {
    throw InputError({d.source, ds->loc.line, ds->loc.column}, "scheduler.kind",
                     fmt::format("{} active warps", sm.active_warps),
                     fmt::format("the {} top has {} active-warp slots but the SM "
                                 "schedules {} warps at once (single-level scheduling)",
                                 ds->name, slots, sm.active_warps),
                     "scheduler kind two-level, or sm.active_warps equal to sm.warps, or no "
                     "--active-warps override, for --rtl-top");
  }
  RtlStructure s{ds->name, *ds->spec, Emit(*ds->spec), {}};
  if (!kind->per_kernel)
    s.built = BuildModel(s.rtl, build);
  return s;
}

std::string RtlKernelProblem(const std::vector<RtlStructure>& structures, const sim::Kernel& k,
                             const sim::SmConfig& sm) {
  for (const RtlStructure& s : structures) {
    std::function<std::string(const StructureSpec&, const sim::Kernel&, const sim::SmConfig&)> f;
    if (const RtlTopKind* t = Registry<RtlTopKind>::Get().Find(s.spec.kind()))
      f = t->kernel_problem;
    else if (const RtlTransactorKind* x = Registry<RtlTransactorKind>::Get().Find(s.spec.kind()))
      f = x->kernel_problem;
    if (f) {
      if (std::string p = f(s.spec, k, sm); !p.empty())
        return p;
    }
  }
  return {};
}

std::string KernelWhere(const sim::Kernel& k, uint32_t warp, uint32_t inst) {
  if (inst >= k.code.size())
    return fmt::format("warp {}", warp);
  const sim::Instruction& in = k.code[inst];
  return fmt::format("warp {}, instruction {} at PC {:#x} ({})", warp, inst, in.pc, in.opcode);
}

void CountToggles(DataActivity& a, ActivityLevel l, Bits& last, const Bits& now) {
  auto& v = a.level[static_cast<size_t>(l)];
  v.toggles += static_cast<uint64_t>(last.popcount_xor(now));
  v.bits += static_cast<uint64_t>(now.width());
  ++v.transfers;
  last = now;
}

std::unique_ptr<RtlTopSystem> MakeRtlTopSystem(const DesignSpec& d, const sim::Kernel& k,
                                               const sim::SmConfig& sm, RfSystem& inner,
                                               const RtlStructure& top, const RtlLoopOptions& opt) {
  const RtlTopKind* kind = Registry<RtlTopKind>::Get().Find(top.spec.kind());
  if (kind == nullptr)
    throw std::runtime_error(fmt::format(
        "RTL in the loop: structure {} is of kind {}, which is no register-file system top",
        top.name, top.spec.kind()));
  return kind->make(d, k, sm, inner, top, opt);
}

}  // namespace gpurf::harness
