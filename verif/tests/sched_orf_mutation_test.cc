// Evidence that the checks of the warp scheduler and the ORF can fail:
//   - realistic bugs planted in the generated RTL that the lockstep comparison must catch
//     (scheduler: pointers stuck, greedy hold ignored, a same-cycle wake lost, stalls ignored;
//     ORF: entry dropped from the row address, split-bank write or read wiring, a stuck storage
//     bit in the instantiated flop array);
//   - one RTL mutation per scheduler invariant (I1 at most A active warps, I2 a suspended warp
//     never issues, I3 no ready pending warp waits while a slot is free) that must make the
//     invariant's own assertion fire; these run without comparison so that the assertion, not an
//     earlier output difference, is what stops the run;
//   - ORF misuse (an enabled read of an entry never written, invalidated by a deschedule, or
//     cleared by reset; a split read of another bank; an out-of-range slot) that must fire the
//     RTL assertion at the exact cycle while the model counts the misuse and compares nothing.
// (The model's own invariant checks fire on broken policies in warp_scheduler_model_test.cc.)
#include <gtest/gtest.h>

#include <functional>

#include "gen/structures/orf/orf_gen.h"
#include "gen/structures/orf/orf_spec.h"
#include "gen/structures/warp_scheduler/warp_scheduler_gen.h"
#include "gen/structures/warp_scheduler/warp_scheduler_spec.h"
#include "models/orf_model.h"
#include "models/warp_scheduler_model.h"
#include "verif/stimulus/orf_stimulus.h"
#include "verif/stimulus/warp_scheduler_stimulus.h"
#include "verif/tests/rtl_test_util.h"
#include "verif/tests/sched_orf_test_util.h"
#include "verif/verify.h"

namespace gpurf {
namespace {

// ------------------------------------------------------------------ scheduler: lockstep catches

struct SchedMutation {
  const char* name;
  test::SchedShape shape;
  const char* from;
  const char* to;
};

const SchedMutation kSchedMutations[] = {
    {"RoundRobinPointerStuck", {8, 4, false}, "last_q <= issue_slot;", "last_q <= last_q;"},
    {"GreedyIgnoresHold",
     {8, 4, true},
     "if (hold_q && (last_q == SlotWidth'(s)) && slot_issuable[s]) begin",
     "if ((last_q == SlotWidth'(s)) && slot_issuable[s]) begin"},
    {"SameCycleWakeLost", {8, 4, false}, "waiting_q[w] <= !wake_i[w];", "waiting_q[w] <= 1'b1;"},
    {"OuterPointerStuck", {8, 4, false}, "outer_q <= outer_d;", "outer_q <= outer_q;"},
    {"StallIgnored",
     {8, 4, true},
     "slot_issuable[s] = slot_valid_q[s] && valid_i[w] && ready_i[w];",
     "slot_issuable[s] = slot_valid_q[s] && valid_i[w];"},
};

class SchedulerMutation : public ::testing::TestWithParam<size_t> {};

TEST_P(SchedulerMutation, IsCaughtByLockstep) {
  const SchedMutation& mu = kSchedMutations[GetParam()];
  const WarpSchedulerSpec spec = test::MakeSchedSpec(mu.shape);
  GeneratedStructure rtl = EmitWarpScheduler(spec);
  ASSERT_NO_FATAL_FAILURE(test::Mutate(rtl, "", mu.from, mu.to));
  test::ExpectCaughtByLockstep(spec, rtl, mu.name);
}

INSTANTIATE_TEST_SUITE_P(Bugs, SchedulerMutation,
                         ::testing::Range<size_t>(0, std::size(kSchedMutations)),
                         [](const ::testing::TestParamInfo<size_t>& p) {
                           return kSchedMutations[p.param].name;
                         });

// ------------------------------------------------------------- scheduler: invariant assertions

struct InvariantMutation {
  const char* name;
  const char* from;
  const char* to;
  const char* message;
};

const InvariantMutation kInvariantMutations[] = {
    // Activation fills occupied slots: the warp it replaces stays active without a slot.
    {"I1_MoreThanAActive", "if (!slot_valid_q[s]) begin", "if (1'b1) begin", "I1 violated"},
    // Activation forgets that suspended warps wait: they get a slot and issue.
    {"I2_SuspendedWarpIssues", "& valid_i & ~active_q & ~waiting_q;", "& valid_i & ~active_q;",
     "I2 violated: suspended warp"},
    // One activation per cycle: after a reset, ready warps wait while slots are free.
    {"I3_ReadyWarpWaitsForFreeSlot", "if (!slot_valid_q[s]) begin",
     "if (!slot_valid_q[s] && !(|act_valid)) begin", "I3 violated"},
};

class SchedulerInvariant : public ::testing::TestWithParam<size_t> {};

TEST_P(SchedulerInvariant, AssertionFiresOnBrokenRtl) {
  const InvariantMutation& mu = kInvariantMutations[GetParam()];
  const WarpSchedulerSpec spec = test::MakeSchedSpec({16, 4, false});
  GeneratedStructure rtl = EmitWarpScheduler(spec);
  ASSERT_NO_FATAL_FAILURE(test::Mutate(rtl, "", mu.from, mu.to));
  test::NoCompareModel model;
  WarpSchedulerStimulus stim(spec, 7);
  test::ExpectAssertionFires(rtl, model, stim, 20000, mu.name, mu.message);
}

INSTANTIATE_TEST_SUITE_P(Invariants, SchedulerInvariant,
                         ::testing::Range<size_t>(0, std::size(kInvariantMutations)),
                         [](const ::testing::TestParamInfo<size_t>& p) {
                           return kInvariantMutations[p.param].name;
                         });

// ------------------------------------------------------------------------ ORF: lockstep catches

struct OrfMutation {
  const char* name;
  test::OrfShape shape;
  const char* file_prefix;  // "" = the ORF module, "rf_flop_" = its storage
  const char* from;
  const char* to;
};

const OrfMutation kOrfMutations[] = {
    {"L1WriteDropsEntry",
     {1, 3, 4, 32, false, false, false, true},
     "",
     "assign waddr = RowAddrWidth'(SlotEntry(32'(wslot_i), 32'(wentry_i)));",
     "assign waddr = RowAddrWidth'(32'(wslot_i) * Entries);"},
    {"SplitWriteHitsEveryBank",
     {0, 1, 4, 32, true, false, false, true},
     "",
     "assign bank_we = we_i && (wentry_i == EntryWidth'(b));",
     "assign bank_we = we_i;"},
    {"SplitReadPortsShareSlot",
     {0, 1, 4, 32, true, false, false, true},
     "",
     ".raddr_i (rslot_i[b*SlotWidth +: SlotWidth]),",
     ".raddr_i (rslot_i[0 +: SlotWidth]),"},
    {"StorageStuckBit",
     {1, 2, 3, 16, false, true, false, true},
     "rf_flop_",
     "assign mem[r] = row_q;",
     "assign mem[r] = {row_q[Width-1:1], 1'b0};"},
};

class OrfMutationTest : public ::testing::TestWithParam<size_t> {};

TEST_P(OrfMutationTest, IsCaughtByLockstep) {
  const OrfMutation& mu = kOrfMutations[GetParam()];
  const OrfSpec spec = test::MakeOrfSpec(mu.shape);
  GeneratedStructure rtl = EmitOrf(spec);
  ASSERT_NO_FATAL_FAILURE(test::Mutate(rtl, mu.file_prefix, mu.from, mu.to));
  const TempDir waves("gpurf-mutation");
  const VerifyResult r = test::VerifyMutant(spec, rtl, 20000, 7, waves);
  ASSERT_FALSE(r.passed()) << mu.name << " escaped verification: " << r.Summary();
  EXPECT_FALSE(r.run.assertion) << r.Summary();
  EXPECT_NE(r.Summary().find("signal rdata_o"), std::string::npos) << r.Summary();
}

INSTANTIATE_TEST_SUITE_P(Bugs, OrfMutationTest,
                         ::testing::Range<size_t>(0, std::size(kOrfMutations)),
                         [](const ::testing::TestParamInfo<size_t>& p) {
                           return kOrfMutations[p.param].name;
                         });

// ------------------------------------------------------------------------------- ORF: misuse

using P = OrfCycleModel::Port;

// The normal stimulus, with `poke` rewriting the inputs of chosen cycles.
class PokedOrfStimulus : public Stimulus {
 public:
  PokedOrfStimulus(const OrfSpec& s, std::function<void(uint64_t, PortValues&)> poke)
      : inner_(s, 3), poke_(std::move(poke)) {}
  void Next(uint64_t cycle, PortValues& in) override {
    inner_.Next(cycle, in);
    poke_(cycle, in);
  }
  std::string Phase() const override { return "misuse"; }

 private:
  OrfStimulus inner_;
  std::function<void(uint64_t, PortValues&)> poke_;
};

// Only port `p` reads, enabled, (slot, entry); no write.
void ReadOnly(const OrfSpec& s, PortValues& in, int p, int slot, int entry) {
  in[P::kWe].clear();
  in[P::kInv].clear();
  in[P::kRe].clear();
  in[P::kRe].set_bit(p, true);
  in[P::kRslot].set(p * s.slot_width, s.slot_width, slot);
  in[P::kRentry].set(p * s.entry_width, s.entry_width, entry);
}

void ExpectMisuseAt(const test::OrfShape& shape, uint64_t at,
                    const std::function<void(const OrfSpec&, uint64_t, PortValues&)>& poke,
                    const std::string& rtl_message, const std::string& model_message) {
  const OrfSpec spec = test::MakeOrfSpec(shape);
  const GeneratedStructure rtl = EmitOrf(spec);
  OrfCycleModel model(spec);
  PokedOrfStimulus stim(spec, [&](uint64_t c, PortValues& in) { poke(spec, c, in); });
  const test::CapturedRun o = test::RunCaptured(rtl, model, stim, at + 100);
  ASSERT_FALSE(o.run.passed);
  EXPECT_TRUE(o.run.assertion) << o.run.failure;
  EXPECT_EQ(o.run.fail_cycle, at) << o.run.failure;
  EXPECT_NE(o.log.find(rtl_message), std::string::npos) << o.log;
  EXPECT_GE(model.orf().misuses(), 1U);
  EXPECT_NE(model.orf().first_misuse().find(model_message), std::string::npos)
      << model.orf().first_misuse();
}

const test::OrfShape kL1 = {1, 3, 5, 32, false, false, false, true};

TEST(OrfMisuse, ReadOfNeverWrittenEntryFires) {
  // Cycles 0-1 reset, then the sweep writes (0, 0) first: reading (4, 2) at cycle 2 is too early.
  ExpectMisuseAt(
      kL1, 2,
      [](const OrfSpec& s, uint64_t c, PortValues& in) {
        if (c == 2)
          ReadOnly(s, in, 0, 4, 2);
      },
      "read port 0 reads invalid entry (slot 4, entry 2)", "read port 0 reads invalid entry");
}

TEST(OrfMisuse, ReadAfterDescheduleFires) {
  ExpectMisuseAt(
      kL1, 400,
      [](const OrfSpec& s, uint64_t c, PortValues& in) {
        if (c == 399) {  // the scheduler deschedules the warp of slot 3
          ReadOnly(s, in, 2, 3, 1);
          in[P::kRe].clear();
          in[P::kInv] = Bits(1, 1);
          in[P::kInvSlot].set(0, s.slot_width, 3);
        }
        if (c == 400)
          ReadOnly(s, in, 1, 3, 1);
      },
      "read port 1 reads invalid entry (slot 3, entry 1)", "read port 1 reads invalid entry");
}

TEST(OrfMisuse, ReadAfterResetFires) {
  ExpectMisuseAt(
      kL1, 500,
      [](const OrfSpec& s, uint64_t c, PortValues& in) {
        if (c == 499) {
          in[P::kRstN] = Bits(1, 0);
          in[P::kRe].clear();
        }
        if (c == 500)
          ReadOnly(s, in, 0, 0, 0);
      },
      "reads invalid entry", "reads invalid entry");
}

TEST(OrfMisuse, SplitReadOfAnotherBankFires) {
  ExpectMisuseAt(
      {0, 1, 4, 32, true, false, false, true}, 300,
      [](const OrfSpec& s, uint64_t c, PortValues& in) {
        if (c == 300)
          ReadOnly(s, in, 2, 1, 0);
      },
      "read port 2 reads L0 bank 0", "reads only its own bank");
}

TEST(OrfMisuse, OutOfRangeSlotFires) {
  ExpectMisuseAt(
      kL1, 300,
      [](const OrfSpec& s, uint64_t c, PortValues& in) {
        if (c == 300)
          ReadOnly(s, in, 1, 6, 0);
      },
      "read port 1: slot 6 / entry 0 out of range", "out of range");
}

}  // namespace
}  // namespace gpurf
