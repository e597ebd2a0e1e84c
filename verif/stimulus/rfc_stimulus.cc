#include "verif/stimulus/rfc_stimulus.h"

#include <algorithm>

#include "gen/structures/rfc/rfc_spec.h"
#include "verif/stimulus/registry.h"

namespace gpurf {

RfcStimulus::RfcStimulus(const RfcSpec& spec, uint64_t seed)
    : spec_(spec),
      p_(RfcPorts::For(spec)),
      rng_(seed),
      recent_(static_cast<size_t>(spec.active_warps)) {
  for (int i = 0; i < 8; ++i)
    hot_regs_.push_back(std::uniform_int_distribution<int>(0, spec_.registers() - 1)(rng_));
}

std::string RfcStimulus::Phase() const {
  switch (phase_) {
    case PhaseKind::kReset:
      return "reset";
    case PhaseKind::kRandom:
      return "random";
    case PhaseKind::kEvictionChains:
      return "eviction-chains";
    case PhaseKind::kFlushDirty:
      return "flush-dirty";
    case PhaseKind::kDeadHints:
      return "dead-hints";
    case PhaseKind::kLongLatency:
      return "long-latency";
    case PhaseKind::kNotForL0:
      return "not-for-l0";
    case PhaseKind::kSameRegister:
      return "same-register";
    case PhaseKind::kAllSlots:
      return "all-slots";
    case PhaseKind::kBackpressure:
      return "backpressure";
    case PhaseKind::kResetPulse:
      return "reset-pulse";
  }
  return "?";
}

bool RfcStimulus::Chance(int num, int den) {
  return std::uniform_int_distribution<int>(0, den - 1)(rng_) < num;
}

int RfcStimulus::Slot() {
  switch (phase_) {
    case PhaseKind::kEvictionChains:
    case PhaseKind::kSameRegister:
      return Chance(7, 8) ? focus_slot_
                          : std::uniform_int_distribution<int>(0, spec_.active_warps - 1)(rng_);
    case PhaseKind::kAllSlots:
      return sweep_slot_;
    default:
      return std::uniform_int_distribution<int>(0, spec_.active_warps - 1)(rng_);
  }
}

int RfcStimulus::Reg() {
  if (phase_ == PhaseKind::kSameRegister || Chance(1, 2))
    return hot_regs_[std::uniform_int_distribution<size_t>(0, hot_regs_.size() - 1)(rng_)];
  return std::uniform_int_distribution<int>(0, spec_.registers() - 1)(rng_);
}

int RfcStimulus::RecentReg(int slot) {
  const auto& r = recent_[slot];
  if (r.empty() || Chance(1, 6))
    return Reg();
  return r[std::uniform_int_distribution<size_t>(0, r.size() - 1)(rng_)];
}

RfcStimulus::Write RfcStimulus::MakeWrite() {
  Write w;
  w.slot = Slot();
  if (phase_ == PhaseKind::kEvictionChains) {
    w.reg = next_reg_;
    next_reg_ = (next_reg_ + 1) % spec_.registers();
  } else {
    w.reg = Reg();
  }
  w.data = Bits(spec_.width);
  for (int b = 0; b < spec_.width; b += 64)
    w.data.set(b, std::min(64, spec_.width - b), rng_());
  w.long_latency = Chance(1, phase_ == PhaseKind::kLongLatency ? 2 : 16);
  w.no_l0 = spec_.two_levels() && Chance(1, phase_ == PhaseKind::kNotForL0 ? 2 : 8);
  return w;
}

void RfcStimulus::PickPhase() {
  static const PhaseKind kPhases[] = {
      PhaseKind::kRandom,       PhaseKind::kEvictionChains, PhaseKind::kFlushDirty,
      PhaseKind::kDeadHints,    PhaseKind::kLongLatency,    PhaseKind::kNotForL0,
      PhaseKind::kSameRegister, PhaseKind::kAllSlots,       PhaseKind::kBackpressure,
      PhaseKind::kRandom,       PhaseKind::kFlushDirty,     PhaseKind::kResetPulse};
  phase_ = kPhases[std::uniform_int_distribution<size_t>(0, std::size(kPhases) - 1)(rng_)];
  if (phase_ == PhaseKind::kNotForL0 && !spec_.two_levels())
    phase_ = PhaseKind::kRandom;
  phase_left_ = phase_ == PhaseKind::kResetPulse
                    ? 1
                    : std::uniform_int_distribution<uint64_t>(100, 500)(rng_);
  focus_slot_ = std::uniform_int_distribution<int>(0, spec_.active_warps - 1)(rng_);
  next_reg_ = std::uniform_int_distribution<int>(0, spec_.registers() - 1)(rng_);
  // A small working set of registers, as a compiled kernel has.
  const int n = phase_ == PhaseKind::kSameRegister
                    ? std::uniform_int_distribution<int>(2, 3)(rng_)
                    : std::uniform_int_distribution<int>(4, 14)(rng_);
  hot_regs_.clear();
  for (int i = 0; i < n; ++i)
    hot_regs_.push_back(std::uniform_int_distribution<int>(0, spec_.registers() - 1)(rng_));
}

void RfcStimulus::Next(uint64_t cycle, PortValues& in) {
  if (phase_left_ == 0)
    PickPhase();
  --phase_left_;
  for (int i = 0; i < p_.count; ++i) {
    if (i != p_.clk)
      in[i].clear();
  }
  const bool reset = phase_ == PhaseKind::kReset || phase_ == PhaseKind::kResetPulse;
  in[p_.rst_n] = Bits(1, reset ? 0 : 1);
  in_reset_ = reset;
  if (reset) {
    wr_pending_ = false;
    fl_pending_ = false;
    for (auto& r : recent_)
      r.clear();
  }
  if (phase_ == PhaseKind::kAllSlots && cycle % 3 == 0)
    sweep_slot_ = (sweep_slot_ + 1) % spec_.active_warps;

  // Rates per phase.
  int wr_num = 3, wr_den = 4, lu_num = 2, lu_den = 3, last_num = 1, last_den = 4, fl_num = 1,
      fl_den = 200, ready_num = 3, ready_den = 4;
  switch (phase_) {
    case PhaseKind::kEvictionChains:
      wr_num = 1, wr_den = 1, ready_num = 7, ready_den = 8, fl_den = 400;
      break;
    case PhaseKind::kFlushDirty:
      fl_num = 1, fl_den = 4, last_num = 1, last_den = 5;
      break;
    case PhaseKind::kDeadHints:
      last_num = 3, last_den = 4;
      break;
    case PhaseKind::kBackpressure:
      ready_num = 1, ready_den = 4, fl_den = 20;
      break;
    case PhaseKind::kSameRegister:
      lu_num = 3, lu_den = 4;
      break;
    default:
      break;
  }

  // Lookups: mostly registers recently written to the operand's slot.
  for (int k = 0; k < 3; ++k) {
    if (!Chance(lu_num, lu_den))
      continue;
    const int slot = Slot();
    in[p_.lu_valid].set_bit(k, true);
    in[p_.lu_slot].set(k * spec_.slot_bits, spec_.slot_bits, static_cast<uint64_t>(slot));
    in[p_.lu_reg].set(k * spec_.reg_bits, spec_.reg_bits, static_cast<uint64_t>(RecentReg(slot)));
    in[p_.lu_last].set_bit(k, Chance(last_num, last_den));
  }
  // Occasionally a junk hint on an idle operand (must be ignored).
  if (Chance(1, 16))
    in[p_.lu_last].set_bit(2, true);

  // The result write, held until accepted.
  if (!wr_pending_ && !reset && Chance(wr_num, wr_den)) {
    wr_ = MakeWrite();
    wr_pending_ = true;
  }
  if (wr_pending_) {
    in[p_.wr_valid] = Bits(1, 1);
    in[p_.wr_slot] = Bits(spec_.slot_bits, static_cast<uint64_t>(wr_.slot));
    in[p_.wr_reg] = Bits(spec_.reg_bits, static_cast<uint64_t>(wr_.reg));
    in[p_.wr_data] = wr_.data;
    in[p_.wr_long] = Bits(1, wr_.long_latency);
    if (p_.wr_no_l0 >= 0)
      in[p_.wr_no_l0] = Bits(1, wr_.no_l0);
  } else {
    // Idle write fields carry junk that must be ignored.
    in[p_.wr_reg] = Bits(spec_.reg_bits, rng_());
    in[p_.wr_long] = Bits(1, rng_() & 1);
  }

  // Flush requests, held until taken.
  if (!fl_pending_ && !reset && Chance(fl_num, fl_den)) {
    fl_pending_ = true;
    fl_slot_ = phase_ == PhaseKind::kFlushDirty && Chance(1, 2) ? focus_slot_ : Slot();
    focus_slot_ = (focus_slot_ + 1) % spec_.active_warps;
  }
  if (fl_pending_) {
    in[p_.fl_valid] = Bits(1, 1);
    in[p_.fl_slot] = Bits(spec_.slot_bits, static_cast<uint64_t>(fl_slot_));
  }
  in[p_.wb_ready] = Bits(1, Chance(ready_num, ready_den));
}

void RfcStimulus::Observe(uint64_t /*cycle*/, const PortValues& out) {
  if (in_reset_)
    return;
  if (wr_pending_ && out[p_.wr_ready].bit(0)) {
    wr_pending_ = false;
    auto& r = recent_[wr_.slot];
    r.push_back(wr_.reg);
    if (r.size() > 10)
      r.pop_front();
  }
  if (fl_pending_ && !out[p_.fl_busy].bit(0)) {
    fl_pending_ = false;
    recent_[fl_slot_].clear();
  }
}

GPURF_REGISTER(StimulusFamily, rfc, "rfc",
               StimulusFamily{
                   [](const StructureSpec& s, uint64_t seed) -> std::unique_ptr<Stimulus> {
                     return std::make_unique<RfcStimulus>(SpecAs<RfcSpec>(s), seed);
                   }})

}  // namespace gpurf
