#include "verif/stimulus/hybrid_rc_stimulus.h"

#include <algorithm>

#include "gen/structures/hybrid_rc/hybrid_rc_ports.h"
#include "verif/stimulus/registry.h"

namespace gpurf {

using P = HybridRcPort;

HybridRcStimulus::HybridRcStimulus(const HybridRcSpec& spec, uint64_t seed)
    : spec_(spec), rng_(seed), slot_live_(static_cast<size_t>(spec.rsp_slots), false) {}

std::string HybridRcStimulus::Phase() const {
  switch (phase_) {
    case PhaseKind::kReset:
      return "reset";
    case PhaseKind::kMixed:
      return "mixed";
    case PhaseKind::kEvictions:
      return "evictions";
    case PhaseKind::kDead:
      return "dead";
    case PhaseKind::kSameSet:
      return "same-set";
    case PhaseKind::kRsp:
      return "rsp";
    case PhaseKind::kIdle:
      return "idle";
    case PhaseKind::kResetPulse:
      return "reset-pulse";
  }
  return "?";
}

void HybridRcStimulus::PickPhase() {
  static const PhaseKind kPhases[] = {
      PhaseKind::kMixed,   PhaseKind::kMixed,     PhaseKind::kEvictions, PhaseKind::kDead,
      PhaseKind::kSameSet, PhaseKind::kRsp,       PhaseKind::kRsp,       PhaseKind::kEvictions,
      PhaseKind::kIdle,    PhaseKind::kResetPulse};
  phase_ = kPhases[std::uniform_int_distribution<size_t>(0, std::size(kPhases) - 1)(rng_)];
  phase_left_ =
      phase_ == PhaseKind::kResetPulse ? 1 : std::uniform_int_distribution<uint64_t>(64, 512)(rng_);
  focus_sets_.clear();
  const int n = phase_ == PhaseKind::kSameSet ? 1 : Uniform(1, 2);
  for (int i = 0; i < n && spec_.has_rc(); ++i)
    focus_sets_.push_back(Uniform(0, spec_.sets - 1));
}

std::pair<int, int> HybridRcStimulus::Register() {
  // A few warps; register names whose set is a focus set (most of the time), with a few high
  // bits, so that (ways + 2) or so registers compete for each focus set.
  const int warp = Uniform(0, std::min(spec_.warps, 4) - 1);
  if (!spec_.has_rc())  // no sets to compete for: a few registers, so reads find values
    return {warp, Uniform(0, std::min((1 << spec_.reg_bits) - 1, 15))};
  if (!spec_.sets_pow2) {
    // Set (r ^ w) mod NumSets: r ^ w = set + k x NumSets for a few k (the highest that fits the
    // register names when k is too large).
    int set = focus_sets_[Uniform(0, static_cast<int>(focus_sets_.size()) - 1)];
    if (phase_ == PhaseKind::kMixed && Chance(0.3))
      set = Uniform(0, spec_.sets - 1);
    for (int k = Uniform(0, spec_.ways + 1); k >= 0; --k) {
      const int r = (set + k * spec_.sets) ^ warp;
      if (r < (1 << spec_.reg_bits))
        return {warp, r};
    }
    return {warp, set ^ warp};
  }
  const int high_max = std::min((1 << (spec_.reg_bits - spec_.set_bits)) - 1, spec_.ways + 1);
  const int high = Uniform(0, high_max);
  int set = focus_sets_[Uniform(0, static_cast<int>(focus_sets_.size()) - 1)];
  if (phase_ == PhaseKind::kMixed && Chance(0.3))
    set = Uniform(0, spec_.sets - 1);
  const int low = (set ^ warp) & (spec_.sets - 1);
  return {warp, (high << spec_.set_bits) | low};
}

int HybridRcStimulus::LiveSlot() {
  std::vector<int> live;
  for (int s = 0; s < spec_.rsp_slots; ++s) {
    if (slot_live_[s])
      live.push_back(s);
  }
  return live.empty() ? -1 : live[Uniform(0, static_cast<int>(live.size()) - 1)];
}

void HybridRcStimulus::RandomData(Bits& b, int lsb) {
  for (int i = 0; i < spec_.width; i += 64)
    b.set(lsb + i, std::min(64, spec_.width - i), rng_());
}

void HybridRcStimulus::Next(uint64_t /*cycle*/, PortValues& in) {
  using S = HybridRcSpec;
  if (phase_left_ == 0)
    PickPhase();
  --phase_left_;
  const bool reset = phase_ == PhaseKind::kReset || phase_ == PhaseKind::kResetPulse;
  in[P::kRstN] = Bits(1, reset ? 0 : 1);
  const int sb = spec_.slot_bits, wb = spec_.warp_bits, rb = spec_.reg_bits, dw = spec_.width;
  // Junk everywhere first: the fields of absent ports must be ignored.
  for (int p = P::kRdValid; p <= P::kXfData; ++p) {
    for (int i = 0; i < in[p].width(); i += 64)
      in[p].set(i, std::min(64, in[p].width() - i), rng_());
  }
  in[P::kRdValid].clear();
  in[P::kWrValid].clear();
  in[P::kXfValid].clear();
  if (reset) {
    std::fill(slot_live_.begin(), slot_live_.end(), false);
    return;
  }
  if (phase_ == PhaseKind::kIdle)
    return;

  double p_rsp = 0.2, p_last = 0.15, p_xf = 0.15, p_src = 0.6, p_dst = 0.8;
  switch (phase_) {
    case PhaseKind::kEvictions:
      p_rsp = 0.05, p_last = 0.03, p_xf = 0.05, p_src = 0.4, p_dst = 0.95;
      break;
    case PhaseKind::kDead:
      p_rsp = 0.05, p_last = 0.6, p_src = 0.8;
      break;
    case PhaseKind::kSameSet:
      p_rsp = 0.05, p_last = 0.2, p_dst = 0.95, p_src = 0.8;
      break;
    case PhaseKind::kRsp:
      p_rsp = 0.5, p_xf = 0.8;
      break;
    default:
      break;
  }
  if (!spec_.has_rsp())
    p_rsp = 0, p_xf = 0;  // the RC-only design: no slot to name, nothing to transfer
  // The RSP slots that exist for this cycle's reads: those written before it.
  for (int i = 0; i < S::kWritePorts; ++i) {
    if (!Chance(0.85))
      continue;  // no instruction in this issue slot
    for (int k = 0; k < 3; ++k) {
      const int p = 3 * i + k;
      if (!Chance(p_src))
        continue;
      const int slot = Chance(p_rsp) ? LiveSlot() : -1;
      in[P::kRdValid].set_bit(p, true);
      if (slot >= 0) {
        in[P::kRdRsp].set_bit(p, true);
        in[P::kRdSlot].set(p * sb, sb, static_cast<uint64_t>(slot));
      } else {
        const auto [w, r] = Register();
        in[P::kRdRsp].set_bit(p, false);
        in[P::kRdWarp].set(p * wb, wb, static_cast<uint64_t>(w));
        in[P::kRdReg].set(p * rb, rb, static_cast<uint64_t>(r));
        in[P::kRdLast].set_bit(p, Chance(p_last));
      }
    }
  }
  // The transfer (not in parallel-lifetime: the compiler makes no allocation that needs one).
  int fill_slot = -1;
  if (spec_.transfers() && spec_.has_rsp() && Chance(p_xf)) {
    const int live = LiveSlot();
    const bool live_out = live >= 0 && Chance(0.5);
    const int slot = live_out ? live : Uniform(0, spec_.rsp_slots - 1);
    const auto [w, r] = Register();
    in[P::kXfValid] = Bits(1, 1);
    in[P::kXfOp] = Bits(1, live_out ? 1 : 0);
    in[P::kXfSlot].set(0, sb, static_cast<uint64_t>(slot));
    in[P::kXfWarp].set(0, wb, static_cast<uint64_t>(w));
    in[P::kXfReg].set(0, rb, static_cast<uint64_t>(r));
    if (!live_out)
      fill_slot = slot;
  }
  for (int q = 0; q < S::kWritePorts; ++q) {
    if (!Chance(p_dst))
      continue;
    in[P::kWrValid].set_bit(q, true);
    RandomData(in[P::kWrData], q * dw);
    if (Chance(p_rsp)) {
      const int slot = Uniform(0, spec_.rsp_slots - 1);
      in[P::kWrRsp].set_bit(q, true);
      in[P::kWrSlot].set(q * sb, sb, static_cast<uint64_t>(slot));
      slot_live_[slot] = true;
    } else {
      const auto [w, r] = Register();
      in[P::kWrRsp].set_bit(q, false);
      in[P::kWrWarp].set(q * wb, wb, static_cast<uint64_t>(w));
      in[P::kWrReg].set(q * rb, rb, static_cast<uint64_t>(r));
    }
  }
  if (fill_slot >= 0)
    slot_live_[fill_slot] = true;
}

GPURF_REGISTER(StimulusFamily, hybrid_rc, "hybrid-rc",
               StimulusFamily{
                   [](const StructureSpec& s, uint64_t seed) -> std::unique_ptr<Stimulus> {
                     return std::make_unique<HybridRcStimulus>(SpecAs<HybridRcSpec>(s), seed);
                   }})

}  // namespace gpurf
