#include "verif/stimulus/cta_throttle_stimulus.h"

#include <algorithm>

#include "gen/structures/cta_throttle/cta_throttle_ports.h"
#include "verif/stimulus/registry.h"

namespace gpurf {

using P = CtaThrottlePort;

CtaThrottleStimulus::CtaThrottleStimulus(const CtaThrottleSpec& spec, uint64_t seed)
    : spec_(spec), rng_(seed) {
  ClearMirror();
}

void CtaThrottleStimulus::ClearMirror() {
  const auto n = static_cast<size_t>(spec_.slots), b = static_cast<size_t>(spec_.banks);
  alive_.assign(n, false);
  need_.assign(n, std::vector<int>(b, 0));
  held_.assign(n, std::vector<int>(b, 0));
  free_.assign(b, spec_.regs_per_bank);
  issue_ok_.assign(n, false);
  reserved_ = -1;
  spill_mode_ = false;
  focus_ = -1;
}

std::string CtaThrottleStimulus::Phase() const {
  switch (phase_) {
    case PhaseKind::kReset:
      return "reset";
    case PhaseKind::kFill:
      return "fill";
    case PhaseKind::kChurn:
      return "churn";
    case PhaseKind::kTurnover:
      return "turnover";
    case PhaseKind::kOversize:
      return "oversize";
    case PhaseKind::kDrain:
      return "drain";
    case PhaseKind::kIdle:
      return "idle";
    case PhaseKind::kResetPulse:
      return "reset-pulse";
  }
  return "?";
}

void CtaThrottleStimulus::PickPhase() {
  static const PhaseKind kPhases[] = {
      PhaseKind::kFill,     PhaseKind::kFill,      PhaseKind::kChurn, PhaseKind::kChurn,
      PhaseKind::kTurnover, PhaseKind::kTurnover,  PhaseKind::kDrain, PhaseKind::kOversize,
      PhaseKind::kIdle,     PhaseKind::kResetPulse};
  phase_ = kPhases[std::uniform_int_distribution<size_t>(0, std::size(kPhases) - 1)(rng_)];
  phase_left_ = phase_ == PhaseKind::kResetPulse
                    ? 1
                    : std::uniform_int_distribution<uint64_t>(64, 1024)(rng_);
  focus_ = -1;
  big_slot_ = -1;
}

int CtaThrottleStimulus::Held(int slot) const {
  int h = 0;
  for (int x : held_[slot])
    h += x;
  return h;
}

void CtaThrottleStimulus::Release(PortValues& in, int slot, int bank) {
  const int p = ports_used_++;
  in[P::kRelValid].set_bit(p, true);
  in[P::kRelSlot].set(p * spec_.slot_bits, spec_.slot_bits, static_cast<uint64_t>(slot));
  in[P::kRelBank].set(p * spec_.bank_bits, spec_.bank_bits, static_cast<uint64_t>(bank));
  --held_[slot][bank];
  ++free_[bank];
}

void CtaThrottleStimulus::Launch(PortValues& in, bool oversize) {
  std::vector<int> free_slots;
  for (int i = 0; i < spec_.slots; ++i) {
    if (!alive_[i])
      free_slots.push_back(i);
  }
  if (free_slots.empty())
    return;
  const int s = free_slots[std::uniform_int_distribution<size_t>(0, free_slots.size() - 1)(rng_)];
  const int p = spec_.regs_per_bank;
  // A CTA's worst case per bank: small, or up to the bank, or (oversize) beyond it in one bank.
  const bool small = Chance(0.3);
  const int lo = small ? 1 : std::max(1, p / 2), hi = small ? std::max(1, p / 4) : p;
  const int big = oversize ? Uniform(0, spec_.banks - 1) : -1;
  if (oversize) {
    big_slot_ = s;
    big_bank_ = big;
  }
  in[P::kLaunchValid] = Bits(1, 1);
  in[P::kLaunchSlot].set(0, spec_.slot_bits, static_cast<uint64_t>(s));
  for (int b = 0; b < spec_.banks; ++b) {
    const int c = b == big ? Uniform(p + 1, spec_.MaxNeed()) : Uniform(Chance(0.1) ? 0 : lo, hi);
    need_[s][b] = c;
    held_[s][b] = 0;
    in[P::kLaunchNeed].set(b * spec_.need_bits, spec_.need_bits, static_cast<uint64_t>(c));
  }
  alive_[s] = true;
  event_now_ = true;
}

bool CtaThrottleStimulus::Exit(PortValues& in, int slot) {
  if (!alive_[slot] || Held(slot) != 0 || slot == group_slot_)
    return false;
  in[P::kExitValid] = Bits(1, 1);
  in[P::kExitSlot].set(0, spec_.slot_bits, static_cast<uint64_t>(slot));
  alive_[slot] = false;
  std::fill(need_[slot].begin(), need_[slot].end(), 0);
  event_now_ = true;
  return true;
}

void CtaThrottleStimulus::Allocate(PortValues& in, double p_port, bool settled, int force_slot,
                                   int bias_bank) {
  std::vector<int> cand, ok;
  for (int i = 0; i < spec_.slots; ++i) {
    if (!alive_[i] || i == focus_)
      continue;
    cand.push_back(i);
    if (issue_ok_[i])
      ok.push_back(i);
  }
  if (cand.empty())
    return;
  const std::vector<int>& from = (!ok.empty() && Chance(0.9)) ? ok : cand;
  const int s = force_slot >= 0 && alive_[force_slot]
                    ? force_slot
                    : from[std::uniform_int_distribution<size_t>(0, from.size() - 1)(rng_)];
  std::vector<int> n(static_cast<size_t>(spec_.banks), 0);
  std::vector<int> banks_of(static_cast<size_t>(spec_.alloc_ports), -1);
  for (int a = 0; a < spec_.alloc_ports; ++a) {
    if (!Chance(p_port))
      continue;
    const int b = bias_bank >= 0 && Chance(0.7) ? bias_bank : Uniform(0, spec_.banks - 1);
    if (held_[s][b] + n[b] >= need_[s][b])
      continue;  // within the CTA's C
    ++n[b];
    banks_of[a] = b;
  }
  // A spill is needed when the reserved CTA's group exceeds a bank (spill mode only); the
  // spills go out on the release ports in this cycle, or the group is not offered.
  int spills = 0;
  for (int b = 0; b < spec_.banks; ++b)
    spills += std::max(0, n[b] - free_[b]);
  if (spills > 0) {
    if (!settled || s != reserved_ || !spill_mode_ || spills > spec_.release_ports)
      std::fill(banks_of.begin(), banks_of.end(), -1);
    else {
      for (int b = 0; b < spec_.banks; ++b) {
        for (int k = free_[b]; k < n[b]; ++k) {
          // A mapped register of another CTA first, else one of the CTA's own.
          int victim = -1;
          for (int i = 0; i < spec_.slots && victim < 0; ++i) {
            if (i != s && held_[i][b] > 0)
              victim = i;
          }
          if (victim < 0)
            victim = s;
          Release(in, victim, b);  // free again, and taken by the grant (Observe)
        }
      }
    }
  }
  bool any = false;
  std::fill(n.begin(), n.end(), 0);
  for (int a = 0; a < spec_.alloc_ports; ++a) {
    if (banks_of[a] < 0)
      continue;
    any = true;
    ++n[banks_of[a]];
    in[P::kAllocValid].set_bit(a, true);
    in[P::kAllocBank].set(a * spec_.bank_bits, spec_.bank_bits, static_cast<uint64_t>(banks_of[a]));
  }
  if (any) {
    group_slot_ = s;
    group_n_ = n;
    in[P::kAllocSlot].set(0, spec_.slot_bits, static_cast<uint64_t>(s));
  }
}

void CtaThrottleStimulus::RandomReleases(PortValues& in, double p, int focus) {
  while (ports_used_ < spec_.release_ports && Chance(p)) {
    int slot = focus;
    if (slot < 0 || Held(slot) == 0) {
      std::vector<int> holders;
      for (int i = 0; i < spec_.slots; ++i) {
        if (Held(i) > 0)
          holders.push_back(i);
      }
      if (holders.empty())
        return;
      slot = holders[std::uniform_int_distribution<size_t>(0, holders.size() - 1)(rng_)];
    }
    std::vector<int> banks;
    for (int b = 0; b < spec_.banks; ++b) {
      if (held_[slot][b] > 0)
        banks.push_back(b);
    }
    Release(in, slot, banks[std::uniform_int_distribution<size_t>(0, banks.size() - 1)(rng_)]);
  }
}

void CtaThrottleStimulus::Next(uint64_t /*cycle*/, PortValues& in) {
  if (phase_left_ == 0)
    PickPhase();
  --phase_left_;
  const bool reset = phase_ == PhaseKind::kReset || phase_ == PhaseKind::kResetPulse;
  in[P::kRstN] = Bits(1, reset ? 0 : 1);
  for (int p = P::kLaunchValid; p <= P::kRelBank; ++p)
    in[p].clear();
  // Junk in the fields of idle ports: they must be ignored.
  in[P::kLaunchSlot].set(0, spec_.slot_bits, rng_());
  in[P::kExitSlot].set(0, spec_.slot_bits, rng_());
  for (int p = 0; p < spec_.release_ports; ++p) {
    in[P::kRelSlot].set(p * spec_.slot_bits, spec_.slot_bits, rng_());
    in[P::kRelBank].set(p * spec_.bank_bits, spec_.bank_bits, rng_());
  }
  group_slot_ = -1;
  ports_used_ = 0;
  const bool settled = !event_last_;
  event_now_ = false;
  if (reset) {
    ClearMirror();
    event_last_ = true;
    return;
  }
  switch (phase_) {
    case PhaseKind::kFill:
      Allocate(in, 0.8, settled);
      RandomReleases(in, 0.05, -1);
      if (Chance(0.05))
        Launch(in, false);
      break;
    case PhaseKind::kOversize: {
      // Empty the SM, launch one CTA larger than a bank, and map its registers (mostly in its
      // big bank) beside a few small CTAs: it becomes the reserved CTA and spills.
      const bool big_alive = big_slot_ >= 0 && alive_[big_slot_];
      int alive = 0;
      for (bool a : alive_)
        alive += a ? 1 : 0;
      if (!big_alive && alive > 0) {
        RandomReleases(in, 0.9, -1);
        for (int i = 0; i < spec_.slots && !event_now_; ++i)
          Exit(in, i);
      } else if (!big_alive) {
        Launch(in, true);
      } else {
        Allocate(in, 0.9, settled, Chance(0.8) ? big_slot_ : -1, big_bank_);
        if (Chance(0.2))
          RandomReleases(in, 0.5, -1);
        if (Chance(0.01))
          Launch(in, false);
      }
      break;
    }
    case PhaseKind::kChurn:
      Allocate(in, 0.5, settled);
      RandomReleases(in, 0.5, -1);
      if (Chance(0.01))
        Launch(in, false);
      else if (Chance(0.02))
        Exit(in, Uniform(0, spec_.slots - 1));
      break;
    case PhaseKind::kTurnover: {
      if (focus_ < 0 || !alive_[focus_]) {
        focus_ = -1;
        for (int i = 0; i < spec_.slots && focus_ < 0; ++i) {
          const int s = (reserved_ >= 0 && Chance(0.8)) ? reserved_ : Uniform(0, spec_.slots - 1);
          if (alive_[s])
            focus_ = s;
        }
      }
      Allocate(in, 0.4, settled);
      RandomReleases(in, 0.9, focus_);
      if (focus_ >= 0 && Exit(in, focus_))
        focus_ = -1;
      else if (Chance(0.1))
        Launch(in, false);
      break;
    }
    case PhaseKind::kDrain:
      RandomReleases(in, 0.9, -1);
      if (Chance(0.1))
        Exit(in, Uniform(0, spec_.slots - 1));
      break;
    default:
      break;
  }
  // Never a launch and an exit in one cycle: Exit and Launch are called one at a time above.
  event_last_ = event_now_;
}

void CtaThrottleStimulus::Observe(uint64_t /*cycle*/, const PortValues& out) {
  if (group_slot_ >= 0 && out[P::kAllocGrant].bit(0)) {
    for (int b = 0; b < spec_.banks; ++b) {
      held_[group_slot_][b] += group_n_[b];
      free_[b] -= group_n_[b];
    }
  }
  for (int i = 0; i < spec_.slots; ++i)
    issue_ok_[i] = out[P::kIssueOk].bit(i);
  reserved_ = out[P::kReservedValid].bit(0)
                  ? static_cast<int>(out[P::kReserved].get(0, spec_.slot_bits))
                  : -1;
  spill_mode_ = out[P::kSpillMode].bit(0);
}

GPURF_REGISTER(StimulusFamily, cta_throttle, "cta-throttle",
               StimulusFamily{
                   [](const StructureSpec& s, uint64_t seed) -> std::unique_ptr<Stimulus> {
                     return std::make_unique<CtaThrottleStimulus>(SpecAs<CtaThrottleSpec>(s), seed);
                   }})

}  // namespace gpurf
