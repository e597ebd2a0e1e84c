// The memory hierarchy against hand-computed expectations. The test configuration (Cfg) keeps
// the numbers small:
//   L1D: 4 sets x 2 ways x 128 B lines of 4 x 32 B sectors, hit 10 cycles, 4 MSHRs, 3 requests
//        per MSHR (the allocating one and 2 merges), write-through, no write-allocate
//   constant cache: 2 sets x 2 ways, hit 4 cycles
//   L2: 2 slices x 8 sets x 4 ways, latency 100, 64 B per cycle per slice (a line: 2 cycles),
//       write-back, write-allocate
//   DRAM: 32 B per cycle (a line: 4 cycles), latency 200
// So an unloaded L1 hit takes 10 cycles, an L2 hit 100, an L2 miss 300. Line index i goes to
// L1 set i % 4 and L2 slice i % 2. The LSU pipeline looks up one line per cycle: line k of an
// access issued at cycle t is looked up (and sent to the L2) at t + k.
#include "sim/mem/memory.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "sim/mem/tests/small_memory.h"

namespace gpurf::sim::mem {
namespace {

MemoryConfig Cfg() {
  return SmallMemoryConfig();
}

// A warp access whose lane addresses live with it.
struct Warp {
  std::array<uint64_t, 32> lanes{};
  uint32_t mask = ~0u;
  uint8_t bytes = 4;
  Space space = Space::kGlobal;
  bool write = false;
  bool atomic = false;
  CacheOp op = CacheOp::kDefault;

  Access acc() const {
    Access a;
    a.space = space;
    a.write = write;
    a.atomic = atomic;
    a.op = op;
    a.mask = mask;
    a.lane_bytes = bytes;
    a.lanes = lanes.data();
    return a;
  }
  // Temporaries live to the end of the full expression: Issue(..., FullLine(0)) is safe.
  operator Access() const { return acc(); }  // NOLINT(google-explicit-constructor)
};

// Lane i at base + i * stride.
Warp Strided(uint64_t base, uint64_t stride, uint8_t bytes = 4) {
  Warp w;
  for (int i = 0; i < 32; ++i)
    w.lanes[static_cast<size_t>(i)] = base + static_cast<uint64_t>(i) * stride;
  w.bytes = bytes;
  return w;
}
// The 32 x 4 B lanes of line `line` (index), all four sectors.
Warp FullLine(uint64_t line) {
  return Strided(line * 128, 4);
}
// One lane reading 4 bytes at `addr`.
Warp OneLane(uint64_t addr) {
  Warp w;
  w.lanes[0] = addr;
  w.mask = 1;
  return w;
}
Warp With(Warp w, Space s, bool write = false, CacheOp op = CacheOp::kDefault) {
  w.space = s;
  w.write = write;
  w.op = op;
  return w;
}

std::vector<LineRequest> Lines(const Warp& w, uint32_t line = 128, uint32_t sector = 32) {
  std::vector<LineRequest> out;
  Coalesce(w.acc(), line, sector, out);
  return out;
}

void ExpectLines(const std::vector<LineRequest>& got,
                 const std::vector<std::pair<uint64_t, uint32_t>>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i].line, want[i].first) << "line " << i;
    EXPECT_EQ(got[i].sectors, want[i].second) << "line " << i;
  }
}

// ---------------------------------------------------------------- coalescing

TEST(Coalesce, FullyCoalescedIsOneLineFourSectors) {
  ExpectLines(Lines(Strided(0x1000, 4)), {{0x1000, 0xF}});
}

TEST(Coalesce, Strides) {
  // 8 B stride: 256 bytes, two lines, each lane's word in every sector.
  ExpectLines(Lines(Strided(0, 8)), {{0, 0xF}, {128, 0xF}});
  // 32 B stride: 8 lines, one lane per sector.
  auto l = Lines(Strided(0, 32));
  ASSERT_EQ(l.size(), 8u);
  for (size_t i = 0; i < 8; ++i)
    EXPECT_EQ(l[i].sectors, 0xFu);
  // 128 B stride: 32 lines, sector 0 each; 132 B stride walks the sectors.
  l = Lines(Strided(0, 128));
  ASSERT_EQ(l.size(), 32u);
  for (size_t i = 0; i < 32; ++i) {
    EXPECT_EQ(l[i].line, i * 128);
    EXPECT_EQ(l[i].sectors, 1u);
  }
  l = Lines(Strided(0, 132));
  ASSERT_EQ(l.size(), 32u);
  EXPECT_EQ(l[8].sectors, 2u);  // lane 8 at 1056 = line 8 + 32
}

TEST(Coalesce, MisalignedStraddlesSectorsAndLines) {
  // 32 x 4 B from 0x1002: bytes 0x1002..0x1081.
  ExpectLines(Lines(Strided(0x1002, 4)), {{0x1000, 0xF}, {0x1080, 0x1}});
  // One 8 B lane at 0x107C: the last sector of one line and the first of the next.
  Warp w = OneLane(0x107C);
  w.bytes = 8;
  ExpectLines(Lines(w), {{0x1000, 0x8}, {0x1080, 0x1}});
  // A 4 B lane at 30 straddles sectors 0 and 1.
  ExpectLines(Lines(OneLane(30)), {{0, 0x3}});
}

TEST(Coalesce, WideLanes) {
  ExpectLines(Lines(Strided(0, 8, 8)), {{0, 0xF}, {128, 0xF}});
  ExpectLines(Lines(Strided(0, 16, 16)), {{0, 0xF}, {128, 0xF}, {256, 0xF}, {384, 0xF}});
  // Unsectored geometry: one bit per line.
  ExpectLines(Lines(Strided(0, 16, 16), 128, 128), {{0, 1}, {128, 1}, {256, 1}, {384, 1}});
}

TEST(Coalesce, InactiveLanesIgnoredAndOrderByFirstLane) {
  Warp w = Strided(0x5000, 4);
  w.lanes[5] = 0x9999000;  // inactive
  w.mask = ~(1u << 5);
  ExpectLines(Lines(w), {{0x5000, 0xF}});
  w.mask = 0;
  EXPECT_TRUE(Lines(w).empty());
  Warp r;
  r.mask = 0x7;
  r.lanes[0] = 0x2000;
  r.lanes[1] = 0x1040;
  r.lanes[2] = 0x2060;
  ExpectLines(Lines(r), {{0x2000, 0x9}, {0x1000, 0x4}});
}

// ---------------------------------------------------------------- shared memory

TEST(Shared, PassesByStride) {
  EXPECT_EQ(SharedPasses(Strided(0, 4).acc(), 32), 1);     // stride 1 word
  EXPECT_EQ(SharedPasses(Strided(0, 8).acc(), 32), 2);     // stride 2: 2-way
  EXPECT_EQ(SharedPasses(Strided(0, 12).acc(), 32), 1);    // odd stride: conflict free
  EXPECT_EQ(SharedPasses(Strided(0, 128).acc(), 32), 32);  // stride 32: 32-way
  EXPECT_EQ(SharedPasses(Strided(64, 0).acc(), 32), 1);    // broadcast
  // Half the warp reads word 0, half word 32 (both bank 0): 2 passes.
  Warp h = Strided(0, 0);
  for (size_t i = 16; i < 32; ++i)
    h.lanes[i] = 128;
  EXPECT_EQ(SharedPasses(h.acc(), 32), 2);
  // 8 B lanes: 64 words over 32 banks; 16 B lanes: 128 words.
  EXPECT_EQ(SharedPasses(Strided(0, 8, 8).acc(), 32), 2);
  EXPECT_EQ(SharedPasses(Strided(0, 16, 16).acc(), 32), 4);
  Warp none = Strided(0, 128);
  none.mask = 0;
  EXPECT_EQ(SharedPasses(none.acc(), 32), 0);
  Warp one = Strided(0, 128);
  one.mask = 0x3;  // two lanes, same bank
  EXPECT_EQ(SharedPasses(one.acc(), 32), 2);
}

TEST(Shared, LatencyConflictsAndPipeline) {
  MemorySystem m(Cfg(), 1);
  EXPECT_EQ(m.Issue(0, 100, With(Strided(0, 4), Space::kShared)), 120u);
  // 32-way: 20 + 31. It holds the pipeline 32 cycles: the next access starts at 133.
  EXPECT_EQ(m.Issue(0, 101, With(Strided(0, 128), Space::kShared)), 101u + 20 + 31);
  EXPECT_EQ(m.Issue(0, 102, With(Strided(0, 4), Space::kShared, true)), 133u + 20);
  const MemStats& s = m.Stats(0);
  EXPECT_EQ(s.shared.accesses, 3u);
  EXPECT_EQ(s.shared.bank_conflicts, 31u);
  EXPECT_EQ(s.warp_accesses, 3u);
  EXPECT_EQ(s.l1d.accesses, 0u);
}

// ---------------------------------------------------------------- L1D

TEST(L1, MissThenHitThenMergeWhileInFlight) {
  MemorySystem m(Cfg(), 1);
  // Cold: L1 miss, L2 miss: 300.
  EXPECT_EQ(m.Issue(0, 0, FullLine(0)), 300u);
  // Another warp to the same line while it is in flight: merges, completes at the fill.
  EXPECT_EQ(m.Issue(0, 5, FullLine(0)), 300u);
  // After the fill: a hit.
  EXPECT_EQ(m.Issue(0, 300, FullLine(0)), 310u);
  const LevelStats& l1 = m.Stats(0).l1d;
  EXPECT_EQ(l1.accesses, 12u);
  EXPECT_EQ(l1.hits, 4u);
  EXPECT_EQ(l1.misses, 8u);
  EXPECT_EQ(l1.mshr_merges, 4u);
  EXPECT_EQ(l1.bytes, 128u);
  const MemStats& s = m.Stats(0);
  EXPECT_EQ(s.l2.accesses, 4u);  // the merge never reached the L2
  EXPECT_EQ(s.l2.misses, 4u);
  EXPECT_EQ(s.l2.bytes, 128u);
  EXPECT_EQ(s.dram.bytes, 128u);
  EXPECT_EQ(s.warp_accesses, 3u);
}

TEST(L1, SectorMissKeepsTheLine) {
  MemorySystem m(Cfg(), 1);
  EXPECT_EQ(m.Issue(0, 0, OneLane(0)), 300u);  // sector 0 only
  // The whole line: sector 0 hits, sectors 1..3 are fetched (L2 has the line, not the
  // sectors: DRAM), the line is not replaced.
  EXPECT_EQ(m.Issue(0, 1000, FullLine(0)), 1300u);
  // Sector 0 stayed valid while 1..3 are in flight: a hit.
  EXPECT_EQ(m.Issue(0, 1001, OneLane(4)), 1011u);
  // Sector 2 is still in flight: a merge.
  EXPECT_EQ(m.Issue(0, 1002, OneLane(64)), 1300u);
  const MemStats& s = m.Stats(0);
  EXPECT_EQ(s.l1d.accesses, 1u + 4 + 1 + 1);
  EXPECT_EQ(s.l1d.hits, 2u);
  EXPECT_EQ(s.l1d.misses, 5u);
  EXPECT_EQ(s.l1d.mshr_merges, 1u);
  EXPECT_EQ(s.l1d.bytes, 128u);
  EXPECT_EQ(s.l2.accesses, 4u);
  EXPECT_EQ(s.dram.bytes, 128u);
}

TEST(L1, LruEvictionOrder) {
  // Lines 0, 4, 8, 12 share L1 set 0 (2 ways).
  MemorySystem m(Cfg(), 1);
  EXPECT_EQ(m.Issue(0, 0, OneLane(0 * 128)), 300u);      // A
  EXPECT_EQ(m.Issue(0, 1000, OneLane(4 * 128)), 1300u);  // B
  EXPECT_EQ(m.Issue(0, 2000, OneLane(0 * 128)), 2010u);  // A hit: A is MRU
  EXPECT_EQ(m.Issue(0, 3000, OneLane(8 * 128)), 3300u);  // C evicts B (LRU)
  EXPECT_EQ(m.Issue(0, 4000, OneLane(0 * 128)), 4010u);  // A still there
  // B misses in the L1 and hits in the L2; it evicts C (A was used at 4000).
  EXPECT_EQ(m.Issue(0, 5000, OneLane(4 * 128)), 5100u);
  EXPECT_EQ(m.Issue(0, 6000, OneLane(0 * 128)), 6010u);  // A
  EXPECT_EQ(m.Issue(0, 7000, OneLane(8 * 128)), 7100u);  // C was evicted; now evicts B
  EXPECT_EQ(m.Issue(0, 8000, OneLane(0 * 128)), 8010u);  // A
}

TEST(L1, StreamingLoadsInsertAtLru) {
  MemorySystem m(Cfg(), 1);
  m.Issue(0, 0, OneLane(0 * 128));     // A
  m.Issue(0, 1000, OneLane(4 * 128));  // B (MRU)
  // .cs C evicts A (LRU) and is inserted at the LRU position...
  EXPECT_EQ(m.Issue(0, 2000, With(OneLane(8 * 128), Space::kGlobal, false, CacheOp::kCs)), 2300u);
  // ... so D evicts C, not B.
  EXPECT_EQ(m.Issue(0, 3000, OneLane(12 * 128)), 3300u);
  EXPECT_EQ(m.Issue(0, 4000, OneLane(4 * 128)), 4010u);  // B hits
  EXPECT_EQ(m.Issue(0, 5000, OneLane(8 * 128)), 5100u);  // C: L2 hit
}

TEST(L1, MergeLimitRefuses) {
  MemorySystem m(Cfg(), 1);  // 3 requests per MSHR
  EXPECT_EQ(m.Issue(0, 0, FullLine(0)), 300u);
  EXPECT_EQ(m.Issue(0, 1, FullLine(0)), 300u);
  EXPECT_EQ(m.Issue(0, 2, FullLine(0)), 300u);
  EXPECT_EQ(m.Issue(0, 3, FullLine(0)), std::nullopt);
  EXPECT_EQ(m.Stats(0).l1d.reservation_stalls, 1u);
  EXPECT_EQ(m.Stats(0).l1d.mshr_merges, 8u);
  EXPECT_EQ(m.Stats(0).warp_accesses, 3u);
  EXPECT_EQ(m.Issue(0, 300, FullLine(0)), 310u);  // retried after the fill: a hit
}

// Drives two memory systems with the same calls, one of them with refused calls in between:
// the refused calls must change nothing but the stall count.
TEST(L1, MshrExhaustionRefusesWithoutChangingState) {
  MemorySystem a(Cfg(), 1), b(Cfg(), 1);
  for (uint64_t i = 0; i < 4; ++i) {  // lines 0..3 (sets 0..3): 4 MSHRs busy until ~300
    EXPECT_EQ(a.Issue(0, 0, FullLine(i)), b.Issue(0, 0, FullLine(i)));
  }
  // Line 0 at cycle 0, 1 at 1 (DRAM: line j starts at 4j): fills 300, 304, 308, 312.
  EXPECT_EQ(a.Issue(0, 10, FullLine(0)), 300u);  // a merge needs no MSHR
  EXPECT_EQ(b.Issue(0, 10, FullLine(0)), 300u);
  // A fifth line: no MSHR, until the first fill frees one at 300.
  EXPECT_FALSE(a.CanIssue(0, 20, FullLine(5)));
  EXPECT_EQ(a.RetryCycle(0, 20, FullLine(5)), 300u);
  EXPECT_FALSE(a.CanIssue(0, 299, FullLine(5)));
  EXPECT_EQ(a.Issue(0, 20, FullLine(5)), std::nullopt);
  // Two lines, one resident (a merge) and one new: refused as a whole.
  Warp two = FullLine(1);
  for (size_t i = 16; i < 32; ++i)
    two.lanes[i] = 6 * 128 + (i - 16) * 4;
  EXPECT_EQ(a.Issue(0, 21, two), std::nullopt);
  EXPECT_EQ(a.Stats(0).l1d.reservation_stalls, 2u);
  // The first MSHR frees at 300: now line 5 goes, with the DRAM and L2 queues as if the
  // refused calls never happened.
  EXPECT_EQ(a.Issue(0, 300, FullLine(5)), 600u);
  EXPECT_EQ(b.Issue(0, 300, FullLine(5)), 600u);
  for (uint64_t i = 0; i < 8; ++i)
    EXPECT_EQ(a.Issue(0, 1000 + i, FullLine(i)), b.Issue(0, 1000 + i, FullLine(i))) << i;
  MemStats sa = a.Stats(0), sb = b.Stats(0);
  EXPECT_EQ(sa.l1d.reservation_stalls, 2u);
  sa.l1d.reservation_stalls = 0;
  EXPECT_EQ(sa.l1d.accesses, sb.l1d.accesses);
  EXPECT_EQ(sa.l1d.hits, sb.l1d.hits);
  EXPECT_EQ(sa.l1d.mshr_merges, sb.l1d.mshr_merges);
  EXPECT_EQ(sa.l2.accesses, sb.l2.accesses);
  EXPECT_EQ(sa.l2.hits, sb.l2.hits);
  EXPECT_EQ(sa.dram.bytes, sb.dram.bytes);
  EXPECT_EQ(sa.warp_accesses, sb.warp_accesses);
}

TEST(L1, AllWaysInFlightRefuses) {
  MemoryConfig c = Cfg();
  c.l1d.mshrs = 32;
  MemorySystem m(c, 1);
  EXPECT_TRUE(m.Issue(0, 0, OneLane(0 * 128)));
  EXPECT_TRUE(m.Issue(0, 0, OneLane(4 * 128)));
  // Set 0's two lines are in flight: a third line of the set has nothing to replace.
  EXPECT_EQ(m.Issue(0, 5, OneLane(8 * 128)), std::nullopt);
  EXPECT_EQ(m.Stats(0).l1d.reservation_stalls, 1u);
  // One access with two new lines of set 1 and one of set 0: set 0 still refuses it.
  Warp w = OneLane(1 * 128);
  w.mask = 0x7;
  w.lanes[1] = 5 * 128;
  w.lanes[2] = 12 * 128;
  EXPECT_EQ(m.Issue(0, 6, w), std::nullopt);
  // Without the set-0 line it goes.
  w.mask = 0x3;
  EXPECT_TRUE(m.Issue(0, 7, w));
}

// CanIssue answers what Issue would do, without changing anything (the SM asks it for every
// candidate warp before its scheduler picks one).
TEST(L1, CanIssueAgreesWithIssueAndChangesNothing) {
  MemoryConfig c = Cfg();
  c.l1d.mshrs = 32;
  MemorySystem m(c, 1), twin(c, 1);
  auto both = [&](uint64_t cycle, const Warp& w) {
    const bool can = m.CanIssue(0, cycle, w);
    const MemStats before = m.Stats(0);
    EXPECT_EQ(m.CanIssue(0, cycle, w), can);  // asking twice: same answer
    EXPECT_EQ(m.Stats(0).l1d.reservation_stalls, before.l1d.reservation_stalls);
    const auto got = m.Issue(0, cycle, w);
    EXPECT_EQ(got.has_value(), can) << "cycle " << cycle;
    EXPECT_EQ(got, twin.Issue(0, cycle, w));
  };
  both(0, OneLane(0 * 128));
  both(0, OneLane(4 * 128));
  both(5, OneLane(8 * 128));  // set 0 in flight: refused
  Warp w = OneLane(1 * 128);
  w.mask = 0x7;
  w.lanes[1] = 5 * 128;
  w.lanes[2] = 12 * 128;
  both(6, w);  // refused as a whole
  w.mask = 0x3;
  both(7, w);
  Warp store = OneLane(16 * 128);
  store.write = true;
  both(8, store);               // write-through, no allocate: always accepted
  both(400, OneLane(8 * 128));  // the fills landed: accepted now
  MemorySystem n(Cfg(), 1);     // 3 requests per MSHR
  for (uint64_t i = 0; i < 3; ++i) {
    EXPECT_TRUE(n.CanIssue(0, i, FullLine(0)));
    EXPECT_TRUE(n.Issue(0, i, FullLine(0)));
  }
  EXPECT_FALSE(n.CanIssue(0, 3, FullLine(0)));
  EXPECT_EQ(n.Stats(0).l1d.reservation_stalls, 0u);
}

// Regression: an access that needs more new lines in one set than the set has ways, or more
// MSHRs than the cache has, was refused forever (the SM retried it until its cycle limit). With
// nothing in flight such an access bypasses the L1 to the L2.
TEST(L1, AccessLargerThanTheCacheCanHoldBypassesIt) {
  MemorySystem m(Cfg(), 1);  // 4 sets x 2 ways, 4 MSHRs
  Warp w = OneLane(0);
  w.mask = 0x7;
  w.lanes[1] = 4 * 128;  // lines 0, 4, 8: all in set 0
  w.lanes[2] = 8 * 128;
  EXPECT_TRUE(m.CanIssue(0, 0, w));
  const auto done = m.Issue(0, 0, w);
  ASSERT_TRUE(done.has_value());
  EXPECT_GE(*done, 300u);  // L2 misses
  EXPECT_EQ(m.Stats(0).l1d.misses, 3u);
  EXPECT_EQ(m.Stats(0).l1d.reservation_stalls, 0u);
  // Nothing was allocated: line 0 misses again later (an L2 hit now).
  EXPECT_EQ(m.Issue(0, 1000, OneLane(0)), 1000u + 100u);
  // Five lines in five sets need five MSHRs of four.
  MemorySystem n(Cfg(), 1);
  Warp five = OneLane(0);
  five.mask = 0x1f;
  for (size_t i = 0; i < 5; ++i)
    five.lanes[i] = (1 + i) * 128;
  EXPECT_TRUE(n.CanIssue(0, 0, five));
  EXPECT_TRUE(n.Issue(0, 0, five).has_value());
  // With lines in flight the same access waits for them instead (it may fit then).
  MemorySystem busy(Cfg(), 1);
  EXPECT_TRUE(busy.Issue(0, 0, FullLine(1)).has_value());
  EXPECT_FALSE(busy.CanIssue(0, 1, five));
}

TEST(L1, Texture_And_Nc_GoThroughL1_CgAndCvBypass) {
  MemorySystem m(Cfg(), 1);
  EXPECT_EQ(m.Issue(0, 0, With(FullLine(0), Space::kGlobal, false, CacheOp::kCg)), 300u);
  EXPECT_EQ(m.Stats(0).l1d.accesses, 0u);
  // Still not in the L1: an L2 hit.
  EXPECT_EQ(m.Issue(0, 400, With(FullLine(0), Space::kGlobal, false, CacheOp::kCv)), 500u);
  EXPECT_EQ(m.Issue(0, 600, With(FullLine(0), Space::kGlobal, false, CacheOp::kNc)), 700u);
  EXPECT_EQ(m.Issue(0, 800, FullLine(0)), 810u);  // filled by the .nc load
  EXPECT_EQ(m.Issue(0, 900, With(FullLine(0), Space::kTexture)), 910u);
  EXPECT_EQ(m.Stats(0).l1d.accesses, 12u);
  EXPECT_EQ(m.Stats(0).l1d.hits, 8u);
  EXPECT_EQ(m.Stats(0).l2.hits, 8u);
}

TEST(L1, NoL1GoesToTheL2) {
  MemoryConfig c = Cfg();
  c.l1d.bytes = 0;
  MemorySystem m(c, 1);
  EXPECT_EQ(m.Issue(0, 0, FullLine(0)), 300u);
  EXPECT_EQ(m.Issue(0, 400, FullLine(0)), 500u);
  EXPECT_EQ(m.Stats(0).l1d.accesses, 0u);
  EXPECT_EQ(m.Stats(0).l2.accesses, 8u);
}

// ---------------------------------------------------------------- stores

TEST(Stores, WriteThroughNoAllocate) {
  MemorySystem m(Cfg(), 1);
  // Leaves the SM after the L1 latency; the L2 allocates the written sectors (no DRAM read).
  EXPECT_EQ(m.Issue(0, 0, With(FullLine(3), Space::kGlobal, true)), 10u);
  EXPECT_EQ(m.Stats(0).l1d.misses, 4u);
  EXPECT_EQ(m.Stats(0).dram.bytes, 0u);
  // Not allocated in the L1: the load misses there and hits in the L2.
  EXPECT_EQ(m.Issue(0, 100, FullLine(3)), 200u);
  // Now resident: the store updates the L1 copy (a hit) and still goes to the L2.
  EXPECT_EQ(m.Issue(0, 300, With(FullLine(3), Space::kGlobal, true)), 310u);
  EXPECT_EQ(m.Issue(0, 400, FullLine(3)), 410u);
  const MemStats& s = m.Stats(0);
  EXPECT_EQ(s.l1d.accesses, 16u);
  EXPECT_EQ(s.l1d.hits, 8u);
  EXPECT_EQ(s.l2.accesses, 12u);  // write, read, write
  EXPECT_EQ(s.l2.hits, 8u);
  EXPECT_EQ(s.dram.bytes, 0u);
}

TEST(Stores, WaitForTheSliceQueue) {
  MemorySystem m(Cfg(), 1);
  // 20 warps store a line each to slice 0 (even line indices) in cycle 0. The LSU sends store
  // k at cycle k; the slice takes 2 cycles a line, so it accepts store k at 2k.
  for (uint64_t k = 0; k < 20; ++k)
    EXPECT_EQ(m.Issue(0, 0, With(FullLine(2 * k), Space::kGlobal, true)), std::max(k + 10, 2 * k))
        << k;
}

TEST(Stores, LocalIsWriteBackWriteAllocate) {
  MemorySystem m(Cfg(), 1);
  EXPECT_EQ(m.Issue(0, 0, With(FullLine(0), Space::kLocal, true)), 10u);
  EXPECT_EQ(m.Stats(0).l2.accesses, 0u);
  EXPECT_EQ(m.Issue(0, 20, With(FullLine(0), Space::kLocal)), 30u);  // a hit
  // Two more lines of set 0: the second evicts the dirty line 0, written back to the L2.
  EXPECT_EQ(m.Issue(0, 40, With(FullLine(4), Space::kLocal, true)), 50u);
  EXPECT_EQ(m.Issue(0, 60, With(FullLine(8), Space::kLocal, true)), 70u);
  EXPECT_EQ(m.Stats(0).l2.accesses, 4u);
  EXPECT_EQ(m.Stats(0).dram.bytes, 0u);
  // Line 0 comes back from the L2 (write-allocated there).
  EXPECT_EQ(m.Issue(0, 100, With(FullLine(0), Space::kLocal)), 200u);
}

TEST(Stores, AtomicsGoToTheL2) {
  MemorySystem m(Cfg(), 1);
  Warp a = FullLine(0);
  a.atomic = true;
  EXPECT_EQ(m.Issue(0, 0, a), 300u);
  EXPECT_EQ(m.Issue(0, 400, a), 500u);
  EXPECT_EQ(m.Stats(0).l1d.accesses, 0u);
  EXPECT_EQ(m.Stats(0).l2.hits, 4u);
  EXPECT_EQ(m.Stats(0).dram.bytes, 128u);  // the read; the line is dirty in the L2
}

// ---------------------------------------------------------------- L2 and DRAM

TEST(L2, SliceQueueing) {
  MemorySystem m(Cfg(), 1);
  // Warm 8 lines in the L2 by stores (write-allocate, no DRAM), then read them with .cg.
  for (uint64_t i = 0; i < 16; ++i)
    m.Issue(0, 0, With(FullLine(i), Space::kGlobal, true));
  // 8 lines of slice 0 (even): sent at 1000 + k, the slice serves one per 2 cycles.
  Warp even;
  for (size_t i = 0; i < 32; ++i)
    even.lanes[i] = (i % 8) * 256 + (i / 8) * 32;
  even.op = CacheOp::kCg;
  EXPECT_EQ(m.Issue(0, 1000, even), 1000u + 2 * 7 + 100);
  // 8 consecutive lines over both slices: no queueing beyond the LSU's line per cycle.
  Warp both;
  for (size_t i = 0; i < 32; ++i)
    both.lanes[i] = (i % 8) * 128 + (i / 8) * 32;
  both.op = CacheOp::kCg;
  EXPECT_EQ(m.Issue(0, 2000, both), 2000u + 7 + 100);
  EXPECT_EQ(m.Stats(0).l2.hits, 64u);
}

TEST(Dram, BandwidthSpreadsCompletions) {
  MemoryConfig c = Cfg();
  c.l1d.bytes = 128 * 1024;  // 256 sets x 4 ways: no replacement
  c.l1d.ways = 4;
  c.l1d.mshrs = 128;
  c.l2.bytes = 1 << 20;
  MemorySystem m(c, 1);
  // 32 warps each read 4 distinct lines (warp w: lines 4w..4w+3) in cycle 0. Line j is looked
  // up at cycle j; its slice (j % 2) is free by then; DRAM takes 4 cycles a line, so line j's
  // DRAM transfer starts at 4j and its data is back at 4j + 200 + 100. Warp w: 16w + 312.
  for (uint64_t w = 0; w < 32; ++w) {
    Warp x;  // 8 lanes x 16 B per line
    x.bytes = 16;
    for (size_t i = 0; i < 32; ++i)
      x.lanes[i] = (4 * w + i / 8) * 128 + (i % 8) * 16;
    EXPECT_EQ(m.Issue(0, 0, x), 16 * w + 312) << w;
  }
  EXPECT_EQ(m.Stats(0).dram.bytes, 32u * 4 * 128);
  EXPECT_EQ(m.Stats(0).dram.accesses, 32u * 4 * 4);
}

TEST(Dram, FractionalBandwidth) {
  MemoryConfig c = Cfg();
  c.dram_bytes_per_cycle = 100;  // a sector: 0.32 cycles
  MemorySystem m(c, 5);
  // Five SMs read one sector of lines 0..4 in cycle 0. Slice 0 (lines 0, 2, 4) starts them at
  // 0, 0.5, 1; slice 1 (lines 1, 3) at 0, 0.5 -> whole cycles 0, 1, 1 and 0, 1. DRAM in call
  // order: 0, max(0, .32) = .32, max(1, .64) = 1, max(1, 1.32) = 1.32, max(1, 1.64) = 1.64;
  // rounded up: 0, 1, 1, 2, 2.
  const uint64_t want[] = {300, 301, 301, 302, 302};
  for (int s = 0; s < 5; ++s)
    EXPECT_EQ(m.Issue(s, 0, OneLane(static_cast<uint64_t>(s) * 128)), want[s]) << s;
}

TEST(L2, SmsShareTheL2) {
  MemorySystem m(Cfg(), 2);
  EXPECT_EQ(m.Issue(0, 0, FullLine(0)), 300u);
  // SM 1 while SM 0's fill is in flight in the L2: merged there, same data cycle.
  EXPECT_EQ(m.Issue(1, 10, FullLine(0)), 300u);
  // SM 1 after the fill: its own L1 is warm now; another line SM 0 fetched is an L2 hit.
  EXPECT_EQ(m.Issue(0, 400, FullLine(1)), 700u);
  EXPECT_EQ(m.Issue(1, 800, FullLine(1)), 900u);
  EXPECT_EQ(m.Issue(1, 1000, FullLine(0)), 1010u);
  const MemStats& s0 = m.Stats(0);
  const MemStats& s1 = m.Stats(1);
  EXPECT_EQ(s0.l2.misses, 8u);
  EXPECT_EQ(s0.dram.bytes, 256u);
  EXPECT_EQ(s1.l2.mshr_merges, 4u);
  EXPECT_EQ(s1.l2.misses, 4u);
  EXPECT_EQ(s1.l2.hits, 4u);
  EXPECT_EQ(s1.dram.bytes, 0u);
  const MemStats t = m.Total();
  EXPECT_EQ(t.l2.accesses, 16u);
  EXPECT_EQ(t.dram.bytes, 256u);
  EXPECT_EQ(t.l1d.accesses, 20u);
  EXPECT_EQ(t.l1d.hits, 4u);
  EXPECT_EQ(t.warp_accesses, 5u);
}

TEST(L2, DirtyEvictionWritesBack) {
  MemoryConfig c = Cfg();
  c.l2.bytes = 2 * 1 * 1 * 128;  // 2 slices x 1 set x 1 way
  c.l2.ways = 1;
  MemorySystem m(c, 1);
  EXPECT_EQ(m.Issue(0, 0, With(FullLine(0), Space::kGlobal, true)), 10u);  // dirty in slice 0
  EXPECT_EQ(m.Stats(0).dram.bytes, 0u);
  // Line 2 (slice 0) replaces it: its read, then line 0's write back.
  EXPECT_EQ(m.Issue(0, 100, With(FullLine(2), Space::kGlobal, false, CacheOp::kCg)), 400u);
  EXPECT_EQ(m.Stats(0).dram.bytes, 256u);
}

// ---------------------------------------------------------------- constant cache

TEST(Constant, DistinctAddressesSerialize) {
  MemorySystem m(Cfg(), 1);
  const Warp same = With(Strided(0x40, 0), Space::kConst);
  EXPECT_EQ(m.Issue(0, 0, same), 300u);  // miss: L2, DRAM
  EXPECT_EQ(m.Issue(0, 400, same), 404u);
  // Four distinct words of the same line: 3 more passes.
  Warp four = With(Strided(0x40, 0), Space::kConst);
  for (size_t i = 0; i < 32; ++i)
    four.lanes[i] = 0x40 + (i % 4) * 4;
  EXPECT_EQ(m.Issue(0, 500, four), 507u);
  // The constant port is busy until 504.
  EXPECT_EQ(m.Issue(0, 501, same), 508u);
  const LevelStats& cc = m.Stats(0).constant;
  EXPECT_EQ(cc.bank_conflicts, 3u);
  EXPECT_EQ(cc.accesses, 4u);
  EXPECT_EQ(cc.hits, 3u);
  EXPECT_EQ(cc.misses, 1u);
  EXPECT_EQ(m.Stats(0).l1d.accesses, 0u);
}

TEST(Stats, TotalSumsAndEmptyMask) {
  MemorySystem m(Cfg(), 3);
  Warp none = FullLine(0);
  none.mask = 0;
  EXPECT_EQ(m.Issue(2, 7, none), 7u);
  m.Issue(0, 10, FullLine(0));
  m.Issue(1, 20, With(Strided(0, 8), Space::kShared));
  const MemStats t = m.Total();
  EXPECT_EQ(t.warp_accesses, 3u);
  EXPECT_EQ(t.shared.bank_conflicts, 1u);
  EXPECT_EQ(t.l1d.accesses, 4u);
  EXPECT_EQ(t.dram.bytes, 128u);
}

TEST(Config, RejectsBadGeometry) {
  MemoryConfig c = Cfg();
  c.l1d.line_bytes = 96;
  EXPECT_THROW(MemorySystem(c, 1), std::invalid_argument);
  c = Cfg();
  c.l1d.bytes = 100;
  EXPECT_THROW(MemorySystem(c, 1), std::invalid_argument);
  c = Cfg();
  c.dram_bytes_per_cycle = 0;
  EXPECT_THROW(MemorySystem(c, 1), std::invalid_argument);
  EXPECT_THROW(MemorySystem(Cfg(), 0), std::invalid_argument);
}

}  // namespace
}  // namespace gpurf::sim::mem
