// The software ORF's transactor in the RTL loop (transactor.h), one per ORF level of the design
// (kinds orf-l1 and orf-l0): one slot per active warp (lowest free on activation; inv_i on
// deschedule); the allocation's reads (orf_transactions.h) of the level on the read port of their
// operand slot, its writes and fills, driven after the issue or write-back that made them.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <vector>

#include "base/registry.h"
#include "gen/structures/orf/orf_spec.h"
#include "models/orf_model.h"
#include "sim/harness/transactor.h"
#include "sim/harness/transactors/orf_transactions.h"

namespace gpurf::harness {
namespace {

namespace sp = sim::passes;
using Level = ActivityLevel;

class OrfTransactor : public RtlTransactor {
 public:
  OrfTransactor(const RtlStructure& s, RtlDut dut, RtlLoopContext& ctx)
      : RtlTransactor(std::move(dut), ctx), registered_(SpecAs<OrfSpec>(s.spec).registered()) {
    const bool l0 = SpecAs<OrfSpec>(s.spec).level == OrfSpec::Level::kL0;
    level_ = l0 ? sp::RfLevel::kL0 : sp::RfLevel::kL1;
    energy_level_ = l0 ? Level::kL0 : Level::kL1;
    slot_of_.assign(static_cast<size_t>(ctx.sm().warps), -1);
    slot_free_.assign(static_cast<size_t>(ctx.sm().active_warps), true);
    valid_.assign(static_cast<size_t>(ctx.sm().active_warps) * kEntries, 0);
  }

  bool Transaction(const StructureTransaction& t) override {
    if (const auto* r = t.As<OrfRead>()) {
      if (r->level != level_)
        return false;
      ops_.push_back({r->src, r->reg, r->entry, false});
      return true;
    }
    if (const auto* w = t.As<OrfWrite>()) {
      if (w->level != level_)
        return false;
      if (!w->fill)
        ctx_.rows().Commit(ctx_.warp(), w->reg);
      ops_.push_back({-1, w->reg, w->entry, w->fill});
      return true;
    }
    return false;
  }

  void EndEvent() override { Run(); }

  void Activate(uint32_t warp) override {
    if (slot_of_[warp] >= 0)
      return;
    auto it = std::find(slot_free_.begin(), slot_free_.end(), true);
    if (it == slot_free_.end())
      ctx_.Fail(dut_, fmt::format("warp {} activated with every slot taken", warp));
    *it = false;
    slot_of_[warp] = static_cast<int>(it - slot_free_.begin());
  }

  void Deactivate(uint32_t warp) override {
    const int slot = slot_of_[warp];
    if (slot < 0)
      return;
    Invalidate(slot);
    slot_free_[static_cast<size_t>(slot)] = true;
    slot_of_[warp] = -1;
  }

 private:
  struct Op {
    int port, reg, entry;  // port: the source operand of a read, -1 for a write
    bool fill;
  };
  // Entries written since their slot was last invalidated, [slot * kEntries + entry]: a read of
  // another entry is reported before the RTL's misuse assertion fires.
  static constexpr int kEntries = 8;
  static size_t Index(int slot, int entry) {
    return static_cast<size_t>(slot) * kEntries + static_cast<size_t>(entry);
  }

  void Invalidate(int slot) {
    using P = OrfCycleModel::Port;
    RtlDut& o = dut_;
    for (int e = 0; e < kEntries; ++e)
      valid_[Index(slot, e)] = 0;
    o.IdleOutOfReset(P::kRstN);
    o.in[P::kInv] = Bits(1, 1);
    o.in[P::kInvSlot].set(0, o.in[P::kInvSlot].width(), static_cast<uint64_t>(slot));
    ctx_.Eval(o);
    ctx_.Clock(o);
  }

  void Run() {
    using P = OrfCycleModel::Port;
    if (ops_.empty())
      return;
    RtlDut& o = dut_;
    const uint32_t warp = ctx_.warp(), inst = ctx_.inst();
    const int slot = slot_of_[warp];
    if (slot < 0) {
      // A result that arrives after its warp was descheduled: the ORF of the warp was
      // invalidated at its strand end, and the slot may belong to another warp now, so the write
      // is dropped (the allocation never reads an ORF value across a strand end).
      for (const auto& op : ops_) {
        if (op.port >= 0 || op.fill)
          ctx_.Fail(o, fmt::format("{}: the warp uses the ORF without an active slot",
                                   ctx_.Where(warp, inst)));
      }
      ctx_.activity().dropped_result_writes += ops_.size();
      ops_.clear();
      return;
    }
    std::vector<Op> reads, writes;
    for (const auto& op : ops_)
      (op.port >= 0 ? reads : writes).push_back(op);
    ops_.clear();
    const int sw = o.in[P::kWslot].width(), ew = o.in[P::kWentry].width();
    const int dw = o.in[P::kWdata].width();
    // Reads: one per port and cycle, in order.
    while (!reads.empty()) {
      o.IdleOutOfReset(P::kRstN);
      std::array<int, 3> port_op{-1, -1, -1};
      std::vector<Op> rest;
      for (size_t i = 0; i < reads.size(); ++i) {
        const Op& op = reads[i];
        if (op.port > 2)
          ctx_.Fail(o, fmt::format("{}: source operand {} has no ORF read port",
                                   ctx_.Where(warp, inst), op.port));
        if (port_op[static_cast<size_t>(op.port)] >= 0) {
          rest.push_back(op);
          continue;
        }
        if (!valid_[Index(slot, op.entry)])
          ctx_.Fail(o, fmt::format("{}: reads R{} from entry {} of slot {}, which holds no value: "
                                   "the warp was descheduled (inv_i) after the value was written, "
                                   "or the write arrived while it was descheduled; the SM's "
                                   "two-level scheduler descheduled it inside a strand of the ORF "
                                   "allocation",
                                   ctx_.Where(warp, inst), op.reg, op.entry, slot));
        port_op[static_cast<size_t>(op.port)] = static_cast<int>(i);
        o.in[P::kRe].set_bit(op.port, true);
        o.in[P::kRslot].set(op.port * sw, sw, static_cast<uint64_t>(slot));
        o.in[P::kRentry].set(op.port * ew, ew, static_cast<uint64_t>(op.entry));
      }
      ctx_.Eval(o);
      if (registered_) {  // read data shows one cycle after the read
        ctx_.Clock(o);
        o.IdleOutOfReset(P::kRstN);
        ctx_.Eval(o);
      }
      for (int port = 0; port < 3; ++port) {
        const auto up = static_cast<size_t>(port);
        if (port_op[up] < 0)
          continue;
        const Op& op = reads[static_cast<size_t>(port_op[up])];
        const Bits data = o.out[P::kRdata].slice(port * dw, dw);
        ctx_.CheckValue(o, fmt::format("rdata_o port {} (R{}, entry {})", port, op.reg, op.entry),
                        ctx_.rows().SourceExpect(warp, op.reg, ctx_.dyn()), data, warp, inst);
        ctx_.Toggle(energy_level_, last_rd_[up], data);
      }
      if (!registered_)
        ctx_.Clock(o);
      reads = std::move(rest);
    }
    for (const auto& op : writes) {
      o.IdleOutOfReset(P::kRstN);
      o.in[P::kWe] = Bits(1, 1);
      o.in[P::kWslot].set(0, sw, static_cast<uint64_t>(slot));
      o.in[P::kWentry].set(0, ew, static_cast<uint64_t>(op.entry));
      o.in[P::kWdata] = ctx_.rows().Shadow(warp, op.reg);
      valid_[Index(slot, op.entry)] = 1;
      ctx_.Eval(o);
      ctx_.Toggle(energy_level_, last_wr_, o.in[P::kWdata]);
      ctx_.Clock(o);
    }
  }

  bool registered_;  // read data shows one cycle after the read
  sp::RfLevel level_;
  Level energy_level_;
  std::vector<int> slot_of_;  // by warp, -1 when inactive
  std::vector<bool> slot_free_;
  std::vector<Op> ops_;  // the event's transactions of this level, in order
  std::vector<uint8_t> valid_;
  std::array<Bits, 3> last_rd_;
  Bits last_wr_;
};

RtlTransactorKind OrfKind() {
  return RtlTransactorKind{
      .register_home = false,
      .warp_slots = [](const StructureSpec& s) { return SpecAs<OrfSpec>(s).active_warps; },
      .kernel_problem = nullptr,  // entries are per slot, any register fits
      .make = [](const RtlStructure& s, RtlDut dut,
                 RtlLoopContext& ctx) -> std::unique_ptr<RtlTransactor> {
        return std::make_unique<OrfTransactor>(s, std::move(dut), ctx);
      },
  };
}

}  // namespace

GPURF_REGISTER(RtlTransactorKind, orf_l1, "orf-l1", OrfKind())
GPURF_REGISTER(RtlTransactorKind, orf_l0, "orf-l0", OrfKind())

}  // namespace gpurf::harness
