// The GPU a design runs on: how many SMs, what each SM is (schedulers, issue width, warp and
// CTA limits, register file and shared memory sizes, unit latencies: sim/sm/sm.h SmConfig), and
// the memory hierarchy they share (per-SM L1 data cache, shared memory and constant cache; L2
// slices and DRAM shared by all SMs).
//
// Presets reproduce the GPUs of the papers gpurf implements (fermi-gebhart, gtx480, gtx980,
// pascal-finereg, titanx-pascal); gpu_config.cc gives the source of every field. A design's
// `gpu:` section starts from a preset and overrides fields by dotted path (GpuFields():
// "sm.warps", "l1d.bytes", "memory"...); sim/harness/gpu.h resolves it.
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

  CacheConfig l1d;  // per SM (global and local data)
  // Unified RF + L1D memory (Gebhart et al. MICRO 2012, the baseline of Jing et al. Fig. 10):
  // 0 = separate (l1d.bytes is the L1D). Otherwise one SRAM of this many bytes per SM is split
  // statically at every kernel launch: the register file gets what the kernel's resident CTAs
  // hold (the occupancy sm.registers, sm.shared_bytes, warps and CTA slots allow), the L1D the
  // rest, in whole sets of l1d.ways x l1d.line_bytes (UnifiedL1d; l1d.bytes is then unused).
  // Shared memory stays sm.shared_bytes of its own.
  uint32_t unified_bytes = 0;
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

// The L1D of a unified memory (m.unified_bytes != 0) whose register file holds
// `register_bytes`: m.l1d with bytes = the whole sets of l1d.ways x l1d.line_bytes that fit in
// what is left (0: no L1D, when less than one set is left). The set count need not be a power of
// two (the L1 indexes sets modulo their count). m.l1d itself when m.unified_bytes is 0.
CacheConfig UnifiedL1d(const MemoryConfig& m, uint64_t register_bytes);

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

// One settable field of GpuConfig, by dotted path: what values it allows, and its value as
// text. Every field of the configuration is one (sm.lanes included: it comes from the design).
struct GpuField {
  std::string path;     // "sms", "sm.warps", "memory", "l1d.bytes", "dram_bytes_per_cycle"
  std::string allowed;  // "integer 1..64", "one of: lrr, gto, two-level"
  std::string help;     // one line
};
const std::vector<GpuField>& GpuFields();
const GpuField* FindGpuField(const std::string& path);
// The value of field `path` of `g` as text (as a design file would write it).
std::string GpuFieldValue(const GpuConfig& g, const std::string& path);
// Sets field `path` of `g` from `text`; false when the text is not an allowed value (the range
// of the field; relations between fields are GpuConfigProblem's).
bool SetGpuField(GpuConfig& g, const std::string& path, const std::string& text);
// Where preset `preset`'s value of `path` comes from (paper, table or section; or the public
// GPU's figure, or gpurf's own choice, said so).
std::string GpuFieldSource(const std::string& preset, const std::string& path);
// One line of what a preset is and where it comes from.
std::string GpuPresetSummary(const std::string& preset);

// Why `g` is inconsistent (e.g. "sm.active_warps 12 exceeds sm.warps 8 / sm.schedulers 2"),
// empty when it is usable. Checks every field's range and the relations between fields.
std::string GpuConfigProblem(const GpuConfig& g);

}  // namespace gpurf::sim
