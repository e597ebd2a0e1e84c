// Helpers shared by the RFC tests: a spec from a compact shape.
#pragma once

#include <fmt/format.h>

#include <string>

#include "gen/params/param.h"
#include "gen/structures/rfc/rfc_spec.h"

namespace gpurf::test {

struct RfcShape {
  int active_warps, levels, l1_entries, l0_entries, width, reg_bits;
  bool lru, clock_gate;

  std::string Name() const {
    return levels == 2
               ? fmt::format("a{}_l0x{}_l1x{}_w{}_r{}_{}{}", active_warps, l0_entries, l1_entries,
                             width, reg_bits, lru ? "lru" : "fifo", clock_gate ? "" : "_nocg")
               : fmt::format("a{}_l1x{}_w{}_r{}_{}{}", active_warps, l1_entries, width, reg_bits,
                             lru ? "lru" : "fifo", clock_gate ? "" : "_nocg");
  }
};

inline RfcSpec MakeRfcSpec(const RfcShape& s) {
  ParamSet p(RfcSpec::ParamDescs());
  p.Set("active_warps", std::to_string(s.active_warps), {}, "active_warps");
  p.Set("levels", std::to_string(s.levels), {}, "levels");
  p.Set("l1_entries", std::to_string(s.l1_entries), {}, "l1_entries");
  if (s.levels == 2)
    p.Set("l0_entries", std::to_string(s.l0_entries), {}, "l0_entries");
  p.Set("width", std::to_string(s.width), {}, "width");
  p.Set("reg_bits", std::to_string(s.reg_bits), {}, "reg_bits");
  p.Set("replacement", s.lru ? "lru" : "fifo", {}, "replacement");
  p.Set("clock_gate", s.clock_gate ? "true" : "false", {}, "clock_gate");
  return RfcSpec::FromParams(p);
}

}  // namespace gpurf::test
