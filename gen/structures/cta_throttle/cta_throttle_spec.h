// Specification of the CTA register balance counters and issue throttle of GPU register file
// virtualization (Jeon et al., MICRO 2015, section 8.1): the per-SM logic that keeps register
// renaming from deadlocking when the CTAs resident on an SM could together need more physical
// registers than the SM has. The semantics below are the contract the RTL (cta_throttle_gen.cc)
// and the golden model (models/cta_throttle_model.h) are written from; docs/cta-throttle.md
// explains the choices and how they follow the renaming system of the SM harness.
//
// Parameters: N resident CTA slots (the paper: 8), B MRF banks, P physical registers per bank
// (the balance is kept per bank, as the renaming system keeps it: a register can only be mapped
// in the bank of its architected number), A allocation ports (registers one warp maps in one
// cycle), R release ports.
//
// State: per slot i, alive_i, and per bank b, C_ib (the registers static allocation would
// reserve for the CTA in bank b: its worst case) and k_ib (the physical registers of bank b the
// CTA holds now); per bank the free count F_b; the reserved CTA (one alive slot, or none); the
// spill mode. The balance counter of slot i is Cnt_i = sum_b (C_ib - k_ib).
//
// Every cycle:
//  1. Throttle (outputs, from the state): throttle_o = more than one CTA alive and
//     sum_b F_b < min over alive i of Cnt_i (the paper's condition). issue_ok_o[i] = alive_i and
//     (not throttle_o or i is the reserved CTA).
//  2. Allocation: one warp's group, alloc_valid_i[a] / alloc_bank_i[a] for CTA alloc_slot_i,
//     n_b registers in bank b. It is granted (alloc_grant_o) as a whole or not at all:
//       - the reserved CTA: when F_b >= n_b in every bank, or in spill mode;
//       - another CTA: when F_b - n_b >= min(P, C_rb - k_rb) in every bank (r the reserved CTA;
//         0 when there is none), so the reserved CTA can always finish.
//     spill_o[b] = n_b - F_b when a granted group needs more than bank b has (the spill
//     fallback: the harness spills that many mapped registers of bank b, releasing them on the
//     release ports in the same cycle).
//  3. Edge: a grant moves n_b from F_b to k_(slot)b; each release (rel_valid_i[p], rel_slot_i,
//     rel_bank_i) moves one register of the slot back to F_b; a launch (launch_valid_i,
//     launch_slot_i, launch_need_i = C per bank) makes the slot alive with k = 0 and sets the
//     spill mode (sticky until reset) if some C_b > P; an exit (exit_valid_i, exit_slot_i) frees
//     the slot. On a launch or exit the reservation is updated on the state after the edge: a
//     launch with none reserved reserves the launched slot; an exit of the reserved CTA reserves
//     the alive slot with the minimum counter (lowest slot on ties; none if no slot is alive);
//     then the alive slot with the minimum counter replaces the reserved one if every bank can
//     serve its worst case (F_b >= C_ib - k_ib for every b).
//  While rst_ni is low every slot is free, F_b = P, nothing reserved, the spill mode off.
//
// Invariants (RTL assertions under GPURF_ASSERTIONS, checked by the golden model):
//   T1 a throttled CTA never issues while the throttle is on;
//   T2 the counters stay in range: 0 <= k_ib <= min(C_ib, P) for an alive slot, and a free slot
//      holds nothing (k = 0, C = 0);
//   T3 F_b + sum_i k_ib = P in every bank (the free count agrees with what the CTAs hold);
//   T4 a CTA is reserved exactly when one is alive, and the reserved CTA is alive;
//   T5 a grant to a CTA other than the reserved one leaves the reserved CTA's worst case free
//      in every bank (no deadlock);
//   C1 the contract: a launch names a free slot, an exit an alive slot that holds nothing after
//      the cycle's releases, never both in one cycle; an allocation names an alive slot and stays
//      within its C; a release names a register the slot holds; a bank's free count never goes
//      below zero (spills are released in the cycle of their grant); banks in range.
#pragma once

#include <string>
#include <vector>

#include "gen/params/param.h"

namespace gpurf {

struct CtaThrottleSpec {
  // Parameters.
  int slots = 0;          // N
  int banks = 0;          // B
  int regs_per_bank = 0;  // P
  int alloc_ports = 0;    // A
  int release_ports = 0;  // R

  // Derived once.
  int slot_bits = 0;   // bits of a slot index, at least 1
  int bank_bits = 0;   // bits of a bank index, at least 1
  int count_bits = 0;  // bits of a per-bank count 0..P: ceil(log2 (P+1))
  int need_bits = 0;   // bits of C per bank: count_bits + 1 (a CTA may need up to 2P+1 in a bank)
  int sum_bits = 0;    // bits of a balance counter or the SM's free total: need_bits + bank_bits
  int spill_bits = 0;  // bits of a spill count 0..A
  std::string kind;    // "cta-throttle"
  std::string config_hash;
  std::string module_name;  // rf_ctathr_n8b4r256_a1b2c3
  ParamSet params;

  static const std::vector<ParamDesc>& ParamDescs();
  // Range checks and derivation; throws InputError.
  static CtaThrottleSpec FromParams(const ParamSet& p);

  int MaxNeed() const { return (1 << need_bits) - 1; }
};

}  // namespace gpurf
