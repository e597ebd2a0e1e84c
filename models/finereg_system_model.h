// Golden model of the FineReg register-file system top (Oh et al., MICRO 2018, sections IV-V),
// cycle accurate at the top's ports, written from the contract in
// gen/structures/finereg_system/finereg_system_spec.h by COMPOSING the independent golden models
// of its parts, not from the RTL:
//   MrfCore    the ACRF: the banked MRF with its operand collectors (models/mrf_model.h);
//   PcrfModel  the PCRF as per-CTA lists of saved registers, free set and walk pipeline
//              (models/pcrf_model.h), with its own invariant checks.
// The model adds the register management unit as the contract states it (one operation at a
// time, one register in the buffer) and an architectural shadow kept from what the ports
// accepted: per ACRF (warp, reg) the last value written, per pending CTA the registers its save
// moved ((warp, reg) -> the value the ACRF held) and per pipeline instruction in flight the
// values its sources held at issue. Failure() names the first violation of:
//   S1 a restored register holds exactly the value saved (the restore engine's ACRF write), and
//      every ACRF read (a pipeline operand, a save read) returns the last value written;
//   S2 PCRF free entries + occupied entries (saved and not yet taken back) = entries;
//   S3 every chain is acyclic (no entry twice) and a walk meets the end bit exactly at its last
//      register;
//   S4 every live register of a pending CTA is on its chain exactly once with the value saved,
//      the pointer table's count is their number, and a restore returns each of them once;
//   S5 no entry is on two chains, and a walk returns only entries of the CTA restored;
//   and the harness contract C1-C4 (reported as "contract: ...").
// InjectFault() plants a bug in the model, for the tests that show each check fires.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "base/bits.h"
#include "gen/structures/finereg_system/finereg_system_ports.h"
#include "gen/structures/finereg_system/finereg_system_spec.h"
#include "models/cycle_model.h"
#include "models/mrf_model.h"
#include "models/pcrf_model.h"

namespace gpurf {

class FineregSystemModel : public CycleModel, public FineregSystemPort {
 public:
  enum class Fault {
    kNone,
    kRestoreWrongReg,   // the restore engine writes register r ^ 1 (S1)
    kSkipSecondLive,    // the save engine drops the register after the first (S4)
    kOccupiedMiscount,  // an append is not counted as occupying an entry (S2)
  };

  explicit FineregSystemModel(const FineregSystemSpec& spec);

  void Outputs(const PortValues& in, PortValues& out, PortValues& defined) override;
  void Clock(const PortValues& in) override;
  std::string Failure() const override { return failure_; }
  void InjectFault(Fault f) { fault_ = f; }

  // Statistics of the run.
  uint64_t saves = 0, restores = 0, saved_regs = 0, restored_regs = 0, checked_operands = 0;

 private:
  enum class St { kIdle, kSvRead, kSvWait, kSvAppend, kRsWalk };
  using Reg = std::pair<int, int>;  // (warp in the CTA, register)
  struct Instr {
    uint64_t tag = 0;
    int warp = 0;
    std::array<bool, 3> valid{};
    std::array<int, 3> reg{};
    std::array<std::optional<Bits>, 3> expect;
  };
  // What the ports and parts show in one cycle.
  struct Cycle {
    bool reset = false;
    MrfIssue issue;
    MrfWriteBack wb;
    MrfCore::View acrf;
    PortValues pin, pout, pdef;
    bool rmu_rd = false, rmu_wb = false, rmu_disp = false, disp_ready = false;
    bool sv_fire = false, rs_fire = false, app_fire = false, take = false, wb_done = false;
    bool ext_issue = false, ext_wb = false, ext_disp = false;
  };
  void Evaluate(const PortValues& in, Cycle& c);
  Reg Current() const;  // the lowest live register of the save
  void Fail(const std::string& what);
  void CheckChains();
  bool InCta(int warp) const { return warp >= base_ && warp < base_ + spec_.cta_warps; }

  const FineregSystemSpec spec_;
  MrfCore acrf_;
  PcrfModel pcrf_;
  // The RMU.
  St st_ = St::kIdle;
  int cta_ = 0, base_ = 0, left_ = 0;
  std::vector<bool> live_;
  Bits buf_;
  bool buf_valid_ = false;
  Reg buf_reg_{};
  int occupied_ = 0;
  // The architectural shadow.
  std::map<Reg, Bits> arch_;                // ACRF (warp slot, reg) -> last value written
  std::vector<std::map<Reg, Bits>> saved_;  // per CTA slot: (warp in CTA, reg) -> value saved
  std::set<Reg> restored_;                  // the walk in progress: registers already taken
  int save_live_ = 0;                       // the save in progress: live registers it moves
  std::deque<Instr> inflight_;              // pipeline instructions accepted, not dispatched
  std::string failure_;
  Fault fault_ = Fault::kNone;
};

}  // namespace gpurf
