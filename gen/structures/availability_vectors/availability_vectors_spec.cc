#include "gen/structures/availability_vectors/availability_vectors_spec.h"

#include <fmt/format.h>

#include <bit>

#include "base/hash.h"
#include "base/int_math.h"

namespace gpurf {

const std::vector<ParamDesc>& AvailabilityVectorsSpec::ParamDescs() {
  static const std::vector<ParamDesc> descs = {
      IntParam("banks", 2, 8, 4, "MRF banks B (power of two): one availability vector each"),
      IntParam("regs_per_bank", 8, 1024, 256,
               "physical registers per bank P: bits of each vector (the paper: 256)"),
      IntParam("subarrays", 1, 16, 4,
               "power-gated subarrays per bank S (divides regs_per_bank); filled in order"),
      IntParam("wake_cycles", 1, 31, 1,
               "subarray wake-up latency W in cycles (the paper explores 1, 3 and 10)"),
      IntParam("release_ports", 1, 8, 4,
               "release ports Rp: registers returned per cycle, into any bank"),
  };
  return descs;
}

AvailabilityVectorsSpec AvailabilityVectorsSpec::FromParams(const ParamSet& p) {
  AvailabilityVectorsSpec s;
  s.params = p;
  s.banks = p.IntAsInt("banks");
  s.regs_per_bank = p.IntAsInt("regs_per_bank");
  s.subarrays = p.IntAsInt("subarrays");
  s.wake_cycles = p.IntAsInt("wake_cycles");
  s.release_ports = p.IntAsInt("release_ports");
  if (!std::has_single_bit(static_cast<unsigned>(s.banks)))
    p.Reject("banks", fmt::format("{} is not a power of two", s.banks), "2, 4 or 8");
  if (s.regs_per_bank % s.subarrays != 0)
    p.Reject(
        "subarrays",
        fmt::format("{} does not divide the {} registers per bank", s.subarrays, s.regs_per_bank),
        "a divisor of regs_per_bank in 1..16");
  s.bank_bits = std::countr_zero(static_cast<unsigned>(s.banks));
  s.row_bits = std::max(1, CeilLog2(s.regs_per_bank));
  s.id_bits = s.row_bits + s.bank_bits;
  s.count_bits = CeilLog2(s.regs_per_bank + 1);
  s.sub_rows = s.regs_per_bank / s.subarrays;
  s.wake_bits = std::max(1, CeilLog2(s.wake_cycles + 1));
  s.kind = "availability-vectors";
  s.config_hash = HashHex(s.kind + ":" + p.Canonical(), 6);
  s.module_name = fmt::format("rf_avail_{}b{}r{}s{}w_{}", s.banks, s.regs_per_bank, s.subarrays,
                              s.wake_cycles, s.config_hash);
  return s;
}

}  // namespace gpurf
