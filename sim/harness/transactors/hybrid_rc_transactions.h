// The hybrid register cache / scratchpad's structure transactions (transaction.h), made by the
// `hybrid` register-file system (hybrid_system.cc) with its own decisions (the RSP allocation's
// and its RegisterCache's), and driven into one scheduler's hybrid-rc RTL by its transactor
// (hybrid_rc_transactor.cc), which checks that the RTL answers the same. RSP places are named
// as the compiler names them (entry 0..entries-1 of the warp); the transactor maps them to the
// warp's hardware slots. Registers are the warp's (the listener knows the warp being issued or
// written back).
#pragma once

#include <cstdint>
#include <vector>

#include "sim/harness/transaction.h"

namespace gpurf::harness {

// One register the RC wrote back to the MRF (the RC's victim), or none.
struct HybridVictim {
  bool valid = false;
  uint32_t warp = 0;
  int reg = 0;
};

// One source register of an instruction as the system read it.
struct HybridOperand {
  bool rsp = false;  // read from RSP entry `entry`; else looked up in the RC
  int entry = 0;
  int reg = 0;
  bool hit = false;   // RC: the lookup hit (the contents before the instruction)
  bool kill = false;  // RC: the liveness hint invalidated the line after the reads
};

// The source registers of one instruction, in operand order: every lookup sees the RC as it was
// before the instruction, hits touch their lines in order, kills follow every read.
struct HybridRead : StructureTransaction {
  static constexpr TransactionType kType{"hybrid read"};
  HybridRead(uint32_t a_warp, int a_entries, const std::vector<HybridOperand>& a_ops)
      : StructureTransaction(kType), warp(a_warp), entries(a_entries), ops(a_ops) {}
  uint32_t warp;
  int entries;  // RSP entries per warp
  const std::vector<HybridOperand>& ops;
};

// A background RSP transfer of one register, after the reads (a read-allocation fill) or after
// the results (a live-out), and what the system's RC did with it. hierarchical: a fill takes the
// RC's line on a hit (touching it), a live-out is an RC write (`victim` written back).
// parallel-evict: a fill that hits writes the line back and drops it; a live-out goes to the
// MRF and drops the RC's copy. `write_back`: the register itself went to the MRF.
struct HybridTransfer : StructureTransaction {
  static constexpr TransactionType kType{"hybrid transfer"};
  HybridTransfer(uint32_t a_warp, int a_entries, bool a_live_out, int a_entry, int a_reg,
                 bool a_hit, bool a_write_back, const HybridVictim& a_victim)
      : StructureTransaction(kType),
        warp(a_warp),
        entries(a_entries),
        live_out(a_live_out),
        entry(a_entry),
        reg(a_reg),
        hit(a_hit),
        write_back(a_write_back),
        victim(a_victim) {}
  uint32_t warp;
  int entries;
  bool live_out;
  int entry, reg;
  bool hit;  // the RC held the register (after the instruction's reads)
  bool write_back;
  HybridVictim victim;
};

// A result register: to RSP entry `entry`, or an RC write (write-allocate: `hit`, else a fill
// of a free way or of the LRU line, `victim` written back).
struct HybridWrite : StructureTransaction {
  static constexpr TransactionType kType{"hybrid write"};
  HybridWrite(uint32_t a_warp, int a_entries, bool a_rsp, int a_entry, int a_reg, bool a_hit,
              const HybridVictim& a_victim)
      : StructureTransaction(kType),
        warp(a_warp),
        entries(a_entries),
        rsp(a_rsp),
        entry(a_entry),
        reg(a_reg),
        hit(a_hit),
        victim(a_victim) {}
  uint32_t warp;
  int entries;
  bool rsp;
  int entry, reg;
  bool hit;
  HybridVictim victim;
};

}  // namespace gpurf::harness
