// The hybrid register cache / scratchpad's transactor in the RTL loop (transactor.h): one
// scheduler's hybrid-rc (the design has one per scheduler; the loop of each register-file
// partition drives its own instance). What the `hybrid` system reports (hybrid_rc_transactions.h)
// is driven with the kernel's values, one instruction's work per RTL cycle or more:
//   - an instruction's source registers on the read ports (all six, so every lookup of the
//     instruction sees the same contents; more than six take further cycles), with the liveness
//     hint on the register's last read of the instruction when the system invalidated it;
//   - its read-allocation fills and its live-outs on the transfer port, one per cycle, after its
//     reads or its results (a fill's xf_data_i is the MRF's row of the register);
//   - its results on the write ports, two per cycle (write 0 the older);
// and every answer must be the system's: rd_hit_o (RSP reads always), xf_hit_o, wb_valid_o of
// every channel with its warp and register (the writes' victims, the transfer's write-back),
// the rows read and written back against the kernel's values. Write-backs go on to the register
// home's write port. RSP entry e of a warp is hardware slot (the warp's active slot) x entries
// + e; a warp gets the lowest free active slot when activated.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <unordered_map>

#include "base/registry.h"
#include "gen/structures/hybrid_rc/hybrid_rc_ports.h"
#include "gen/structures/hybrid_rc/hybrid_rc_spec.h"
#include "sim/harness/transactor.h"
#include "sim/harness/transactors/hybrid_rc_transactions.h"

namespace gpurf::harness {
namespace {

using Level = ActivityLevel;
using P = HybridRcPort;

std::string KernelProblem(const StructureSpec& s, const sim::Kernel& k, const sim::SmConfig& sm) {
  const HybridRcSpec& h = SpecAs<HybridRcSpec>(s);
  if (k.regs_per_thread > (1 << h.reg_bits))
    return fmt::format("kernel {} needs {} registers, the hybrid-rc's register names have {} bits",
                       k.name, k.regs_per_thread, h.reg_bits);
  if (sm.warps > h.warps)
    return fmt::format("the hybrid-rc names {} warps, the register-file partition has {}", h.warps,
                       sm.warps);
  return {};
}

// The design declares one scheduler's hybrid-rc for the warps of its SM's scheduler; the loop of
// a register-file partition numbers the partition's warps, which may be more (a partition
// design's SM is itself one scheduler's share): the RC tags then name every warp of `sm`.
StructureSpec ForPartition(const StructureSpec& s, const sim::SmConfig& sm) {
  const HybridRcSpec& h = SpecAs<HybridRcSpec>(s);
  if (sm.warps <= h.warps)
    return s;
  int warps = 2;
  while (warps < sm.warps)
    warps *= 2;
  ParamSet p = h.params;
  p.Set("warps", std::to_string(warps), p.Get("warps").loc, "sm.warps (a partition's warps)");
  return HybridRcSpec::FromParams(p);
}

class HybridRcTransactor : public RtlTransactor {
 public:
  HybridRcTransactor(const RtlStructure& s, RtlDut dut, RtlLoopContext& ctx)
      : RtlTransactor(std::move(dut), ctx), spec_(SpecAs<HybridRcSpec>(s.spec)) {
    if (const std::string p = KernelProblem(s.spec, ctx.kernel(), ctx.sm()); !p.empty())
      throw std::runtime_error("RTL in the loop: " + p);
    slot_of_.assign(static_cast<size_t>(ctx.sm().warps), -1);
    slot_free_.assign(static_cast<size_t>(std::max(1, ctx.sm().active_warps)), true);
  }

  bool Transaction(const StructureTransaction& t) override {
    if (const auto* r = t.As<HybridRead>()) {
      FlushWrites();
      Read(*r);
      return true;
    }
    if (const auto* x = t.As<HybridTransfer>()) {
      FlushWrites();
      Transfer(*x);
      return true;
    }
    if (const auto* w = t.As<HybridWrite>()) {
      Write(*w);
      return true;
    }
    return false;
  }

  void EndEvent() override { FlushWrites(); }

  void Activate(uint32_t warp) override {
    if (slot_of_[warp] >= 0)
      return;
    auto it = std::find(slot_free_.begin(), slot_free_.end(), true);
    if (it == slot_free_.end())
      ctx_.Fail(dut_, fmt::format("warp {} activated with every RSP slot taken", warp));
    *it = false;
    slot_of_[warp] = static_cast<int>(it - slot_free_.begin());
  }

  void Deactivate(uint32_t warp) override {
    const int slot = slot_of_[warp];
    if (slot < 0)
      return;
    slot_free_[static_cast<size_t>(slot)] = true;
    slot_of_[warp] = -1;
  }

 private:
  // A write-back the system expects on a channel this cycle: an RC line (`rc`: its value is the
  // row last written into the RC for the register, which may be older than the register's value
  // when the RSP holds a newer one) or the register's current value (a live-out).
  struct Expect {
    bool valid = false;
    uint32_t warp = 0;
    int reg = 0;
    bool rc = true;
  };

  static uint64_t Key(uint32_t warp, int reg) {
    return (uint64_t{warp} << 32) | static_cast<uint32_t>(reg);
  }

  // The RSP slot of entry `entry` of `warp`, or -1 when the warp has no active slot.
  int Slot(uint32_t warp, int entries, int entry) {
    const int active = static_cast<int>(slot_free_.size());
    if (entries < 1 || entries * active > spec_.rsp_slots || entry >= entries)
      ctx_.Fail(dut_, fmt::format("{}: RSP entry {} of {} per warp x {} active warps does not fit "
                                  "the {} slots of the hybrid-rc",
                                  ctx_.Where(warp, ctx_.inst()), entry, entries, active,
                                  spec_.rsp_slots));
    const int s = slot_of_[warp];
    return s < 0 ? -1 : s * entries + entry;
  }

  void Begin() {
    if (ctx_.width() != spec_.width)
      ctx_.Fail(dut_, fmt::format("the hybrid-rc stores {} bits of a register, the register home "
                                  "{}: the design's widths must agree for the loop",
                                  spec_.width, ctx_.width()));
    dut_.IdleOutOfReset(P::kRstN);
  }

  // Eval; every write-back channel must show what `want` says (and its row the register's);
  // the write-backs go on to the home. The caller clocks after its own checks.
  void EvalAndCheckWriteBacks(const std::array<Expect, HybridRcSpec::kWbChannels>& want) {
    RtlDut& r = dut_;
    const HybridRcSpec& s = spec_;
    ctx_.Eval(r);
    RegisterRows& rows = ctx_.rows();
    for (int c = 0; c < HybridRcSpec::kWbChannels; ++c) {
      const Expect& e = want[static_cast<size_t>(c)];
      const bool v = r.out[P::kWbValid].bit(c);
      const uint32_t warp = ctx_.warp(), inst = ctx_.inst();
      if (v != e.valid)
        ctx_.Fail(r, fmt::format("{}: wb_valid_o[{}] is {}, the system {}", ctx_.Where(warp, inst),
                                 c, v ? 1 : 0,
                                 e.valid ? fmt::format("writes back warp {} R{}", e.warp, e.reg)
                                         : std::string("writes back nothing there")));
      if (!v)
        continue;
      const auto ww = static_cast<uint32_t>(r.out[P::kWbWarp].get(c * s.warp_bits, s.warp_bits));
      const int wr = static_cast<int>(r.out[P::kWbReg].get(c * s.reg_bits, s.reg_bits));
      if (ww != e.warp || wr != e.reg)
        ctx_.Fail(r, fmt::format("{}: wb_warp_o/wb_reg_o[{}] write back warp {} R{}, the system "
                                 "warp {} R{}",
                                 ctx_.Where(warp, inst), c, ww, wr, e.warp, e.reg));
      const Bits data = r.out[P::kWbData].slice(c * s.width, s.width);
      RowExpect x;
      x.mask = ctx_.lane_mask();
      if (e.rc) {
        const auto it = rc_rows_.find(Key(ww, wr));
        x.check = it != rc_rows_.end();
        if (x.check)
          x.value = it->second;
      } else {
        x.value = rows.Shadow(ww, wr);
        x.check = rows.Written(ww, wr);
      }
      ctx_.CheckValue(r, fmt::format("wb_data_o[{}] (warp {} R{})", c, ww, wr), x, data, warp,
                      inst);
      ctx_.Toggle(Level::kL0, last_wb_[static_cast<size_t>(c)], data);
      ctx_.home().WriteBack(ww, wr, data, ~0U);
    }
  }

  void Read(const HybridRead& t) {
    RtlDut& r = dut_;
    const HybridRcSpec& s = spec_;
    const uint32_t warp = t.warp, inst = ctx_.inst();
    const auto& ops = t.ops;
    // The liveness hint goes with the register's last read in the instruction.
    std::vector<bool> last(ops.size(), false);
    for (size_t i = 0; i < ops.size(); ++i) {
      if (ops[i].rsp || !ops[i].kill)
        continue;
      size_t at = i;
      for (size_t j = i + 1; j < ops.size(); ++j) {
        if (!ops[j].rsp && ops[j].reg == ops[i].reg)
          at = j;
      }
      last[at] = true;
    }
    const size_t n = HybridRcSpec::kReadPorts;
    for (size_t base = 0; base < ops.size(); base += n) {
      Begin();
      for (size_t k = 0; k < n && base + k < ops.size(); ++k) {
        const HybridOperand& op = ops[base + k];
        const int p = static_cast<int>(k);
        r.in[P::kRdValid].set_bit(p, true);
        r.in[P::kRdRsp].set_bit(p, op.rsp);
        if (op.rsp) {
          const int slot = Slot(warp, t.entries, op.entry);
          if (slot < 0)
            ctx_.Fail(r, fmt::format("{}: reads R{} from RSP entry {} without an active slot",
                                     ctx_.Where(warp, inst), op.reg, op.entry));
          r.in[P::kRdSlot].set(p * s.slot_bits, s.slot_bits, static_cast<uint64_t>(slot));
        } else {
          r.in[P::kRdWarp].set(p * s.warp_bits, s.warp_bits, warp);
          r.in[P::kRdReg].set(p * s.reg_bits, s.reg_bits, static_cast<uint64_t>(op.reg));
          r.in[P::kRdLast].set_bit(p, last[base + k]);
        }
      }
      EvalAndCheckWriteBacks({});
      for (size_t k = 0; k < n && base + k < ops.size(); ++k) {
        const HybridOperand& op = ops[base + k];
        const int p = static_cast<int>(k);
        const bool hit = r.out[P::kRdHit].bit(p);
        if (hit != op.hit)
          ctx_.Fail(r, fmt::format("{}: {} read of R{}: rd_hit_o[{}] is {}, the system {}",
                                   ctx_.Where(warp, inst), op.rsp ? "RSP" : "RC", op.reg, p,
                                   hit ? 1 : 0, op.hit ? "hits" : "misses"));
        if (!hit)
          continue;
        const Bits data = r.out[P::kRdData].slice(p * s.width, s.width);
        ctx_.CheckValue(r, fmt::format("rd_data_o[{}] ({} R{})", p, op.rsp ? "RSP" : "RC", op.reg),
                        ctx_.rows().SourceExpect(warp, op.reg, ctx_.dyn()), data, warp, inst);
        ctx_.Toggle(op.rsp ? Level::kL1 : Level::kL0, last_rd_[static_cast<size_t>(p)], data);
      }
      ctx_.Clock(r);
    }
  }

  void Transfer(const HybridTransfer& t) {
    RtlDut& r = dut_;
    const HybridRcSpec& s = spec_;
    const uint32_t warp = t.warp, inst = ctx_.inst();
    const char* what = t.live_out ? "live-out" : "fill";
    const int slot = Slot(warp, t.entries, t.entry);
    if (slot < 0)
      ctx_.Fail(r, fmt::format("{}: {} of R{} (RSP entry {}) without an active slot",
                               ctx_.Where(warp, inst), what, t.reg, t.entry));
    RegisterRows& rows = ctx_.rows();
    Begin();
    r.in[P::kXfValid] = Bits(1, 1);
    r.in[P::kXfOp] = Bits(1, t.live_out ? HybridRcSpec::kLiveOut : HybridRcSpec::kFill);
    r.in[P::kXfSlot].set(0, s.slot_bits, static_cast<uint64_t>(slot));
    r.in[P::kXfWarp].set(0, s.warp_bits, warp);
    r.in[P::kXfReg].set(0, s.reg_bits, static_cast<uint64_t>(t.reg));
    if (!t.live_out)
      r.in[P::kXfData] = rows.Shadow(warp, t.reg);  // the MRF's row
    std::array<Expect, HybridRcSpec::kWbChannels> want{};
    if (t.write_back)
      want[2] = {true, warp, t.reg, !t.live_out};  // a fill evicts the RC's line
    else if (t.victim.valid)
      want[2] = {true, t.victim.warp, t.victim.reg, true};
    EvalAndCheckWriteBacks(want);
    if (t.live_out && !t.write_back)
      rc_rows_[Key(warp, t.reg)] = rows.Shadow(warp, t.reg);  // hierarchical: an RC write
    const bool hit = r.out[P::kXfHit].bit(0);
    if (hit != t.hit)
      ctx_.Fail(r, fmt::format("{}: {} of R{} (slot {}): xf_hit_o is {}, the system {}",
                               ctx_.Where(warp, inst), what, t.reg, slot, hit ? 1 : 0,
                               t.hit ? "finds it in the RC" : "does not find it in the RC"));
    if (!t.live_out && !hit)
      ctx_.Toggle(Level::kL1, last_xf_, r.in[P::kXfData]);
    ctx_.Clock(r);
  }

  void Write(const HybridWrite& w) {
    RegisterRows& rows = ctx_.rows();
    rows.Commit(w.warp, w.reg);
    if (w.rsp && Slot(w.warp, w.entries, w.entry) < 0) {
      // A result that arrives after its warp was descheduled: its strand ended, so the
      // allocation reads it from the RSP no more, and the slot may be another warp's.
      ++ctx_.activity().dropped_result_writes;
      return;
    }
    writes_.push_back(w);
  }

  // The buffered results, two per cycle (write 0 the older).
  void FlushWrites() {
    RtlDut& r = dut_;
    const HybridRcSpec& s = spec_;
    RegisterRows& rows = ctx_.rows();
    const size_t n = HybridRcSpec::kWritePorts;
    for (size_t base = 0; base < writes_.size(); base += n) {
      Begin();
      std::array<Expect, HybridRcSpec::kWbChannels> want{};
      std::array<std::pair<uint64_t, Bits>, HybridRcSpec::kWritePorts> rc_after;
      for (size_t q = 0; q < n && base + q < writes_.size(); ++q) {
        const HybridWrite& w = writes_[base + q];
        const int p = static_cast<int>(q);
        r.in[P::kWrValid].set_bit(p, true);
        r.in[P::kWrRsp].set_bit(p, w.rsp);
        if (w.rsp) {
          r.in[P::kWrSlot].set(p * s.slot_bits, s.slot_bits,
                               static_cast<uint64_t>(Slot(w.warp, w.entries, w.entry)));
        } else {
          r.in[P::kWrWarp].set(p * s.warp_bits, s.warp_bits, w.warp);
          r.in[P::kWrReg].set(p * s.reg_bits, s.reg_bits, static_cast<uint64_t>(w.reg));
          if (w.victim.valid)
            want[q] = {true, w.victim.warp, w.victim.reg, true};
        }
        const Bits& data = rows.Shadow(w.warp, w.reg);
        if (!w.rsp)
          rc_after[q] = {Key(w.warp, w.reg), data};
        r.in[P::kWrData].set_slice(p * s.width, data);
        ctx_.Toggle(w.rsp ? Level::kL1 : Level::kL0, last_wr_[q], data);
      }
      EvalAndCheckWriteBacks(want);
      ctx_.Clock(r);
      for (size_t q = 0; q < n && base + q < writes_.size(); ++q) {
        if (!writes_[base + q].rsp)
          rc_rows_[rc_after[q].first] = rc_after[q].second;
      }
    }
    writes_.clear();
  }

  HybridRcSpec spec_;
  std::vector<int> slot_of_;  // by warp, -1 when inactive
  std::vector<bool> slot_free_;
  std::vector<HybridWrite> writes_;  // results not yet driven (copies: victims by value)
  // The row last written into the RC per (warp, register): what a write-back of its line carries.
  std::unordered_map<uint64_t, Bits> rc_rows_;
  std::array<Bits, HybridRcSpec::kReadPorts> last_rd_;
  std::array<Bits, HybridRcSpec::kWritePorts> last_wr_;
  std::array<Bits, HybridRcSpec::kWbChannels> last_wb_;
  Bits last_xf_;
};

}  // namespace

GPURF_REGISTER(RtlPartitionSpec, hybrid_rc_partition, "hybrid-rc", (RtlPartitionSpec{ForPartition}))

GPURF_REGISTER(RtlTransactorKind, hybrid_rc, "hybrid-rc",
               (RtlTransactorKind{
                   .register_home = false,
                   .warp_slots = [](const StructureSpec&) { return 0; },
                   .kernel_problem = KernelProblem,
                   .make = [](const RtlStructure& s, RtlDut dut,
                              RtlLoopContext& ctx) -> std::unique_ptr<RtlTransactor> {
                     return std::make_unique<HybridRcTransactor>(s, std::move(dut), ctx);
                   },
               }))

}  // namespace gpurf::harness
