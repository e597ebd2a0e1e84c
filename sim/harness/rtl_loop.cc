#include "sim/harness/rtl_loop.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/diag.h"
#include "base/registry.h"
#include "gen/structures/emit.h"
#include "sim/harness/hierarchy.h"
#include "sim/harness/transactor.h"
#include "verif/verify.h"

namespace gpurf::harness {

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

void DataActivity::Level::Transfer(Bits& last, const Bits& now) {
  if (last.width() != now.width())
    last = Bits(now.width());  // the bus starts at zero
  toggles += static_cast<uint64_t>(last.popcount_xor(now));
  bits += static_cast<uint64_t>(now.width());
  ++transfers;
  last = now;
}

DataActivity& DataActivity::operator+=(const DataActivity& o) {
  for (size_t l = 0; l < level.size(); ++l) {
    level[l].transfers += o.level[l].transfers;
    level[l].bits += o.level[l].bits;
    level[l].toggles += o.level[l].toggles;
  }
  pcrf.transfers += o.pcrf.transfers;
  pcrf.bits += o.pcrf.bits;
  pcrf.toggles += o.pcrf.toggles;
  value_checks += o.value_checks;
  dropped_result_writes += o.dropped_result_writes;
  restored_rows += o.restored_rows;
  restored_superseded += o.restored_superseded;
  vector_lookups += o.vector_lookups;
  status_decisions += o.status_decisions;
  status_multi_ready += o.status_multi_ready;
  rtl_cycles += o.rtl_cycles;
  return *this;
}

const char* DataActivity::LevelName(size_t l) {
  return sim::passes::RfLevelName(static_cast<sim::passes::RfLevel>(l));
}

energy::Breakdown DataActivity::DataDependent(const energy::Breakdown& uniform) const {
  energy::Breakdown b = uniform;
  for (auto& bl : b.levels) {
    // A level counts the toggles of the data-activity level it names (LevelEnergy::activity:
    // the hybrid's RC rows are counted at L0, its RSP rows at L1), else of its own name.
    const std::string& as = bl.activity.empty() ? bl.name : bl.activity;
    for (size_t l = 0; l < level.size(); ++l) {
      if (as == LevelName(l) && level[l].bits > 0)
        bl.access_pj = bl.access_pj * level[l].Activity() / 0.5;
    }
  }
  if (pcrf.bits > 0) {
    for (const char* name : kPcrfRowComponents) {
      auto it = std::find_if(b.components.begin(), b.components.end(),
                             [&](const energy::ComponentBreakdown& c) { return c.name == name; });
      if (it == b.components.end())
        throw std::logic_error(fmt::format(
            "PCRF rows toggled in the loop but the energy breakdown has no component '{}'", name));
      it->pj = it->pj * pcrf.Activity() / 0.5;
    }
  }
  return b;
}

// ---------------------------------------------------------------------------------------------
// Preparation

namespace {

const RtlTransactorKind* TransactorKind(const DesignStructure& s) {
  return Registry<RtlTransactorKind>::Get().Find(s.kind);
}

}  // namespace

std::vector<RtlStructure> PrepareRtl(const DesignSpec& d, const sim::SmConfig& sm,
                                     const BuildOptions& build) {
  std::vector<const DesignStructure*> picked;
  for (const auto& s : d.structures) {
    const RtlTransactorKind* t = TransactorKind(s);
    if (t != nullptr && t->register_home && s.implemented())
      picked.push_back(&s);
  }
  if (picked.size() != 1)
    throw std::runtime_error(
        fmt::format("design {} has {} generated structures that hold every "
                    "register, the loop needs one",
                    d.name, picked.size()));
  for (const std::string& n : HarnessHierarchyOf(d).rtl_structures(d)) {
    const DesignStructure* ds = nullptr;
    for (const auto& s : d.structures) {
      if (s.name == n && s.implemented())
        ds = &s;
    }
    if (ds == nullptr) {
      for (const auto& s : d.structures) {
        if (s.name == n && !s.skip_reason.empty())
          throw InputError({d.source, s.loc.line, s.loc.column}, "hierarchy", s.name,
                           fmt::format("--rtl / --lockstep need the generated structure '{}', "
                                       "which this design does not build: {}",
                                       n, s.skip_reason),
                           "a design point the structure's family builds, or the C++ models "
                           "(no --rtl / --lockstep)");
      }
      throw std::runtime_error(
          fmt::format("design {} has no generated structure '{}' to put in the loop", d.name, n));
    }
    if (TransactorKind(*ds) == nullptr)
      throw std::runtime_error(fmt::format(
          "design {}: structure '{}' is of kind {}, which has no RTL transactor (transactor.h)",
          d.name, n, ds->kind));
    picked.push_back(ds);
  }
  std::vector<RtlStructure> out;
  for (const DesignStructure* ds : picked) {
    const int slots = TransactorKind(*ds)->warp_slots(*ds->spec);
    if (slots > 0 && slots != sm.active_warps) {
      throw InputError({d.source, ds->loc.line, ds->loc.column}, "scheduler.kind",
                       fmt::format("{} active warps", sm.active_warps),
                       fmt::format("the {} structure has {} active-warp slots but the SM "
                                   "schedules {} warps at once (single-level scheduling)",
                                   ds->name, slots, sm.active_warps),
                       "scheduler kind two-level, or sm.active_warps equal to sm.warps, or no "
                       "--active-warps override, for --rtl / --lockstep");
    }
    const RtlPartitionSpec* ps = Registry<RtlPartitionSpec>::Get().Find(ds->kind);
    const StructureSpec spec = ps != nullptr ? ps->adapt(*ds->spec, sm) : *ds->spec;
    RtlStructure s{ds->name, spec, Emit(spec), {}};
    s.built = BuildModel(s.rtl, build);
    out.push_back(std::move(s));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The transactors' shared context

void RtlDut::Idle() {
  for (size_t i = 0; i < in.size(); ++i) {
    if (rtl->ports[i].dir == PortDir::kInput)
      in[i].clear();
  }
}

void RtlDut::IdleOutOfReset(int rst_n) {
  Idle();
  in[rst_n] = Bits(1, 1);
}

void RtlLoopContext::Enter(uint64_t cycle, uint32_t warp, const sim::DynInst* d) {
  cycle_ = cycle;
  warp_ = warp;
  dyn_ = d;
  ctx_warp_ = warp;
  ctx_inst_ = d != nullptr ? d->inst : ~0U;
}

void RtlLoopContext::SetHome(RegisterHome& home, uint64_t seed) {
  home_ = &home;
  width_ = home.row_width();
  const int lanes = std::max(0, std::min({width_ / 32, lane_cluster_, 32}));
  lane_mask_ = Bits(width_);
  for (int l = 0; l < lanes; ++l)
    lane_mask_.set(32 * l, 32, 0xffffffffU);
  rows_.emplace(k_, static_cast<size_t>(sm_.warps), width_, lanes, seed);
}

std::string RtlLoopContext::Where(uint32_t warp, uint32_t inst) const {
  if (inst >= k_.code.size())
    return fmt::format("warp {}", warp);
  const sim::Instruction& in = k_.code[inst];
  return fmt::format("warp {}, instruction {} at PC {:#x} ({})", warp, inst, in.pc, in.opcode);
}

void RtlLoopContext::Fail(const RtlDut& d, const std::string& what) const {
  throw RtlDivergence(
      fmt::format("divergence at SM cycle {} in {} ({}, its RTL cycle {}), kernel {}: {}", cycle_,
                  d.name, d.rtl->top, d.cycles, k_.name, what));
}

void RtlLoopContext::Fail(const std::string& what) const {
  throw RtlDivergence(
      fmt::format("divergence at SM cycle {}, kernel {}: {}", cycle_, k_.name, what));
}

void RtlLoopContext::CheckValue(const RtlDut& d, const std::string& signal, const RowExpect& e,
                                const Bits& actual, uint32_t warp, uint32_t inst) {
  if (!e.check || !e.mask.any())
    return;
  ++act_.value_checks;
  if (!actual.equal_masked(e.value, e.mask)) {
    Fail(d, fmt::format("{}: {} shows another row than the register holds for the kernel: "
                        "expected {}, actual {} (compared bits {})",
                        Where(warp, inst), signal, Hex(e.value), Hex(actual), Hex(e.mask)));
  }
}

void RtlLoopContext::Toggle(ActivityLevel l, Bits& last, const Bits& now) {
  act_.level[static_cast<size_t>(l)].Transfer(last, now);
}

void RtlLoopContext::Eval(RtlDut& d) {
  try {
    d.be->Eval(d.in, d.out);
  } catch (const RtlDivergence& e) {
    Fail(d, Where(ctx_warp_, ctx_inst_) + ": " + e.what());
  }
}

void RtlLoopContext::Clock(RtlDut& d) {
  try {
    d.be->Clock(d.in);
  } catch (const RtlDivergence& e) {
    Fail(d, Where(ctx_warp_, ctx_inst_) + ": " + e.what());
  }
  ++d.cycles;
}

// ---------------------------------------------------------------------------------------------
// RtlLoopSystem

RtlLoopSystem::RtlLoopSystem(const DesignSpec& d, const sim::Kernel& k, const sim::SmConfig& sm,
                             RfSystem& inner, const std::vector<RtlStructure>& structures,
                             const RtlLoopOptions& opt)
    : inner_(inner), ctx_(std::make_unique<RtlLoopContext>(k, sm, d.sm.lane_cluster)) {
  auto make_model = opt.make_model;
  if (!make_model)
    make_model = [](const StructureSpec& s) { return MakeModel(s); };
  RegisterHome* home = nullptr;
  for (const RtlStructure& s : structures) {
    const RtlTransactorKind* kind = Registry<RtlTransactorKind>::Get().Find(s.spec.kind());
    if (kind == nullptr)
      throw std::runtime_error(
          fmt::format("RTL in the loop: structure {} is of kind {}, which has no transactor",
                      s.name, s.spec.kind()));
    RtlDut dut;
    dut.name = s.name;
    dut.rtl = &s.rtl;
    auto model = LoadModel(s.built);
    dut.be = opt.mode == RfMode::kLockstep
                 ? MakeLockstepBackend(std::move(model), s.rtl, make_model(s.spec))
                 : MakeRtlBackend(std::move(model), s.rtl);
    for (const auto& p : s.rtl.ports) {
      dut.in.emplace_back(p.width);
      dut.out.emplace_back(p.width);
    }
    // Reset: one cycle with rst_ni low, everything else idle.
    dut.be->Eval(dut.in, dut.out);
    dut.be->Clock(dut.in);
    for (size_t i = 0; i < s.rtl.ports.size(); ++i) {
      if (s.rtl.ports[i].role == "reset_n")
        dut.in[i] = Bits(1, 1);
    }
    transactors_.push_back(kind->make(s, std::move(dut), *ctx_));
    if (home == nullptr)
      home = transactors_.back()->register_home();
  }
  if (home == nullptr)
    throw std::runtime_error("RTL in the loop: no structure that holds the registers was prepared");
  ctx_->SetHome(*home, opt.seed);
  inner_.set_listener(this);
}

RtlLoopSystem::~RtlLoopSystem() {
  inner_.set_listener(nullptr);
}

const DataActivity& RtlLoopSystem::activity() const {
  return ctx_->activity();
}

bool RtlLoopSystem::has_values() const {
  return ctx_->rows().has_values();
}

bool RtlLoopSystem::Busy() const {
  if (inner_.Busy())
    return true;
  for (const auto& t : transactors_) {
    if (t->Busy())
      return true;
  }
  return false;
}

void RtlLoopSystem::Launch(uint64_t cycle, uint32_t warp, const sim::WarpStream& stream) {
  inner_.Launch(cycle, warp, stream);
  ctx_->rows().Launch(warp, stream);
}

void RtlLoopSystem::Transaction(const StructureTransaction& t) {
  for (const auto& x : transactors_) {
    if (x->Transaction(t))
      return;
  }
  ctx_->Fail(
      fmt::format("{}: the register-file system made a transaction ({}) that no "
                  "structure in the loop takes",
                  ctx_->Where(ctx_->warp(), ctx_->inst()), t.type().name));
}

// ---- pipeline events

bool RtlLoopSystem::CanIssue(uint64_t cycle, uint32_t warp, const sim::DynInst& d) {
  return inner_.CanIssue(cycle, warp, d);
}

int RtlLoopSystem::Issue(uint64_t cycle, uint32_t warp, const sim::DynInst& d) {
  ctx_->Enter(cycle, warp, &d);
  const int delay = inner_.Issue(cycle, warp, d);
  for (const auto& t : transactors_)
    t->EndEvent();
  return delay;
}

void RtlLoopSystem::Writeback(uint64_t cycle, uint32_t warp, const sim::DynInst& d) {
  ctx_->Enter(cycle, warp, &d);
  RegisterRows& rows = ctx_->rows();
  rows.WriteResultRows(warp, d);
  inner_.Writeback(cycle, warp, d);
  while (!rows.pending().empty())
    rows.Commit(warp, rows.pending().front().first);
  for (const auto& t : transactors_)
    t->EndEvent();
}

void RtlLoopSystem::Activate(uint64_t cycle, uint32_t warp) {
  ctx_->Enter(cycle, warp, nullptr);
  inner_.Activate(cycle, warp);
  for (const auto& t : transactors_)
    t->Activate(warp);
}

void RtlLoopSystem::Deactivate(uint64_t cycle, uint32_t warp) {
  ctx_->Enter(cycle, warp, nullptr);
  inner_.Deactivate(cycle, warp);
  for (const auto& t : transactors_)
    t->Deactivate(warp);
}

void RtlLoopSystem::Tick(uint64_t cycle) {
  ctx_->Enter(cycle, ctx_->warp(), nullptr);
  inner_.Tick(cycle);
  for (const auto& t : transactors_)
    t->Settle();
  for (const auto& t : transactors_)
    t->Tick();
}

// ---- CTA and register events (forwarded; the transactions they make go to the transactors)

bool RtlLoopSystem::AdmitCta(uint64_t cycle, const sim::CtaInfo& c) {
  return inner_.AdmitCta(cycle, c);
}

void RtlLoopSystem::CtaLaunched(uint64_t cycle, const sim::CtaInfo& c) {
  ctx_->Enter(cycle, ctx_->warp(), nullptr);
  inner_.CtaLaunched(cycle, c);
}

void RtlLoopSystem::CtaFinished(uint64_t cycle, const sim::CtaInfo& c) {
  ctx_->Enter(cycle, ctx_->warp(), nullptr);
  inner_.CtaFinished(cycle, c);
}

bool RtlLoopSystem::WantsCtaStalls() const {
  return inner_.WantsCtaStalls();
}

void RtlLoopSystem::CtaStalled(uint64_t cycle, const sim::CtaInfo& c) {
  ctx_->Enter(cycle, ctx_->warp(), nullptr);
  inner_.CtaStalled(cycle, c);
}

void RtlLoopSystem::CtaResumed(uint64_t cycle, const sim::CtaInfo& c) {
  ctx_->Enter(cycle, ctx_->warp(), nullptr);
  inner_.CtaResumed(cycle, c);
}

int RtlLoopSystem::ResidentCtaLimit() const {
  return inner_.ResidentCtaLimit();
}

bool RtlLoopSystem::CtaRunnable(uint32_t slot) const {
  return inner_.CtaRunnable(slot);
}

bool RtlLoopSystem::WantsRegisterEvents() const {
  return inner_.WantsRegisterEvents();
}

bool RtlLoopSystem::CanAllocate(uint64_t cycle, uint32_t warp, const std::vector<uint16_t>& regs) {
  return inner_.CanAllocate(cycle, warp, regs);
}

void RtlLoopSystem::Allocate(uint64_t cycle, uint32_t warp, uint16_t reg) {
  ctx_->Enter(cycle, warp, nullptr);
  inner_.Allocate(cycle, warp, reg);
}

void RtlLoopSystem::Release(uint64_t cycle, uint32_t warp, uint16_t reg) {
  ctx_->Enter(cycle, warp, nullptr);
  inner_.Release(cycle, warp, reg);
}

void RtlLoopSystem::Finish() {
  for (const auto& t : transactors_)
    t->Settle();
  for (const auto& t : transactors_)
    t->Finish();
  inner_.Finish();
  DataActivity& act = ctx_->activity();
  act.rtl_cycles = 0;
  for (const auto& t : transactors_)
    act.rtl_cycles += t->dut().cycles;
}

}  // namespace gpurf::harness
