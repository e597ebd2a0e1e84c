// Register-file systems on the C++ models, for the SM timing model (sim/sm/sm.h): the MRF-only
// baseline, Gebhart's hardware register file cache (1 or 2 levels, with or without liveness
// hints) and the software-managed operand register file (2 or 3 levels, unified or split L0),
// after Gebhart et al., TOCS 2012, sections 4 and 5.
//
// Each system counts the accesses the energy model needs (energy::AccessCounts, in 32-bit
// registers of a whole warp: a 64-bit operand is two) by level and by the unit that reads or
// writes the value (private datapath or shared unit, sim::IsSharedUnit), plus its events (tag
// checks), into the levels and components of the energies its hierarchy declared
// (HarnessHierarchy::energies; the indices are resolved by name once, RfSystem::CountFor), and
// times the operands read from the MRF:
//
//   MRF timing. One MrfCore (models/mrf_model.h) stands for the lane clusters, which run
//   in lockstep: banks = the design's banks per cluster, one collector per warp instruction.
//   An instruction's MRF registers enter collectors in chunks of three (the three operand slots
//   of the MRF's port contract). The operand delay returned at issue is the prediction of the
//   MRF's arbitration (every bank serves its oldest waiting register, one per cycle; the data
//   arrives two cycles after the grant) over the registers already queued; the MrfCore itself
//   is stepped every cycle with the same issues, and every dispatch is compared with the
//   prediction (RfStats::dispatch_mismatches: collectors full, or the one-dispatch-per-cycle
//   port). The MRF's write-backs are counted but not sent to the MrfCore: the banks have a
//   separate write port, and only a write to the very row being read would delay a read.
//
//   MRF only: every source register is an MRF read, every result register an MRF write.
//
//   HW RFC: an RfcCache (models/rfc_model.h) with one slot per active warp; a warp is given
//   a slot when activated and its slot is flushed when it is descheduled (every live entry
//   written back to the MRF). Results are written to the RFC (L0 with two levels, unless a
//   shared unit may read the value, then L1), long-latency results and results of a warp
//   without a slot go to the MRF. Operands are looked up in the RFC, misses read the MRF.
//   With liveness hints, a register's last read (warp-level liveness, sim/passes/liveness.h)
//   invalidates its entry, so dead values are never written back. The tag check is an extra
//   pipeline stage: one cycle of operand delay on every instruction with a source register.
//
//   SW ORF: the compiler's allocation (sim/passes/orf_alloc.h) decides, per static instruction,
//   the level each operand is read from, the ORF fill of a read operand and the levels each
//   result is written to; the ORF is invalidated at strand ends, so descheduling needs no
//   write-back. The counts are therefore the allocation's, per executed instruction.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "energy/energy_model.h"
#include "gen/config/design_spec.h"
#include "models/mrf_model.h"
#include "sim/harness/transaction.h"
#include "sim/kernel/kernel.h"
#include "sim/passes/analysis.h"
#include "sim/sm/sm.h"

namespace gpurf::harness {

struct HarnessOptions {
  bool liveness_hints = true;  // HW RFC: last reads invalidate their entry
  int mrf_collectors = 4;      // operand collectors of the MRF
};

struct RfStats {
  energy::AccessCounts counts;
  // Register-cycles an MRF register waited for its bank beyond the conflict-free case, by the
  // unit of the instruction (index energy::Unit).
  std::array<uint64_t, energy::kNumUnits> bank_conflicts{};
  uint64_t operand_regs = 0;  // source registers of issued instructions (each counted once)
  uint64_t result_regs = 0;   // result registers written back
  uint64_t mrf_issues = 0;    // chunks sent to the MrfCore
  uint64_t flushes = 0;       // HW RFC: slots flushed on deschedule
  uint64_t dead_kills = 0;    // HW RFC: entries invalidated by liveness hints
  // From the MrfCore itself: bank reads, slot-cycles waiting, cycles an instruction found every
  // collector busy, and dispatches whose cycle differs from the operand-delay prediction.
  uint64_t core_reads = 0, core_conflicts = 0, core_issue_stalls = 0;
  uint64_t dispatch_mismatches = 0;
  uint64_t dispatch_late_cycles = 0;  // sum of (actual - predicted) over late dispatches
  // Statistics of one hierarchy's own (cerf: lookups, fills, spills), by name; summed by name.
  std::vector<std::pair<std::string, uint64_t>> extra;

  // Sums (the systems of several SMs or register-file partitions).
  RfStats& operator+=(const RfStats& o);
};

// The MRF timing of the file comment.
class MrfTiming {
 public:
  MrfTiming(int banks, int warps, int regs, int collectors);
  // Room for an instruction's registers (no chunk still waiting, a free collector).
  bool CanIssue() const;
  // Queues the MRF registers `regs` of one instruction of `warp`, issued in `cycle`. Returns the
  // operand delay; adds the conflict cycles per register to `conflicts`.
  int Issue(uint64_t cycle, int warp, const std::vector<int>& regs, uint64_t& conflicts);
  void Tick(uint64_t cycle);
  // No chunk waiting and every collector free: Tick would change nothing.
  bool Idle() const { return queue_.empty() && core_.BusyCollectors() == 0; }
  void Finish(RfStats& st) const;

 private:
  MrfCore core_;
  int collectors_;
  uint64_t tag_mask_;
  std::vector<uint64_t> bank_free_;  // first cycle each bank has no queued read
  struct Chunk {
    MrfIssue issue;
    uint64_t predicted = 0;  // predicted dispatch cycle (only checked for the last chunk)
    bool last = false;
  };
  std::deque<Chunk> queue_;
  std::vector<Chunk> inflight_;  // in a collector, found by issue.tag (at most `collectors_`)
  MrfCore::View view_;           // the MrfCore's view of the last Tick (storage reused)
  uint64_t next_tag_ = 0;
  uint64_t mismatches_ = 0, late_ = 0, issues_ = 0;
};

// The structure-level transactions of a register-file system, in the order the system performs
// them, for a listener that drives the same transactions into another implementation of the
// structures (the Verilated RTL: rtl_loop.h, rtl_top.h). Each transaction is of a type its
// structure kind defines (transaction.h; sim/harness/transactors/*_transactions.h). Registers
// are named by number; the listener knows the warp and instruction being issued or written back
// and takes the values from them.
class StructureListener {
 public:
  virtual ~StructureListener() = default;
  virtual void Transaction(const StructureTransaction& t) = 0;
};

// A register-file system with its counts. Finish() must be called after RunSm.
class RfSystem : public sim::RegisterFileSystem {
 public:
  RfSystem(const sim::Kernel& k, const sim::SmConfig& sm, int mrf_banks, int collectors);
  bool CanIssue(uint64_t cycle, uint32_t warp, const sim::DynInst& d) override;
  int Issue(uint64_t cycle, uint32_t warp, const sim::DynInst& d) override;
  void Writeback(uint64_t cycle, uint32_t warp, const sim::DynInst& d) override;
  void Activate(uint64_t, uint32_t) override {}
  void Deactivate(uint64_t, uint32_t) override {}
  void Tick(uint64_t cycle) override { mrf_.Tick(cycle); }
  bool Busy() const override { return !mrf_.Idle(); }
  virtual void Finish() { mrf_.Finish(st_); }
  // The memory system of the run and this system's SM (called before RunGpu; `memory` null with
  // ideal memory). Systems that own their SM's L1D (cerf) register with it; others ignore it.
  virtual void AttachMemory(sim::mem::MemorySystem* /*memory*/, int /*sm*/) {}
  const RfStats& stats() const { return st_; }
  // Counts from now on into the levels and components of `e` (its hierarchy's energies, or any
  // that have the levels and components this system uses: std::invalid_argument naming the
  // missing one otherwise). Must be called before RunSm; MakeRfSystem does.
  void CountFor(const energy::Energies& e);
  // Tells `l` (may be null) about every structure transaction from now on.
  void set_listener(StructureListener* l) { listener_ = l; }

 protected:
  // The MRF registers instruction `d` of `warp` reads (counting every read at its level).
  virtual void ReadOperands(uint32_t warp, const sim::DynInst& d, std::vector<int>& mrf_regs) = 0;
  // Whether some source register of `d` would be read from the MRF (no side effects).
  virtual bool ReadsMrf(uint32_t warp, const sim::DynInst& d) const = 0;
  virtual void WriteResults(uint32_t warp, const sim::DynInst& d) = 0;
  virtual int ExtraDelay(const sim::DynInst&) const { return 0; }
  // The MRF warp context the registers of SM warp `warp` live in (FineReg: its CTA's ACRF slot).
  virtual uint32_t MrfSlot(uint32_t warp) const { return warp; }
  // Resolves the level and component indices of `e` this system counts into beyond the MRF's.
  virtual void ResolveCounts(const energy::Energies&) {}

  // Counts at level index `level` of the energies (resolved in CountFor / ResolveCounts).
  void Read(int level, bool shared, uint64_t n = 1) {
    st_.counts.levels[static_cast<size_t>(level)]
        .reads[static_cast<size_t>(shared ? energy::Unit::kShared : energy::Unit::kPrivate)] += n;
  }
  void Write(int level, bool shared, uint64_t n = 1) {
    st_.counts.levels[static_cast<size_t>(level)]
        .writes[static_cast<size_t>(shared ? energy::Unit::kShared : energy::Unit::kPrivate)] += n;
  }
  energy::LevelCounts& At(int level) { return st_.counts.levels[static_cast<size_t>(level)]; }

  const sim::Kernel& k_;
  RfStats st_;
  int mrf_level_ = -1;  // the MRF's level index
  MrfTiming mrf_;
  std::vector<int> scratch_;
  StructureListener* listener_ = nullptr;
};

// Every register of `ops` (a pair or quad operand is its registers), in order.
template <typename F>
void ForEachReg(const std::vector<sim::RegOperand>& ops, F&& f) {
  for (const auto& o : ops) {
    for (int j = 0; j < o.count; ++j)
      f(static_cast<int>(o.first) + j);
  }
}
// The registers of `ops`.
int RegsOf(const std::vector<sim::RegOperand>& ops);
// The MRF banks of one lane cluster, the MRF timing's banks (at least one).
int MrfBanks(const DesignSpec& design);

// Builds the system of `design.hierarchy` for kernel `k` (BuildCfg done), counting into
// `energies` (RfSystem::CountFor). `analysis` must be the kernel's analysis with the design's ORF
// configuration for SW ORF designs and supplies the liveness hints of HW RFC designs; it must
// outlive the system. Throws std::invalid_argument for a hierarchy this harness cannot run.
std::unique_ptr<RfSystem> MakeRfSystem(const DesignSpec& design, const sim::Kernel& k,
                                       const sim::SmConfig& sm,
                                       const sim::passes::KernelAnalysis& analysis,
                                       const HarnessOptions& opt, const energy::Energies& energies);

}  // namespace gpurf::harness
