// Specification of the register-file system top of a cache-emulated register file (Jing et al.,
// "Energy-efficient GPU register file via cache emulation", sections III-A..III-C, Figs. 4-6):
// the register file and the L1 data cache are one data array; a banked set-associative tag array
// tells for every operand and every memory request which line (set, way) holds it. The top
// instantiates the generated tag-array (RGen re-indexing, the tagging stage with bank-conflict
// serialization, the four line states, LRU and the two policies: tag_array_spec.h) and adds the
// integrated data array and the external interfaces. The golden model
// (models/cerf_system_model.h) is written from this contract, not from the RTL.
//
// Geometry: the tag array's (banks B, sets S, ways W, line_bytes, addr_width AW, warps, regs,
// lookups P, policy) plus data_width D, the bits of one line the data array stores (the paper's
// line is one warp register = one 128-byte L1D line; D = 1024 is that line, smaller D keeps the
// same organisation with a narrower datapath). Memory operations are line-granular: a load reads
// a whole line, a store writes a whole line. IW = max(1, log2 P) bits name a lookup.
//
// Ports (lookup p of a packed vector at [p*X +: X]):
//   clk_i, rst_ni (asynchronous, active low)
//   Request (one instruction: up to P lookups; accepted when req_valid_i && req_ready_o):
//     req_valid_i, req_ready_o, lk_valid_i[P], lk_op_i[2P] (0 read-reg, 1 write-reg, 2 load,
//     3 store), lk_last_i[P] (read-reg: last use), lk_warp_i, lk_reg_i (register ops),
//     lk_addr_i[P*AW] (memory ops, byte address), lk_data_i[P*D] (write-reg and store data)
//   Read data: rd_valid_o[P], rd_data_o[P*D]: the value of a read-reg or load lookup p, in the
//     cycle the lookup is served when it hits, or in the cycle its refill response arrives.
//   L2 / MSHR port (cache data):
//     mem_rd_valid_o[P], mem_rd_addr_o[P*AW]: lookup p is a load that missed: read the line
//       (id p); the MSHR takes every request (no back-pressure).
//     mem_wr_valid_o[P], mem_wr_addr_o[P*AW], mem_wr_data_o[P*D]: write a line to L2: a dirty
//       victim's write-back, or a store that missed (write-no-allocate).
//     mem_rsp_valid_i, mem_rsp_id_i[IW], mem_rsp_data_i[D]: the line of read id, at least one
//       cycle after the request, at most one response per cycle.
//   Spill / fill port (register lines in local memory, at their reg-mem address):
//     spill_valid_o[P], spill_addr_o[P*AW], spill_data_o[P*D]: a reg line evicted by lookup p.
//     fill_valid_o[P], fill_addr_o[P*AW]: lookup p read a register whose line is not present
//       (it was spilled): read it back (id p).
//     fill_rsp_valid_i, fill_rsp_id_i[IW], fill_rsp_data_i[D]: as mem_rsp_*.
//   conflict_cycles_o[32]: the tag array's bank-conflict serialization cycles (wrapping).
//
// Cycle semantics:
//  1. Tagging stage: the request goes to the tag array (tag_array_spec.h): its lookups are
//     served bank by bank (the lowest-numbered pending lookup of each bank per cycle, the
//     first group in the accepting cycle), each answering hit/way/states/victim.
//  2. Data array (S*W lines of D bits, line (set, way) at row set*W + way), for each lookup p
//     served this cycle on set s, way w:
//       read-reg / load hit   rd_valid_o[p], rd_data_o[p] = line (s, w)
//       write-reg             line (s, w) := lk_data (hit or fill)
//       store hit             line (s, w) := lk_data (the line is now dirty)
//       store miss            mem_wr of (address, lk_data); no line changes
//       load miss             mem_rd of the line; if the tag array filled way w, the response
//                             writes line (s, w); the response data is rd_data_o[p]
//       read-reg miss         fill of the reg-mem line; as a load miss (a dead read-reg, which
//                             the tag array does not allocate, only returns the data)
//     and when the fill replaced a line (rsp_victim_valid): a dirty victim is written back
//     (mem_wr of the victim address and the line's old data), a reg victim is spilled (spill of
//     the victim's reg-mem address and old data), a clean cache victim is dropped.
//  3. req_ready_o = the tag array is ready and no refill of an earlier lookup is outstanding:
//     one instruction's misses are outstanding at a time (its MSHR has one entry per lookup).
//  While rst_ni is low: no request pending, no refill outstanding; data lines are undefined
//  until written.
// Harness contract (the model reports misuse; the RTL asserts it): the lookups of one request
// are in different sets (so a later lookup never replaces a line whose refill is outstanding);
// memory addresses are outside the reg-mem space; a response names an outstanding id of its
// port.
// Invariants (golden model): the tag array's I1-I4 (one line per (set, tag); lru-prioritized
// never evicts a reg line for cache data; a dirty line written back exactly once before its
// way is reused; only Fig. 6 transitions), and on the data: a register read returns the last
// value written to that (warp, reg), through spills and fills; a load returns memory's value
// (the last store, write-back or first read of that line).
#pragma once

#include <string>
#include <vector>

#include "gen/params/param.h"
#include "gen/structures/tag_array/tag_array_spec.h"

namespace gpurf {

struct CerfSystemSpec {
  TagArraySpec tags;   // the tagging stage and tag arrays (instantiated)
  int data_width = 0;  // D
  int id_bits = 0;     // IW
  std::string kind;    // "cerf-system"
  std::string config_hash;
  std::string module_name;  // rf_cerf_2b16s4w_d32_pri_a1b2c3
  ParamSet params;

  int lookups() const { return tags.lookups; }
  int lines() const { return tags.sets * tags.ways; }

  static const std::vector<ParamDesc>& ParamDescs();
  static CerfSystemSpec FromParams(const ParamSet& p);
};

}  // namespace gpurf
