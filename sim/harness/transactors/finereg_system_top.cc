// The finereg-system kind's system top in the RTL loop (rtl_top.h, `--rtl-top`): the SM harness
// drives the ONE FineReg register-file system top of the design point (the `finereg_system`
// structure, gen/structures/finereg_system/finereg_system_spec.h: the ACRF (MRF), the PCRF and
// the register management unit of one lane cluster behind one interface) cycle by cycle through
// its ports, alone (--rtl --rtl-top) or with its golden model `FineregSystemModel`
// (models/finereg_system_model.h) on the same ports, every output compared every cycle
// (--lockstep --rtl-top).
//
// How it fits. As in rtl_loop.h, the C++ models' FineReg system (hierarchies/finereg_system.h)
// keeps the SM timing, the CTA switching decisions and the access counts; FineregSystemTop wraps
// it, collects the transactions it makes for each pipeline or CTA event (finereg_transactions.h,
// mrf_transactions.h) and turns them into requests of the top:
//   - issue: the instruction's source registers, three per request (operand slots A, B, C), on
//     the ACRF's issue port; every dispatched operand row is compared with the row the
//     instruction read for the kernel;
//   - results: each result register on the ACRF's write-back port (a write waits until the
//     instructions in flight that read the register have dispatched: contract C4);
//   - a switch (the system's V-B decision): the stalled CTA's live registers (the system's PCRF
//     appends) as one save command (sv_live_i: bit w * regs + r for warp w of the CTA, register r;
//     sv_base_i its ACRF warp slots), the chosen pending CTA's chain (the system's PCRF restore)
//     as one restore command into free ACRF slots (rs_base_i); a CTA started or resumed when
//     ACRF space freed: a restore alone.
// Checks, beyond the dispatched operand rows: before each restore rs_count_o (the pointer table's
// live count) is the system's chain length; after it every restored register is read back through
// the ACRF and must be the row the ACRF held when it was saved (and, for a register no result
// landed in while the CTA was away, the kernel's value); free_count_o after every switch is the
// system's free PCRF entries; busy_o falls within the top's documented move time.
//
// What the top's interface cannot express, and what is done instead (docs/finereg-system.md):
//   - Timing. The system times a switch with its own port model (move_ports entries per cycle,
//     pipelined, hop_cycles each) and lets the switched-in CTA issue when the moves end; the top's
//     RMU moves one register at a time through its one buffer (5 cycles per saved register,
//     hop_cycles - 1 + 2 per restored one). The RTL is clocked only while it has something to do:
//     each command runs to completion at the SM cycle of the decision, so the top's move cycles
//     are not compared with the SM's (they are counted: act_.rtl_cycles).
//   - ACRF slots. The top addresses a CTA's warps as base + w; the system gives a CTA's warps the
//     lowest free ACRF slots, which need not be consecutive. The loop therefore keeps its own
//     ACRF slot blocks: a CTA of n warps takes a block of n consecutive slots (block i at i x n),
//     taken when it first issues or is restored, given back when it is saved or finishes.
//   - Order of a swap. The system's V-B fit counts the entries the chosen pending CTA's restore
//     frees, and the restored CTA takes the ACRF slots the stalled one leaves: the moves of a swap
//     interleave. The top's RMU runs one command at a time, the paper's order save first, and a
//     save needs its entries free (contract C2). So the loop's top has up to twice the design's
//     PCRF entries (at most 4096): the extra ones are the room a save takes before the restore
//     frees its entries; after every switch free_count_o must be the system's free entries plus
//     that room. The loop saves first when the live registers fit the top's free entries, else
//     restores first into a free block; a swap that fits neither way stops the run (named).
//   - Results landing for a switched-out warp: the system brings the newer value back with the
//     restore; the top restores the row saved, so the loop writes the newer rows through the
//     write-back port after the restore (and checks the restored row against the row saved).
//   - Geometry: the top is generated again per kernel: cta_warps the kernel's warps per CTA and
//     regs its registers per thread (each rounded up to a power of two), the design's ACRF warps,
//     banks, collectors, row width, PCRF entries, pending CTA slots and hop cycles.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "base/registry.h"
#include "gen/structures/emit.h"
#include "gen/structures/finereg_system/finereg_system_ports.h"
#include "gen/structures/finereg_system/finereg_system_spec.h"
#include "models/registry.h"
#include "sim/harness/hierarchies/finereg_system.h"
#include "sim/harness/register_rows.h"
#include "sim/harness/rtl_top.h"
#include "sim/harness/transactors/finereg_transactions.h"
#include "sim/harness/transactors/mrf_transactions.h"
#include "verif/harness/verilator_build.h"

namespace gpurf::harness {

namespace {

using P = FineregSystemPort;

std::string Hex(const Bits& b) {
  return fmt::format("{}'h{}", b.width(), b.hex());
}

// Cycles a request may wait for its ready before the top is declared stuck.
constexpr int kPatience = 4096;

std::string KernelProblem(const StructureSpec& s, const sim::Kernel& k, const sim::SmConfig&) {
  if (k.regs_per_thread > 256)
    return fmt::format("kernel {} needs {} registers per thread, the {} top names at most 256",
                       k.name, k.regs_per_thread, s.kind());
  return {};
}

class FineregSystemTop : public RtlTopSystem {
 public:
  FineregSystemTop(const DesignSpec& d, const sim::Kernel& k, const sim::SmConfig& sm,
                   RfSystem& inner, const RtlStructure& top, const RtlLoopOptions& opt);
  ~FineregSystemTop() override { inner_.set_listener(nullptr); }

  // sim::RegisterFileSystem
  bool CanIssue(uint64_t cycle, uint32_t warp, const sim::DynInst& d) override {
    return inner_.CanIssue(cycle, warp, d);
  }
  int Issue(uint64_t cycle, uint32_t warp, const sim::DynInst& d) override;
  void Writeback(uint64_t cycle, uint32_t warp, const sim::DynInst& d) override;
  void Activate(uint64_t cycle, uint32_t warp) override;
  void Deactivate(uint64_t cycle, uint32_t warp) override;
  void Tick(uint64_t cycle) override;
  void Launch(uint64_t cycle, uint32_t warp, const sim::WarpStream& stream) override {
    inner_.Launch(cycle, warp, stream);
    rows_->Launch(warp, stream);
  }
  bool Busy() const override { return inner_.Busy() || !flights_.empty(); }
  bool AdmitCta(uint64_t cycle, const sim::CtaInfo& c) override {
    return inner_.AdmitCta(cycle, c);
  }
  void CtaLaunched(uint64_t cycle, const sim::CtaInfo& c) override;
  void CtaFinished(uint64_t cycle, const sim::CtaInfo& c) override;
  bool WantsCtaStalls() const override { return inner_.WantsCtaStalls(); }
  void CtaStalled(uint64_t cycle, const sim::CtaInfo& c) override;
  void CtaResumed(uint64_t cycle, const sim::CtaInfo& c) override;
  int ResidentCtaLimit() const override { return inner_.ResidentCtaLimit(); }
  bool CtaRunnable(uint32_t slot) const override { return inner_.CtaRunnable(slot); }

  void Finish() override;
  const DataActivity& activity() const override { return act_; }
  bool has_values() const override { return rows_->has_values(); }

  // StructureListener: collected during an inner event, driven after it (Process).
  void Transaction(const StructureTransaction& t) override;

 private:
  // An issued request until its dispatch: per operand slot the register and the row expected.
  struct Flight {
    uint64_t tag = 0;
    uint32_t warp = 0, inst = ~0U;
    int slot = 0;  // ACRF warp slot
    std::array<bool, 3> valid{};
    std::array<int, 3> reg{};
    std::array<RowExpect, 3> expect;
    std::string what;  // "" for a pipeline operand, else the check's name
  };
  // One transaction of the inner event.
  struct Ev {
    enum Kind { kWrite, kRestoreWrite, kPending, kAppend, kRestore, kSwitched, kStarted } kind;
    uint32_t warp = 0;
    int reg = 0, cta = 0, warp_in_cta = 0, free_after = 0;
    std::vector<PcrfChainEntry> chain;
  };
  // The resident CTAs as the loop knows them.
  struct Cta {
    std::vector<uint32_t> warps;
    int block = -1;  // its ACRF slot block (-1: its registers are not in the top)
    // Saved (pending): per (warp in CTA, register) the ACRF row at the save.
    std::map<std::pair<int, int>, Bits> saved;
  };

  void Build(int cta_warps);
  void Enter(uint64_t cycle, uint32_t warp, const sim::DynInst* d);
  [[noreturn]] void Fail(const std::string& what) const;
  std::string Where(uint32_t warp, uint32_t inst) const;
  void CheckValue(const std::string& signal, const RowExpect& e, const Bits& actual, uint32_t warp,
                  uint32_t inst);
  void Toggle(ActivityLevel l, Bits& last, const Bits& now);

  const PortValues& Step();
  void Eval(const std::string& what);  // the outputs of the inputs as set; no edge
  void Idle();
  void Drain();
  bool ReadsInFlight(int slot, int reg) const;

  int SlotOf(uint32_t warp);  // the warp's ACRF slot, its CTA's block taken when needed
  int TakeBlock(int cta);
  // The SM CTA slot of the CTA the system's transactions name by its status-monitor slot.
  int SmSlot(int mon);
  void DriveReads(uint32_t warp, int slot, const std::vector<int>& regs,
                  const std::vector<RowExpect>& expect, const std::string& what);
  void DriveWrite(int slot, int reg, const Bits& row, uint32_t warp);
  void WaitIdle(const std::string& what, uint64_t bound);
  void Save(int cta, const std::vector<const Ev*>& appends);
  void Restore(const Ev& r);
  void Process();
  Cta& CtaOf(int slot);

  const sim::Kernel& k_;
  RfSystem& inner_;
  const FineRegSystem* finereg_ = nullptr;  // inner_ as the FineReg system (monitor slots)
  RtlLoopOptions opt_;
  FineregSystemSpec spec_;
  GeneratedStructure rtl_;
  std::unique_ptr<StructureBackend> be_;
  PortValues in_, out_;
  uint64_t rtl_cycles_ = 0;
  int width_ = 0, lanes_ = 0, cta_warps_ = 0, blocks_ = 0;
  int extra_ = 0;  // PCRF entries of the top beyond the design's
  uint64_t tag_mask_ = 0, next_tag_ = 0;

  uint64_t cycle_ = 0;
  uint32_t warp_ = 0;
  const sim::DynInst* dyn_ = nullptr;
  uint32_t ctx_warp_ = 0, ctx_inst_ = ~0U;

  std::optional<RegisterRows> rows_;
  std::vector<Ev> evs_;
  std::vector<Flight> flights_;
  std::map<int, Cta> ctas_;                           // by the system's CTA slot
  std::map<uint32_t, std::pair<int, int>> warp_cta_;  // warp -> (CTA slot, place in it)
  std::vector<int> block_owner_;                      // per block: the CTA slot (-1: free)
  std::map<std::pair<int, int>, Bits> acrf_;  // (ACRF slot, register) -> the row written last
  std::map<uint32_t, std::set<int>> landed_;  // results that landed while the warp was away
  int sys_free_ = -1;                         // the system's free PCRF entries (-1: unknown)
  std::array<std::array<Bits, 4>, kNumActivityLevels> last_;
  DataActivity act_;
};

// ---------------------------------------------------------------------------------------------
// Construction: the top is generated for the kernel at its first CTA (its warps per CTA).

FineregSystemTop::FineregSystemTop(const DesignSpec& d, const sim::Kernel& k,
                                   const sim::SmConfig& sm, RfSystem& inner,
                                   const RtlStructure& top, const RtlLoopOptions& opt)
    : k_(k), inner_(inner), finereg_(dynamic_cast<const FineRegSystem*>(&inner)), opt_(opt) {
  if (finereg_ == nullptr)
    throw std::runtime_error("RTL in the loop: the finereg-system top needs the FineReg system");
  if (!opt_.make_model)
    opt_.make_model = [](const StructureSpec& s) { return MakeModel(s); };
  spec_ = SpecAs<FineregSystemSpec>(top.spec);
  if (const std::string p = KernelProblem(top.spec, k, sm); !p.empty())
    throw std::runtime_error("RTL in the loop: " + p);
  width_ = spec_.data_width;
  lanes_ = std::max(0, std::min({width_ / 32, d.sm.lane_cluster, 32}));
  rows_.emplace(k, static_cast<size_t>(sm.warps), width_, lanes_, opt.seed);
  for (auto& lv : last_) {
    for (auto& b : lv)
      b = Bits(width_);
  }
  inner_.set_listener(this);
}

void FineregSystemTop::Build(int cta_warps) {
  ParamSet p = spec_.params;
  const SourceLoc loc = p.Get("regs").loc;
  const int regs =
      static_cast<int>(std::bit_ceil(static_cast<unsigned>(std::max(2, k_.regs_per_thread))));
  const int cw = static_cast<int>(std::bit_ceil(static_cast<unsigned>(std::max(2, cta_warps))));
  if (cw > spec_.warps)
    throw std::runtime_error(fmt::format(
        "RTL in the loop: kernel {} has CTAs of {} warps, the {} top's ACRF holds {} warps",
        k_.name, cta_warps, spec_.module_name, spec_.warps));
  p.Set("regs", std::to_string(regs), loc, "the kernel's registers per thread (--rtl-top)");
  p.Set("cta_warps", std::to_string(cw), loc, "the kernel's warps per CTA (--rtl-top)");
  // The swap's room (file comment): up to the design's entries again.
  const int entries = spec_.pcrf.entries;
  const int top_entries = std::min(4096, 2 * entries);
  extra_ = top_entries - entries;
  p.Set("entries", std::to_string(top_entries), loc,
        "the design's PCRF entries and the room of a swap (--rtl-top)");
  spec_ = FineregSystemSpec::FromParams(p);
  const StructureSpec s(spec_);
  rtl_ = Emit(s);
  if (rtl_.ports.size() != static_cast<size_t>(P::kNumPorts) ||
      rtl_.ports[P::kDispData].name != "disp_data_o" ||
      rtl_.ports[P::kFreeCount].name != "free_count_o")
    throw std::logic_error(
        fmt::format("{}: the port list differs from FineregSystemModel's", rtl_.top));
  auto dut = LoadModel(BuildModel(rtl_, opt_.build));
  be_ = opt_.mode == RfMode::kLockstep
            ? MakeLockstepBackend(std::move(dut), rtl_, opt_.make_model(s))
            : MakeRtlBackend(std::move(dut), rtl_);
  for (const auto& port : rtl_.ports) {
    in_.emplace_back(port.width);
    out_.emplace_back(port.width);
  }
  tag_mask_ = spec_.tag_width >= 64 ? ~uint64_t{0} : (uint64_t{1} << spec_.tag_width) - 1;
  cta_warps_ = cta_warps;
  blocks_ = spec_.warps / cta_warps;
  block_owner_.assign(static_cast<size_t>(blocks_), -1);
  // Reset: one cycle with rst_ni low, every other input low.
  try {
    be_->Eval(in_, out_);
    be_->Clock(in_);
  } catch (const RtlDivergence& e) {
    Fail(std::string("at reset: ") + e.what());
  }
  ++rtl_cycles_;
  Idle();
}

// ---------------------------------------------------------------------------------------------
// Context, checks (the conventions of rf_system_top.cc)

void FineregSystemTop::Enter(uint64_t cycle, uint32_t warp, const sim::DynInst* d) {
  cycle_ = cycle;
  warp_ = warp;
  dyn_ = d;
  ctx_warp_ = warp;
  ctx_inst_ = d != nullptr ? d->inst : ~0U;
}

std::string FineregSystemTop::Where(uint32_t warp, uint32_t inst) const {
  return KernelWhere(k_, warp, inst);
}

void FineregSystemTop::Fail(const std::string& what) const {
  throw RtlDivergence(fmt::format(
      "divergence at SM cycle {} in finereg_system ({}, its RTL cycle {}), kernel {}: {}", cycle_,
      rtl_.top.empty() ? std::string("finereg_system") : rtl_.top, rtl_cycles_, k_.name, what));
}

void FineregSystemTop::CheckValue(const std::string& signal, const RowExpect& e, const Bits& actual,
                                  uint32_t warp, uint32_t inst) {
  if (!e.check || !e.mask.any())
    return;
  ++act_.value_checks;
  if (!actual.equal_masked(e.value, e.mask))
    Fail(fmt::format("{}: {}: expected {}, actual {} (compared bits {})", Where(warp, inst), signal,
                     Hex(e.value), Hex(actual), Hex(e.mask)));
}

void FineregSystemTop::Toggle(ActivityLevel l, Bits& last, const Bits& now) {
  CountToggles(act_, l, last, now);
}

// ---------------------------------------------------------------------------------------------
// The top, cycle by cycle

void FineregSystemTop::Idle() {
  for (size_t i = 0; i < in_.size(); ++i) {
    if (rtl_.ports[i].dir == PortDir::kInput)
      in_[i].clear();
  }
  in_[P::kRstN] = Bits(1, 1);
  in_[P::kDispReady] = Bits(1, 1);
}

void FineregSystemTop::Eval(const std::string& what) {
  try {
    be_->Eval(in_, out_);
  } catch (const RtlDivergence& e) {
    Fail(what + ": " + e.what());
  }
}

const PortValues& FineregSystemTop::Step() {
  in_[P::kRstN] = Bits(1, 1);
  in_[P::kDispReady] = Bits(1, 1);
  Eval(Where(ctx_warp_, ctx_inst_));
  if (out_[P::kDispValid].bit(0)) {
    const uint64_t tag = out_[P::kDispTag].get(0, spec_.tag_width);
    auto it = std::find_if(flights_.begin(), flights_.end(),
                           [&](const Flight& f) { return f.tag == tag; });
    if (it == flights_.end())
      Fail(fmt::format("disp_tag_o {} names no instruction in flight ({})", tag,
                       Where(ctx_warp_, ctx_inst_)));
    const Flight& f = *it;
    const uint64_t dwarp = out_[P::kDispWarp].get(0, spec_.warp_width);
    if (dwarp != static_cast<uint64_t>(f.slot))
      Fail(fmt::format("{}: disp_warp_o is {} for tag {}, the request was of ACRF slot {}",
                       Where(f.warp, f.inst), dwarp, tag, f.slot));
    for (int s = 0; s < 3; ++s) {
      const auto us = static_cast<size_t>(s);
      if (out_[P::kDispSrcValid].bit(s) != f.valid[us])
        Fail(fmt::format("{}: disp_src_valid_o[{}] is {}, the request had {} operand {}",
                         Where(f.warp, f.inst), s, out_[P::kDispSrcValid].bit(s) ? 1 : 0,
                         f.valid[us] ? "an" : "no", "ABC"[s]));
      if (!f.valid[us])
        continue;
      const Bits data = out_[P::kDispData].slice(s * width_, width_);
      CheckValue(fmt::format("disp_data_o[{}*{} +: {}] operand {} (R{}{})", s, width_, width_,
                             "ABC"[s], f.reg[us], f.what),
                 f.expect[us], data, f.warp, f.inst);
      if (f.what.empty())
        Toggle(ActivityLevel::kMrf, last_[static_cast<size_t>(ActivityLevel::kMrf)][us], data);
    }
    flights_.erase(it);
  }
  try {
    be_->Clock(in_);
  } catch (const RtlDivergence& e) {
    Fail(Where(ctx_warp_, ctx_inst_) + ": " + e.what());
  }
  ++rtl_cycles_;
  return out_;
}

void FineregSystemTop::Drain() {
  for (int n = 0; !flights_.empty(); ++n) {
    if (n > kPatience)
      Fail(fmt::format("{} issued requests never dispatched (the oldest: {})", flights_.size(),
                       Where(flights_.front().warp, flights_.front().inst)));
    ctx_warp_ = flights_.front().warp;
    ctx_inst_ = flights_.front().inst;
    Idle();
    Step();
  }
}

bool FineregSystemTop::ReadsInFlight(int slot, int reg) const {
  for (const Flight& f : flights_) {
    for (size_t s = 0; s < 3; ++s) {
      if (f.slot == slot && f.valid[s] && f.reg[s] == reg)
        return true;
    }
  }
  return false;
}

void FineregSystemTop::WaitIdle(const std::string& what, uint64_t bound) {
  for (uint64_t n = 0;; ++n) {
    Idle();
    Eval(what);
    if (!out_[P::kBusy].bit(0))
      return;
    if (n > bound)
      Fail(
          fmt::format("{}: busy_o still high {} cycles after the acceptance (the RMU moves one "
                      "register per 5 cycles saving, per 2 cycles restoring)",
                      what, n));
    Step();
  }
}

// ---------------------------------------------------------------------------------------------
// ACRF slots: a block of cta_warps_ consecutive slots per CTA in the top

FineregSystemTop::Cta& FineregSystemTop::CtaOf(int slot) {
  auto it = ctas_.find(slot);
  if (it == ctas_.end())
    Fail(fmt::format("CTA slot {} was never launched", slot));
  return it->second;
}

int FineregSystemTop::TakeBlock(int cta) {
  Cta& c = CtaOf(cta);
  if (c.block >= 0)
    return c.block;
  for (int b = 0; b < blocks_; ++b) {
    if (block_owner_[static_cast<size_t>(b)] < 0 &&
        b * cta_warps_ + spec_.cta_warps <= spec_.warps) {
      block_owner_[static_cast<size_t>(b)] = cta;
      c.block = b;
      return b;
    }
  }
  Fail(
      fmt::format("CTA slot {} needs {} consecutive ACRF warp slots of the top's {} (base + {} "
                  "within them), every block is taken (by CTA slots {}): the top cannot place it",
                  cta, cta_warps_, spec_.warps, spec_.cta_warps, fmt::join(block_owner_, ", ")));
}

int FineregSystemTop::SlotOf(uint32_t warp) {
  const auto it = warp_cta_.find(warp);
  if (it == warp_cta_.end())
    Fail(fmt::format("warp {} belongs to no launched CTA", warp));
  return TakeBlock(it->second.first) * cta_warps_ + it->second.second;
}

// ---------------------------------------------------------------------------------------------
// Requests

void FineregSystemTop::DriveReads(uint32_t warp, int slot, const std::vector<int>& regs,
                                  const std::vector<RowExpect>& expect, const std::string& what) {
  const size_t n = std::max<size_t>(1, (regs.size() + 2) / 3);
  for (size_t q = 0; q < n; ++q) {
    Idle();
    Flight f;
    f.tag = next_tag_++ & tag_mask_;
    f.warp = warp;
    f.inst = what.empty() && dyn_ != nullptr ? dyn_->inst : ~0U;
    f.slot = slot;
    f.what = what;
    in_[P::kIssueValid] = Bits(1, 1);
    in_[P::kIssueTag].set(0, spec_.tag_width, f.tag);
    in_[P::kIssueWarp].set(0, spec_.warp_width, static_cast<uint64_t>(slot));
    for (size_t s = 0; s < 3 && 3 * q + s < regs.size(); ++s) {
      const size_t i = 3 * q + s;
      f.valid[s] = true;
      f.reg[s] = regs[i];
      f.expect[s] = expect[i];
      in_[P::kIssueSrcValid].set_bit(static_cast<int>(s), true);
      in_[P::kIssueSrcReg].set(static_cast<int>(s) * spec_.reg_width, spec_.reg_width,
                               static_cast<uint64_t>(regs[i]));
    }
    ctx_warp_ = warp;
    ctx_inst_ = f.inst;
    for (int c = 0;; ++c) {
      if (c > kPatience)
        Fail(fmt::format("{}: issue_ready_o stayed low for {} cycles", Where(warp, f.inst), c));
      if (Step()[P::kIssueReady].bit(0))
        break;
    }
    flights_.push_back(std::move(f));
  }
  Idle();
}

void FineregSystemTop::DriveWrite(int slot, int reg, const Bits& row, uint32_t warp) {
  if (ReadsInFlight(slot, reg))
    Drain();  // contract C4: no write to a register an instruction in flight reads
  Idle();
  in_[P::kWbValid] = Bits(1, 1);
  in_[P::kWbWarp].set(0, spec_.warp_width, static_cast<uint64_t>(slot));
  in_[P::kWbReg].set(0, spec_.reg_width, static_cast<uint64_t>(reg));
  in_[P::kWbData] = row;
  ctx_warp_ = warp;
  for (int n = 0;; ++n) {
    if (n > kPatience)
      Fail(fmt::format("{}: wb_ready_o stayed low for {} cycles (R{})", Where(warp, ctx_inst_), n,
                       reg));
    if (Step()[P::kWbReady].bit(0))
      break;
  }
  acrf_[{slot, reg}] = row;
  Toggle(ActivityLevel::kMrf, last_[static_cast<size_t>(ActivityLevel::kMrf)][3], row);
  Idle();
}

// The stalled CTA's live registers (the system's appends) saved by the RMU into the PCRF.
void FineregSystemTop::Save(int cta, const std::vector<const Ev*>& appends) {
  Cta& c = CtaOf(cta);
  const std::string what =
      fmt::format("save of CTA slot {} ({} live registers)", cta, appends.size());
  if (c.block < 0 && !appends.empty())
    Fail(what + ": the CTA has no registers in the top");
  const int base = c.block < 0 ? 0 : c.block * cta_warps_;
  Drain();
  Bits live(spec_.live_bits);
  c.saved.clear();
  for (const Ev* a : appends) {
    if (a->reg >= spec_.regs || a->warp_in_cta >= spec_.cta_warps)
      Fail(fmt::format("{}: warp {} r{} is outside the top's {} warps x {} registers per CTA", what,
                       a->warp_in_cta, a->reg, spec_.cta_warps, spec_.regs));
    const int slot = base + a->warp_in_cta;
    // Contract C2: a live register was written since power-up. One a result has not reached
    // yet (the destination of the long-latency load the CTA waits for) is written with its row
    // as the kernel has it now.
    if (acrf_.find({slot, a->reg}) == acrf_.end())
      DriveWrite(slot, a->reg, rows_->Shadow(a->warp, a->reg), a->warp);
    live.set_bit(a->warp_in_cta * spec_.regs + a->reg, true);
    c.saved[{a->warp_in_cta, a->reg}] = acrf_.at({slot, a->reg});
  }
  Idle();
  in_[P::kSvValid] = Bits(1, 1);
  in_[P::kSvCta].set(0, spec_.pcrf.cta_bits, static_cast<uint64_t>(cta));
  in_[P::kSvBase].set(0, spec_.warp_width, static_cast<uint64_t>(base));
  in_[P::kSvLive] = live;
  ctx_warp_ = c.warps.empty() ? 0 : c.warps.front();
  ctx_inst_ = ~0U;
  for (int n = 0;; ++n) {
    if (n > kPatience)
      Fail(fmt::format("{}: sv_ready_o stayed low for {} cycles", what, n));
    if (Step()[P::kSvReady].bit(0))
      break;
  }
  WaitIdle(what, 5 * appends.size() + 16);
  for (const Ev* a : appends)
    acrf_.erase({base + a->warp_in_cta, a->reg});  // the slots go to another CTA
  if (c.block >= 0) {
    for (int w = 0; w < cta_warps_; ++w) {
      for (int r = 0; r < spec_.regs; ++r)
        acrf_.erase({base + w, r});
    }
    block_owner_[static_cast<size_t>(c.block)] = -1;
    c.block = -1;
  }
}

// The chain of a pending CTA (the system's restore) brought back into a free block, every
// restored register read back through the ACRF.
void FineregSystemTop::Restore(const Ev& r) {
  Cta& c = CtaOf(r.cta);
  const std::string what =
      fmt::format("restore of CTA slot {} ({} registers)", r.cta, r.chain.size());
  std::set<std::pair<int, int>> chain;
  for (const PcrfChainEntry& e : r.chain)
    chain.insert({e.warp_in_cta, e.reg});
  std::set<std::pair<int, int>> saved;
  for (const auto& [k, v] : c.saved)
    saved.insert(k);
  if (chain != saved)
    Fail(fmt::format("{}: the system restores {} registers, the loop saved {} for the CTA", what,
                     chain.size(), saved.size()));
  const int base = TakeBlock(r.cta) * cta_warps_;
  Drain();
  Idle();
  in_[P::kRsValid] = Bits(1, 1);
  in_[P::kRsCta].set(0, spec_.pcrf.cta_bits, static_cast<uint64_t>(r.cta));
  in_[P::kRsBase].set(0, spec_.warp_width, static_cast<uint64_t>(base));
  ctx_warp_ = c.warps.empty() ? 0 : c.warps.front();
  ctx_inst_ = ~0U;
  for (int n = 0;; ++n) {
    if (n > kPatience)
      Fail(fmt::format("{}: rs_ready_o stayed low for {} cycles", what, n));
    const bool ready = Step()[P::kRsReady].bit(0);
    const uint64_t shown = out_[P::kRsCount].get(0, spec_.pcrf.count_bits);
    if (shown != r.chain.size())
      Fail(
          fmt::format("{}: rs_count_o (the pointer table's live count) is {}, the system's chain "
                      "has {} registers",
                      what, shown, r.chain.size()));
    if (ready)
      break;
  }
  WaitIdle(what, static_cast<uint64_t>(spec_.pcrf.hop_cycles) * (r.chain.size() + 2) + 16);
  // Every restored register read back: the row the ACRF held at the save.
  std::map<uint32_t, std::pair<std::vector<int>, std::vector<RowExpect>>> reads;
  for (const auto& [k, row] : c.saved) {
    const auto [w, reg] = k;
    const uint32_t warp = c.warps.at(static_cast<size_t>(w));
    acrf_[{base + w, reg}] = row;
    RowExpect x;
    x.value = row;
    x.mask = Bits(width_);
    for (int b = 0; b < width_; ++b)
      x.mask.set_bit(b, true);
    x.check = true;
    reads[warp].first.push_back(reg);
    reads[warp].second.push_back(x);
    ++act_.restored_rows;
    const auto l = landed_.find(warp);
    if (l != landed_.end() && l->second.count(reg) != 0) {
      ++act_.restored_superseded;
    } else if (rows_->Written(warp, reg)) {
      // The row saved is the register's value for the kernel.
      RowExpect v;
      v.value = rows_->Shadow(warp, reg);
      v.mask = x.mask;
      v.check = true;
      CheckValue(fmt::format("the row saved for R{} (restored to ACRF slot {})", reg, base + w), v,
                 row, warp, ~0U);
    }
  }
  for (const auto& [warp, rq] : reads) {
    const int w = warp_cta_.at(warp).second;
    DriveReads(warp, base + w, rq.first, rq.second,
               fmt::format(", restored to ACRF slot {}: the row saved", base + w));
  }
  Drain();
  // Results that landed while the CTA was away reach the ACRF now.
  for (uint32_t warp : c.warps) {
    const auto l = landed_.find(warp);
    if (l == landed_.end())
      continue;
    const int slot = base + warp_cta_.at(warp).second;
    for (int reg : l->second)
      DriveWrite(slot, reg, rows_->Shadow(warp, reg), warp);
    landed_.erase(l);
  }
  c.saved.clear();
}

// The transactions of one inner event, in order. A switch (the system's V-B decision) is its
// restore (if the candidate was pending), its appends and the decision; a CTA switched in when
// ACRF space freed is a restore and the status monitor's field write.
void FineregSystemTop::Process() {
  std::vector<Ev> evs;
  evs.swap(evs_);
  const Ev* restore = nullptr;
  std::vector<const Ev*> appends;
  int restore_writes = 0;
  for (const Ev& e : evs) {
    switch (e.kind) {
      case Ev::kWrite: {
        rows_->Commit(e.warp, e.reg);
        DriveWrite(SlotOf(e.warp), e.reg, rows_->Shadow(e.warp, e.reg), e.warp);
        break;
      }
      case Ev::kRestoreWrite:
        ++restore_writes;
        break;
      case Ev::kPending:
        landed_[e.warp].insert(e.reg);
        break;
      case Ev::kAppend:
        appends.push_back(&e);
        sys_free_ = e.free_after;
        break;
      case Ev::kRestore:
        if (restore != nullptr)
          Fail("two restores in one switch");
        restore = &e;
        sys_free_ = e.free_after;
        break;
      case Ev::kSwitched:
      case Ev::kStarted: {
        if (restore != nullptr && restore_writes != static_cast<int>(restore->chain.size()))
          Fail(fmt::format("the system wrote {} restored registers to the ACRF for a chain of {}",
                           restore_writes, restore->chain.size()));
        if (e.kind == Ev::kSwitched) {
          const int free = static_cast<int>(out_[P::kFreeCount].get(0, spec_.pcrf.count_bits));
          if (static_cast<int>(appends.size()) <= free || restore == nullptr) {
            Save(e.cta, appends);
            if (restore != nullptr)
              Restore(*restore);
          } else {
            Restore(*restore);  // its freed entries make room for the save (V-B)
            Save(e.cta, appends);
          }
        } else if (restore != nullptr) {
          Restore(*restore);
        }
        restore = nullptr;
        appends.clear();
        restore_writes = 0;
        // The free-space monitor's count after the switch is the system's.
        Idle();
        Eval(fmt::format("after the switch of CTA slot {}", e.cta));
        const int free = static_cast<int>(out_[P::kFreeCount].get(0, spec_.pcrf.count_bits));
        if (sys_free_ >= 0 && free != sys_free_ + extra_)
          Fail(
              fmt::format("after the switch of CTA slot {}: free_count_o is {}, the system has {} "
                          "free PCRF entries (+ the top's {} entries of swap room)",
                          e.cta, free, sys_free_, extra_));
        break;
      }
    }
  }
  if (restore != nullptr || !appends.empty())
    Fail("a save or restore without the status monitor's decision");
}

int FineregSystemTop::SmSlot(int mon) {
  const int slot = finereg_->CtaSlotOfMonitorSlot(mon);
  if (slot < 0)
    Fail(fmt::format("the FineReg system named status-monitor slot {}, which has no CTA", mon));
  return slot;
}

void FineregSystemTop::Transaction(const StructureTransaction& t) {
  Ev e{};
  if (const auto* w = t.As<MrfWrite>()) {
    e.kind = w->restore ? Ev::kRestoreWrite : Ev::kWrite;
    e.warp = w->warp;
    e.reg = w->reg;
  } else if (const auto* p = t.As<PcrfPendingResult>()) {
    e.kind = Ev::kPending;
    e.warp = p->warp;
    e.reg = p->reg;
  } else if (const auto* a = t.As<PcrfAppend>()) {
    e.kind = Ev::kAppend;
    e.cta = SmSlot(a->cta);
    e.warp = a->warp;
    e.warp_in_cta = a->warp_in_cta;
    e.reg = a->reg;
    e.free_after = a->free_after;
  } else if (const auto* r = t.As<PcrfRestore>()) {
    e.kind = Ev::kRestore;
    e.cta = SmSlot(r->cta);
    e.chain = r->chain;
    e.free_after = r->free_after;
  } else if (const auto* dc = t.As<CsmDecision>()) {
    if (!dc->switched)
      return;  // kept: nothing moves
    e.kind = Ev::kSwitched;
    e.cta = SmSlot(dc->stall_cta);
  } else if (const auto* s = t.As<CsmSet>()) {
    if (s->ctx == 0)
      return;  // finished: its block is given back by CtaFinished
    e.kind = Ev::kStarted;
    e.cta = SmSlot(s->cta);
  } else if (t.As<MrfRead>() != nullptr || t.As<LvcLookup>() != nullptr) {
    return;  // the operands come from the instruction; the vector cache is not in the top
  } else {
    Fail(fmt::format("the FineReg system made a transaction ({}) the top does not take",
                     t.type().name));
  }
  evs_.push_back(std::move(e));
}

// ---------------------------------------------------------------------------------------------
// Pipeline and CTA events

int FineregSystemTop::Issue(uint64_t cycle, uint32_t warp, const sim::DynInst& d) {
  Enter(cycle, warp, &d);
  evs_.clear();
  const int delay = inner_.Issue(cycle, warp, d);
  Process();
  std::vector<int> regs;
  std::vector<RowExpect> expect;
  for (const auto& op : k_.code[d.inst].srcs) {
    for (int j = 0; j < op.count; ++j) {
      regs.push_back(op.first + j);
      expect.push_back(rows_->SourceExpect(warp, op.first + j, &d));
    }
  }
  DriveReads(warp, SlotOf(warp), regs, expect, "");
  return delay;
}

void FineregSystemTop::Writeback(uint64_t cycle, uint32_t warp, const sim::DynInst& d) {
  Enter(cycle, warp, &d);
  rows_->WriteResultRows(warp, d);
  evs_.clear();
  inner_.Writeback(cycle, warp, d);
  while (!rows_->pending().empty())
    rows_->Commit(warp, rows_->pending().front().first);
  Process();
}

void FineregSystemTop::Activate(uint64_t cycle, uint32_t warp) {
  Enter(cycle, warp, nullptr);
  inner_.Activate(cycle, warp);
  Process();
}

void FineregSystemTop::Deactivate(uint64_t cycle, uint32_t warp) {
  Enter(cycle, warp, nullptr);
  inner_.Deactivate(cycle, warp);
  Process();
}

void FineregSystemTop::Tick(uint64_t cycle) {
  Enter(cycle, warp_, nullptr);
  inner_.Tick(cycle);
  Process();
  if (!flights_.empty()) {
    ctx_warp_ = flights_.front().warp;
    ctx_inst_ = flights_.front().inst;
    Idle();
    Step();
  }
}

void FineregSystemTop::CtaLaunched(uint64_t cycle, const sim::CtaInfo& c) {
  Enter(cycle, warp_, nullptr);
  if (!be_)
    Build(static_cast<int>(c.warps->size()));
  if (static_cast<int>(c.warps->size()) > cta_warps_)
    Fail(fmt::format("CTA slot {} has {} warps, the kernel's first CTA {}", c.slot, c.warps->size(),
                     cta_warps_));
  Cta& x = ctas_[static_cast<int>(c.slot)];
  if (x.block >= 0)
    block_owner_[static_cast<size_t>(x.block)] = -1;
  x = Cta{};
  x.warps = *c.warps;
  for (size_t i = 0; i < x.warps.size(); ++i) {
    warp_cta_[x.warps[i]] = {static_cast<int>(c.slot), static_cast<int>(i)};
    landed_.erase(x.warps[i]);
  }
  inner_.CtaLaunched(cycle, c);
  Process();
}

void FineregSystemTop::CtaFinished(uint64_t cycle, const sim::CtaInfo& c) {
  Enter(cycle, warp_, nullptr);
  evs_.clear();
  inner_.CtaFinished(cycle, c);
  Cta& x = CtaOf(static_cast<int>(c.slot));
  if (x.block >= 0) {
    Drain();
    for (int w = 0; w < cta_warps_; ++w) {
      for (int r = 0; r < spec_.regs; ++r)
        acrf_.erase({x.block * cta_warps_ + w, r});
    }
    block_owner_[static_cast<size_t>(x.block)] = -1;
    x.block = -1;
  }
  Process();
}

void FineregSystemTop::CtaStalled(uint64_t cycle, const sim::CtaInfo& c) {
  Enter(cycle, warp_, nullptr);
  evs_.clear();
  inner_.CtaStalled(cycle, c);
  Process();
}

void FineregSystemTop::CtaResumed(uint64_t cycle, const sim::CtaInfo& c) {
  Enter(cycle, warp_, nullptr);
  evs_.clear();
  inner_.CtaResumed(cycle, c);
  Process();
}

void FineregSystemTop::Finish() {
  if (be_)
    Drain();
  inner_.Finish();
  act_.rtl_cycles = rtl_cycles_;
}

}  // namespace

GPURF_REGISTER(RtlTopKind, finereg_system, "finereg-system",
               (RtlTopKind{
                   .per_kernel = true,
                   .warp_slots = [](const StructureSpec&) { return 0; },
                   .kernel_problem = KernelProblem,
                   .make = [](const DesignSpec& d, const sim::Kernel& k, const sim::SmConfig& sm,
                              RfSystem& inner, const RtlStructure& top,
                              const RtlLoopOptions& opt) -> std::unique_ptr<RtlTopSystem> {
                     return std::make_unique<FineregSystemTop>(d, k, sm, inner, top, opt);
                   },
               }))

}  // namespace gpurf::harness
