// Specification of one scheduler's hybrid register cache / register scratchpad (Bailey,
// Kloosterman, Mahlke, sections III-A and IV-D): a register scratchpad (RSP) backed by a
// set-associative register cache (RC) backed by the main register file (MRF). The semantics below
// are the contract the RTL (hybrid_rc_gen.cc) and the golden model (models/hybrid_rc_model.h) are
// written from; docs/hybrid-rc.md explains the choices.
//
// Storage. Both structures hold warp-wide registers in lines of line_bytes bytes (128: 32 threads
// x 4 bytes); the module stores Width data bits of each line (128 = a 4-lane slice, as the MRF and
// RFC generators do; 8 x line_bytes = the whole register).
//   RSP: RspSlots = rsp_bytes / line_bytes slots, named by the compiler (a distinct segment of
//        the register name space): no tags, no misses.
//   RC:  RcLines = rc_bytes / line_bytes lines, NumWays ways, NumSets = RcLines / NumWays sets.
//        Register r of warp w lives in set (r ^ w) mod NumSets (the warp bits spread one register
//        of all warps over the sets) with tag {w, r >> SetBits} (NumSets a power of two) or
//        {w, r} (any other number of sets, e.g. the 12 sets of Bailey's 12 KB RC-only point per
//        scheduler). Every valid line holds a value newer than the MRF's: the RC allocates only
//        on writes (Bailey: read allocation polluted the cache), so valid means dirty and no
//        separate dirty bit is kept.
//   Zero-size shapes (Bailey's comparison points): rsp_bytes 0 is the RC-only design (every
//        RSP access and every transfer breaks the contract, I4); rc_bytes 0 the RSP-only design
//        (hierarchical only): every RC read misses, a fill takes xf_data_i, and an RC write or a
//        live-out passes straight to the MRF on its write-back channel (as a write-allocate into
//        a cache of no lines would evict at once). Neither shape has an array of zero rows.
//
// Ports (two instructions per cycle, 3 sources and 1 destination each: 6 read ports, 2 write
// ports; instruction 0 uses read ports 0-2 and write port 0 and is the older one):
//   rd_valid_i[p], rd_rsp_i[p]          read p present; it names RSP slot rd_slot_i[p] (else RC
//   rd_slot_i, rd_warp_i, rd_reg_i,     register (rd_warp_i, rd_reg_i)); rd_last_i[p]: the
//   rd_last_i                           compiler's liveness hint, this is the value's last read
//   rd_hit_o[p], rd_data_o[p]           RSP read: hit, the slot's value. RC read: hit or miss (a
//                                       miss is served by the MRF, one cycle later at the system
//                                       level); the data on a hit. Zero when not served.
//   wr_valid_i[q], wr_rsp_i[q],         write q: RSP slot wr_slot_i[q] or RC register
//   wr_slot_i, wr_warp_i, wr_reg_i,     (wr_warp_i, wr_reg_i), value wr_data_i[q]
//   wr_data_i
//   xf_valid_i, xf_op_i, xf_slot_i,     background RSP transfer (the compiler's allocations that
//   xf_warp_i, xf_reg_i, xf_data_i      cross the RSP boundary), one per cycle: op 0 fill (read
//                                       allocation: slot <- register (w, r); xf_data_i is the
//                                       MRF's value, used when the RC does not hold it), op 1
//                                       live-out (slot -> register (w, r))
//   xf_hit_o                            the transfer found (w, r) in the RC
//   wb_valid_o[c], wb_warp_o, wb_reg_o, write-backs to the MRF this cycle: channel q < 2 the
//   wb_data_o                           victim of write q, channel 2 the transfer's
//
// One cycle, in this order; each step sees the RC as the earlier steps left it, data reads see
// the arrays as they were at the start of the cycle (except where stated):
//  1. Reads, ports 0..5. RSP: the slot's value. RC: hit when a valid line of the register's set
//     holds its tag; a hit makes its line the most recently used of the set (ports in order). A
//     hit with rd_last_i invalidates the line after every read of the step: the value is dead and
//     never written back.
//  2. Transfer, by organization:
//     hierarchical (Fig. 6, the paper's design: the RC intercepts the RSP's traffic):
//       fill      RC hit: the slot takes the line's value and the line becomes the most recently
//                 used; miss: the slot takes xf_data_i. The RC does not allocate on a fill.
//       live-out  an RC write of (w, r) with the slot's value (step 3's rules, channel 2).
//     parallel-evict (IV-D, first alternative: RC and RSP side by side in front of the MRF; a
//       register is evicted from the RC before the RSP takes it, unless both copies are clean,
//       which RC lines never are):
//       fill      RC hit: the slot takes the line's value, the line is written back (channel 2)
//                 and invalidated; miss: the slot takes xf_data_i.
//       live-out  the slot's value goes to the MRF (channel 2); an RC line of (w, r) is
//                 invalidated without write-back (the live-out value supersedes it).
//     parallel-lifetime (IV-D, second alternative: live-out and read allocations disabled; the
//       RSP holds registers for their whole lifetime): there are no transfers; xf_valid_i high
//       is a contract violation.
//  3. Writes, port 0 then port 1. RSP: the slot takes the value (port 1 wins a slot both write;
//     a write beats a fill of the same slot). RC (write-allocate): a hit overwrites the line; a
//     miss fills the lowest-numbered invalid way of the set, else replaces the least recently
//     used way, whose value is written back on the write's channel. The line becomes the most
//     recently used. A victim written earlier in the cycle (by step 2) is written back with that
//     value. Write 1 hitting the line of write 0 overwrites it (program order).
// LRU: per set a true LRU order; after reset way 0 is the most recently used, way W-1 the least.
// A write-back transfers at once (the MRF accepts every cycle; the system arbitrates its banks).
// While rst_ni is low every line is invalid and every output zero.
//
// Invariants (RTL assertions under GPURF_ASSERTIONS, checked by the golden model):
//   I1 at most one valid line per (set, tag);
//   I2 a dirty live value is never dropped: a line leaves the RC only by a write-back of its
//      register, a last-use read of it, or (parallel-evict) a live-out of the same register;
//   I3 no stale read: a fill takes the RC's value whenever the RC holds the register (the MRF's
//      copy is older), and in parallel-evict no RC line of the register survives its transfer
//      (the RC never serves, nor writes back, a value older than the RSP's);
//   I4 the pipeline never misses in the RSP (the compiler's guarantee, checked): an RSP read
//      names a slot written or filled since reset; parallel-lifetime sees no transfer.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gen/params/param.h"
#include "gen/structures/flop_array/flop_array_spec.h"

namespace gpurf {

struct HybridRcSpec {
  enum class Organization { kHierarchical, kParallelEvict, kParallelLifetime };
  enum XfOp : int { kFill = 0, kLiveOut = 1 };

  static constexpr int kReadPorts = 6;   // 2 instructions x 3 sources
  static constexpr int kWritePorts = 2;  // 2 instructions x 1 destination
  static constexpr int kWbChannels = 3;  // the writes' victims, then the transfer's

  // Parameters.
  int rc_bytes = 0;
  int rsp_bytes = 0;
  int line_bytes = 0;
  int ways = 0;
  int warps = 0;     // warps per scheduler
  int reg_bits = 0;  // register name width
  int width = 0;     // data bits stored per line
  Organization organization = Organization::kHierarchical;
  bool clock_gate = true;

  // Derived once.
  int rc_lines = 0;
  int sets = 0;
  int set_bits = 0;       // ceil(log2(sets))
  bool sets_pow2 = true;  // a power-of-two number of sets (or none)
  int way_bits = 0;
  int rsp_slots = 0;
  int slot_bits = 0;  // max(1, ceil(log2(rsp_slots)))
  int warp_bits = 0;  // log2 warps
  int tag_width = 0;  // warp_bits + reg_bits - set_bits
  FlopArraySpec rc_storage;
  FlopArraySpec rsp_storage;
  std::string kind;  // "hybrid-rc"
  std::string config_hash;
  std::string module_name;  // rf_hybrid_rc2048_rsp1024_2w_hier_a1b2c3
  ParamSet params;

  static const std::vector<ParamDesc>& ParamDescs();
  static HybridRcSpec FromParams(const ParamSet& p);

  bool has_rc() const { return rc_lines > 0; }
  bool has_rsp() const { return rsp_slots > 0; }
  bool hierarchical() const { return organization == Organization::kHierarchical; }
  bool parallel_evict() const { return organization == Organization::kParallelEvict; }
  bool transfers() const { return organization != Organization::kParallelLifetime; }
  static const char* OrganizationName(Organization o);

  // The RC set and tag of register (warp, reg), and back.
  int SetOf(int warp, int reg) const;
  uint64_t TagOf(int warp, int reg) const;
  int WarpOf(uint64_t tag) const;
  int RegOf(int set, uint64_t tag) const;
};

}  // namespace gpurf
