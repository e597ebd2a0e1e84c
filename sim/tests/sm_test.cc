#include "sim/sm/sm.h"

#include <gtest/gtest.h>

#include <array>
#include <map>
#include <set>

#include "sim/mem/memory.h"
#include "sim/mem/tests/small_memory.h"

namespace gpurf::sim {
namespace {

Instruction Op(OpClass c, std::vector<uint16_t> dst, std::vector<uint16_t> src,
               bool long_latency = false) {
  Instruction i;
  i.opcode = OpClassName(c);
  i.op_class = c;
  for (auto r : dst)
    i.dsts.push_back({r, 1});
  for (auto r : src)
    i.srcs.push_back({r, 1});
  i.long_latency = long_latency;
  i.cta_barrier = c == OpClass::kBarrier;  // bar.sync; Membar() below is the other kind
  return i;
}

// A memory fence: barrier-class (latency, strand rules) but no CTA-wide wait.
Instruction Membar() {
  Instruction i = Op(OpClass::kBarrier, {}, {});
  i.opcode = "membar.gl";
  i.cta_barrier = false;
  return i;
}

// A kernel whose every warp runs its code straight through, `ctas` x `warps_per_cta` warps.
struct Fixture {
  Kernel k;
  KernelRun run;
  Fixture(std::vector<Instruction> code, uint32_t ctas, uint32_t warps_per_cta, int regs = 16) {
    k.name = "t";
    k.code = std::move(code);
    k.regs_per_thread = regs;
    k.BuildCfg();
    run.kernel = &k;
    for (uint32_t c = 0; c < ctas; ++c) {
      for (uint32_t w = 0; w < warps_per_cta; ++w) {
        WarpStream ws;
        ws.cta = c;
        ws.warp_in_cta = w;
        for (uint32_t i = 0; i < k.code.size(); ++i)
          ws.insts.push_back({i, 0xffffffffu, 0});
        run.warps.push_back(std::move(ws));
      }
    }
  }
};

// Records when each (warp, instruction) issued and checks the activation invariant.
class SpyRf : public RegisterFileSystem {
 public:
  explicit SpyRf(int active_limit) : limit_(active_limit) {}
  bool CanIssue(uint64_t, uint32_t w, const DynInst&) override {
    EXPECT_TRUE(active_.count(w)) << "issue from inactive warp " << w;
    return true;
  }
  int Issue(uint64_t cycle, uint32_t w, const DynInst& d) override {
    issued[{w, d.inst}] = cycle;
    order.push_back(w);
    return 0;
  }
  void Writeback(uint64_t, uint32_t, const DynInst&) override { ++writebacks; }
  void Activate(uint64_t, uint32_t w) override {
    active_.insert(w);
    max_active = std::max(max_active, static_cast<int>(active_.size()));
    EXPECT_LE(static_cast<int>(active_.size()), limit_);
  }
  void Deactivate(uint64_t, uint32_t w) override { active_.erase(w); }

  std::map<std::pair<uint32_t, uint32_t>, uint64_t> issued;
  std::vector<uint32_t> order;
  int writebacks = 0;
  int max_active = 0;

 private:
  int limit_;
  std::set<uint32_t> active_;
};

// A register-file system that never accepts an instruction (a deadlocked allocation policy):
// the watchdog stops the run as a deadlock instead of spinning until max_cycles, whether the
// system asks to be ticked every cycle or not.
class StuckRf : public RegisterFileSystem {
 public:
  explicit StuckRf(bool busy) : busy_(busy) {}
  bool CanIssue(uint64_t, uint32_t, const DynInst&) override { return false; }
  int Issue(uint64_t, uint32_t, const DynInst&) override { return 0; }
  void Writeback(uint64_t, uint32_t, const DynInst&) override {}
  void Activate(uint64_t, uint32_t) override {}
  void Deactivate(uint64_t, uint32_t) override {}
  bool Busy() const override { return busy_; }

 private:
  bool busy_;
};

TEST(Sm, WatchdogStopsARunInWhichNoWarpCanIssue) {
  Fixture f({Op(OpClass::kAlu, {1}, {0}), Op(OpClass::kExit, {}, {})}, 2, 1);
  SmConfig cfg;
  SmOptions opt;
  opt.max_idle_cycles = 5000;
  for (const bool busy : {true, false}) {
    RoundRobinPolicy rr(cfg.warps);
    StuckRf rf(busy);
    try {
      RunSm(f.run, cfg, rr, &rf, opt);
      ADD_FAILURE() << "a run in which no warp can issue returned (busy " << busy << ")";
    } catch (const std::runtime_error& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("deadlock: no warp instruction issued on any SM for 5000 cycles"),
                std::string::npos)
          << what;
      EXPECT_NE(what.find("SM 0: 2 CTAs resident"), std::string::npos) << what;
    }
  }
}

TEST(Sm, DependentAluChainWaitsForTheLatency) {
  Fixture f({Op(OpClass::kAlu, {1}, {0}), Op(OpClass::kAlu, {2}, {1}), Op(OpClass::kAlu, {3}, {2}),
             Op(OpClass::kExit, {}, {})},
            1, 1);
  SmConfig cfg;
  RoundRobinPolicy rr(cfg.warps);
  SpyRf rf(cfg.warps);
  const SmStats st = RunSm(f.run, cfg, rr, &rf);
  EXPECT_EQ(rf.issued.at({0, 0}), 0u);
  EXPECT_EQ(rf.issued.at({0, 1}), 8u);
  EXPECT_EQ(rf.issued.at({0, 2}), 16u);
  EXPECT_EQ(rf.issued.at({0, 3}), 17u);  // exit has no register dependence
  EXPECT_EQ(st.warp_instructions, 4u);
  EXPECT_EQ(st.thread_instructions, 4u * 32);
  EXPECT_EQ(rf.writebacks, 4);
  EXPECT_GE(st.cycles, 24u);  // the last ALU result lands at 16 + 8
  EXPECT_GT(st.scoreboard_stalls, 0u);
}

TEST(Sm, IndependentInstructionsIssueEveryCycle) {
  Fixture f({Op(OpClass::kAlu, {1}, {0}), Op(OpClass::kAlu, {2}, {0}), Op(OpClass::kAlu, {3}, {0}),
             Op(OpClass::kExit, {}, {})},
            1, 1);
  SmConfig cfg;
  RoundRobinPolicy rr(cfg.warps);
  SpyRf rf(cfg.warps);
  RunSm(f.run, cfg, rr, &rf);
  EXPECT_EQ(rf.issued.at({0, 1}), 1u);
  EXPECT_EQ(rf.issued.at({0, 2}), 2u);
}

TEST(Sm, SfuThroughputSpacesWarpInstructions) {
  // 8 SFU lanes per cycle: a 32-wide warp instruction occupies the SFU for 4 cycles.
  Fixture f({Op(OpClass::kSfu, {1}, {0}), Op(OpClass::kSfu, {2}, {0}), Op(OpClass::kExit, {}, {})},
            1, 1);
  SmConfig cfg;
  RoundRobinPolicy rr(cfg.warps);
  SpyRf rf(cfg.warps);
  const SmStats st = RunSm(f.run, cfg, rr, &rf);
  EXPECT_EQ(rf.issued.at({0, 1}), 4u);
  EXPECT_GT(st.unit_stalls, 0u);
}

// Runs `f` with two-level scheduling and `active` slots; `rf` records the issues.
SmStats RunTwoLevel(const Fixture& f, int active, SpyRf& rf, bool greedy = false) {
  SmConfig cfg;
  cfg.active_warps = active;
  RoundRobinPolicy rr(cfg.warps);
  GreedyPolicy gr(cfg.warps);
  SmOptions opt;
  opt.two_level = true;
  opt.max_cycles = 100000;
  return RunSm(f.run, cfg, greedy ? static_cast<SchedulerPolicy&>(gr) : rr, &rf, opt);
}

// Every warp's instruction `after` issued later than every warp's instruction `before`.
void ExpectAllAfterAll(const SpyRf& rf, uint32_t warps, uint32_t before, uint32_t after) {
  uint64_t last = 0;
  for (uint32_t w = 0; w < warps; ++w)
    last = std::max(last, rf.issued.at({w, before}));
  for (uint32_t w = 0; w < warps; ++w)
    EXPECT_GT(rf.issued.at({w, after}), last) << w;
}

TEST(Sm, RoundRobinInterleavesWarpsAndGreedyStaysOnOne) {
  Fixture f({Op(OpClass::kAlu, {1}, {0}), Op(OpClass::kAlu, {2}, {0}), Op(OpClass::kExit, {}, {})},
            1, 2);
  SmConfig cfg;
  {
    RoundRobinPolicy rr(cfg.warps);
    SpyRf rf(cfg.warps);
    RunSm(f.run, cfg, rr, &rf);
    EXPECT_EQ(rf.order, (std::vector<uint32_t>{0, 1, 0, 1, 0, 1}));
  }
  {
    GreedyPolicy greedy(cfg.warps);
    SpyRf rf(cfg.warps);
    RunSm(f.run, cfg, greedy, &rf);
    EXPECT_EQ(rf.order, (std::vector<uint32_t>{0, 0, 0, 1, 1, 1}));
  }
}

TEST(Sm, MoreWarpsHideLatency) {
  std::vector<Instruction> chain;
  for (uint16_t r = 1; r < 20; ++r)
    chain.push_back(Op(OpClass::kAlu, {r}, {static_cast<uint16_t>(r - 1)}));
  chain.push_back(Op(OpClass::kExit, {}, {}));
  SmConfig cfg;
  double prev_ipc = 0;
  for (uint32_t warps : {1u, 2u, 4u, 8u}) {
    Fixture f(chain, 1, warps);
    RoundRobinPolicy rr(cfg.warps);
    const double ipc = RunSm(f.run, cfg, rr, nullptr).Ipc();
    EXPECT_GT(ipc, prev_ipc) << warps;
    prev_ipc = ipc;
  }
  EXPECT_GT(prev_ipc, 0.8);  // 8 warps cover the 8-cycle ALU latency
}

TEST(Sm, TwoLevelSuspendsOnLongLatencyAndNeverExceedsTheActiveSet) {
  // Each warp: global load, dependent use, exit. 8 warps, 2 active.
  Fixture f({Op(OpClass::kGlobalMem, {1}, {0}, true), Op(OpClass::kAlu, {2}, {1}),
             Op(OpClass::kExit, {}, {})},
            1, 8);
  SpyRf rf(2);
  const SmStats st = RunTwoLevel(f, 2, rf);
  EXPECT_EQ(rf.max_active, 2);
  // Every warp's load issued before any load returned: suspension made room for the others.
  for (uint32_t w = 0; w < 8; ++w)
    EXPECT_LT(rf.issued.at({w, 0}), 400u) << w;
  EXPECT_GE(st.deactivations, 8u);
  EXPECT_GE(st.activations, 16u);  // each warp activated for the load and again for the use
  EXPECT_EQ(st.warp_instructions, 24u);
}

TEST(Sm, BarrierHoldsEarlyWarpsUntilTheLastArrives) {
  // Warp 0 of the CTA does a long chain before the barrier; all do the same code, so give the
  // chain a data dependence and compare the post-barrier issue cycles with the barrier issue.
  Fixture f(
      {Op(OpClass::kAlu, {1}, {0}), Op(OpClass::kAlu, {2}, {1}), Op(OpClass::kBarrier, {}, {}),
       Op(OpClass::kAlu, {3}, {0}), Op(OpClass::kExit, {}, {})},
      1, 4);
  SmConfig cfg;
  RoundRobinPolicy rr(cfg.warps);
  SpyRf rf(cfg.warps);
  RunSm(f.run, cfg, rr, &rf);
  ExpectAllAfterAll(rf, 4, 2, 3);
}

TEST(Sm, TwoLevelBarrierWithMoreWarpsThanActiveSlotsCompletes) {
  // 8 warps of one CTA meet at a barrier with only 2 active slots: warps waiting at the barrier
  // must leave the active set, or the later ones could never reach it.
  Fixture f({Op(OpClass::kAlu, {1}, {0}), Op(OpClass::kBarrier, {}, {}),
             Op(OpClass::kAlu, {2}, {1}), Op(OpClass::kExit, {}, {})},
            1, 8);
  SpyRf rf(2);
  const SmStats st = RunTwoLevel(f, 2, rf);
  EXPECT_EQ(st.warp_instructions, 32u);
  EXPECT_EQ(rf.max_active, 2);
  ExpectAllAfterAll(rf, 8, 1, 2);
}

TEST(Sm, TwoLevelFreesTheSlotWhenAWarpIssuesItsLastInstruction) {
  // One active slot, four warps that each store (long latency, nothing depends on it) and exit:
  // a warp leaves the slot with its exit, not when its store completes 400 cycles later.
  Fixture f({Op(OpClass::kGlobalMem, {}, {0}, true), Op(OpClass::kExit, {}, {})}, 1, 4);
  SpyRf rf(1);
  RunTwoLevel(f, 1, rf);
  EXPECT_EQ(rf.max_active, 1);
  for (uint32_t w = 0; w < 4; ++w)
    EXPECT_LT(rf.issued.at({w, 0}), 100u) << w;
}

TEST(Sm, TwoLevelInnerPolicyIsTheSchedulers) {
  // Two active warps of independent ALU work: round-robin alternates, greedy stays on one warp
  // until it cannot issue (here: until its exit frees the slot).
  Fixture f({Op(OpClass::kAlu, {1}, {0}), Op(OpClass::kAlu, {2}, {0}), Op(OpClass::kExit, {}, {})},
            1, 2);
  SpyRf rr(2), greedy(2);
  RunTwoLevel(f, 2, rr);
  EXPECT_EQ(rr.order, (std::vector<uint32_t>{0, 1, 0, 1, 0, 1}));
  RunTwoLevel(f, 2, greedy, /*greedy=*/true);
  EXPECT_EQ(greedy.order, (std::vector<uint32_t>{0, 0, 0, 1, 1, 1}));
}

TEST(Sm, RegistersLimitResidentCtas) {
  // 8 warps x 32 lanes x 63 registers = 16128 of 32768: two CTAs at a time, so the third CTA
  // launches only after one finishes.
  Fixture f({Op(OpClass::kGlobalMem, {1}, {0}, true), Op(OpClass::kAlu, {2}, {1}),
             Op(OpClass::kExit, {}, {})},
            3, 8, 63);
  SmConfig cfg;
  RoundRobinPolicy rr(cfg.warps);
  SpyRf rf(cfg.warps);
  const SmStats st = RunSm(f.run, cfg, rr, &rf);
  EXPECT_EQ(st.ctas, 3u);
  // Warp contexts 0..15 are taken by CTAs 0 and 1; CTA 2 reuses contexts 0..7 after CTA 0 ends
  // (the spy keeps the latest issue per context), so its loads issue after the first CTA's
  // loads returned (400 cycles).
  uint64_t max_load_issue = 0;
  for (uint32_t w = 0; w < 16; ++w)
    max_load_issue = std::max(max_load_issue, rf.issued.at({w, 0}));
  EXPECT_GT(max_load_issue, 400u);
  EXPECT_GT(st.cycles, 800u);
}

// GPGPU-Sim admits a CTA with its registers per thread rounded up to a multiple of 4
// (sm.register_alloc_unit): 21 registers count as 24. gtx480-like SM: 48 warps, 32768
// registers, 8 CTA slots; CTAs of 8 warps. Unit 1: 8 x 32 x 21 = 5376 per CTA, 6 CTAs by warps
// (48 warps; 32256 registers). Unit 4: 8 x 32 x 24 = 6144, 32768 / 6144 = 5 CTAs = 40 warps.
// The gtx480-like SM of the tests below: 48 warps, 32768 registers, 8 CTA slots.
SmConfig Gtx480LikeSm() {
  SmConfig cfg;
  cfg.warps = 48;
  cfg.active_warps = 48;
  cfg.registers = 32768;
  cfg.cta_slots = 8;
  return cfg;
}

TEST(Sm, RegisterAllocationUnitRoundsRegistersPerThread) {
  Fixture f({Op(OpClass::kAlu, {1}, {0}), Op(OpClass::kExit, {}, {})}, 12, 8, 21);
  SmConfig cfg = Gtx480LikeSm();
  EXPECT_EQ(MaxLiveWarps(f.run, cfg), 48u);
  RoundRobinPolicy rr(static_cast<uint32_t>(cfg.warps));
  EXPECT_EQ(RunSm(f.run, cfg, rr, nullptr).max_resident_ctas, 6u);
  cfg.register_alloc_unit = 4;
  EXPECT_EQ(MaxLiveWarps(f.run, cfg), 40u);
  EXPECT_EQ(RunSm(f.run, cfg, rr, nullptr).max_resident_ctas, 5u);
  // A multiple of the unit is not rounded: 24 registers give 5 CTAs with either unit.
  f.k.regs_per_thread = 24;
  EXPECT_EQ(MaxLiveWarps(f.run, cfg), 40u);
  cfg.register_alloc_unit = 1;
  EXPECT_EQ(MaxLiveWarps(f.run, cfg), 40u);
}

// The registers per thread static allocation gives (the occupancy above, and the cerf system's
// and the tag-array transactor's dense register numbering): at least one, rounded up to the unit;
// a unit of 0 counts as 1.
TEST(Sm, AllocatedRegsPerThread) {
  Kernel k;
  SmConfig cfg;
  const auto regs = [&](int r, uint32_t unit) {
    k.regs_per_thread = r;
    cfg.register_alloc_unit = unit;
    return AllocatedRegsPerThread(k, cfg);
  };
  EXPECT_EQ(regs(0, 1), 1);
  EXPECT_EQ(regs(0, 4), 4);
  EXPECT_EQ(regs(1, 1), 1);
  EXPECT_EQ(regs(1, 0), 1);
  EXPECT_EQ(regs(21, 0), 21);
  EXPECT_EQ(regs(21, 1), 21);
  EXPECT_EQ(regs(21, 4), 24);
  EXPECT_EQ(regs(24, 4), 24);
  EXPECT_EQ(regs(25, 4), 28);
  EXPECT_EQ(regs(63, 8), 64);
  EXPECT_EQ(regs(255, 256), 256);
}

// The occupancy at a compile budget (Jeon's compiler-spill baseline): the same CTAs of 8 warps
// at other registers per thread, the kernel's own count untouched. 16384 registers (64 KB),
// unit 4: 21 -> 24 registers give 2 CTAs (16 warps), 16 give 4 (32 warps), 10 -> 12 give 5
// (8 x 32 x 12 = 3072 per CTA, 40 warps); on 32768 registers 16 give 6 (the warp limit).
TEST(Sm, MaxLiveWarpsAtACompileBudget) {
  Fixture f({Op(OpClass::kAlu, {1}, {0}), Op(OpClass::kExit, {}, {})}, 12, 8, 21);
  SmConfig cfg;
  cfg.warps = 48;
  cfg.active_warps = 48;
  cfg.registers = 16384;
  cfg.cta_slots = 8;
  cfg.register_alloc_unit = 4;
  EXPECT_EQ(MaxLiveWarps(f.run, cfg, 21), 16u);
  EXPECT_EQ(MaxLiveWarps(f.run, cfg, 21), MaxLiveWarps(f.run, cfg));
  EXPECT_EQ(MaxLiveWarps(f.run, cfg, 16), 32u);
  EXPECT_EQ(MaxLiveWarps(f.run, cfg, 10), 40u);
  EXPECT_EQ(f.k.regs_per_thread, 21);
  cfg.registers = 32768;
  EXPECT_EQ(MaxLiveWarps(f.run, cfg, 16), 48u);
  EXPECT_EQ(MaxLiveWarps(f.run, cfg, 300), 0u);  // not one CTA fits
}

// A unified memory's register file at launch (Gebhart MICRO 2012): the resident CTAs'
// registers. 12 CTAs of 8 warps x 21 registers (24 with unit 4) on the gtx480-like SM of the test
// above: 5 CTAs x 8 x 32 x 24 = 30720 registers on one SM; on 4 SMs each holds ceil(12 / 4) = 3
// CTAs (18432); on 16 SMs one (6144). A CTA that does not fit: 0.
TEST(Sm, ResidentRegistersAreTheResidentCtasShare) {
  Fixture f({Op(OpClass::kAlu, {1}, {0}), Op(OpClass::kExit, {}, {})}, 12, 8, 21);
  SmConfig cfg = Gtx480LikeSm();
  cfg.register_alloc_unit = 4;
  EXPECT_EQ(ResidentRegisters(f.run, cfg, 1), 30720u);
  EXPECT_EQ(ResidentRegisters(f.run, cfg, 4), 18432u);
  EXPECT_EQ(ResidentRegisters(f.run, cfg, 16), 6144u);
  cfg.register_alloc_unit = 1;  // 8 x 32 x 21 = 5376 per CTA, 6 CTAs by warps
  EXPECT_EQ(ResidentRegisters(f.run, cfg, 1), 32256u);
  cfg.registers = 4096;  // not one CTA
  EXPECT_EQ(ResidentRegisters(f.run, cfg, 1), 0u);
}

TEST(Sm, KernelThatCannotFitIsAnError) {
  Fixture f({Op(OpClass::kExit, {}, {})}, 1, 33);
  SmConfig cfg;
  RoundRobinPolicy rr(cfg.warps);
  EXPECT_THROW(RunSm(f.run, cfg, rr, nullptr), std::runtime_error);
}

// --- SM harness v2: sub-cores, dual issue, GTO, CTA lifecycle, several SMs -------------------

namespace v2 {

std::vector<Instruction> IndependentAlus(int n) {
  std::vector<Instruction> code;
  for (int i = 0; i < n; ++i)
    code.push_back(Op(OpClass::kAlu, {static_cast<uint16_t>(1 + i)}, {0}));
  code.push_back(Op(OpClass::kExit, {}, {}));
  return code;
}

TEST(SmV2, TwoSchedulersIssueTwoWarpsPerCycleFromTheirOwnWarps) {
  // 4 warps of 4 independent ALU ops + exit. One scheduler: 20 instructions, one per cycle.
  // Two schedulers (warps 0, 2 and 1, 3), each with its own ALU: 10 cycles of 2 issues.
  const Fixture f(IndependentAlus(4), 1, 4);
  SmConfig one;
  RoundRobinPolicy rr(one.warps);
  SpyRf rf1(one.warps);
  const SmStats s1 = RunSm(f.run, one, rr, &rf1);
  SmConfig two = one;
  two.schedulers = 2;
  SpyRf rf2(two.warps);
  const SmStats s2 = RunSm(f.run, two, rr, &rf2);
  EXPECT_EQ(s1.warp_instructions, 20u);
  EXPECT_EQ(s2.warp_instructions, 20u);
  EXPECT_EQ(rf1.issued.at({1, 0}), 1u);  // round-robin over 0,1,2,3
  EXPECT_EQ(rf2.issued.at({0, 0}), 0u);
  EXPECT_EQ(rf2.issued.at({1, 0}), 0u);  // the other scheduler, same cycle
  EXPECT_EQ(rf2.issued.at({2, 0}), 1u);  // warp 2 shares scheduler 0 with warp 0
  EXPECT_EQ(rf2.issued.at({3, 0}), 1u);
  EXPECT_EQ(rf2.issued.at({2, 4}), 9u);  // its exit: the tenth issue of scheduler 0
  // A warp finishes when its last result is written back: warp 3's last ALU op issues at 15
  // (one scheduler) / 7 (two) and lands 8 cycles later.
  EXPECT_EQ(s1.cycles, 23u);
  EXPECT_EQ(s2.cycles, 15u);
  // Per cycle, each scheduler issued at most once.
  std::map<std::pair<uint64_t, uint32_t>, int> per;
  for (const auto& [key, cycle] : rf2.issued)
    EXPECT_EQ((++per[{cycle, key.first % 2}]), 1) << "cycle " << cycle;
}

TEST(SmV2, DualIssuePairsIndependentInstructionsOnDifferentUnits) {
  // ALU r1, SFU r2, ALU r3, ALU r4, exit. Cycle 0: ALU + SFU (different units). Cycle 1: ALU
  // r3, and r4 waits for the ALU (busy until 2). Cycle 2: ALU r4; an exit never pairs, so it
  // issues alone in cycle 3.
  const Fixture f(
      {Op(OpClass::kAlu, {1}, {0}), Op(OpClass::kSfu, {2}, {0}), Op(OpClass::kAlu, {3}, {0}),
       Op(OpClass::kAlu, {4}, {0}), Op(OpClass::kExit, {}, {})},
      1, 1);
  SmConfig cfg;
  cfg.issue_width = 2;
  RoundRobinPolicy rr(cfg.warps);
  SpyRf rf(cfg.warps);
  const SmStats st = RunSm(f.run, cfg, rr, &rf);
  EXPECT_EQ(rf.issued.at({0, 0}), 0u);
  EXPECT_EQ(rf.issued.at({0, 1}), 0u);
  EXPECT_EQ(rf.issued.at({0, 2}), 1u);
  EXPECT_EQ(rf.issued.at({0, 3}), 2u);
  EXPECT_EQ(rf.issued.at({0, 4}), 3u);
  EXPECT_EQ(st.dual_issues, 1u);

  // A dependent pair never dual-issues: r2 needs r1 (8 cycles).
  const Fixture g(
      {Op(OpClass::kAlu, {1}, {0}), Op(OpClass::kSfu, {2}, {1}), Op(OpClass::kExit, {}, {})}, 1, 1);
  SpyRf rg(cfg.warps);
  const SmStats sg = RunSm(g.run, cfg, rr, &rg);
  EXPECT_EQ(rg.issued.at({0, 1}), 8u);
  EXPECT_EQ(sg.dual_issues, 0u);
}

TEST(SmV2, GreedyThenOldestStaysOnAWarpThenFallsBackToTheOldest) {
  // Three warps of [ALU r1 <- r0, ALU r2 <- r1 (8 cycles later), exit].
  const Fixture f(
      {Op(OpClass::kAlu, {1}, {0}), Op(OpClass::kAlu, {2}, {1}), Op(OpClass::kExit, {}, {})}, 1, 3);
  SmConfig cfg;
  GtoPolicy gto;
  SpyRf rf(cfg.warps);
  RunSm(f.run, cfg, gto, &rf);
  // c0 w0; c1 w0 waits -> oldest w1; c2 w2; c8 w0 (oldest ready); c9 w0's exit (greedy);
  // c10 w1 (oldest); c11 w1 exit; c12 w2; c13 w2 exit.
  EXPECT_EQ(rf.order, (std::vector<uint32_t>{0, 1, 2, 0, 0, 1, 1, 2, 2}));
  EXPECT_EQ(rf.issued.at({0, 1}), 8u);
  EXPECT_EQ(rf.issued.at({0, 2}), 9u);
  EXPECT_EQ(rf.issued.at({1, 1}), 10u);
  EXPECT_EQ(rf.issued.at({2, 2}), 13u);

  // Loose round-robin interleaves the same warps.
  RoundRobinPolicy rr(cfg.warps);
  SpyRf r2(cfg.warps);
  RunSm(f.run, cfg, rr, &r2);
  EXPECT_EQ(r2.order, (std::vector<uint32_t>{0, 1, 2, 0, 1, 2, 0, 1, 2}));
}

// Records the CTA lifecycle and register events; admits up to `admit` CTAs at once.
class LifecycleRf : public RegisterFileSystem {
 public:
  bool CanIssue(uint64_t, uint32_t, const DynInst&) override { return true; }
  int Issue(uint64_t, uint32_t, const DynInst&) override { return 0; }
  void Writeback(uint64_t, uint32_t, const DynInst&) override {}
  void Activate(uint64_t, uint32_t) override {}
  void Deactivate(uint64_t, uint32_t) override {}
  bool AdmitCta(uint64_t, const CtaInfo& c) override {
    return admit < 0 ? c.static_fit : resident < admit;
  }
  void CtaLaunched(uint64_t cycle, const CtaInfo& c) override {
    ++resident;
    log.push_back(fmt("launch", cycle, c.sm, c.cta));
  }
  void CtaFinished(uint64_t cycle, const CtaInfo& c) override {
    --resident;
    log.push_back(fmt("finish", cycle, c.sm, c.cta));
  }
  bool WantsCtaStalls() const override { return true; }
  void CtaStalled(uint64_t cycle, const CtaInfo& c) override {
    log.push_back(fmt("stall", cycle, c.sm, c.cta));
  }
  void CtaResumed(uint64_t cycle, const CtaInfo& c) override {
    log.push_back(fmt("resume", cycle, c.sm, c.cta));
  }
  bool WantsRegisterEvents() const override { return true; }
  bool CanAllocate(uint64_t cycle, uint32_t, const std::vector<uint16_t>&) override {
    return cycle >= alloc_from;
  }
  void Allocate(uint64_t cycle, uint32_t w, uint16_t r) override {
    regs.push_back(fmt("alloc", cycle, w, r));
  }
  void Release(uint64_t cycle, uint32_t w, uint16_t r) override {
    regs.push_back(fmt("release", cycle, w, r));
  }

  static std::string fmt(const char* what, uint64_t cycle, uint64_t a, uint64_t b) {
    return std::string(what) + "@" + std::to_string(cycle) + ":" + std::to_string(a) + "/" +
           std::to_string(b);
  }
  int admit = -1;
  int resident = 0;
  uint64_t alloc_from = 0;
  std::vector<std::string> log, regs;
};

TEST(SmV2, RegisterFileSystemMayAdmitCtasBeyondTheStaticRegisterLimit) {
  // 1 warp x 32 lanes x 16 registers = 512 registers per CTA; 1024 registers hold 2 statically.
  const Fixture f(IndependentAlus(2), 6, 1);
  SmConfig cfg;
  cfg.registers = 1024;
  RoundRobinPolicy rr(cfg.warps);
  LifecycleRf stat;
  EXPECT_EQ(RunSm(f.run, cfg, rr, &stat).max_resident_ctas, 2u);
  LifecycleRf beyond;
  beyond.admit = 4;
  const SmStats st = RunSm(f.run, cfg, rr, &beyond);
  EXPECT_EQ(st.max_resident_ctas, 4u);
  EXPECT_EQ(st.ctas, 6u);
  EXPECT_EQ(beyond.resident, 0);
  EXPECT_EQ(std::count_if(beyond.log.begin(), beyond.log.end(),
                          [](const std::string& s) { return s.rfind("finish", 0) == 0; }),
            6);
  EXPECT_EQ(st.cta_refusals, 0u);  // beyond 4 static allocation had no room either
  LifecycleRf fewer;
  fewer.admit = 1;
  const SmStats sf = RunSm(f.run, cfg, rr, &fewer);
  EXPECT_EQ(sf.max_resident_ctas, 1u);
  EXPECT_GT(sf.cta_refusals, 0u);  // the second CTA had static room but was refused
  // Refusing every launch on an empty SM cannot make progress: a clear error, not a hang.
  LifecycleRf none;
  none.admit = 0;
  EXPECT_THROW(RunSm(f.run, cfg, rr, &none), std::runtime_error);
}

TEST(SmV2, CtaStallEventWhenEveryWarpWaitsForLongLatencyResults) {
  // Two warps each load (400 cycles), then use the value. Both loads issue (cycles 0, 1); at
  // the end of cycle 1 every warp of the CTA waits for memory: one stall event; warp 0 issues
  // again at 400: resumed; warp 1's use issues at 401 and lands at 409.
  Instruction load = Op(OpClass::kGlobalMem, {1}, {0}, true);
  const Fixture f({load, Op(OpClass::kAlu, {2}, {1}), Op(OpClass::kExit, {}, {})}, 1, 2);
  SmConfig cfg;
  RoundRobinPolicy rr(cfg.warps);
  LifecycleRf rf;
  const SmStats st = RunSm(f.run, cfg, rr, &rf);
  EXPECT_EQ(rf.log, (std::vector<std::string>{"launch@0:0/0", "stall@1:0/0", "resume@400:0/0",
                                              "finish@409:0/0"}));
  EXPECT_EQ(st.cta_stalls, 1u);
}

TEST(SmV2, RegistersAllocatedAtFirstWriteAndReleasedAtTheFlaggedRead) {
  // r1 <- r0; r2 <- r1 (the read releases r1); r1 <- r2 (allocates r1 again); exit.
  const Fixture f({Op(OpClass::kAlu, {1}, {0}), Op(OpClass::kAlu, {2}, {1}),
                   Op(OpClass::kAlu, {1}, {2}), Op(OpClass::kExit, {}, {})},
                  1, 1);
  const std::vector<std::vector<uint8_t>> release = {{0}, {1}, {0}, {}};
  const std::vector<std::vector<uint16_t>> at(4);
  SmConfig cfg;
  RoundRobinPolicy rr(cfg.warps);
  SmOptions opt;
  opt.release_after_read = &release;
  opt.release_at = &at;
  LifecycleRf rf;
  rf.alloc_from = 5;  // allocations refused until cycle 5
  const SmStats st = RunSm(f.run, cfg, rr, &rf, opt);
  EXPECT_EQ(rf.regs,
            (std::vector<std::string>{"alloc@5:0/1", "release@13:0/1", "alloc@13:0/2",
                                      "alloc@21:0/1", "release@29:0/1", "release@29:0/2"}));
  EXPECT_EQ(st.alloc_stalls, 5u);
}

TEST(SmV2, SeveralSmsTakeCtasRoundRobinAndSumTheirWork) {
  const Fixture f(IndependentAlus(3), 5, 1);
  SmConfig cfg;
  cfg.cta_slots = 1;
  RoundRobinPolicy rr(cfg.warps);
  LifecycleRf a, b;
  const GpuStats gs = RunGpu(f.run, cfg, rr, {{&a}, {&b}}, nullptr);
  // One slot each: CTA 0 -> SM 0, CTA 1 -> SM 1; both finish at cycle 10 (ALU ops issued in
  // cycles 0..2, the last lands at 10), SM 0 steps first and takes CTA 2, then SM 1 takes
  // CTA 3; CTA 4 goes to SM 0 at cycle 20.
  EXPECT_EQ(a.log, (std::vector<std::string>{"launch@0:0/0", "finish@10:0/0", "launch@10:0/2",
                                             "finish@20:0/2", "launch@20:0/4", "finish@30:0/4"}));
  EXPECT_EQ(b.log, (std::vector<std::string>{"launch@0:1/1", "finish@10:1/1", "launch@10:1/3",
                                             "finish@20:1/3"}));
  ASSERT_EQ(gs.sms.size(), 2u);
  EXPECT_EQ(gs.sms[0].warp_instructions, 12u);
  EXPECT_EQ(gs.sms[1].warp_instructions, 8u);
  EXPECT_EQ(gs.total.warp_instructions, 20u);
  EXPECT_EQ(gs.total.cycles, 30u);
  EXPECT_EQ(gs.sms[1].cycles, 20u);
}

// Memory: mem::SmallMemoryConfig() (sim/mem/tests/small_memory.h): L1D 4 sets x 2 ways, hit
// 10, 4 MSHRs; an unloaded L2 miss takes 300 cycles, line j of a burst at cycle 0 fills at
// 300 + 4j.
TEST(SmV2, LoadsTakeTheMemoryHierarchysTimeAndRetryWhenMshrsAreBusy) {
  // Six warps: load R1 from line w (coalesced 32 x 4 B), R2 <- R1, exit.
  Fixture f({Op(OpClass::kGlobalMem, {1}, {0}, true), Op(OpClass::kAlu, {2}, {1}),
             Op(OpClass::kExit, {}, {})},
            1, 6);
  f.k.code[0].mem_bytes = 4;
  for (uint32_t w = 0; w < 6; ++w) {
    WarpStream& ws = f.run.warps[w];
    ws.has_addrs = true;
    ws.addrs.resize(32);
    for (uint64_t lane = 0; lane < 32; ++lane)
      ws.addrs[lane] = w * 128 + lane * 4;
  }
  SmConfig cfg;
  RoundRobinPolicy rr(cfg.warps);
  SpyRf rf(cfg.warps);
  mem::MemorySystem memory(mem::SmallMemoryConfig(), 1);
  const GpuStats gs = RunGpu(f.run, cfg, rr, {{&rf}}, &memory);
  // Loads of warps 0..3 issue in cycles 0..3 and take the four MSHRs (fills 300..312). Warp
  // 4's load waits for the first fill (300, round-robin after warp 3); at 301 no MSHR is free
  // and warp 0's use issues; line 1 fills at 304: warp 1's use (after warp 0), then warp 5's
  // load at 305. Lines 4 and 5 miss with an idle DRAM: 300 cycles.
  for (uint32_t w = 0; w < 4; ++w)
    EXPECT_EQ(rf.issued.at({w, 0}), w) << w;
  EXPECT_EQ(rf.issued.at({4, 0}), 300u);
  EXPECT_EQ(rf.issued.at({0, 1}), 301u);
  EXPECT_EQ(rf.issued.at({1, 1}), 304u);
  EXPECT_EQ(rf.issued.at({5, 0}), 305u);
  EXPECT_EQ(rf.issued.at({2, 1}), 308u);
  EXPECT_EQ(rf.issued.at({3, 1}), 312u);
  EXPECT_EQ(rf.issued.at({4, 1}), 600u);
  EXPECT_EQ(rf.issued.at({5, 1}), 605u);
  EXPECT_GT(gs.total.mem_stalls, 0u);
  EXPECT_EQ(memory.Stats(0).warp_accesses, 6u);
  EXPECT_EQ(memory.Stats(0).l1d.misses, 6u * 4);
  // Ideal memory: every load 400 cycles, no stall.
  SpyRf ideal(cfg.warps);
  const SmStats si = RunSm(f.run, cfg, rr, &ideal);
  EXPECT_EQ(ideal.issued.at({5, 0}), 5u);
  EXPECT_EQ(ideal.issued.at({0, 1}), 400u);
  EXPECT_EQ(si.mem_stalls, 0u);
}

// A generic load (class kGlobalMem) whose lanes all resolved to the shared window is timed as
// the shared-memory access it is: 20 cycles (stride 4 B, no bank conflict), not an L1 miss to
// L2 and DRAM (300). The same load without the resolution goes to L1 and misses.
TEST(SmV2, GenericLoadsIntoTheSharedWindowAreTimedAsShared) {
  Fixture f({Op(OpClass::kGlobalMem, {1}, {0}, true), Op(OpClass::kAlu, {2}, {1}),
             Op(OpClass::kExit, {}, {})},
            1, 1);
  f.k.code[0].mem_bytes = 4;
  WarpStream& ws = f.run.warps[0];
  ws.has_addrs = true;
  ws.addrs.resize(32);
  for (uint64_t lane = 0; lane < 32; ++lane)
    ws.addrs[lane] = lane * 4;
  // The cycle the load's use issues, L1D misses and shared accesses.
  auto run = [&] {
    SmConfig cfg;
    RoundRobinPolicy rr(cfg.warps);
    SpyRf rf(cfg.warps);
    mem::MemorySystem memory(mem::SmallMemoryConfig(), 1);
    RunGpu(f.run, cfg, rr, {{&rf}}, &memory);
    return std::array<uint64_t, 3>{rf.issued.at({0, 1}), memory.Stats(0).l1d.misses,
                                   memory.Stats(0).shared.accesses};
  };
  EXPECT_EQ(run(), (std::array<uint64_t, 3>{300, 4, 0}));
  ws.resolved.push_back({0, OpClass::kSharedMem});
  EXPECT_EQ(run(), (std::array<uint64_t, 3>{20, 0, 1}));
}

// Regression: membar/fence were barrier-class and the SM made a warp that executed one wait for
// the whole CTA, so a fence only some warps execute (inside `if (tid == 0)`) hung the run.
TEST(SmV2, AFenceIsNotACtaBarrier) {
  Fixture f({Membar(), Op(OpClass::kAlu, {1}, {0}), Op(OpClass::kExit, {}, {})}, 1, 2);
  f.run.warps[1].insts.erase(f.run.warps[1].insts.begin());  // warp 1 skips the fence
  SmConfig cfg;
  RoundRobinPolicy rr(cfg.warps);
  SpyRf rf(cfg.warps);
  SmOptions opt;
  opt.max_cycles = 10000;
  const SmStats st = RunSm(f.run, cfg, rr, &rf, opt);
  EXPECT_EQ(rf.issued.at({0, 0}), 0u);  // the fence
  EXPECT_EQ(rf.issued.at({1, 1}), 1u);  // warp 1's ALU op
  EXPECT_EQ(rf.issued.at({0, 1}), 2u);  // warp 0 goes on without waiting for warp 1
  EXPECT_EQ(st.warp_instructions, 5u);
}

}  // namespace v2

}  // namespace
}  // namespace gpurf::sim
