// The small memory configuration the memory and SM tests compute their expectations with
// (sim/mem/tests/memory_test.cc states the numbers it gives: an L1 hit 10 cycles, an L2 hit
// 100, an L2 miss 300; line j of a burst at cycle 0 fills at 300 + 4j).
#pragma once

#include "sim/sm/gpu_config.h"

namespace gpurf::sim::mem {

inline MemoryConfig SmallMemoryConfig() {
  MemoryConfig c;
  c.l1d.bytes = 4 * 2 * 128;
  c.l1d.ways = 2;
  c.l1d.line_bytes = 128;
  c.l1d.sector_bytes = 32;
  c.l1d.hit_latency = 10;
  c.l1d.mshrs = 4;
  c.l1d.mshr_merge = 3;
  c.l1d.write_back = false;
  c.l1d.write_allocate = false;
  c.const_cache = c.l1d;
  c.const_cache.bytes = 2 * 2 * 128;
  c.const_cache.hit_latency = 4;
  c.shared_banks = 32;
  c.shared_latency = 20;
  c.l2.bytes = 2 * 8 * 4 * 128;
  c.l2.ways = 4;
  c.l2.line_bytes = 128;
  c.l2.sector_bytes = 32;
  c.l2.write_back = true;
  c.l2.write_allocate = true;
  c.l2_slices = 2;
  c.l2_latency = 100;
  c.l2_bytes_per_cycle_slice = 64;
  c.dram_bytes_per_cycle = 32;
  c.dram_latency = 200;
  return c;
}

}  // namespace gpurf::sim::mem
