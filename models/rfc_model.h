// Golden model of Gebhart's hardware-managed register file cache (TOCS 2012, sections 4.1, 4.6,
// 7.6), written from the paper's semantics as restated in gen/structures/rfc/rfc_spec.h, not
// from the RTL. Three layers:
//   RfcCache       - the cache as a library component with a transaction-level API (Read, Write,
//                    Flush, FlushNext) and access counters, for the SM harness and energy model;
//   RfcScoreboard  - a checker that watches the port traffic of one cycle and proves that every
//                    live value leaves exactly once (dead hint, newer value, or one write-back
//                    with the right data) and that hits return the latest value;
//   RfcCycleModel  - the CycleModel adapter for lockstep: the write-back register, the flush
//                    engine and the ready handshakes of the port contract, with both checks.
//
// RfcCache keeps, per slot and level, a list of entries {valid, reg, data, stamp}; the stamp is
// a global counter value taken at each write (and each read hit with LRU), so the victim is the
// entry with the smallest stamp, the lowest-numbered invalid entry is the free one. A value is
// in at most one level.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/bits.h"
#include "gen/structures/rfc/rfc_ports.h"
#include "gen/structures/rfc/rfc_spec.h"
#include "models/cycle_model.h"

namespace gpurf {

struct RfcConfig {
  int slots = 8;
  int levels = 1;  // 1: L1 only; 2: L0 + L1
  int l1_entries = 6;
  int l0_entries = 0;
  int width = 128;
  int reg_bits = 6;
  bool lru = false;

  static RfcConfig From(const RfcSpec& s);
};

// Where a write-back to the MRF comes from.
enum class RfcWbKind { kEviction, kFlush, kBypass };

struct RfcWriteBack {
  int slot = 0;
  int reg = 0;
  Bits data;
  RfcWbKind kind = RfcWbKind::kEviction;
};

// Access counts for the energy model. Level index 0 = L0, 1 = L1 (index 0 unused with 1 level).
struct RfcCounters {
  struct Level {
    uint64_t tag_checks = 0;  // one per level per operand lookup and per result write
    uint64_t hits = 0;        // operand lookups served by this level
    uint64_t misses = 0;      // operand lookups not found in this level
    uint64_t reads = 0;       // data reads: operand hits
    uint64_t wb_reads = 0;    // data reads for write-backs (eviction or flush)
    uint64_t writes = 0;      // data writes: results and L0 victims moved in
    uint64_t evictions = 0;   // live values pushed out to the next level
  };
  std::array<Level, 2> level;
  uint64_t lookups = 0;        // valid operand lookups
  uint64_t lookup_misses = 0;  // served by the MRF
  uint64_t result_writes = 0;  // accepted result writes
  uint64_t mrf_evictions = 0;  // write-backs of L1 victims
  uint64_t mrf_flushes = 0;    // write-backs by flushes
  uint64_t mrf_bypasses = 0;   // long-latency (or flushed-slot) results sent to the MRF
  uint64_t dead_kills = 0;     // entries invalidated by liveness hints
  uint64_t superseded = 0;     // copies invalidated by a newer value elsewhere
  uint64_t flushes = 0;        // flush (deschedule) operations started

  uint64_t mrf_writes() const { return mrf_evictions + mrf_flushes + mrf_bypasses; }
};

class RfcCache {
 public:
  struct Operand {
    bool valid = false;
    int slot = 0;
    int reg = 0;
    bool last = false;  // liveness hint: last read of the value
  };
  struct ReadResult {
    bool hit = false;
    int level = -1;  // 0 = L0, 1 = L1
    Bits data;
  };
  struct WriteResult {
    std::optional<RfcWriteBack> to_mrf;  // L1 eviction or bypass
    bool l0_evicted = false;             // an L0 victim moved into L1
  };
  // Deliberate faults, for the tests that show the invariant checks fire.
  enum class Fault { kNone, kDuplicateOnWrite, kDropEviction, kWrongWriteBackData };

  explicit RfcCache(const RfcConfig& c);

  const RfcConfig& config() const { return c_; }
  void Reset();

  // Tag check without side effects.
  ReadResult Probe(int slot, int reg) const;
  // The level holding `reg` of `slot` (0 = L0, 1 = L1), -1 when absent: Probe without the data.
  int LevelOf(int slot, int reg) const;
  // The operand reads of one cycle, all against the state before the call; then LRU touches in
  // operand order and invalidation of hits marked last. A Read starts a cycle: a Write after it
  // chooses its victim by the replacement order before the Read's touches.
  std::vector<ReadResult> Read(const std::vector<Operand>& ops);
  // The same, answering ops[i] in res[i]; res is grown to ops.size() if shorter and keeps any
  // further elements, so that a caller reusing it allocates nothing.
  void Read(const std::vector<Operand>& ops, std::vector<ReadResult>& res);
  // A result write. `bypass`: long-latency (or a slot being flushed): straight to the MRF.
  // `not_l0`: with two levels, allocate in L1.
  WriteResult Write(int slot, int reg, const Bits& data, bool bypass, bool not_l0);
  // Flush, one entry at a time: the next live entry of `slot` (L0 first, lowest entry first) is
  // invalidated and returned; nullopt when the slot holds none.
  std::optional<RfcWriteBack> FlushNext(int slot);
  // Whole flush (deschedule): every live entry written back, the slot freed.
  std::vector<RfcWriteBack> Flush(int slot);

  // Counts a flush operation (Flush() does; a cycle-level flush engine calls it once per
  // request and then FlushNext per entry).
  void CountFlush() { ++counters_.flushes; }

  bool HasLive(int slot) const;
  // The level FlushNext(slot) would take its entry from (-1: none).
  int NextFlushLevel(int slot) const;
  int LiveCount(int slot) const;

  // Invariant 1: no two valid entries of a slot hold the same register; "" when it holds.
  std::string CheckUnique() const;

  const RfcCounters& counters() const { return counters_; }
  void set_fault(Fault f) { fault_ = f; }

 private:
  struct Entry {
    bool valid = false;
    int reg = 0;
    Bits data;
    uint64_t stamp = 0;         // last write (and LRU read hit); larger = more recent
    uint64_t victim_stamp = 0;  // stamp before this cycle's read hits: orders victims
  };
  // Every entry's victim_stamp = stamp (the replacement order of the next cycle). Only entries
  // touched by an LRU read hit can differ (a write sets both), so only those are visited.
  void SyncStamps();
  // entries_[level][slot][entry]
  using Slot = std::vector<Entry>;

  Slot& At(int level, int slot) { return entries_[level][slot]; }
  const Slot& At(int level, int slot) const { return entries_[level][slot]; }
  int TopLevel(bool not_l0) const { return (c_.levels == 2 && !not_l0) ? 0 : 1; }
  int Find(int level, int slot, int reg) const;  // entry index or -1
  // Inserts (reg, data) into `level` of `slot`; true when a live value was evicted, which is
  // then in `evicted` (whose storage is reused).
  bool Insert(int level, int slot, int reg, const Bits& data, Entry& evicted);

  RfcConfig c_;
  std::array<std::vector<Slot>, 2> entries_;
  struct Touched {
    int level, slot, entry;
  };
  std::vector<Touched> touched_;  // entries whose stamp changed since the last SyncStamps
  std::array<Entry, 2> evicted_;  // scratch of Write: the L0 and the L1 victim
  uint64_t clock_ = 0;
  RfcCounters counters_;
  Fault fault_ = Fault::kNone;
};

// Port-level checker of invariant 2 (see the file comment). Feed it every cycle with the inputs
// and the outputs of that cycle (before the edge); Failure() names the first violation.
class RfcScoreboard {
 public:
  struct Cycle {
    bool reset = false;
    std::array<RfcCache::Operand, 3> ops;
    std::array<bool, 3> hit{};
    std::array<Bits, 3> data;
    bool wr_fire = false;
    int wr_slot = 0, wr_reg = 0;
    Bits wr_data;
    bool fl_accept = false;  // a flush request is taken this cycle
    int fl_slot = 0;
    bool fl_done = false;
    bool wb_valid = false, wb_ready = false;
    int wb_slot = 0, wb_reg = 0;
    Bits wb_data;
  };
  void Observe(uint64_t cycle, const Cycle& c);
  const std::string& Failure() const { return failure_; }
  uint64_t discharged_dead() const { return dead_; }
  uint64_t discharged_superseded() const { return superseded_; }
  uint64_t discharged_written_back() const { return written_back_; }

 private:
  struct Item {
    int slot, reg;
    Bits data;
    bool emitted;  // presented on the write-back port: must transfer, cannot be superseded
  };
  void Fail(uint64_t cycle, const std::string& what);
  int Resident(int slot, int reg) const;  // index of the non-emitted item, or -1

  std::vector<Item> owed_;
  int flushing_slot_ = -1;
  uint64_t dead_ = 0, superseded_ = 0, written_back_ = 0;
  std::string failure_;
};

// Manifest port indices of an RFC, resolved from its port table (RfcPortTable, rfc_ports.h) once
// per spec; lu_l0 and wr_no_l0 exist with two levels only, -1 otherwise.
struct RfcPorts {
  int clk, rst_n, lu_valid, lu_slot, lu_reg, lu_last, lu_hit, lu_l0, lu_data;
  int wr_valid, wr_slot, wr_reg, wr_data, wr_long, wr_no_l0, wr_ready;
  int fl_valid, fl_slot, fl_busy, fl_done;
  int wb_valid, wb_slot, wb_reg, wb_data, wb_ready;
  int count;

  static RfcPorts For(const RfcSpec& s);
};

class RfcCycleModel : public CycleModel {
 public:
  explicit RfcCycleModel(const RfcSpec& spec);

  void Outputs(const PortValues& in, PortValues& out, PortValues& defined) override;
  void Clock(const PortValues& in) override;
  std::string Failure() const override;

  RfcCache& cache() { return cache_; }
  const RfcScoreboard& scoreboard() const { return board_; }

 private:
  void ResetState();
  std::vector<RfcCache::Operand> Operands(const PortValues& in) const;

  const RfcSpec spec_;
  const RfcPorts p_;
  RfcCache cache_;
  RfcScoreboard board_;
  // Write-back register and flush engine.
  bool wb_valid_ = false;
  RfcWriteBack wb_;
  bool fl_busy_ = false;
  int fl_slot_ = 0;
  // Outputs of the current cycle, for the scoreboard.
  std::array<bool, 3> hit_{};
  std::array<Bits, 3> data_;
  bool fl_done_ = false;
  uint64_t cycle_ = 0;
  std::string failure_;
};

}  // namespace gpurf
