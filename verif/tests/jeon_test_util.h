// Availability-vector and release-flag-cache specs and port-level drivers of their golden models
// for the tests.
#pragma once

#include <string>

#include "gen/structures/availability_vectors/availability_vectors_ports.h"
#include "gen/structures/availability_vectors/availability_vectors_spec.h"
#include "gen/structures/release_flag_cache/release_flag_cache_ports.h"
#include "gen/structures/release_flag_cache/release_flag_cache_spec.h"
#include "models/availability_vectors_model.h"
#include "models/release_flag_cache_model.h"

namespace gpurf::test {

struct AvailShape {
  int banks = 4, regs_per_bank = 256, subarrays = 4, wake_cycles = 1, release_ports = 4;
};

inline AvailabilityVectorsSpec MakeAvailSpec(const AvailShape& s) {
  ParamSet p(AvailabilityVectorsSpec::ParamDescs());
  auto set = [&](const char* name, int v) { p.Set(name, std::to_string(v), {}, name); };
  set("banks", s.banks);
  set("regs_per_bank", s.regs_per_bank);
  set("subarrays", s.subarrays);
  set("wake_cycles", s.wake_cycles);
  set("release_ports", s.release_ports);
  return AvailabilityVectorsSpec::FromParams(p);
}

// A small instance whose cycles are easy to work by hand: 2 banks x 8 registers, 2 subarrays of
// 4 rows, `wake` cycles of wake-up, 2 release ports.
inline AvailabilityVectorsSpec SmallAvailSpec(int wake = 1) {
  return MakeAvailSpec(
      {.banks = 2, .regs_per_bank = 8, .subarrays = 2, .wake_cycles = wake, .release_ports = 2});
}

// The model's ports: set requests and releases, Step() evaluates and clocks.
struct AvailIo {
  using P = AvailabilityVectorsPort;
  explicit AvailIo(const AvailabilityVectorsSpec& spec) : s(spec), model(spec) {
    in = out = def = AvailabilityVectorsPortTable(s).ZeroValues();
    in[P::kRstN] = Bits(1, 1);
  }
  void Request(int bank, bool on = true) { in[P::kAllocReq].set_bit(bank, on); }
  void Release(int port, int id) {
    in[P::kRelValid].set_bit(port, true);
    in[P::kRelId].set(port * s.id_bits, s.id_bits, static_cast<uint64_t>(id));
  }
  // Evaluates, clocks, withdraws the releases (requests are levels and stay).
  void Step() {
    model.Outputs(in, out, def);
    model.Clock(in);
    in[P::kRelValid].clear();
  }
  bool Granted(int bank) const { return out[P::kAllocGrant].bit(bank); }
  int GrantId(int bank) const {
    return static_cast<int>(out[P::kAllocId].get(bank * s.id_bits, s.id_bits));
  }
  bool None(int bank) const { return out[P::kAllocNone].bit(bank); }
  int Free(int bank) const {
    return static_cast<int>(out[P::kFreeCount].get(bank * s.count_bits, s.count_bits));
  }
  bool Powered(int bank, int k) const { return out[P::kPowered].bit(bank * s.subarrays + k); }
  bool Waking(int bank) const { return out[P::kWaking].bit(bank); }

  const AvailabilityVectorsSpec s;
  AvailabilityVectorsModel model;
  PortValues in, out, def;
};

struct FlagShape {
  int entries = 10, payload_bits = 54, pc_bits = 32, inst_bytes = 8;
};

inline ReleaseFlagCacheSpec MakeFlagSpec(const FlagShape& s) {
  ParamSet p(ReleaseFlagCacheSpec::ParamDescs());
  auto set = [&](const char* name, int v) { p.Set(name, std::to_string(v), {}, name); };
  set("entries", s.entries);
  set("payload_bits", s.payload_bits);
  set("pc_bits", s.pc_bits);
  set("inst_bytes", s.inst_bytes);
  return ReleaseFlagCacheSpec::FromParams(p);
}

struct FlagIo {
  using P = ReleaseFlagCachePort;
  explicit FlagIo(const ReleaseFlagCacheSpec& spec) : s(spec), model(spec) {
    in = out = def = ReleaseFlagCachePortTable(s).ZeroValues();
    in[P::kRstN] = Bits(1, 1);
  }
  void Lookup(uint64_t pc) {
    in[P::kLkValid] = Bits(1, 1);
    in[P::kLkPc] = Bits(s.pc_bits, pc);
  }
  void Fill(uint64_t pc, uint64_t flags) {
    in[P::kFillValid] = Bits(1, 1);
    in[P::kFillPc] = Bits(s.pc_bits, pc);
    in[P::kFillFlags] = Bits(s.payload_bits, flags);
  }
  void Flush() { in[P::kFlush] = Bits(1, 1); }
  // Evaluates, clocks and withdraws everything offered.
  void Step() {
    model.Outputs(in, out, def);
    model.Clock(in);
    in[P::kLkValid] = Bits(1, 0);
    in[P::kFillValid] = Bits(1, 0);
    in[P::kFlush] = Bits(1, 0);
  }
  bool Hit() const { return out[P::kLkHit].bit(0); }
  bool Miss() const { return out[P::kLkMiss].bit(0); }
  uint64_t Flags() const { return out[P::kLkFlags].get(0, s.payload_bits); }
  uint64_t Hits() const { return out[P::kHitCount].get(0, 32); }
  uint64_t Misses() const { return out[P::kMissCount].get(0, 32); }

  const ReleaseFlagCacheSpec s;
  ReleaseFlagCacheModel model;
  PortValues in, out, def;
};

}  // namespace gpurf::test
