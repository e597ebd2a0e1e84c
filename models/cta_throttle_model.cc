#include "models/cta_throttle_model.h"

#include <fmt/format.h>

#include <algorithm>

#include "models/registry.h"

namespace gpurf {

CtaThrottleModel::CtaThrottleModel(const CtaThrottleSpec& spec) : spec_(spec) {
  Reset();
}

void CtaThrottleModel::Reset() {
  ctas_.assign(static_cast<size_t>(spec_.slots), {});
  for (Cta& c : ctas_) {
    c.need.assign(static_cast<size_t>(spec_.banks), 0);
    c.held.assign(static_cast<size_t>(spec_.banks), 0);
  }
  free_.assign(static_cast<size_t>(spec_.banks), spec_.regs_per_bank);
  reserved_ = -1;
  spill_mode_ = false;
}

int64_t CtaThrottleModel::Counter(int slot) const {
  int64_t c = 0;
  for (int b = 0; b < spec_.banks; ++b)
    c += ctas_[slot].need[b] - ctas_[slot].held[b];
  return c;
}

bool CtaThrottleModel::Throttle() const {
  // Section 8.1: when the free registers cannot cover any resident CTA's remaining worst case,
  // only one CTA (the reserved one) keeps issuing so that it can finish and free its registers.
  int alive = 0;
  int64_t lowest = 0;
  for (int i = 0; i < spec_.slots; ++i) {
    if (!ctas_[i].alive)
      continue;
    lowest = alive == 0 ? Counter(i) : std::min(lowest, Counter(i));
    ++alive;
  }
  int64_t free_total = 0;
  for (int f : free_)
    free_total += f;
  return alive > 1 && free_total < lowest;
}

bool CtaThrottleModel::MayIssue(int slot) const {
  return ctas_[slot].alive && (!Throttle() || slot == reserved_);
}

bool CtaThrottleModel::Grants(int slot, const std::vector<int>& n) const {
  bool any = false;
  for (int b = 0; b < spec_.banks; ++b) {
    any = any || n[b] > 0;
    if (slot == reserved_) {
      if (free_[b] < n[b] && !spill_mode_)
        return false;
    } else {
      const int keep =
          reserved_ < 0
              ? 0
              : std::min(spec_.regs_per_bank, ctas_[reserved_].need[b] - ctas_[reserved_].held[b]);
      if (free_[b] - n[b] < keep)
        return false;
    }
  }
  return any;
}

std::vector<int> CtaThrottleModel::GroupOf(const PortValues& in) const {
  std::vector<int> n(static_cast<size_t>(spec_.banks), 0);
  for (int a = 0; a < spec_.alloc_ports; ++a) {
    if (!in[kAllocValid].bit(a))
      continue;
    const uint64_t b = in[kAllocBank].get(a * spec_.bank_bits, spec_.bank_bits);
    if (b < static_cast<uint64_t>(spec_.banks))
      ++n[b];
  }
  return n;
}

int CtaThrottleModel::ArgMinCounter() const {
  int best = -1;
  for (int i = 0; i < spec_.slots; ++i) {
    if (ctas_[i].alive && (best < 0 || Counter(i) < Counter(best)))
      best = i;
  }
  return best;
}

bool CtaThrottleModel::Serves(int slot) const {
  for (int b = 0; b < spec_.banks; ++b) {
    if (free_[b] < ctas_[slot].need[b] - ctas_[slot].held[b])
      return false;
  }
  return true;
}

void CtaThrottleModel::Outputs(const PortValues& in, PortValues& out, PortValues& defined) {
  for (int p = kAllocGrant; p < kNumPorts; ++p) {
    out[p].clear();
    defined[p].fill_ones();
  }
  if (!in[kRstN].bit(0)) {
    for (int b = 0; b < spec_.banks; ++b)
      out[kFreeCount].set(b * spec_.count_bits, spec_.count_bits,
                          static_cast<uint64_t>(spec_.regs_per_bank));
    return;
  }
  const bool throttle = Throttle();
  out[kThrottle].set_bit(0, throttle);
  for (int i = 0; i < spec_.slots; ++i)
    out[kIssueOk].set_bit(i, MayIssue(i));
  out[kReservedValid].set_bit(0, reserved_ >= 0);
  out[kReserved].set(0, spec_.slot_bits, static_cast<uint64_t>(std::max(0, reserved_)));
  out[kSpillMode].set_bit(0, spill_mode_);
  for (int b = 0; b < spec_.banks; ++b)
    out[kFreeCount].set(b * spec_.count_bits, spec_.count_bits, static_cast<uint64_t>(free_[b]));
  const uint64_t slot = in[kAllocSlot].get(0, spec_.slot_bits);
  if (slot >= static_cast<uint64_t>(spec_.slots))
    return;
  const std::vector<int> n = GroupOf(in);
  if (!Grants(static_cast<int>(slot), n))
    return;
  out[kAllocGrant].set_bit(0, true);
  for (int b = 0; b < spec_.banks; ++b) {
    if (n[b] > free_[b])
      out[kSpill].set(b * spec_.spill_bits, spec_.spill_bits,
                      static_cast<uint64_t>(n[b] - free_[b]));
  }
}

void CtaThrottleModel::Clock(const PortValues& in) {
  if (!in[kRstN].bit(0)) {
    Reset();
    return;
  }
  if (Throttle()) {
    ++throttled_cycles_;
    // T1 on the answer this model gives (kept so that a change to MayIssue cannot pass).
    for (int i = 0; i < spec_.slots; ++i) {
      if (MayIssue(i) && i != reserved_)
        Fail(fmt::format("T1 violated: slot {} may issue while the throttle is on", i));
    }
  }
  const auto field = [&](int port, int index, int bits) {
    return in[port].get(index * bits, bits);
  };
  const auto slots = static_cast<uint64_t>(spec_.slots);
  const auto banks = static_cast<uint64_t>(spec_.banks);

  // The allocation group (decided on the state before the edge).
  const uint64_t aslot = field(kAllocSlot, 0, spec_.slot_bits);
  const std::vector<int> n = GroupOf(in);
  bool any_alloc = false;
  for (int a = 0; a < spec_.alloc_ports; ++a) {
    if (!in[kAllocValid].bit(a))
      continue;
    any_alloc = true;
    if (field(kAllocBank, a, spec_.bank_bits) >= banks)
      Fail(fmt::format("C1 violated: allocation port {} names bank {}", a,
                       field(kAllocBank, a, spec_.bank_bits)));
  }
  bool grant = false;
  if (any_alloc) {
    if (aslot >= slots || !ctas_[aslot].alive) {
      Fail(fmt::format("C1 violated: allocation for slot {}, which holds no CTA", aslot));
    } else {
      grant = Grants(static_cast<int>(aslot), n);
    }
  }
  // Releases.
  std::vector<std::vector<int>> rel(ctas_.size(), std::vector<int>(banks, 0));
  std::vector<int> rel_bank(banks, 0);
  for (int p = 0; p < spec_.release_ports; ++p) {
    if (!in[kRelValid].bit(p))
      continue;
    const uint64_t s = field(kRelSlot, p, spec_.slot_bits);
    const uint64_t b = field(kRelBank, p, spec_.bank_bits);
    if (s >= slots || b >= banks) {
      Fail(fmt::format("C1 violated: release port {} names slot {} bank {}", p, s, b));
      continue;
    }
    ++rel[s][b];
    ++rel_bank[b];
  }
  // Apply: grant and releases, checked against the contract.
  for (int b = 0; b < spec_.banks; ++b) {
    const int take = grant ? n[b] : 0;
    if (grant && aslot != static_cast<uint64_t>(reserved_) && reserved_ >= 0 &&
        free_[b] - take <
            std::min(spec_.regs_per_bank, ctas_[reserved_].need[b] - ctas_[reserved_].held[b]))
      Fail(fmt::format(
          "T5 violated: grant to slot {} eats the reserved CTA's worst case in bank {}", aslot, b));
    if (free_[b] + rel_bank[b] < take)
      Fail(
          fmt::format("C1 violated: bank {} grants {} with {} free and {} released (spills not "
                      "released)",
                      b, take, free_[b], rel_bank[b]));
    if (take > free_[b])
      spills_ += static_cast<uint64_t>(take - free_[b]);
    free_[b] += rel_bank[b] - take;
    for (int i = 0; i < spec_.slots; ++i) {
      Cta& c = ctas_[i];
      if (rel[i][b] > c.held[b])
        Fail(fmt::format("C1 violated: slot {} releases {} registers of bank {}, holds {}", i,
                         rel[i][b], b, c.held[b]));
      c.held[b] -= rel[i][b];
      if (grant && static_cast<uint64_t>(i) == aslot) {
        if (c.held[b] + rel[i][b] + take > c.need[b])
          Fail(fmt::format("C1 violated: slot {} maps {} registers in bank {} beyond its C = {}", i,
                           c.held[b] + rel[i][b] + take, b, c.need[b]));
        c.held[b] += take;
      }
    }
  }
  if (grant)
    ++grants_;

  // Launch and exit.
  const bool launch = in[kLaunchValid].bit(0), exit = in[kExitValid].bit(0);
  if (launch && exit)
    Fail("C1 violated: a launch and an exit in one cycle");
  if (launch) {
    const uint64_t s = field(kLaunchSlot, 0, spec_.slot_bits);
    if (s >= slots || ctas_[s].alive) {
      Fail(fmt::format("C1 violated: launch into slot {}, which is not free", s));
    } else {
      Cta& c = ctas_[s];
      c.alive = true;
      for (int b = 0; b < spec_.banks; ++b) {
        c.need[b] = static_cast<int>(field(kLaunchNeed, b, spec_.need_bits));
        spill_mode_ = spill_mode_ || c.need[b] > spec_.regs_per_bank;
      }
      if (reserved_ < 0)
        reserved_ = static_cast<int>(s);
    }
  }
  if (exit) {
    const uint64_t s = field(kExitSlot, 0, spec_.slot_bits);
    if (s >= slots || !ctas_[s].alive) {
      Fail(fmt::format("C1 violated: exit of slot {}, which holds no CTA", s));
    } else {
      Cta& c = ctas_[s];
      for (int b = 0; b < spec_.banks; ++b) {
        if (c.held[b] != 0)
          Fail(fmt::format("C1 violated: slot {} exits holding {} registers of bank {}", s,
                           c.held[b], b));
        c.need[b] = 0;
      }
      c.alive = false;
      if (reserved_ == static_cast<int>(s))
        reserved_ = ArgMinCounter();
    }
  }
  if (launch || exit) {
    // The reservation follows the minimum counter while every bank can serve that CTA.
    const int best = ArgMinCounter();
    if (best >= 0 && best != reserved_ && Serves(best))
      reserved_ = best;
  }

  // T2-T4 on the state after the edge.
  int alive = 0;
  for (int b = 0; b < spec_.banks; ++b) {
    int held = 0;
    for (int i = 0; i < spec_.slots; ++i) {
      const Cta& c = ctas_[i];
      held += c.held[b];
      const bool bad = c.alive
                           ? (c.held[b] < 0 || c.held[b] > std::min(c.need[b], spec_.regs_per_bank))
                           : (c.held[b] != 0 || c.need[b] != 0);
      if (bad)
        Fail(fmt::format("T2 violated: slot {} bank {}: k = {}, C = {}", i, b, c.held[b],
                         c.need[b]));
    }
    if (free_[b] + held != spec_.regs_per_bank)
      Fail(fmt::format("T3 violated: bank {}: {} free + {} held != {}", b, free_[b], held,
                       spec_.regs_per_bank));
  }
  for (const Cta& c : ctas_)
    alive += c.alive ? 1 : 0;
  if ((reserved_ >= 0) != (alive > 0) || (reserved_ >= 0 && !ctas_[reserved_].alive))
    Fail(fmt::format("T4 violated: reserved slot {} with {} CTAs alive", reserved_, alive));
}

GPURF_REGISTER(ModelFamily, cta_throttle, "cta-throttle",
               ModelFamily{[](const StructureSpec& s) -> std::unique_ptr<CycleModel> {
                 return std::make_unique<CtaThrottleModel>(SpecAs<CtaThrottleSpec>(s));
               }})

}  // namespace gpurf
