// The SM-harness side of the renaming hierarchy (gen/config/hierarchies/renaming.cc): Jeon et
// al.'s GPU register file virtualization (MICRO 2015, sections 5-8) on the C++ models. The
// system-level model (see docs/renaming-table.md, "In the SM harness"):
//
//   - One renaming map per SM (one register-file partition: the design rejects more) and one
//     availability vector per MRF bank of `regs_per_bank` physical registers, each register one
//     architected register of a whole warp. A register is mapped at its first write (the SM's
//     register events) in the bank of its architected number, to the lowest free register of a
//     powered subarray (a gated subarray is woken only when the powered ones are full: wake_cycles
//     of operand delay), and released by the compiler's pir/pbr flags and at warp exit. Registers
//     the renaming table cannot hold (exempt) get no release flags and stay mapped until exit.
//   - The renaming lookup is one extra pipeline stage: one cycle of operand delay on every
//     instruction with a source register (7.1).
//   - A pir meta instruction covers up to 18 instructions of a block; reaching its first
//     instruction looks it up in the direct-mapped release flag cache (0 entries: no cache); a
//     miss fetches it (one extra issue slot: a cycle of delay). pbr meta instructions at
//     reconvergence points are always fetched.
//   - CTA register balance counters (8.1): per resident CTA and bank, C - k (C: what static
//     allocation would reserve, k: its mapped registers). One CTA is reserved (the minimum
//     counter when every bank can still serve it). Another CTA may map registers only while
//     every bank keeps the reserved CTA's counter free, so the reserved CTA can always finish
//     (no deadlock). When free registers < min_i (C - k_i) (the paper's condition, SM-wide),
//     the throttle is on and only the reserved CTA's warps issue.
//   - Spill fallback: when one CTA needs more registers in a bank than it has, the reserved
//     CTA's allocation in a full bank spills a mapped register of another warp (one coalesced
//     store, counted) and a read of a spilled register fills it (a load: the SM's DRAM latency
//     of operand delay).
//   - Invariants (std::logic_error on violation): no physical register mapped twice; free +
//     mapped = physical registers, per bank; a released mapping is never read before it is
//     rewritten; a throttled CTA never issues while the throttle is on.
#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "base/registry.h"
#include "energy/gebhart.h"
#include "gen/config/derive.h"
#include "sim/harness/hierarchy.h"
#include "sim/harness/transactors/mrf_transactions.h"
#include "sim/harness/transactors/renaming_transactions.h"

namespace gpurf::harness {
namespace {

namespace sp = sim::passes;

struct RenamingParams {
  int banks = 4;
  int per_bank = 256;
  int subarrays = 8;
  int wake_cycles = 1;
  bool gating = true;
  int flag_cache = 10;
  int table_bytes = 1024;
  bool swizzled = false;
  bool jeon_table_energy = false;  // table_energy: jeon-table-2 (else characterized)
};

RenamingParams ParamsOf(const DesignSpec& d) {
  if (d.sections == nullptr)
    throw std::logic_error("renaming: design " + d.name + " was not derived from sections");
  const ParamSet& h = d.sections->sections.at("hierarchy");
  const ParamSet& m = d.sections->sections.at("mrf");
  RenamingParams p;
  p.banks = std::max(1, d.mrf.banks_per_cluster);
  const long long bytes =
      h.Int("physical_bytes") == 0 ? d.mrf.capacity_bytes : h.Int("physical_bytes");
  p.per_bank = static_cast<int>(bytes / (4LL * d.sm.lanes) / p.banks);
  p.subarrays = h.IntAsInt("subarrays");
  p.wake_cycles = h.IntAsInt("wake_cycles");
  p.gating = h.Bool("power_gating");
  p.flag_cache = h.IntAsInt("flag_cache_entries");
  p.table_bytes = h.IntAsInt("table_bytes");
  p.swizzled = m.Enum("interleave") == "warp-swizzled";
  p.jeon_table_energy = h.Enum("table_energy") == "jeon-table-2";
  return p;
}

constexpr int kRegs = 256;

class RenamingSystem : public RfSystem {
 public:
  RenamingSystem(const sim::Kernel& k, const sim::SmConfig& sm, int collectors,
                 const RenamingParams& p, const sp::KernelAnalysis& a)
      : RfSystem(k, sm, p.banks, collectors),
        p_(p),
        flags_(a.release),
        warps_(static_cast<size_t>(sm.warps)),
        owner_(static_cast<size_t>(p.banks), std::vector<int>(static_cast<size_t>(p.per_bank), -1)),
        free_(static_cast<size_t>(p.banks), p.per_bank),
        sub_mapped_(static_cast<size_t>(p.banks),
                    std::vector<int>(static_cast<size_t>(p.subarrays), 0)),
        powered_(static_cast<size_t>(p.banks),
                 std::vector<bool>(static_cast<size_t>(p.subarrays), !p.gating)),
        slots_(static_cast<size_t>(std::max(1, sm.cta_slots))),
        pir_of_(k.code.size(), -1),
        cache_tag_(static_cast<size_t>(std::max(0, p.flag_cache)), -1),
        fill_latency_(sm.lat_dram) {
    if (std::max(1, sm.rf_partitions) != 1)
      throw std::invalid_argument(
          "renaming: the system models one register file per SM (rf_partitions 1)");
    sub_size_ = std::max(1, p.per_bank / p.subarrays);
    powered_count_ = p.gating ? 0 : static_cast<uint64_t>(p.banks) * p.subarrays;
    for (size_t g = 0; g < flags_.pir.size(); ++g)
      pir_of_[flags_.pir[g].first] = static_cast<int>(g);
    regs_ = std::max(1, k.regs_per_thread);
    table_reg_.fill(-1);
    for (size_t i = 0; i < flags_.renamed.size(); ++i)
      table_reg_[flags_.renamed[i]] = static_cast<int>(i);
  }

  bool WantsRegisterEvents() const override { return true; }

  void CtaLaunched(uint64_t cycle, const sim::CtaInfo& c) override {
    Advance(cycle);
    Cta& s = slots_.at(c.slot);
    s = Cta{};
    s.alive = true;
    s.launch = launches_++;
    s.need.assign(static_cast<size_t>(p_.banks), 0);
    s.held.assign(static_cast<size_t>(p_.banks), 0);
    for (uint32_t w : *c.warps) {
      warps_.at(w).cta = static_cast<int>(c.slot);
      for (int r = 0; r < regs_; ++r)
        ++s.need[static_cast<size_t>(Bank(static_cast<int>(w), r))];
      static_regs_ += static_cast<uint64_t>(regs_);
    }
    for (int b = 0; b < p_.banks; ++b)
      spill_mode_ = spill_mode_ || s.need[static_cast<size_t>(b)] > p_.per_bank;
    if (reserved_ < 0)
      reserved_ = static_cast<int>(c.slot);
    Reserve();
    if (listener_ != nullptr)
      listener_->Transaction(CtLaunch(static_cast<int>(c.slot), s.need, After()));
  }

  void CtaFinished(uint64_t cycle, const sim::CtaInfo& c) override {
    Advance(cycle);
    Cta& s = slots_.at(c.slot);
    for (uint32_t w : *c.warps) {
      warps_.at(w).cta = -1;
      static_regs_ -= static_cast<uint64_t>(regs_);
    }
    s.alive = false;
    if (reserved_ == static_cast<int>(c.slot)) {
      reserved_ = -1;
      int best = -1;
      for (size_t i = 0; i < slots_.size(); ++i) {
        if (slots_[i].alive && (best < 0 || Counter(i) < Counter(static_cast<size_t>(best))))
          best = static_cast<int>(i);
      }
      reserved_ = best;
    }
    Reserve();
    if (listener_ != nullptr)
      listener_->Transaction(CtExit(static_cast<int>(c.slot), After()));
  }

  bool CanIssue(uint64_t cycle, uint32_t warp, const sim::DynInst& d) override {
    if (!RfSystem::CanIssue(cycle, warp, d))
      return false;
    // The scheduler's check before it selects the warp (8.1); Issue verifies it was made.
    Warp& w = warps_[warp];
    w.checked_cycle = cycle;
    const bool throttle = ThrottleOn();
    w.checked_ok = !throttle || w.cta == reserved_;
    if (!w.checked_ok)
      ++throttled_;
    if (listener_ != nullptr)
      listener_->Transaction(CtIssueCheck(w.cta, throttle, w.checked_ok));
    return w.checked_ok;
  }

  bool CanAllocate(uint64_t, uint32_t warp, const std::vector<uint16_t>& regs) override {
    const bool ok = Allowed(warp, regs);
    if (listener_ != nullptr) {
      alloc_banks_.clear();
      for (uint16_t r : regs)
        alloc_banks_.push_back(Bank(static_cast<int>(warp), r));
      listener_->Transaction(CtAllocCheck(warps_[warp].cta, alloc_banks_, ok));
    }
    return ok;
  }

  // The allocation check (8.1) of the new registers `regs` of an instruction of `warp`.
  bool Allowed(uint32_t warp, const std::vector<uint16_t>& regs) {
    std::fill(want_.begin(), want_.end(), 0);
    want_.resize(static_cast<size_t>(p_.banks), 0);
    for (uint16_t r : regs)
      ++want_[static_cast<size_t>(Bank(static_cast<int>(warp), r))];
    const int cta = warps_[warp].cta;
    for (int b = 0; b < p_.banks; ++b) {
      const int n = want_[static_cast<size_t>(b)];
      if (n == 0)
        continue;
      if (cta == reserved_) {
        if (free_[static_cast<size_t>(b)] < n && !spill_mode_)
          return Refuse();
        continue;
      }
      // Keep the reserved CTA's worst case free in every bank.
      const int keep =
          reserved_ >= 0 ? std::min(p_.per_bank, Need(static_cast<size_t>(reserved_), b)) : 0;
      if (free_[static_cast<size_t>(b)] - n < keep)
        return Refuse();
    }
    return true;
  }

  void Allocate(uint64_t cycle, uint32_t warp, uint16_t reg) override {
    Advance(cycle);
    Warp& w = warps_[warp];
    if (w.phys[reg] >= 0 || w.spilled[reg])
      throw std::logic_error(fmt::format("renaming: R{} of warp {} allocated twice", reg, warp));
    w.pending_delay += Map(cycle, warp, reg);
    if (listener_ != nullptr && table_reg_[reg] >= 0)
      w.fresh.push_back(reg);
    w.released[reg] = false;
    w.written[reg] = true;
    ++allocs_;
  }

  void Release(uint64_t cycle, uint32_t warp, uint16_t reg) override {
    Advance(cycle);
    Warp& w = warps_[warp];
    int bank = -1;  // the bank of the returned register (none for a spilled one)
    w.released_spilled[reg] = w.spilled[reg];
    if (w.spilled[reg]) {
      w.spilled[reg] = false;
    } else if (w.phys[reg] >= 0) {
      bank = Bank(static_cast<int>(warp), reg);
      if (listener_ != nullptr && table_reg_[reg] >= 0)
        pending_rel_.push_back({warp, reg, Id(static_cast<int>(warp), reg)});
      Unmap(warp, reg);
    } else {
      return;
    }
    w.released[reg] = true;
    w.released_at[reg] = cycle;
    ++releases_;
    // The reservation moves only at a CTA launch or exit (8.1, docs/cta-throttle.md): moving it
    // here, between the allocation check of an issue and its mappings (the SM releases the
    // issue's pir registers first), let the mappings eat the new reserved CTA's worst case.
    if (listener_ != nullptr)
      listener_->Transaction(CtRelease(w.cta, bank, After()));
  }

  int Issue(uint64_t cycle, uint32_t warp, const sim::DynInst& d) override {
    Advance(cycle);
    Warp& w = warps_[warp];
    if (w.checked_cycle != cycle || !w.checked_ok)
      throw std::logic_error(
          fmt::format("renaming: warp {} of throttled CTA slot {} issues while the throttle is on",
                      warp, w.cta));
    const sim::Instruction& in = k_.code[d.inst];
    if (listener_ != nullptr)
      FlushReleases(&d, warp);
    int delay = w.pending_delay;
    w.pending_delay = 0;
    // Source operands: mapped, spilled (fill) or, after a release, a violation.
    for (size_t s = 0; s < in.srcs.size(); ++s) {
      for (int j = 0; j < in.srcs[s].count; ++j) {
        const int r = in.srcs[s].first + j;
        ++lookups_;
        if (w.released_spilled[r] && w.released_at[r] == cycle) {
          // A spilled register released by this very read (pir): the value is loaded from
          // memory for the read, no register is mapped for it (the table holds no mapping).
          if (!PirRead(d, r))
            throw std::logic_error(fmt::format(
                "renaming: warp {} reads spilled R{} at instruction {} after its release", warp, r,
                d.inst));
          w.released_spilled[r] = false;
          delay = std::max(delay, fill_latency_);
          ++fills_;
        } else if (w.spilled[r]) {
          w.spilled[r] = false;
          delay = std::max(delay, fill_latency_ + Map(cycle, warp, r, &in));
          ++fills_;
          if (listener_ != nullptr && table_reg_[r] >= 0)
            listener_->Transaction(RtDestination(warp, table_reg_[r], Id(static_cast<int>(warp), r),
                                                 /*alloc=*/true));
        } else if (w.phys[r] < 0 && w.released[r]) {
          // Released in this cycle by this very read (pir): the read comes first.
          // (any operand slot of the instruction naming r may carry the flag).
          if (!PirRead(d, r) || w.released_at[r] != cycle)
            throw std::logic_error(
                fmt::format("renaming: warp {} reads R{} at instruction {} after its release", warp,
                            r, d.inst));
        }
      }
    }
    for (const auto& o : in.dsts) {
      for (int j = 0; j < o.count; ++j) {
        const int r = o.first + j;
        ++lookups_;
        if (w.spilled[r]) {  // overwritten: a register again, nothing to load
          w.spilled[r] = false;
          delay = std::max(delay, Map(cycle, warp, r, &in));
          if (listener_ != nullptr && table_reg_[r] >= 0)
            w.fresh.push_back(static_cast<uint16_t>(r));
        }
      }
    }
    if (listener_ != nullptr)
      ReportInstruction(warp, in);
    // The pir meta instruction of the group this instruction starts.
    if (const int g = pir_of_[d.inst]; g >= 0) {
      if (cache_tag_.empty()) {
        ++pir_misses_;
        delay += 1;
      } else {
        auto& tag = cache_tag_[static_cast<size_t>(g) % cache_tag_.size()];
        const bool hit = tag == g;
        if (hit) {
          ++pir_hits_;
        } else {
          tag = g;
          ++pir_misses_;
          delay += 1;
        }
        // (a one-entry cache has no structure: the release-flag-cache family needs two)
        if (listener_ != nullptr && cache_tag_.size() >= 2)
          listener_->Transaction(FcLookup(g, hit, flags_.pir[static_cast<size_t>(g)].flags));
      }
    }
    if (pbr_meta_.empty()) {
      pbr_meta_.assign(k_.code.size(), 0);
      for (const auto& p : flags_.pbr)
        pbr_meta_[p.inst] = p.meta_instructions;
    }
    pbr_fetches_ += static_cast<uint64_t>(pbr_meta_[d.inst]);
    return RfSystem::Issue(cycle, warp, d) + delay;
  }

  void Tick(uint64_t cycle) override {
    last_cycle_ = std::max(last_cycle_, cycle);
    if (listener_ != nullptr)
      FlushReleases(nullptr, 0);
    RfSystem::Tick(cycle);
  }

  void Finish() override {
    if (listener_ != nullptr)
      FlushReleases(nullptr, 0);
    RfSystem::Finish();
    Advance(last_cycle_ + 1);
    CheckBanks();
    auto ev = [&](int i, uint64_t v) { st_.counts.events[static_cast<size_t>(i)] = v; };
    ev(ev_lookup_, lookups_);
    ev(ev_alloc_, allocs_);
    ev(ev_release_, releases_);
    ev(ev_pir_hit_, pir_hits_);
    ev(ev_pir_miss_, pir_misses_);
    ev(ev_pbr_, pbr_fetches_);
    ev(ev_wake_, wakes_);
    ev(ev_powered_, powered_cycles_);
    ev(ev_table_on_, last_cycle_ + 1);  // the SM's cycles through its last event
    ev(ev_mapped_, mapped_cycles_);
    ev(ev_static_, static_cycles_);
    ev(ev_peak_, peak_mapped_);
    ev(ev_throttled_, throttled_);
    ev(ev_spill_, spills_);
    ev(ev_fill_, fills_);
  }

 protected:
  void ReadOperands(uint32_t, const sim::DynInst& d, std::vector<int>& mrf) override {
    const sim::Instruction& in = k_.code[d.inst];
    const bool sh = sim::IsSharedUnit(in.op_class);
    for (const auto& o : in.srcs) {
      for (int j = 0; j < o.count; ++j) {
        Read(mrf_level_, sh);
        mrf.push_back(o.first + j);
      }
    }
  }
  bool ReadsMrf(uint32_t, const sim::DynInst& d) const override {
    return !k_.code[d.inst].srcs.empty();
  }
  // The MRF is the register home of the RTL loop with architected indices: its rows stay
  // (warp, architected register), as the SM and the MRF transactor name them, and the physical
  // register the renaming chose is checked in the renaming table and availability vectors
  // transactions instead. The MRF's RTL is the architected file's (the design's mrf section), so
  // every (warp, register) has its row; a smaller physical file (GPU-shrink) is the renaming's
  // bookkeeping (docs/renaming-table.md, "RTL in the loop").
  void WriteResults(uint32_t warp, const sim::DynInst& d) override {
    const sim::Instruction& in = k_.code[d.inst];
    const bool sh = sim::IsSharedUnit(in.op_class);
    for (const auto& o : in.dsts)
      Write(mrf_level_, sh, static_cast<uint64_t>(o.count));
    if (listener_ != nullptr)
      ForEachReg(in.dsts, [&](int r) { listener_->Transaction(MrfWrite(warp, r)); });
  }
  int ExtraDelay(const sim::DynInst& d) const override {
    return k_.code[d.inst].srcs.empty() ? 0 : 1;  // the renaming lookup stage
  }
  void ResolveCounts(const energy::Energies& e) override {
    ev_lookup_ = e.ComponentIndex("renaming lookups");
    ev_alloc_ = e.ComponentIndex("renaming allocations");
    ev_release_ = e.ComponentIndex("renaming releases");
    ev_pir_hit_ = e.ComponentIndex("flag cache hits");
    ev_pir_miss_ = e.ComponentIndex("pir fetches");
    ev_pbr_ = e.ComponentIndex("pbr fetches");
    ev_wake_ = e.ComponentIndex("subarray wake-ups");
    ev_powered_ = e.ComponentIndex("powered subarray-cycles");
    ev_table_on_ = e.ComponentIndex("renaming table cycles");
    ev_mapped_ = e.ComponentIndex("mapped register-cycles");
    ev_static_ = e.ComponentIndex("static register-cycles");
    ev_peak_ = e.ComponentIndex("peak mapped registers");
    ev_throttled_ = e.ComponentIndex("throttled issue refusals");
    ev_spill_ = e.ComponentIndex("register spills");
    ev_fill_ = e.ComponentIndex("register fills");
  }

 private:
  struct Warp {
    int cta = -1;
    int pending_delay = 0;
    uint64_t checked_cycle = ~uint64_t{0};  // the last CanIssue and its answer
    bool checked_ok = false;
    std::array<int16_t, kRegs> phys;
    std::array<bool, kRegs> spilled{}, released{}, written{};
    std::array<uint64_t, kRegs> released_at{};
    // Released while spilled (its value in memory), at released_at: the read that releases it
    // (pir) still loads the value.
    std::array<bool, kRegs> released_spilled{};
    // Renamed registers mapped since the warp's last issue (RTL in the loop: the renaming table
    // maps them in the destination requests of that issue).
    std::vector<uint16_t> fresh;
    Warp() { phys.fill(-1); }
  };
  struct Cta {
    bool alive = false;
    uint64_t launch = 0;
    std::vector<int> need, held;  // per bank: C and k
  };

  int Bank(int warp, int r) const { return (p_.swizzled ? warp + r : r) % p_.banks; }
  // The physical id of register r of `warp` (mapped): row * banks + bank, the availability
  // vectors' and the renaming table's name of it.
  int Id(int warp, int r) const {
    return warps_[static_cast<size_t>(warp)].phys[static_cast<size_t>(r)] * p_.banks +
           Bank(warp, r);
  }

  // ---- RTL in the loop: the renaming-table transactions (renaming_transactions.h). The table
  // sees a release flag where the hardware applies it: a pir release with the read that carries
  // it (the source's release bit), a pbr or exit release as a release request before the next
  // issue (or at the cycle's end), and a first write as the destination request after the
  // instruction's lookups (the id may be one a source of the same instruction just released).

  // Whether register r of `d` is read in an operand slot with its pir bit (a release this
  // cycle by this very read).
  bool PirRead(const sim::DynInst& d, int r) const {
    const sim::Instruction& in = k_.code[d.inst];
    const auto& rel = flags_.release;
    for (size_t t = 0; d.inst < rel.size() && t < in.srcs.size() && t < rel[d.inst].size(); ++t) {
      if (rel[d.inst][t] != 0 && r >= in.srcs[t].first && r < in.srcs[t].first + in.srcs[t].count)
        return true;
    }
    return false;
  }

  // Reports the pending releases as release requests, per warp in order, except those of warp
  // `keep_warp` that instruction `d` (non-null) reads with its pir bit.
  void FlushReleases(const sim::DynInst* d, uint32_t keep_warp) {
    std::stable_sort(
        pending_rel_.begin(), pending_rel_.end(),
        [](const PendingRelease& a, const PendingRelease& b) { return a.warp < b.warp; });
    size_t kept = 0;
    for (size_t i = 0; i < pending_rel_.size();) {
      const uint32_t warp = pending_rel_[i].warp;
      rel_regs_.clear();
      size_t j = i;
      for (; j < pending_rel_.size() && pending_rel_[j].warp == warp; ++j) {
        const PendingRelease& p = pending_rel_[j];
        if (d != nullptr && warp == keep_warp && PirRead(*d, p.reg))
          pending_rel_[kept++] = p;
        else
          rel_regs_.emplace_back(table_reg_[p.reg], p.phys);
      }
      if (!rel_regs_.empty())
        listener_->Transaction(RtRelease(warp, rel_regs_, !HoldsMapping(warp)));
      i = j;
    }
    pending_rel_.resize(kept);
  }

  // Whether `warp` holds a mapping of a renamed register (the table has a valid entry of it).
  bool HoldsMapping(uint32_t warp) const {
    const Warp& w = warps_[warp];
    for (uint16_t r : flags_.renamed) {
      if (w.phys[r] >= 0)
        return true;
    }
    return false;
  }

  // The lookups of instruction `d` (its renamed sources, once each, with the pir bit) and its
  // destinations (every renamed one: mapped now or already).
  void ReportInstruction(uint32_t warp, const sim::Instruction& in) {
    Warp& w = warps_[warp];
    srcs_.clear();
    ForEachReg(in.srcs, [&](int r) {
      const int t = table_reg_[static_cast<size_t>(r)];
      if (t < 0)
        return;
      for (const RtSource& s : srcs_) {
        if (s.reg == t)
          return;
      }
      RtSource s;
      s.reg = t;
      for (const PendingRelease& p : pending_rel_) {
        if (p.warp == warp && p.reg == r) {
          s.release = true;
          s.phys = p.phys;
        }
      }
      // A source this issue maps again as its destination (fresh: released by this read while
      // spilled) had no mapping when it was read.
      const bool remapped = std::find(w.fresh.begin(), w.fresh.end(), r) != w.fresh.end();
      if (!s.release && !remapped && w.phys[static_cast<size_t>(r)] >= 0)
        s.phys = Id(static_cast<int>(warp), r);
      srcs_.push_back(s);
    });
    pending_rel_.clear();  // (FlushReleases left only this instruction's pir releases)
    if (!srcs_.empty())
      listener_->Transaction(RtLookup(warp, srcs_));
    dsts_.clear();
    ForEachReg(in.dsts, [&](int r) {
      if (table_reg_[static_cast<size_t>(r)] >= 0 &&
          std::find(dsts_.begin(), dsts_.end(), r) == dsts_.end())
        dsts_.push_back(r);
    });
    for (int r : dsts_) {
      if (w.phys[static_cast<size_t>(r)] < 0)
        continue;
      const bool fresh = std::find(w.fresh.begin(), w.fresh.end(), r) != w.fresh.end();
      listener_->Transaction(RtDestination(warp, table_reg_[static_cast<size_t>(r)],
                                           Id(static_cast<int>(warp), r), fresh));
    }
    w.fresh.clear();
  }
  int Need(size_t cta, int b) const {
    return slots_[cta].need[static_cast<size_t>(b)] - slots_[cta].held[static_cast<size_t>(b)];
  }
  int64_t Counter(size_t cta) const {
    int64_t c = 0;
    for (int b = 0; b < p_.banks; ++b)
      c += Need(cta, b);
    return c;
  }
  bool Refuse() { return false; }
  // The throttle state after an event (RTL in the loop: the cta-throttle's transactions).
  CtState After() const { return {reserved_, &free_, spill_mode_, ThrottleOn()}; }

  // Whether every bank can still serve CTA `cta`'s worst case.
  bool Serves(size_t cta) const {
    for (int b = 0; b < p_.banks; ++b) {
      if (free_[static_cast<size_t>(b)] < Need(cta, b))
        return false;
    }
    return true;
  }
  // The reserved CTA follows the minimum counter while every bank can serve that CTA.
  void Reserve() {
    int best = -1;
    for (size_t i = 0; i < slots_.size(); ++i) {
      if (slots_[i].alive && (best < 0 || Counter(i) < Counter(static_cast<size_t>(best))))
        best = static_cast<int>(i);
    }
    if (best >= 0 && best != reserved_ && Serves(static_cast<size_t>(best)))
      reserved_ = best;
  }
  int64_t FreeTotal() const {
    int64_t f = 0;
    for (int x : free_)
      f += x;
    return f;
  }
  // The paper's condition: free physical registers below every CTA's remaining worst case.
  bool ThrottleOn() const {
    int alive = 0;
    int64_t lo = std::numeric_limits<int64_t>::max();
    for (size_t i = 0; i < slots_.size(); ++i) {
      if (slots_[i].alive) {
        ++alive;
        lo = std::min(lo, Counter(i));
      }
    }
    return alive > 1 && FreeTotal() < lo;
  }

  // Maps register r of `warp` in its bank; spills another register when the bank is full (spill
  // mode). Returns the wake-up delay.
  int Map(uint64_t cycle, uint32_t warp, int r, const sim::Instruction* in = nullptr) {
    const int b = Bank(static_cast<int>(warp), r);
    auto& owners = owner_[static_cast<size_t>(b)];
    const int spill_cta = free_[static_cast<size_t>(b)] == 0 ? SpillOne(warp, b, in) : -1;
    int pick = -1;
    for (int s = 0; s < p_.subarrays && pick < 0; ++s) {
      if (!powered_[static_cast<size_t>(b)][static_cast<size_t>(s)])
        continue;
      for (int q = s * sub_size_; q < (s + 1) * sub_size_ && q < p_.per_bank; ++q) {
        if (owners[static_cast<size_t>(q)] < 0) {
          pick = q;
          break;
        }
      }
    }
    int delay = 0;
    bool woke = false;
    if (pick < 0) {  // wake the first gated subarray with a free register
      for (int q = 0; q < p_.per_bank; ++q) {
        if (owners[static_cast<size_t>(q)] < 0) {
          pick = q;
          break;
        }
      }
      if (pick < 0)
        throw std::logic_error(fmt::format("renaming: bank {} has no free register", b));
      const int s = pick / sub_size_;
      woke = true;
      powered_[static_cast<size_t>(b)][static_cast<size_t>(s)] = true;
      ++powered_count_;
      ++wakes_;
      delay = p_.wake_cycles;
    }
    if (owners[static_cast<size_t>(pick)] >= 0)
      throw std::logic_error(
          fmt::format("renaming: physical register {} of bank {} mapped twice", pick, b));
    if (listener_ != nullptr)
      listener_->Transaction(AvAllocate(b, pick, woke, free_[static_cast<size_t>(b)]));
    owners[static_cast<size_t>(pick)] = static_cast<int>(warp) * kRegs + r;
    warps_[warp].phys[static_cast<size_t>(r)] = static_cast<int16_t>(pick);
    --free_[static_cast<size_t>(b)];
    ++sub_mapped_[static_cast<size_t>(b)][static_cast<size_t>(pick / sub_size_)];
    ++mapped_;
    peak_mapped_ = std::max(peak_mapped_, mapped_);
    if (const int c = warps_[warp].cta; c >= 0)
      ++slots_[static_cast<size_t>(c)].held[static_cast<size_t>(b)];
    if (listener_ != nullptr)
      listener_->Transaction(CtMap(warps_[warp].cta, b, spill_cta, After()));
    (void)cycle;
    return delay;
  }

  void Unmap(uint32_t warp, int r) {
    Warp& w = warps_[warp];
    const int b = Bank(static_cast<int>(warp), r);
    const int q = w.phys[static_cast<size_t>(r)];
    auto& owners = owner_[static_cast<size_t>(b)];
    if (owners[static_cast<size_t>(q)] != static_cast<int>(warp) * kRegs + r)
      throw std::logic_error(
          fmt::format("renaming: release of R{} of warp {}: physical {} of "
                      "bank {} is not its mapping",
                      r, warp, q, b));
    if (listener_ != nullptr)
      listener_->Transaction(AvRelease(b, q, free_[static_cast<size_t>(b)]));
    owners[static_cast<size_t>(q)] = -1;
    w.phys[static_cast<size_t>(r)] = -1;
    ++free_[static_cast<size_t>(b)];
    --mapped_;
    const int s = q / sub_size_;
    if (--sub_mapped_[static_cast<size_t>(b)][static_cast<size_t>(s)] == 0 && p_.gating) {
      powered_[static_cast<size_t>(b)][static_cast<size_t>(s)] = false;
      --powered_count_;
    }
    if (w.cta >= 0)
      --slots_[static_cast<size_t>(w.cta)].held[static_cast<size_t>(b)];
  }

  // Spill fallback: a mapped register of bank b, preferably of another CTA, never one of the
  // requesting instruction's operands. Returns the CTA slot of the spilled register's warp.
  int SpillOne(uint32_t warp, int b, const sim::Instruction* in) {
    if (!spill_mode_)
      throw std::logic_error(
          fmt::format("renaming: bank {} full for warp {} without a spill fallback", b, warp));
    const auto& owners = owner_[static_cast<size_t>(b)];
    int victim = -1, fallback = -1;
    for (int q = 0; q < p_.per_bank; ++q) {
      const int o = owners[static_cast<size_t>(q)];
      if (o < 0)
        continue;
      const auto ow = static_cast<uint32_t>(o / kRegs);
      const int r = o % kRegs;
      if (ow == warp && in != nullptr) {
        bool used = false;
        for (const auto* ops : {&in->srcs, &in->dsts}) {
          for (const auto& op : *ops)
            used = used || (r >= op.first && r < op.first + op.count);
        }
        if (used)
          continue;
      }
      if (warps_[ow].cta != warps_[warp].cta) {
        victim = o;
        break;
      }
      if (fallback < 0 && ow != warp)
        fallback = o;
      else if (fallback < 0)
        fallback = o;
    }
    if (victim < 0)
      victim = fallback;
    if (victim < 0)
      throw std::logic_error(fmt::format("renaming: nothing to spill in bank {}", b));
    const auto vw = static_cast<uint32_t>(victim / kRegs);
    if (listener_ != nullptr && table_reg_[static_cast<size_t>(victim % kRegs)] >= 0) {
      // The table releases the spilled mapping now, unless it never saw it (a destination of
      // the issue being prepared: its destination request is not made).
      auto& fresh = warps_[vw].fresh;
      const auto it = std::find(fresh.begin(), fresh.end(), victim % kRegs);
      if (it != fresh.end()) {
        fresh.erase(it);
      } else {
        rel_regs_.assign(1, {table_reg_[static_cast<size_t>(victim % kRegs)],
                             Id(static_cast<int>(vw), victim % kRegs)});
        listener_->Transaction(RtRelease(vw, rel_regs_, false));
      }
    }
    Unmap(vw, victim % kRegs);
    warps_[vw].spilled[static_cast<size_t>(victim % kRegs)] = true;
    ++spills_;
    return warps_[vw].cta;
  }

  void Advance(uint64_t cycle) {
    last_cycle_ = std::max(last_cycle_, cycle);
    if (cycle <= now_)
      return;
    const uint64_t dt = cycle - now_;
    powered_cycles_ += powered_count_ * dt;
    mapped_cycles_ += mapped_ * dt;
    static_cycles_ += static_regs_ * dt;
    now_ = cycle;
  }

  void CheckBanks() const {
    for (int b = 0; b < p_.banks; ++b) {
      int held = 0;
      for (int o : owner_[static_cast<size_t>(b)])
        held += o >= 0;
      if (held + free_[static_cast<size_t>(b)] != p_.per_bank)
        throw std::logic_error(fmt::format("renaming: bank {}: {} free + {} mapped != {}", b,
                                           free_[static_cast<size_t>(b)], held, p_.per_bank));
    }
  }

  RenamingParams p_;
  const sp::ReleaseFlags& flags_;
  // RTL in the loop: the table register of each architected one (-1: not renamed), releases
  // not yet reported to the table, scratch lists of the transactions.
  struct PendingRelease {
    uint32_t warp;
    int reg, phys;
  };
  std::array<int, kRegs> table_reg_{};
  std::vector<PendingRelease> pending_rel_;
  std::vector<std::pair<int, int>> rel_regs_;
  std::vector<RtSource> srcs_;
  std::vector<int> dsts_;
  std::vector<int> alloc_banks_;
  std::vector<Warp> warps_;
  std::vector<std::vector<int>> owner_;  // per bank, per physical register: warp*256+reg or -1
  std::vector<int> free_;
  std::vector<std::vector<int>> sub_mapped_;
  std::vector<std::vector<bool>> powered_;
  std::vector<Cta> slots_;
  std::vector<int> pir_of_;     // instruction -> pir group it starts, or -1
  std::vector<int> cache_tag_;  // release flag cache: the pir group each entry holds
  std::vector<int> pbr_meta_;
  std::vector<int> want_;
  int fill_latency_;
  int sub_size_ = 1;
  int regs_ = 1;
  int reserved_ = -1;
  bool spill_mode_ = false;
  uint64_t launches_ = 0;
  uint64_t now_ = 0, last_cycle_ = 0;
  uint64_t powered_count_ = 0, mapped_ = 0, static_regs_ = 0, peak_mapped_ = 0;
  uint64_t lookups_ = 0, allocs_ = 0, releases_ = 0, pir_hits_ = 0, pir_misses_ = 0;
  uint64_t pbr_fetches_ = 0, wakes_ = 0, powered_cycles_ = 0, mapped_cycles_ = 0;
  uint64_t static_cycles_ = 0, throttled_ = 0, spills_ = 0, fills_ = 0;
  int ev_lookup_ = -1, ev_alloc_ = -1, ev_release_ = -1, ev_pir_hit_ = -1, ev_pir_miss_ = -1;
  int ev_pbr_ = -1, ev_wake_ = -1, ev_powered_ = -1, ev_mapped_ = -1, ev_static_ = -1;
  int ev_peak_ = -1, ev_throttled_ = -1, ev_spill_ = -1, ev_fill_ = -1, ev_table_on_ = -1;
};

// The MRF of Gebhart's frame (the baseline counts into it too) and the renaming events. Per
// event (`table_energy: characterized`, the default): the renaming table's lookup, allocation
// and release and the release flag cache's lookup and fill from gpurf's own characterization
// (docs/renaming-table.md, "Characterization": gate-level, OSU 0.18 um scaled to 40 nm; the
// table at its 1 KB default of 48 warp slots, the flag cache at its 10 x 54-bit default). A
// flag cache hit is a lookup, a pir fetch with a cache a lookup and a fill. With
// `table_energy: jeon-table-2`, Jeon Table 2's 1.14 pJ per 1 KB table access (40 nm, CACTI 5.3)
// for lookups, allocations and releases, and the flag cache unpriced. Leakage (Jeon Table 2, 40
// nm): a 4 KB register subarray leaks 2.8 mW, scaled by bytes to ours (kSubarrayLeakMwPer4K); the
// renaming table 0.27 mW per bank, 4 banks. The design pays its powered subarray-cycles and
// one table per SM-cycle (ComponentEnergy::leakage_mw); the MRF level carries the ungated
// architected file's leakage, which the driver charges to the MRF-only baseline only (every
// subarray of every SM for the whole kernel). The fetch of a meta instruction and the
// availability vectors have no published figure here: counted only (0 pJ). The leakage stays
// Jeon's: the OSU 0.18 um library's leakage (under 1 uW for the whole table) is not scaled and
// says nothing about a 40 nm SRAM's.
constexpr double kSubarrayLeakMwPer4K = 2.8;
constexpr double kTableLeakMw = 4 * 0.27;
constexpr double kJeonTablePj = 1.14;
constexpr double kLookupPj = 1.373, kAllocPj = 6.744, kReleasePj = 4.870;
constexpr double kFlagLookupPj = 0.735, kFlagFillPj = 0.688;

energy::Energies RenamingEnergies(const DesignSpec& d, int slots,
                                  const sp::RegisterFileEnergies& pe, const std::string& json) {
  energy::Energies e;
  energy::LevelEnergy mrf = energy::gebhart::Level("MRF", d.hierarchy.l1_entries_per_thread, slots);
  mrf.read_pj = pe.mrf_read_pj;
  mrf.write_pj = pe.mrf_write_pj;
  mrf.mm = {pe.mrf_private_mm, pe.mrf_shared_mm};
  if (!json.empty())
    mrf.source = pe.source + " (characterization " + json + ")";
  mrf.leakage_mw = kSubarrayLeakMwPer4K * static_cast<double>(d.mrf.capacity_bytes) / 4096.0;
  e.levels.push_back(std::move(mrf));
  auto comp = [&](const char* name, const char* label, double pj, const char* source,
                  double leakage_mw = 0) {
    e.components.push_back({name, label, pj, source, leakage_mw});
  };
  const RenamingParams p = ParamsOf(d);
  const double subarray_bytes =
      static_cast<double>(std::max(1, p.per_bank / p.subarrays)) * 4.0 * d.sm.lanes;
  const char* none = "counted only";
  if (p.jeon_table_energy) {
    const char* table = "Jeon Table 2 (renaming table, 40 nm)";
    comp("renaming lookups", "rt", kJeonTablePj, table);
    comp("renaming allocations", "alloc", kJeonTablePj, table);
    comp("renaming releases", "rel", kJeonTablePj, table);
    comp("flag cache hits", "fc hit", 0, none);
    comp("pir fetches", "pir", 0, none);
  } else {
    const char* table = "gpurf characterization (renaming table, 1 KB default, 40 nm)";
    comp("renaming lookups", "rt", kLookupPj, table);
    comp("renaming allocations", "alloc", kAllocPj, table);
    comp("renaming releases", "rel", kReleasePj, table);
    const bool cache = p.flag_cache > 0;
    comp("flag cache hits", "fc hit", cache ? kFlagLookupPj : 0,
         cache ? "gpurf characterization (release flag cache lookup, 10 x 54 bits, 40 nm)" : none);
    comp("pir fetches", "pir", cache ? kFlagLookupPj + kFlagFillPj : 0,
         cache ? "gpurf characterization (release flag cache lookup + fill; the fetch unpriced)"
               : none);
  }
  comp("pbr fetches", "pbr", 0, none);
  comp("subarray wake-ups", "wake", 0, none);
  comp("powered subarray-cycles", "on", 0, "leakage: Jeon Table 2 (2.8 mW per 4 KB subarray)",
       kSubarrayLeakMwPer4K * subarray_bytes / 4096.0);
  comp("renaming table cycles", "rt on", 0, "leakage: Jeon Table 2 (4 banks x 0.27 mW)",
       kTableLeakMw);
  comp("mapped register-cycles", "mapped", 0, none);
  comp("static register-cycles", "static", 0, none);
  comp("peak mapped registers", "peak", 0, none);
  comp("throttled issue refusals", "thr", 0, none);
  comp("register spills", "spill", 0, none);
  comp("register fills", "fill", 0, none);
  e.row_bits = 128;
  e.pj_per_mm_word = pe.wire_pj_per_mm_32bit;
  e.writeback_mm = pe.mrf_private_mm;
  return e;
}

}  // namespace

GPURF_REGISTER(
    HarnessHierarchy, renaming, "renaming",
    (HarnessHierarchy{
        .allocated_levels = [](const DesignSpec&) { return 1; },
        .make_system = [](const DesignSpec& d, const sim::Kernel& k, const sim::SmConfig& sm,
                          const sp::KernelAnalysis& a,
                          const HarnessOptions& opt) -> std::unique_ptr<RfSystem> {
          return std::make_unique<RenamingSystem>(k, sm, opt.mrf_collectors, ParamsOf(d), a);
        },
        .describe = [](const DesignSpec& d, const HarnessOptions&, int) -> std::string {
          const RenamingParams p = ParamsOf(d);
          return fmt::format(
              "renaming: {} physical registers ({} banks x {}), {} subarrays/bank{}, wake {} "
              "cycles, flag cache {} entries, table {} bytes",
              p.banks * p.per_bank, p.banks, p.per_bank, p.subarrays, p.gating ? " gated" : "",
              p.wake_cycles, p.flag_cache, p.table_bytes);
        },
        // The renaming table, the CTA throttle, the availability vectors (their RTL always
        // power-gates empty subarrays: in the loop only when the system gates too) and the
        // release flag cache (when the design has one), as gen/config/hierarchies/renaming.cc
        // names them.
        .rtl_structures =
            [](const DesignSpec& d) {
              const RenamingParams p = ParamsOf(d);
              std::vector<std::string> v = {"renaming_table", "cta_throttle"};
              if (p.gating)
                v.emplace_back("availability_vectors");
              if (p.flag_cache >= 2)
                v.emplace_back("release_flag_cache");
              return v;
            },
        .compiler_note =
            [](const DesignSpec& d) {
              return fmt::format(
                  "design '{}' renames registers: the compiler provides release flags (pir after "
                  "a last read, pbr at reconvergence) for the registers the renaming table holds",
                  d.name);
            },
        .energies = RenamingEnergies,
        .release_config =
            [](const DesignSpec& d, const sim::SmConfig& sm) {
              const RenamingParams p = ParamsOf(d);
              sp::ReleaseConfig c;
              c.budget_bytes = p.table_bytes;
              c.physical_registers = p.banks * p.per_bank;
              c.resident_warps = sm.warps;
              return c;
            },
    }))

}  // namespace gpurf::harness
