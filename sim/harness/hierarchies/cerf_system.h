// The cache-emulated register file (Jing et al., sections III-A to III-D) as a register-file
// system of the SM harness: the MRF's banks are one integrated data array holding register
// lines (one warp register = one 128-byte line) and L1D lines, and one banked set-associative
// tag array (the tag-array family's golden model, models/tag_array_model.h, which checks the
// invariants I1-I4 after every lookup) decides for every register operand and every memory line
// where it is.
//
//   Registers. A register (warp, reg) is looked up at its reg-mem address (RegMemIndexer,
//   cerf_rgen.h). Reads (in the tagging stage, +1 cycle of operand delay for every instruction
//   with register operands; the lookups of one instruction in the same tag bank are serialized,
//   +1 cycle per extra lookup): a hit reads the data array (timed by the MRF's bank model as in
//   every hierarchy); a miss of a register that was evicted is a fill from local memory through
//   the L2 (a 128-byte read at the issue cycle; the operand waits for it) and refills a line; a
//   miss of a register never written reads nothing (a cold read, counted). Under lru-prioritized
//   a read the compiler's warp-level liveness marks as the register's last use frees its line
//   (reg -> inactive); under lru-fair lines age out by LRU only. Writes (at write-back) hit or
//   allocate a line (the first write of a register allocates an inactive line when the set has
//   one). A register line chosen as victim is spilled: a 128-byte write to the L2 at its reg-mem
//   address; its next read fills it back. When a CTA finishes, its warps' register lines are
//   freed (the register file's deallocation at exit).
//
//   Memory. The system owns its SM's L1D (sim/mem/memory.h L1Owner): global, local and texture
//   loads and stores look up their lines in the same tags with their real addresses; a load miss
//   allocates a cache line (lru-prioritized: never in place of a register; when every way of the
//   set holds a register the load is not cached) and the memory system fetches the whole line;
//   stores hit a line (cache -> dirty) or go to the L2 (write-no-allocate); dirty and register
//   victims of loads are written to the L2 by the memory system. Hits complete after the L1D's
//   hit latency, or when the line's fill arrives.
//
//   Counts. Register reads and writes are data-array (level "MRF") accesses; a spill drains a
//   line of it and a fill writes one; the events are the register tag lookups, the spills and
//   the fills (each a 128-byte L2 transfer). Memory-side lookups, hits, fills and write-backs are
//   counted in CerfStats and in the memory system's L1D statistics, not in the register-file
//   energy (the MRF-only baseline's L1D is not in it either).
//
// Left out: the tag and data array bandwidth that cache traffic takes from register accesses
// (memory lookups do not contend with register lookups for tag banks or data banks), MSHR limits
// of the integrated memory (it never refuses an access), sector validity (a line is filled
// whole), and the tag lookups of register writes in the tagging stage's bank arbitration.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "models/tag_array_model.h"
#include "sim/harness/hierarchies/cerf_rgen.h"
#include "sim/harness/rf_systems.h"
#include "sim/harness/transactors/tag_array_transactions.h"
#include "sim/mem/memory.h"

namespace gpurf::harness {

struct CerfConfig {
  int bytes = 131072;  // integrated memory per SM
  int ways = 4;
  int tag_banks = 4;
  int line_bytes = 128;  // one warp register (lanes x 4 bytes)
  bool prioritized = true;
  int64_t prefix = -1;  // reg-mem prefix, -1: all ones
  // Address bits of the tag array: the simulator's global addresses lie above 4 GiB, so the
  // harness uses 48 (the paper's 32 would alias them); the prefix fills what the register
  // address leaves.
  int addr_width = 48;
  int sets() const { return bytes / line_bytes / ways; }
  static CerfConfig From(const DesignSpec& d);
};

struct CerfStats {
  uint64_t reg_reads = 0;            // register read lookups (one per distinct source register)
  uint64_t reg_read_hits = 0;        // ... that found the register's line
  uint64_t fills = 0;                // read misses of evicted registers: fills from local memory
  uint64_t cold_reads = 0;           // read misses of registers never written (no fill)
  uint64_t reg_writes = 0;           // register write lookups
  uint64_t write_allocs = 0;         // ... that allocated a line
  uint64_t spills = 0;               // register lines evicted (written to local memory)
  uint64_t dead_frees = 0;           // lines freed by last-use liveness bits (lru-prioritized)
  uint64_t exit_frees = 0;           // lines freed when their warp's CTA finished
  uint64_t mem_lookups = 0;          // memory lines looked up (loads and stores)
  uint64_t mem_hits = 0;             // ... that hit
  uint64_t mem_fills = 0;            // load misses that allocated a cache line
  uint64_t not_cached = 0;           // load misses left uncached (every way a register)
  uint64_t write_backs = 0;          // dirty victims written to the L2
  uint64_t tag_conflict_cycles = 0;  // operand delay from same-bank lookups of one instruction
  uint64_t fill_wait_cycles = 0;     // operand delay waiting for fills
  // Replacements by (victim, newcomer): [victim is a register][newcomer is a register]
  // (Jing Fig. 13's r<->r, r<->c, c<->c).
  std::array<std::array<uint64_t, 2>, 2> replaced{};

  CerfStats& operator+=(const CerfStats& o);
};

class CerfSystem : public RfSystem, public sim::mem::L1Owner {
 public:
  // `live` supplies the warp-level last uses (lru-prioritized); it must outlive the system.
  CerfSystem(const sim::Kernel& k, const sim::SmConfig& sm, int mrf_banks, int collectors,
             const CerfConfig& c, const sim::passes::Liveness& live);
  ~CerfSystem() override;

  int Issue(uint64_t cycle, uint32_t warp, const sim::DynInst& d) override;
  void Writeback(uint64_t cycle, uint32_t warp, const sim::DynInst& d) override;
  void CtaFinished(uint64_t cycle, const sim::CtaInfo& c) override;
  void AttachMemory(sim::mem::MemorySystem* memory, int sm) override;
  void Finish() override;

  // sim::mem::L1Owner.
  Outcome Line(uint64_t at, uint64_t line, bool write) override;
  void Filled(uint64_t line, uint64_t ready) override;
  int hit_latency() const override { return hit_latency_; }

  const CerfStats& cerf_stats() const { return cs_; }
  const TagArray& tags() const { return tags_; }
  const RegMemIndexer& rgen() const { return rgen_; }
  // Whether register `reg` of `warp` is in local memory (evicted, not yet filled back).
  bool Spilled(int warp, int reg) const {
    return spilled_[static_cast<size_t>(warp) * static_cast<size_t>(regs_) +
                    static_cast<size_t>(reg)] != 0;
  }

 protected:
  void ReadOperands(uint32_t warp, const sim::DynInst& d, std::vector<int>& mrf_regs) override;
  bool ReadsMrf(uint32_t, const sim::DynInst& d) const override {
    return !k_.code[d.inst].srcs.empty();
  }
  void WriteResults(uint32_t warp, const sim::DynInst& d) override;
  int ExtraDelay(const sim::DynInst&) const override { return extra_; }
  void ResolveCounts(const energy::Energies& e) override;

 private:
  TagArray::Result Lookup(TagArraySpec::Op op, bool last, uint64_t addr);
  // The victim of `r` (if any) as the newcomer `new_reg` displaced it; a register victim is
  // spilled. Returns the line to write to the L2 (sectors 0: none).
  sim::mem::LineRequest Victim(const TagArray::Result& r, bool new_reg);
  // A transfer of a whole line to or from the L2 at `at`: the cycle it completes.
  uint64_t Transfer(uint64_t at, uint64_t line, bool write);
  size_t Index(int warp, int reg) const {
    return static_cast<size_t>(warp) * static_cast<size_t>(regs_) + static_cast<size_t>(reg);
  }

  CerfConfig cfg_;
  const sim::passes::Liveness& live_;
  int regs_;  // registers per warp in the re-indexing (the kernel's, rounded to the alloc unit)
  int lat_dram_;
  RegMemIndexer rgen_;
  TagArray tags_;
  sim::mem::MemorySystem* memory_ = nullptr;
  int sm_ = 0;
  int hit_latency_ = 1;
  uint32_t full_sectors_ = 0xf;
  std::vector<uint8_t> spilled_;                  // per (warp, reg)
  std::unordered_map<uint64_t, uint64_t> ready_;  // cache line -> cycle its fill arrives
  CerfStats cs_;
  uint64_t cycle_ = 0;
  int extra_ = 0;
  int tag_event_ = -1, spill_event_ = -1, fill_event_ = -1;
  std::vector<std::pair<int, bool>> srcs_;  // distinct source registers, last use
  std::vector<int> bank_count_;
  // The lookups of the request being reported to the listener (register side, memory side).
  std::vector<TagLookup> tx_, mem_tx_;
};

}  // namespace gpurf::harness
