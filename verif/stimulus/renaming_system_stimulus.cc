#include "verif/stimulus/renaming_system_stimulus.h"

#include <algorithm>

#include "gen/structures/renaming_system/renaming_system_ports.h"
#include "verif/stimulus/registry.h"

namespace gpurf {

namespace {
using P = RenamingSystemPort;
constexpr int kResetCycles = 3;
constexpr int kCtaDrainCycles = 48;     // a warp exit's frees are done (window / table banks)
constexpr uint64_t kEpisodeGap = 3000;  // cycles from the end of a throttle episode to the next
}  // namespace

RenamingSystemStimulus::RenamingSystemStimulus(const RenamingSystemSpec& spec, uint64_t seed)
    : spec_(spec), rng_(seed) {
  // The kernel's registers: every exempt one, and per bank at most (Pb - 1) / Wc renamed ones,
  // so that one CTA's worst case plus the rename stage's register fits a bank.
  const int cap = (spec_.per_bank - 1) / spec_.warps_per_cta;
  std::vector<int> per_bank(spec_.banks, 0);
  for (int r = 0; r < spec_.regs; ++r) {
    if (r < spec_.exempt) {
      regs_.push_back(r);
    } else if (spec_.Renamed(r) && per_bank[spec_.BankOfReg(r)] < cap) {
      ++per_bank[spec_.BankOfReg(r)];
      regs_.push_back(r);
    }
  }
  need_.resize(spec_.banks);
  for (int b = 0; b < spec_.banks; ++b)
    need_[b] = spec_.warps_per_cta * per_bank[b] + 1;
  warps_.resize(spec_.warps);
  cta_.assign(spec_.ctas, Cta::kFree);
  cta_timer_.assign(spec_.ctas, 0);
  // A pir program larger than the flag cache: about a tenth of the flags set.
  program_.resize(2 * spec_.flags.entries + 1);
  for (auto& f : program_) {
    f.resize(3 * spec_.group);
    for (size_t i = 0; i < f.size(); ++i)
      f[i] = Chance(1, 10);
  }
  if (spec_.ctas >= 3)
    episode_at_ = kEpisodeGap / 2;
}

uint64_t RenamingSystemStimulus::Pc(int pc_index) const {
  return static_cast<uint64_t>(pc_index) * spec_.flags.inst_bytes * (spec_.group + 1) + 0x40;
}

bool RenamingSystemStimulus::ReleaseBit(int pc_index, int idx, int slot) const {
  return program_[pc_index][3 * idx + slot];
}

bool RenamingSystemStimulus::Readable(const Warp& w, int r) const {
  return !w.busy.count(r) && (r < spec_.exempt || w.mapped.count(r));
}

bool RenamingSystemStimulus::Writable(const Warp& w, int r) const {
  const auto it = w.readers.find(r);
  return !w.busy.count(r) && (it == w.readers.end() || it->second == 0);
}

void RenamingSystemStimulus::Pick(uint64_t cycle) {
  req_ = Request{};
  std::vector<int> alive;
  for (int w = 0; w < spec_.warps; ++w) {
    if (warps_[w].alive)
      alive.push_back(w);
  }
  if (alive.empty() || !Chance(7, 8))
    return;
  const int w = alive[Rand(static_cast<int>(alive.size()))];
  Warp& wp = warps_[w];
  req_.valid = true;
  req_.warp = w;
  req_.mask.assign(spec_.regs, false);
  const bool quiet = wp.busy.empty();
  if (episode_ == Episode::kDrain) {
    // A throttle episode empties the SM: no new instrs, every warp exits once quiet.
    if (quiet)
      req_.op = RenamingSystemSpec::kExit;
    else
      req_ = Request{};
    return;
  }
  // The episode's light CTA exits early once the heavy CTAs are resident (and not before);
  // while the throttle is on, warps exit sooner too, so that an episode ends.
  const bool light = episode_ != Episode::kNormal && spec_.CtaOf(w) == light_slot_;
  const bool exits = quiet && (light ? episode_ == Episode::kRun && wp.issued > 6 && Chance(1, 3)
                               : throttled_ ? wp.issued > 20 && Chance(1, 30)
                                            : wp.issued > 80 && Chance(1, 150));
  if (exits) {
    req_.op = RenamingSystemSpec::kExit;
    return;
  }
  if (Chance(1, 30)) {
    req_.op = RenamingSystemSpec::kRelease;
    for (int r : wp.mapped) {
      if (!wp.busy.count(r) && Chance(1, 4))
        req_.mask[r] = true;
    }
    // A register outside the mapping (exempt, unmapped) is ignored by the table.
    req_.mask[regs_[Rand(static_cast<int>(regs_.size()))]] = true;
    return;
  }
  req_.op = RenamingSystemSpec::kInstr;
  req_.tag = next_tag_ & ((uint64_t{1} << spec_.tag_width) - 1);
  while (flights_.count(req_.tag)) {
    ++next_tag_;
    req_.tag = next_tag_ & ((uint64_t{1} << spec_.tag_width) - 1);
  }
  std::vector<int> readable;
  for (int r : regs_) {
    if (Readable(wp, r))
      readable.push_back(r);
  }
  for (int s = 0; s < 3; ++s) {
    if (!readable.empty() && Chance(2, 3)) {
      req_.src_valid[s] = true;
      req_.src[s] = readable[Rand(static_cast<int>(readable.size()))];
    }
  }
  std::vector<int> writable;
  for (int r : regs_) {
    if (Writable(wp, r))
      writable.push_back(r);
  }
  // Prefer unmapped renamed registers: first writes (allocation pressure).
  std::vector<int> fresh;
  for (int r : writable) {
    if (r >= spec_.exempt && !wp.mapped.count(r))
      fresh.push_back(r);
  }
  if (!writable.empty() && Chance(5, 6)) {
    req_.dst_valid = true;
    req_.dst = (!fresh.empty() && Chance(2, 3)) ? fresh[Rand(static_cast<int>(fresh.size()))]
                                                : writable[Rand(static_cast<int>(writable.size()))];
  }
  if (Chance(2, 3)) {
    req_.pir = true;
    // Mostly a working set that fits the flag cache, now and then any pir (misses).
    req_.pc_index = Chance(7, 8) ? Rand(std::max(1, spec_.flags.entries / 2))
                                 : Rand(static_cast<int>(program_.size()));
    req_.idx = Rand(spec_.group);
  }
  (void)cycle;
}

void RenamingSystemStimulus::Next(uint64_t cycle, PortValues& in) {
  cycle_ = cycle;
  for (size_t i = 1; i < in.size(); ++i)
    in[i].clear();
  reset_ = cycle < kResetCycles;
  in[P::kRstN].set_bit(0, !reset_);
  launch_ = cta_exit_ = fill_ = res_offered_ = false;
  if (reset_) {
    req_ = Request{};
    return;
  }

  // A throttle episode starts by draining the SM and launches once every slot is free.
  if (episode_ == Episode::kNormal && spec_.ctas >= 3 && cycle >= episode_at_)
    episode_ = Episode::kDrain;
  if (episode_ == Episode::kDrain &&
      std::all_of(cta_.begin(), cta_.end(), [](Cta c) { return c == Cta::kFree; }))
    episode_ = Episode::kLaunch;

  // CTAs: finish the drained ones, launch into free slots (in an episode, without delay: the
  // light CTA first, then heavy ones).
  for (int c = 0; c < spec_.ctas && !cta_exit_; ++c) {
    if (cta_[c] == Cta::kDraining && --cta_timer_[c] <= 0) {
      cta_exit_ = true;
      exit_slot_ = c;
    }
  }
  const bool launching = episode_ == Episode::kLaunch;
  for (int c = 0; c < spec_.ctas && !cta_exit_ && !launch_ && episode_ != Episode::kDrain; ++c) {
    if (cta_[c] == Cta::kFree && (launching || --cta_timer_[c] <= 0) && Chance(1, 4)) {
      launch_ = true;
      launch_slot_ = c;
    }
  }
  launch_light_ = launch_ && launching && light_slot_ < 0;
  in[P::kLaunchValid].set_bit(0, launch_);
  in[P::kLaunchSlot].set(0, spec_.throttle.slot_bits, launch_slot_);
  // A declared worst case between what the kernel's registers need and the whole bank: the
  // larger, the sooner the throttle holds the other CTAs.
  for (int b = 0; b < spec_.banks && launch_; ++b) {
    const int need = launch_light_ ? need_[b]
                     : launching   ? spec_.per_bank
                                   : need_[b] + Rand(spec_.per_bank - need_[b] + 1);
    in[P::kLaunchNeed].set(b * spec_.throttle.need_bits, spec_.throttle.need_bits, need);
  }
  in[P::kCtaExitValid].set_bit(0, cta_exit_);
  in[P::kCtaExitSlot].set(0, spec_.throttle.slot_bits, exit_slot_);

  // The request: keep an offer a few cycles, then pick again (an offer may be withdrawn).
  if (!req_.valid || ++req_.age > 6 || (req_.op == RenamingSystemSpec::kInstr && !req_.valid))
    Pick(cycle);
  if (req_.valid) {
    const Warp& wp = warps_[req_.warp];
    bool legal = wp.alive;
    for (int s = 0; s < 3 && legal; ++s)
      legal = !req_.src_valid[s] || Readable(wp, req_.src[s]);
    if (legal && req_.dst_valid)
      legal = Writable(wp, req_.dst);
    if (legal && req_.op == RenamingSystemSpec::kExit)
      legal = wp.busy.empty();
    for (int r = 0; legal && r < spec_.regs; ++r)
      legal = !(req_.op == RenamingSystemSpec::kRelease && req_.mask[r] && wp.busy.count(r));
    if (!legal)
      req_ = Request{};
  }
  const int rb = spec_.reg_bits;
  in[P::kReqValid].set_bit(0, req_.valid);
  in[P::kReqOp].set(0, 2, req_.op);
  in[P::kReqTag].set(0, spec_.tag_width, req_.tag);
  in[P::kReqWarp].set(0, spec_.warp_bits, req_.warp);
  for (int s = 0; s < 3; ++s) {
    in[P::kReqSrcValid].set_bit(s, req_.src_valid[s]);
    in[P::kReqSrcReg].set(s * rb, rb, req_.src[s]);
  }
  in[P::kReqDstValid].set_bit(0, req_.dst_valid);
  in[P::kReqDstReg].set(0, rb, req_.dst);
  in[P::kReqPirValid].set_bit(0, req_.pir);
  in[P::kReqPirPc].set(0, spec_.flags.pc_bits, Pc(req_.pc_index));
  in[P::kReqPirIdx].set(0, spec_.group_bits, req_.idx);
  for (int r = 0; r < spec_.regs && r < static_cast<int>(req_.mask.size()); ++r)
    in[P::kReqRelMask].set_bit(r, req_.mask[r]);

  // The decoder's fill of a missed pir, a few cycles after the miss; now and then a flush.
  if (pending_fill_ >= 0 && --fill_timer_ <= 0) {
    fill_ = true;
    in[P::kFillValid].set_bit(0, true);
    in[P::kFillPc].set(0, spec_.flags.pc_bits, Pc(pending_fill_));
    for (int i = 0; i < 3 * spec_.group; ++i)
      in[P::kFillFlags].set_bit(i, program_[pending_fill_][i]);
    pending_fill_ = -1;
  } else if (Chance(1, 700)) {
    in[P::kFlush].set_bit(0, true);
  }

  // Results, due a few cycles after dispatch, in any order.
  if (!results_.empty() && Chance(3, 4)) {
    const int k = Rand(static_cast<int>(std::min<size_t>(results_.size(), 3)));
    if (results_[k].due <= cycle) {
      std::swap(results_[0], results_[k]);
      res_offered_ = true;
      in[P::kResValid].set_bit(0, true);
      in[P::kResPhys].set(0, spec_.phys_bits, results_[0].phys);
      in[P::kResData].set(0, std::min(64, spec_.width), results_[0].data);
    }
  }
  disp_ready_ = Chance(4, 5);
  in[P::kDispReady].set_bit(0, disp_ready_);
}

void RenamingSystemStimulus::Observe(uint64_t cycle, const PortValues& out) {
  if (reset_)
    return;
  throttled_ = out[P::kThrottle].bit(0);
  if (launch_) {
    cta_[launch_slot_] = Cta::kAlive;
    if (launch_light_)
      light_slot_ = launch_slot_;
    if (episode_ == Episode::kLaunch &&
        std::none_of(cta_.begin(), cta_.end(), [](Cta c) { return c == Cta::kFree; }))
      episode_ = Episode::kRun;
    for (int i = 0; i < spec_.warps_per_cta; ++i) {
      Warp& w = warps_[launch_slot_ * spec_.warps_per_cta + i];
      w = Warp{};
      w.alive = true;
    }
  }
  if (cta_exit_) {
    cta_[exit_slot_] = Cta::kFree;
    cta_timer_[exit_slot_] = 2 + Rand(20);
    if (episode_ == Episode::kRun && exit_slot_ == light_slot_) {
      episode_ = Episode::kNormal;
      light_slot_ = -1;
      episode_at_ = cycle + kEpisodeGap;
    }
  }
  if (req_.valid && out[P::kReqFlagMiss].bit(0) && pending_fill_ < 0) {
    pending_fill_ = req_.pc_index;
    fill_timer_ = 1 + Rand(4);
  }
  if (req_.valid && out[P::kReqReady].bit(0)) {
    Warp& wp = warps_[req_.warp];
    if (req_.op == RenamingSystemSpec::kInstr) {
      Flight f;
      f.warp = req_.warp;
      for (int s = 0; s < 3; ++s) {
        if (!req_.src_valid[s])
          continue;
        const int r = req_.src[s];
        if (std::find(f.reads.begin(), f.reads.end(), r) == f.reads.end()) {
          f.reads.push_back(r);
          ++wp.readers[r];
        }
        if (req_.pir && ReleaseBit(req_.pc_index, req_.idx, s) && r >= spec_.exempt)
          wp.mapped.erase(r);
      }
      if (req_.dst_valid) {
        f.dst_valid = true;
        f.dst = req_.dst;
        wp.busy.insert(req_.dst);
        if (req_.dst >= spec_.exempt)
          wp.mapped.insert(req_.dst);
      }
      flights_[req_.tag] = f;
      ++next_tag_;
      ++wp.issued;
    } else if (req_.op == RenamingSystemSpec::kRelease) {
      for (int r = 0; r < spec_.regs; ++r) {
        if (req_.mask[r])
          wp.mapped.erase(r);
      }
    } else {
      wp = Warp{};
      const int c = spec_.CtaOf(req_.warp);
      bool all = true;
      for (int i = 0; i < spec_.warps_per_cta; ++i)
        all = all && !warps_[c * spec_.warps_per_cta + i].alive;
      if (all) {
        cta_[c] = Cta::kDraining;
        cta_timer_[c] = kCtaDrainCycles;
      }
    }
    req_ = Request{};
  }
  if (out[P::kDispValid].bit(0) && disp_ready_) {
    const uint64_t tag = out[P::kDispTag].get(0, spec_.tag_width);
    const auto it = flights_.find(tag);
    if (it != flights_.end()) {
      Warp& wp = warps_[it->second.warp];
      for (int r : it->second.reads)
        --wp.readers[r];
      if (it->second.dst_valid) {
        Result res;
        res.due = cycle + 1 + Rand(6);
        res.phys = static_cast<int>(out[P::kDispDstPhys].get(0, spec_.phys_bits));
        res.data = rng_();
        res.warp = it->second.warp;
        res.reg = it->second.dst;
        results_.push_back(res);
      }
      flights_.erase(it);
    }
  }
  if (res_offered_ && out[P::kResReady].bit(0)) {
    warps_[results_[0].warp].busy.erase(results_[0].reg);
    results_.pop_front();
  }
}

std::string RenamingSystemStimulus::Phase() const {
  if (reset_)
    return "reset";
  return throttled_ ? "throttled" : "renaming";
}

GPURF_REGISTER(StimulusFamily, renaming_system, "renaming-system",
               StimulusFamily{
                   [](const StructureSpec& s, uint64_t seed) -> std::unique_ptr<Stimulus> {
                     return std::make_unique<RenamingSystemStimulus>(SpecAs<RenamingSystemSpec>(s),
                                                                     seed);
                   }})

}  // namespace gpurf
