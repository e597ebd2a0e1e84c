#include "verif/stimulus/rf_system_stimulus.h"

#include <algorithm>

#include "gen/structures/rf_system/rf_system_spec.h"
#include "models/rf_system_model.h"
#include "verif/stimulus/registry.h"

namespace gpurf {

namespace {
using P = RfSystemCycleModel;
}  // namespace

RfSystemStimulus::RfSystemStimulus(const RfSystemSpec& spec, uint64_t seed)
    : spec_(spec), rng_(seed) {
  slot_warp_.assign(spec_.active_warps, -1);
  warp_slot_.assign(spec_.warps, -1);
  l1_valid_.assign(spec_.active_warps, std::vector<bool>(spec_.l1_entries, false));
  l0_valid_.assign(spec_.active_warps, std::vector<bool>(3, false));
  dead_.assign(spec_.warps, std::vector<bool>(spec_.mrf.regs, false));
  phase_ = PhaseKind::kInit;
  phase_left_ = UINT64_MAX;
}

std::string RfSystemStimulus::Phase() const {
  if (reset_)
    return "reset";
  switch (phase_) {
    case PhaseKind::kInit:
      return "init";
    case PhaseKind::kMixed:
      return "mixed";
    case PhaseKind::kConflicts:
      return "conflicts";
    case PhaseKind::kLevelReads:
      return "level-reads";
    case PhaseKind::kEvictions:
      return "evictions";
    case PhaseKind::kFlushDirty:
      return "flush-dirty";
    case PhaseKind::kBackpressure:
      return "backpressure";
    case PhaseKind::kResetPulse:
      return "reset-pulse";
  }
  return "?";
}

bool RfSystemStimulus::Chance(int num, int den) {
  return std::uniform_int_distribution<int>(0, den - 1)(rng_) < num;
}

int RfSystemStimulus::Rand(int n) {
  return std::uniform_int_distribution<int>(0, n - 1)(rng_);
}

void RfSystemStimulus::PickPhase() {
  static constexpr PhaseKind kPhases[] = {PhaseKind::kMixed,      PhaseKind::kConflicts,
                                          PhaseKind::kLevelReads, PhaseKind::kEvictions,
                                          PhaseKind::kFlushDirty, PhaseKind::kBackpressure,
                                          PhaseKind::kMixed,      PhaseKind::kLevelReads};
  if (Chance(1, 40)) {
    phase_ = PhaseKind::kResetPulse;
    phase_left_ = 1;
    return;
  }
  phase_ = kPhases[Rand(static_cast<int>(std::size(kPhases)))];
  phase_left_ = 200 + static_cast<uint64_t>(Rand(600));
  focus_slot_ = Rand(spec_.active_warps);
}

int RfSystemStimulus::PickReg(int /*warp*/) {
  const int regs = spec_.mrf.regs;
  if (phase_ == PhaseKind::kLevelReads || Chance(1, 2))
    return Rand(std::min(regs, 6));  // hot registers: RFC hits, repeated writes
  return Rand(regs);
}

bool RfSystemStimulus::BlockedReg(int warp, int reg) const {
  auto reads = [&](const Flight& f) {
    return f.warp == warp &&
           std::find(f.mrf_regs.begin(), f.mrf_regs.end(), reg) != f.mrf_regs.end();
  };
  if (issue_offered_ && reads(issue_))
    return true;
  return std::any_of(flights_.begin(), flights_.end(), reads);
}

void RfSystemStimulus::ClearUpper() {
  slot_warp_.assign(slot_warp_.size(), -1);
  warp_slot_.assign(warp_slot_.size(), -1);
  for (auto& v : l1_valid_)
    v.assign(v.size(), false);
  for (auto& v : l0_valid_)
    v.assign(v.size(), false);
  for (auto& v : dead_)
    v.assign(v.size(), false);
  flights_.clear();
  fl_pending_ = false;
}

void RfSystemStimulus::Next(uint64_t cycle, PortValues& in) {
  for (size_t p = 1; p < in.size(); ++p)
    in[p].clear();
  issue_offered_ = false;
  res_offered_ = false;
  issue_ = Flight{};
  issue_dead_ = {};
  if (phase_left_ == 0)
    PickPhase();
  reset_ = cycle < 2 || phase_ == PhaseKind::kResetPulse;
  in[P::kRstN].set_bit(0, !reset_);
  if (reset_)
    return;
  const bool init = phase_ == PhaseKind::kInit;
  const int regs = spec_.mrf.regs;
  auto set = [&](P::Port p, int lsb, int len, uint64_t v) { in[p].set(lsb, len, v); };

  // Deschedule: held until fl_ready_o.
  const int flush_den = phase_ == PhaseKind::kFlushDirty ? 12 : 60;
  if (!init && !fl_pending_ && Chance(1, flush_den)) {
    std::vector<int> active;
    for (int s = 0; s < spec_.active_warps; ++s) {
      if (slot_warp_[s] >= 0)
        active.push_back(s);
    }
    if (!active.empty()) {
      fl_slot_ = phase_ == PhaseKind::kFlushDirty && slot_warp_[focus_slot_] >= 0
                     ? focus_slot_
                     : active[Rand(static_cast<int>(active.size()))];
      fl_warp_ = slot_warp_[fl_slot_];
      fl_pending_ = true;
    }
  }
  if (fl_pending_) {
    in[P::kFlValid].set_bit(0, true);
    set(P::kFlWarp, 0, spec_.warp_width, static_cast<uint64_t>(fl_warp_));
    set(P::kFlSlot, 0, spec_.slot_width, static_cast<uint64_t>(fl_slot_));
  }

  // Activation of a free slot (bookkeeping: the system learns the warp from its traffic).
  if (!init && Chance(1, 4)) {
    const int s = Rand(spec_.active_warps);
    if (slot_warp_[s] < 0) {
      const int w = Rand(spec_.warps);
      if (warp_slot_[w] < 0 && !(fl_pending_ && w == fl_warp_)) {
        slot_warp_[s] = w;
        warp_slot_[w] = s;
      }
    }
  }
  auto usable_slot = [&](int s) { return slot_warp_[s] >= 0 && !(fl_pending_ && s == fl_slot_); };

  // Issue.
  std::vector<std::pair<int, int>> orf_reads;  // (level, entry/bank) read this cycle
  int issue_slot = -1;
  if (!init && Chance(phase_ == PhaseKind::kBackpressure ? 7 : 3, 8)) {
    const int s = Rand(spec_.active_warps);
    if (usable_slot(s) || spec_.hierarchy == RfSystemSpec::Hierarchy::kMrfOnly) {
      const int w = slot_warp_[s] >= 0 ? slot_warp_[s] : Rand(spec_.warps);
      if (!(fl_pending_ && w == fl_warp_)) {
        issue_slot = s;
        issue_offered_ = true;
        issue_.tag = next_tag_++ & ((spec_.tag_width >= 64 ? ~uint64_t{0}
                                                           : (uint64_t{1} << spec_.tag_width) - 1));
        issue_.warp = w;
        in[P::kIssueValid].set_bit(0, true);
        set(P::kIssueTag, 0, spec_.tag_width, issue_.tag);
        set(P::kIssueWarp, 0, spec_.warp_width, static_cast<uint64_t>(w));
        set(P::kIssueSlot, 0, spec_.slot_width, static_cast<uint64_t>(s));
        const int base = Rand(std::max(1, std::min(spec_.mrf.banks, regs)));
        for (int p = 0; p < 3; ++p) {
          if (!Chance(3, 4))
            continue;
          int r = PickReg(w);
          if (phase_ == PhaseKind::kConflicts) {
            const int c = base + p * spec_.mrf.banks;
            r = c < regs ? c : base;
          }
          int level = RfSystemSpec::kLevelMrf;
          int entry = 0;
          if (spec_.sw()) {
            const int up_den = phase_ == PhaseKind::kLevelReads ? 4 : 2;
            if (Chance(up_den - 1, up_den) && phase_ != PhaseKind::kConflicts) {
              std::vector<int> l1;
              for (int e = 0; e < spec_.l1_entries; ++e) {
                if (l1_valid_[s][e])
                  l1.push_back(e);
              }
              const int bank = spec_.l0_split ? p : 0;
              const bool l0_ok = spec_.has_l0() && l0_valid_[s][bank];
              if (l0_ok && (l1.empty() || Chance(1, 2))) {
                level = RfSystemSpec::kLevelL0;
                orf_reads.push_back({2, bank});
              } else if (!l1.empty()) {
                level = RfSystemSpec::kLevelL1;
                entry = l1[Rand(static_cast<int>(l1.size()))];
                orf_reads.push_back({1, entry});
              }
            }
          } else if (spec_.hw()) {
            for (int t = 0; t < 3 && dead_[w][r]; ++t)
              r = PickReg(w);
            if (dead_[w][r])
              continue;
            issue_dead_[p] = Chance(1, phase_ == PhaseKind::kLevelReads ? 4 : 16);
          }
          in[P::kIssueSrcValid].set_bit(p, true);
          set(P::kIssueSrcReg, p * spec_.reg_width, spec_.reg_width, static_cast<uint64_t>(r));
          set(P::kIssueSrcLevel, p * RfSystemSpec::kLevelBits, RfSystemSpec::kLevelBits,
              static_cast<uint64_t>(level));
          set(P::kIssueSrcEntry, p * spec_.entry_width, spec_.entry_width,
              static_cast<uint64_t>(entry));
          in[P::kIssueSrcDead].set_bit(p, issue_dead_[p]);
          issue_regs_[p] = r;
          if (level == RfSystemSpec::kLevelMrf)
            issue_.mrf_regs.push_back(r);
        }
      }
    }
  }

  // Result.
  bool want_res =
      init || Chance(phase_ == PhaseKind::kEvictions || phase_ == PhaseKind::kFlushDirty ? 7 : 1,
                     phase_ == PhaseKind::kEvictions || phase_ == PhaseKind::kFlushDirty ? 8 : 2);
  if (want_res) {
    bool ok = true;
    res_orf_ = res_l0_ = false;
    res_entry_ = 0;
    if (init) {
      res_warp_ = init_next_ / regs;
      res_reg_ = init_next_ % regs;
      res_slot_ = 0;
      res_mrf_ = true;
    } else if (Chance(1, 8)) {
      // A warp without a slot (its long-latency result returns while it is descheduled).
      res_warp_ = Rand(spec_.warps);
      ok = warp_slot_[res_warp_] < 0 && !(fl_pending_ && res_warp_ == fl_warp_);
      res_slot_ = 0;
      res_mrf_ = true;
      res_reg_ = PickReg(res_warp_);
    } else {
      int s = (phase_ == PhaseKind::kEvictions || phase_ == PhaseKind::kFlushDirty)
                  ? focus_slot_
                  : Rand(spec_.active_warps);
      if (!usable_slot(s))
        s = Rand(spec_.active_warps);
      ok = usable_slot(s);
      res_slot_ = s;
      res_warp_ = ok ? slot_warp_[s] : 0;
      res_reg_ = phase_ == PhaseKind::kEvictions ? (stream_reg_++ % regs) : PickReg(res_warp_);
      res_mrf_ = spec_.sw() ? Chance(2, 3) : false;
      if (spec_.sw() && (Chance(1, 2) || phase_ == PhaseKind::kEvictions)) {
        res_orf_ = true;
        res_l0_ = spec_.has_l0() && Chance(1, 2);
        res_entry_ = res_l0_ ? (spec_.l0_split ? Rand(3) : 0) : Rand(spec_.l1_entries);
        const int loc_entry = res_l0_ ? (spec_.l0_split ? res_entry_ : 0) : res_entry_;
        if (s == issue_slot &&
            std::find(orf_reads.begin(), orf_reads.end(),
                      std::make_pair(res_l0_ ? 2 : 1, loc_entry)) != orf_reads.end())
          res_orf_ = false;  // read in this cycle: write it later
      }
      if (spec_.sw() && !res_orf_)
        res_mrf_ = true;
    }
    for (int t = 0; ok && !init && t < 4 && BlockedReg(res_warp_, res_reg_); ++t)
      res_reg_ = PickReg(res_warp_);
    ok = ok && !BlockedReg(res_warp_, res_reg_);
    if (ok) {
      res_offered_ = true;
      in[P::kResValid].set_bit(0, true);
      set(P::kResWarp, 0, spec_.warp_width, static_cast<uint64_t>(res_warp_));
      set(P::kResSlot, 0, spec_.slot_width, static_cast<uint64_t>(res_slot_));
      set(P::kResReg, 0, spec_.reg_width, static_cast<uint64_t>(res_reg_));
      Bits& d = in[P::kResData];
      for (int i = 0; i < spec_.width; i += 64)
        d.set(i, std::min(64, spec_.width - i), rng_());
      in[P::kResMrf].set_bit(0, res_mrf_);
      in[P::kResOrf].set_bit(0, res_orf_);
      in[P::kResOrfL0].set_bit(0, res_l0_);
      set(P::kResOrfEntry, 0, spec_.entry_width, static_cast<uint64_t>(res_entry_));
      if (spec_.hw() && !res_mrf_) {
        in[P::kResLong].set_bit(0, Chance(1, 8));
        in[P::kResNoL0].set_bit(0, Chance(1, 4));
      }
    }
  }

  disp_ready_ = phase_ == PhaseKind::kBackpressure ? Chance(1, 4) : Chance(3, 4);
  in[P::kDispReady].set_bit(0, disp_ready_);
}

void RfSystemStimulus::Observe(uint64_t /*cycle*/, const PortValues& out) {
  if (phase_left_ != UINT64_MAX && phase_left_ > 0)
    --phase_left_;
  if (reset_) {
    ClearUpper();
    return;
  }
  if (issue_offered_ && out[P::kIssueReady].bit(0)) {
    flights_.push_back(issue_);
    for (int p = 0; p < 3; ++p) {
      if (spec_.hw() && issue_dead_[p] && spec_.hints)
        dead_[issue_.warp][issue_regs_[p]] = true;
    }
  }
  if (res_offered_ && out[P::kResReady].bit(0)) {
    dead_[res_warp_][res_reg_] = false;
    if (res_orf_) {
      if (res_l0_)
        l0_valid_[res_slot_][spec_.l0_split ? res_entry_ : 0] = true;
      else
        l1_valid_[res_slot_][res_entry_] = true;
    }
    if (phase_ == PhaseKind::kInit && ++init_next_ == spec_.warps * spec_.mrf.regs)
      phase_left_ = 0;
  }
  if (out[P::kDispValid].bit(0) && disp_ready_) {
    const uint64_t tag = out[P::kDispTag].get(0, spec_.tag_width);
    const auto it = std::find_if(flights_.begin(), flights_.end(),
                                 [&](const Flight& f) { return f.tag == tag; });
    if (it != flights_.end())
      flights_.erase(it);
  }
  if (fl_pending_ && out[P::kFlReady].bit(0)) {
    fl_pending_ = false;
    warp_slot_[fl_warp_] = -1;
    slot_warp_[fl_slot_] = -1;
    l1_valid_[fl_slot_].assign(l1_valid_[fl_slot_].size(), false);
    l0_valid_[fl_slot_].assign(3, false);
  }
}

GPURF_REGISTER(StimulusFamily, rf_system, "rf-system",
               StimulusFamily{
                   [](const StructureSpec& s, uint64_t seed) -> std::unique_ptr<Stimulus> {
                     return std::make_unique<RfSystemStimulus>(SpecAs<RfSystemSpec>(s), seed);
                   }})

}  // namespace gpurf
