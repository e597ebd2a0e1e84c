// The cta-throttle golden model against hand-worked cycles (Jeon et al., section 8.1): the
// derived widths, parameter rejections, the allocation check that keeps the reserved CTA's worst
// case free, the throttle after the reserved CTA exits (and not at equality), the reservation
// moving only to a CTA every bank can serve, the spill fallback with its same-cycle releases,
// the contract. Then the stimulus of gpurf verify reaching the corners the model distinguishes.
#include "models/cta_throttle_model.h"

#include <gtest/gtest.h>

#include "base/diag.h"
#include "verif/stimulus/cta_throttle_stimulus.h"
#include "verif/tests/cta_throttle_test_util.h"

namespace gpurf {
namespace {

using test::ThrottleIo;

// 3 slots, one bank of 8 registers (the paper's SM-wide count), 4 allocation and release ports.
CtaThrottleSpec Small(int slots = 3, int banks = 1) {
  return test::MakeThrottleSpec(
      {.slots = slots, .banks = banks, .regs_per_bank = 8, .alloc_ports = 4, .release_ports = 4});
}

TEST(CtaThrottleSpec, PaperSizes) {
  // Eight CTA slots, 4 x 256 warp registers: 9-bit held and free counts (0..256), 10-bit C (a
  // CTA may need more than a bank), 12-bit counters (4 banks of up to 1023).
  const CtaThrottleSpec s = test::MakeThrottleSpec({});
  EXPECT_EQ(s.slots, 8);
  EXPECT_EQ(s.slot_bits, 3);
  EXPECT_EQ(s.bank_bits, 2);
  EXPECT_EQ(s.count_bits, 9);
  EXPECT_EQ(s.need_bits, 10);
  EXPECT_EQ(s.MaxNeed(), 1023);
  EXPECT_EQ(s.sum_bits, 12);
  EXPECT_EQ(s.spill_bits, 2);
  EXPECT_EQ(Small(3, 1).bank_bits, 1);
  EXPECT_EQ(Small(3, 1).slot_bits, 2);
}

TEST(CtaThrottleSpec, RejectsOutOfRangeParameters) {
  try {
    test::MakeThrottleSpec({.slots = 1});
    FAIL() << "one slot accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "slots");
    EXPECT_EQ(e.allowed(), "integer 2..32");
  }
  EXPECT_THROW(test::MakeThrottleSpec({.banks = 9}), InputError);
  EXPECT_THROW(test::MakeThrottleSpec({.regs_per_bank = 4}), InputError);
}

TEST(CtaThrottleModel, ThrottleAfterTheReservedCtaExits) {
  ThrottleIo io(Small());
  io.Launch(0, {2});
  io.Step();
  io.Eval();
  EXPECT_EQ(io.Reserved(), 0);  // the first CTA is reserved
  io.Launch(1, {8});
  io.Step();
  io.Launch(2, {8});
  io.Step();
  io.Eval();
  EXPECT_EQ(io.Reserved(), 0);  // counters 2, 8, 8: the minimum stays reserved
  for (int k = 0; k < 3; ++k)
    io.Alloc(1, 0);
  io.Step();  // 8 - 3 = 5 >= 2 (the reserved CTA's worst case): granted
  EXPECT_TRUE(io.Granted());
  for (int k = 0; k < 4; ++k)
    io.Alloc(2, 0);
  io.Step();  // 5 - 4 = 1 < 2: refused as a whole
  EXPECT_FALSE(io.Granted());
  for (int k = 0; k < 3; ++k)
    io.Alloc(2, 0);
  io.Step();  // 5 - 3 = 2 >= 2
  EXPECT_TRUE(io.Granted());
  io.Alloc(0, 0);
  io.Alloc(0, 0);
  io.Step();  // the reserved CTA takes the two it was kept
  EXPECT_TRUE(io.Granted());
  io.Eval();
  EXPECT_EQ(io.Free(0), 0);
  EXPECT_FALSE(io.Throttle());  // 0 free, counters 0, 5, 5: 0 < 0 is false
  EXPECT_TRUE(io.IssueOk(0) && io.IssueOk(1) && io.IssueOk(2));
  // CTA 0 releases its two registers and exits in the same cycle.
  io.Release(0, 0);
  io.Release(0, 0);
  io.Exit(0);
  io.Step();
  io.Eval();
  // Counters 5 and 5, 2 free: the throttle is on; the tie goes to slot 1.
  EXPECT_EQ(io.Reserved(), 1);
  EXPECT_EQ(io.Free(0), 2);
  EXPECT_TRUE(io.Throttle());
  EXPECT_TRUE(io.IssueOk(1));
  EXPECT_FALSE(io.IssueOk(2));
  EXPECT_FALSE(io.IssueOk(0));
  io.Alloc(2, 0);
  io.Step();  // 2 - 1 = 1 < 5, CTA 1's remaining worst case
  EXPECT_FALSE(io.Granted());
  io.Alloc(1, 0);
  io.Alloc(1, 0);
  io.Step();
  EXPECT_TRUE(io.Granted());
  io.Eval();
  EXPECT_TRUE(io.Throttle());  // 0 < min(3, 5)
  for (int k = 0; k < 3; ++k)
    io.Release(2, 0);
  io.Step();
  io.Eval();
  // 3 free, counters 3 and 8: 3 < 3 is false, both issue again.
  EXPECT_FALSE(io.Throttle());
  EXPECT_TRUE(io.IssueOk(1) && io.IssueOk(2));
  EXPECT_EQ(io.model.Failure(), "");
  EXPECT_GT(io.model.throttled_cycles(), 0u);
}

TEST(CtaThrottleModel, ReservationMovesOnlyToACtaEveryBankCanServe) {
  ThrottleIo io(Small(3, 2));
  io.Launch(0, {4, 8});
  io.Step();
  for (int k = 0; k < 4; ++k)
    io.Alloc(0, 0);
  io.Step();  // bank 0: 4 free; counter of CTA 0: 0 + 8
  EXPECT_TRUE(io.Granted());
  io.Launch(1, {5, 0});
  io.Step();
  io.Eval();
  // CTA 1 has the smaller counter (5 < 8) but bank 0 cannot serve its 5: CTA 0 stays.
  EXPECT_EQ(io.Reserved(), 0);
  io.Release(0, 0);
  io.Step();  // bank 0: 5 free; the reservation moves only at a launch or exit
  io.Eval();
  EXPECT_EQ(io.Reserved(), 0);
  io.Launch(2, {8, 8});
  io.Step();
  io.Eval();
  EXPECT_EQ(io.Reserved(), 1);
  EXPECT_EQ(io.model.Failure(), "");
}

TEST(CtaThrottleModel, SpillFallbackForACtaLargerThanTheBank) {
  ThrottleIo io(Small(2, 1));
  io.Launch(0, {10});  // more than the bank's 8: spill mode
  io.Step();
  io.Launch(1, {2});
  io.Step();
  io.Eval();
  EXPECT_TRUE(io.SpillMode());
  EXPECT_EQ(io.Reserved(), 1);  // counter 2 < 10, and the bank serves it
  for (int k = 0; k < 4; ++k)
    io.Alloc(0, 0);
  io.Step();
  for (int k = 0; k < 2; ++k)
    io.Alloc(0, 0);
  io.Step();  // 8 - 6 = 2 keeps CTA 1's worst case
  EXPECT_TRUE(io.Granted());
  io.Alloc(0, 0);
  io.Step();
  EXPECT_FALSE(io.Granted());
  io.Alloc(1, 0);
  io.Alloc(1, 0);
  io.Step();
  EXPECT_TRUE(io.Granted());
  io.Release(1, 0);
  io.Release(1, 0);
  io.Exit(1);
  io.Step();
  io.Eval();
  EXPECT_EQ(io.Reserved(), 0);
  EXPECT_EQ(io.Free(0), 2);
  // The reserved CTA's group of 4 with 2 free: granted in spill mode, 2 spills, released (here
  // of its own registers, the only ones mapped) in the same cycle.
  for (int k = 0; k < 4; ++k)
    io.Alloc(0, 0);
  io.Release(0, 0);
  io.Release(0, 0);
  io.Step();
  EXPECT_TRUE(io.Granted());
  EXPECT_EQ(io.Spill(0), 2);
  io.Eval();
  EXPECT_EQ(io.Free(0), 0);
  EXPECT_EQ(io.model.Held(0, 0), 8);
  EXPECT_EQ(io.model.Failure(), "");
  EXPECT_EQ(io.model.spills(), 2u);
}

TEST(CtaThrottleModel, SpillsNotReleasedBreakTheContract) {
  ThrottleIo io(Small(2, 1));
  io.Launch(0, {12});
  io.Step();
  for (int k = 0; k < 4; ++k)
    io.Alloc(0, 0);
  io.Step();
  for (int k = 0; k < 4; ++k)
    io.Alloc(0, 0);
  io.Step();
  EXPECT_EQ(io.model.Failure(), "");
  io.Alloc(0, 0);
  io.Step();  // granted (spill mode) with nothing free and no spill released
  EXPECT_TRUE(io.Granted());
  EXPECT_EQ(io.Spill(0), 1);
  EXPECT_NE(io.model.Failure().find("C1 violated: bank 0 grants 1 with 0 free"), std::string::npos)
      << io.model.Failure();
}

TEST(CtaThrottleModel, ContractViolationsAreReported) {
  {
    ThrottleIo io(Small());
    io.Launch(0, {4});
    io.Step();
    io.Alloc(0, 0);
    io.Step();
    io.Exit(0);
    io.Step();
    EXPECT_NE(io.model.Failure().find("C1 violated: slot 0 exits holding 1"), std::string::npos)
        << io.model.Failure();
  }
  {
    ThrottleIo io(Small());
    io.Launch(0, {4});
    io.Step();
    io.Release(0, 0);
    io.Step();
    EXPECT_NE(
        io.model.Failure().find("C1 violated: slot 0 releases 1 registers of bank 0, holds 0"),
        std::string::npos)
        << io.model.Failure();
  }
  {
    ThrottleIo io(Small());
    io.Launch(0, {1});
    io.Step();
    io.Alloc(0, 0);
    io.Alloc(0, 0);
    io.Step();
    EXPECT_NE(io.model.Failure().find("beyond its C = 1"), std::string::npos) << io.model.Failure();
  }
  {
    ThrottleIo io(Small());
    io.Launch(0, {1});
    io.Step();
    io.Launch(0, {1});
    io.Step();
    EXPECT_NE(io.model.Failure().find("launch into slot 0, which is not free"), std::string::npos)
        << io.model.Failure();
  }
}

TEST(CtaThrottleModel, ResetFreesEverything) {
  ThrottleIo io(Small());
  io.Launch(0, {20});
  io.Step();
  io.Alloc(0, 0);
  io.Step();
  io.in[CtaThrottlePort::kRstN] = Bits(1, 0);
  io.Step();
  io.Eval();
  EXPECT_EQ(io.Free(0), 8);
  EXPECT_EQ(io.Reserved(), -1);
  EXPECT_FALSE(io.SpillMode());
  EXPECT_FALSE(io.IssueOk(0));
  EXPECT_EQ(io.model.Failure(), "");
}

// The stimulus of gpurf verify keeps the contract and reaches the throttle, refusals, spills and
// reservation changes on the paper's configuration.
TEST(CtaThrottleStimulus, ReachesEveryCornerWithinTheContract) {
  const CtaThrottleSpec spec = test::MakeThrottleSpec({});
  CtaThrottleModel model(spec);
  CtaThrottleStimulus stim(spec, 5);
  PortValues in = CtaThrottlePortTable(spec).ZeroValues(), out = in, def = in;
  uint64_t refused = 0, reserved_changes = 0, issue_blocked = 0;
  int last_reserved = -1;
  for (uint64_t c = 0; c < 200000 && model.Failure().empty(); ++c) {
    stim.Next(c, in);
    model.Outputs(in, out, def);
    stim.Observe(c, out);
    if (in[CtaThrottlePort::kAllocValid].any() && !out[CtaThrottlePort::kAllocGrant].bit(0))
      ++refused;
    if (model.Reserved() != last_reserved) {
      ++reserved_changes;
      last_reserved = model.Reserved();
    }
    for (int i = 0; i < spec.slots; ++i)
      issue_blocked += model.Alive(i) && !out[CtaThrottlePort::kIssueOk].bit(i) ? 1 : 0;
    model.Clock(in);
  }
  EXPECT_EQ(model.Failure(), "");
  EXPECT_GT(model.grants(), 10000u);
  EXPECT_GT(model.throttled_cycles(), 1000u);
  EXPECT_GT(issue_blocked, 1000u);
  EXPECT_GT(refused, 1000u);
  EXPECT_GT(model.spills(), 10u);
  EXPECT_GT(reserved_changes, 100u);
  std::printf(
      "[ info     ] grants %llu, throttled cycles %llu, refusals %llu, spills %llu, "
      "reservation changes %llu\n",
      static_cast<unsigned long long>(model.grants()),
      static_cast<unsigned long long>(model.throttled_cycles()),
      static_cast<unsigned long long>(refused), static_cast<unsigned long long>(model.spills()),
      static_cast<unsigned long long>(reserved_changes));
}

}  // namespace
}  // namespace gpurf
