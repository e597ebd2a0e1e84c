#include "gen/structures/live_vector_cache/live_vector_cache_spec.h"

#include <fmt/format.h>

#include <bit>

#include "base/hash.h"

namespace gpurf {

const std::vector<ParamDesc>& LiveVectorCacheSpec::ParamDescs() {
  static const std::vector<ParamDesc> descs = {
      IntParam("entries", 2, 256, 32,
               "lines of the direct-mapped cache, a power of two (FineReg: 32)"),
      IntParam("pc_bits", 8, 64, 32, "PC width in bits (FineReg: a 4-byte PC)"),
      IntParam("align_bits", 0, 4, 3,
               "low PC bits below one instruction, neither index nor tag (8-byte instructions: 3)"),
      IntParam("vector_bits", 8, 256, 64,
               "live-register vector width: registers per thread (FineReg: 64)"),
      IntParam("decode_width", 1, 8, 1, "register indices the decoder gives per cycle"),
      IntParam("fetch_latency", 1, 2000, 200,
               "cycles from a miss's request to the vector's response, played by the stimulus and "
               "the activity driver (the RTL waits for the response)"),
  };
  return descs;
}

LiveVectorCacheSpec LiveVectorCacheSpec::FromParams(const ParamSet& p) {
  LiveVectorCacheSpec s;
  s.params = p;
  s.entries = p.IntAsInt("entries");
  s.pc_bits = p.IntAsInt("pc_bits");
  s.align_bits = p.IntAsInt("align_bits");
  s.vector_bits = p.IntAsInt("vector_bits");
  s.decode_width = p.IntAsInt("decode_width");
  s.fetch_latency = p.IntAsInt("fetch_latency");
  if (!std::has_single_bit(static_cast<unsigned>(s.entries)))
    p.Reject("entries", fmt::format("{} lines is not a power of two", s.entries),
             "a power of two in 2..256");
  s.index_bits = std::countr_zero(static_cast<unsigned>(s.entries));
  s.tag_bits = s.pc_bits - s.align_bits - s.index_bits;
  if (s.tag_bits < 1)
    p.Reject("pc_bits",
             fmt::format("{} PC bits leave no tag above {} alignment and {} index bits", s.pc_bits,
                         s.align_bits, s.index_bits),
             "pc_bits > align_bits + log2(entries)");
  s.reg_bits = s.vector_bits <= 2 ? 1 : std::bit_width(static_cast<unsigned>(s.vector_bits - 1));
  s.cnt_bits = std::bit_width(static_cast<unsigned>(s.decode_width));
  s.live_bits = std::bit_width(static_cast<unsigned>(s.vector_bits));
  s.kind = "live-vector-cache";
  s.config_hash = HashHex(s.kind + ":" + p.Canonical(), 6);
  s.module_name = fmt::format("rf_lvc_{}x{}b_pc{}_d{}_{}", s.entries, s.vector_bits, s.pc_bits,
                              s.decode_width, s.config_hash);
  return s;
}

}  // namespace gpurf
