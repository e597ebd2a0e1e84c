#include "sim/harness/rtl_loop.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/diag.h"
#include "gen/structures/emit.h"
#include "gen/structures/mrf/mrf_spec.h"
#include "gen/structures/orf/orf_spec.h"
#include "gen/structures/rfc/rfc_spec.h"
#include "models/mrf_model.h"
#include "models/orf_model.h"
#include "models/rfc_model.h"
#include "sim/harness/hierarchy.h"
#include "verif/verify.h"

namespace gpurf::harness {

namespace sp = sim::passes;
using Level = ActivityLevel;

const char* RfModeName(RfMode m) {
  switch (m) {
    case RfMode::kModels:
      return "models";
    case RfMode::kRtl:
      return "rtl";
    case RfMode::kLockstep:
      return "lockstep";
  }
  return "models";
}

namespace {

std::string Hex(const Bits& b) {
  return fmt::format("{}'h{}", b.width(), b.hex());
}

// The first logical port of output `p` whose defined bits differ.
std::string Mismatch(const PortInfo& p, const Bits& exp, const Bits& act, const Bits& mask) {
  const int sw = p.slice_width();
  for (int k = 0; k < p.count; ++k) {
    const Bits e = exp.slice(k * sw, sw), a = act.slice(k * sw, sw), m = mask.slice(k * sw, sw);
    if (!e.equal_masked(a, m)) {
      const std::string name =
          p.count > 1 ? fmt::format("{}[{}*{} +: {}] (port {})", p.name, k, sw, sw, k) : p.name;
      return fmt::format("signal {}: expected {}, actual {}", name, Hex(e), Hex(a));
    }
  }
  return fmt::format("signal {}: expected {}, actual {}", p.name, Hex(exp), Hex(act));
}

class RtlBackend : public StructureBackend {
 public:
  RtlBackend(std::unique_ptr<DutModel> dut, const GeneratedStructure& g)
      : dut_(std::move(dut)), ports_(g.ports) {
    if (dut_->NumPorts() != static_cast<int>(ports_.size()))
      throw ToolError(fmt::format("model of {} has {} ports, manifest lists {}", g.top,
                                  dut_->NumPorts(), ports_.size()));
    for (int i = 0; i < static_cast<int>(ports_.size()); ++i) {
      if (ports_[i].role == "clock")
        clk_ = i;
    }
    if (clk_ < 0)
      throw ToolError(g.top + " has no port with role 'clock'");
  }

  void Eval(const PortValues& in, PortValues& out) override {
    const Bits low(1, 0);
    for (int i = 0; i < static_cast<int>(ports_.size()); ++i) {
      if (i == clk_)
        dut_->SetPort(i, low.data());
      else if (ports_[i].dir == PortDir::kInput)
        dut_->SetPort(i, in[i].data());
    }
    dut_->Eval();
    for (int i = 0; i < static_cast<int>(ports_.size()); ++i) {
      if (ports_[i].dir != PortDir::kOutput)
        continue;
      out[i].clear();
      dut_->GetPort(i, out[i].data());
      out[i].canonicalize();
    }
  }

  void Clock(const PortValues&) override {
    const Bits high(1, 1);
    dut_->SetPort(clk_, high.data());
    dut_->Eval();
    if (dut_->GotError()) {
      dut_->ClearError();
      throw RtlDivergence("an RTL assertion fired at the rising edge (see the %Error line above)");
    }
  }

 private:
  std::unique_ptr<DutModel> dut_;
  std::vector<PortInfo> ports_;
  int clk_ = -1;
};

class LockstepBackend : public StructureBackend {
 public:
  LockstepBackend(std::unique_ptr<DutModel> dut, const GeneratedStructure& g,
                  std::unique_ptr<CycleModel> model)
      : rtl_(std::move(dut), g), model_(std::move(model)), ports_(g.ports) {
    for (const auto& p : ports_) {
      exp_.emplace_back(p.width);
      defined_.emplace_back(p.width);
    }
  }

  void Eval(const PortValues& in, PortValues& out) override {
    rtl_.Eval(in, out);
    for (size_t i = 0; i < ports_.size(); ++i) {
      exp_[i].clear();
      defined_[i].clear();
    }
    model_->Outputs(in, exp_, defined_);
    for (size_t i = 0; i < ports_.size(); ++i) {
      if (ports_[i].dir == PortDir::kOutput && !out[i].equal_masked(exp_[i], defined_[i]))
        throw RtlDivergence("RTL and golden model differ: " +
                            Mismatch(ports_[i], exp_[i], out[i], defined_[i]));
    }
  }

  void Clock(const PortValues& in) override {
    rtl_.Clock(in);
    model_->Clock(in);
    if (std::string f = model_->Failure(); !f.empty())
      throw RtlDivergence("golden model invariant violated: " + f);
  }

 private:
  RtlBackend rtl_;
  std::unique_ptr<CycleModel> model_;
  std::vector<PortInfo> ports_;
  PortValues exp_, defined_;
};

const RtlStructure* FindStructure(const std::vector<RtlStructure>& v, const std::string& name) {
  for (const auto& s : v) {
    if (s.name == name)
      return &s;
  }
  return nullptr;
}

}  // namespace

std::unique_ptr<StructureBackend> MakeRtlBackend(std::unique_ptr<DutModel> dut,
                                                 const GeneratedStructure& g) {
  return std::make_unique<RtlBackend>(std::move(dut), g);
}

std::unique_ptr<StructureBackend> MakeLockstepBackend(std::unique_ptr<DutModel> dut,
                                                      const GeneratedStructure& g,
                                                      std::unique_ptr<CycleModel> model) {
  return std::make_unique<LockstepBackend>(std::move(dut), g, std::move(model));
}

// ---------------------------------------------------------------------------------------------
// DataActivity

DataActivity& DataActivity::operator+=(const DataActivity& o) {
  for (size_t l = 0; l < level.size(); ++l) {
    level[l].transfers += o.level[l].transfers;
    level[l].bits += o.level[l].bits;
    level[l].toggles += o.level[l].toggles;
  }
  value_checks += o.value_checks;
  dropped_result_writes += o.dropped_result_writes;
  rtl_cycles += o.rtl_cycles;
  return *this;
}

const char* DataActivity::LevelName(size_t l) {
  return sp::RfLevelName(static_cast<sp::RfLevel>(l));
}

energy::Breakdown DataActivity::DataDependent(const energy::Breakdown& uniform) const {
  energy::Breakdown b = uniform;
  for (auto& bl : b.levels) {
    for (size_t l = 0; l < level.size(); ++l) {
      if (bl.name == LevelName(l) && level[l].bits > 0)
        bl.access_pj = bl.access_pj * level[l].Activity() / 0.5;
    }
  }
  return b;
}

// ---------------------------------------------------------------------------------------------
// Preparation

std::vector<RtlStructure> PrepareRtl(const DesignSpec& d, const sim::SmConfig& sm,
                                     const BuildOptions& build) {
  std::vector<std::string> names = {"mrf"};
  for (std::string& n : HarnessHierarchyOf(d).rtl_structures(d))
    names.push_back(std::move(n));
  std::vector<RtlStructure> out;
  for (const auto& n : names) {
    const DesignStructure* ds = nullptr;
    for (const auto& s : d.structures) {
      if (s.name == n && s.implemented())
        ds = &s;
    }
    if (ds == nullptr)
      throw std::runtime_error(
          fmt::format("design {} has no generated structure '{}' to put in the loop", d.name, n));
    int slots = 0;
    if (const auto* r = SpecIf<RfcSpec>(&*ds->spec))
      slots = r->active_warps;
    if (const auto* o = SpecIf<OrfSpec>(&*ds->spec))
      slots = o->active_warps;
    if (slots > 0 && slots != sm.active_warps) {
      throw InputError({d.source, ds->loc.line, ds->loc.column}, "scheduler.kind",
                       fmt::format("{} active warps", sm.active_warps),
                       fmt::format("the {} structure has {} active-warp slots but the SM "
                                   "schedules {} warps at once (single-level scheduling)",
                                   n, slots, sm.active_warps),
                       "scheduler kind two-level, or sm.active_warps equal to sm.warps, or no "
                       "--active-warps override, for --rtl / --lockstep");
    }
    RtlStructure s{n, *ds->spec, Emit(*ds->spec), {}};
    s.built = BuildModel(s.rtl, build);
    out.push_back(std::move(s));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// RtlLoopSystem

struct RtlLoopSystem::Dut {
  std::string name;
  const GeneratedStructure* rtl = nullptr;
  std::unique_ptr<StructureBackend> be;
  PortValues in, out;
  uint64_t cycles = 0;
  bool registered = false;  // ORF with registered reads

  void Idle() {
    for (size_t i = 0; i < in.size(); ++i) {
      if (rtl->ports[i].dir == PortDir::kInput)
        in[i].clear();
    }
  }
};

RtlLoopSystem::RtlLoopSystem(const DesignSpec& d, const sim::Kernel& k, const sim::SmConfig& sm,
                             RfSystem& inner, const std::vector<RtlStructure>& structures,
                             const RtlLoopOptions& opt)
    : d_(d), k_(k), inner_(inner), opt_(opt) {
  if (!opt_.make_model)
    opt_.make_model = [](const StructureSpec& s) { return MakeModel(s); };
  auto make = [&](const std::string& name) -> std::unique_ptr<Dut> {
    const RtlStructure* s = FindStructure(structures, name);
    if (s == nullptr)
      return nullptr;
    auto dut = std::make_unique<Dut>();
    dut->name = name;
    dut->rtl = &s->rtl;
    if (const auto* o = SpecIf<OrfSpec>(&s->spec))
      dut->registered = o->registered();
    auto model = LoadModel(s->built);
    dut->be = opt_.mode == RfMode::kLockstep
                  ? MakeLockstepBackend(std::move(model), s->rtl, opt_.make_model(s->spec))
                  : MakeRtlBackend(std::move(model), s->rtl);
    for (const auto& p : s->rtl.ports) {
      dut->in.emplace_back(p.width);
      dut->out.emplace_back(p.width);
    }
    // Reset: one cycle with rst_ni low, everything else idle.
    dut->be->Eval(dut->in, dut->out);
    dut->be->Clock(dut->in);
    for (size_t i = 0; i < s->rtl.ports.size(); ++i) {
      if (s->rtl.ports[i].role == "reset_n")
        dut->in[i] = Bits(1, 1);
    }
    return dut;
  };
  mrf_ = make("mrf");
  if (!mrf_)
    throw std::runtime_error("RTL in the loop: no MRF structure was prepared");
  mrf_spec_ = SpecAs<MrfSpec>(FindStructure(structures, "mrf")->spec);
  rfc_ = make("rfc");
  if (rfc_)
    rfc_spec_ = SpecAs<RfcSpec>(FindStructure(structures, "rfc")->spec);
  orf_l1_ = make("orf_l1");
  orf_l0_ = make("orf_l0");

  width_ = mrf_spec_.width;
  lanes_ = std::max(0, std::min({width_ / 32, d.sm.lane_cluster, 32}));
  if (k.regs_per_thread > mrf_spec_.regs || mrf_spec_.warps < sm.warps) {
    throw std::runtime_error(fmt::format(
        "RTL in the loop: kernel {} needs {} registers x {} warps, the design's MRF holds {} x {}",
        k.name, k.regs_per_thread, sm.warps, mrf_spec_.regs, mrf_spec_.warps));
  }
  if (rfc_ && k.regs_per_thread > rfc_spec_.registers()) {
    throw std::runtime_error(
        fmt::format("RTL in the loop: kernel {} needs {} registers, the RFC "
                    "tags name {}",
                    k.name, k.regs_per_thread, rfc_spec_.registers()));
  }
  const auto warps = static_cast<size_t>(sm.warps);
  rows_.emplace(k, warps, width_, lanes_, opt.seed);
  mrf_tag_mask_ = (uint64_t{1} << mrf_spec_.tag_width) - 1;
  if (rfc_)
    rfc_slot_warp_.assign(static_cast<size_t>(rfc_spec_.active_warps), 0);
  orf_slot_of_.assign(warps, -1);
  orf_slot_free_.assign(static_cast<size_t>(sm.active_warps), true);
  for (auto& v : orf_valid_)
    v.assign(static_cast<size_t>(sm.active_warps) * kOrfEntries, 0);
  inner_.set_listener(this);
}

RtlLoopSystem::~RtlLoopSystem() {
  inner_.set_listener(nullptr);
}

void RtlLoopSystem::Enter(uint64_t cycle, uint32_t warp, const sim::DynInst* d) {
  cycle_ = cycle;
  warp_ = warp;
  dyn_ = d;
  ctx_warp_ = warp;
  ctx_inst_ = d != nullptr ? d->inst : ~0U;
}

std::string RtlLoopSystem::Where(uint32_t warp, uint32_t inst) const {
  if (inst >= k_.code.size())
    return fmt::format("warp {}", warp);
  const sim::Instruction& in = k_.code[inst];
  return fmt::format("warp {}, instruction {} at PC {:#x} ({})", warp, inst, in.pc, in.opcode);
}

void RtlLoopSystem::Fail(const std::string& structure, uint64_t rtl_cycle,
                         const std::string& what) const {
  const Dut* dut = structure == "mrf"      ? mrf_.get()
                   : structure == "rfc"    ? rfc_.get()
                   : structure == "orf_l1" ? orf_l1_.get()
                                           : orf_l0_.get();
  const std::string top = dut != nullptr ? dut->rtl->top : structure;
  throw RtlDivergence(
      fmt::format("divergence at SM cycle {} in {} ({}, its RTL cycle {}), kernel {}: {}", cycle_,
                  structure, top, rtl_cycle, k_.name, what));
}

void RtlLoopSystem::Launch(uint64_t cycle, uint32_t warp, const sim::WarpStream& stream) {
  inner_.Launch(cycle, warp, stream);
  rows_->Launch(warp, stream);
}

void RtlLoopSystem::CheckValue(const std::string& structure, uint64_t rtl_cycle,
                               const std::string& signal, const Expect& e, const Bits& actual,
                               uint32_t warp, uint32_t inst) {
  if (!e.check || !e.mask.any())
    return;
  ++act_.value_checks;
  if (!actual.equal_masked(e.value, e.mask)) {
    Fail(structure, rtl_cycle,
         fmt::format("{}: {} shows another row than the register holds for the kernel: "
                     "expected {}, actual {} (compared bits {})",
                     Where(warp, inst), signal, Hex(e.value), Hex(actual), Hex(e.mask)));
  }
}

void RtlLoopSystem::Toggle(Level l, Bits& last, const Bits& now) {
  if (last.width() != now.width())
    last = Bits(now.width());  // the bus starts at zero
  auto& a = act_.level[static_cast<size_t>(l)];
  a.toggles += static_cast<uint64_t>(last.popcount_xor(now));
  a.bits += static_cast<uint64_t>(now.width());
  ++a.transfers;
  last = now;
}

// ---- pipeline events

bool RtlLoopSystem::CanIssue(uint64_t cycle, uint32_t warp, const sim::DynInst& d) {
  return inner_.CanIssue(cycle, warp, d);
}

int RtlLoopSystem::Issue(uint64_t cycle, uint32_t warp, const sim::DynInst& d) {
  Enter(cycle, warp, &d);
  const int delay = inner_.Issue(cycle, warp, d);
  OrfRun();
  return delay;
}

void RtlLoopSystem::Writeback(uint64_t cycle, uint32_t warp, const sim::DynInst& d) {
  Enter(cycle, warp, &d);
  rows_->WriteResultRows(warp, d);
  inner_.Writeback(cycle, warp, d);
  while (!rows_->pending().empty())
    rows_->Commit(warp, rows_->pending().front().first);
  OrfRun();
}

void RtlLoopSystem::Activate(uint64_t cycle, uint32_t warp) {
  Enter(cycle, warp, nullptr);
  inner_.Activate(cycle, warp);
  if (orf_l1_ && orf_slot_of_[warp] < 0) {
    auto it = std::find(orf_slot_free_.begin(), orf_slot_free_.end(), true);
    if (it == orf_slot_free_.end())
      Fail("orf_l1", orf_l1_->cycles, fmt::format("warp {} activated with every slot taken", warp));
    *it = false;
    orf_slot_of_[warp] = static_cast<int>(it - orf_slot_free_.begin());
  }
}

void RtlLoopSystem::Deactivate(uint64_t cycle, uint32_t warp) {
  Enter(cycle, warp, nullptr);
  inner_.Deactivate(cycle, warp);
  if (orf_l1_ && orf_slot_of_[warp] >= 0) {
    OrfInvalidate(orf_slot_of_[warp]);
    orf_slot_free_[static_cast<size_t>(orf_slot_of_[warp])] = true;
    orf_slot_of_[warp] = -1;
  }
}

void RtlLoopSystem::Tick(uint64_t cycle) {
  Enter(cycle, warp_, nullptr);
  inner_.Tick(cycle);
  RfcSettle();
  MrfDrainWrites();
  if (!mrf_queue_.empty() || !mrf_inflight_.empty())
    MrfCycle(true);
}

void RtlLoopSystem::Finish() {
  RfcSettle();
  MrfDrainWrites();
  for (uint64_t n = 0; !mrf_queue_.empty() || !mrf_inflight_.empty(); ++n) {
    if (n > 100000)
      Fail("mrf", mrf_->cycles,
           fmt::format("{} instructions never dispatched",
                       mrf_queue_.size() + mrf_inflight_.size()));
    MrfCycle(true);
  }
  inner_.Finish();
  act_.rtl_cycles = 0;
  for (const Dut* d : {mrf_.get(), rfc_.get(), orf_l1_.get(), orf_l0_.get()}) {
    if (d != nullptr)
      act_.rtl_cycles += d->cycles;
  }
}

// One backend call; a divergence becomes the full report.
void RtlLoopSystem::DutEval(Dut& d) {
  try {
    d.be->Eval(d.in, d.out);
  } catch (const RtlDivergence& e) {
    Fail(d.name, d.cycles, Where(ctx_warp_, ctx_inst_) + ": " + e.what());
  }
}

void RtlLoopSystem::DutClock(Dut& d) {
  try {
    d.be->Clock(d.in);
  } catch (const RtlDivergence& e) {
    Fail(d.name, d.cycles, Where(ctx_warp_, ctx_inst_) + ": " + e.what());
  }
  ++d.cycles;
}

// ---- MRF

void RtlLoopSystem::MrfRead(uint32_t warp, const std::vector<int>& regs) {
  for (size_t c = 0; c * 3 < regs.size(); ++c) {
    MrfChunk ch;
    ch.issue.valid = true;
    ch.issue.tag = mrf_next_tag_++ & mrf_tag_mask_;
    ch.issue.warp = static_cast<int>(warp);
    ch.warp = warp;
    ch.inst = dyn_ != nullptr ? dyn_->inst : ~0U;
    ch.seq = mrf_seq_++;
    for (size_t s = 0; s < 3 && c * 3 + s < regs.size(); ++s) {
      ch.issue.src_valid[s] = true;
      ch.issue.src_reg[s] = regs[c * 3 + s];
      ch.expect[s] = rows_->SourceExpect(warp, regs[c * 3 + s], dyn_);
    }
    mrf_queue_.push_back(std::move(ch));
  }
}

void RtlLoopSystem::MrfWrite(uint32_t warp, int reg) {
  rows_->Commit(warp, reg);
  mrf_wbq_.push_back({warp, reg, rows_->Shadow(warp, reg), dyn_ != nullptr ? dyn_->inst : ~0U});
}

void RtlLoopSystem::MrfDrainWrites() {
  for (uint64_t n = 0; !mrf_wbq_.empty(); ++n) {
    if (n > 100000)
      Fail("mrf", mrf_->cycles, "the write-back port never became ready");
    MrfCycle(false);
  }
}

void RtlLoopSystem::MrfCycle(bool offer_issue) {
  using P = MrfModel::Port;
  Dut& m = *mrf_;
  const MrfSpec& s = mrf_spec_;
  m.Idle();
  m.in[P::kRstN] = Bits(1, 1);
  m.in[P::kDispReady] = Bits(1, 1);
  const bool iv = offer_issue && !mrf_queue_.empty();
  if (iv) {
    const MrfIssue& is = mrf_queue_.front().issue;
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
  const bool wv = !mrf_wbq_.empty();
  if (wv) {
    const MrfWb& w = mrf_wbq_.front();
    m.in[P::kWbValid] = Bits(1, 1);
    m.in[P::kWbWarp].set(0, s.warp_width, w.warp);
    m.in[P::kWbReg].set(0, s.reg_width, static_cast<uint64_t>(w.reg));
    m.in[P::kWbData] = w.data;
  }
  // Context of a report: the oldest instruction in a collector (the next to dispatch), else the
  // write-back or issue offered.
  const MrfChunk* oldest = nullptr;
  for (const auto& [t, ch] : mrf_inflight_) {
    if (oldest == nullptr || ch.seq < oldest->seq)
      oldest = &ch;
  }
  if (oldest != nullptr) {
    ctx_warp_ = oldest->warp;
    ctx_inst_ = oldest->inst;
  } else if (wv) {
    ctx_warp_ = mrf_wbq_.front().warp;
    ctx_inst_ = mrf_wbq_.front().inst;
  } else if (iv) {
    ctx_warp_ = mrf_queue_.front().warp;
    ctx_inst_ = mrf_queue_.front().inst;
  }
  DutEval(m);
  const bool issued = iv && m.out[P::kIssueReady].bit(0);
  const bool wrote = wv && m.out[P::kWbReady].bit(0);
  if (m.out[P::kDispValid].bit(0)) {
    const uint64_t tag = m.out[P::kDispTag].get(0, s.tag_width);
    auto it = mrf_inflight_.find(tag);
    if (it == mrf_inflight_.end())
      Fail("mrf", m.cycles, fmt::format("disp_tag_o {} names no instruction in a collector", tag));
    const MrfChunk& ch = it->second;
    for (int k = 0; k < 3; ++k) {
      if (m.out[P::kDispSrcValid].bit(k) != ch.issue.src_valid[k])
        Fail("mrf", m.cycles,
             fmt::format("{}: disp_src_valid_o[{}] is {}, the instruction has {} slot",
                         Where(ch.warp, ch.inst), k, m.out[P::kDispSrcValid].bit(k) ? 1 : 0,
                         ch.issue.src_valid[k] ? "this" : "no such"));
      if (!ch.issue.src_valid[k])
        continue;
      const Bits data = m.out[P::kDispData].slice(k * s.width, s.width);
      CheckValue("mrf", m.cycles, fmt::format("disp_data_o slot {} (R{})", k, ch.issue.src_reg[k]),
                 ch.expect[k], data, ch.warp, ch.inst);
      Toggle(Level::kMrf, mrf_last_read_[k], data);
    }
    mrf_inflight_.erase(it);
  }
  if (wrote)
    Toggle(Level::kMrf, mrf_last_write_, mrf_wbq_.front().data);
  DutClock(m);
  if (issued) {
    const uint64_t tag = mrf_queue_.front().issue.tag;
    mrf_inflight_[tag] = std::move(mrf_queue_.front());
    mrf_queue_.pop_front();
  }
  if (wrote)
    mrf_wbq_.pop_front();
}

// ---- HW RFC

void RtlLoopSystem::RfcCycle(Dut& r) {
  // The write-back port is always ready (the MRF takes one write per cycle): a value it shows
  // transfers at this edge and joins the MRF's write-back queue. Outside a flush it must be the
  // write-back the model announced at the last write (and nothing when it announced none).
  const RfcPorts p = RfcPorts::For(rfc_spec_);
  const RfcSpec& s = rfc_spec_;
  r.in[p.rst_n] = Bits(1, 1);
  r.in[p.wb_ready] = Bits(1, 1);
  DutEval(r);
  const bool wb = r.out[p.wb_valid].bit(0);
  if (wb != rfc_wb_owed_)
    Fail("rfc", r.cycles,
         fmt::format(
             "{}: wb_valid_o is {}, the model {}", Where(rfc_wb_warp_, rfc_wb_inst_), wb ? 1 : 0,
             rfc_wb_owed_ ? fmt::format("writes back slot {} R{}", rfc_wb_slot_, rfc_wb_reg_)
                          : std::string("owes no write-back")));
  if (!wb)
    return;
  const int wreg = static_cast<int>(r.out[p.wb_reg].get(0, s.reg_bits));
  const int wslot = static_cast<int>(r.out[p.wb_slot].get(0, s.slot_bits));
  if (wreg != rfc_wb_reg_ || wslot != rfc_wb_slot_)
    Fail("rfc", r.cycles,
         fmt::format("{}: write-back of slot {} R{}, the model writes back slot {} R{}",
                     Where(rfc_wb_warp_, rfc_wb_inst_), wslot, wreg, rfc_wb_slot_, rfc_wb_reg_));
  const Bits data = r.out[p.wb_data];
  CheckValue("rfc", r.cycles, fmt::format("wb_data_o (R{})", wreg), rfc_wb_expect_, data,
             rfc_wb_warp_, rfc_wb_inst_);
  if (!rfc_wb_bypass_)
    Toggle(Level::kL1, rfc_last_wb_, data);
  mrf_wbq_.push_back({rfc_wb_warp_, wreg, data});
  rfc_wb_owed_ = false;
}

void RtlLoopSystem::RfcSettle() {
  if (!rfc_ || !rfc_wb_owed_)
    return;
  Dut& r = *rfc_;
  ctx_warp_ = rfc_wb_warp_;
  ctx_inst_ = rfc_wb_inst_;
  r.Idle();
  RfcCycle(r);
  DutClock(r);
}

void RtlLoopSystem::RfcRead(const std::vector<RfcCache::Operand>& ops,
                            const std::vector<RfcCache::ReadResult>& res) {
  const RfcPorts p = RfcPorts::For(rfc_spec_);
  const RfcSpec& s = rfc_spec_;
  Dut& r = *rfc_;
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
    RfcCycle(r);
    for (size_t k = 0; k < 3 && base + k < ops.size(); ++k) {
      const auto& op = ops[base + k];
      const auto& want = res[base + k];
      if (!op.valid)
        continue;
      const int ik = static_cast<int>(k);
      const bool hit = r.out[p.lu_hit].bit(ik);
      if (hit != want.hit)
        Fail("rfc", r.cycles,
             fmt::format("{}: lookup of R{} in slot {}: lu_hit_o[{}] is {}, the model {}",
                         Where(warp_, dyn_->inst), op.reg, op.slot, k, hit ? 1 : 0,
                         want.hit ? "hits" : "misses"));
      if (!hit)
        continue;
      const bool l0 = p.lu_l0 >= 0 && r.out[p.lu_l0].bit(ik);
      if (s.two_levels() && l0 != (want.level == 0))
        Fail("rfc", r.cycles,
             fmt::format("{}: lookup of R{} in slot {}: lu_l0_o[{}] is {}, the model hits in L{}",
                         Where(warp_, dyn_->inst), op.reg, op.slot, k, l0 ? 1 : 0, want.level));
      const Bits data = r.out[p.lu_data].slice(ik * s.width, s.width);
      CheckValue("rfc", r.cycles, fmt::format("lu_data_o operand {} (R{})", k, op.reg),
                 rows_->SourceExpect(warp_, op.reg, dyn_), data, warp_, dyn_->inst);
      Toggle(l0 ? Level::kL0 : Level::kL1, rfc_last_lu_[k], data);
    }
    DutClock(r);
  }
}

void RtlLoopSystem::RfcWrite(int slot, int reg, bool bypass, bool not_l0,
                             const RfcCache::WriteResult& res) {
  const RfcPorts p = RfcPorts::For(rfc_spec_);
  const RfcSpec& s = rfc_spec_;
  Dut& r = *rfc_;
  rows_->Commit(warp_, reg);
  r.Idle();
  r.in[p.wr_valid] = Bits(1, 1);
  r.in[p.wr_slot].set(0, s.slot_bits, static_cast<uint64_t>(slot));
  r.in[p.wr_reg].set(0, s.reg_bits, static_cast<uint64_t>(reg));
  r.in[p.wr_data] = rows_->Shadow(warp_, reg);
  r.in[p.wr_long] = Bits(1, bypass);
  if (p.wr_no_l0 >= 0)
    r.in[p.wr_no_l0] = Bits(1, not_l0);
  RfcCycle(r);
  if (!r.out[p.wr_ready].bit(0))
    Fail("rfc", r.cycles,
         fmt::format("{}: wr_ready_o is low with the write-back register free",
                     Where(warp_, dyn_->inst)));
  if (!bypass)
    Toggle(s.two_levels() && !not_l0 ? Level::kL0 : Level::kL1, rfc_last_wr_, r.in[p.wr_data]);
  DutClock(r);
  rfc_slot_warp_[static_cast<size_t>(slot)] = warp_;
  // The write-back register now holds the model's write-back to the MRF, if any; it transfers
  // in the next RFC cycle (the next transaction, or RfcSettle at the end of the SM cycle).
  if (res.to_mrf) {
    rfc_wb_owed_ = true;
    rfc_wb_slot_ = slot;
    rfc_wb_reg_ = res.to_mrf->reg;
    rfc_wb_warp_ = warp_;
    rfc_wb_inst_ = dyn_->inst;
    rfc_wb_bypass_ = bypass;
    rfc_wb_expect_.value = rows_->Shadow(warp_, rfc_wb_reg_);
    rfc_wb_expect_.mask = Bits(width_);
    for (int l = 0; l < lanes_; ++l)
      rfc_wb_expect_.mask.set(32 * l, 32, 0xffffffffU);
    rfc_wb_expect_.check = rows_->Written(warp_, rfc_wb_reg_);
  }
}

void RtlLoopSystem::RfcFlush(uint32_t warp, int slot, int entries) {
  const RfcPorts p = RfcPorts::For(rfc_spec_);
  const RfcSpec& s = rfc_spec_;
  Dut& r = *rfc_;
  RfcSettle();
  r.Idle();
  r.in[p.fl_valid] = Bits(1, 1);
  r.in[p.fl_slot].set(0, s.slot_bits, static_cast<uint64_t>(slot));
  RfcCycle(r);
  if (r.out[p.fl_busy].bit(0))
    Fail("rfc", r.cycles, fmt::format("flush of slot {} (warp {}): fl_busy_o is high", slot, warp));
  DutClock(r);
  int got = 0;
  bool done = false;
  for (int n = 0; n < 4 * entries + 16 && !done; ++n) {
    r.Idle();
    r.in[p.rst_n] = Bits(1, 1);
    r.in[p.wb_ready] = Bits(1, 1);
    DutEval(r);
    if (r.out[p.wb_valid].bit(0)) {
      const int wreg = static_cast<int>(r.out[p.wb_reg].get(0, s.reg_bits));
      const int wslot = static_cast<int>(r.out[p.wb_slot].get(0, s.slot_bits));
      if (wslot != slot)
        Fail("rfc", r.cycles,
             fmt::format("flush of slot {} (warp {}) writes back slot {}", slot, warp, wslot));
      const Bits data = r.out[p.wb_data];
      Expect e;
      e.value = rows_->Shadow(warp, wreg);
      e.mask = Bits(width_);
      for (int l = 0; l < lanes_; ++l)
        e.mask.set(32 * l, 32, 0xffffffffU);
      e.check = wreg < static_cast<int>(rows_->regs()) && rows_->Written(warp, wreg);
      CheckValue("rfc", r.cycles, fmt::format("wb_data_o (flush, R{})", wreg), e, data, warp, ~0U);
      Toggle(Level::kL1, rfc_last_wb_, data);
      mrf_wbq_.push_back({warp, wreg, data, ~0U});
      ++got;
    }
    done = r.out[p.fl_done].bit(0);
    DutClock(r);
  }
  if (!done || got != entries)
    Fail("rfc", r.cycles,
         fmt::format("flush of slot {} (warp {}): {} write-backs{}, the model flushed {} entries",
                     slot, warp, got, done ? "" : " and no fl_done_o pulse", entries));
}

// ---- SW ORF

RtlLoopSystem::Dut* RtlLoopSystem::OrfDut(sp::RfLevel l) const {
  return l == sp::RfLevel::kL0 ? orf_l0_.get() : orf_l1_.get();
}

void RtlLoopSystem::OrfRead(sp::RfLevel level, int src, int reg, int entry) {
  orf_ops_.push_back({level, src, reg, entry, false});
}

void RtlLoopSystem::OrfWrite(sp::RfLevel level, int reg, int entry, bool fill) {
  if (!fill)
    rows_->Commit(warp_, reg);
  orf_ops_.push_back({level, -1, reg, entry, fill});
}

void RtlLoopSystem::OrfInvalidate(int slot) {
  using P = OrfCycleModel::Port;
  for (Dut* o : {orf_l1_.get(), orf_l0_.get()}) {
    if (o == nullptr)
      continue;
    auto& valid = orf_valid_[o == orf_l0_.get() ? 1 : 0];
    for (int e = 0; e < kOrfEntries; ++e)
      valid[OrfIndex(slot, e)] = 0;
    o->Idle();
    o->in[P::kRstN] = Bits(1, 1);
    o->in[P::kInv] = Bits(1, 1);
    o->in[P::kInvSlot].set(0, o->in[P::kInvSlot].width(), static_cast<uint64_t>(slot));
    DutEval(*o);
    DutClock(*o);
  }
}

void RtlLoopSystem::OrfRun() {
  using P = OrfCycleModel::Port;
  if (orf_ops_.empty())
    return;
  const int slot = orf_slot_of_[warp_];
  if (slot < 0) {
    // A result that arrives after its warp was descheduled: the ORF of the warp was invalidated
    // at its strand end, and the slot may belong to another warp now, so the write is dropped
    // (the allocation never reads an ORF value across a strand end).
    for (const auto& op : orf_ops_) {
      if (op.port >= 0 || op.fill)
        Fail("orf_l1", orf_l1_->cycles,
             fmt::format("{}: the warp uses the ORF without an active slot",
                         Where(warp_, dyn_->inst)));
    }
    act_.dropped_result_writes += orf_ops_.size();
    orf_ops_.clear();
    return;
  }
  for (sp::RfLevel lvl : {sp::RfLevel::kL1, sp::RfLevel::kL0}) {
    Dut* o = OrfDut(lvl);
    const Level el = lvl == sp::RfLevel::kL0 ? Level::kL0 : Level::kL1;
    std::vector<OrfOp> reads, writes;
    for (const auto& op : orf_ops_) {
      if (op.level != lvl)
        continue;
      (op.port >= 0 ? reads : writes).push_back(op);
    }
    if (reads.empty() && writes.empty())
      continue;
    if (o == nullptr)
      Fail("orf_l1", 0, "the allocation uses an ORF level the design does not have");
    const int sw = o->in[P::kWslot].width(), ew = o->in[P::kWentry].width();
    const int dw = o->in[P::kWdata].width();
    const bool registered = o->registered;  // read data shows one cycle after the read
    // Reads: one per port and cycle, in order.
    while (!reads.empty()) {
      o->Idle();
      o->in[P::kRstN] = Bits(1, 1);
      std::array<int, 3> port_op{-1, -1, -1};
      std::vector<OrfOp> rest;
      for (size_t i = 0; i < reads.size(); ++i) {
        const OrfOp& op = reads[i];
        if (op.port > 2)
          Fail(o->name, o->cycles,
               fmt::format("{}: source operand {} has no ORF read port", Where(warp_, dyn_->inst),
                           op.port));
        if (port_op[static_cast<size_t>(op.port)] >= 0) {
          rest.push_back(op);
          continue;
        }
        if (!orf_valid_[lvl == sp::RfLevel::kL0 ? 1 : 0][OrfIndex(slot, op.entry)])
          Fail(o->name, o->cycles,
               fmt::format("{}: reads R{} from entry {} of slot {}, which holds no value: the "
                           "warp was descheduled (inv_i) after the value was written, or the "
                           "write arrived while it was descheduled; the SM's two-level scheduler "
                           "descheduled it inside a strand of the ORF allocation",
                           Where(warp_, dyn_->inst), op.reg, op.entry, slot));
        port_op[static_cast<size_t>(op.port)] = static_cast<int>(i);
        o->in[P::kRe].set_bit(op.port, true);
        o->in[P::kRslot].set(op.port * sw, sw, static_cast<uint64_t>(slot));
        o->in[P::kRentry].set(op.port * ew, ew, static_cast<uint64_t>(op.entry));
      }
      DutEval(*o);
      if (registered) {
        DutClock(*o);
        o->Idle();
        o->in[P::kRstN] = Bits(1, 1);
        DutEval(*o);
      }
      for (int port = 0; port < 3; ++port) {
        if (port_op[static_cast<size_t>(port)] < 0)
          continue;
        const OrfOp& op = reads[static_cast<size_t>(port_op[static_cast<size_t>(port)])];
        const Bits data = o->out[P::kRdata].slice(port * dw, dw);
        CheckValue(o->name, o->cycles,
                   fmt::format("rdata_o port {} (R{}, entry {})", port, op.reg, op.entry),
                   rows_->SourceExpect(warp_, op.reg, dyn_), data, warp_, dyn_->inst);
        Toggle(el,
               (el == Level::kL0 ? orf_last_rd_l0_ : orf_last_rd_l1_)[static_cast<size_t>(port)],
               data);
      }
      if (!registered) {
        DutClock(*o);
      }
      reads = std::move(rest);
    }
    for (const auto& op : writes) {
      o->Idle();
      o->in[P::kRstN] = Bits(1, 1);
      o->in[P::kWe] = Bits(1, 1);
      o->in[P::kWslot].set(0, sw, static_cast<uint64_t>(slot));
      o->in[P::kWentry].set(0, ew, static_cast<uint64_t>(op.entry));
      o->in[P::kWdata] = rows_->Shadow(warp_, op.reg);
      orf_valid_[lvl == sp::RfLevel::kL0 ? 1 : 0][OrfIndex(slot, op.entry)] = 1;
      DutEval(*o);
      Toggle(el, el == Level::kL0 ? orf_last_wr_l0_ : orf_last_wr_l1_, o->in[P::kWdata]);
      DutClock(*o);
    }
  }
  orf_ops_.clear();
}

}  // namespace gpurf::harness
