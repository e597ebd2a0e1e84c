// The rf-system kind's system top in the RTL loop (rtl_top.h, `--rtl-top`): the SM harness
// drives the ONE register-file system top of the design point (the `rf_system` structure,
// gen/structures/rf_system/rf_system_spec.h: the MRF of one lane cluster composed with the
// design's hierarchy behind one request interface) cycle by cycle through that interface, alone
// (--rtl --rtl-top) or with its golden model `RfSystemCycleModel` (models/rf_system_model.h)
// on the same ports, every output compared every cycle (--lockstep --rtl-top).
//
// How it fits. As in rtl_loop.h, the C++ models' register-file system (rf_systems.h) keeps the
// SM timing and the access counts; RfSystemTop wraps it, collects the structure transactions it
// makes for each pipeline event (StructureListener) and turns them into requests of the top:
//   - issue: one request per three source registers of the instruction (the top's operand slots
//     A, B, C), in the order the system reads them. SW ORF: each operand at the level and entry
//     of the compiler's allocation (an ORF operand in the slot of its source operand, which is
//     also the bank of a split L0); HW RFC: the registers the RFC model looked up with its
//     liveness hint on `issue_src_dead_i` (the top does its own tag check); MRF only: registers.
//   - results: MRF only: every result register; SW ORF: one request per register with the
//     allocation's targets (`res_mrf_i`, `res_orf_i` / `res_orf_l0_i` / entry); a result of a warp
//     that lost its slot keeps only its MRF part; HW RFC: through the RFC (`res_long_i` for
//     long-latency results, `res_no_l0_i`), or `res_mrf_i` for a warp without a slot.
//   - SW ORF fills: the value of a source read from the MRF written to its ORF entry after the
//     issue (`res_orf_i` without `res_mrf_i`).
//   - deschedules: SW ORF the warp's slot (lowest free one on activation), HW RFC the slot the
//     RFC model flushed, held on `fl_valid_i` until `fl_ready_o`.
// The dispatch is always taken (`disp_ready_i` high); every dispatched instruction is matched to
// its issue by tag and each operand row is compared with the value the instruction read. A result
// that would write an MRF register still read by an instruction in flight waits until that
// instruction has dispatched (the top's write-after-read rule). The RTL is clocked only while it
// has something to do, so its cycle count differs from the SM's.
//
// Decisions. The top shows its decisions in its counters only, so they are compared with the
// C++ models' decisions: the counters updated at the accepting edge (tag checks and hits, L1 / L0
// reads and writes) in every cycle, the others (MRF reads and writes, RFC write-backs) whenever
// the top has gone quiet (after each deschedule and at the end).
//
// Data, value checks, toggles and divergence reports: as in rtl_loop.h (rows are lanes 0..3 of
// the kernel's recorded values). Toggles are counted on the top's data ports: each dispatched
// operand row at the level that supplied it (its slot's port), each result row at every level
// it is written to.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/registry.h"
#include "gen/structures/rf_system/rf_system_spec.h"
#include "models/rf_system_model.h"
#include "models/rfc_model.h"
#include "sim/harness/rtl_top.h"
#include "sim/harness/transactors/mrf_transactions.h"
#include "sim/harness/transactors/orf_transactions.h"
#include "sim/harness/transactors/rfc_transactions.h"
#include "verif/verify.h"

namespace gpurf::harness {

namespace sp = sim::passes;
using Level = ActivityLevel;
using P = RfSystemCycleModel;

namespace {

std::string Hex(const Bits& b) {
  return fmt::format("{}'h{}", b.width(), b.hex());
}

Level LevelOf(int src_level) {
  return src_level == RfSystemSpec::kLevelL0   ? Level::kL0
         : src_level == RfSystemSpec::kLevelL1 ? Level::kL1
                                               : Level::kMrf;
}

int SrcLevelOf(sp::RfLevel l) {
  return l == sp::RfLevel::kL0   ? RfSystemSpec::kLevelL0
         : l == sp::RfLevel::kL1 ? RfSystemSpec::kLevelL1
                                 : RfSystemSpec::kLevelMrf;
}

// Cycles a request may wait for its ready before the top is declared stuck.
constexpr int kPatience = 4096;

std::string KernelProblem(const StructureSpec& s, const sim::Kernel& k, const sim::SmConfig& sm) {
  const RfSystemSpec& r = SpecAs<RfSystemSpec>(s);
  if (k.regs_per_thread <= r.mrf.regs && r.warps >= sm.warps)
    return {};
  return fmt::format(
      "kernel {} needs {} registers x {} warps, the design's rf_system holds {} x {}", k.name,
      k.regs_per_thread, sm.warps, r.mrf.regs, r.warps);
}

class RfSystemTop : public RtlTopSystem {
 public:
  RfSystemTop(const DesignSpec& d, const sim::Kernel& k, const sim::SmConfig& sm, RfSystem& inner,
              const RtlStructure& top, const RtlLoopOptions& opt);
  ~RfSystemTop() override;

  // sim::RegisterFileSystem
  bool CanIssue(uint64_t cycle, uint32_t warp, const sim::DynInst& d) override;
  int Issue(uint64_t cycle, uint32_t warp, const sim::DynInst& d) override;
  void Writeback(uint64_t cycle, uint32_t warp, const sim::DynInst& d) override;
  void Activate(uint64_t cycle, uint32_t warp) override;
  void Deactivate(uint64_t cycle, uint32_t warp) override;
  void Tick(uint64_t cycle) override;
  void Launch(uint64_t cycle, uint32_t warp, const sim::WarpStream& stream) override;
  bool Busy() const override { return inner_.Busy() || !flights_.empty(); }

  // Drains the top (every issued instruction dispatched and checked), compares its counters and
  // finishes the inner system.
  void Finish() override;
  const DataActivity& activity() const override { return act_; }
  bool has_values() const override { return rows_->has_values(); }

  // StructureListener (collected, then driven into the top after the inner system's event)
  void Transaction(const StructureTransaction& t) override;

 private:
  using Expect = RowExpect;
  // One source register of an issue: its level (RfSystemSpec::SrcLevel), L1 entry, dead hint,
  // the operand slot it must take (-1: any).
  struct Src {
    int reg = 0, level = 0, entry = 0, slot = -1;
    bool dead = false;
  };
  // An issued request until its dispatch.
  struct Flight {
    uint64_t tag = 0;
    uint32_t warp = 0, inst = 0;
    std::array<bool, 3> valid{};
    std::array<int, 3> reg{}, level{};
    std::array<Expect, 3> expect;
  };
  // A result request (or an SW ORF fill).
  struct Result {
    int reg = 0, slot = 0;
    bool mrf = false, orf = false, orf_l0 = false, lng = false, no_l0 = false, fill = false;
    int entry = 0;
    std::optional<int> mrf_also;  // HW RFC: the register the RFC writes back to the MRF
  };
  // Event counts the top's counters must show (before truncation to counter_width).
  struct Counts {
    uint64_t mrf_reads = 0, mrf_writes = 0, l1_reads = 0, l0_reads = 0, l1_writes = 0,
             l0_writes = 0, tag_checks = 0, tag_hits = 0, writebacks = 0;
  };

  void Enter(uint64_t cycle, uint32_t warp, const sim::DynInst* d);
  [[noreturn]] void Fail(const std::string& what) const;
  std::string Where(uint32_t warp, uint32_t inst) const;

  // Register rows: rows_ (as RtlLoopSystem).
  void CheckValue(const std::string& signal, const Expect& e, const Bits& actual, uint32_t warp,
                  uint32_t inst);
  void Toggle(ActivityLevel l, Bits& last, const Bits& now);

  // The top, one RTL cycle: inputs as set (rst_ni high, disp_ready_i high), Eval, the dispatch
  // checked, the prompt counters compared, the edge. Returns the outputs of the cycle.
  const PortValues& Step();
  void Idle();  // every request input low
  void CheckCounters(bool all);
  bool CountersMatch(bool all, std::string* diff) const;
  void Settle();  // quiet cycles until every counter matches (or a divergence)
  void Drain();   // cycles until no request is in flight
  bool ReadsInFlight(uint32_t warp, int reg) const;

  void DriveIssue(uint32_t warp, int slot, const std::vector<Src>& srcs);
  void DriveResult(uint32_t warp, const Result& r);
  void DriveFlush(uint32_t warp, int slot, int entries);
  void DriveResults(uint32_t warp);  // results_ collected during the inner event

  const sim::Kernel& k_;
  RfSystem& inner_;
  RtlLoopOptions opt_;
  RfSystemSpec spec_;
  const GeneratedStructure* rtl_ = nullptr;
  std::unique_ptr<StructureBackend> be_;
  PortValues in_, out_;
  uint64_t rtl_cycles_ = 0;
  int width_ = 0, lanes_ = 0;
  uint64_t counter_mask_ = 0;

  // Context.
  uint64_t cycle_ = 0;
  uint32_t warp_ = 0;
  const sim::DynInst* dyn_ = nullptr;
  uint32_t ctx_warp_ = 0, ctx_inst_ = ~0U;

  std::optional<RegisterRows> rows_;  // cluster 0, by warp context and register

  // Transactions collected during one inner event.
  std::vector<int> ev_mrf_reads_;
  std::vector<RfcCache::Operand> ev_rfc_ops_;
  std::vector<RfcCache::ReadResult> ev_rfc_res_;
  struct OrfRd {
    int level, src, reg, entry;
  };
  std::vector<OrfRd> ev_orf_reads_;
  std::vector<Result> results_;
  struct FlushEv {
    uint32_t warp;
    int slot, entries;
  };
  std::optional<FlushEv> ev_flush_;

  // Requests in flight (issue order), the next tag.
  std::vector<Flight> flights_;
  uint64_t next_tag_ = 0, tag_mask_ = 0;

  // SW ORF slots (lowest free on activation), by warp context.
  std::vector<int> orf_slot_of_;
  std::vector<bool> orf_slot_free_;

  Counts want_;
  // Last row on each data port: dispatch slots 0..2 and the result port, per level.
  std::array<std::array<Bits, 4>, kNumActivityLevels> last_;
  DataActivity act_;
};

}  // namespace

// ---------------------------------------------------------------------------------------------
// Construction

RfSystemTop::RfSystemTop(const DesignSpec& d, const sim::Kernel& k, const sim::SmConfig& sm,
                         RfSystem& inner, const RtlStructure& top, const RtlLoopOptions& opt)
    : k_(k), inner_(inner), opt_(opt) {
  if (!opt_.make_model)
    opt_.make_model = [](const StructureSpec& s) { return MakeModel(s); };
  spec_ = SpecAs<RfSystemSpec>(top.spec);
  rtl_ = &top.rtl;
  if (rtl_->ports.size() != static_cast<size_t>(P::kNumPorts) ||
      rtl_->ports[P::kDispData].name != "disp_data_o" ||
      rtl_->ports[P::kCntWritebacks].name != "cnt_writebacks_o")
    throw std::logic_error(
        fmt::format("{}: the port list differs from RfSystemCycleModel's", rtl_->top));
  auto dut = LoadModel(top.built);
  be_ = opt_.mode == RfMode::kLockstep
            ? MakeLockstepBackend(std::move(dut), *rtl_, opt_.make_model(top.spec))
            : MakeRtlBackend(std::move(dut), *rtl_);
  for (const auto& p : rtl_->ports) {
    in_.emplace_back(p.width);
    out_.emplace_back(p.width);
  }
  width_ = spec_.width;
  lanes_ = std::max(0, std::min({width_ / 32, d.sm.lane_cluster, 32}));
  counter_mask_ =
      spec_.counter_width >= 64 ? ~uint64_t{0} : (uint64_t{1} << spec_.counter_width) - 1;
  tag_mask_ = spec_.tag_width >= 64 ? ~uint64_t{0} : (uint64_t{1} << spec_.tag_width) - 1;
  if (const std::string p = KernelProblem(top.spec, k, sm); !p.empty())
    throw std::runtime_error("RTL in the loop: " + p);
  const auto warps = static_cast<size_t>(sm.warps);
  rows_.emplace(k, warps, width_, lanes_, opt.seed);
  orf_slot_of_.assign(warps, -1);
  orf_slot_free_.assign(static_cast<size_t>(sm.active_warps), true);
  for (auto& lv : last_) {
    for (auto& b : lv)
      b = Bits(width_);
  }
  // Reset: one cycle with rst_ni low, every other input low.
  try {
    be_->Eval(in_, out_);
    be_->Clock(in_);
  } catch (const RtlDivergence& e) {
    Fail(std::string("at reset: ") + e.what());
  }
  ++rtl_cycles_;
  Idle();
  inner_.set_listener(this);
}

RfSystemTop::~RfSystemTop() {
  inner_.set_listener(nullptr);
}

// ---------------------------------------------------------------------------------------------
// Context, rows, checks (the same conventions as the RTL loop, transactor.h)

void RfSystemTop::Enter(uint64_t cycle, uint32_t warp, const sim::DynInst* d) {
  cycle_ = cycle;
  warp_ = warp;
  dyn_ = d;
  ctx_warp_ = warp;
  ctx_inst_ = d != nullptr ? d->inst : ~0U;
}

std::string RfSystemTop::Where(uint32_t warp, uint32_t inst) const {
  return KernelWhere(k_, warp, inst);
}

void RfSystemTop::Fail(const std::string& what) const {
  throw RtlDivergence(fmt::format(
      "divergence at SM cycle {} in rf_system ({}, its RTL cycle {}), kernel {}: {}", cycle_,
      rtl_ != nullptr ? rtl_->top : std::string("rf_system"), rtl_cycles_, k_.name, what));
}

void RfSystemTop::Launch(uint64_t cycle, uint32_t warp, const sim::WarpStream& stream) {
  inner_.Launch(cycle, warp, stream);
  rows_->Launch(warp, stream);
}

void RfSystemTop::CheckValue(const std::string& signal, const Expect& e, const Bits& actual,
                             uint32_t warp, uint32_t inst) {
  if (!e.check || !e.mask.any())
    return;
  ++act_.value_checks;
  if (!actual.equal_masked(e.value, e.mask)) {
    Fail(
        fmt::format("{}: {} shows another row than the register holds for the kernel: "
                    "expected {}, actual {} (compared bits {})",
                    Where(warp, inst), signal, Hex(e.value), Hex(actual), Hex(e.mask)));
  }
}

void RfSystemTop::Toggle(Level l, Bits& last, const Bits& now) {
  CountToggles(act_, l, last, now);
}

// ---------------------------------------------------------------------------------------------
// The top, cycle by cycle

void RfSystemTop::Idle() {
  for (size_t i = 0; i < in_.size(); ++i) {
    if (rtl_->ports[i].dir == PortDir::kInput)
      in_[i].clear();
  }
  in_[P::kRstN] = Bits(1, 1);
  in_[P::kDispReady] = Bits(1, 1);
}

bool RfSystemTop::CountersMatch(bool all, std::string* diff) const {
  struct C {
    P::Port port;
    uint64_t want;
    bool prompt;
  };
  const C cs[] = {
      {P::kCntL1Reads, want_.l1_reads, true},      {P::kCntL0Reads, want_.l0_reads, true},
      {P::kCntL1Writes, want_.l1_writes, true},    {P::kCntL0Writes, want_.l0_writes, true},
      {P::kCntTagChecks, want_.tag_checks, true},  {P::kCntTagHits, want_.tag_hits, true},
      {P::kCntMrfReads, want_.mrf_reads, false},   {P::kCntMrfWrites, want_.mrf_writes, false},
      {P::kCntWritebacks, want_.writebacks, false}};
  for (const C& c : cs) {
    if (!all && !c.prompt)
      continue;
    const uint64_t have = out_[c.port].get(0, std::min(64, spec_.counter_width));
    if (have != (c.want & counter_mask_)) {
      if (diff != nullptr)
        *diff = fmt::format("{} is {}, the C++ models' decisions give {}", rtl_->ports[c.port].name,
                            have, c.want & counter_mask_);
      return false;
    }
  }
  return true;
}

void RfSystemTop::CheckCounters(bool all) {
  std::string diff;
  if (!CountersMatch(all, &diff))
    Fail(fmt::format("{} (the last request: {})", diff, Where(ctx_warp_, ctx_inst_)));
}

const PortValues& RfSystemTop::Step() {
  in_[P::kRstN] = Bits(1, 1);
  in_[P::kDispReady] = Bits(1, 1);
  try {
    be_->Eval(in_, out_);
  } catch (const RtlDivergence& e) {
    Fail(Where(ctx_warp_, ctx_inst_) + ": " + e.what());
  }
  CheckCounters(false);
  if (out_[P::kDispValid].bit(0)) {
    const uint64_t tag = out_[P::kDispTag].get(0, spec_.tag_width);
    auto it = std::find_if(flights_.begin(), flights_.end(),
                           [&](const Flight& f) { return f.tag == tag; });
    if (it == flights_.end())
      Fail(fmt::format("disp_tag_o {} names no instruction in flight ({})", tag,
                       Where(ctx_warp_, ctx_inst_)));
    const Flight& f = *it;
    const uint64_t dwarp = out_[P::kDispWarp].get(0, spec_.warp_width);
    if (dwarp != f.warp)
      Fail(fmt::format("{}: disp_warp_o is {} for tag {}", Where(f.warp, f.inst), dwarp, tag));
    for (int s = 0; s < 3; ++s) {
      const auto us = static_cast<size_t>(s);
      if (out_[P::kDispSrcValid].bit(s) != f.valid[us])
        Fail(fmt::format("{}: disp_src_valid_o[{}] is {}, the request had {} operand {}",
                         Where(f.warp, f.inst), s, out_[P::kDispSrcValid].bit(s) ? 1 : 0,
                         f.valid[us] ? "an" : "no", "ABC"[s]));
      if (!f.valid[us])
        continue;
      const Bits data = out_[P::kDispData].slice(s * width_, width_);
      CheckValue(
          fmt::format("disp_data_o operand {} (R{}, level {})", "ABC"[s], f.reg[us], f.level[us]),
          f.expect[us], data, f.warp, f.inst);
      Toggle(LevelOf(f.level[us]), last_[static_cast<size_t>(LevelOf(f.level[us]))][us], data);
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

void RfSystemTop::Drain() {
  for (int n = 0; !flights_.empty(); ++n) {
    if (n > kPatience)
      Fail(fmt::format("{} issued instructions never dispatched (the oldest: {})", flights_.size(),
                       Where(flights_.front().warp, flights_.front().inst)));
    ctx_warp_ = flights_.front().warp;
    ctx_inst_ = flights_.front().inst;
    Idle();
    Step();
  }
}

void RfSystemTop::Settle() {
  Drain();
  std::string diff;
  for (int n = 0; n < 16; ++n) {
    Idle();
    in_[P::kRstN] = Bits(1, 1);
    try {
      be_->Eval(in_, out_);
    } catch (const RtlDivergence& e) {
      Fail(Where(ctx_warp_, ctx_inst_) + ": " + e.what());
    }
    if (CountersMatch(true, &diff))
      return;
    Step();
  }
  Fail(fmt::format("with the top quiet, {} (the last request: {})", diff,
                   Where(ctx_warp_, ctx_inst_)));
}

bool RfSystemTop::ReadsInFlight(uint32_t warp, int reg) const {
  for (const Flight& f : flights_) {
    if (f.warp != warp)
      continue;
    for (int s = 0; s < 3; ++s) {
      const auto us = static_cast<size_t>(s);
      if (f.valid[us] && f.reg[us] == reg && f.level[us] == RfSystemSpec::kLevelMrf)
        return true;
    }
  }
  return false;
}

void RfSystemTop::DriveIssue(uint32_t warp, int slot, const std::vector<Src>& srcs) {
  // Operand slots: a source with a fixed slot takes it in the first request where it is free,
  // the others the first free slot.
  std::vector<std::array<const Src*, 3>> reqs;
  for (const Src& s : srcs) {
    size_t r = 0;
    int at = -1;
    for (;; ++r) {
      if (r == reqs.size())
        reqs.push_back({nullptr, nullptr, nullptr});
      if (s.slot >= 0) {
        if (reqs[r][static_cast<size_t>(s.slot)] == nullptr)
          at = s.slot;
      } else {
        for (int k = 0; k < 3 && at < 0; ++k) {
          if (reqs[r][static_cast<size_t>(k)] == nullptr)
            at = k;
        }
      }
      if (at >= 0)
        break;
    }
    reqs[r][static_cast<size_t>(at)] = &s;
  }
  if (reqs.empty() && srcs.empty())
    reqs.push_back({nullptr, nullptr, nullptr});  // an instruction without sources still issues
  for (const auto& q : reqs) {
    Idle();
    Flight f;
    f.tag = next_tag_++ & tag_mask_;
    f.warp = warp;
    f.inst = dyn_->inst;
    in_[P::kIssueValid] = Bits(1, 1);
    in_[P::kIssueTag].set(0, spec_.tag_width, f.tag);
    in_[P::kIssueWarp].set(0, spec_.warp_width, warp);
    in_[P::kIssueSlot].set(0, spec_.slot_width, static_cast<uint64_t>(slot));
    Counts add;
    for (int k = 0; k < 3; ++k) {
      const Src* s = q[static_cast<size_t>(k)];
      if (s == nullptr)
        continue;
      const auto uk = static_cast<size_t>(k);
      f.valid[uk] = true;
      f.reg[uk] = s->reg;
      f.level[uk] = s->level;
      f.expect[uk] = rows_->SourceExpect(warp, s->reg, dyn_);
      in_[P::kIssueSrcValid].set_bit(k, true);
      in_[P::kIssueSrcReg].set(k * spec_.reg_width, spec_.reg_width, static_cast<uint64_t>(s->reg));
      in_[P::kIssueSrcDead].set_bit(k, s->dead);
      if (spec_.sw()) {
        in_[P::kIssueSrcLevel].set(k * RfSystemSpec::kLevelBits, RfSystemSpec::kLevelBits,
                                   static_cast<uint64_t>(s->level));
        in_[P::kIssueSrcEntry].set(k * spec_.entry_width, spec_.entry_width,
                                   static_cast<uint64_t>(s->entry));
      }
      if (spec_.hw())
        ++add.tag_checks;
      switch (s->level) {
        case RfSystemSpec::kLevelMrf:
          ++add.mrf_reads;
          break;
        case RfSystemSpec::kLevelL1:
          ++add.l1_reads;
          add.tag_hits += spec_.hw() ? 1 : 0;
          break;
        default:
          ++add.l0_reads;
          add.tag_hits += spec_.hw() ? 1 : 0;
          break;
      }
    }
    ctx_warp_ = warp;
    ctx_inst_ = f.inst;
    for (int n = 0;; ++n) {
      if (n > kPatience)
        Fail(fmt::format("{}: issue_ready_o stayed low for {} cycles", Where(warp, f.inst), n));
      const bool ready = Step()[P::kIssueReady].bit(0);
      if (ready)
        break;
    }
    want_.mrf_reads += add.mrf_reads;
    want_.l1_reads += add.l1_reads;
    want_.l0_reads += add.l0_reads;
    want_.tag_checks += add.tag_checks;
    want_.tag_hits += add.tag_hits;
    flights_.push_back(std::move(f));
  }
  Idle();
}

void RfSystemTop::DriveResult(uint32_t warp, const Result& r) {
  // The write-after-read rule: an MRF write waits for the instructions in flight that still
  // read the register from the MRF.
  const bool writes_mrf = r.mrf || (spec_.hw() && r.lng);
  if ((writes_mrf && ReadsInFlight(warp, r.reg)) ||
      (r.mrf_also && ReadsInFlight(warp, *r.mrf_also)))
    Drain();
  Idle();
  const Bits& data = rows_->Shadow(warp, r.reg);
  in_[P::kResValid] = Bits(1, 1);
  in_[P::kResWarp].set(0, spec_.warp_width, warp);
  in_[P::kResSlot].set(0, spec_.slot_width, static_cast<uint64_t>(r.slot));
  in_[P::kResReg].set(0, spec_.reg_width, static_cast<uint64_t>(r.reg));
  in_[P::kResData] = data;
  in_[P::kResMrf].set_bit(0, r.mrf);
  in_[P::kResOrf].set_bit(0, r.orf);
  in_[P::kResOrfL0].set_bit(0, r.orf_l0);
  in_[P::kResOrfEntry].set(0, spec_.entry_width, static_cast<uint64_t>(r.entry));
  in_[P::kResLong].set_bit(0, r.lng);
  in_[P::kResNoL0].set_bit(0, r.no_l0);
  ctx_warp_ = warp;
  ctx_inst_ = dyn_ != nullptr ? dyn_->inst : ~0U;
  for (int n = 0;; ++n) {
    if (n > kPatience)
      Fail(fmt::format("{}: res_ready_o stayed low for {} cycles (R{})", Where(warp, ctx_inst_), n,
                       r.reg));
    if (Step()[P::kResReady].bit(0))
      break;
  }
  // What the accepted result does to the counters, per the C++ models' decisions.
  if (spec_.hw()) {
    if (r.mrf) {
      ++want_.mrf_writes;
    } else {
      ++want_.tag_checks;
      if (!r.lng)
        ++((spec_.has_l0() && !r.no_l0) ? want_.l0_writes : want_.l1_writes);
      if (r.mrf_also) {
        ++want_.writebacks;
        ++want_.mrf_writes;
      }
    }
  } else {
    if (r.mrf || !spec_.sw())
      ++want_.mrf_writes;
    if (r.orf)
      ++(r.orf_l0 ? want_.l0_writes : want_.l1_writes);
  }
  if (r.mrf || !spec_.upper() || (spec_.hw() && r.lng))
    Toggle(Level::kMrf, last_[static_cast<size_t>(Level::kMrf)][3], data);
  if (r.orf || (spec_.hw() && !r.mrf && !r.lng)) {
    const Level l = spec_.hw() ? ((spec_.has_l0() && !r.no_l0) ? Level::kL0 : Level::kL1)
                               : (r.orf_l0 ? Level::kL0 : Level::kL1);
    Toggle(l, last_[static_cast<size_t>(l)][3], data);
  }
  Idle();
}

void RfSystemTop::DriveFlush(uint32_t warp, int slot, int entries) {
  Drain();
  Idle();
  in_[P::kFlValid] = Bits(1, 1);
  in_[P::kFlWarp].set(0, spec_.warp_width, warp);
  in_[P::kFlSlot].set(0, spec_.slot_width, static_cast<uint64_t>(slot));
  ctx_warp_ = warp;
  ctx_inst_ = ~0U;
  for (int n = 0;; ++n) {
    if (n > kPatience)
      Fail(fmt::format("deschedule of warp {} (slot {}): fl_ready_o stayed low for {} cycles", warp,
                       slot, n));
    if (Step()[P::kFlReady].bit(0))
      break;
  }
  want_.writebacks += static_cast<uint64_t>(entries);
  want_.mrf_writes += static_cast<uint64_t>(entries);
  Idle();
  if (spec_.hw())
    Settle();
}

void RfSystemTop::DriveResults(uint32_t warp) {
  std::vector<Result> rs;
  rs.swap(results_);
  // SW ORF: the MRF and ORF writes of one register are one request.
  for (size_t i = 0; i < rs.size(); ++i) {
    Result r = rs[i];
    if (spec_.sw() && r.mrf && i + 1 < rs.size() && rs[i + 1].orf && !rs[i + 1].fill &&
        rs[i + 1].reg == r.reg) {
      r.orf = true;
      r.orf_l0 = rs[i + 1].orf_l0;
      r.entry = rs[i + 1].entry;
      ++i;
    }
    if (!r.fill)
      rows_->Commit(warp, r.reg);
    if (spec_.sw() && r.orf) {
      const int slot = orf_slot_of_[warp];
      if (slot < 0) {
        if (r.fill)
          Fail(fmt::format("{}: an ORF fill of a warp without an active slot",
                           Where(warp, ctx_inst_)));
        // The warp was descheduled before its result arrived: its ORF was invalidated at the
        // strand end and the slot may be another warp's; only the MRF part remains.
        ++act_.dropped_result_writes;
        r.orf = false;
        if (!r.mrf)
          continue;
      } else {
        r.slot = slot;
      }
    }
    DriveResult(warp, r);
  }
}

// ---------------------------------------------------------------------------------------------
// Pipeline events

bool RfSystemTop::CanIssue(uint64_t cycle, uint32_t warp, const sim::DynInst& d) {
  return inner_.CanIssue(cycle, warp, d);
}

int RfSystemTop::Issue(uint64_t cycle, uint32_t warp, const sim::DynInst& d) {
  Enter(cycle, warp, &d);
  ev_mrf_reads_.clear();
  ev_rfc_ops_.clear();
  ev_rfc_res_.clear();
  ev_orf_reads_.clear();
  results_.clear();
  const int delay = inner_.Issue(cycle, warp, d);
  const sim::Instruction& in = k_.code[d.inst];
  std::vector<Src> srcs;
  int slot = 0;
  if (spec_.hw()) {
    for (size_t i = 0; i < ev_rfc_ops_.size(); ++i) {
      const RfcCache::Operand& op = ev_rfc_ops_[i];
      const RfcCache::ReadResult& rr = ev_rfc_res_[i];
      Src s;
      s.reg = op.reg;
      s.dead = op.last;
      s.level = !rr.hit                             ? RfSystemSpec::kLevelMrf
                : (spec_.has_l0() && rr.level == 0) ? RfSystemSpec::kLevelL0
                                                    : RfSystemSpec::kLevelL1;
      slot = op.slot;
      srcs.push_back(s);
    }
  } else if (spec_.sw()) {
    // Every source register in operand order: at its ORF level and entry, else the MRF.
    size_t next = 0;
    for (size_t o = 0; o < in.srcs.size(); ++o) {
      for (int j = 0; j < in.srcs[o].count; ++j) {
        Src s;
        s.reg = in.srcs[o].first + j;
        if (next < ev_orf_reads_.size() && ev_orf_reads_[next].src == static_cast<int>(o) &&
            ev_orf_reads_[next].reg == s.reg) {
          const OrfRd& r = ev_orf_reads_[next++];
          s.level = r.level;
          s.entry = r.entry;
          if (r.level == RfSystemSpec::kLevelL0 && spec_.l0_split) {
            if (r.entry > 2)
              Fail(fmt::format("{}: L0 bank {} of R{} has no operand slot", Where(warp, d.inst),
                               r.entry, s.reg));
            s.slot = r.entry;  // a split L0 bank is read on its own operand slot
            s.entry = 0;
          }
        }
        srcs.push_back(s);
      }
    }
    if (next != ev_orf_reads_.size())
      Fail(fmt::format("{}: the allocation's ORF reads do not follow the source operands",
                       Where(warp, d.inst)));
    const bool orf = std::any_of(srcs.begin(), srcs.end(),
                                 [](const Src& s) { return s.level != RfSystemSpec::kLevelMrf; });
    slot = orf_slot_of_[warp];
    if (slot < 0) {
      if (orf || !results_.empty())
        Fail(fmt::format("{}: the warp uses the ORF without an active slot", Where(warp, d.inst)));
      slot = 0;
    }
  } else {
    for (int r : ev_mrf_reads_)
      srcs.push_back(Src{r, RfSystemSpec::kLevelMrf, 0, -1, false});
  }
  DriveIssue(warp, slot, srcs);
  DriveResults(warp);  // SW ORF fills
  return delay;
}

void RfSystemTop::Writeback(uint64_t cycle, uint32_t warp, const sim::DynInst& d) {
  Enter(cycle, warp, &d);
  rows_->WriteResultRows(warp, d);
  results_.clear();
  inner_.Writeback(cycle, warp, d);
  DriveResults(warp);
  while (!rows_->pending().empty())
    rows_->Commit(warp, rows_->pending().front().first);
}

void RfSystemTop::Activate(uint64_t cycle, uint32_t warp) {
  Enter(cycle, warp, nullptr);
  inner_.Activate(cycle, warp);
  if (spec_.sw() && orf_slot_of_[warp] < 0) {
    auto it = std::find(orf_slot_free_.begin(), orf_slot_free_.end(), true);
    if (it == orf_slot_free_.end())
      Fail(fmt::format("warp {} activated with every ORF slot taken", warp));
    *it = false;
    orf_slot_of_[warp] = static_cast<int>(it - orf_slot_free_.begin());
  }
}

void RfSystemTop::Deactivate(uint64_t cycle, uint32_t warp) {
  Enter(cycle, warp, nullptr);
  ev_flush_.reset();
  inner_.Deactivate(cycle, warp);
  if (ev_flush_)
    DriveFlush(ev_flush_->warp, ev_flush_->slot, ev_flush_->entries);
  if (spec_.sw() && orf_slot_of_[warp] >= 0) {
    const int slot = orf_slot_of_[warp];
    DriveFlush(warp, slot, 0);
    orf_slot_free_[static_cast<size_t>(slot)] = true;
    orf_slot_of_[warp] = -1;
  }
}

void RfSystemTop::Tick(uint64_t cycle) {
  Enter(cycle, warp_, nullptr);
  inner_.Tick(cycle);
  if (!flights_.empty()) {
    ctx_warp_ = flights_.front().warp;
    ctx_inst_ = flights_.front().inst;
    Idle();
    Step();
  }
}

void RfSystemTop::Finish() {
  Settle();
  inner_.Finish();
  act_.rtl_cycles = rtl_cycles_;
}

// ---------------------------------------------------------------------------------------------
// StructureListener: collected for the event being forwarded

void RfSystemTop::Transaction(const StructureTransaction& t) {
  if (const auto* m = t.As<MrfRead>()) {
    ev_mrf_reads_.insert(ev_mrf_reads_.end(), m->regs.begin(), m->regs.end());
  } else if (const auto* w = t.As<MrfWrite>()) {
    Result r;
    r.reg = w->reg;
    r.mrf = true;
    results_.push_back(r);
  } else if (const auto* rr = t.As<RfcRead>()) {
    ev_rfc_ops_.insert(ev_rfc_ops_.end(), rr->ops.begin(), rr->ops.end());
    ev_rfc_res_.insert(ev_rfc_res_.end(), rr->res.begin(), rr->res.end());
  } else if (const auto* rw = t.As<RfcWrite>()) {
    Result r;
    r.reg = rw->reg;
    r.slot = rw->slot;
    r.lng = rw->bypass;
    r.no_l0 = rw->not_l0;
    if (rw->res.to_mrf)
      r.mrf_also = rw->res.to_mrf->reg;
    results_.push_back(r);
  } else if (const auto* f = t.As<RfcFlush>()) {
    ev_flush_ = FlushEv{f->warp, f->slot, f->entries};
  } else if (const auto* orr = t.As<OrfRead>()) {
    ev_orf_reads_.push_back({SrcLevelOf(orr->level), orr->src, orr->reg, orr->entry});
  } else if (const auto* ow = t.As<OrfWrite>()) {
    Result r;
    r.reg = ow->reg;
    r.orf = true;
    r.orf_l0 = ow->level == sp::RfLevel::kL0;
    r.entry = ow->entry;
    r.fill = ow->fill;
    results_.push_back(r);
  } else {
    Fail(fmt::format("the register-file system made a transaction ({}) the top does not take",
                     t.type().name));
  }
}

GPURF_REGISTER(RtlTopKind, rf_system, "rf-system",
               (RtlTopKind{
                   .warp_slots =
                       [](const StructureSpec& s) {
                         const auto& rs = SpecAs<RfSystemSpec>(s);
                         return rs.upper() ? rs.active_warps : 0;
                       },
                   .kernel_problem = KernelProblem,
                   .make = [](const DesignSpec& d, const sim::Kernel& k, const sim::SmConfig& sm,
                              RfSystem& inner, const RtlStructure& top,
                              const RtlLoopOptions& opt) -> std::unique_ptr<RtlTopSystem> {
                     return std::make_unique<RfSystemTop>(d, k, sm, inner, top, opt);
                   },
               }))

}  // namespace gpurf::harness
