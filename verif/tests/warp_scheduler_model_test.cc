// The warp-scheduler golden model against hand-computed cycles: round-robin rotation, greedy
// holding (and letting go after a deschedule), outer round-robin activation into freed slots,
// suspension and wake (also in the same cycle, also of a warp that is not waiting), all warps
// suspended, A == W and A == 1. Then the invariant checks: each of I1-I3 must fire on a
// deliberately broken policy, and the cycle adapter must show reset and event fields as the
// port contract says.
#include "models/warp_scheduler_model.h"

#include <gtest/gtest.h>

#include <bit>

#include "gen/structures/warp_scheduler/warp_scheduler_spec.h"
#include "verif/tests/sched_orf_test_util.h"

namespace gpurf {
namespace {

using Policy = WarpScheduler::Policy;
using In = WarpScheduler::Inputs;
using Act = WarpScheduler::Activation;

In Make(uint64_t ready, uint64_t valid, uint64_t suspend = 0, uint64_t wake = 0) {
  return {ready, valid, suspend, wake};
}

void ExpectIssue(const WarpScheduler::Decision& d, int warp, int slot, bool deact = false) {
  EXPECT_TRUE(d.issue);
  EXPECT_EQ(d.issue_warp, warp);
  EXPECT_EQ(d.issue_slot, slot);
  EXPECT_EQ(d.deactivate, deact);
}

TEST(WarpSchedulerModel, RoundRobinRotatesAndRefillsFreedSlots) {
  WarpScheduler s(4, 2, Policy::kRoundRobin);
  // Cycle 0: both slots empty: nothing issues, warps 0 and 1 are activated in slot order.
  auto d = s.Step(Make(0xF, 0xF));
  EXPECT_FALSE(d.issue);
  EXPECT_EQ(d.activations, (std::vector<Act>{{0, 0}, {1, 1}}));
  EXPECT_EQ(s.active_mask(), 0x3U);
  // Rotating priority from slot 0 after reset.
  ExpectIssue(s.Step(Make(0xF, 0xF)), 0, 0);
  ExpectIssue(s.Step(Make(0xF, 0xF)), 1, 1);
  // Warp 0 issues its strand end: descheduled, waiting.
  d = s.Step(Make(0xF, 0xF, 0x1));
  ExpectIssue(d, 0, 0, true);
  EXPECT_TRUE(d.activations.empty());  // its slot is refilled from the next cycle on
  EXPECT_TRUE(s.IsWaiting(0));
  EXPECT_FALSE(s.IsActive(0));
  EXPECT_EQ(s.SlotWarp(0), -1);
  // Slot 0 takes warp 2 (outer pointer after warp 1); slot 1 issues.
  d = s.Step(Make(0xF, 0xF));
  ExpectIssue(d, 1, 1);
  EXPECT_EQ(d.activations, (std::vector<Act>{{0, 2}}));
  // Warp 0's load returns while no slot is free: it becomes pending and ready, and waits.
  ExpectIssue(s.Step(Make(0xF, 0xF, 0, 0x1)), 2, 0);
  EXPECT_FALSE(s.IsWaiting(0));
  EXPECT_FALSE(s.IsActive(0));
  // Warp 1 ends its strand in the cycle its result returns: descheduled but not waiting.
  d = s.Step(Make(0xF, 0xF, 0x2, 0x2));
  ExpectIssue(d, 1, 1, true);
  EXPECT_FALSE(s.IsWaiting(1));
  // Slot 1 is free: the outer pointer (3) picks warp 3 before warps 0 and 1.
  d = s.Step(Make(0xF, 0xF));
  ExpectIssue(d, 2, 0);
  EXPECT_EQ(d.activations, (std::vector<Act>{{1, 3}}));
  EXPECT_EQ(s.issues(), 7U);
  EXPECT_EQ(s.deactivations(), 2U);
  EXPECT_EQ(s.activations(), 4U);
}

TEST(WarpSchedulerModel, GreedyHoldsUntilTheWarpCannotIssue) {
  for (const Policy policy : {Policy::kGreedy, Policy::kRoundRobin}) {
    const bool greedy = policy == Policy::kGreedy;
    WarpScheduler s(3, 2, policy);
    s.Step(Make(0x7, 0x7));                     // activate warps 0, 1
    ExpectIssue(s.Step(Make(0x7, 0x7)), 0, 0);  // first issue: rotating from slot 0
    ExpectIssue(s.Step(Make(0x7, 0x7)), greedy ? 0 : 1, greedy ? 0 : 1);
    if (!greedy)
      continue;
    ExpectIssue(s.Step(Make(0x6, 0x7)), 1, 1);             // warp 0 stalls: the next one takes over
    ExpectIssue(s.Step(Make(0x7, 0x7)), 1, 1);             // and keeps issuing
    ExpectIssue(s.Step(Make(0x7, 0x7, 0x2)), 1, 1, true);  // until it is descheduled
    // Slot 1 takes warp 2; the hold is gone, so the search rotates to slot 0.
    auto d = s.Step(Make(0x7, 0x7));
    ExpectIssue(d, 0, 0);
    EXPECT_EQ(d.activations, (std::vector<Act>{{1, 2}}));
    ExpectIssue(s.Step(Make(0x7, 0x7)), 0, 0);  // greedy again on warp 0, warp 2 waits
  }
}

TEST(WarpSchedulerModel, AllSuspendedNothingIssuesUntilWoken) {
  WarpScheduler s(2, 1, Policy::kGreedy);  // A == 1
  s.Step(Make(0x3, 0x3));
  ExpectIssue(s.Step(Make(0x3, 0x3, 0x3)), 0, 0, true);
  auto d = s.Step(Make(0x3, 0x3, 0x3));
  EXPECT_FALSE(d.issue);
  EXPECT_EQ(d.activations, (std::vector<Act>{{0, 1}}));
  ExpectIssue(s.Step(Make(0x3, 0x3, 0x3)), 1, 0, true);
  for (int i = 0; i < 5; ++i) {
    d = s.Step(Make(0x3, 0x3, 0x3));
    EXPECT_FALSE(d.issue);
    EXPECT_TRUE(d.activations.empty());
  }
  EXPECT_EQ(s.waiting_mask(), 0x3U);
  // Both results return in one cycle: the outer pointer (0) activates warp 0 next cycle.
  s.Step(Make(0x3, 0x3, 0, 0x3));
  d = s.Step(Make(0x3, 0x3));
  EXPECT_EQ(d.activations, (std::vector<Act>{{0, 0}}));
}

TEST(WarpSchedulerModel, WakeOfAWarpNotWaitingHasNoEffect) {
  WarpScheduler s(2, 1, Policy::kRoundRobin);
  s.Step(Make(0x3, 0x3, 0, 0x3));  // spurious wakes while warp 0 is activated
  s.Step(Make(0x3, 0x3, 0, 0x1));  // and while it issues
  ExpectIssue(s.Step(Make(0x3, 0x3, 0x1)), 0, 0, true);
  EXPECT_TRUE(s.IsWaiting(0));  // the earlier wakes did not pre-pay this suspension
}

TEST(WarpSchedulerModel, AllWarpsActiveWhenAEqualsW) {
  WarpScheduler s(3, 3, Policy::kRoundRobin);
  const auto d = s.Step(Make(0x7, 0x7));
  EXPECT_EQ(d.activations, (std::vector<Act>{{0, 0}, {1, 1}, {2, 2}}));
  // Invalid (not launched) warps are not activated.
  WarpScheduler t(3, 3, Policy::kRoundRobin);
  EXPECT_EQ(t.Step(Make(0x7, 0x5)).activations, (std::vector<Act>{{0, 0}, {1, 2}}));
}

// ---------------------------------------------------------------------- invariant checks fire

class BrokenScheduler : public WarpScheduler {
 public:
  enum class Bug { kFillOccupiedSlot, kIssueWaitingWarp, kOneActivationPerCycle };
  BrokenScheduler(int w, int a, Bug bug) : WarpScheduler(w, a, Policy::kRoundRobin), bug_(bug) {}

 protected:
  Decision Decide(const Inputs& in) const override {
    Decision d = WarpScheduler::Decide(in);
    switch (bug_) {
      case Bug::kFillOccupiedSlot:  // activation ignores that slot 0 is taken
        if (SlotWarp(0) >= 0 && ReadyPending(in) != 0)
          d.activations.push_back({0, std::countr_zero(ReadyPending(in))});
        break;
      case Bug::kIssueWaitingWarp:  // the inner level also looks at suspended warps
        if (waiting_mask() != 0) {
          d.issue = true;
          d.issue_warp = std::countr_zero(waiting_mask());
          d.deactivate = false;
        }
        break;
      case Bug::kOneActivationPerCycle:
        if (d.activations.size() > 1)
          d.activations.resize(1);
        break;
    }
    return d;
  }

 private:
  Bug bug_;
};

int FirstViolation(BrokenScheduler::Bug bug) {
  BrokenScheduler s(4, 2, bug);
  for (int c = 0; c < 20; ++c) {
    try {
      s.Step(Make(0xF, 0xF, c % 3 == 1 ? 0xF : 0));
    } catch (const SchedulerInvariantError& e) {
      EXPECT_NE(std::string(e.what()).find("I" + std::to_string(e.invariant()) + " violated"),
                std::string::npos)
          << e.what();
      return e.invariant();
    }
  }
  return 0;
}

TEST(WarpSchedulerModelInvariants, I1FiresWhenASlotIsOverwritten) {
  EXPECT_EQ(FirstViolation(BrokenScheduler::Bug::kFillOccupiedSlot), 1);
}
TEST(WarpSchedulerModelInvariants, I2FiresWhenASuspendedWarpIssues) {
  EXPECT_EQ(FirstViolation(BrokenScheduler::Bug::kIssueWaitingWarp), 2);
}
TEST(WarpSchedulerModelInvariants, I3FiresWhenAFreeSlotIsNotFilled) {
  EXPECT_EQ(FirstViolation(BrokenScheduler::Bug::kOneActivationPerCycle), 3);
}
TEST(WarpSchedulerModelInvariants, CorrectModelNeverFires) {
  WarpScheduler s(4, 2, Policy::kGreedy);
  for (int c = 0; c < 1000; ++c)
    EXPECT_NO_THROW(s.Step(Make(c * 7 % 16, 0xF, c % 5 == 0 ? 0xF : 0, c % 11 == 0 ? 0xF : 0)));
}

// ---------------------------------------------------------------------- cycle adapter

TEST(WarpSchedulerCycleModel, PortsFollowTheContract) {
  const WarpSchedulerSpec spec = test::MakeSchedSpec({5, 2, false});
  WarpSchedulerCycleModel m(spec);
  using P = WarpSchedulerCycleModel::Port;
  const int widths[] = {1, 1, 5, 5, 5, 5, 1, 3, 1, 1, 3, 1, 2, 6, 2, 6, 5, 5};
  PortValues in, out, def;
  for (int w : widths) {
    in.emplace_back(w);
    out.emplace_back(w);
    def.emplace_back(w);
  }
  in[P::kRstN] = Bits(1, 0);
  in[P::kValid] = Bits(5, 0x1F);
  in[P::kReady] = Bits(5, 0x1F);
  m.Outputs(in, out, def);  // in reset: no activation although slots are free
  EXPECT_FALSE(out[P::kActValid].any());
  EXPECT_TRUE(def[P::kActValid].any());
  m.Clock(in);
  in[P::kRstN] = Bits(1, 1);
  m.Outputs(in, out, def);
  EXPECT_EQ(out[P::kActValid].get(0, 2), 0x3U);
  EXPECT_EQ(out[P::kActWarp].get(0, 6), (1U << 3) | 0U);  // slot 1 <- warp 1, slot 0 <- warp 0
  EXPECT_FALSE(out[P::kIssueValid].bit(0));
  EXPECT_EQ(out[P::kIssueWarp].get(0, 3), 0U);
  m.Clock(in);
  in[P::kSuspend] = Bits(5, 0x1);
  m.Outputs(in, out, def);
  EXPECT_TRUE(out[P::kIssueValid].bit(0));
  EXPECT_TRUE(out[P::kDeactValid].bit(0));
  EXPECT_EQ(out[P::kDeactWarp].get(0, 3), 0U);
  EXPECT_EQ(out[P::kSlotValid].get(0, 2), 0x3U);
  EXPECT_EQ(out[P::kActive].get(0, 5), 0x3U);
  m.Clock(in);
  m.Outputs(in, out, def);
  EXPECT_EQ(out[P::kWaiting].get(0, 5), 0x1U);
  EXPECT_EQ(out[P::kSlotValid].get(0, 2), 0x2U);
  EXPECT_EQ(out[P::kSlotWarp].get(0, 6), 1U << 3);  // empty slot 0 reads zero
}

}  // namespace
}  // namespace gpurf
