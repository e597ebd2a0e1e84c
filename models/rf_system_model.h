// Golden model of the register-file system of one lane cluster (Gebhart et al., TOCS 2012,
// sections 2.1, 4, 5), written from the contract in gen/structures/rf_system/rf_system_spec.h by
// COMPOSING the independent golden models of its parts, not from the RTL:
//   MrfCore              the banked MRF with its operand collectors (bank conflicts, timing);
//   RfcCycleModel        the hardware RFC with its write-back register, flush engine and its own
//                        invariant checks (hw-rfc);
//   OperandRegisterFile  the software ORF levels L1 and L0 (sw-orf).
// The system adds what the contract says about the glue: which operands an upper level
// supplies, the operand buffer merged at dispatch, result routing, deschedules, counters.
//
// RfSystem is the library class for the SM harness: per cycle, post the requests (Issue,
// Writeback, Flush, SetDispatchReady) and call Step(), which returns what the system did in that
// cycle (accepted requests, the dispatched instruction) and clocks it; counters() are the event
// counts. Evaluate()/Clock() are the same cycle split for the lockstep adapter RfSystemCycleModel.
//
// System invariants, checked every cycle independently of the composed models (Failure() names
// the first violation; InjectFault() plants a bug for the tests that show each check fires):
//   I1 end to end data: every dispatched operand equals the value its source held when the
//      instruction was issued, per an architectural shadow kept from the accepted results
//      (sw-orf: per MRF register, L1 entry and L0 entry, as the request names them; hw-rfc and
//      mrf-only: per register, wherever the hierarchy keeps it);
//   I2 every dispatch is one issued instruction: its tag, warp and source valid bits are those
//      of an instruction in flight, which then leaves;
//   I3 deschedule: sw-orf: after the handshake no ORF entry of the slot is valid; hw-rfc: when
//      fl_ready is given the slot holds no live RFC entry and the MRF holds every value of the
//      warp.
// Besides, the part models' own checks (MRF arbitration invariants, RFC invariants 1 and 2)
// and harness misuse (sw-orf reads of invalid ORF entries, missing levels) are failures.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/bits.h"
#include "gen/structures/rf_system/rf_system_ports.h"
#include "gen/structures/rf_system/rf_system_spec.h"
#include "models/cycle_model.h"
#include "models/mrf_model.h"
#include "models/orf_model.h"
#include "models/rfc_model.h"

namespace gpurf {

struct RfSysIssue {
  bool valid = false;
  uint64_t tag = 0;
  int warp = 0;
  int slot = 0;  // the warp's active slot (hw-rfc, sw-orf)
  std::array<bool, 3> src_valid{};
  std::array<int, 3> src_reg{};
  std::array<int, 3> src_level{};  // sw-orf: RfSystemSpec::kLevelMrf / kLevelL1 / kLevelL0
  std::array<int, 3> src_entry{};  // sw-orf: L1 entry
  std::array<bool, 3> src_dead{};  // hw-rfc: last read of the value
};

struct RfSysResult {
  bool valid = false;
  int warp = 0;
  int slot = 0;
  int reg = 0;
  Bits data;
  bool mrf = false;           // sw-orf: also to the MRF; hw-rfc: warp without slot, MRF only
  bool orf = false;           // sw-orf: to an ORF level
  bool orf_l0 = false;        // sw-orf: that level is L0
  int orf_entry = 0;          // sw-orf: L1 entry or split L0 bank
  bool long_latency = false;  // hw-rfc: bypass the RFC to the MRF
  bool no_l0 = false;         // hw-rfc: allocate in L1
};

struct RfSysFlush {
  bool valid = false;
  int warp = 0;
  int slot = 0;
};

struct RfSysInputs {
  bool reset = false;
  RfSysIssue issue;
  RfSysResult result;
  RfSysFlush flush;
  bool disp_ready = false;
};

struct RfSysDispatch {
  bool valid = false;
  uint64_t tag = 0;
  int warp = 0;
  std::array<bool, 3> src_valid{};
  std::array<Bits, 3> data;
  std::array<bool, 3> defined{};  // the operand's value is defined
  std::array<int, 3> level{};     // where it came from: 0 MRF, 1 L1, 2 L0
};

struct RfSysOutputs {
  bool issue_ready = false;
  bool res_ready = false;
  bool fl_ready = false;
  RfSysDispatch disp;
};

// Event counts since reset (what the RTL counters show, before truncation).
struct RfSysCounters {
  uint64_t mrf_reads = 0, mrf_writes = 0, mrf_conflicts = 0, issue_stalls = 0, mrf_wb_stalls = 0;
  uint64_t l1_reads = 0, l0_reads = 0, l1_writes = 0, l0_writes = 0;
  uint64_t tag_checks = 0, tag_hits = 0, writebacks = 0;
  // Not on ports: activity of the run, for tests and reports.
  uint64_t issued = 0, dispatched = 0, results = 0, flushes = 0, checked_operands = 0;
};

class RfSystem {
 public:
  enum class Fault {
    kNone,
    kUpperDataFromMrf,    // dispatch takes the MRF collector's data for upper-level operands
    kDispatchTagSwapped,  // dispatch reports a wrong tag
    kFlushReadyEarly,     // hw-rfc: fl_ready as soon as the flush starts
    kFlushKeepsOrf,       // sw-orf: the deschedule is not forwarded to the ORF
  };

  explicit RfSystem(const RfSystemSpec& spec);
  ~RfSystem();

  // ---- harness API: post this cycle's requests, then Step().
  void Issue(const RfSysIssue& i) { pending_.issue = i; }
  void Writeback(const RfSysResult& r) { pending_.result = r; }
  void Flush(const RfSysFlush& f) { pending_.flush = f; }
  void SetDispatchReady(bool r) { pending_.disp_ready = r; }
  RfSysOutputs Step();

  // ---- cycle API: outputs during a cycle with these inputs, then its rising edge.
  RfSysOutputs Evaluate(const RfSysInputs& in);
  void Clock(const RfSysInputs& in);

  const RfSysCounters& counters() const { return counters_; }
  const std::string& Failure() const { return failure_; }
  void InjectFault(Fault f) { fault_ = f; }
  const RfSystemSpec& spec() const { return spec_; }
  const MrfCore& mrf() const { return mrf_; }
  bool flush_in_progress() const { return fl_started_; }

 private:
  struct Cycle;
  struct BufEntry {
    bool busy = false;
    uint64_t tag = 0;
    int warp = 0;
    std::array<bool, 3> src_valid{};
    std::array<bool, 3> up{};
    std::array<int, 3> level{};
    std::array<Bits, 3> data;
    std::array<bool, 3> defined{};
  };
  // An instruction in flight, as the harness issued it (I1, I2).
  struct Ledger {
    uint64_t tag = 0;
    int warp = 0;
    std::array<bool, 3> src_valid{};
    std::array<int, 3> reg{};
    std::array<int, 3> level{};
    std::array<std::optional<Bits>, 3> expected;  // the source's value at issue, when known
  };
  Cycle Compute(const RfSysInputs& in);
  void Fail(const std::string& what);
  void ResetState();
  void CheckFlushDone(int warp, int slot);

  const RfSystemSpec spec_;
  MrfCore mrf_;
  std::unique_ptr<RfcCycleModel> rfc_;
  std::unique_ptr<OperandRegisterFile> l1_, l0_;
  std::vector<int> rfc_widths_;  // RFC port widths, manifest order (its port table)
  RfcPorts rp_{};

  std::vector<BufEntry> buf_;
  std::vector<Ledger> ledger_;
  bool cap_valid_ = false;  // registered ORF reads: last cycle's issue waits for its data
  int cap_idx_ = 0;
  std::array<bool, 3> cap_l0_{};
  bool fl_started_ = false;     // hw-rfc: the RFC flushes the requested slot
  std::vector<int> slot_warp_;  // hw-rfc: warp of each slot

  // I1 shadows: [warp][reg] (MRF or architectural), [slot][entry] (ORF levels).
  std::vector<std::vector<std::optional<Bits>>> sh_reg_;
  std::vector<std::vector<std::optional<Bits>>> sh_l1_, sh_l0_;

  RfSysInputs pending_;
  RfSysCounters counters_;
  uint64_t cycle_ = 0;
  Fault fault_ = Fault::kNone;
  std::string failure_;
};

// Lockstep adapter: ports indexed by the port table's handles (RfSystemPort, rf_system_ports.h).
class RfSystemCycleModel : public CycleModel, public RfSystemPort {
 public:
  explicit RfSystemCycleModel(const RfSystemSpec& spec);

  void Outputs(const PortValues& in, PortValues& out, PortValues& defined) override;
  void Clock(const PortValues& in) override;
  std::string Failure() const override { return sys_.Failure(); }

  RfSystem& system() { return sys_; }
  // Port decoding (public for the stimulus and tests).
  static RfSysInputs Decode(const RfSystemSpec& s, const PortValues& in);

 private:
  RfSystem sys_;
};

}  // namespace gpurf
