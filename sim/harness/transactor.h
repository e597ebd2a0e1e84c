// RTL transactors: the per-kind half of the RTL in the loop (rtl_loop.h). The loop
// (RtlLoopSystem) forwards the SM's pipeline events to the C++ models' register-file system and
// owns one transactor per design structure it runs as RTL; a transactor turns its structure
// kind's transactions (transaction.h) into cycles of that structure's ports, checks every answer
// and row, and counts the data toggles. Each structure kind registers its transactor by name
// (base/registry.h) in its own file, sim/harness/transactors/<kind>_transactor.cc:
//
//   GPURF_REGISTER(RtlTransactorKind, rfc, "rfc", (RtlTransactorKind{...}))
//
// and the loop finds it by the design structure's kind; the loop never names a kind. What the
// transactors share (register rows, the pipeline event, value checks, toggles, divergence
// reports, the structure write-backs go to) is the RtlLoopContext.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "sim/harness/rtl_loop.h"

namespace gpurf::harness {

// One design structure in the loop: its backend, the values on its ports, its RTL cycles.
struct RtlDut {
  std::string name;  // design instance
  const GeneratedStructure* rtl = nullptr;
  std::unique_ptr<StructureBackend> be;
  PortValues in, out;
  uint64_t cycles = 0;

  // Every input low (the reset input too).
  void Idle();
  // Every input low but the active-low reset input `rst_n`, which is high (reset deasserted): the
  // start of an ordinary cycle, before the transactor drives the ports it uses.
  void IdleOutOfReset(int rst_n);
};

// The structure that holds every register of every warp (every design has one): the rows are
// its width, and the structures above it write their values back to it.
class RegisterHome {
 public:
  virtual ~RegisterHome() = default;
  virtual int row_width() const = 0;
  // Queues the row `data` of `reg` of `warp` for its write port (`inst`: the instruction whose
  // result it is, ~0U for a flush), transferred before the structure's next read is offered.
  virtual void WriteBack(uint32_t warp, int reg, const Bits& data, uint32_t inst) = 0;
};

class RtlLoopContext {
 public:
  // `lane_cluster`: lanes per cluster of the design (a row holds at most that many lanes).
  RtlLoopContext(const sim::Kernel& k, const sim::SmConfig& sm, int lane_cluster)
      : k_(k), sm_(sm), lane_cluster_(lane_cluster) {}

  const sim::Kernel& kernel() const { return k_; }
  const sim::SmConfig& sm() const { return sm_; }

  // The pipeline event being forwarded: SM cycle, warp, instruction (null: none). Also the
  // warp and instruction a backend's report is about until Blame says otherwise.
  void Enter(uint64_t cycle, uint32_t warp, const sim::DynInst* d);
  uint64_t cycle() const { return cycle_; }
  uint32_t warp() const { return warp_; }
  const sim::DynInst* dyn() const { return dyn_; }
  // The event's instruction, ~0U outside an issue or write-back.
  uint32_t inst() const { return dyn_ != nullptr ? dyn_->inst : ~0U; }
  void Blame(uint32_t warp, uint32_t inst) {
    ctx_warp_ = warp;
    ctx_inst_ = inst;
  }

  // The home structure, and the register rows of cluster 0 at its width (set up by the loop
  // once every transactor is made).
  void SetHome(RegisterHome& home, uint64_t seed);
  RegisterHome& home() const { return *home_; }
  RegisterRows& rows() { return *rows_; }
  const RegisterRows& rows() const { return *rows_; }
  int width() const { return width_; }
  // The bits of a row that hold the cluster's lanes (every lane compared).
  const Bits& lane_mask() const { return lane_mask_; }

  // Reports: "warp W, instruction I at PC (opcode)".
  std::string Where(uint32_t warp, uint32_t inst) const;
  // The same for the current event's warp and instruction (warp(), inst()).
  std::string Where() const { return Where(warp(), inst()); }
  // Stops the run with RtlDivergence: SM cycle, structure `d`, its top and RTL cycle, kernel.
  [[noreturn]] void Fail(const RtlDut& d, const std::string& what) const;
  // The same for a difference no one structure shows.
  [[noreturn]] void Fail(const std::string& what) const;

  // Compares `actual` with the row `e` expects (value checks); a difference stops the run.
  void CheckValue(const RtlDut& d, const std::string& signal, const RowExpect& e,
                  const Bits& actual, uint32_t warp, uint32_t inst);
  // Counts the toggles of `now` against `last` (the port's previous row) at level `l`.
  void Toggle(ActivityLevel l, Bits& last, const Bits& now);
  DataActivity& activity() { return act_; }
  const DataActivity& activity() const { return act_; }

  // A backend's Eval / Clock (the clock counting the cycle); a divergence becomes the full
  // report, about the blamed instruction.
  void Eval(RtlDut& d);
  void Clock(RtlDut& d);

 private:
  const sim::Kernel& k_;
  sim::SmConfig sm_;
  int lane_cluster_;
  uint64_t cycle_ = 0;
  uint32_t warp_ = 0;
  const sim::DynInst* dyn_ = nullptr;
  uint32_t ctx_warp_ = 0, ctx_inst_ = ~0U;
  RegisterHome* home_ = nullptr;
  int width_ = 0;
  Bits lane_mask_;
  std::optional<RegisterRows> rows_;
  DataActivity act_;
};

// One design structure's transactor. The loop calls, for every pipeline event, the inner
// system first (which reports its transactions), then the hooks below on every transactor in
// the order of the design's structures (the home first).
class RtlTransactor {
 public:
  RtlTransactor(RtlDut dut, RtlLoopContext& ctx) : dut_(std::move(dut)), ctx_(ctx) {}
  virtual ~RtlTransactor() = default;
  RtlTransactor(const RtlTransactor&) = delete;
  RtlTransactor& operator=(const RtlTransactor&) = delete;

  const RtlDut& dut() const { return dut_; }
  // Non-null for the structure that holds every register.
  virtual RegisterHome* register_home() { return nullptr; }

  // A transaction of the inner system during the event; false when it is not this structure's.
  virtual bool Transaction(const StructureTransaction& t) = 0;
  // The issue or write-back event is over (every transaction of it reported).
  virtual void EndEvent() {}
  virtual void Activate(uint32_t /*warp*/) {}
  virtual void Deactivate(uint32_t /*warp*/) {}
  // SM cycle: first Settle on every transactor (transfers owed from the last event, which may
  // go to the home), then Tick on every transactor.
  virtual void Settle() {}
  virtual void Tick() {}
  // End of the run: Settle on every transactor, then Finish (drain, every read checked).
  virtual void Finish() {}
  // Work queued that a Tick would do.
  virtual bool Busy() const { return false; }

 protected:
  RtlDut dut_;
  RtlLoopContext& ctx_;
};

// The harness side of a structure kind in the RTL loop (registered under the kind's name).
struct RtlTransactorKind {
  // Whether the kind holds every register (the home: PrepareRtl puts it in every loop).
  bool register_home = false;
  // Warp slots the structure has (0: it holds every warp); must equal the SM's active warps.
  std::function<int(const StructureSpec&)> warp_slots;
  // Why kernel `k` cannot run with this structure in the loop on (a partition of) `sm`: the
  // registers per thread or the warps it cannot hold; empty when it can. Null: every kernel can.
  std::function<std::string(const StructureSpec&, const sim::Kernel& k, const sim::SmConfig& sm)>
      kernel_problem;
  // The transactor of one design structure, `dut` reset and idle.
  std::function<std::unique_ptr<RtlTransactor>(const RtlStructure&, RtlDut dut, RtlLoopContext&)>
      make;
};

// A kind whose design structure is declared for another split of the SM than the loop's
// register-file partition (registered under the kind's name, beside its RtlTransactorKind;
// kinds without one run as declared): `adapt` gives the structure as the loop of one partition
// `sm` needs it. May throw InputError.
struct RtlPartitionSpec {
  std::function<StructureSpec(const StructureSpec&, const sim::SmConfig& sm)> adapt;
};

}  // namespace gpurf::harness
