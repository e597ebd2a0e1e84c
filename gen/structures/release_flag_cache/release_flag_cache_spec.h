// Specification of the release flag cache of GPU register file virtualization (Jeon et al.,
// MICRO 2015, section 7.2): a small direct-mapped cache, shared by the warps of an SM and indexed
// by the PC of a pir metadata instruction, that holds the instruction's release flags (18 x 3
// bits = 54) so that warps after the first need not fetch and decode it again. The semantics
// below are the contract the RTL (release_flag_cache_gen.cc) and the golden model
// (models/release_flag_cache_model.h) are written from; docs/release-flag-cache.md explains the
// choices.
//
// Parameters: E entries (the paper: 10), a payload of D bits (the paper: 54), PCs of PcBits
// bits, instructions of InstBytes bytes (CUDA: 8; the low OffBits = log2 InstBytes bits of a PC
// are zero and ignored). The word address of a PC is a = pc >> OffBits. Its entry:
//   low = a mod 2^IndexBits (IndexBits = ceil(log2 E));  index = low < E ? low : low - E,
// so a power-of-two E is plain low bits, and the 2^IndexBits - E values of low past E fold onto
// the first entries. The tag is the rest: a >> IndexBits, and (E not a power of two) whether low
// was folded; (index, tag) determine a.
//
// Cycle semantics:
//  1. Lookup (lk_valid_i, lk_pc_i: the fetch stage's probe of a pir PC): lk_hit_o when the
//     entry holds a; then lk_flags_o is its payload (0 otherwise). lk_miss_o otherwise: the
//     metadata instruction must be fetched and decoded (the fetch request). Answered
//     combinationally from the state before the edge.
//  2. Fill (fill_valid_i, fill_pc_i, fill_flags_i: the decoder's pir, after the fetch the miss
//     asked for; the cache does not track the latency, the fetch and decode pipeline does): the
//     entry of the PC takes it at the edge, replacing whatever it held. A lookup in the fill's
//     cycle sees the old contents.
//  3. flush_i (a kernel boundary): every entry is invalidated at the edge; a fill of the same
//     cycle is dropped.
//  hit_count_o / miss_count_o count the lookups that hit / missed since reset (wrap at 2^32).
//  While rst_ni is low no entry is valid, the answers are zero, the counters zero.
//
// Invariants (RTL assertions under GPURF_ASSERTIONS, checked by the golden model):
//   F1 a hit is an entry that is valid and holds the lookup's PC, and answers its payload;
//   F2 hits + misses = lookups (every lookup is exactly one of them);
//   F3 after a flush no entry is valid.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gen/params/param.h"

namespace gpurf {

struct ReleaseFlagCacheSpec {
  // Parameters.
  int entries = 0;       // E
  int payload_bits = 0;  // D
  int pc_bits = 0;
  int inst_bytes = 0;

  // Derived once.
  int offset_bits = 0;  // log2 inst_bytes
  int addr_bits = 0;    // pc_bits - offset_bits
  int index_bits = 0;   // ceil(log2 E)
  bool folded = false;  // E is not a power of two
  int tag_bits = 0;     // addr_bits - index_bits (+1 when folded)
  std::string kind;     // "release-flag-cache"
  std::string config_hash;
  std::string module_name;  // rf_relflag_10e54d_a1b2c3
  ParamSet params;

  static const std::vector<ParamDesc>& ParamDescs();
  // Range checks and derivation; throws InputError.
  static ReleaseFlagCacheSpec FromParams(const ParamSet& p);

  // The entry of a PC (see above).
  int IndexOf(uint64_t pc) const {
    const uint64_t low = (pc >> offset_bits) & ((uint64_t{1} << index_bits) - 1);
    return static_cast<int>(low < static_cast<uint64_t>(entries) ? low : low - entries);
  }
  uint64_t WordAddress(uint64_t pc) const {
    return (pc & ((pc_bits == 64 ? ~uint64_t{0} : (uint64_t{1} << pc_bits) - 1))) >> offset_bits;
  }
};

}  // namespace gpurf
