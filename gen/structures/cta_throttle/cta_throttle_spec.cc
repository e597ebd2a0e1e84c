#include "gen/structures/cta_throttle/cta_throttle_spec.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "base/hash.h"
#include "base/int_math.h"

namespace gpurf {

const std::vector<ParamDesc>& CtaThrottleSpec::ParamDescs() {
  static const std::vector<ParamDesc> descs = {
      IntParam("slots", 2, 32, 8, "resident CTA slots N: one balance counter each (the paper: 8)"),
      IntParam("banks", 1, 8, 4,
               "MRF banks B: the balance is kept per bank (1: one SM-wide count, as in the paper)"),
      IntParam("regs_per_bank", 8, 1024, 256,
               "physical registers per bank P (warp registers; the paper: 4 x 256)"),
      IntParam("alloc_ports", 1, 8, 2,
               "allocation ports A: registers one warp maps in a cycle, granted as a group"),
      IntParam("release_ports", 1, 8, 4, "release ports R: registers returned per cycle"),
  };
  return descs;
}

CtaThrottleSpec CtaThrottleSpec::FromParams(const ParamSet& p) {
  CtaThrottleSpec s;
  s.params = p;
  s.slots = p.IntAsInt("slots");
  s.banks = p.IntAsInt("banks");
  s.regs_per_bank = p.IntAsInt("regs_per_bank");
  s.alloc_ports = p.IntAsInt("alloc_ports");
  s.release_ports = p.IntAsInt("release_ports");
  s.slot_bits = IndexBits(s.slots);
  s.bank_bits = IndexBits(s.banks);
  s.count_bits = static_cast<int>(std::bit_width(static_cast<unsigned>(s.regs_per_bank)));
  s.need_bits = s.count_bits + 1;
  s.sum_bits = s.need_bits + s.bank_bits;
  s.spill_bits = static_cast<int>(std::bit_width(static_cast<unsigned>(s.alloc_ports)));
  s.kind = "cta-throttle";
  s.config_hash = HashHex(s.kind + ":" + p.Canonical(), 6);
  s.module_name =
      fmt::format("rf_ctathr_n{}b{}r{}_{}", s.slots, s.banks, s.regs_per_bank, s.config_hash);
  return s;
}

}  // namespace gpurf
