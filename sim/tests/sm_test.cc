#include "sim/sm/sm.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

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

TEST(Sm, KernelThatCannotFitIsAnError) {
  Fixture f({Op(OpClass::kExit, {}, {})}, 1, 33);
  SmConfig cfg;
  RoundRobinPolicy rr(cfg.warps);
  EXPECT_THROW(RunSm(f.run, cfg, rr, nullptr), std::runtime_error);
}

}  // namespace
}  // namespace gpurf::sim
