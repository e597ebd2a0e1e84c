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
//
// The model in detail (sim/mem/memory.cc; every number below is a MemoryConfig field):
//  - LSU pipeline, per SM: the L1D and shared memory are one array with one pipeline (as on
//    every NVIDIA GPU since Fermi). It takes one cache line (global/local/texture) or one
//    shared-memory pass per cycle: an access issued at t starts at s = max(t, pipeline free),
//    its line k is looked up and sent on at s + k. Unloaded and single-line, s = t, so the
//    latencies below are exact. The constant cache has its own pipeline, one distinct address
//    per cycle.
//  - L1D (and constant cache): sectored, a tag per line, per sector a valid bit and the cycle
//    its data arrives; LRU per set; set = line index % sets. Per line of a load: sectors present
//    cost hit_latency; sectors in flight merge into the line's MSHR (complete at their fill;
//    refused once the MSHR holds mshr_merge requests, the allocating one included); absent
//    sectors take a new MSHR (one per line request) and are fetched from the L2 together; a
//    line not resident replaces the LRU line that is not in flight (an in-flight line cannot be
//    evicted: all in flight -> refused). Check pass first, commit after: a refused access
//    changes nothing but the reservation_stalls count. Completion = the latest line.
//  - Load operators: .cg and .cv bypass the L1 (L2 only); .cs and .lu allocate at the LRU
//    position and do not promote on a hit (evict-first); .ca, .nc and the default use the L1.
//    Texture loads are .nc loads through the L1 (no separate texture cache or filtering).
//    l1d.bytes == 0: no L1, every load goes to the L2.
//  - Global stores follow l1d.write_back/write_allocate (by default write-through, no
//    write-allocate: a resident line is updated, the sectors go to the L2). A store completes
//    when it leaves the SM: hit_latency after its lookup, and not before its L2 slice accepts it
//    (so stores wait for a busy slice). Local memory (spills) is write-back, write-allocate in
//    the L1 whatever the global policy (Fermi): a local store makes its sectors valid and dirty
//    without a fetch (byte masks), completes after hit_latency; a dirty line is written back to
//    the L2 when replaced, after the demand miss that replaced it.
//  - Atomics (global) are performed at the L2: the L1 is bypassed (and not updated), the
//    completion is an L2 read round trip, the line is left dirty in the L2.
//  - Shared: SharedPasses() (distinct 4-byte words per bank, broadcast for one word, 8/16-byte
//    lanes split into words); completion = start + shared_latency + passes - 1, where start
//    waits for the LSU pipeline; bank_conflicts += passes - 1.
//  - Constant: passes = distinct lane addresses; the lines (one or few) are looked up in the
//    constant cache as above, misses go to the L2; completion = the latest line + passes - 1;
//    constant.bank_conflicts counts the extra passes.
//  - L2: slice = line index % l2_slices; sets_per_slice = l2.bytes / slices / (ways x line);
//    set = line index / slices % sets_per_slice. Each slice is a queue of
//    l2_bytes_per_cycle_slice: a request of n sectors arriving at a starts at
//    s = max(a, slice free) and holds the slice n x sector_bytes / bandwidth cycles. Sectors
//    present: data back at s + l2_latency; in flight (another SM's or request's fill): at
//    their fill + l2_latency (counted as MSHR merges); absent: one DRAM request for them, data
//    back at d + dram_latency + l2_latency. The L2 allocates on a miss (never refuses: when all
//    lines of a set are in flight the data streams past without allocating). Writes: per
//    l2.write_back/write_allocate (default write-back, write-allocate); a written sector becomes
//    valid without a fetch (byte masks, as since Fermi); dirty victims are written to DRAM.
//    The L2's MSHR count and merge limit are not modelled (an L2 never refuses).
//  - DRAM: one GPU-wide queue of dram_bytes_per_cycle: a transfer arriving at a starts at
//    d = max(a, next free) and holds the channel bytes / bandwidth cycles; reads and write-backs
//    share it. Queue times are kept in 1/65536 cycle, so fractional bandwidths add up; a start
//    is rounded up to a whole cycle.
//  - Statistics per SM; L2 and DRAM fields go to the SM whose request caused them (its dirty
//    victims included). accesses = sector requests (L1D, constant, L2), warp accesses (shared);
//    hits + misses = accesses, and mshr_merges are among the misses; bytes = bytes brought
//    from the next level (L1D, constant: from the L2; L2: from DRAM; DRAM: read + written);
//    dram.accesses = sectors transferred.
//
// Left out compared with GPGPU-Sim / Accel-Sim: no interconnect model beyond the slice
// bandwidth (no crossbar arbitration, packet sizes or credits); no DRAM banks, rows, refresh,
// read/write turnaround or per-channel partitions (one channel with the total bandwidth); no
// L2 MSHR limits, ROP latency for atomics or serialization of atomics to one address; no
// separate miss queues between levels (a refused L1 access is the only back-pressure beyond
// queueing delays); no texture cache, no L1 write-back of global data unless configured, no
// coherence between the SMs' L1s (a store does not invalidate other SMs' copies); the L1
// set index uses no hashing; requests of one warp are sent in lane order, not reordered.
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
  uint64_t accesses = 0;  // sector requests (L1D, L2, constant) or warp accesses (shared);
                          // DRAM: sectors transferred
  uint64_t hits = 0;
  uint64_t misses = 0;              // including the merged ones
  uint64_t mshr_merges = 0;         // misses merged into an in-flight fill
  uint64_t reservation_stalls = 0;  // refused: no free MSHR / merge slot / line to replace
  uint64_t bank_conflicts = 0;      // shared: extra passes; constant: extra (serialized) passes
  uint64_t bytes = 0;               // bytes moved from the next level (DRAM: bytes read+written)
};

struct MemStats {
  LevelStats l1d, shared, constant, l2, dram;
  uint64_t warp_accesses = 0;  // warp memory instructions accepted
  void Add(const MemStats& o);
};

// An SM's L1 data cache owned by another structure: a register-file hierarchy whose data array
// doubles as the L1D (the cache-emulated register file, sim/harness/hierarchies/cerf_system.h).
// With an owner set (MemorySystem::SetL1Owner), the SM's global, local and texture loads and
// stores that would use the L1D ask the owner about each coalesced line instead (in lane order,
// line k at the access's start + k): a load hit completes at max(start + k + hit_latency,
// ready); a load miss fetches the line's requested sectors from the L2 (the whole line when the
// owner allocated one for it, then Filled(line, fill cycle)); a store hit stays in the owner
// (write-back), a store miss is written to the L2 (no allocation); a victim the owner reports
// is written to the L2 after the demand request. The owner has no MSHR limit: CanIssue accepts
// every such access. Atomics and .cg/.cv loads still bypass to the L2; shared and constant
// accesses are the memory system's. L1D statistics count the owner's hits and misses (a hit on
// a line whose fill is still in flight as a miss merged into it, as the L1D counts it).
class L1Owner {
 public:
  virtual ~L1Owner() = default;
  struct Outcome {
    bool hit = false;        // resident: its data there at `ready` (0: already)
    uint64_t ready = 0;      // a fill still in flight
    bool allocated = false;  // a load miss that took a line: fetch the line, call Filled
    LineRequest victim;      // a line to write to the L2 (sectors 0: none)
  };
  // Line `line` (its byte address) of a load or store looked up at `at`.
  virtual Outcome Line(uint64_t at, uint64_t line, bool write) = 0;
  virtual void Filled(uint64_t line, uint64_t ready) = 0;
  virtual int hit_latency() const = 0;
};

class MemorySystem {
 public:
  // `sms` SMs share the L2 and DRAM. Throws std::invalid_argument on a configuration it cannot
  // model (line/sector sizes not powers of two or more than 32 sectors a line, a cache smaller
  // than one set, no bandwidth, more than 1024 shared banks). MemoryConfig::ideal is the SM's
  // business: the memory system models the hierarchy whatever it says.
  MemorySystem(const MemoryConfig& cfg, int sms);
  ~MemorySystem();
  MemorySystem(const MemorySystem&) = delete;
  MemorySystem& operator=(const MemorySystem&) = delete;

  // SM `sm` issues a warp memory instruction in `cycle`: the cycle its data is back (loads,
  // atomics) or it has left the SM (stores), or nullopt when it must retry later (a reservation
  // stall; nothing changed). Cycles are non-decreasing over all calls.
  std::optional<uint64_t> Issue(int sm, uint64_t cycle, const Access& a);
  // Whether Issue(sm, cycle, a) would accept the access now; no side effects.
  bool CanIssue(int sm, uint64_t cycle, const Access& a) const;
  // After CanIssue(sm, cycle, a) refused: the first cycle at which it may accept, the next
  // release of an MSHR of the cache that refused (every line in flight holds one, and nothing
  // else frees a resource a refused access needs). Later issues only take resources, so the
  // access stays refused until then; the SM need not ask before.
  uint64_t RetryCycle(int sm, uint64_t cycle, const Access& a) const;

  // SM `sm`'s L1D is `owner`'s from now on (null: the memory system's own again); see L1Owner.
  void SetL1Owner(int sm, L1Owner* owner);
  // A transfer of `sectors` of line `line` (in l1d.line_bytes lines) between SM `sm` and the L2
  // that is no memory instruction's (an L1 owner's register spills and fills), arriving at the
  // L2 at `at`: reads, the cycle the data is back; writes, the cycle the L2 accepts it. Counted
  // in the SM's L2 and DRAM statistics.
  uint64_t L2Transfer(int sm, uint64_t at, uint64_t line, uint32_t sectors, bool write);

  const MemoryConfig& config() const;
  const MemStats& Stats(int sm) const;  // L2 and DRAM fields: what this SM caused
  MemStats Total() const;

 private:
  struct Impl;
  Impl* impl_;
};

}  // namespace gpurf::sim::mem
