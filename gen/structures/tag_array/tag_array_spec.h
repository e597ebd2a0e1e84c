// Specification of the banked set-associative tag array of a cache-emulated register file (Jing
// et al.): the register file and the L1 data cache share one data array, and this tag array
// tells, for every operand and every memory request, where its line is and what it holds.
// The semantics below are the contract the RTL (tag_array_gen.cc) and the golden model
// (models/tag_array_model.h) are written from; docs/tag-array.md explains the choices.
//
// Geometry (all powers of two): B tag banks, S sets in all (S/B per bank), W ways, 2^Off-byte
// lines, AW-bit addresses. Line address fields, low to high:
//   [Off-1:0] byte offset | [Off+Bb-1:Off] bank | [Off+Sb-1:Off+Bb] set in the bank | tag
// where Bb = log2 B, Sb = log2 S; the global set index is addr[Off+Sb-1:Off] (set in bank above
// bank), the tag addr[AW-1:Off+Sb] (TagWidth = AW-Off-Sb bits).
//
// Reg-mem re-indexing (RGen), a combinational front end of the RTL and a function of the spec
// (RegMemAddress below): register r of warp w has the register address {w, r} (WarpBits + RegBits
// bits; 10 for 32 warps x 32 registers = 1,024 warp registers), shifted left by Off and prefixed
// with all ones above it (AW-Off-WarpBits-RegBits prefix bits, 15 for the paper's 32-bit
// addresses): the reg-mem space is the top of the address space. Memory requests never address
// it (a contract the RTL asserts and the model checks).
//
// Line state (2 bits): inactive (0, vacant), reg (1), cache (2, clean), dirty (3).
//
// Ports: one request per accepted instruction, up to P lookups (P = lookups: three sources and a
// destination, or one memory request). Lookup p has an op:
//   read-reg (0)  source operand (warp, reg); lk_last_i[p]: the compiler's liveness bit says this
//                 is the register's last use
//   write-reg (1) destination operand (warp, reg)
//   load (2)      memory read of lk_addr_i[p]
//   store (3)     memory write of lk_addr_i[p]
//
// Cycle semantics:
//  1. req_ready_o is high when no lookup of an earlier request is pending. A request is accepted
//     when req_valid_i && req_ready_o; its lookups are those with lk_valid_i set.
//  2. Bank conflicts are serialized: each cycle, in each bank, the lowest-numbered pending
//     lookup of that bank is served (rsp_valid_o[p]); the others wait for later cycles (the
//     request's inputs are latched at acceptance, so the first group is served in the accepting
//     cycle). conflict_cycles_o counts the cycles with req_ready_o low (serialization cycles);
//     it wraps at 2^32. Lookups served in one cycle are in different banks, hence different sets.
//  3. A served lookup on set s with tag t hits when a line of s holds t in a state other than
//     inactive. Hit transitions: read-reg on reg -> inactive if lk_last_i, else reg; write-reg
//     on reg -> reg; load on cache/dirty -> unchanged; store on cache/dirty -> dirty.
//  4. A miss allocates (fills) a line, except: a store (write-no-allocate, it goes to L2) and a
//     read-reg with lk_last_i (a dead register is not brought back). read-reg (a register that
//     was spilled) and write-reg fill a reg line, load a cache line. The way filled:
//       the lowest-numbered inactive way, if any (nothing is evicted); otherwise
//       lru-fair:        the least recently used way of the set, whatever it holds;
//       lru-prioritized: for cache data the LRU way among those not holding a register (none:
//                        the load is not cached, no line changes); for a register the LRU way
//                        among those not holding a register, or, when every way holds one, the
//                        LRU way.
//     The replaced line is the victim (rsp_victim_*): its state and line address. A dirty
//     victim is the write-back to L2, a reg victim a register spill.
//  5. LRU: every served lookup that hits or fills makes its way the most recently used of the
//     set. After reset, way 0 is the most recently used and way W-1 the least.
//  Response of a served lookup: rsp_addr_o the line address looked up (offset bits zero),
//  rsp_hit_o, rsp_way_o (the way hit or filled, 0 if neither), rsp_state_o (the line's state
//  before the lookup: the hit line's, inactive on a miss), rsp_next_o (its state after: the hit
//  or filled line's, inactive if neither), rsp_victim_valid_o/_state_o/_addr_o. Fields of a port
//  not served this cycle are zero.
//  While rst_ni is low every line is inactive, tags zero, no lookup pending, the counter zero.
//
// Fig. 6 transitions of one line (the only ones that ever happen):
//   inactive -> reg (register write / refill), reg -> inactive (last use), inactive -> cache
//   (load), cache -> dirty (store), and by replacement cache/dirty -> reg or cache (a dirty line
//   after its write-back), reg -> reg (a register replaces a register: only when every way holds
//   one); lru-fair also reg -> cache (a register spilled for cache data).
//
// Invariants (RTL assertions under GPURF_ASSERTIONS, checked by the golden model):
//   I1 at most one line per (set, tag) is not inactive;
//   I2 lru-prioritized: a reg line is never the victim of a load;
//   I3 a dirty line is reported as a dirty victim (written back) exactly once, when its way is
//      reused, and leaves the dirty state no other way;
//   I4 every state change is a Fig. 6 transition above.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/bits.h"
#include "gen/params/param.h"

namespace gpurf {

struct TagArraySpec {
  enum class Policy { kLruFair, kLruPrioritized };
  enum Op : int { kReadReg = 0, kWriteReg = 1, kLoad = 2, kStore = 3 };
  enum State : int { kInactive = 0, kReg = 1, kCache = 2, kDirty = 3 };

  // Parameters.
  int banks = 0;       // B
  int sets = 0;        // S, in all
  int ways = 0;        // W
  int addr_width = 0;  // AW
  int line_bytes = 0;
  int warps = 0;
  int regs = 0;     // registers per warp
  int lookups = 0;  // P
  Policy policy = Policy::kLruPrioritized;

  // Derived once.
  int offset_bits = 0;  // log2 line_bytes
  int bank_bits = 0;    // log2 B
  int set_bits = 0;     // log2 S (global set index, bank bits included)
  int tag_width = 0;    // AW - offset_bits - set_bits
  int way_bits = 0;     // log2 W
  int warp_bits = 0;    // log2 warps
  int reg_bits = 0;     // log2 regs
  int prefix_bits = 0;  // AW - offset_bits - warp_bits - reg_bits
  int sets_per_bank = 0;
  std::string kind;  // "tag-array"
  std::string config_hash;
  std::string module_name;  // rf_tags_4b256s4w_pri_a1b2c3
  ParamSet params;

  static const std::vector<ParamDesc>& ParamDescs();
  // Power-of-two and width checks and derivation; throws InputError.
  static TagArraySpec FromParams(const ParamSet& p);

  bool prioritized() const { return policy == Policy::kLruPrioritized; }
  uint64_t AddrMask() const {
    return addr_width >= 64 ? ~uint64_t{0} : (uint64_t{1} << addr_width) - 1;
  }

  // The RGen front end: the reg-mem line address of register `reg` of warp `warp`.
  uint64_t RegMemAddress(int warp, int reg) const;
  // Whether a line address lies in the reg-mem space (its prefix bits are all ones).
  bool InRegSpace(uint64_t addr) const;
  // The line address lookup p of a request names, from the packed lk_warp_i / lk_reg_i /
  // lk_addr_i values: RGen for a register op, the line of the byte address for a memory op.
  uint64_t LookupLine(int op, const Bits& lk_warps, const Bits& lk_regs, const Bits& lk_addrs,
                      int p) const;
  // Address fields.
  int BankOf(uint64_t addr) const;
  int SetOf(uint64_t addr) const;  // global set index
  uint64_t TagOf(uint64_t addr) const;
  uint64_t LineAddress(int set, uint64_t tag) const;
};

}  // namespace gpurf
