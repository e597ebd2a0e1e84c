// Register scratchpad allocation (Bailey et al., section III-B; sim/passes/rsp_alloc.h) on
// hand-written kernels with hand-derived allocations: a write range holding two writes, a read
// allocation, a live-out write-back, a range reduced under capacity whose removed part is
// regenerated and chosen, and a strand boundary cutting a register's accesses into two ranges.
// The checker (CheckRspAllocation) rejects one mutation per rule, and every allocation of random
// kernels and of every corpus kernel at several capacities passes it.

#include "sim/passes/rsp_alloc.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "sim/ptx/ptx_parser.h"
#include "sim/ptx/regalloc.h"
#include "sim/tests/cli_fixture.h"
#include "sim/tests/kernels_util.h"
#include "sim/workload/launch.h"

namespace gpurf::sim::passes {
namespace {

using test::Add;
using test::Exit;
using test::Load;
using test::Make;
using test::Store;

RspConfig Entries(int n) {
  RspConfig c;
  c.active_warps = 16;
  c.rsp_bytes = n * 16 * 128;
  return c;
}

struct Rsp {
  Kernel k;
  Liveness live;
  Strands st;
  RspAllocation a;
};

Rsp Allocate(Kernel k, const RspConfig& c) {
  Rsp r{std::move(k), {}, {}, {}};
  r.live = ComputeLiveness(r.k);
  r.st = FormStrands(r.k, r.live);
  r.a = AllocateRsp(r.k, r.live, r.st, c, GebhartEnergies(c.EntriesPerWarp(), 4));
  return r;
}

std::string Violations(const Rsp& r) {
  const auto bad = CheckRspAllocation(r.k, r.live, r.st, r.a);
  return bad.empty() ? "" : fmt::format("{} violations, first: {}", bad.size(), bad.front());
}

bool Rejected(const Rsp& r, const RspAllocation& mutated, const std::string& text) {
  const auto bad = CheckRspAllocation(r.k, r.live, r.st, mutated);
  for (const auto& b : bad) {
    if (b.find(text) != std::string::npos)
      return true;
  }
  ADD_FAILURE() << "no violation containing '" << text << "' among " << bad.size()
                << (bad.empty() ? "" : ", first: " + bad.front());
  return false;
}

TEST(RspAllocation, EntriesPerWarpComeFromCapacityAndActiveWarps) {
  RspConfig c;  // 4 KB per SM, 16 active warps (gtx980), 128 B registers: Bailey's 2 per warp
  EXPECT_EQ(c.EntriesPerWarp(), 2);
  c.rsp_bytes = 12 * 1024;
  EXPECT_EQ(c.EntriesPerWarp(), 6);
  c.rsp_bytes = 1024;
  EXPECT_EQ(c.EntriesPerWarp(), 0);
}

// 0: R1 = R0+R0 | 1: R1 = R1+R0 | 2: R2 = R1+R1 | 3: st [R2], R0 | 4: exit
TEST(RspAllocation, WriteRangeHoldsTwoWritesAndReadAllocationFills) {
  const Rsp r =
      Allocate(Make("two-writes", {Add(1, 0, 0), Add(1, 1, 0), Add(2, 1, 1), Store(2, 0), Exit()}),
               Entries(2));
  EXPECT_EQ(Violations(r), "");
  // R1: one write range 0..2 with both writes in the RSP, read at 1 and twice at 2.
  EXPECT_TRUE(r.a.insts[0].dsts[0].rsp);
  EXPECT_TRUE(r.a.insts[1].srcs[0].rsp);
  EXPECT_TRUE(r.a.insts[1].dsts[0].rsp);
  EXPECT_TRUE(r.a.insts[2].srcs[0].rsp);
  EXPECT_TRUE(r.a.insts[2].srcs[1].rsp);
  EXPECT_EQ(r.a.insts[0].dsts[0].slots[0], r.a.insts[1].dsts[0].slots[0]);
  // R0: read allocation, filled by the first read (both operand slots of 0), read at 1 and 3.
  EXPECT_TRUE(r.a.insts[0].srcs[0].fill);
  EXPECT_TRUE(r.a.insts[0].srcs[1].fill);
  EXPECT_TRUE(r.a.insts[1].srcs[1].rsp);
  EXPECT_TRUE(r.a.insts[3].srcs[1].rsp);
  // R2: write 2, read by the store at 3.
  EXPECT_TRUE(r.a.insts[2].dsts[0].rsp);
  EXPECT_TRUE(r.a.insts[3].srcs[0].rsp);
  // Nothing is live after the strand: no write-back.
  for (const auto& in : r.a.insts)
    EXPECT_TRUE(in.writebacks.empty());
  ASSERT_EQ(r.a.ranges.size(), 3u);
  int writes_of_r1 = 0;
  for (const RspRange& x : r.a.ranges) {
    if (x.group.first == 1) {
      EXPECT_EQ(x.kind, RspRangeKind::kWrite);
      EXPECT_EQ(x.first, 0u);
      EXPECT_EQ(x.last, 2u);
      writes_of_r1 = x.rsp_writes;
    }
  }
  EXPECT_EQ(writes_of_r1, 2);
  EXPECT_EQ(r.a.stats.read_ranges, 1);
  EXPECT_EQ(r.a.stats.fills, 1);
  // One entry: R0's read range and R1's write range overlap; R1 scores higher (more savings per
  // gap), so R0 is reduced to what fits around it.
  const Rsp one = Allocate(r.k, Entries(1));
  EXPECT_EQ(Violations(one), "");
  EXPECT_TRUE(one.a.insts[1].srcs[0].rsp);
}

// 0: R1 = R0+R0 | 1: R2 = R1+R0 | 2: R3 = ld [R2] | 3: R4 = R3+R1 | 4: st [R4], R1 | 5: exit
// The use of the load starts a strand at 3: R1's accesses are cut into a live-out write range
// (0..1, written back after 1) and a read allocation in the next strand (filled at 3, read at 4).
TEST(RspAllocation, StrandBoundaryCutsARegisterIntoLiveOutAndReadRanges) {
  const Rsp r = Allocate(
      Make("cut", {Add(1, 0, 0), Add(2, 1, 0), Load(3, 2), Add(4, 3, 1), Store(4, 1), Exit()}),
      Entries(2));
  ASSERT_EQ(r.st.strand_of[3], 1u);
  EXPECT_EQ(Violations(r), "");
  EXPECT_TRUE(r.a.insts[0].dsts[0].rsp);
  EXPECT_TRUE(r.a.insts[1].srcs[0].rsp);
  ASSERT_EQ(r.a.insts[1].writebacks.size(), 1u);
  EXPECT_EQ(r.a.insts[1].writebacks[0].group.first, 1);
  EXPECT_TRUE(r.a.insts[3].srcs[1].fill);
  EXPECT_TRUE(r.a.insts[4].srcs[1].rsp);
  for (const RspRange& x : r.a.ranges)
    EXPECT_EQ(r.st.strand_of[x.first], r.st.strand_of[x.last]);
  EXPECT_EQ(r.a.stats.live_out_ranges, 1);
  EXPECT_EQ(r.a.stats.writebacks, 1);
}

// One entry per warp. R1 is written at 0, read at 1 and 2, then updated in place at 8 and read at
// 9; a chain of one-gap values holds the entry over gaps 3..6 and R9 over gap 9. R1's maximal
// range (0..9, two writes) does not fit; its tail is removed until 0..2 fits (a live-out: R1 is
// read again at 8). The removed part (the read and write at 8, the read at 9) is regenerated:
// the write range 8..9 fits in gap 8 and is chosen. Without regeneration the update at 8 goes to
// the RC and the read at 9 too.
Kernel SplitKernel() {
  return Make("split", {Add(1, 20, 21), Add(2, 1, 22), Add(3, 1, 23), Add(4, 24, 25), Add(5, 4, 26),
                        Add(6, 5, 27), Add(7, 6, 28), Add(8, 7, 29), Add(1, 1, 30), Add(9, 1, 31),
                        Store(9, 9), Exit()});
}

TEST(RspAllocation, RangeSplitUnderCapacityRegeneratesTheRemovedPart) {
  const Rsp r = Allocate(SplitKernel(), Entries(1));
  EXPECT_EQ(Violations(r), "");
  EXPECT_TRUE(r.a.insts[0].dsts[0].rsp);
  EXPECT_TRUE(r.a.insts[1].srcs[0].rsp);
  EXPECT_TRUE(r.a.insts[2].srcs[0].rsp);
  ASSERT_EQ(r.a.insts[2].writebacks.size(), 1u);  // live-out: read at 8 from the RC/MRF
  EXPECT_FALSE(r.a.insts[8].srcs[0].rsp);
  EXPECT_TRUE(r.a.insts[8].dsts[0].rsp);  // the regenerated write range 8..9
  EXPECT_TRUE(r.a.insts[9].srcs[0].rsp);
  for (int i = 4; i <= 7; ++i)
    EXPECT_TRUE(r.a.insts[static_cast<size_t>(i)].srcs[0].rsp) << i;  // the chain
  EXPECT_TRUE(r.a.insts[10].srcs[0].rsp);                             // R9
  bool reduced = false, regenerated = false;
  for (const RspRange& x : r.a.ranges) {
    if (x.group.first != 1)
      continue;
    if (x.first == 0) {
      reduced = x.reduced && x.live_out && x.last == 2;
    } else {
      regenerated = x.regenerated && x.first == 8 && x.last == 9 && !x.live_out;
    }
  }
  EXPECT_TRUE(reduced);
  EXPECT_TRUE(regenerated);
  EXPECT_EQ(r.a.stats.regenerated_ranges, 1);

  RspConfig gebhart = Entries(1);
  gebhart.regenerate = false;
  const Rsp g = Allocate(SplitKernel(), gebhart);
  EXPECT_EQ(Violations(g), "");
  EXPECT_TRUE(g.a.insts[2].srcs[0].rsp);
  EXPECT_FALSE(g.a.insts[8].dsts[0].rsp);
  EXPECT_FALSE(g.a.insts[9].srcs[0].rsp);
  EXPECT_LT(g.a.stats.savings_pj, r.a.stats.savings_pj);
}

TEST(RspAllocation, NoEntriesNoAllocation) {
  const Rsp r = Allocate(SplitKernel(), Entries(0));
  EXPECT_TRUE(r.a.ranges.empty());
  EXPECT_EQ(r.a.stats.rsp_reads, 0);
  EXPECT_EQ(Violations(r), "");
}

// Bailey III-B: a return ends the strand unless it is a predicated return that exits the kernel.
// Without calls every return exits the kernel; with a call, a predicated return may return from
// the called function and ends the strand.
TEST(RspStrands, PredicatedReturnEndsTheStrandOnlyWhenItMayLeaveAFunction) {
  Instruction ret = test::Bra(-1, true);
  ret.target = -1;
  ret.opcode = "RET.REL";
  const Kernel plain = Make("ret", {Add(1, 0, 0), ret, Add(2, 1, 1), Exit()});
  EXPECT_EQ(FormStrands(plain, ComputeLiveness(plain)).strands.size(), 1u);
  Instruction call = test::Bra(4, false);
  call.opcode = "CALL.REL";
  call.conditional = true;
  const Kernel with_call = Make(
      "call", {Add(1, 0, 0), call, Add(2, 1, 1), Exit(), Add(3, 1, 1), ret, Add(4, 3, 3), Exit()});
  const Strands st = FormStrands(with_call, ComputeLiveness(with_call));
  ASSERT_EQ(st.strand_of.size(), 8u);
  EXPECT_NE(st.strand_of[5], st.strand_of[6]);
  EXPECT_EQ(st.strands[st.strand_of[6]].reason, StrandStart::kAfterCall);
}

// ------------------------------------------------------------------------------ the checker

TEST(RspCheck, RejectsOneMutationPerRule) {
  const Rsp r = Allocate(
      Make("cut", {Add(1, 0, 0), Add(2, 1, 0), Load(3, 2), Add(4, 3, 1), Store(4, 1), Exit()}),
      Entries(2));
  ASSERT_EQ(Violations(r), "");
  // Capacity per warp: an entry beyond the two.
  RspAllocation m = r.a;
  m.insts[0].dsts[0].slots[0] = 2;
  m.insts[1].srcs[0].slots[0] = 2;
  EXPECT_TRUE(Rejected(r, m, "beyond the 2 entries per warp"));
  // An RSP read neither written nor filled before (the pipeline would miss): R0 at 1 without
  // its fill at 0.
  m = r.a;
  m.insts[0].srcs[0].fill = m.insts[0].srcs[1].fill = false;
  EXPECT_TRUE(Rejected(r, m, "RSP miss: R0"));
  // A live-out not written back: R1 is read at 3 in the next strand.
  m = r.a;
  m.insts[1].writebacks.clear();
  EXPECT_TRUE(Rejected(r, m, "live-out not written back"));
  // A range crossing the strand boundary: R1 read at 3 from the entry written in strand 0.
  m = r.a;
  m.insts[3].srcs[1] = RspOperand{true, false, m.insts[1].srcs[0].slots};
  m.insts[4].srcs[1].slots = m.insts[1].srcs[0].slots;
  m.insts[1].writebacks.clear();
  RspRange cross = m.ranges.front();
  cross.first = 0;
  cross.last = 4;
  m.ranges.push_back(cross);
  EXPECT_TRUE(Rejected(r, m, "crosses a strand boundary"));
  EXPECT_TRUE(Rejected(r, m, "3: RSP miss: R1"));
  // A stale entry: R1 rewritten to the RC at 1 while its old value is read from the RSP later.
  const Rsp s =
      Allocate(Make("stale", {Add(1, 0, 0), Add(2, 1, 0), Add(3, 1, 2), Exit()}), Entries(2));
  ASSERT_EQ(Violations(s), "");
  ASSERT_TRUE(s.a.insts[2].srcs[0].rsp);
  // A stale entry: R1 written to the entry at 0, then again to the RC at 1; the RSP read at 2
  // would get the old value.
  Kernel k2 = Make("stale2", {Add(1, 0, 0), Add(1, 0, 0), Add(3, 1, 1), Exit()});
  const Rsp s2 = Allocate(k2, Entries(2));
  ASSERT_EQ(Violations(s2), "");
  RspAllocation m3 = s2.a;
  m3.insts[0].dsts[0] = RspResult{true, {1, 0, 0, 0}};
  m3.insts[1].dsts[0] = RspResult{};
  m3.insts[2].srcs[0] = m3.insts[2].srcs[1] = RspOperand{true, false, {1, 0, 0, 0}};
  EXPECT_TRUE(Rejected(s2, m3, "RSP miss: R1"));
  // A read from the RC/MRF of a value only the RSP has.
  m = s.a;
  m.insts[2].srcs[0] = RspOperand{};
  EXPECT_TRUE(Rejected(s, m, "whose copy is stale"));
  // The fourth operand slot has no RSP read port.
  Instruction shfl = test::Op("shfl.sync.down.b32", OpClass::kSharedMem, {test::R(4)},
                              {test::R(3), test::R(1), test::R(2), test::R(2)});
  const Rsp f =
      Allocate(Make("shfl", {test::Mov(1), test::Mov(2), Add(3, 1, 2), shfl, Exit()}), Entries(2));
  ASSERT_EQ(Violations(f), "");
  EXPECT_FALSE(f.a.insts[3].srcs[3].rsp);
  m = f.a;
  m.insts[3].srcs[3] = RspOperand{true, false, m.insts[3].srcs[2].slots};
  EXPECT_TRUE(Rejected(f, m, "read ports for operand slots A, B and C only"));
  // A write-back of an entry that does not hold the register.
  m = r.a;
  m.insts[1].writebacks[0].group.first = 2;
  EXPECT_TRUE(Rejected(r, m, "write-back of R2"));
}

// -------------------------------------------------------------------------------- coverage

void ExpectValid(const Kernel& k, const RspConfig& c, RspStats* sum) {
  const Liveness L = ComputeLiveness(k);
  const Strands st = FormStrands(k, L);
  const RspAllocation a = AllocateRsp(k, L, st, c, GebhartEnergies(c.EntriesPerWarp(), 4));
  const auto bad = CheckRspAllocation(k, L, st, a);
  EXPECT_TRUE(bad.empty()) << k.name << " entries " << a.entries << ": "
                           << (bad.empty() ? "" : bad.front()) << " (" << bad.size()
                           << " violations)";
  if (sum != nullptr) {
    sum->operand_reads += a.stats.operand_reads;
    sum->rsp_reads += a.stats.rsp_reads;
    sum->result_writes += a.stats.result_writes;
    sum->rsp_writes += a.stats.rsp_writes;
    sum->write_ranges += a.stats.write_ranges;
    sum->read_ranges += a.stats.read_ranges;
    sum->live_out_ranges += a.stats.live_out_ranges;
    sum->reduced_ranges += a.stats.reduced_ranges;
    sum->regenerated_ranges += a.stats.regenerated_ranges;
  }
}

TEST(RspAllocation, RandomKernelsPassTheChecker) {
  for (uint32_t seed = 1; seed <= 60; ++seed) {
    const Kernel k =
        test::RandomKernel(seed, seed % 3 == 0 ? 6 : 10).Build("random" + std::to_string(seed), 6);
    for (int n = 1; n <= 4; ++n) {
      RspConfig c = Entries(n);
      ExpectValid(k, c, nullptr);
      c.regenerate = false;
      ExpectValid(k, c, nullptr);
    }
  }
}

TEST(RspAllocation, EveryCorpusKernelPassesTheChecker) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::string corpus = GPURF_SOURCE_DIR "/workloads/corpus";
  std::vector<Kernel> kernels;
  for (const auto& name : ListWorkloads(corpus)) {
    const LaunchSpec spec = LoadLaunch(corpus + "/" + name + "/launch.yaml");
    kernels.push_back(ptx::CompileKernel(ptx::LoadPtx(spec.ptx), spec.kernel, {63}).kernel);
  }
  ASSERT_GE(kernels.size(), 20u);
  for (int n : {1, 2, 4}) {
    RspStats sum;
    for (const Kernel& k : kernels) {
      SCOPED_TRACE(k.name);
      ExpectValid(k, Entries(n), &sum);
    }
    EXPECT_GT(sum.rsp_reads, 0);
    EXPECT_GT(sum.rsp_writes, 0);
    std::printf(
        "RSP %d entries/warp (%d B/SM at 16 active warps): static reads %d of %d (%.1f%%), "
        "writes %d of %d (%.1f%%); ranges %d write (%d live-out), %d read, %d reduced, "
        "%d regenerated\n",
        n, n * 16 * 128, sum.rsp_reads, sum.operand_reads,
        100.0 * sum.rsp_reads / std::max(sum.operand_reads, 1), sum.rsp_writes, sum.result_writes,
        100.0 * sum.rsp_writes / std::max(sum.result_writes, 1), sum.write_ranges,
        sum.live_out_ranges, sum.read_ranges, sum.reduced_ranges, sum.regenerated_ranges);
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(s, 10.0);
}

// `gpurf compile --rsp-bytes`: the allocation per operand and the summary; too small an RSP for
// one register per active warp is bad input.
class RspCompileCli : public gpurf::test::CliFixture {
 protected:
  RspCompileCli() : CliFixture("gpurf_rsp_cli_") {}
};

TEST_F(RspCompileCli, ShowsTheAllocationPerOperand) {
  const std::string ptx = GPURF_SOURCE_DIR "/workloads/corpus/hotspot/hotspot.ptx";
  ASSERT_TRUE(std::filesystem::exists(ptx));
  const gpurf::test::CliResult r = Run("compile " + ptx + " --rsp-bytes 4096");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("2 entries per warp"), std::string::npos) << r.out.substr(0, 800);
  EXPECT_NE(r.out.find("@RSP."), std::string::npos);
  EXPECT_NE(r.out.find(">RSP."), std::string::npos);
  EXPECT_NE(r.out.find("; wb R"), std::string::npos);
  EXPECT_NE(r.out.find("static: operand reads"), std::string::npos);
  const gpurf::test::CliResult more = Run("compile " + ptx + " --rsp-bytes 4096 --active-warps 8");
  ASSERT_EQ(more.code, 0) << more.err;
  EXPECT_NE(more.out.find("4 entries per warp"), std::string::npos);
  const gpurf::test::CliResult small = Run("compile " + ptx + " --rsp-bytes 1024");
  EXPECT_EQ(small.code, 2);
  EXPECT_NE(small.err.find("--rsp-bytes"), std::string::npos) << small.err;
  const gpurf::test::CliResult gpu = Run("compile " + ptx + " --rsp-bytes 4096 --gpu nosuch");
  EXPECT_EQ(gpu.code, 2);
}

}  // namespace
}  // namespace gpurf::sim::passes
