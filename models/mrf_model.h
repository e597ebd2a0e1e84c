// Golden model of the banked main register file with operand collectors, written from the
// semantics of Gebhart et al. (TOCS 2012, section 2.1) as pinned down in the port contract of
// gen/structures/mrf/mrf_spec.h, not from the RTL.
//
// MrfCore is the reusable part (the SM harness drives it for bank-conflict timing and access
// counts): a set of banks holding register values, a set of operand collectors each holding one
// warp instruction and the state of its three operand slots, and a per-cycle step that
//   - lets every bank serve the oldest waiting operand that lives in it (one read per bank and
//     cycle; the write-back takes its row first under write-priority, or waits for a read of
//     its row under read-priority),
//   - delivers last cycle's bank reads into the collectors (SRAM read latency 1),
//   - writes the accepted write-back, frees the dispatched collector, fills the lowest free one.
// Instruction age is an explicit sequence number; the arbitration sorts waiting operands by
// (age, slot) and walks them bank by bank.
//
// MrfModel adapts MrfCore to the lockstep CycleModel interface (ports indexed by the handles of
// the port table, MrfPort in mrf_ports.h, which are the manifest indices).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "base/bits.h"
#include "gen/structures/mrf/mrf_ports.h"
#include "gen/structures/mrf/mrf_spec.h"
#include "models/cycle_model.h"

namespace gpurf {

struct MrfIssue {
  bool valid = false;
  uint64_t tag = 0;
  int warp = 0;
  std::array<bool, 3> src_valid{};
  std::array<int, 3> src_reg{};
};

struct MrfWriteBack {
  bool valid = false;
  int warp = 0;
  int reg = 0;
  Bits data;
};

struct MrfDispatch {
  bool valid = false;
  uint64_t tag = 0;
  int warp = 0;
  std::array<bool, 3> src_valid{};
  std::array<Bits, 3> data;
  std::array<bool, 3> defined{};  // the operand's register was written since power-up
};

// Event counts since the last reset (not truncated to the RTL's counter width).
struct MrfCounters {
  uint64_t reads = 0;         // bank reads
  uint64_t writes = 0;        // write-backs accepted (bank writes)
  uint64_t conflicts = 0;     // slot-cycles an operand waited for its bank
  uint64_t issue_stalls = 0;  // cycles an offered instruction found no free collector
  uint64_t wb_stalls = 0;     // cycles an offered write-back waited
  uint64_t issued = 0;        // instructions accepted
  uint64_t dispatched = 0;    // instructions that left
};

class MrfCore {
 public:
  explicit MrfCore(const MrfSpec& spec);

  // Where the documented interleaving puts (warp, reg); the model's own statement of it.
  struct Location {
    int bank = 0;
    int row = 0;
  };
  Location Locate(int warp, int reg) const;

  // What the structure shows during a cycle with these inputs (no state change).
  struct View {
    bool issue_ready = false;
    int alloc = -1;  // collector an accepted issue goes to
    bool wb_ready = false;
    MrfDispatch disp;
    int disp_collector = -1;
    int requests = 0;                         // operand slots waiting for a read
    std::vector<std::pair<int, int>> grants;  // (collector, slot) read this cycle
  };
  View Evaluate(const MrfIssue& issue, const MrfWriteBack& wb, bool reset) const;

  // The rising edge ending a cycle with these inputs. `seen` (optional) receives the View of the
  // cycle, as Evaluate would return it, so a caller needs no second evaluation (its storage is
  // reused: a caller that keeps one View across cycles allocates nothing).
  void Step(const MrfIssue& issue, const MrfWriteBack& wb, bool disp_ready, bool reset,
            View* seen = nullptr);

  // The model's own invariants over one cycle's view, "" when they hold: each bank serves at
  // most one read; a granted slot was waiting; no row is read and written in one cycle; a
  // dispatched instruction has every valid operand buffered. Step() throws std::logic_error
  // when one fails.
  std::string CheckInvariants(const View& v, const MrfWriteBack& wb) const;

  // Deliberate bugs, only for the tests that show these checks and the lockstep comparison
  // catch a broken model.
  enum class Fault { kNone, kTwoReadsPerBank, kReadWriteSameRow, kDispatchEarly };
  void InjectFault(Fault f) { fault_ = f; }

  // Event counts since the last reset (what the RTL counters show), and over the whole run.
  const MrfCounters& counters() const { return counters_; }
  const MrfCounters& totals() const { return totals_; }
  // The register's value, if it was ever written.
  std::optional<Bits> Register(int warp, int reg) const;
  int BusyCollectors() const;
  const MrfSpec& spec() const { return spec_; }

 private:
  // Evaluate into `v`, overwriting every field and reusing its storage.
  void EvaluateInto(const MrfIssue& issue, const MrfWriteBack& wb, bool reset, View& v) const;
  enum class SlotState { kNone, kNeed, kInflight, kHave };
  struct Slot {
    SlotState state = SlotState::kNone;
    Location loc;
    Bits data;
    bool defined = false;
  };
  struct Collector {
    bool busy = false;
    uint64_t age = 0;  // issue sequence number: smaller is older
    uint64_t tag = 0;
    int warp = 0;
    std::array<Slot, 3> slots;
  };
  struct Cell {
    Bits value;
    bool defined = false;
  };

  bool InRange(const Location& l) const;

  const MrfSpec spec_;
  std::vector<std::vector<Cell>> banks_;  // [bank][row]
  std::vector<Cell> bank_out_;            // each bank's read output register
  std::vector<Collector> collectors_;
  uint64_t next_age_ = 0;
  MrfCounters counters_;
  MrfCounters totals_;
  Fault fault_ = Fault::kNone;
};

class MrfModel : public CycleModel, public MrfPort {
 public:
  explicit MrfModel(const MrfSpec& spec);

  void Outputs(const PortValues& in, PortValues& out, PortValues& defined) override;
  void Clock(const PortValues& in) override;

  const MrfCore& core() const { return core_; }
  MrfCore& core() { return core_; }

  // Decoding of the input ports (public for the stimulus and tests).
  static MrfIssue DecodeIssue(const MrfSpec& s, const PortValues& in);
  static MrfWriteBack DecodeWriteBack(const MrfSpec& s, const PortValues& in);

 private:
  const MrfSpec spec_;
  MrfCore core_;
};

}  // namespace gpurf
