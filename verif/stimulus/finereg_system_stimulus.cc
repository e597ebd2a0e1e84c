#include "verif/stimulus/finereg_system_stimulus.h"

#include <algorithm>

#include "gen/structures/finereg_system/finereg_system_ports.h"
#include "verif/stimulus/registry.h"

namespace gpurf {

using P = FineregSystemPort;

FineregSystemStimulus::FineregSystemStimulus(const FineregSystemSpec& spec, uint64_t seed)
    : spec_(spec),
      rng_(seed),
      groups_(spec_.warps / spec_.cta_warps),
      pending_(static_cast<size_t>(spec_.pcrf.ctas)) {}

std::string FineregSystemStimulus::Phase() const {
  switch (phase_) {
    case PhaseKind::kReset:
      return "reset";
    case PhaseKind::kPipeline:
      return "pipeline";
    case PhaseKind::kSwitching:
      return "switching";
    case PhaseKind::kFill:
      return "fill";
    case PhaseKind::kBackpressure:
      return "backpressure";
    case PhaseKind::kIdle:
      return "idle";
    case PhaseKind::kResetPulse:
      return "reset-pulse";
  }
  return "?";
}

void FineregSystemStimulus::PickPhase() {
  static const PhaseKind kPhases[] = {
      PhaseKind::kPipeline,     PhaseKind::kSwitching, PhaseKind::kSwitching, PhaseKind::kFill,
      PhaseKind::kBackpressure, PhaseKind::kPipeline,  PhaseKind::kSwitching, PhaseKind::kFill,
      PhaseKind::kIdle,         PhaseKind::kResetPulse};
  phase_ = kPhases[std::uniform_int_distribution<size_t>(0, std::size(kPhases) - 1)(rng_)];
  phase_left_ =
      phase_ == PhaseKind::kResetPulse ? 1 : std::uniform_int_distribution<uint64_t>(64, 512)(rng_);
}

Bits FineregSystemStimulus::RandomData() {
  Bits b(spec_.data_width);
  for (int lsb = 0; lsb < spec_.data_width; lsb += 64)
    b.set(lsb, std::min(64, spec_.data_width - lsb), rng_());
  return b;
}

// A warp slot the pipeline may use: not in the group of a command offered or in progress (C3).
bool FineregSystemStimulus::Usable(int warp) const {
  for (const auto* c : {&cmd_, &moving_})
    if (c->has_value() && warp / spec_.cta_warps == (*c)->group)
      return false;
  return true;
}

bool FineregSystemStimulus::ReadInFlight(int warp, int reg) const {
  auto reads = [&](const Instr& i) {
    return i.warp == warp && std::count(i.regs.begin(), i.regs.end(), reg) > 0;
  };
  return std::any_of(inflight_.begin(), inflight_.end(), reads) || (offered_ && reads(*offered_));
}

void FineregSystemStimulus::NewCommand() {
  std::vector<int> free_slots, full_slots;
  for (int c = 0; c < spec_.pcrf.ctas; ++c)
    (pending_[c] ? full_slots : free_slots).push_back(c);
  const bool filling = phase_ == PhaseKind::kFill;
  const bool want_save =
      !free_slots.empty() && free_count_ > 0 && (full_slots.empty() || Chance(filling ? 0.8 : 0.5));
  Command c;
  c.group = Uniform(0, groups_ - 1);
  // A restore overwrites the group's registers: no instruction of it may be in flight (C3).
  for (const Instr& i : inflight_)
    if (i.warp / spec_.cta_warps == c.group)
      return;
  if (want_save) {
    c.save = true;
    c.cta = free_slots[Uniform(0, static_cast<int>(free_slots.size()) - 1)];
    c.live.assign(static_cast<size_t>(spec_.live_bits), false);
    const double density = phase_ == PhaseKind::kSwitching || filling
                               ? std::uniform_real_distribution<double>(0.3, 1.0)(rng_)
                               : std::uniform_real_distribution<double>(0.0, 0.5)(rng_);
    int n = 0;
    const int base = c.group * spec_.cta_warps;
    for (int i = 0; i < spec_.live_bits && n < free_count_; ++i) {
      if (written_.count({base + i / spec_.regs, i % spec_.regs}) && Chance(density)) {
        c.live[i] = true;
        ++n;
      }
    }
  } else if (!full_slots.empty()) {
    c.save = false;
    c.cta = full_slots[Uniform(0, static_cast<int>(full_slots.size()) - 1)];
  } else {
    return;
  }
  cmd_ = c;
}

void FineregSystemStimulus::Next(uint64_t /*cycle*/, PortValues& in) {
  for (int p = P::kRstN; p < P::kNumPorts; ++p) {
    if (p == P::kIssueValid || p == P::kIssueTag || p == P::kIssueWarp || p == P::kIssueSrcValid ||
        p == P::kIssueSrcReg || p == P::kWbValid || p == P::kWbWarp || p == P::kWbReg ||
        p == P::kWbData || p == P::kDispReady || p == P::kSvValid || p == P::kSvCta ||
        p == P::kSvBase || p == P::kSvLive || p == P::kRsValid || p == P::kRsCta ||
        p == P::kRsBase || p == P::kRstN)
      in[p].clear();
  }
  if (phase_left_ == 0)
    PickPhase();
  --phase_left_;
  reset_now_ = phase_ == PhaseKind::kReset || phase_ == PhaseKind::kResetPulse;
  in[P::kRstN].set_bit(0, !reset_now_);
  offered_.reset();
  wb_offered_.reset();
  if (reset_now_) {
    for (auto& s : pending_)
      s.reset();
    cmd_.reset();
    moving_.reset();
    inflight_.clear();
    return;
  }
  const bool idle = phase_ == PhaseKind::kIdle;
  // Switching: one command at a time, offered until accepted.
  const double switch_rate = phase_ == PhaseKind::kSwitching || phase_ == PhaseKind::kFill ? 0.5
                             : phase_ == PhaseKind::kPipeline                              ? 0.03
                                                                                           : 0.01;
  if (!idle && !cmd_ && !moving_ && Chance(switch_rate))
    NewCommand();
  if (cmd_) {
    const int ww = spec_.warp_width, cb = spec_.pcrf.cta_bits;
    const int base = cmd_->group * spec_.cta_warps;
    if (cmd_->save) {
      in[P::kSvValid].set_bit(0, true);
      in[P::kSvCta].set(0, cb, static_cast<uint64_t>(cmd_->cta));
      in[P::kSvBase].set(0, ww, static_cast<uint64_t>(base));
      for (int i = 0; i < spec_.live_bits; ++i)
        in[P::kSvLive].set_bit(i, cmd_->live[i]);
    } else {
      in[P::kRsValid].set_bit(0, true);
      in[P::kRsCta].set(0, cb, static_cast<uint64_t>(cmd_->cta));
      in[P::kRsBase].set(0, ww, static_cast<uint64_t>(base));
    }
  } else {
    in[P::kRsCta].set(0, spec_.pcrf.cta_bits,
                      static_cast<uint64_t>(Uniform(0, spec_.pcrf.ctas - 1)));  // the query
  }
  // Pipeline traffic.
  const double issue_rate = idle ? 0.0 : phase_ == PhaseKind::kSwitching ? 0.3 : 0.8;
  if (Chance(issue_rate)) {
    Instr i;
    i.warp = Uniform(0, spec_.warps - 1);
    if (Usable(i.warp)) {
      i.tag = next_tag_;
      const int n = Uniform(1, 3);
      in[P::kIssueValid].set_bit(0, true);
      in[P::kIssueTag].set(0, spec_.tag_width, i.tag);
      in[P::kIssueWarp].set(0, spec_.warp_width, static_cast<uint64_t>(i.warp));
      for (int s = 0; s < n; ++s) {
        const int slot = Uniform(0, 2);
        if (in[P::kIssueSrcValid].bit(slot))
          continue;
        const int reg = Uniform(0, spec_.regs - 1);
        in[P::kIssueSrcValid].set_bit(slot, true);
        in[P::kIssueSrcReg].set(slot * spec_.reg_width, spec_.reg_width,
                                static_cast<uint64_t>(reg));
        i.regs.push_back(reg);
      }
      offered_ = i;
    }
  }
  const double wb_rate = idle ? 0.0 : phase_ == PhaseKind::kBackpressure ? 0.9 : 0.5;
  if (Chance(wb_rate)) {
    const int warp = Uniform(0, spec_.warps - 1), reg = Uniform(0, spec_.regs - 1);
    if (Usable(warp) && !ReadInFlight(warp, reg)) {
      in[P::kWbValid].set_bit(0, true);
      in[P::kWbWarp].set(0, spec_.warp_width, static_cast<uint64_t>(warp));
      in[P::kWbReg].set(0, spec_.reg_width, static_cast<uint64_t>(reg));
      in[P::kWbData] = RandomData();
      wb_offered_ = {warp, reg};
    }
  }
  disp_ready_ = phase_ == PhaseKind::kBackpressure ? Chance(0.3) : Chance(0.9);
  in[P::kDispReady].set_bit(0, disp_ready_);
}

void FineregSystemStimulus::Observe(uint64_t /*cycle*/, const PortValues& out) {
  if (reset_now_)
    return;
  free_count_ = static_cast<int>(out[P::kFreeCount].get(0, spec_.pcrf.count_bits));
  if (out[P::kDispValid].bit(0) && disp_ready_) {
    const uint64_t tag = out[P::kDispTag].get(0, spec_.tag_width);
    auto it = std::find_if(inflight_.begin(), inflight_.end(),
                           [&](const Instr& i) { return i.tag == tag; });
    if (it != inflight_.end())
      inflight_.erase(it);
  }
  if (offered_ && out[P::kIssueReady].bit(0)) {
    inflight_.push_back(*offered_);
    next_tag_ = (next_tag_ + 1) & ((uint64_t{1} << spec_.tag_width) - 1);
  }
  if (wb_offered_ && out[P::kWbReady].bit(0))
    written_.insert(*wb_offered_);
  if (moving_ && moving_seen_ && !out[P::kBusy].bit(0)) {
    if (!moving_->save) {  // the restored registers now hold values
      const std::vector<bool>& live = *pending_[moving_->cta];
      for (int i = 0; i < spec_.live_bits; ++i)
        if (live[i])
          written_.insert({moving_->group * spec_.cta_warps + i / spec_.regs, i % spec_.regs});
      pending_[moving_->cta].reset();
    }
    moving_.reset();
  }
  moving_seen_ = true;
  if (cmd_ && out[cmd_->save ? P::kSvReady : P::kRsReady].bit(0)) {
    if (cmd_->save)
      pending_[cmd_->cta] = cmd_->live;
    moving_ = cmd_;
    moving_seen_ = false;
    cmd_.reset();
  }
}

GPURF_REGISTER(StimulusFamily, finereg_system, "finereg-system",
               StimulusFamily{[](const StructureSpec& s,
                                 uint64_t seed) -> std::unique_ptr<Stimulus> {
                 return std::make_unique<FineregSystemStimulus>(SpecAs<FineregSystemSpec>(s), seed);
               }})

}  // namespace gpurf
