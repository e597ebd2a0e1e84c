// The MRF's structure transactions (transaction.h), made by every register-file system
// (rf_systems.cc: the operand reads of RfSystem::Issue, the result writes of each hierarchy) and
// driven into the RTL by the MRF's transactor (mrf_transactor.cc).
#pragma once

#include <cstdint>
#include <vector>

#include "sim/harness/transaction.h"

namespace gpurf::harness {

// The MRF registers of one instruction, queued for the operand collectors (in order).
struct MrfRead : StructureTransaction {
  static constexpr TransactionType kType{"MRF read"};
  MrfRead(uint32_t a_warp, const std::vector<int>& a_regs)
      : StructureTransaction(kType), warp(a_warp), regs(a_regs) {}
  uint32_t warp;
  const std::vector<int>& regs;
};

// A result register written straight to the MRF (not through an upper level).
struct MrfWrite : StructureTransaction {
  static constexpr TransactionType kType{"MRF write"};
  MrfWrite(uint32_t a_warp, int a_reg) : StructureTransaction(kType), warp(a_warp), reg(a_reg) {}
  uint32_t warp;
  int reg;
};

}  // namespace gpurf::harness
