// The CTA register balance counters and throttle: specs and a port-level driver of the golden
// model for the tests.
#pragma once

#include <string>
#include <vector>

#include "gen/structures/cta_throttle/cta_throttle_ports.h"
#include "gen/structures/cta_throttle/cta_throttle_spec.h"
#include "models/cta_throttle_model.h"

namespace gpurf::test {

struct ThrottleShape {
  int slots = 8, banks = 4, regs_per_bank = 256, alloc_ports = 2, release_ports = 4;
};

inline CtaThrottleSpec MakeThrottleSpec(const ThrottleShape& s) {
  ParamSet p(CtaThrottleSpec::ParamDescs());
  auto set = [&](const char* name, int v) { p.Set(name, std::to_string(v), {}, name); };
  set("slots", s.slots);
  set("banks", s.banks);
  set("regs_per_bank", s.regs_per_bank);
  set("alloc_ports", s.alloc_ports);
  set("release_ports", s.release_ports);
  return CtaThrottleSpec::FromParams(p);
}

// The model's ports: set one cycle's events, Step() evaluates and clocks and clears them.
struct ThrottleIo {
  using P = CtaThrottlePort;
  explicit ThrottleIo(const CtaThrottleSpec& spec) : s(spec), model(spec) {
    in = out = def = CtaThrottlePortTable(s).ZeroValues();
    in[P::kRstN] = Bits(1, 1);
  }
  void Launch(int slot, const std::vector<int>& need) {
    in[P::kLaunchValid] = Bits(1, 1);
    in[P::kLaunchSlot].set(0, s.slot_bits, static_cast<uint64_t>(slot));
    for (int b = 0; b < s.banks; ++b)
      in[P::kLaunchNeed].set(b * s.need_bits, s.need_bits, static_cast<uint64_t>(need[b]));
  }
  void Exit(int slot) {
    in[P::kExitValid] = Bits(1, 1);
    in[P::kExitSlot].set(0, s.slot_bits, static_cast<uint64_t>(slot));
  }
  // One register of the group in `bank` on the next allocation port.
  void Alloc(int slot, int bank) {
    in[P::kAllocValid].set_bit(alloc_, true);
    in[P::kAllocBank].set(alloc_ * s.bank_bits, s.bank_bits, static_cast<uint64_t>(bank));
    in[P::kAllocSlot].set(0, s.slot_bits, static_cast<uint64_t>(slot));
    ++alloc_;
  }
  void Release(int slot, int bank) {
    in[P::kRelValid].set_bit(rel_, true);
    in[P::kRelSlot].set(rel_ * s.slot_bits, s.slot_bits, static_cast<uint64_t>(slot));
    in[P::kRelBank].set(rel_ * s.bank_bits, s.bank_bits, static_cast<uint64_t>(bank));
    ++rel_;
  }
  void Eval() { model.Outputs(in, out, def); }
  void Step() {
    Eval();
    model.Clock(in);
    for (int p = P::kLaunchValid; p <= P::kRelBank; ++p)
      in[p].clear();
    alloc_ = rel_ = 0;
  }
  bool Granted() const { return out[P::kAllocGrant].bit(0); }
  int Spill(int bank) const {
    return static_cast<int>(out[P::kSpill].get(bank * s.spill_bits, s.spill_bits));
  }
  bool IssueOk(int slot) const { return out[P::kIssueOk].bit(slot); }
  bool Throttle() const { return out[P::kThrottle].bit(0); }
  int Reserved() const {
    return out[P::kReservedValid].bit(0) ? static_cast<int>(out[P::kReserved].get(0, s.slot_bits))
                                         : -1;
  }
  bool SpillMode() const { return out[P::kSpillMode].bit(0); }
  int Free(int bank) const {
    return static_cast<int>(out[P::kFreeCount].get(bank * s.count_bits, s.count_bits));
  }

  const CtaThrottleSpec s;
  CtaThrottleModel model;
  PortValues in, out, def;

 private:
  int alloc_ = 0, rel_ = 0;
};

}  // namespace gpurf::test
