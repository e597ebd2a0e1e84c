// The structure transactions (transaction.h) of the renaming hierarchy (Jeon et al., MICRO 2015;
// sim/harness/hierarchies/renaming_system.cc), made by the renaming system with its own
// decisions and driven into the RTL by the transactors of the four structure kinds
// (renaming_table_transactor.cc, availability_vectors_transactor.cc,
// release_flag_cache_transactor.cc, cta_throttle_transactor.cc), which check that the RTL
// decides the same.
//
// Physical registers are named as the availability vectors name them: id = row * banks + bank
// (gen/structures/availability_vectors/availability_vectors_spec.h), the renaming table's ids.
// Registers in renaming-table transactions are the table's register numbers: the rank of the
// architected register among the compiler's renamed registers (sim::passes::ReleaseFlags::
// renamed); registers the table does not hold are not reported to it (see
// docs/renaming-table.md, "RTL in the loop").
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "sim/harness/transaction.h"

namespace gpurf::harness {

// ---- availability-vectors

// A register of `bank` taken for a first write (or a refill): the system's choice is `row`
// (the lowest free row of a powered subarray, or of the gated subarray it woke); `wake`: the
// allocation woke a gated subarray (the system charges the wake-up latency); `free_before`: the
// bank's free registers before it.
struct AvAllocate : StructureTransaction {
  static constexpr TransactionType kType{"availability-vectors allocate"};
  AvAllocate(int a_bank, int a_row, bool a_wake, int a_free_before)
      : StructureTransaction(kType),
        bank(a_bank),
        row(a_row),
        wake(a_wake),
        free_before(a_free_before) {}
  int bank, row;
  bool wake;
  int free_before;
};

// Row `row` of `bank` returned (release flag, exit or spill); `free_before` as above.
struct AvRelease : StructureTransaction {
  static constexpr TransactionType kType{"availability-vectors release"};
  AvRelease(int a_bank, int a_row, int a_free_before)
      : StructureTransaction(kType), bank(a_bank), row(a_row), free_before(a_free_before) {}
  int bank, row;
  int free_before;
};

// ---- renaming-table

// One source operand of a lookup: table register `reg`, the pir bit (`release`: the value is
// dead after this read) and the mapping the system holds for it (`phys` < 0: none).
struct RtSource {
  int reg = 0;
  bool release = false;
  int phys = -1;
};

// The source lookups of one instruction of `warp` (up to any number; the transactor offers them
// three per request).
struct RtLookup : StructureTransaction {
  static constexpr TransactionType kType{"renaming-table lookup"};
  RtLookup(uint32_t a_warp, const std::vector<RtSource>& a_srcs)
      : StructureTransaction(kType), warp(a_warp), srcs(a_srcs) {}
  uint32_t warp;
  const std::vector<RtSource>& srcs;
};

// The destination `reg` of an instruction of `warp` (or a refilled spilled register): the
// system maps it to `phys` now (`alloc`: map-on-first-write) or it already holds `phys`.
struct RtDestination : StructureTransaction {
  static constexpr TransactionType kType{"renaming-table destination"};
  RtDestination(uint32_t a_warp, int a_reg, int a_phys, bool a_alloc)
      : StructureTransaction(kType), warp(a_warp), reg(a_reg), phys(a_phys), alloc(a_alloc) {}
  uint32_t warp;
  int reg, phys;
  bool alloc;
};

// Mappings of `warp` released outside a read (pbr at reconvergence, a spill): (table register,
// physical id) pairs. `exit`: the warp exits and these are all its mappings (the exit request).
struct RtRelease : StructureTransaction {
  static constexpr TransactionType kType{"renaming-table release"};
  RtRelease(uint32_t a_warp, const std::vector<std::pair<int, int>>& a_regs, bool a_exit)
      : StructureTransaction(kType), warp(a_warp), regs(a_regs), exit(a_exit) {}
  uint32_t warp;
  const std::vector<std::pair<int, int>>& regs;
  bool exit;
};

// ---- release-flag-cache

// The fetch of pir meta instruction `group` (sim::passes::ReleaseFlags::pir index) probes the
// cache; the system's answer is `hit`, and a miss fills the entry with `flags` (the pir's
// release bits).
struct FcLookup : StructureTransaction {
  static constexpr TransactionType kType{"release-flag-cache lookup"};
  FcLookup(int a_group, bool a_hit, uint64_t a_flags)
      : StructureTransaction(kType), group(a_group), hit(a_hit), flags(a_flags) {}
  int group;
  bool hit;
  uint64_t flags;
};

// ---- cta-throttle (section 8.1: the CTA register balance counters, the reserved CTA, the
// issue throttle and the spill fallback)

// The system's throttle state after an event, which the RTL must show after its edge: the
// reserved CTA slot (-1: none), the free registers per bank, the spill mode, and whether the
// throttle is on.
struct CtState {
  int reserved = -1;
  const std::vector<int>* free = nullptr;
  bool spill_mode = false;
  bool throttle = false;
};

// CTA slot `slot` launched with worst case `need` (C per bank).
struct CtLaunch : StructureTransaction {
  static constexpr TransactionType kType{"cta-throttle launch"};
  CtLaunch(int a_slot, const std::vector<int>& a_need, const CtState& a_after)
      : StructureTransaction(kType), slot(a_slot), need(a_need), after(a_after) {}
  int slot;
  const std::vector<int>& need;
  CtState after;
};

// CTA slot `slot` finished (it holds no register any more).
struct CtExit : StructureTransaction {
  static constexpr TransactionType kType{"cta-throttle exit"};
  CtExit(int a_slot, const CtState& a_after)
      : StructureTransaction(kType), slot(a_slot), after(a_after) {}
  int slot;
  CtState after;
};

// The scheduler's issue check of a warp of CTA `slot`: the system's answer `ok` with the
// throttle `throttle` on or off (no edge).
struct CtIssueCheck : StructureTransaction {
  static constexpr TransactionType kType{"cta-throttle issue check"};
  CtIssueCheck(int a_slot, bool a_throttle, bool a_ok)
      : StructureTransaction(kType), slot(a_slot), throttle(a_throttle), ok(a_ok) {}
  int slot;
  bool throttle, ok;
};

// The allocation check of one instruction's new registers of a warp of CTA `slot`: `banks`
// the bank of each register, the system's answer `grant` (no edge: the mappings follow as
// CtMap when the instruction issues).
struct CtAllocCheck : StructureTransaction {
  static constexpr TransactionType kType{"cta-throttle allocation check"};
  CtAllocCheck(int a_slot, const std::vector<int>& a_banks, bool a_grant)
      : StructureTransaction(kType), slot(a_slot), banks(a_banks), grant(a_grant) {}
  int slot;
  const std::vector<int>& banks;
  bool grant;
};

// One register mapped in `bank` for CTA `slot` (a first write, a refill or an overwritten
// spilled register); `spill_slot` >= 0: the bank was full and the system spilled a register of
// CTA `spill_slot` in the same bank to make room (released in the mapping's cycle).
struct CtMap : StructureTransaction {
  static constexpr TransactionType kType{"cta-throttle mapping"};
  CtMap(int a_slot, int a_bank, int a_spill_slot, const CtState& a_after)
      : StructureTransaction(kType),
        slot(a_slot),
        bank(a_bank),
        spill_slot(a_spill_slot),
        after(a_after) {}
  int slot, bank, spill_slot;
  CtState after;
};

// A release request of a warp of CTA `slot`: the register it returns in `bank` (-1: none, the
// release of a spilled register; an edge with no request, the state checked after it).
struct CtRelease : StructureTransaction {
  static constexpr TransactionType kType{"cta-throttle release"};
  CtRelease(int a_slot, int a_bank, const CtState& a_after)
      : StructureTransaction(kType), slot(a_slot), bank(a_bank), after(a_after) {}
  int slot, bank;
  CtState after;
};

}  // namespace gpurf::harness
