// The structure transactions (transaction.h) of the finereg hierarchy's register management unit
// (Oh et al., MICRO 2018; sim/harness/hierarchies/finereg_system.cc), made by the FineReg system
// with its own decisions and driven into the RTL by the transactors of the pcrf
// (pcrf_transactor.cc: chains, pointer table, free-space monitor) and the live-register vector
// cache (live_vector_cache_transactor.cc) and the CTA status monitor
// (cta_status_monitor_transactor.cc), which check that the RTL answers the same.
//
// CTAs are named by their resident CTA slot (the pointer table's line); warps by the SM's warp
// context (whose register rows they are) and by their place in the CTA (the PCRF tag's warp id).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "sim/harness/transaction.h"

namespace gpurf::harness {

// ---- pcrf

// CTA numbers in these transactions are the CTA status monitor's slots (the system numbers its
// started CTAs as the monitor does: finereg_system.h), for the PCRF's pointer table too.

// One live register of a switched-out CTA saved: appended to the chain of CTA slot `cta` in PCRF
// entry `entry` (the system's choice, the lowest free one). After it the CTA's chain has `count`
// entries starting at `head`, and `free_after` entries are free.
struct PcrfAppend : StructureTransaction {
  static constexpr TransactionType kType{"pcrf append"};
  PcrfAppend(int a_cta, uint32_t a_warp, int a_warp_in_cta, int a_reg, int a_entry, int a_head,
             int a_count, int a_free_after)
      : StructureTransaction(kType),
        cta(a_cta),
        warp(a_warp),
        warp_in_cta(a_warp_in_cta),
        reg(a_reg),
        entry(a_entry),
        head(a_head),
        count(a_count),
        free_after(a_free_after) {}
  int cta;
  uint32_t warp;
  int warp_in_cta, reg, entry, head, count, free_after;
};

// One register of a restore, in the chain's save order.
struct PcrfChainEntry {
  uint32_t warp = 0;
  int warp_in_cta = 0;
  int reg = 0;
  int entry = 0;
};

// The chain of CTA slot `cta` walked back to the ACRF (every entry freed): `chain` in save order
// (empty: the CTA saved no live register); `free_after` entries are free after the walk.
struct PcrfRestore : StructureTransaction {
  static constexpr TransactionType kType{"pcrf restore"};
  PcrfRestore(int a_cta, const std::vector<PcrfChainEntry>& a_chain, int a_free_after)
      : StructureTransaction(kType), cta(a_cta), chain(a_chain), free_after(a_free_after) {}
  int cta;
  const std::vector<PcrfChainEntry>& chain;
  int free_after;
};

// A result of `warp` (the event's instruction) landed in register `reg` while the warp's CTA was
// switched out: the row the PCRF holds for it, if it saved one, is older than the register's value
// (the restore brings back the row saved; the result itself reaches the ACRF with the restore).
struct PcrfPendingResult : StructureTransaction {
  static constexpr TransactionType kType{"pcrf pending result"};
  PcrfPendingResult(uint32_t a_warp, int a_reg)
      : StructureTransaction(kType), warp(a_warp), reg(a_reg) {}
  uint32_t warp;
  int reg;
};

// ---- live-vector-cache

// The live-register vector of instruction `inst` looked up for a stalled warp: the system's cache
// `hit` or missed (and filled the line), and `vector` is the instruction's live-register vector
// (bit r: register r is live there), the registers the save takes for the warp.
struct LvcLookup : StructureTransaction {
  static constexpr TransactionType kType{"live-vector-cache lookup"};
  LvcLookup(uint32_t a_warp, uint32_t a_inst, bool a_hit, uint64_t a_vector)
      : StructureTransaction(kType), warp(a_warp), inst(a_inst), hit(a_hit), vector(a_vector) {}
  uint32_t warp, inst;
  bool hit;
  uint64_t vector;
};

// ---- cta-status-monitor

// The system's CTA states as the monitor's fields count them, after a transaction: `active`
// CTAs in the pipeline with their registers in the ACRF (running or restoring), `pending` CTAs
// switched out (saving or pending).
struct CsmCounts {
  int active = 0, pending = 0;
};

// A field write of the CTA switching logic outside a stall decision: the status monitor's slot
// `cta` started or resumed when an ACRF place freed (context 2, registers 2), or finished (0, 0).
struct CsmSet : StructureTransaction {
  static constexpr TransactionType kType{"cta-status-monitor set"};
  CsmSet(int a_cta, int a_ctx, int a_reg, CsmCounts a_after)
      : StructureTransaction(kType), cta(a_cta), ctx(a_ctx), reg(a_reg), after(a_after) {}
  int cta, ctx, reg;
  CsmCounts after;
};

// The V-B decision for the stalled active CTA `stall_cta` with `live` live registers (0 when no
// candidate was found: the system looked nothing up) and `free` free PCRF entries. CTA numbers
// are the status monitor's slots (the system numbers its started CTAs as the monitor does).
// `ready` lists the slots of every pending CTA ready to resume (the monitor's ready_i: the
// candidate set) and `can_launch` says the SM has a waiting CTA to start (can_launch_i). `cand`
// is the CTA the system's policy resumes (-1: none), a pending one (`cand_pending`, its chain
// `cand_saved` entries) or a waiting one, started into slot `cand` (the lowest not launched);
// `switched` the system's decision (switch or keep). After it the CTA states count `after`.
struct CsmDecision : StructureTransaction {
  static constexpr TransactionType kType{"cta-status-monitor decision"};
  CsmDecision(int a_stall_cta, int a_live, int a_free, int a_cand, bool a_cand_pending,
              int a_cand_saved, bool a_switched, CsmCounts a_after, std::vector<int> a_ready,
              bool a_can_launch)
      : StructureTransaction(kType),
        stall_cta(a_stall_cta),
        live(a_live),
        free(a_free),
        cand(a_cand),
        cand_pending(a_cand_pending),
        cand_saved(a_cand_saved),
        switched(a_switched),
        after(a_after),
        ready(std::move(a_ready)),
        can_launch(a_can_launch) {}
  int stall_cta, live, free, cand;
  bool cand_pending;
  int cand_saved;
  bool switched;
  CsmCounts after;
  std::vector<int> ready;
  bool can_launch;
};

}  // namespace gpurf::harness
