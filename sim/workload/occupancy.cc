#include "sim/workload/occupancy.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace gpurf::sim {

std::string OccupancyResult::LimiterText() const {
  return fmt::format("{}", fmt::join(limiters, "+"));
}

OccupancyResult ComputeOccupancy(const CtaShape& cta, const SmLimits& sm) {
  if (sm.warps == 0 || sm.registers == 0 || sm.cta_slots == 0 || sm.shared_bytes == 0 ||
      sm.lanes == 0 || sm.register_granularity == 0)
    throw std::invalid_argument("ComputeOccupancy: every SM limit must be positive");
  if (cta.threads_per_cta == 0)
    throw std::invalid_argument("ComputeOccupancy: a CTA has at least one thread");
  OccupancyResult r;
  r.warps_per_cta = (cta.threads_per_cta + sm.lanes - 1) / sm.lanes;
  // A kernel with no registers still holds one per thread, as the SM model assumes.
  const uint64_t per_warp_raw = uint64_t{sm.lanes} * std::max<uint32_t>(1, cta.regs_per_thread);
  const uint64_t g = sm.register_granularity;
  const uint64_t per_warp = (per_warp_raw + g - 1) / g * g;
  r.regs_per_cta = r.warps_per_cta * per_warp;
  r.by_warps = sm.warps / r.warps_per_cta;
  r.by_registers = sm.registers / r.regs_per_cta;
  r.by_slots = sm.cta_slots;
  r.by_shared =
      cta.shared_bytes_per_cta == 0 ? UINT64_MAX : sm.shared_bytes / cta.shared_bytes_per_cta;
  r.resident_ctas = std::min({r.by_warps, r.by_registers, r.by_slots, r.by_shared});
  r.resident_warps = r.resident_ctas * r.warps_per_cta;
  r.occupancy = static_cast<double>(r.resident_warps) / sm.warps;
  const std::pair<uint64_t, const char*> by[] = {{r.by_warps, "warps"},
                                                 {r.by_registers, "registers"},
                                                 {r.by_slots, "CTA slots"},
                                                 {r.by_shared, "shared memory"}};
  for (const auto& [n, name] : by) {
    if (n == r.resident_ctas)
      r.limiters.emplace_back(name);
  }
  return r;
}

}  // namespace gpurf::sim
