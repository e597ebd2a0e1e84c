// The MRF's structure transactions (transaction.h), made by every register-file system
// (rf_systems.cc: the operand reads of RfSystem::Issue, the result writes of each hierarchy) and
// driven into the RTL by the MRF's transactor (mrf_transactor.cc).
#pragma once

#include <cstdint>
#include <vector>

#include "sim/harness/transaction.h"

namespace gpurf::harness {

// `warp` is the SM's warp context (whose kernel values the rows are); `slot` the MRF warp the
// registers live in: the same but for a system that moves warps between MRF contexts (FineReg's
// ACRF slots, sim/harness/hierarchies/finereg_system.h).

// The MRF registers of one instruction, queued for the operand collectors (in order).
struct MrfRead : StructureTransaction {
  static constexpr TransactionType kType{"MRF read"};
  MrfRead(uint32_t a_warp, uint32_t a_slot, const std::vector<int>& a_regs)
      : StructureTransaction(kType), warp(a_warp), slot(a_slot), regs(a_regs) {}
  MrfRead(uint32_t a_warp, const std::vector<int>& a_regs) : MrfRead(a_warp, a_warp, a_regs) {}
  uint32_t warp, slot;
  const std::vector<int>& regs;
};

// A result register written straight to the MRF (not through an upper level). `restore`: the
// register's current row moved into the MRF slot (a switched-in CTA's restored register, not a
// result); the slot may have been another warp's, so every read queued before it is dispatched
// first.
struct MrfWrite : StructureTransaction {
  static constexpr TransactionType kType{"MRF write"};
  MrfWrite(uint32_t a_warp, uint32_t a_slot, int a_reg, bool a_restore = false)
      : StructureTransaction(kType), warp(a_warp), slot(a_slot), reg(a_reg), restore(a_restore) {}
  MrfWrite(uint32_t a_warp, int a_reg) : MrfWrite(a_warp, a_warp, a_reg) {}
  uint32_t warp, slot;
  int reg;
  bool restore;
};

}  // namespace gpurf::harness
