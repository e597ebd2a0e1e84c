// The memory hierarchy of the SM harness: per-lane addresses of a warp memory instruction are
// coalesced into 32-byte sectors of 128-byte lines, go through the SM's L1 data cache (global
// and local data), shared memory banks or constant cache, then the L2 slices and DRAM shared by
// all SMs (sim/sm/gpu_config.h MemoryConfig).
//
// Timing model: timestamps computed when the SM issues the instruction. The caller issues in
// non-decreasing cycle order over all SMs (the GPU loop steps every SM each cycle), so queues
// are modelled by the cycle each resource is next free: a DRAM channel or an L2 slice serves
// requests in arrival order at its bandwidth, and an access that finds it busy waits. Cache
// state (tags, LRU, sector validity, MSHRs) changes at issue; a line being filled is in an MSHR
// until its fill cycle, and later accesses to it merge (up to CacheConfig::mshr_merge) and
// complete at the fill cycle. A miss that finds every MSHR busy is refused (a reservation
// stall): the SM retries the instruction in a later cycle, nothing changed.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "sim/sm/gpu_config.h"

namespace gpurf::sim::mem {

enum class Space : uint8_t { kGlobal, kLocal, kShared, kConst, kTexture };

// Load cache operators as PTX writes them (ld.global.ca/.cg/.cs/.nc/.lu/.cv), kept by the front
// end: .cg bypasses the L1, .cs streams (allocated with the lowest priority), .nc reads through
// the read-only path (treated like .ca).
enum class CacheOp : uint8_t { kDefault, kCa, kCg, kCs, kNc, kLu, kCv };

struct Access {
  Space space = Space::kGlobal;
  bool write = false;
  bool atomic = false;  // read-modify-write, performed at the L2
  CacheOp op = CacheOp::kDefault;
  uint32_t mask = 0;                // active lanes
  uint8_t lane_bytes = 4;           // bytes each lane accesses (1..16)
  const uint64_t* lanes = nullptr;  // 32 addresses, inactive lanes ignored
};

// A line an access touches and which of its sectors.
struct LineRequest {
  uint64_t line = 0;     // line address (byte address of its first byte)
  uint32_t sectors = 0;  // bit s: sector s of the line
};

// The lines and sectors of the active lanes' bytes, in order of first appearance by lane.
void Coalesce(const Access& a, uint32_t line_bytes, uint32_t sector_bytes,
              std::vector<LineRequest>& out);

// Shared memory: passes a warp access needs, the largest number of distinct 4-byte words that
// fall in one bank (lanes reading the same word are served by one broadcast); 1 when conflict
// free, 0 with no active lane.
int SharedPasses(const Access& a, uint32_t banks);

struct LevelStats {
  uint64_t accesses = 0;  // sector requests (L1D, L2, constant) or warp accesses (shared)
  uint64_t hits = 0;
  uint64_t misses = 0;
  uint64_t mshr_merges = 0;         // misses merged into an in-flight fill
  uint64_t reservation_stalls = 0;  // refused: no free MSHR / queue entry
  uint64_t bank_conflicts = 0;      // shared: extra passes
  uint64_t bytes = 0;               // bytes moved from the next level (DRAM: bytes read+written)
};

struct MemStats {
  LevelStats l1d, shared, constant, l2, dram;
  uint64_t warp_accesses = 0;  // warp memory instructions accepted
  void Add(const MemStats& o);
};

class MemorySystem {
 public:
  // `sms` SMs share the L2 and DRAM.
  MemorySystem(const MemoryConfig& cfg, int sms);
  ~MemorySystem();
  MemorySystem(const MemorySystem&) = delete;
  MemorySystem& operator=(const MemorySystem&) = delete;

  // SM `sm` issues a warp memory instruction in `cycle`: the cycle its data is back (loads,
  // atomics) or it has left the SM (stores), or nullopt when it must retry later (a reservation
  // stall; nothing changed). Cycles are non-decreasing over all calls.
  std::optional<uint64_t> Issue(int sm, uint64_t cycle, const Access& a);

  const MemStats& Stats(int sm) const;  // L2 and DRAM fields: what this SM caused
  MemStats Total() const;

 private:
  struct Impl;
  Impl* impl_;
};

}  // namespace gpurf::sim::mem
