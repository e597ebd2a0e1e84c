// The hardware RFC's transactor in the RTL loop (transactor.h): lookups (three per cycle),
// result writes (long-latency results with wr_long_i), flushes on deschedule; every answer of
// the RTL must be the model system's (rfc_transactions.h): hit or miss, level, the register and
// number of write-backs. Write-backs go on to the register home's write port.
#include <fmt/format.h>

#include <array>

#include "base/registry.h"
#include "gen/structures/rfc/rfc_spec.h"
#include "models/rfc_model.h"
#include "sim/harness/transactor.h"
#include "sim/harness/transactors/rfc_transactions.h"

namespace gpurf::harness {
namespace {

using Level = ActivityLevel;

std::string KernelProblem(const StructureSpec& s, const sim::Kernel& k, const sim::SmConfig&) {
  const RfcSpec& r = SpecAs<RfcSpec>(s);
  if (k.regs_per_thread <= r.registers())
    return {};
  return fmt::format("kernel {} needs {} registers, the RFC tags name {}", k.name,
                     k.regs_per_thread, r.registers());
}

class RfcTransactor : public RtlTransactor {
 public:
  RfcTransactor(const RtlStructure& s, RtlDut dut, RtlLoopContext& ctx)
      : RtlTransactor(std::move(dut), ctx),
        spec_(SpecAs<RfcSpec>(s.spec)),
        p_(RfcPorts::For(spec_)) {
    if (const std::string p = KernelProblem(s.spec, ctx.kernel(), ctx.sm()); !p.empty())
      throw std::runtime_error("RTL in the loop: " + p);
  }

  bool Transaction(const StructureTransaction& t) override {
    if (const auto* r = t.As<RfcRead>()) {
      Read(r->ops, r->res);
      return true;
    }
    if (const auto* w = t.As<RfcWrite>()) {
      Write(w->slot, w->reg, w->bypass, w->not_l0, w->res);
      return true;
    }
    if (const auto* f = t.As<RfcFlush>()) {
      Flush(f->warp, f->slot, f->entries);
      return true;
    }
    return false;
  }

  // An idle cycle that transfers an owed write-back.
  void Settle() override {
    if (!wb_owed_)
      return;
    RtlDut& r = dut_;
    ctx_.Blame(wb_warp_, wb_inst_);
    r.Idle();
    Cycle(r);
    ctx_.Clock(r);
  }

  bool Busy() const override { return wb_owed_; }

 private:
  // rst_ni high, wb_ready_i high, Eval, the owed write-back.
  void Cycle(RtlDut& r) {
    // The write-back port is always ready (the MRF takes one write per cycle): a value it shows
    // transfers at this edge and joins the home's write-back queue. Outside a flush it must be
    // the write-back the model announced at the last write (and nothing when it announced none).
    const RfcPorts& p = p_;
    const RfcSpec& s = spec_;
    r.in[p.rst_n] = Bits(1, 1);
    r.in[p.wb_ready] = Bits(1, 1);
    ctx_.Eval(r);
    const bool wb = r.out[p.wb_valid].bit(0);
    if (wb != wb_owed_)
      ctx_.Fail(r, fmt::format("{}: wb_valid_o is {}, the model {}", ctx_.Where(wb_warp_, wb_inst_),
                               wb ? 1 : 0,
                               wb_owed_ ? fmt::format("writes back slot {} R{}", wb_slot_, wb_reg_)
                                        : std::string("owes no write-back")));
    if (!wb)
      return;
    const int wreg = static_cast<int>(r.out[p.wb_reg].get(0, s.reg_bits));
    const int wslot = static_cast<int>(r.out[p.wb_slot].get(0, s.slot_bits));
    if (wreg != wb_reg_ || wslot != wb_slot_)
      ctx_.Fail(r, fmt::format("{}: write-back of slot {} R{}, the model writes back slot {} R{}",
                               ctx_.Where(wb_warp_, wb_inst_), wslot, wreg, wb_slot_, wb_reg_));
    const Bits data = r.out[p.wb_data];
    ctx_.CheckValue(r, fmt::format("wb_data_o (R{})", wreg), wb_expect_, data, wb_warp_, wb_inst_);
    if (!wb_bypass_)
      ctx_.Toggle(Level::kL1, last_wb_, data);
    ctx_.home().WriteBack(wb_warp_, wreg, data, ~0U);
    wb_owed_ = false;
  }

  void Read(const std::vector<RfcCache::Operand>& ops,
            const std::vector<RfcCache::ReadResult>& res) {
    const RfcPorts& p = p_;
    const RfcSpec& s = spec_;
    RtlDut& r = dut_;
    const uint32_t warp = ctx_.warp(), inst = ctx_.inst();
    for (size_t base = 0; base < ops.size(); base += 3) {
      r.Idle();
      for (size_t k = 0; k < 3 && base + k < ops.size(); ++k) {
        const auto& op = ops[base + k];
        const int ik = static_cast<int>(k);
        r.in[p.lu_valid].set_bit(ik, op.valid);
        r.in[p.lu_slot].set(ik * s.slot_bits, s.slot_bits, static_cast<uint64_t>(op.slot));
        r.in[p.lu_reg].set(ik * s.reg_bits, s.reg_bits, static_cast<uint64_t>(op.reg));
        r.in[p.lu_last].set_bit(ik, op.last);
      }
      Cycle(r);
      for (size_t k = 0; k < 3 && base + k < ops.size(); ++k) {
        const auto& op = ops[base + k];
        const auto& want = res[base + k];
        if (!op.valid)
          continue;
        const int ik = static_cast<int>(k);
        const bool hit = r.out[p.lu_hit].bit(ik);
        if (hit != want.hit)
          ctx_.Fail(r, fmt::format("{}: lookup of R{} in slot {}: lu_hit_o[{}] is {}, the model {}",
                                   ctx_.Where(warp, inst), op.reg, op.slot, k, hit ? 1 : 0,
                                   want.hit ? "hits" : "misses"));
        if (!hit)
          continue;
        const bool l0 = p.lu_l0 >= 0 && r.out[p.lu_l0].bit(ik);
        if (s.two_levels() && l0 != (want.level == 0))
          ctx_.Fail(r, fmt::format(
                           "{}: lookup of R{} in slot {}: lu_l0_o[{}] is {}, the model hits in L{}",
                           ctx_.Where(warp, inst), op.reg, op.slot, k, l0 ? 1 : 0, want.level));
        const Bits data = r.out[p.lu_data].slice(ik * s.width, s.width);
        ctx_.CheckValue(r, fmt::format("lu_data_o operand {} (R{})", k, op.reg),
                        ctx_.rows().SourceExpect(warp, op.reg, ctx_.dyn()), data, warp, inst);
        ctx_.Toggle(l0 ? Level::kL0 : Level::kL1, last_lu_[k], data);
      }
      ctx_.Clock(r);
    }
  }

  void Write(int slot, int reg, bool bypass, bool not_l0, const RfcCache::WriteResult& res) {
    const RfcPorts& p = p_;
    const RfcSpec& s = spec_;
    RtlDut& r = dut_;
    RegisterRows& rows = ctx_.rows();
    const uint32_t warp = ctx_.warp();
    rows.Commit(warp, reg);
    r.Idle();
    r.in[p.wr_valid] = Bits(1, 1);
    r.in[p.wr_slot].set(0, s.slot_bits, static_cast<uint64_t>(slot));
    r.in[p.wr_reg].set(0, s.reg_bits, static_cast<uint64_t>(reg));
    r.in[p.wr_data] = rows.Shadow(warp, reg);
    r.in[p.wr_long] = Bits(1, bypass);
    if (p.wr_no_l0 >= 0)
      r.in[p.wr_no_l0] = Bits(1, not_l0);
    Cycle(r);
    if (!r.out[p.wr_ready].bit(0))
      ctx_.Fail(r, fmt::format("{}: wr_ready_o is low with the write-back register free",
                               ctx_.Where(warp, ctx_.inst())));
    if (!bypass)
      ctx_.Toggle(s.two_levels() && !not_l0 ? Level::kL0 : Level::kL1, last_wr_, r.in[p.wr_data]);
    ctx_.Clock(r);
    // The write-back register now holds the model's write-back to the home, if any; it
    // transfers in the next RFC cycle (the next transaction, or Settle at the end of the SM
    // cycle).
    if (res.to_mrf) {
      wb_owed_ = true;
      wb_slot_ = slot;
      wb_reg_ = res.to_mrf->reg;
      wb_warp_ = warp;
      wb_inst_ = ctx_.inst();
      wb_bypass_ = bypass;
      wb_expect_.value = rows.Shadow(warp, wb_reg_);
      wb_expect_.mask = ctx_.lane_mask();
      wb_expect_.check = rows.Written(warp, wb_reg_);
    }
  }

  void Flush(uint32_t warp, int slot, int entries) {
    const RfcPorts& p = p_;
    const RfcSpec& s = spec_;
    RtlDut& r = dut_;
    RegisterRows& rows = ctx_.rows();
    Settle();
    r.Idle();
    r.in[p.fl_valid] = Bits(1, 1);
    r.in[p.fl_slot].set(0, s.slot_bits, static_cast<uint64_t>(slot));
    Cycle(r);
    if (r.out[p.fl_busy].bit(0))
      ctx_.Fail(r, fmt::format("flush of slot {} (warp {}): fl_busy_o is high", slot, warp));
    ctx_.Clock(r);
    int got = 0;
    bool done = false;
    for (int n = 0; n < 4 * entries + 16 && !done; ++n) {
      r.IdleOutOfReset(p.rst_n);
      r.in[p.wb_ready] = Bits(1, 1);
      ctx_.Eval(r);
      if (r.out[p.wb_valid].bit(0)) {
        const int wreg = static_cast<int>(r.out[p.wb_reg].get(0, s.reg_bits));
        const int wslot = static_cast<int>(r.out[p.wb_slot].get(0, s.slot_bits));
        if (wslot != slot)
          ctx_.Fail(
              r, fmt::format("flush of slot {} (warp {}) writes back slot {}", slot, warp, wslot));
        const Bits data = r.out[p.wb_data];
        RowExpect e;
        e.value = rows.Shadow(warp, wreg);
        e.mask = ctx_.lane_mask();
        e.check = wreg < static_cast<int>(rows.regs()) && rows.Written(warp, wreg);
        ctx_.CheckValue(r, fmt::format("wb_data_o (flush, R{})", wreg), e, data, warp, ~0U);
        ctx_.Toggle(Level::kL1, last_wb_, data);
        ctx_.home().WriteBack(warp, wreg, data, ~0U);
        ++got;
      }
      done = r.out[p.fl_done].bit(0);
      ctx_.Clock(r);
    }
    if (!done || got != entries)
      ctx_.Fail(r, fmt::format(
                       "flush of slot {} (warp {}): {} write-backs{}, the model flushed {} entries",
                       slot, warp, got, done ? "" : " and no fl_done_o pulse", entries));
  }

  RfcSpec spec_;
  RfcPorts p_;
  std::array<Bits, 3> last_lu_;
  Bits last_wr_, last_wb_;
  // The model's write-back of the last write, owed until the next RFC cycle.
  bool wb_owed_ = false, wb_bypass_ = false;
  int wb_slot_ = 0, wb_reg_ = 0;
  uint32_t wb_warp_ = 0, wb_inst_ = 0;
  RowExpect wb_expect_;
};

}  // namespace

GPURF_REGISTER(RtlTransactorKind, rfc, "rfc",
               (RtlTransactorKind{
                   .register_home = false,
                   .warp_slots =
                       [](const StructureSpec& s) { return SpecAs<RfcSpec>(s).active_warps; },
                   .kernel_problem = KernelProblem,
                   .make = [](const RtlStructure& s, RtlDut dut,
                              RtlLoopContext& ctx) -> std::unique_ptr<RtlTransactor> {
                     return std::make_unique<RfcTransactor>(s, std::move(dut), ctx);
                   },
               }))

}  // namespace gpurf::harness
