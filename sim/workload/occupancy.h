// Occupancy of a kernel launch on one SM: how many CTAs are resident at once given the CTA's
// warps, registers and shared memory and the SM's limits, and which resource limits it (the
// arithmetic of the CUDA occupancy calculator, simplified to the four resources gpurf's SM model
// has; sim/sm/sm.cc ComputeOccupancy applies the same limits with no allocation granularity).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gpurf::sim {

struct SmLimits {  // defaults: a Fermi-class SM (GF100)
  uint32_t warps = 48;
  uint64_t registers = 32768;
  uint32_t cta_slots = 8;
  uint64_t shared_bytes = 48 * 1024;
  uint32_t lanes = 32;
  // Registers are allocated per warp in multiples of this many (1: exactly lanes x regs).
  uint32_t register_granularity = 1;
};

struct CtaShape {
  uint32_t regs_per_thread = 0;
  uint64_t threads_per_cta = 0;
  uint64_t shared_bytes_per_cta = 0;
};

struct OccupancyResult {
  uint64_t warps_per_cta = 0;
  uint64_t regs_per_cta = 0;
  // CTAs each resource alone would allow (UINT64_MAX: unlimited, e.g. no shared memory used).
  uint64_t by_warps = 0, by_registers = 0, by_slots = 0, by_shared = 0;
  uint64_t resident_ctas = 0;  // the minimum; 0 when one CTA does not fit
  uint64_t resident_warps = 0;
  double occupancy = 0;  // resident warps / SM warps
  // The resources whose limit equals resident_ctas ("warps", "registers", "CTA slots",
  // "shared memory"), in that order; several when they tie.
  std::vector<std::string> limiters;
  std::string LimiterText() const;  // "registers" or "warps+CTA slots"
};

// Throws std::invalid_argument when an SM limit is 0 or the CTA has no threads.
OccupancyResult ComputeOccupancy(const CtaShape& cta, const SmLimits& sm);

}  // namespace gpurf::sim
