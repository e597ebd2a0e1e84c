// The hardware RFC's structure transactions (transaction.h), made by the HW RFC register-file
// system (rf_systems.cc) with its RfcCache's answers, and driven into the RTL by the RFC's
// transactor (rfc_transactor.cc), which checks that the RTL answers the same.
#pragma once

#include <cstdint>
#include <vector>

#include "models/rfc_model.h"
#include "sim/harness/transaction.h"

namespace gpurf::harness {

// The operand lookups of one instruction and the model's answers.
struct RfcRead : StructureTransaction {
  static constexpr TransactionType kType{"RFC read"};
  RfcRead(const std::vector<RfcCache::Operand>& a_ops,
          const std::vector<RfcCache::ReadResult>& a_res)
      : StructureTransaction(kType), ops(a_ops), res(a_res) {}
  const std::vector<RfcCache::Operand>& ops;
  const std::vector<RfcCache::ReadResult>& res;
};

// A result write and the model's answer (`bypass`: a long-latency result, wr_long_i; `not_l0`:
// a shared unit may read it, so it goes to the L1).
struct RfcWrite : StructureTransaction {
  static constexpr TransactionType kType{"RFC write"};
  RfcWrite(int a_slot, int a_reg, bool a_bypass, bool a_not_l0, const RfcCache::WriteResult& a_res)
      : StructureTransaction(kType),
        slot(a_slot),
        reg(a_reg),
        bypass(a_bypass),
        not_l0(a_not_l0),
        res(a_res) {}
  int slot, reg;
  bool bypass, not_l0;
  const RfcCache::WriteResult& res;
};

// The slot of `warp` is flushed; the model wrote back `entries` live entries.
struct RfcFlush : StructureTransaction {
  static constexpr TransactionType kType{"RFC flush"};
  RfcFlush(uint32_t a_warp, int a_slot, int a_entries)
      : StructureTransaction(kType), warp(a_warp), slot(a_slot), entries(a_entries) {}
  uint32_t warp;
  int slot, entries;
};

}  // namespace gpurf::harness
