// Specification of FineReg's live-register vector cache with its register index decoder (Oh et
// al., MICRO 2018, section V-C, Fig. 10): the register management unit's cache of the
// compiler's per-instruction live-register bit vectors, looked up by the PC a warp stalled at,
// and the decoder that turns the vector into the register indices to move.
// docs/live-vector-cache.md explains the choices; the RTL (live_vector_cache_gen.cc) and the golden
// model (models/live_vector_cache_model.h) are written from the contract below.
//
// Storage: L = `entries` lines (direct-mapped), each {valid, tag (TagBits), vector (VecBits)} in
// flip-flops. A PC's line is PC[AlignBits +: IndexBits] (the low bits of the instruction
// address, above the instruction alignment); its tag the bits above, PC[PcBits-1 : AlignBits +
// IndexBits]. The alignment bits are neither index nor tag (PCs are instruction-aligned).
//
// Ports and cycle semantics (one rising edge per cycle; outputs describe the state before it):
//  1. Lookup: lk_valid_i/lk_ready_o with lk_pc_i. lk_ready_o is high when the unit is idle (no
//     decode in progress, no miss outstanding). In the cycle of an accepted lookup lk_hit_o says
//     whether the PC's line is valid with the PC's tag; hit_count_o or miss_count_o grows by one
//     at the edge. A hit starts decoding the line's vector in the next cycle.
//  2. Miss: from the next cycle mem_req_valid_o is high with mem_req_pc_o = the PC until
//     mem_req_ready_i; the unit then waits for mem_resp_valid_i with mem_resp_vector_i (the
//     memory's latency is the caller's: `fetch_latency` is what gpurf verify's stimulus and the
//     activity driver play). At the response's edge the PC's line becomes {valid, tag, vector}
//     (replacing whatever was there) and the vector starts decoding in the next cycle.
//     Contract: mem_resp_valid_i only while a request has been accepted and not answered.
//  3. Decode: while decoding, dec_valid_o is high and dec_count_o / dec_idx_o give the next
//     group: the up-to-`decode_width` lowest register indices still set in the vector, ascending,
//     in slots 0..count-1 of dec_idx_o (other slots zero); dec_last_o marks the group after which
//     no set bit remains; dec_live_o is the vector's whole live count. A vector with no live
//     register gives one group of count 0 with dec_last_o. The group is taken at an edge where
//     dec_ready_i is high; after the last group the unit is idle again.
//  Output fields without their valid are zero. While rst_ni is low every output is zero, every
//  line invalid, the counters zero and the unit idle.
//
// Invariants (RTL assertions under GPURF_ASSERTIONS):
//   I1 every index the decoder shows is set in the vector left to decode, the group's indices
//      ascend, the group is the lowest min(decode_width, live left) set bits;
//   I2 the decoder consumes exactly what it shows: after a group is taken the vector left is the
//      previous one without the group's bits, and the last group is the one that leaves none;
//   I3 hit count + miss count = lookups accepted (mod 2^32);
//   I4 a fill writes the line of the missing PC with its tag (that PC then hits);
//   I5 a lookup is accepted only while the unit is idle.
#pragma once

#include <string>
#include <vector>

#include "gen/params/param.h"

namespace gpurf {

struct LiveVectorCacheSpec {
  // Parameters.
  int entries = 0;        // L: lines, a power of two
  int pc_bits = 0;        // PC width
  int align_bits = 0;     // low PC bits below an instruction (neither index nor tag)
  int vector_bits = 0;    // V: registers per thread, the live vector's width
  int decode_width = 0;   // N: register indices the decoder gives per cycle
  int fetch_latency = 0;  // memory round trip played by the stimulus / activity driver

  // Derived once.
  int index_bits = 0;  // log2(L)
  int tag_bits = 0;    // pc_bits - align_bits - index_bits
  int reg_bits = 0;    // clog2(V), at least 1: one register index
  int cnt_bits = 0;    // clog2(N + 1): a group's count
  int live_bits = 0;   // clog2(V + 1): a vector's live count
  std::string kind;    // "live-vector-cache"
  std::string config_hash;
  std::string module_name;
  ParamSet params;

  static const std::vector<ParamDesc>& ParamDescs();
  static LiveVectorCacheSpec FromParams(const ParamSet& p);

  int Index(uint64_t pc) const {
    return static_cast<int>((pc >> align_bits) & ((1ULL << index_bits) - 1));
  }
  uint64_t Tag(uint64_t pc) const {
    const uint64_t t = pc >> (align_bits + index_bits);
    return tag_bits >= 64 ? t : t & ((1ULL << tag_bits) - 1);
  }
};

}  // namespace gpurf
