// Directed and constrained-random stimulus for the register-file system top (rf_system_spec.h),
// behaving like a well-mannered SM pipeline that obeys the harness contract: it keeps its own
// view of the active slots, of the ORF entries written since each slot's activation (sw-orf), of
// values killed by dead hints (hw-rfc) and of the registers instructions in flight still read
// from the MRF, and it sees every cycle's handshakes through Observe (issue_ready_o,
// res_ready_o, fl_ready_o, the dispatch). A deschedule request is held until fl_ready_o.
// Phases (in a seeded random order after an initial one):
//   init          - every register of every warp is written through the MRF (warps hold no
//                   slot yet), so every later operand has a defined value to check
//   mixed         - issues, results and deschedules at moderate rates over all levels
//   conflicts     - the three operands of an instruction in one MRF bank (serialized reads)
//   level-reads   - sw-orf: most operands read from L1/L0; hw-rfc: a few hot registers per
//                   warp, so most lookups hit (and dead hints kill cached values)
//   evictions     - results stream distinct registers into one slot: RFC evictions to the
//                   MRF (hw-rfc), ORF entries overwritten (sw-orf)
//   flush-dirty   - a slot is filled with results, then descheduled (hw-rfc: dirty entries
//                   written back before fl_ready_o), while other slots keep working
//   backpressure  - the dispatch is taken only a quarter of the time: collectors fill, issues
//                   stall
//   reset-pulse   - a one-cycle reset mid-run (the MRF keeps its data, upper levels are lost)
#pragma once

#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gen/structures/rf_system/rf_system_spec.h"
#include "verif/harness/stimulus.h"

namespace gpurf {

class RfSystemStimulus : public Stimulus {
 public:
  RfSystemStimulus(const RfSystemSpec& spec, uint64_t seed);

  void Next(uint64_t cycle, PortValues& in) override;
  std::string Phase() const override;
  void Observe(uint64_t cycle, const PortValues& out) override;

  enum class PhaseKind {
    kInit,
    kMixed,
    kConflicts,
    kLevelReads,
    kEvictions,
    kFlushDirty,
    kBackpressure,
    kResetPulse
  };

 private:
  struct Flight {
    uint64_t tag = 0;
    int warp = 0;
    std::vector<int> mrf_regs;  // registers still to be read from the MRF (conservative)
  };
  void PickPhase();
  bool Chance(int num, int den);
  int Rand(int n);
  int PickReg(int warp);
  bool BlockedReg(int warp, int reg) const;  // an instruction in flight reads it
  void ClearUpper();

  const RfSystemSpec spec_;
  std::mt19937_64 rng_;
  PhaseKind phase_ = PhaseKind::kInit;
  uint64_t phase_left_ = 0;
  int init_next_ = 0;  // init: next (warp * regs + reg) to write
  int focus_slot_ = 0;
  int stream_reg_ = 0;
  uint64_t next_tag_ = 0;

  std::vector<int> slot_warp_;                          // -1: free
  std::vector<int> warp_slot_;                          // -1: no slot
  std::vector<std::vector<bool>> l1_valid_, l0_valid_;  // sw-orf: [slot][entry / bank]
  std::vector<std::vector<bool>> dead_;                 // hw-rfc: [warp][reg]
  std::vector<Flight> flights_;
  bool fl_pending_ = false;
  int fl_warp_ = 0, fl_slot_ = 0;

  // What this cycle offered (for Observe).
  bool reset_ = true;
  bool issue_offered_ = false;
  Flight issue_;
  std::array<bool, 3> issue_dead_{};
  std::array<int, 3> issue_regs_{};
  bool res_offered_ = false;
  int res_warp_ = 0, res_slot_ = 0, res_reg_ = 0, res_entry_ = 0;
  bool res_mrf_ = false, res_orf_ = false, res_l0_ = false;
  bool disp_ready_ = false;
};

}  // namespace gpurf
