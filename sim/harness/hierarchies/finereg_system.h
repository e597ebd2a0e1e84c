// FineReg's register-file system on the C++ models (Oh et al., MICRO 2018, sections IV-V), for
// the SM timing model's CTA switching (sim/sm/sm.h RegisterFileSystem::ResidentCtaLimit).
//
// The SM's register file is split into the active-CTA register file (ACRF, the banked MRF the
// running CTAs' registers live in: every operand is an ACRF read, every result an ACRF write,
// timed like the MRF-only baseline) and the pending-CTA register file (PCRF). CTAs are resident
// up to `resident_ctas` (and shared memory); at most the scheduling limit of them run (the
// preset's CTA slots and warp contexts) and only while their static allocations fit the ACRF.
// A resident CTA is in one of these states (the CTA status monitor's Table IV, with the moves
// in between):
//   waiting   -- in a slot, never started (context not launched, no registers);
//   active    -- in the pipeline with its registers in the ACRF;
//   saving    -- switched out, its live registers on their way to the PCRF;
//   pending   -- switched out, its live registers in the PCRF (its context in shared memory);
//   restoring -- switched in, its registers on their way back to the ACRF.
// When every live warp of an active CTA waits for long-latency results (CtaStalled), the V-B
// decision as the CTA status monitor takes it: the pending CTA whose long-latency results have
// all landed with the lowest status-monitor slot (else the oldest waiting CTA, the kernel's next
// one); the stalled CTA's live registers -- the union over its warps of the
// live-register vector of each warp's stall PC (sim/passes/liveness.h FineRegLiveVectors),
// looked up in the live-register vector cache -- must fit the PCRF's free entries plus those
// the chosen pending CTA's restore frees; then switch, else keep the stalled CTA. When an
// active CTA finishes, its ACRF space goes to the ready pending CTA in the lowest monitor slot
// (restore) or the oldest waiting CTA (start). A stalled CTA that was kept is decided again
// whenever the candidates change (a pending CTA became ready, a move ended, a CTA finished) until
// one of its warps issues.
//
// Timing of one switch: the vector-cache lookups, one per live warp, one at a time (a hit takes
// one cycle, a miss vector_miss_cycles); then every saved and restored entry passes the
// register-file port one per cycle, pipelined, each hop_cycles from issue to its row: the moves
// end (entries + hop_cycles - 1) cycles after the lookups. Moves of several switches queue on
// the one port. With move_ports P the port moves P entries a cycle (ceil(entries / P) cycles).
// The switched-in CTA issues from the cycle the moves end.
//
// Status-monitor slots. The SM's CTA slots (sim::CtaInfo::slot) hold waiting CTAs too; the
// monitor has a slot per started CTA (Table IV: a CTA not launched has no fields). A CTA takes
// the lowest slot not launched when it starts (the monitor's launch rule) and gives it back when
// it finishes, so the system's candidate order and the RTL's fixed priority are the same. The
// PCRF transactions (pointer-table line) use the same numbers.
//
// ACRF slots. The MRF has one warp context per warp the SM schedules (sm.warps); the resident
// CTAs' warps are more. A CTA's warps take the lowest free ACRF slots when it is switched in and
// give them back when it is switched out or finishes, so no slot reaches the most warps the
// ACRF holds at once (the RTL in the loop is generated for the warps the kernel keeps resident
// under static allocation of the whole register file, at least those). The MRF's bank timing
// and the RTL in the loop address a warp's registers by its slot. A switched-in CTA's restored
// registers are written to its new slots (MrfWrite with restore set), and a result landing for
// a switched-out warp goes to no slot (its restore writes the row).
//
// RTL in the loop: with a listener (rtl_loop.h) the system reports its saves and restores (PCRF
// appends and walks), stall-PC lookups (vector cache), stall decisions and CTA field changes
// (status monitor) and results landing for switched-out warps (finereg_transactions.h).
//
// Switch targets (design option switch_target): pcrf (FineReg); full-rf (Virtual-Thread-like:
// CTAs are resident while their whole static allocations fit the whole register file, ACRF and
// PCRF together, and a switch moves no register); dram (live registers to global memory instead
// of the PCRF: no capacity bound, each entry a 128-byte store or load at the DRAM latency).
//
// Invariants checked on every move (std::logic_error when broken): PCRF free + occupied =
// entries; every saved register is on exactly one chain once; a restore returns exactly the
// registers saved, in save order, for warps that did not issue in between; the number of
// running CTAs never exceeds the scheduling limit nor their allocations the ACRF.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "gen/config/design_spec.h"
#include "sim/harness/rf_systems.h"
#include "sim/harness/transactors/finereg_transactions.h"
#include "sim/passes/liveness.h"

namespace gpurf::harness {

struct FineRegConfig {
  long long acrf_bytes = 131072;
  long long pcrf_bytes = 131072;
  int resident_ctas = 128;
  int hop_cycles = 4;
  int move_ports = 1;  // entries moved per cycle (saves and restores share them)
  int vector_lines = 32;
  int vector_miss_cycles = 200;
  std::string target = "pcrf";  // pcrf | full-rf | dram
  int row_bytes = 128;          // one warp register

  static FineRegConfig From(const DesignSpec& d);
  int pcrf_entries() const { return static_cast<int>(pcrf_bytes / row_bytes); }
};

struct FineRegStats {
  uint64_t switches = 0;          // CTAs switched out on a stall
  uint64_t kept = 0;              // stalls where the live registers did not fit: no switch
  uint64_t no_candidate = 0;      // stalls with no ready pending and no waiting CTA
  uint64_t restores = 0;          // pending CTAs switched back in
  uint64_t starts = 0;            // waiting CTAs started
  uint64_t saved_entries = 0;     // registers saved (PCRF appends, or DRAM stores)
  uint64_t restored_entries = 0;  // registers restored (chain hops, or DRAM loads)
  uint64_t vector_lookups = 0, vector_misses = 0;
  uint64_t move_cycles = 0;        // cycles the register-file port moved entries
  uint64_t move_wait_cycles = 0;   // sum over switched-in CTAs: cycles from decision to run
  uint64_t move_stall_cycles = 0;  // cycles with a move in flight and no CTA running
  uint64_t memory_bytes = 0;       // extra global-memory traffic (dram target)
  uint64_t max_resident = 0;       // most CTAs started and not finished at once
  uint64_t max_active = 0;         // most CTAs running at once
  uint64_t max_pcrf_entries = 0;   // most PCRF entries occupied at once
};

class FineRegSystem : public RfSystem {
 public:
  FineRegSystem(const sim::Kernel& k, const sim::SmConfig& sm, int mrf_banks, int collectors,
                const FineRegConfig& c, sim::passes::LiveVectors live);

  int Issue(uint64_t cycle, uint32_t warp, const sim::DynInst& d) override;
  bool CanIssue(uint64_t cycle, uint32_t warp, const sim::DynInst& d) override;
  void Writeback(uint64_t cycle, uint32_t warp, const sim::DynInst& d) override;
  void Launch(uint64_t cycle, uint32_t warp, const sim::WarpStream& s) override;
  void Tick(uint64_t cycle) override;
  bool Busy() const override;
  bool AdmitCta(uint64_t cycle, const sim::CtaInfo& c) override;
  void CtaLaunched(uint64_t cycle, const sim::CtaInfo& c) override;
  void CtaFinished(uint64_t cycle, const sim::CtaInfo& c) override;
  bool WantsCtaStalls() const override { return true; }
  void CtaStalled(uint64_t cycle, const sim::CtaInfo& c) override;
  void CtaResumed(uint64_t cycle, const sim::CtaInfo& c) override;
  int ResidentCtaLimit() const override { return cfg_.resident_ctas; }
  bool CtaRunnable(uint32_t slot) const override;
  void Finish() override;
  void ResolveCounts(const energy::Energies& e) override;

  const FineRegStats& finereg_stats() const { return fs_; }
  int pcrf_free() const { return static_cast<int>(free_.size()); }
  // The SM CTA slot (sim::CtaInfo::slot) of the CTA in status-monitor slot `mon`, -1 if that
  // slot is not launched: the transactions number CTAs by monitor slot.
  int CtaSlotOfMonitorSlot(int mon) const {
    return mon >= 0 && static_cast<size_t>(mon) < mon_cta_.size()
               ? mon_cta_[static_cast<size_t>(mon)]
               : -1;
  }

 protected:
  void ReadOperands(uint32_t warp, const sim::DynInst& d, std::vector<int>& mrf_regs) override;
  bool ReadsMrf(uint32_t warp, const sim::DynInst& d) const override;
  void WriteResults(uint32_t warp, const sim::DynInst& d) override;
  uint32_t MrfSlot(uint32_t warp) const override;

 private:
  enum class State { kEmpty, kWaiting, kActive, kSaving, kPending, kRestoring };
  struct SavedReg {
    uint32_t warp = 0;
    uint16_t reg = 0;
    int entry = -1;  // PCRF entry (-1: DRAM)
  };
  struct Cta {
    State state = State::kEmpty;
    std::vector<uint32_t> warps;
    uint64_t seq = 0;                    // launch order
    int mon = -1;                        // its status-monitor slot (-1: not started)
    uint64_t ready_at = 0;               // saving/restoring: the cycle its moves end
    uint64_t decided = 0;                // restoring: the cycle of the decision
    std::vector<SavedReg> chain;         // its saved registers, save order
    std::vector<size_t> issued_at_save;  // per warp of `warps`: instructions issued then
    uint64_t restore_entries = 0;        // entries its last restore moved
    bool stalled = false;                // active, every live warp waiting (CtaStalled)
  };
  struct WarpTrack {
    const sim::WarpStream* stream = nullptr;
    size_t issued = 0;
    int long_outstanding = 0;
  };

  int ActiveLimit() const;
  uint64_t RegsPerCta(const Cta& c) const;
  bool Ready(const Cta& c) const;
  // The stalled CTA's live registers (warp, reg) at its warps' stall PCs; adds the vector-cache
  // lookup cycles to `lookup`.
  std::vector<SavedReg> LiveRegs(Cta& c, uint64_t& lookup);
  // The pending CTA to resume (ready, lowest monitor slot), else the oldest waiting CTA, else -1.
  int Candidate(int exclude) const;
  // The monitor slots of the pending CTAs ready to resume (the monitor's ready_i), ascending.
  std::vector<int> ReadySlots() const;
  // The lowest monitor slot not launched (a start's slot).
  int FreeMonitorSlot() const;
  bool AnyWaiting() const;
  // Moves `n` entries through the port from `from` (after `lookup` cycles); returns the end.
  uint64_t Move(uint64_t from, uint64_t lookup, uint64_t n);
  void Save(Cta& c, std::vector<SavedReg> regs);
  // The place of `warp` among the warps of `c` (the PCRF tag's warp id).
  static int WarpInCta(const Cta& c, uint32_t warp);
  // The CTA states as the CTA status monitor counts them (cta-status-monitor transactor).
  CsmCounts Counts() const;
  void Restore(Cta& c);
  void SwitchIn(int slot, uint64_t cycle, uint64_t after);
  void FillAcrf(uint64_t cycle);
  // The V-B decision for the stalled active CTA in `slot` (`first`: at its CtaStalled; the
  // kept and no-candidate counts count stall episodes, not decisions).
  void Decide(uint64_t cycle, uint32_t slot, bool first);
  void CheckPcrf();
  void Census();
  // ACRF slots (the MRF's warp contexts): a CTA's warps take the lowest free ones when it is
  // switched in and give them back when it is switched out or finishes.
  void TakeSlots(const Cta& c);
  void ReleaseSlots(const Cta& c);

  FineRegConfig cfg_;
  const sim::passes::LiveVectors live_;
  sim::SmConfig sm_;
  uint32_t mrf_warps_;
  uint64_t acrf_regs_;  // 32-bit registers of the ACRF (full-rf: the whole RF)
  int regs_per_thread_;
  std::vector<Cta> ctas_;
  std::vector<WarpTrack> warps_;
  std::vector<int> warp_slot_;    // per warp: its CTA slot
  std::vector<int> acrf_slot_;    // per warp: its ACRF slot (-1: its registers are not there)
  std::set<uint32_t> free_acrf_;  // free ACRF slots
  std::vector<int> mon_cta_;      // per status-monitor slot: its CTA's slot in ctas_ (-1: free)
  std::set<int> free_;            // free PCRF entries
  std::vector<uint8_t> held_;
  std::vector<uint64_t> vtags_;  // vector cache: PC + 1 per line (0: invalid)
  uint64_t port_free_ = 0;       // first cycle the register-file port is free
  uint64_t seq_ = 0;
  int moving_ = 0;        // CTAs saving or restoring
  bool recheck_ = false;  // a CTA may be switched in (one finished, moved or became ready)
  int vector_event_ = -1, append_event_ = -1, hop_event_ = -1, pointer_event_ = -1;
  FineRegStats fs_;
};

}  // namespace gpurf::harness
