#include "gen/structures/release_flag_cache/release_flag_cache_spec.h"

#include <fmt/format.h>

#include <bit>

#include "base/hash.h"
#include "base/int_math.h"

namespace gpurf {

const std::vector<ParamDesc>& ReleaseFlagCacheSpec::ParamDescs() {
  static const std::vector<ParamDesc> descs = {
      IntParam("entries", 2, 64, 10, "entries E, direct-mapped by the pir's PC (the paper: 10)"),
      IntParam("payload_bits", 1, 64, 54,
               "release flags per entry D (the paper: 18 instructions x 3 operands = 54)"),
      IntParam("pc_bits", 8, 48, 32, "bits of a PC"),
      IntParam("inst_bytes", 2, 16, 8,
               "instruction size in bytes (power of two; CUDA: 8): the PC bits below it are "
               "ignored"),
  };
  return descs;
}

ReleaseFlagCacheSpec ReleaseFlagCacheSpec::FromParams(const ParamSet& p) {
  ReleaseFlagCacheSpec s;
  s.params = p;
  s.entries = p.IntAsInt("entries");
  s.payload_bits = p.IntAsInt("payload_bits");
  s.pc_bits = p.IntAsInt("pc_bits");
  s.inst_bytes = p.IntAsInt("inst_bytes");
  if (!std::has_single_bit(static_cast<unsigned>(s.inst_bytes)))
    p.Reject("inst_bytes", fmt::format("{} is not a power of two", s.inst_bytes), "2, 4, 8 or 16");
  s.offset_bits = std::countr_zero(static_cast<unsigned>(s.inst_bytes));
  s.addr_bits = s.pc_bits - s.offset_bits;
  s.index_bits = CeilLog2(s.entries);
  s.folded = !std::has_single_bit(static_cast<unsigned>(s.entries));
  if (s.addr_bits <= s.index_bits)
    p.Reject("pc_bits",
             fmt::format("{} leaves {} word-address bits, not more than the {} index bits",
                         s.pc_bits, s.addr_bits, s.index_bits),
             fmt::format("integer {}..48", s.index_bits + s.offset_bits + 1));
  s.tag_bits = s.addr_bits - s.index_bits + (s.folded ? 1 : 0);
  s.kind = "release-flag-cache";
  s.config_hash = HashHex(s.kind + ":" + p.Canonical(), 6);
  s.module_name = fmt::format("rf_relflag_{}e{}d_{}", s.entries, s.payload_bits, s.config_hash);
  return s;
}

}  // namespace gpurf
