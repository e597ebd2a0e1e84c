#include "verif/stimulus/hybrid_system_stimulus.h"

#include <algorithm>

#include "gen/structures/hybrid_system/hybrid_system_ports.h"
#include "verif/stimulus/registry.h"

namespace gpurf {

namespace {
using P = HybridSystemPort;
}  // namespace

HybridSystemStimulus::HybridSystemStimulus(const HybridSystemSpec& spec, uint64_t seed)
    : spec_(spec), rng_(seed) {
  Clear();
}

void HybridSystemStimulus::Clear() {
  const size_t keys = static_cast<size_t>(spec_.warps) << spec_.reg_width;
  reg_live_.assign(keys, false);
  readers_.assign(keys, 0);
  slot_live_.assign(static_cast<size_t>(spec_.rc.rsp_slots), false);
  in_flight_.clear();
  fill_pending_ = false;
  fill_slot_ = fill_key_ = -1;
}

std::string HybridSystemStimulus::Phase() const {
  switch (phase_) {
    case PhaseKind::kReset:
      return "reset";
    case PhaseKind::kMixed:
      return "mixed";
    case PhaseKind::kEvictions:
      return "evictions";
    case PhaseKind::kDual:
      return "dual";
    case PhaseKind::kRsp:
      return "rsp";
    case PhaseKind::kDead:
      return "dead";
    case PhaseKind::kStall:
      return "stall";
    case PhaseKind::kIdle:
      return "idle";
    case PhaseKind::kResetPulse:
      return "reset-pulse";
  }
  return "?";
}

void HybridSystemStimulus::PickPhase() {
  static constexpr PhaseKind kPhases[] = {
      PhaseKind::kMixed, PhaseKind::kEvictions, PhaseKind::kDual, PhaseKind::kRsp,
      PhaseKind::kDead,  PhaseKind::kStall,     PhaseKind::kIdle, PhaseKind::kResetPulse};
  phase_ = kPhases[Uniform(0, static_cast<int>(std::size(kPhases)) - 1)];
  phase_left_ = phase_ == PhaseKind::kResetPulse ? 1 : static_cast<uint64_t>(Uniform(64, 512));
  if (phase_ == PhaseKind::kIdle)
    phase_left_ = static_cast<uint64_t>(Uniform(16, 64));
  focus_.clear();
  if (phase_ == PhaseKind::kEvictions) {
    // Registers of one or two RC sets: more than the ways, so the sets overflow.
    const int sets = Uniform(1, 2);
    std::vector<int> chosen;
    for (int i = 0; i < sets; ++i)
      chosen.push_back(Uniform(0, spec_.rc.sets - 1));
    for (int w = 0; w < spec_.warps; ++w)
      for (int r = 0; r < (1 << spec_.reg_width); ++r)
        if (std::find(chosen.begin(), chosen.end(), spec_.rc.SetOf(w, r)) != chosen.end())
          focus_.push_back(Key(w, r));
  }
}

int HybridSystemStimulus::PoolKey() {
  if (!focus_.empty() && Chance(0.9))
    return focus_[static_cast<size_t>(Uniform(0, static_cast<int>(focus_.size()) - 1))];
  const int warps = std::min(spec_.warps, 4), regs = std::min(1 << spec_.reg_width, 16);
  return Key(Uniform(0, warps - 1), Uniform(0, regs - 1));
}

int HybridSystemStimulus::LiveReg(int warp) {
  for (int tries = 0; tries < 8; ++tries) {
    int k = PoolKey();
    k = Key(warp, k & ((1 << spec_.reg_width) - 1));
    if (reg_live_[static_cast<size_t>(k)])
      return k;
  }
  return -1;
}

int HybridSystemStimulus::LiveSlot() {
  for (int tries = 0; tries < 4; ++tries) {
    const int s = Uniform(0, spec_.rc.rsp_slots - 1);
    if (slot_live_[static_cast<size_t>(s)] && !(fill_pending_ && s == fill_slot_))
      return s;
  }
  return -1;
}

void HybridSystemStimulus::Next(uint64_t /*cycle*/, PortValues& in) {
  if (phase_left_ == 0)
    PickPhase();
  for (int p = 0; p < P::kNumPorts; ++p)
    in[p].clear();
  reset_ = phase_ == PhaseKind::kReset || phase_ == PhaseKind::kResetPulse;
  n_issue_ = n_res_ = 0;
  xf_offered_ = false;
  disp_ready_ = false;
  issue_kills_.clear();
  if (reset_)
    return;
  in[P::kRstN].set_bit(0, true);
  const int tw = spec_.tag_width, ww = spec_.warp_width, rw = spec_.reg_width,
            sb = spec_.slot_width, dw = spec_.width;
  const int rmask = (1 << rw) - 1;
  // Junk in every field; the valid bits below decide what is present.
  auto junk = [&](int port) {
    for (int b = 0; b < in[port].width(); b += 32)
      in[port].set(b, std::min(32, in[port].width() - b), rng_() & 0xffffffffU);
  };
  for (int port : {P::kIssueTag, P::kIssueSrcSlot, P::kIssueSrcReg, P::kResData, P::kResSlot})
    junk(port);

  const bool idle = phase_ == PhaseKind::kIdle;
  const bool dual = phase_ == PhaseKind::kDual;
  const bool rsp = phase_ == PhaseKind::kRsp;
  const bool dead = phase_ == PhaseKind::kDead;

  // Issue.
  if (!idle && Chance(dual ? 1.0 : 0.6))
    n_issue_ = (dual || Chance(0.5)) ? 2 : 1;
  for (int i = 0; i < n_issue_; ++i) {
    issue_keys_[i].clear();
    const int warp = Uniform(0, std::min(spec_.warps, 4) - 1);
    in[P::kIssueValid].set_bit(i, true);
    in[P::kIssueWarp].set(i * ww, ww, static_cast<uint64_t>(warp));
    for (int s = 0; s < 3; ++s) {
      const int p = 3 * i + s;
      if (!dual && !Chance(0.7))
        continue;
      const int slot = (rsp || Chance(0.25)) ? LiveSlot() : -1;
      if (slot >= 0) {
        in[P::kIssueSrcValid].set_bit(p, true);
        in[P::kIssueSrcRsp].set_bit(p, true);
        in[P::kIssueSrcSlot].set(p * sb, sb, static_cast<uint64_t>(slot));
        continue;
      }
      const int k = LiveReg(warp);
      if (k < 0)
        continue;
      in[P::kIssueSrcValid].set_bit(p, true);
      in[P::kIssueSrcReg].set(p * rw, rw, static_cast<uint64_t>(k & rmask));
      issue_keys_[i].push_back(k);
      if (Chance(dead ? 0.4 : 0.05) && !(fill_pending_ && k == fill_key_)) {
        in[P::kIssueSrcLast].set_bit(p, true);
        issue_kills_.push_back(k);
      }
    }
  }
  auto read_now = [&](int k) {
    for (int i = 0; i < n_issue_; ++i)
      if (std::find(issue_keys_[i].begin(), issue_keys_[i].end(), k) != issue_keys_[i].end())
        return true;
    return false;
  };

  // Results: registers no in-flight instruction or fill still reads, or slots not being filled.
  const double res_rate = idle ? 0.0 : (phase_ == PhaseKind::kEvictions ? 0.9 : 0.5);
  for (int q = 0; q < 2; ++q) {
    if (!Chance(res_rate))
      continue;
    if (rsp || Chance(0.2)) {
      const int slot = Uniform(0, spec_.rc.rsp_slots - 1);
      if (fill_pending_ && slot == fill_slot_)
        continue;
      res_rsp_[q] = true;
      res_target_[q] = slot;
      in[P::kResRsp].set_bit(q, true);
      in[P::kResSlot].set(q * sb, sb, static_cast<uint64_t>(slot));
    } else {
      const int k = PoolKey();
      if (readers_[static_cast<size_t>(k)] > 0 || read_now(k) || (fill_pending_ && k == fill_key_))
        continue;
      res_rsp_[q] = false;
      res_target_[q] = k;
      in[P::kResWarp].set(q * ww, ww, static_cast<uint64_t>(k >> rw));
      in[P::kResReg].set(q * rw, rw, static_cast<uint64_t>(k & rmask));
    }
    in[P::kResValid].set_bit(q, true);
    ++n_res_;
  }
  // Result 0 absent and 1 present is legal; keep the count of offered results for Observe.

  // Transfers.
  if (spec_.rc.transfers() && !idle && !fill_pending_ && Chance(rsp ? 0.9 : 0.1)) {
    if (Chance(0.5)) {
      const int k = PoolKey();
      if (reg_live_[static_cast<size_t>(k)] &&
          std::find(issue_kills_.begin(), issue_kills_.end(), k) == issue_kills_.end()) {
        xf_offered_ = true;
        xf_fill_ = true;
        xf_key_ = k;
        xf_slot_ = Uniform(0, spec_.rc.rsp_slots - 1);
      }
    } else {
      const int slot = LiveSlot();
      const int k = PoolKey();
      if (slot >= 0 && readers_[static_cast<size_t>(k)] == 0 && !read_now(k)) {
        xf_offered_ = true;
        xf_fill_ = false;
        xf_key_ = k;
        xf_slot_ = slot;
      }
    }
    if (xf_offered_) {
      in[P::kXfValid].set_bit(0, true);
      in[P::kXfOp].set_bit(0, !xf_fill_);
      in[P::kXfSlot].set(0, sb, static_cast<uint64_t>(xf_slot_));
      in[P::kXfWarp].set(0, ww, static_cast<uint64_t>(xf_key_ >> rw));
      in[P::kXfReg].set(0, rw, static_cast<uint64_t>(xf_key_ & rmask));
    }
  }
  disp_ready_ = Chance(phase_ == PhaseKind::kStall ? 0.15 : 0.85);
  in[P::kDispReady].set_bit(0, disp_ready_);
  in[P::kFlValid].set_bit(0, idle || Chance(0.02));
  (void)tw;
  (void)dw;
}

void HybridSystemStimulus::Observe(uint64_t /*cycle*/, const PortValues& out) {
  if (phase_left_ > 0)
    --phase_left_;
  if (reset_) {
    Clear();
    return;
  }
  // A fill completes when the transfer port is free again.
  if (fill_pending_ && out[P::kXfReady].bit(0)) {
    fill_pending_ = false;
    slot_live_[static_cast<size_t>(fill_slot_)] = true;
    fill_slot_ = fill_key_ = -1;
  }
  if (disp_ready_) {
    for (int l = 0; l < 2; ++l) {
      if (!out[P::kDispValid].bit(l) || in_flight_.empty())
        continue;
      for (int k : in_flight_.front())
        --readers_[static_cast<size_t>(k)];
      in_flight_.pop_front();
    }
  }
  if (n_issue_ > 0 && out[P::kIssueReady].bit(0)) {
    for (int i = 0; i < n_issue_; ++i) {
      for (int k : issue_keys_[i])
        ++readers_[static_cast<size_t>(k)];
      in_flight_.push_back(issue_keys_[i]);
    }
    for (int k : issue_kills_)
      reg_live_[static_cast<size_t>(k)] = false;
  }
  if (xf_offered_ && out[P::kXfReady].bit(0)) {
    if (xf_fill_) {
      fill_pending_ = true;
      fill_slot_ = xf_slot_;
      fill_key_ = xf_key_;
    } else {
      reg_live_[static_cast<size_t>(xf_key_)] = true;
    }
  }
  if (n_res_ > 0 && out[P::kResReady].bit(0)) {
    for (int q = 0; q < 2; ++q) {
      // Only the results offered this cycle (their valid bits were set in Next).
      if (res_target_[q] < 0)
        continue;
      if (res_rsp_[q])
        slot_live_[static_cast<size_t>(res_target_[q])] = true;
      else
        reg_live_[static_cast<size_t>(res_target_[q])] = true;
    }
  }
  res_target_[0] = res_target_[1] = -1;
}

GPURF_REGISTER(StimulusFamily, hybrid_system, "hybrid-system",
               StimulusFamily{[](const StructureSpec& s,
                                 uint64_t seed) -> std::unique_ptr<Stimulus> {
                 return std::make_unique<HybridSystemStimulus>(SpecAs<HybridSystemSpec>(s), seed);
               }})

}  // namespace gpurf
