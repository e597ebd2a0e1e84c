#include "gen/structures/release_flag_cache/release_flag_cache_ports.h"

#include "gen/vlog/expr.h"

namespace gpurf {

PortTable ReleaseFlagCachePortTable(const ReleaseFlagCacheSpec& s) {
  using P = ReleaseFlagCachePort;
  using vlog::Msb;
  return PortTable({
      ClockPort(P::kClk),
      ResetPort(P::kRstN),
      {P::kFlush, "flush_i", PortDir::kInput, 1, "", 1, "flush",
       "kernel boundary: every entry is invalidated at the edge", "invalidate every entry"},
      {P::kLkValid, "lk_valid_i", PortDir::kInput, 1, "", 1, "lookup_valid",
       "the fetch stage probes the cache with a pir PC", "lookup offered"},
      {P::kLkPc, "lk_pc_i", PortDir::kInput, s.pc_bits, "PcBits-1", 1, "lookup_pc",
       "PC of the pir metadata instruction", "PC of the lookup"},
      {P::kFillValid, "fill_valid_i", PortDir::kInput, 1, "", 1, "fill_valid",
       "the decoder delivers a pir's release flags", "fill offered"},
      {P::kFillPc, "fill_pc_i", PortDir::kInput, s.pc_bits, "PcBits-1", 1, "fill_pc",
       "PC of the decoded pir", "PC of the fill"},
      {P::kFillFlags, "fill_flags_i", PortDir::kInput, s.payload_bits, "PayloadBits-1", 1,
       "fill_flags", "the pir's release flags", "payload written"},
      {P::kLkHit, "lk_hit_o", PortDir::kOutput, 1, "", 1, "lookup_hit",
       "the lookup's PC is cached: its flags are on lk_flags_o", "lookup hit"},
      {P::kLkMiss, "lk_miss_o", PortDir::kOutput, 1, "", 1, "lookup_miss",
       "the lookup missed: fetch and decode the metadata instruction (fetch request)",
       "lookup missed: fetch request"},
      {P::kLkFlags, "lk_flags_o", PortDir::kOutput, s.payload_bits, "PayloadBits-1", 1,
       "lookup_flags", "the hit entry's release flags (0 on a miss)", "payload of a hit"},
      {P::kHitCount, "hit_count_o", PortDir::kOutput, 32, Msb("32"), 1, "hit_count",
       "lookups that hit since reset (wraps)", "hits (wraps)"},
      {P::kMissCount, "miss_count_o", PortDir::kOutput, 32, Msb("32"), 1, "miss_count",
       "lookups that missed since reset (wraps)", "misses (wraps)"},
  });
}

}  // namespace gpurf
