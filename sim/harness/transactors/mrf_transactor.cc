// The MRF's transactor in the RTL loop (transactor.h): the registers an instruction reads from
// the MRF enter the issue port in chunks of three operand slots (the MRF's port contract);
// result rows and the upper levels' write-backs enter the write-back port, all of them before
// the next chunk is offered (so a read granted later sees every value written before its
// instruction issued); every dispatch is matched to its chunk by tag and its operand rows are
// checked against the values the instruction read. The MRF is the register home: every design
// has one, the rows are its width, and write-backs go to it.
#include <fmt/format.h>

#include <array>
#include <deque>
#include <unordered_map>

#include "base/registry.h"
#include "gen/structures/mrf/mrf_spec.h"
#include "models/mrf_model.h"
#include "sim/harness/transactor.h"
#include "sim/harness/transactors/mrf_transactions.h"

namespace gpurf::harness {
namespace {

using Level = ActivityLevel;

std::string KernelProblem(const StructureSpec& s, const sim::Kernel& k, const sim::SmConfig& sm) {
  const MrfSpec& m = SpecAs<MrfSpec>(s);
  if (k.regs_per_thread <= m.regs && m.warps >= sm.warps)
    return {};
  return fmt::format("kernel {} needs {} registers x {} warps, the design's MRF holds {} x {}",
                     k.name, k.regs_per_thread, sm.warps, m.regs, m.warps);
}

class MrfTransactor : public RtlTransactor, public RegisterHome {
 public:
  MrfTransactor(const RtlStructure& s, RtlDut dut, RtlLoopContext& ctx)
      : RtlTransactor(std::move(dut), ctx), spec_(SpecAs<MrfSpec>(s.spec)) {
    if (const std::string p = KernelProblem(s.spec, ctx.kernel(), ctx.sm()); !p.empty())
      throw std::runtime_error("RTL in the loop: " + p);
    tag_mask_ = (uint64_t{1} << spec_.tag_width) - 1;
  }

  RegisterHome* register_home() override { return this; }
  int row_width() const override { return spec_.width; }
  void WriteBack(uint32_t warp, int reg, const Bits& data, uint32_t inst) override {
    wbq_.push_back({warp, warp, reg, data, inst});
  }

  bool Transaction(const StructureTransaction& t) override {
    if (const auto* r = t.As<MrfRead>()) {
      Read(r->warp, r->slot, r->regs);
      return true;
    }
    if (const auto* w = t.As<MrfWrite>()) {
      RegisterRows& rows = ctx_.rows();
      if (w->restore) {
        // The slot may have held another warp: its queued reads see that warp's rows first.
        DrainReads();
      } else {
        rows.Commit(w->warp, w->reg);
      }
      wbq_.push_back(
          {w->warp, w->slot, w->reg, rows.Shadow(w->warp, w->reg), w->restore ? ~0U : ctx_.inst()});
      return true;
    }
    return false;
  }

  void Tick() override {
    DrainWrites();
    if (!queue_.empty() || !inflight_.empty())
      Cycle(true);
  }

  void Finish() override { DrainReads(); }

  bool Busy() const override { return !queue_.empty() || !inflight_.empty() || !wbq_.empty(); }

 private:
  struct Chunk {
    MrfIssue issue;
    std::array<RowExpect, 3> expect;
    uint32_t warp = 0, inst = 0;
    uint64_t seq = 0;  // issue order
  };
  struct Wb {
    uint32_t warp = 0, slot = 0;  // the SM warp (reports) and its MRF warp context
    int reg = 0;
    Bits data;
    uint32_t inst = ~0U;  // the instruction whose result it is (~0: a flush)
  };

  // Every write queued, then every read queued dispatched and checked.
  void DrainReads() {
    DrainWrites();
    for (uint64_t n = 0; !queue_.empty() || !inflight_.empty(); ++n) {
      if (n > 100000)
        ctx_.Fail(dut_, fmt::format("{} instructions never dispatched",
                                    queue_.size() + inflight_.size()));
      Cycle(true);
    }
  }

  void Read(uint32_t warp, uint32_t slot, const std::vector<int>& regs) {
    for (size_t c = 0; c * 3 < regs.size(); ++c) {
      Chunk ch;
      ch.issue.valid = true;
      ch.issue.tag = next_tag_++ & tag_mask_;
      ch.issue.warp = static_cast<int>(slot);
      ch.warp = warp;
      ch.inst = ctx_.inst();
      ch.seq = seq_++;
      for (size_t s = 0; s < 3 && c * 3 + s < regs.size(); ++s) {
        ch.issue.src_valid[s] = true;
        ch.issue.src_reg[s] = regs[c * 3 + s];
        ch.expect[s] = ctx_.rows().SourceExpect(warp, regs[c * 3 + s], ctx_.dyn());
      }
      queue_.push_back(std::move(ch));
    }
  }

  void DrainWrites() {
    for (uint64_t n = 0; !wbq_.empty(); ++n) {
      if (n > 100000)
        ctx_.Fail(dut_, "the write-back port never became ready");
      Cycle(false);
    }
  }

  void Cycle(bool offer_issue) {
    using P = MrfModel::Port;
    RtlDut& m = dut_;
    const MrfSpec& s = spec_;
    m.IdleOutOfReset(P::kRstN);
    m.in[P::kDispReady] = Bits(1, 1);
    const bool iv = offer_issue && !queue_.empty();
    if (iv) {
      const MrfIssue& is = queue_.front().issue;
      m.in[P::kIssueValid] = Bits(1, 1);
      m.in[P::kIssueTag].set(0, s.tag_width, is.tag);
      m.in[P::kIssueWarp].set(0, s.warp_width, static_cast<uint64_t>(is.warp));
      for (int k = 0; k < 3; ++k) {
        m.in[P::kIssueSrcValid].set_bit(k, is.src_valid[k]);
        if (is.src_valid[k])
          m.in[P::kIssueSrcReg].set(k * s.reg_width, s.reg_width,
                                    static_cast<uint64_t>(is.src_reg[k]));
      }
    }
    const bool wv = !wbq_.empty();
    if (wv) {
      const Wb& w = wbq_.front();
      m.in[P::kWbValid] = Bits(1, 1);
      m.in[P::kWbWarp].set(0, s.warp_width, w.slot);
      m.in[P::kWbReg].set(0, s.reg_width, static_cast<uint64_t>(w.reg));
      m.in[P::kWbData] = w.data;
    }
    // Context of a report: the oldest instruction in a collector (the next to dispatch), else
    // the write-back or issue offered.
    const Chunk* oldest = nullptr;
    for (const auto& [t, ch] : inflight_) {
      if (oldest == nullptr || ch.seq < oldest->seq)
        oldest = &ch;
    }
    if (oldest != nullptr) {
      ctx_.Blame(oldest->warp, oldest->inst);
    } else if (wv) {
      ctx_.Blame(wbq_.front().warp, wbq_.front().inst);
    } else if (iv) {
      ctx_.Blame(queue_.front().warp, queue_.front().inst);
    }
    ctx_.Eval(m);
    const bool issued = iv && m.out[P::kIssueReady].bit(0);
    const bool wrote = wv && m.out[P::kWbReady].bit(0);
    if (m.out[P::kDispValid].bit(0)) {
      const uint64_t tag = m.out[P::kDispTag].get(0, s.tag_width);
      auto it = inflight_.find(tag);
      if (it == inflight_.end())
        ctx_.Fail(m, fmt::format("disp_tag_o {} names no instruction in a collector", tag));
      const Chunk& ch = it->second;
      for (int k = 0; k < 3; ++k) {
        if (m.out[P::kDispSrcValid].bit(k) != ch.issue.src_valid[k])
          ctx_.Fail(m, fmt::format("{}: disp_src_valid_o[{}] is {}, the instruction has {} slot",
                                   ctx_.Where(ch.warp, ch.inst), k,
                                   m.out[P::kDispSrcValid].bit(k) ? 1 : 0,
                                   ch.issue.src_valid[k] ? "this" : "no such"));
        if (!ch.issue.src_valid[k])
          continue;
        const Bits data = m.out[P::kDispData].slice(k * s.width, s.width);
        ctx_.CheckValue(m, fmt::format("disp_data_o slot {} (R{})", k, ch.issue.src_reg[k]),
                        ch.expect[k], data, ch.warp, ch.inst);
        ctx_.Toggle(Level::kMrf, last_read_[static_cast<size_t>(k)], data);
      }
      inflight_.erase(it);
    }
    if (wrote)
      ctx_.Toggle(Level::kMrf, last_write_, wbq_.front().data);
    ctx_.Clock(m);
    if (issued) {
      const uint64_t tag = queue_.front().issue.tag;
      inflight_[tag] = std::move(queue_.front());
      queue_.pop_front();
    }
    if (wrote)
      wbq_.pop_front();
  }

  MrfSpec spec_;
  std::deque<Chunk> queue_;
  std::unordered_map<uint64_t, Chunk> inflight_;
  std::deque<Wb> wbq_;
  uint64_t next_tag_ = 0, tag_mask_ = 0, seq_ = 0;
  std::array<Bits, 3> last_read_;
  Bits last_write_;
};

}  // namespace

GPURF_REGISTER(RtlTransactorKind, mrf, "mrf",
               (RtlTransactorKind{
                   .register_home = true,
                   .warp_slots = [](const StructureSpec&) { return 0; },
                   .kernel_problem = KernelProblem,
                   .make = [](const RtlStructure& s, RtlDut dut,
                              RtlLoopContext& ctx) -> std::unique_ptr<RtlTransactor> {
                     return std::make_unique<MrfTransactor>(s, std::move(dut), ctx);
                   },
               }))

}  // namespace gpurf::harness
