#include "gen/structures/live_vector_cache/live_vector_cache_ports.h"

#include "gen/vlog/expr.h"

namespace gpurf {

PortTable LiveVectorCachePortTable(const LiveVectorCacheSpec& s) {
  using P = LiveVectorCachePort;
  using vlog::Msb;
  const PortDir in = PortDir::kInput, out = PortDir::kOutput;
  return PortTable({
      ClockPort(P::kClk),
      ResetPort(P::kRstN),
      {P::kLkValid, "lk_valid_i", in, 1, "", 1, "lookup_valid",
       "lookup: the PC a warp of a stalled CTA stopped at", "lookup offered"},
      {P::kLkPc, "lk_pc_i", in, s.pc_bits, Msb("PcBits"), 1, "lookup_pc", "lookup: the PC",
       "PC looked up"},
      {P::kMemReqReady, "mem_req_ready_i", in, 1, "", 1, "mem_req_ready",
       "memory takes the miss's request", "request taken"},
      {P::kMemRespValid, "mem_resp_valid_i", in, 1, "", 1, "mem_resp_valid",
       "memory returns the missing vector", "response valid"},
      {P::kMemRespVector, "mem_resp_vector_i", in, s.vector_bits, Msb("VecBits"), 1,
       "mem_resp_vector", "the live-register vector fetched", "vector fetched"},
      {P::kDecReady, "dec_ready_i", in, 1, "", 1, "dec_ready",
       "the register transfer takes the decoder's group", "group taken"},
      {P::kLkReady, "lk_ready_o", out, 1, "", 1, "lookup_ready", "idle: a lookup is accepted",
       "unit idle"},
      {P::kLkHit, "lk_hit_o", out, 1, "", 1, "lookup_hit",
       "the accepted lookup hits (zero without an accepted lookup)", "lookup hits"},
      {P::kMemReqValid, "mem_req_valid_o", out, 1, "", 1, "mem_req_valid",
       "a miss requests its vector from memory", "request valid"},
      {P::kMemReqPc, "mem_req_pc_o", out, s.pc_bits, Msb("PcBits"), 1, "mem_req_pc",
       "the missing PC (zero without a request)", "PC requested"},
      {P::kDecValid, "dec_valid_o", out, 1, "", 1, "dec_valid",
       "the decoder shows a group of register indices", "group valid"},
      {P::kDecCount, "dec_count_o", out, s.cnt_bits, Msb("CntBits"), 1, "dec_count",
       "indices in the group, 0..DecodeWidth", "group size"},
      {P::kDecIdx, "dec_idx_o", out, s.decode_width * s.reg_bits, Msb("DecodeWidth*RegBits"),
       s.decode_width, "dec_idx", "the group's register indices, ascending, slot 0 first",
       "register indices"},
      {P::kDecLast, "dec_last_o", out, 1, "", 1, "dec_last",
       "the group leaves no live register of the vector", "last group"},
      {P::kDecLive, "dec_live_o", out, s.live_bits, Msb("LiveBits"), 1, "dec_live",
       "live registers of the vector being decoded", "live count"},
      {P::kHitCount, "hit_count_o", out, 32, "31", 1, "hit_count", "lookups that hit (mod 2^32)",
       "hits"},
      {P::kMissCount, "miss_count_o", out, 32, "31", 1, "miss_count",
       "lookups that missed (mod 2^32)", "misses"},
  });
}

}  // namespace gpurf
