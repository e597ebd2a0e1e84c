// The GPU a design runs on: how many SMs, what each SM is (schedulers, issue width, warp and
// CTA limits, register file and shared memory sizes, unit latencies: sim/sm/sm.h SmConfig), and
// the memory hierarchy they share (per-SM L1 data cache, shared memory and constant cache; L2
// slices and DRAM shared by all SMs).
//
// Presets reproduce the GPUs of the papers gpurf implements (fermi-gebhart, gtx480, gtx980,
// pascal-finereg, titanx-pascal); gpu_presets.cc gives the source of every field. A design's
// `gpu:` section starts from a preset and overrides fields.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/sm/sm.h"

namespace gpurf::sim {

// One cache level. A sectored cache allocates whole lines (tags per line) but fills and tracks
// validity per sector: a miss fetches only the sectors the access needs.
struct CacheConfig {
  uint32_t bytes = 0;  // capacity; 0 = no cache at this level (accesses go to the next level)
  uint32_t ways = 4;
  uint32_t line_bytes = 128;
  uint32_t sector_bytes = 32;  // == line_bytes: not sectored
  int hit_latency = 1;         // cycles from access to data for a hit
  int mshrs = 32;              // outstanding line misses; a miss when all are busy stalls
  int mshr_merge = 8;          // requests one MSHR merges (same line in flight)
  // Global stores: write-through with no write-allocate by default (Fermi and later L1s);
  // write-back + write-allocate for the L2.
  bool write_back = false;
  bool write_allocate = false;

  bool operator==(const CacheConfig&) const = default;
};

struct MemoryConfig {
  // Ideal memory: every global/local access takes SmConfig::lat_dram cycles, no caches, no
  // bandwidth limit (gpurf's model before the memory hierarchy; reproduces Gebhart's figures).
  bool ideal = false;

  CacheConfig l1d;             // per SM (global and local data)
  CacheConfig const_cache;     // per SM (constant and parameter space)
  uint32_t shared_banks = 32;  // shared memory banks, 4 bytes wide
  int shared_latency = 20;     // cycles for a conflict-free shared access
  // L2 shared by all SMs, split in slices interleaved by line address.
  CacheConfig l2;
  int l2_slices = 12;
  int l2_latency = 120;                  // cycles from an L1 miss to L2 data (hit), unloaded
  double l2_bytes_per_cycle_slice = 32;  // bytes a slice returns per core cycle
  // DRAM: bandwidth in bytes per core cycle for the whole GPU, and latency beyond the L2.
  double dram_bytes_per_cycle = 100;
  int dram_latency = 220;

  bool operator==(const MemoryConfig&) const = default;
};

struct GpuConfig {
  std::string preset;  // the preset it started from
  int sms = 1;
  double core_mhz = 700;
  SmConfig sm;
  MemoryConfig mem;
};

// Preset names in a stable order, and the preset by name (nullptr when unknown).
std::vector<std::string> GpuPresetNames();
const GpuConfig* FindGpuPreset(const std::string& name);
// One paragraph per preset field: its value and its source (paper table or section), for the
// README and `gpurf gpu show NAME`.
std::string DescribeGpuPreset(const GpuConfig& g);

// Why `g` is inconsistent (e.g. "sm.active_warps 12 exceeds sm.warps 8 / sm.schedulers 2"),
// empty when it is usable. Checks every field's range and the relations between fields.
std::string GpuConfigProblem(const GpuConfig& g);

}  // namespace gpurf::sim
