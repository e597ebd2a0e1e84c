// The PCRF's transactor in the RTL loop (transactor.h), for the finereg hierarchy
// (finereg_transactions.h; Oh et al., MICRO 2018, sections V-C to V-E): the FineReg system's
// saves and restores become the pcrf RTL's appends and walks, with the kernel's register rows.
//   - Append: one RTL cycle per saved register, its row on app_data_i. Before the edge
//     app_ready_o must be high and app_entry_o the entry the system took (the free-space
//     monitor's find-next-free); after it the pointer table's line of the CTA (q_count_o,
//     q_head_valid_o, q_head_o) and free_count_o must be the system's.
//   - Restore: rs_valid_i for the CTA, then the walk is clocked until every entry came out (at
//     most HopCycles cycles per entry plus the pipeline's fill): each out_valid_o row must be the
//     system's next chain entry in save order (CTA, warp id, register, entry, the end bit on the
//     last only) and out_data_o the row appended for it; the pointer table's line is empty from
//     the acceptance on, and free_count_o after the walk is the system's.
// The RTL is clocked only when it has something to do (a walk takes its cycles at once), so its
// cycle count is not the SM's; the system times the moves (finereg_system.h).
//
// Rows. The PCRF row is one warp register (row_bytes, 32 lanes for the pascal-finereg preset);
// the loop follows the kernel's values of the register home's lane cluster (rtl_loop.h "Data"),
// which fill the row's low bits. The lanes above are a deterministic pattern of the entry, CTA,
// warp, register and append number, so that every data bit of the RTL is exercised and checked
// without claiming kernel values the loop does not follow. A restored row is checked whole
// against the row appended, and its low bits against the register's value for the kernel (a
// value check) unless a result landed in the register while its CTA was switched out
// (PcrfPendingResult: then the ACRF gets the newer value with the restore and the PCRF's row is
// checked against the append only).
//
// Toggles. Each row appended and each row walked out counts its toggles against the previous
// row on the same port (DataActivity::pcrf), over the low bits that hold the kernel's values:
// the pattern lanes would only measure the pattern. `gpurf energy --rtl` rescales the PCRF's
// tag+row writes and chain hops by that activity (rtl_loop.h "Data-dependent switching").
//
// The structure is generated as the design declares it (entries from the PCRF bytes, the row of
// one warp register, the resident CTAs' pointer table); a kernel whose threads have more
// registers than the tag's register index holds is reported as a kernel the loop cannot run.
#include <fmt/format.h>

#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "base/registry.h"
#include "gen/structures/pcrf/pcrf_ports.h"
#include "sim/harness/transactor.h"
#include "sim/harness/transactors/finereg_transactions.h"

namespace gpurf::harness {
namespace {

using P = PcrfPort;

// A CTA's warps beyond the warp id field cannot occur: the preset's CTAs have at most 32 warps
// (1024 threads), and an append checks the warp id's range.
std::string KernelProblem(const StructureSpec& s, const sim::Kernel& k, const sim::SmConfig&) {
  const PcrfSpec& p = SpecAs<PcrfSpec>(s);
  if (k.regs_per_thread > p.regs)
    return fmt::format(
        "kernel {} needs {} registers per thread, the pcrf's register index "
        "names {}",
        k.name, k.regs_per_thread, p.regs);
  return {};
}

// The loop's PCRF names every register a thread can have (256: 8-bit register indices) instead
// of the design's registers per thread: the loop derives the design again for the warps each
// kernel keeps resident, which changes the MRF's registers per thread and with it the pcrf's
// `regs`, and every other value would be another Verilator model of several minutes.
StructureSpec ForLoop(const StructureSpec& s, const sim::SmConfig&) {
  const PcrfSpec& c = SpecAs<PcrfSpec>(s);
  constexpr int kRegs = 256;
  if (c.regs == kRegs)
    return s;
  ParamSet p = c.params;
  p.Set("regs", std::to_string(kRegs), p.Get("regs").loc,
        "the RTL loop (one model for every kernel's register count)");
  return PcrfSpec::FromParams(p);
}

// splitmix64: the pattern of the lanes the loop does not follow.
uint64_t Mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

class PcrfTransactor : public RtlTransactor {
 public:
  PcrfTransactor(const RtlStructure& s, RtlDut dut, RtlLoopContext& ctx)
      : RtlTransactor(std::move(dut), ctx), spec_(SpecAs<PcrfSpec>(s.spec)) {
    if (const std::string p = KernelProblem(s.spec, ctx.kernel(), ctx.sm()); !p.empty())
      throw std::runtime_error("RTL in the loop: " + p);
  }

  bool Transaction(const StructureTransaction& t) override {
    if (const auto* a = t.As<PcrfAppend>()) {
      Append(*a);
    } else if (const auto* r = t.As<PcrfRestore>()) {
      Restore(*r);
    } else if (const auto* p = t.As<PcrfPendingResult>()) {
      if (const auto it = held_.find(Key(p->warp, p->reg)); it != held_.end())
        saved_[static_cast<size_t>(it->second)].superseded = true;
    } else {
      return false;
    }
    return true;
  }

 private:
  struct Saved {
    bool valid = false;
    uint32_t warp = 0;
    int reg = 0;
    Bits row;
    bool superseded = false;  // a result landed in the register after the save
  };

  static uint64_t Key(uint32_t warp, int reg) {
    return (static_cast<uint64_t>(warp) << 32) | static_cast<uint32_t>(reg);
  }
  std::string Where() const { return ctx_.Where(ctx_.warp(), ctx_.inst()); }

  void Start(RtlDut& r) { r.IdleOutOfReset(P::kRstN); }

  void CheckRange(RtlDut& r, int v, int n, const char* what) {
    if (v < 0 || v >= n)
      ctx_.Fail(r,
                fmt::format("{}: {} {} is out of the pcrf's range 0..{}", Where(), what, v, n - 1));
  }

  // The pointer-table line of `cta` and the free count, queried after an edge.
  void CheckPointers(RtlDut& r, int cta, int count, int head, int free, const std::string& what) {
    Start(r);
    r.in[P::kOutReady] = Bits(1, 1);
    r.in[P::kQCta].set(0, spec_.cta_bits, static_cast<uint64_t>(cta));
    ctx_.Eval(r);
    const int got_count = static_cast<int>(r.out[P::kQCount].get(0, spec_.count_bits));
    const bool got_hv = r.out[P::kQHeadValid].bit(0);
    const int got_head = static_cast<int>(r.out[P::kQHead].get(0, spec_.entry_bits));
    const int got_free = static_cast<int>(r.out[P::kFreeCount].get(0, spec_.count_bits));
    if (got_count != count)
      ctx_.Fail(r, fmt::format("{}: after the {}: q_count_o of CTA slot {} is {}, the system's "
                               "chain has {} entries",
                               Where(), what, cta, got_count, count));
    if (got_hv != (count > 0) || (count > 0 && got_head != head))
      ctx_.Fail(r, fmt::format("{}: after the {}: q_head_valid_o {} q_head_o {} for CTA slot {}, "
                               "the system's chain {}",
                               Where(), what, got_hv ? 1 : 0, got_head, cta,
                               count > 0 ? fmt::format("starts at entry {}", head) : "is empty"));
    if (got_free != free)
      ctx_.Fail(r, fmt::format("{}: after the {}: free_count_o is {}, the system has {} free "
                               "PCRF entries",
                               Where(), what, got_free, free));
  }

  // The low bits of a row that hold the kernel's values (the lane cluster the loop follows).
  int FollowedBits() const { return std::min(ctx_.width(), spec_.row_bits); }

  // The row appended: the kernel's row of the register in the low bits, the pattern above.
  Bits Row(const PcrfAppend& a) {
    Bits row(spec_.row_bits);
    const Bits& v = ctx_.rows().Shadow(a.warp, a.reg);
    const int low = std::min(v.width(), spec_.row_bits);
    row.set_slice(0, v.slice(0, low));
    uint64_t seed =
        Mix((static_cast<uint64_t>(a.entry) << 40) ^ (static_cast<uint64_t>(a.cta) << 32) ^
            (uint64_t{a.warp} << 12) ^ static_cast<uint64_t>(a.reg) ^ (appends_ << 48));
    for (int b = low; b < spec_.row_bits; b += 64) {
      seed = Mix(seed);
      const int len = std::min(64, spec_.row_bits - b);
      row.set(b, len, len == 64 ? seed : seed & ((1ULL << len) - 1));
    }
    return row;
  }

  void Append(const PcrfAppend& a) {
    RtlDut& r = dut_;
    CheckRange(r, a.cta, spec_.ctas, "CTA slot");
    CheckRange(r, a.warp_in_cta, spec_.warps, "warp id");
    CheckRange(r, a.reg, spec_.regs, "register");
    CheckRange(r, a.entry, spec_.entries, "entry");
    ctx_.Blame(a.warp, ~0U);
    const Bits row = Row(a);
    ++appends_;
    Start(r);
    r.in[P::kOutReady] = Bits(1, 1);
    r.in[P::kAppValid] = Bits(1, 1);
    r.in[P::kAppCta].set(0, spec_.cta_bits, static_cast<uint64_t>(a.cta));
    r.in[P::kAppWarp].set(0, spec_.warp_bits, static_cast<uint64_t>(a.warp_in_cta));
    r.in[P::kAppReg].set(0, spec_.reg_bits, static_cast<uint64_t>(a.reg));
    r.in[P::kAppData] = row;
    ctx_.activity().pcrf.Transfer(last_append_, row.slice(0, FollowedBits()));
    ctx_.Eval(r);
    const std::string what = fmt::format("save of warp {} (warp id {} of CTA slot {}) r{}", a.warp,
                                         a.warp_in_cta, a.cta, a.reg);
    if (!r.out[P::kAppReady].bit(0))
      ctx_.Fail(r, fmt::format("{}: {}: app_ready_o is 0, the system has a free entry {}", Where(),
                               what, a.entry));
    const int got = static_cast<int>(r.out[P::kAppEntry].get(0, spec_.entry_bits));
    if (got != a.entry)
      ctx_.Fail(r, fmt::format("{}: {}: app_entry_o is {}, the system takes entry {} (the lowest "
                               "free)",
                               Where(), what, got, a.entry));
    ctx_.Clock(r);
    if (saved_.empty())
      saved_.resize(static_cast<size_t>(spec_.entries));
    Saved& s = saved_[static_cast<size_t>(a.entry)];
    if (s.valid)
      ctx_.Fail(r, fmt::format("{}: {}: entry {} is already held by warp {} r{}", Where(), what,
                               a.entry, s.warp, s.reg));
    s = Saved{true, a.warp, a.reg, row, false};
    held_[Key(a.warp, a.reg)] = a.entry;
    CheckPointers(r, a.cta, a.count, a.head, a.free_after, what);
  }

  void Restore(const PcrfRestore& e) {
    RtlDut& r = dut_;
    CheckRange(r, e.cta, spec_.ctas, "CTA slot");
    const std::string what =
        fmt::format("restore of CTA slot {} ({} entries)", e.cta, e.chain.size());
    Start(r);
    r.in[P::kOutReady] = Bits(1, 1);
    r.in[P::kRsValid] = Bits(1, 1);
    r.in[P::kRsCta].set(0, spec_.cta_bits, static_cast<uint64_t>(e.cta));
    ctx_.Eval(r);
    if (!r.out[P::kRsReady].bit(0))
      ctx_.Fail(r, fmt::format("{}: {}: rs_ready_o is 0 with no walk in flight", Where(), what));
    ctx_.Clock(r);
    const int free_before = e.free_after - static_cast<int>(e.chain.size());
    // From the acceptance the CTA's line is empty; no entry is freed before it leaves the walk.
    CheckPointers(r, e.cta, 0, 0, free_before, what + " accepted");
    size_t next = 0;
    // A pipelined walk returns an entry per cycle after HopCycles - 1; an unpipelined one an
    // entry every HopCycles cycles. Beyond that (plus slack for the acceptance) it is stuck.
    const uint64_t bound = (e.chain.size() + 2) * static_cast<uint64_t>(spec_.hop_cycles) + 4;
    for (uint64_t c = 0; c < bound && next < e.chain.size(); ++c) {
      Start(r);
      r.in[P::kOutReady] = Bits(1, 1);
      r.in[P::kQCta].set(0, spec_.cta_bits, static_cast<uint64_t>(e.cta));
      ctx_.Eval(r);
      if (r.out[P::kOutValid].bit(0))
        Returned(r, e, next++, what);
      ctx_.Clock(r);
    }
    if (next < e.chain.size())
      ctx_.Fail(r, fmt::format("{}: {}: the walk returned {} of the chain's {} entries in {} "
                               "cycles",
                               Where(), what, next, e.chain.size(), bound));
    // Nothing more comes out (an entry issued after the last would within HopCycles), and the
    // freed entries are free.
    for (int c = 0; c < spec_.hop_cycles; ++c) {
      Start(r);
      r.in[P::kOutReady] = Bits(1, 1);
      ctx_.Eval(r);
      if (r.out[P::kOutValid].bit(0))
        ctx_.Fail(r, fmt::format("{}: {}: out_valid_o with entry {} after the {} entries of the "
                                 "system's chain",
                                 Where(), what, r.out[P::kOutEntry].get(0, spec_.entry_bits),
                                 e.chain.size()));
      ctx_.Clock(r);
    }
    CheckPointers(r, e.cta, 0, 0, e.free_after, what);
  }

  // Entry `i` of the chain on the output port: the system's, with the row appended.
  void Returned(RtlDut& r, const PcrfRestore& e, size_t i, const std::string& what) {
    const PcrfChainEntry& want = e.chain[i];
    ctx_.Blame(want.warp, ~0U);
    const bool last = i + 1 == e.chain.size();
    const int cta = static_cast<int>(r.out[P::kOutCta].get(0, spec_.cta_bits));
    const int warp = static_cast<int>(r.out[P::kOutWarp].get(0, spec_.warp_bits));
    const int reg = static_cast<int>(r.out[P::kOutReg].get(0, spec_.reg_bits));
    const int entry = static_cast<int>(r.out[P::kOutEntry].get(0, spec_.entry_bits));
    const bool end = r.out[P::kOutLast].bit(0);
    if (cta != e.cta || warp != want.warp_in_cta || reg != want.reg || entry != want.entry ||
        end != last)
      ctx_.Fail(r, fmt::format("{}: {}: restored entry {} of the chain is CTA slot {} warp id {} "
                               "r{} entry {} last {}, the system restores CTA slot {} warp id {} "
                               "r{} entry {} last {}",
                               Where(), what, i, cta, warp, reg, entry, end ? 1 : 0, e.cta,
                               want.warp_in_cta, want.reg, want.entry, last ? 1 : 0));
    Saved& s = saved_.at(static_cast<size_t>(want.entry));
    if (!s.valid || s.warp != want.warp || s.reg != want.reg)
      ctx_.Fail(r, fmt::format("{}: {}: entry {} was not appended for warp {} r{}", Where(), what,
                               want.entry, want.warp, want.reg));
    const Bits& data = r.out[P::kOutData];
    ctx_.activity().pcrf.Transfer(last_walked_, data.slice(0, FollowedBits()));
    if (data != s.row)
      ctx_.Fail(
          r, fmt::format("{}: {}: out_data_o of entry {} (warp {} r{}) is {}, the row "
                         "saved was {}",
                         Where(), what, want.entry, want.warp, want.reg, data.hex(), s.row.hex()));
    ++ctx_.activity().restored_rows;
    if (s.superseded) {
      ++ctx_.activity().restored_superseded;
    } else {
      // The row restored is the register's value for the kernel.
      const Bits& v = ctx_.rows().Shadow(want.warp, want.reg);
      const int low = std::min(v.width(), spec_.row_bits);
      RowExpect x;
      x.check = ctx_.rows().Written(want.warp, want.reg);
      x.value = v.slice(0, low);
      x.mask = ctx_.lane_mask().slice(0, low);
      ctx_.CheckValue(r, "out_data_o", x, data.slice(0, low), want.warp, ~0U);
    }
    held_.erase(Key(s.warp, s.reg));
    s = Saved{};
  }

  PcrfSpec spec_;
  std::vector<Saved> saved_;                // per entry: what the loop appended there
  std::unordered_map<uint64_t, int> held_;  // (warp, register) -> entry
  uint64_t appends_ = 0;
  // The previous row on the append port and on the walk's output port (their data toggles).
  Bits last_append_, last_walked_;
};

}  // namespace

GPURF_REGISTER(RtlPartitionSpec, pcrf_partition, "pcrf", (RtlPartitionSpec{ForLoop}))

GPURF_REGISTER(RtlTransactorKind, pcrf, "pcrf",
               (RtlTransactorKind{
                   .register_home = false,
                   .warp_slots = [](const StructureSpec&) { return 0; },
                   .kernel_problem = KernelProblem,
                   .make = [](const RtlStructure& s, RtlDut dut,
                              RtlLoopContext& ctx) -> std::unique_ptr<RtlTransactor> {
                     return std::make_unique<PcrfTransactor>(s, std::move(dut), ctx);
                   },
               }))

}  // namespace gpurf::harness
