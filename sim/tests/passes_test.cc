// The compiler analyses of sim/passes on hand-written kernels with hand-computed answers
// (liveness, last-use bits, warp-level liveness under divergence, strands, release flags,
// FineReg vectors, value usage, energies), and the ORF allocation invariants on every kernel we
// have (hand-written ones, 60 random structured kernels, the real Accel-Sim trace) over a sweep
// of hierarchies: 2 and 3 levels, 1..6 L1 entries, split and unified L0, each optimization on and
// off. The invariants are checked by CheckOrfAllocation, an independent simulation of the
// register-file levels; a deliberately broken allocation shows that it catches violations.

#include <gtest/gtest.h>

#include <set>

#include "sim/accelsim/trace_import.h"
#include "sim/passes/analysis.h"
#include "sim/passes/value_usage.h"
#include "sim/tests/kernels_util.h"

namespace gpurf::sim::passes {
namespace {

using test::Add;
using test::Bra;
using test::Exit;
using test::Fma;
using test::Load;
using test::Make;
using test::Mov;
using test::R;
using test::Store;

RegSet Regs(std::initializer_list<int> rs) {
  RegSet s;
  for (int r : rs)
    s.set(static_cast<size_t>(r));
  return s;
}

// 0: R1 = R2 + R3 | 1: R4 = R1 + R1 | 2: R5 = R4 + R2 | 3: st [R5], R1 | 4: exit
Kernel StraightLine() {
  return Make("straight", {Add(1, 2, 3), Add(4, 1, 1), Add(5, 4, 2), Store(5, 1), Exit()});
}

// 0: R1 = R0+R0 | 1: @p bra 5 | 2: R2 = R1+R1 | 3: R3 = R2+R2 | 4: bra 7
// 5: R3 = R1+R0 | 6: R2 = R3+R3 | 7: R4 = R3+R0 | 8: exit
Kernel Diamond() {
  return Make("diamond", {Add(1, 0, 0), Bra(5, true), Add(2, 1, 1), Add(3, 2, 2), Bra(7, false),
                          Add(3, 1, 0), Add(2, 3, 3), Add(4, 3, 0), Exit()});
}

// 0: R0 = . | 1: R1 = . | 2: R2 = ld [R0] | 3: R1 = R1+R2 | 4: R0 = R0+R3 | 5: @p bra 2
// 6: st [R0], R1 | 7: exit
Kernel Loop() {
  return Make("loop", {Mov(0), Mov(1), Load(2, 0), Add(1, 1, 2), Add(0, 0, 3), Bra(2, true),
                       Store(0, 1), Exit()});
}

// if/else whose else side waits on a load: 0: R1 = R0+R0 | 1: @p bra 5 | 2: R2 = R1+R1
// 3: R3 = R2+R1 | 4: bra 8 | 5: R2 = ld [R1] | 6: R3 = R2+R2 | 7: R3 = R3+R1 | 8: R4 = R3+R1
// 9: exit
Kernel SplitDiamond() {
  return Make("split-diamond",
              {Add(1, 0, 0), Bra(5, true), Add(2, 1, 1), Add(3, 2, 1), Bra(8, false), Load(2, 1),
               Add(3, 2, 2), Add(3, 3, 1), Add(4, 3, 1), Exit()});
}

// Gebhart Fig. 12: (a) R1 read twice right away and once much later; (b) R0 read by 8 adds.
Kernel Figure12() {
  std::vector<Instruction> c = {Add(1, 2, 9), Add(3, 1, 9), Add(4, 1, 9)};
  // A chain of short-lived values keeping a small ORF busy.
  for (int i = 0; i < 8; ++i)
    c.push_back(
        Add(static_cast<uint16_t>(10 + (i + 1) % 2), static_cast<uint16_t>(10 + i % 2), 12));
  c.push_back(Add(5, 1, 9));
  for (int i = 0; i < 8; ++i)
    c.push_back(Add(static_cast<uint16_t>(20 + i), 0, 13));
  c.push_back(Exit());
  return Make("figure12", c);
}

// Fig. 14(c): R1 written on both sides of a hammock and read at the merge.
Kernel Hammock() {
  return Make("hammock", {Add(0, 0, 0), Bra(4, true), Add(1, 0, 0), Bra(5, false), Add(1, 0, 2),
                          Add(3, 1, 0), Exit()});
}

// Values read by shared units (store, SFU) and produced by them (load, SFU) next to ALU values.
Kernel SharedUnits() {
  return Make("shared-units", {Add(1, 0, 0), test::Sfu(2, 1), Add(3, 2, 2), Store(3, 1),
                               Add(4, 3, 3), Add(5, 4, 4), Exit()});
}

std::vector<Kernel> HandWritten() {
  return {StraightLine(), Diamond(), Loop(), SplitDiamond(), Figure12(), Hammock(), SharedUnits()};
}

std::vector<Kernel> AllKernels() {
  std::vector<Kernel> ks = HandWritten();
  for (uint32_t seed = 1; seed <= 60; ++seed)
    ks.push_back(
        test::RandomKernel(seed, seed % 3 == 0 ? 6 : 10).Build("random" + std::to_string(seed), 6));
  return ks;
}

// ------------------------------------------------------------------------------- liveness

TEST(Liveness, StraightLineMatchesHandComputation) {
  const Kernel k = StraightLine();
  const Liveness L = ComputeLiveness(k);
  EXPECT_EQ(L.live_in[0], Regs({2, 3}));
  EXPECT_EQ(L.live_out[0], Regs({1, 2}));
  EXPECT_EQ(L.live_in[2], Regs({1, 2, 4}));
  EXPECT_EQ(L.live_out[2], Regs({1, 5}));
  EXPECT_EQ(L.live_out[3], Regs({}));
  EXPECT_EQ(L.dead_after[0], (std::vector<uint8_t>{0, 1}));  // R2 read again at 2, R3 dies
  EXPECT_EQ(L.dead_after[1], (std::vector<uint8_t>{0, 0}));  // R1 read again at 3
  EXPECT_EQ(L.dead_after[2], (std::vector<uint8_t>{1, 1}));
  EXPECT_EQ(L.dead_after[3], (std::vector<uint8_t>{1, 1}));
  // No divergence: warp level equals thread level.
  for (size_t i = 0; i < k.code.size(); ++i) {
    EXPECT_EQ(L.warp_live_in[i], L.live_in[i]);
    EXPECT_EQ(L.warp_dead_after[i], L.dead_after[i]);
  }
}

TEST(Liveness, SameRegisterInTwoSlotsMarksOnlyTheLastSlot) {
  const Kernel k = Make("twice", {Add(1, 0, 0), Exit()});
  const Liveness L = ComputeLiveness(k);
  EXPECT_EQ(L.dead_after[0], (std::vector<uint8_t>{0, 1}));
}

TEST(Liveness, GuardedWriteDoesNotKill) {
  Instruction g = Add(1, 2, 2);
  g.guard = 0;
  const Kernel k = Make("guarded", {Add(1, 0, 0), g, Add(3, 1, 1), Exit()});
  const Liveness L = ComputeLiveness(k);
  EXPECT_TRUE(L.live_in[1].test(1));  // the old R1 survives in lanes whose guard is false
  EXPECT_EQ(L.live_in[1], Regs({1, 2}));
}

TEST(Liveness, DivergentPathsKeepWhatParkedThreadsNeed) {
  const Kernel k = Diamond();
  const Liveness L = ComputeLiveness(k);
  // Thread level: R1 dies in each path.
  EXPECT_EQ(L.dead_after[2], (std::vector<uint8_t>{0, 1}));
  EXPECT_EQ(L.dead_after[5], (std::vector<uint8_t>{1, 0}));
  // Warp level: the other path's threads still need R1; threads done wait at 7 for R3, R0.
  EXPECT_EQ(L.warp_dead_after[2], (std::vector<uint8_t>{0, 0}));
  EXPECT_EQ(L.warp_dead_after[5], (std::vector<uint8_t>{0, 0}));
  EXPECT_EQ(L.warp_live_in[2], Regs({0, 1, 3}));
  EXPECT_EQ(L.warp_live_in[5], Regs({0, 1, 3}));
  EXPECT_EQ(L.warp_live_in[7], Regs({0, 3}));
  EXPECT_EQ(L.warp_dead_after[7], (std::vector<uint8_t>{1, 1}));
  // R2 is private to the then path: released there.
  EXPECT_EQ(L.warp_dead_after[3], (std::vector<uint8_t>{0, 1}));
}

TEST(Liveness, LoopCarriedValuesStayLiveAroundTheBackEdge) {
  const Kernel k = Loop();
  const Liveness L = ComputeLiveness(k);
  EXPECT_EQ(L.live_in[2], Regs({0, 1, 3}));
  EXPECT_EQ(L.live_out[5], Regs({0, 1, 3}));
  // The value read dies when the instruction overwrites its register.
  EXPECT_EQ(L.dead_after[3], (std::vector<uint8_t>{1, 1}));  // R1 rewritten, R2 dies
  EXPECT_EQ(L.dead_after[4], (std::vector<uint8_t>{1, 0}));  // R0 rewritten, R3 stays
}

TEST(FineReg, LiveVectorsAreTheWarpLiveRegisters) {
  const Kernel k = Diamond();
  const Liveness L = ComputeLiveness(k);
  const LiveVectors v = FineRegLiveVectors(k, L);
  EXPECT_EQ(v.bits[0], 0x1u);  // R0
  EXPECT_EQ(v.bits[2], 0xbu);  // R0 R1 R3
  EXPECT_EQ(v.bits[7], 0x9u);  // R0 R3
  EXPECT_EQ(v.bits[8], 0x0u);
  EXPECT_TRUE(v.unrepresentable.empty());
  const Kernel high = Make("high", {Add(70, 0, 0), Add(1, 70, 70), Exit()});
  const LiveVectors hv = FineRegLiveVectors(high, ComputeLiveness(high));
  EXPECT_EQ(hv.unrepresentable, std::vector<uint16_t>{70});
}

// -------------------------------------------------------------------------------- strands

std::vector<std::pair<uint32_t, StrandStart>> Starts(const Strands& s) {
  std::vector<std::pair<uint32_t, StrandStart>> v;
  for (const auto& x : s.strands)
    v.push_back({x.first, x.reason});
  return v;
}

TEST(Strands, LoopWithLoadFollowsGebhartAndBailey) {
  const Kernel k = Loop();
  const Strands s = FormStrands(k, ComputeLiveness(k));
  using S = StrandStart;
  EXPECT_EQ(Starts(s), (std::vector<std::pair<uint32_t, StrandStart>>{{0, S::kKernelEntry},
                                                                      {2, S::kBackwardTarget},
                                                                      {3, S::kLongLatencyUse},
                                                                      {6, S::kAfterBackward}}));
  EXPECT_EQ(s.ends_strand, (std::vector<uint8_t>{0, 1, 1, 0, 0, 1, 0, 1}));
}

TEST(Strands, LoadBeforeALoopIsWaitedForInsideTheLoop) {
  // 0: R1 = ld [R0] | 1: R2 = R0+R0 | 2: R2 = R2+R0 (loop header) | 3: R3 = R1+R2 | 4: @p bra 2
  // 5: exit. The loop header starts a strand but the warp does not wait there: the load can
  // still be in flight at 3, inside the loop, so 3 waits (and starts a strand); on the back
  // edge nothing is pending any more, so the wait drains it once.
  const Kernel k =
      Make("preloop", {Load(1, 0), Add(2, 0, 0), Add(2, 2, 0), Add(3, 1, 2), Bra(2, true), Exit()});
  const Strands s = FormStrands(k, ComputeLiveness(k));
  using S = StrandStart;
  EXPECT_EQ(Starts(s), (std::vector<std::pair<uint32_t, StrandStart>>{{0, S::kKernelEntry},
                                                                      {2, S::kBackwardTarget},
                                                                      {3, S::kLongLatencyUse},
                                                                      {5, S::kAfterBackward}}));
  EXPECT_EQ(s.waits, (std::vector<uint8_t>{0, 0, 0, 1, 0, 0}));
}

TEST(Strands, LoadInsideALoopIsWaitedForAcrossTheBackEdge) {
  // 0: R1 = R0+R0 | 1: R2 = R1+R0 (loop header: reads the load of the previous iteration)
  // 2: R1 = ld [R0] | 3: @p bra 1 | 4: exit. The load's result may be in flight when the back
  // edge returns to 1: the may-pending set flows around the loop, so 1 waits.
  const Kernel k = Make("carried", {Add(1, 0, 0), Add(2, 1, 0), Load(1, 0), Bra(1, true), Exit()});
  const Strands s = FormStrands(k, ComputeLiveness(k));
  EXPECT_EQ(s.waits, (std::vector<uint8_t>{0, 1, 0, 0, 0}));
}

TEST(Strands, UncertainLongLatencyEventEndsTheStrandAtTheJoin) {
  // Gebhart Fig. 9(b): the load runs on one side only; its use and the join start strands.
  const Kernel k = Make("fig9b", {Add(1, 0, 0), Bra(4, true), Load(2, 1), Add(3, 2, 1),
                                  Add(4, 1, 1), Add(5, 2, 4), Exit()});
  const Strands s = FormStrands(k, ComputeLiveness(k));
  using S = StrandStart;
  EXPECT_EQ(Starts(s), (std::vector<std::pair<uint32_t, StrandStart>>{
                           {0, S::kKernelEntry}, {3, S::kLongLatencyUse}, {4, S::kMultipleEntry}}));
}

TEST(Strands, PossiblyPendingLoadAtTheJoinStartsAStrand) {
  // The load on one side is not used there; its use after the join may be the first one.
  const Kernel k =
      Make("pending", {Add(1, 0, 0), Bra(3, true), Load(2, 1), Add(4, 1, 1), Add(5, 2, 4), Exit()});
  const Strands s = FormStrands(k, ComputeLiveness(k));
  using S = StrandStart;
  EXPECT_EQ(Starts(s), (std::vector<std::pair<uint32_t, StrandStart>>{{0, S::kKernelEntry},
                                                                      {4, S::kLongLatencyUse}}));
}

TEST(Strands, BoundaryOnOneSideOfAnIfElseEndsTheStrandAtTheBranch) {
  const Kernel k = SplitDiamond();
  const Strands s = FormStrands(k, ComputeLiveness(k));
  using S = StrandStart;
  EXPECT_EQ(Starts(s), (std::vector<std::pair<uint32_t, StrandStart>>{{0, S::kKernelEntry},
                                                                      {2, S::kDivergentSplit},
                                                                      {5, S::kMultipleEntry},
                                                                      {6, S::kLongLatencyUse},
                                                                      {8, S::kMultipleEntry}}));
}

TEST(Strands, BarriersAndCallsEndStrands) {
  Instruction bar = test::Op("bar.sync", OpClass::kBarrier, {}, {});
  Instruction call = Bra(4, false);
  call.opcode = "CALL.REL";
  call.conditional = true;
  const Kernel k = Make("calls", {Add(1, 0, 0), bar, Add(2, 1, 1), call, Add(3, 2, 2), Exit()});
  const Strands s = FormStrands(k, ComputeLiveness(k));
  EXPECT_EQ(s.strands.size(), 3u);
  EXPECT_EQ(s.strands[1].reason, StrandStart::kAfterBarrier);
  EXPECT_EQ(s.strands[2].reason, StrandStart::kAfterCall);
  StrandOptions no_bar;
  no_bar.barrier_ends_strand = false;
  EXPECT_EQ(FormStrands(k, ComputeLiveness(k), no_bar).strands.size(), 2u);
}

// ---------------------------------------------------------------------------- allocation

OrfAllocation Allocate(const Kernel& k, const OrfConfig& c) {
  const Liveness L = ComputeLiveness(k);
  return AllocateOrf(k, L, FormStrands(k, L), c, GebhartEnergies(c.l1_entries, 8));
}

TEST(OrfAllocation, ShortLivedAluValuesGoToL0AndSharedOperandsNever) {
  const Kernel k = StraightLine();
  const OrfAllocation a = Allocate(k, OrfConfig{});
  // R4 (0->2, slot A) is L0 material; R1 is read by the store (shared unit): L1 only.
  EXPECT_EQ(a.insts[1].dsts[0].orf, RfLevel::kL0);
  EXPECT_FALSE(a.insts[1].dsts[0].mrf);
  EXPECT_EQ(a.insts[2].srcs[0].level, RfLevel::kL0);
  EXPECT_EQ(a.insts[0].dsts[0].orf, RfLevel::kL1);
  EXPECT_EQ(a.insts[3].srcs[1].level, RfLevel::kL1);
  EXPECT_FALSE(a.insts[0].dsts[0].mrf);  // dead after the strand: never reaches the MRF
  // R5 is read by the store only: L1, since the L0 is not wired to shared units.
  EXPECT_EQ(a.insts[3].srcs[0].level, RfLevel::kL1);
}

TEST(OrfAllocation, PartialRangeAndReadOperands) {
  const Kernel k = Figure12();
  OrfConfig c;
  c.levels = 2;
  c.l1_entries = 1;
  OrfAllocation a = Allocate(k, c);
  // R1: reads at 1 and 2 from the L1; the late read at 11 from the MRF, so R1 also goes there.
  EXPECT_EQ(a.insts[1].srcs[0].level, RfLevel::kL1);
  EXPECT_EQ(a.insts[2].srcs[0].level, RfLevel::kL1);
  EXPECT_EQ(a.insts[11].srcs[0].level, RfLevel::kMrf);
  EXPECT_TRUE(a.insts[0].dsts[0].mrf);
  EXPECT_EQ(a.insts[0].dsts[0].orf, RfLevel::kL1);
  EXPECT_GE(a.stats.partial_values, 1);
  // R0 (never written): the first read fills the L1, the next seven read it.
  EXPECT_EQ(a.insts[12].srcs[0].fill, RfLevel::kL1);
  for (int i = 13; i < 20; ++i)
    EXPECT_EQ(a.insts[static_cast<size_t>(i)].srcs[0].level, RfLevel::kL1) << i;
  EXPECT_GE(a.stats.read_operand_values, 1);
  c.partial_ranges = false;
  c.read_operands = false;
  a = Allocate(k, c);
  EXPECT_EQ(a.insts[1].srcs[0].level, RfLevel::kMrf);
  EXPECT_EQ(a.insts[13].srcs[0].level, RfLevel::kMrf);
  EXPECT_EQ(a.stats.partial_values, 0);
}

TEST(OrfAllocation, HammockWritesShareOneEntryAcrossTheForwardBranch) {
  const Kernel k = Hammock();
  OrfConfig c;
  c.levels = 2;
  OrfAllocation a = Allocate(k, c);
  ASSERT_EQ(a.insts[5].srcs[0].level, RfLevel::kL1);
  EXPECT_EQ(a.insts[2].dsts[0].orf, RfLevel::kL1);
  EXPECT_EQ(a.insts[4].dsts[0].orf, RfLevel::kL1);
  EXPECT_EQ(a.insts[2].dsts[0].entries[0], a.insts[4].dsts[0].entries[0]);
  EXPECT_FALSE(a.insts[2].dsts[0].mrf);
  c.forward_branches = false;
  a = Allocate(k, c);
  EXPECT_EQ(a.insts[5].srcs[0].level, RfLevel::kMrf);
}

struct SweepPoint {
  int levels, l1;
  bool split, partial, read_ops, forward;
};

std::vector<SweepPoint> Sweep() {
  std::vector<SweepPoint> v;
  for (int levels = 2; levels <= 3; ++levels) {
    for (int l1 = 1; l1 <= 6; ++l1)
      v.push_back({levels, l1, l1 % 2 == 0, true, true, true});
  }
  v.push_back({3, 3, true, false, false, false});
  v.push_back({3, 2, false, true, false, true});
  v.push_back({2, 3, true, false, true, false});
  return v;
}

void ExpectInvariants(const Kernel& k, const KernelRun* run) {
  const Liveness L = ComputeLiveness(k);
  const Strands st = FormStrands(k, L);
  for (const SweepPoint& p : Sweep()) {
    OrfConfig c;
    c.levels = p.levels;
    c.l1_entries = p.l1;
    c.l0_split = p.split;
    c.partial_ranges = p.partial;
    c.read_operands = p.read_ops;
    c.forward_branches = p.forward;
    const auto e = GebhartEnergies(p.l1, 8);
    const OrfAllocation a = AllocateOrf(k, L, st, c, e);
    const auto bad = CheckOrfAllocation(k, L, st, a);
    EXPECT_TRUE(bad.empty()) << k.name << " levels " << p.levels << " L1 " << p.l1 << ": "
                             << (bad.empty() ? "" : bad.front()) << " (" << bad.size()
                             << " violations)";
    // Occupancy: at every gap between instructions of a strand, the ORF values in flight fit.
    // (Entry indices are checked against capacity by CheckOrfAllocation; here we count values.)
    const AccessCounts counts = CountAccesses(k, a, e, run);
    EXPECT_LE(counts.energy_pj, counts.baseline_pj * 1.0000001) << k.name;
    // Determinism.
    const OrfAllocation b = AllocateOrf(k, L, st, c, e);
    for (size_t i = 0; i < k.code.size(); ++i) {
      for (size_t s = 0; s < a.insts[i].srcs.size(); ++s) {
        EXPECT_EQ(a.insts[i].srcs[s].level, b.insts[i].srcs[s].level);
        EXPECT_EQ(a.insts[i].srcs[s].entries, b.insts[i].srcs[s].entries);
      }
    }
  }
}

TEST(OrfAllocation, InvariantsHoldOnEveryKernelAndHierarchy) {
  for (const Kernel& k : AllKernels())
    ExpectInvariants(k, nullptr);
}

TEST(OrfAllocation, InvariantsHoldOnTheRealTrace) {
  const auto w = accelsim::ImportTrace(GPURF_SOURCE_DIR "/workloads/accelsim/vectoradd");
  ASSERT_EQ(w.kernels.size(), 1u);
  ExpectInvariants(*w.kernels[0].kernel, &w.kernels[0].run);
}

TEST(OrfAllocation, OccupancyNeverExceedsCapacity) {
  // Count, per strand gap, the distinct ORF entries holding a value that is read later.
  for (const Kernel& k : AllKernels()) {
    for (int l1 = 1; l1 <= 4; ++l1) {
      OrfConfig c;
      c.l1_entries = l1;
      const Liveness L = ComputeLiveness(k);
      const Strands st = FormStrands(k, L);
      const OrfAllocation a = AllocateOrf(k, L, st, c, GebhartEnergies(l1, 8));
      for (const Strand& s : st.strands) {
        // last ORF read of each (entry, writer) pair -> live interval
        std::vector<std::set<int>> busy(s.end - s.first + 1);
        std::map<int, uint32_t> written;  // L1 entry -> write instruction
        for (uint32_t i = s.first; i < s.end; ++i) {
          for (size_t sl = 0; sl < k.code[i].srcs.size(); ++sl) {
            const OperandAlloc& oa = a.insts[i].srcs[sl];
            if (oa.level != RfLevel::kL1)
              continue;
            for (int j = 0; j < k.code[i].srcs[sl].count; ++j) {
              const int e = oa.entries[static_cast<size_t>(j)];
              ASSERT_TRUE(written.count(e)) << k.name << " reads L1 entry " << e << " at " << i;
              for (uint32_t g = written[e]; g < i; ++g)
                busy[g - s.first].insert(e);
            }
          }
          for (size_t sl = 0; sl < k.code[i].srcs.size(); ++sl) {
            if (a.insts[i].srcs[sl].fill == RfLevel::kL1) {
              for (int j = 0; j < k.code[i].srcs[sl].count; ++j)
                written[a.insts[i].srcs[sl].entries[static_cast<size_t>(j)]] = i;
            }
          }
          for (size_t d = 0; d < k.code[i].dsts.size(); ++d) {
            if (a.insts[i].dsts[d].orf == RfLevel::kL1) {
              for (int j = 0; j < k.code[i].dsts[d].count; ++j)
                written[a.insts[i].dsts[d].entries[static_cast<size_t>(j)]] = i;
            }
          }
        }
        for (const auto& b : busy)
          ASSERT_LE(b.size(), static_cast<size_t>(l1)) << k.name;
      }
    }
  }
}

// Regression: shfl.sync has four source operands (a, b, c, membermask); the ORF has read ports
// for operand slots A, B and C only, so the fourth reads the MRF and its value is written there,
// though every other read of it in the strand is an ORF read. The lockstep RTL run of the SW ORF
// designs stopped at `source operand 3 has no ORF read port`.
TEST(OrfAllocation, AFourthSourceOperandReadsTheMrf) {
  // 0: R1 = mov | 1: R2 = mov | 2: R3 = R1 + R2 | 3: R4 = shfl R3, R1, R2, R2 | 4: R5 = R4 + R2
  // 5: exit
  const Kernel k =
      Make("shfl",
           {Mov(1), Mov(2), Add(3, 1, 2),
            test::Op("shfl.sync.down.b32", OpClass::kSharedMem, {R(4)}, {R(3), R(1), R(2), R(2)}),
            Add(5, 4, 2), Exit()});
  const Liveness L = ComputeLiveness(k);
  const Strands st = FormStrands(k, L);
  const OrfAllocation a = AllocateOrf(k, L, st, OrfConfig{}, GebhartEnergies());
  EXPECT_TRUE(CheckOrfAllocation(k, L, st, a).empty());
  EXPECT_EQ(a.insts[3].srcs[3].level, RfLevel::kMrf);
  EXPECT_EQ(a.insts[3].srcs[3].fill, RfLevel::kMrf);
  EXPECT_TRUE(a.insts[1].dsts[0].mrf);  // R2 reaches the MRF for the fourth operand
  // The checker rejects an allocation that reads the fourth operand from the ORF.
  OrfAllocation b = a;
  b.insts[3].srcs[3].level = RfLevel::kL1;
  const std::vector<std::string> bad = CheckOrfAllocation(k, L, st, b);
  ASSERT_FALSE(bad.empty());
  EXPECT_NE(bad.front().find("source operand 3 uses the ORF"), std::string::npos) << bad.front();
}

TEST(OrfAllocation, CheckerCatchesABrokenAllocation) {
  const Kernel k = StraightLine();
  const Liveness L = ComputeLiveness(k);
  const Strands st = FormStrands(k, L);
  OrfAllocation a = AllocateOrf(k, L, st, OrfConfig{}, GebhartEnergies());
  ASSERT_TRUE(CheckOrfAllocation(k, L, st, a).empty());
  // A value the MRF never got, read from the MRF.
  OrfAllocation b = a;
  b.insts[2].srcs[0].level = RfLevel::kMrf;
  EXPECT_FALSE(CheckOrfAllocation(k, L, st, b).empty());
  // An L1 read of an entry never written in the strand.
  b = a;
  b.insts[1].srcs[1] = OperandAlloc{RfLevel::kL1, RfLevel::kMrf, {2, 0, 0, 0}};
  EXPECT_FALSE(CheckOrfAllocation(k, L, st, b).empty());
  // L0 from a shared unit.
  b = a;
  b.insts[3].srcs[0].level = RfLevel::kL0;
  EXPECT_FALSE(CheckOrfAllocation(k, L, st, b).empty());
  // Live out of a strand without an MRF copy.
  const Kernel lk = Loop();
  const Liveness LL = ComputeLiveness(lk);
  const Strands lst = FormStrands(lk, LL);
  OrfAllocation c = AllocateOrf(lk, LL, lst, OrfConfig{}, GebhartEnergies());
  ASSERT_TRUE(CheckOrfAllocation(lk, LL, lst, c).empty());
  c.insts[4].dsts[0].mrf = false;  // R0 = R0 + R3 feeds the next iteration
  EXPECT_FALSE(CheckOrfAllocation(lk, LL, lst, c).empty());
}

TEST(OrfAllocation, HierarchySavesEnergyOnTheTrace) {
  const auto w = accelsim::ImportTrace(GPURF_SOURCE_DIR "/workloads/accelsim/vectoradd");
  const Kernel& k = *w.kernels[0].kernel;
  PassOptions o;
  const KernelAnalysis a = AnalyzeKernel(k, o);
  const AccessCounts c = CountAccesses(k, a.alloc, o.energies, &w.kernels[0].run);
  EXPECT_LT(c.Ratio(), 0.9);
  EXPECT_GT(c.reads[static_cast<size_t>(RfLevel::kL0)], 0);
  o.orf.levels = 1;
  const KernelAnalysis base = AnalyzeKernel(k, o);
  EXPECT_DOUBLE_EQ(CountAccesses(k, base.alloc, o.energies, &w.kernels[0].run).Ratio(), 1.0);
  // Same input, same listing.
  EXPECT_EQ(AnnotatedListing(k, AnalyzeKernel(k, PassOptions{})),
            AnnotatedListing(k, AnalyzeKernel(k, PassOptions{})));
}

// ------------------------------------------------------------------------- release flags

TEST(ReleaseFlags, DivergentReleasesWaitForTheReconvergencePoint) {
  const Kernel k = Diamond();
  const ReleaseFlags f = ComputeReleaseFlags(k, ComputeLiveness(k));
  EXPECT_EQ(f.table_registers, 1024 * 8 / (10 * 48));
  // R1..R4 fit the 17-register table; R0 is only read (never mapped by a write).
  EXPECT_EQ(f.renamed, (std::vector<uint16_t>{1, 2, 3, 4}));
  EXPECT_EQ(f.release[2], (std::vector<uint8_t>{0, 0}));  // R1: parked else-threads need it
  EXPECT_EQ(f.release[3], (std::vector<uint8_t>{0, 1}));  // R2 private to the then path
  EXPECT_EQ(f.release[5], (std::vector<uint8_t>{0, 0}));
  EXPECT_EQ(f.release[7], (std::vector<uint8_t>{1, 0}));  // R3 dies; R0 is not renamed
  ASSERT_EQ(f.pbr.size(), 1u);
  EXPECT_EQ(f.pbr[0].inst, 7u);
  EXPECT_EQ(f.pbr[0].regs, (std::vector<uint16_t>{1, 2}));  // R1; R2 written but unread in else
  EXPECT_EQ(f.pbr[0].meta_instructions, 1);
  // pir groups per block: [0,1] [2,3,4] [5,6] [7,8]; block [2..4] releases slot 1 of its 2nd.
  ASSERT_EQ(f.pir.size(), 4u);
  EXPECT_EQ(f.pir[1].first, 2u);
  EXPECT_EQ(f.pir[1].flags, uint64_t{1} << (3 * 1 + 1));
  EXPECT_EQ(f.pir[3].flags, uint64_t{0b001});
}

TEST(ReleaseFlags, BudgetRenamesTheShortestLivedRegisters) {
  // R1 lives 1 instruction per value, R2 long; budget for one register.
  const Kernel k = Make("budget", {Add(2, 0, 0), Add(1, 0, 0), Add(3, 1, 1), Add(1, 3, 3),
                                   Add(4, 1, 1), Add(5, 2, 4), Exit()});
  ReleaseConfig c;
  c.budget_bytes = 10 * 48 / 8;  // exactly one 10-bit entry per warp for 48 warps
  const ReleaseFlags f = ComputeReleaseFlags(k, ComputeLiveness(k), c);
  EXPECT_EQ(f.table_registers, 1);
  ASSERT_EQ(f.renamed.size(), 1u);
  EXPECT_NE(f.renamed[0], 2);  // the long-lived R2 is never chosen
  EXPECT_NE(f.renamed[0], 0);  // R0 is only read: nothing to rename
  for (size_t i = 0; i < k.code.size(); ++i) {
    for (size_t s = 0; s < k.code[i].srcs.size(); ++s) {
      if (f.release[i][s]) {
        EXPECT_EQ(k.code[i].srcs[s].first, f.renamed[0]);
      }
    }
  }
}

TEST(ReleaseFlags, LongBlocksTakeOnePirPer18Instructions) {
  std::vector<Instruction> c;
  for (int i = 0; i < 40; ++i)
    c.push_back(Add(static_cast<uint16_t>(1 + (i + 1) % 3), static_cast<uint16_t>(1 + i % 3), 0));
  c.push_back(Exit());
  const Kernel k = Make("long", c);
  const ReleaseFlags f = ComputeReleaseFlags(k, ComputeLiveness(k));
  ASSERT_EQ(f.pir.size(), 3u);
  EXPECT_EQ(f.pir[0].count, 18u);
  EXPECT_EQ(f.pir[1].first, 18u);
  EXPECT_EQ(f.pir[2].count, 5u);
  // Each add reads the previous result once: slot A released every time.
  EXPECT_EQ(f.pir[0].flags & 0b111, 0b001u);
}

// ----------------------------------------------------------------------------- value usage

TEST(ValueUsage, CountsReadsAndLifetimesPerThread) {
  const Kernel k = StraightLine();
  KernelRun run;
  run.kernel = &k;
  WarpStream w;
  for (uint32_t i = 0; i < k.code.size(); ++i)
    w.insts.push_back(DynInst{i, 0b101u, 0, 0});  // two lanes
  run.warps.push_back(w);
  const ValueUsage u = CharacterizeValueUsage(run);
  // Per lane: R1 read 3 times (twice at 1, once at 3), R4 and R5 once, 1 instruction later.
  EXPECT_EQ(u.values, 6u);
  EXPECT_EQ(u.reads[3], 2u);
  EXPECT_EQ(u.reads[1], 4u);
  EXPECT_EQ(u.once_life[0], 4u);
  EXPECT_EQ(u.thread_instructions, 10u);
  const std::string csv = ValueUsageCsv({u});
  EXPECT_NE(csv.find("straight,6,10,0,4,0,2,4,0,0,0"), std::string::npos) << csv;
}

// -------------------------------------------------------------------------------- energies

TEST(Energies, DefaultsComeFromGebhartTables) {
  const RegisterFileEnergies e = GebhartEnergies(3, 8);  // 24 rows = Table IV's 4 x 6 point
  EXPECT_DOUBLE_EQ(e.l1_read_pj, 1.2);
  EXPECT_DOUBLE_EQ(e.l1_write_pj, 4.4);
  EXPECT_DOUBLE_EQ(GebhartEnergies(8, 8).l1_write_pj, 10.9);
  EXPECT_NEAR(GebhartEnergies(5, 8).l1_read_pj, 1.7 + (2.2 - 1.7) * 4 / 12, 1e-12);  // 40 rows
  EXPECT_DOUBLE_EQ(e.Read(RfLevel::kMrf, false), 8 + 4 * 1.9 * 1.0);
  EXPECT_DOUBLE_EQ(e.Read(RfLevel::kL1, true), 1.2 + 4 * 1.9 * 0.4);
  EXPECT_DOUBLE_EQ(e.Write(RfLevel::kL0, false), 2 + 4 * 1.9 * 0.05);
}

TEST(Energies, JsonOverridesAndRejections) {
  const RegisterFileEnergies base = GebhartEnergies();
  const auto e = ParseRegisterFileEnergies(
      R"({"source": "char run 7", "mrf": {"read_pj": 5.5}, "wire": {"l0_private_mm": 0.1}})",
      "e.json", base);
  EXPECT_DOUBLE_EQ(e.mrf_read_pj, 5.5);
  EXPECT_DOUBLE_EQ(e.mrf_write_pj, 11.0);
  EXPECT_DOUBLE_EQ(e.l0_private_mm, 0.1);
  EXPECT_EQ(e.source, "char run 7");
  try {
    ParseRegisterFileEnergies("{\n  \"mrf\": {\"raed_pj\": 1}\n}", "e.json", base);
    FAIL();
  } catch (const InputError& err) {
    EXPECT_EQ(err.field(), "mrf.raed_pj");
    EXPECT_NE(std::string(err.what()).find("did you mean 'read_pj'"), std::string::npos);
  }
  try {
    ParseRegisterFileEnergies("{\n  \"l1\": {\"read_pj\": 1,,}\n}", "e.json", base);
    FAIL();
  } catch (const InputError& err) {
    EXPECT_EQ(err.loc().line, 2);
    EXPECT_GT(err.loc().column, 1);
  }
  EXPECT_THROW(ParseRegisterFileEnergies(R"({"l0": {"read_pj": -1}})", "e.json", base), InputError);
  EXPECT_THROW(LoadRegisterFileEnergies("/nonexistent/e.json", base), InputError);
  // The RFC tag check per lookup (gpurf characterize of an rfc): absent = not given.
  EXPECT_LT(base.rfc_tag_pj, 0);
  EXPECT_DOUBLE_EQ(
      ParseRegisterFileEnergies(R"({"rfc": {"tag_pj": 0.25}})", "e.json", base).rfc_tag_pj, 0.25);
  EXPECT_THROW(ParseRegisterFileEnergies(R"({"rfc": {"tag": 1}})", "e.json", base), InputError);
}

}  // namespace
}  // namespace gpurf::sim::passes
