// The `hybrid` register-file system on the C++ models: Bailey, Kloosterman and Mahlke's hybrid
// register cache / register scratchpad (sections III-A, III-B, IV-D) per register-file partition
// (one per warp scheduler), behind the SM harness's system interface (rf_systems.h).
//
//   RSP: the compiler's allocation (sim/passes/rsp_alloc.h, AllocateRsp for rsp_bytes per SM
//   over the SM's active warps) names, per static instruction, the operands read from an RSP
//   entry, the reads that also fill one (read allocation), the results written to one and the
//   live-out write-backs after it. The RSP never misses (the compiler's guarantee, which
//   CheckRspAllocation checks), so its counts are the allocation's per executed instruction.
//   Entries are emptied at strand ends, where the two-level scheduler deschedules: nothing is
//   saved or restored. A live-out goes after the results of its instruction when the instruction
//   writes the value, else right after its reads (at issue): nothing orders a later reader of the
//   register behind the completion of an instruction that only read it.
//
//   RC: rc_bytes per SM / partitions of 128-byte lines, 2-way set-associative with true LRU,
//   shared by every warp of the partition (no slots, no flush: Bailey II-C3), register r of
//   warp w in set (r ^ w) mod sets (any number of sets; the hybrid-rc family's RTL needs a power
//   of two). Write-allocate: every result not written to the RSP takes a line (a hit overwrites,
//   a miss fills an invalid way or evicts the LRU line, which is written back to the MRF: every
//   valid line is dirty). Reads never allocate; a read with the compiler's last-use hint
//   (warp-level liveness) invalidates its line after the instruction's reads: the dead value is
//   never written back. No RC (rc_bytes 0): every access the RSP does not take is the MRF's.
//
//   Transfers (one at a time, after the instruction's reads and last-use invalidations, as the
//   hybrid-rc's transfer port does). hierarchical (Fig. 6): a fill reads the RC (touching the
//   line again: it becomes the most recently used) or, on a miss, the MRF; a live-out is an RC
//   write (write-allocate). parallel-evict: a fill of a register the RC holds takes the line's
//   value, writes it back to the MRF and invalidates it; a live-out goes to the MRF and drops the
//   RC's copy without write-back. parallel-lifetime: no transfers; the compiler's allocation keeps
//   only its write ranges that are not live-out (LifetimeRangesOnly), checked again by
//   CheckRspAllocation.
//
//   Timing. An instruction with a source that misses the RC and is read from the MRF gets one
//   extra cycle of operand delay (IV-D: the RC lookup, then the MRF access, exceed the 0.89 ns
//   clock); RSP and RC hits add nothing, nor does the MRF without an RC in front of it.
//
// Counts (energies of HybridEnergies: levels MRF, RC, RSP, component "RC misses"): RSP reads,
// writes (results), fills (LevelCounts::fills) and live-out reads (drains); RC hit reads, writes
// (results and hierarchical live-outs), evictions (drains); MRF reads (RC misses and every read
// without an RC), writes (results without an RC), write-backs (RC evictions, parallel-evict
// transfers, live-outs without an RC); one "RC misses" event per RC lookup that missed.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "energy/energy_model.h"
#include "sim/harness/rf_systems.h"
#include "sim/passes/rf_energies.h"
#include "sim/passes/rsp_alloc.h"

namespace gpurf::harness {

// The RC of one partition: `lines` lines in sets of `ways` (0 lines: no RC).
class RegisterCache {
 public:
  RegisterCache(int lines, int ways);
  bool enabled() const { return sets_ > 0; }
  int sets() const { return sets_; }
  // The line holding (warp, reg), or -1.
  int Find(int warp, int reg) const;
  // Makes `line` the most recently used of its set.
  void Touch(int line) { stamp_[static_cast<size_t>(line)] = ++clock_; }
  void Invalidate(int line) { key_[static_cast<size_t>(line)] = -1; }
  struct Victim {
    bool valid = false;
    int warp = 0, reg = 0;
  };
  // Write-allocate of (warp, reg): true on a hit; a miss fills the lowest invalid way of the set,
  // else replaces its least recently used line, returned in `victim`. The line becomes the MRU.
  bool Write(int warp, int reg, Victim& victim);

 private:
  static int64_t Key(int warp, int reg) { return (int64_t{warp} << 20) | reg; }
  int SetOf(int warp, int reg) const { return (reg ^ warp) % sets_; }
  int sets_ = 0, ways_ = 0;
  std::vector<int64_t> key_;     // per line, -1 invalid
  std::vector<uint64_t> stamp_;  // per line, last use
  uint64_t clock_ = 0;
};

// What the hybrid system did beyond its energy counts (per structure, for reports and tests).
struct HybridStats {
  uint64_t rsp_reads = 0, rsp_writes = 0, rsp_fills = 0, live_outs = 0;
  uint64_t rc_read_hits = 0, rc_read_misses = 0;  // operand lookups (fills included)
  uint64_t rc_writes = 0, rc_write_hits = 0;      // results and hierarchical live-outs
  uint64_t rc_evictions = 0, dead_kills = 0, evict_on_fill = 0;
  uint64_t mrf_reads = 0, mrf_writes = 0, miss_delays = 0;
};

// The energies of a hybrid design (see the file comment), per 128-bit row: the MRF from `pe`
// (Gebhart Table V, or the characterization JSON `json`), the RSP and the RC from gpurf's own
// characterization of the hybrid-rc family (docs/hybrid-rc.md, scaled to 40 nm) unless `json`
// has an `l1` (RSP) or `l0` (RC) section; wire distances are Gebhart's L1 ORF's for both.
energy::Energies HybridEnergies(const sim::passes::RegisterFileEnergies& pe,
                                const std::string& json);

// The system for kernel `k` on register-file partition `part` (active warps per partition,
// rf_partitions of the SM): rc_bytes and rsp_bytes are per SM.
std::unique_ptr<RfSystem> MakeHybridSystem(const DesignSpec& d, const sim::Kernel& k,
                                           const sim::SmConfig& part,
                                           const sim::passes::KernelAnalysis& a,
                                           const HarnessOptions& opt);
// The hybrid statistics of a system MakeHybridSystem built (nullptr for any other system).
const HybridStats* HybridStatsOf(const RfSystem& system);

// The RSP allocation of `k` for `rsp_bytes` per SM over `active_warps` per SM, priced with the
// hybrid's energies (nullptr when the RSP has no entry per warp). `lifetime_only`
// (parallel-lifetime): only the write ranges that are not live-out, checked again.
std::shared_ptr<const sim::passes::RspAllocation> HybridRspAllocation(
    const sim::Kernel& k, const sim::passes::KernelAnalysis& a, int rsp_bytes, int active_warps,
    bool lifetime_only = false);
// `a` without its read allocations and live-out write ranges (no RSP transfers).
sim::passes::RspAllocation LifetimeRangesOnly(const sim::Kernel& k,
                                              const sim::passes::RspAllocation& a);

}  // namespace gpurf::harness
