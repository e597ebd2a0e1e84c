// Specification of the physical-register availability vectors of GPU register file
// virtualization (Jeon et al., MICRO 2015, sections 7.1 and 8.2): one bit per physical register
// of the SM's main register file, one vector per MRF bank, from which the renaming logic takes a
// free register for a first write and to which it returns released ones. The semantics below
// are the contract the RTL (availability_vectors_gen.cc) and the golden model
// (models/availability_vectors_model.h) are written from; docs/availability-vectors.md explains
// the choices.
//
// Parameters: B banks (power of two), P registers per bank (the paper: 4 x 256), S subarrays per
// bank (S divides P; SubRows = P / S rows each, subarray k holds rows [k*SubRows, (k+1)*SubRows)),
// W the subarray wake-up latency in cycles (the paper explores 1, 3 and 10), Rp release ports.
// Physical id of row r of bank b: r * B + b (IdBits = RowBits + BankBits), so the bank of an id
// is its low bits, the bank the compiler's register r mod B would have used.
//
// Per bank, every cycle (banks are independent):
//  1. Allocation: alloc_req_i[b] asks for one free register of bank b. It is granted
//     (alloc_grant_o[b], alloc_id_o[b] = the id) with the lowest free row among the powered
//     subarrays (fill subarray k before waking k+1). When no powered subarray has a free row and
//     the bank has one (free count > 0), the lowest gated subarray is woken (if no wake-up of the
//     bank is in progress) and the request stalls: it is granted W cycles after the cycle that
//     started the wake-up, if still offered. alloc_none_o[b]: offered and the bank has no free
//     register at all. The request is a level: the requester holds or withdraws it; a started
//     wake-up completes either way.
//  2. Release: release port p (rel_valid_i[p], rel_id_i[p]) returns an allocated register; the
//     bank of the id takes it. Several ports may release into one bank in a cycle. A released
//     register is free from the next cycle (the cycle's allocation sees the state before it).
//  3. Power: a powered subarray that holds no allocated register after the edge's allocation
//     and releases is gated at that edge; the woken subarray is powered at the edge that ends
//     its wake-up (at the starting edge itself when W = 1). powered_o exports the powered
//     subarrays for the energy model, waking_o a wake-up in progress.
//  4. free_count_o[b]: the free registers of bank b (a counter, P at reset).
// While rst_ni is low every register is free, every subarray gated, no wake-up in progress, the
// answers zero and free_count_o = P.
//
// Invariants (RTL assertions under GPURF_ASSERTIONS, checked by the golden model):
//   I1 free count + allocated count = P in every bank (the counter agrees with the vector);
//   I2 a grant takes a free register of a powered subarray;
//   I3 a gated subarray holds no allocated register (gating never loses a live value);
//   C1 the contract: a release names an allocated register, in range, once per cycle.
#pragma once

#include <string>
#include <vector>

#include "gen/params/param.h"

namespace gpurf {

struct AvailabilityVectorsSpec {
  // Parameters.
  int banks = 0;          // B
  int regs_per_bank = 0;  // P
  int subarrays = 0;      // S
  int wake_cycles = 0;    // W
  int release_ports = 0;  // Rp

  // Derived once.
  int bank_bits = 0;   // log2 B
  int row_bits = 0;    // ceil(log2 P), at least 1
  int id_bits = 0;     // row_bits + bank_bits
  int count_bits = 0;  // ceil(log2 (P+1))
  int sub_rows = 0;    // P / S
  int wake_bits = 0;   // bits of the wake-up counter, at least 1
  std::string kind;    // "availability-vectors"
  std::string config_hash;
  std::string module_name;  // rf_avail_4b256r4s1w_a1b2c3
  ParamSet params;

  static const std::vector<ParamDesc>& ParamDescs();
  // Range checks and derivation; throws InputError.
  static AvailabilityVectorsSpec FromParams(const ParamSet& p);

  int PhysRegs() const { return banks * regs_per_bank; }
  int Id(int bank, int row) const { return row * banks + bank; }
  int BankOf(int id) const { return id % banks; }
  int RowOf(int id) const { return id / banks; }
  int SubarrayOf(int row) const { return row / sub_rows; }
};

}  // namespace gpurf
