// The availability-vectors golden model against hand-worked cycles: the paper's sizes (4 x 256
// bits), parameter rejections, the first request waking subarray 0, the wake-up latency as a
// stall, fill subarray k before waking k+1, gating when a subarray empties, full banks answering
// none, free counts, the contract. Then the stimulus of gpurf verify reaching every corner the
// model distinguishes.
#include "models/availability_vectors_model.h"

#include <gtest/gtest.h>

#include "base/diag.h"
#include "verif/stimulus/availability_vectors_stimulus.h"
#include "verif/tests/jeon_test_util.h"

namespace gpurf {
namespace {

using test::AvailIo;

TEST(AvailabilityVectorsSpec, PaperSizes) {
  // Four 256-bit vectors: 1024 physical registers, 10-bit ids, 9-bit free counts (0..256).
  const AvailabilityVectorsSpec s = test::MakeAvailSpec({});
  EXPECT_EQ(s.PhysRegs(), 1024);
  EXPECT_EQ(s.id_bits, 10);
  EXPECT_EQ(s.count_bits, 9);
  EXPECT_EQ(s.sub_rows, 64);
  EXPECT_EQ(s.wake_cycles, 1);
  // Row r of bank b is id r*4 + b: the bank is the id's low bits.
  EXPECT_EQ(s.Id(3, 5), 23);
  EXPECT_EQ(s.BankOf(23), 3);
  EXPECT_EQ(s.RowOf(23), 5);
}

TEST(AvailabilityVectorsSpec, RejectsBadParametersWithTheAllowedRange) {
  EXPECT_THROW(test::MakeAvailSpec({.banks = 3}), InputError);
  try {
    test::MakeAvailSpec({.regs_per_bank = 96, .subarrays = 5});
    FAIL() << "5 subarrays of 96 registers accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("subarrays"), std::string::npos) << e.what();
  }
  EXPECT_EQ(test::MakeAvailSpec({.regs_per_bank = 96, .subarrays = 3}).sub_rows, 32);
}

TEST(AvailabilityVectorsModel, FirstRequestWakesSubarrayZero) {
  AvailIo io(test::SmallAvailSpec(1));
  io.Request(1);
  io.Step();  // nothing powered: the request starts the wake-up of subarray 0 and stalls
  EXPECT_FALSE(io.Granted(1));
  EXPECT_FALSE(io.None(1));
  EXPECT_EQ(io.Free(1), 8);
  io.Step();  // one cycle later: row 0 of bank 1, id 0*2 + 1
  EXPECT_TRUE(io.Powered(1, 0));
  EXPECT_FALSE(io.Powered(1, 1));
  EXPECT_FALSE(io.Powered(0, 0));
  ASSERT_TRUE(io.Granted(1));
  EXPECT_EQ(io.GrantId(1), 1);
  io.Step();  // the held request takes row 1
  EXPECT_EQ(io.GrantId(1), 3);
  EXPECT_EQ(io.Free(1), 7);
  EXPECT_EQ(io.model.wakeups(), 1u);
}

TEST(AvailabilityVectorsModel, WakeUpLatencyStallsTheRequest) {
  AvailIo io(test::SmallAvailSpec(3));
  io.Request(0);
  io.Step();  // cycle 0: starts the wake-up
  EXPECT_FALSE(io.Granted(0));
  EXPECT_FALSE(io.Waking(0));
  io.Step();  // cycles 1 and 2: waking
  EXPECT_TRUE(io.Waking(0));
  EXPECT_FALSE(io.Granted(0));
  io.Step();
  EXPECT_TRUE(io.Waking(0));
  EXPECT_FALSE(io.Granted(0));
  io.Step();  // cycle 3 = W cycles after the start: granted
  EXPECT_FALSE(io.Waking(0));
  EXPECT_TRUE(io.Powered(0, 0));
  ASSERT_TRUE(io.Granted(0));
  EXPECT_EQ(io.GrantId(0), 0);
}

TEST(AvailabilityVectorsModel, FillsSubarrayBeforeWakingTheNextAndGatesWhenEmpty) {
  AvailIo io(test::SmallAvailSpec(1));
  io.Request(0);
  io.Step();  // wakes subarray 0
  for (int row = 0; row < 4; ++row) {
    io.Step();
    ASSERT_TRUE(io.Granted(0)) << row;
    EXPECT_EQ(io.GrantId(0), row * 2) << row;
    EXPECT_FALSE(io.Powered(0, 1));
  }
  io.Step();  // subarray 0 full: wake subarray 1
  EXPECT_FALSE(io.Granted(0));
  io.Request(0, false);
  io.Step();  // the request was withdrawn: subarray 1 is powered and empty ...
  EXPECT_TRUE(io.Powered(0, 1));
  EXPECT_FALSE(io.Granted(0));
  io.Step();  // ... and gated at the next edge
  EXPECT_FALSE(io.Powered(0, 1));
  io.Request(0);
  io.Step();  // wake again
  io.Step();
  ASSERT_TRUE(io.Granted(0));
  EXPECT_EQ(io.GrantId(0), 8);  // row 4
  io.Request(0, false);
  io.Release(0, 8);
  io.Step();  // release the only register of subarray 1: gated at this edge
  EXPECT_TRUE(io.Powered(0, 1));
  EXPECT_EQ(io.Free(0), 3);
  io.Release(0, 0);
  io.Release(1, 2);
  io.Step();
  EXPECT_FALSE(io.Powered(0, 1));
  EXPECT_TRUE(io.Powered(0, 0));  // still holds rows 2 and 3
  EXPECT_EQ(io.Free(0), 4);
  io.Request(0);
  io.Step();  // the lowest free row of the powered subarray: row 0
  EXPECT_EQ(io.Free(0), 6);
  ASSERT_TRUE(io.Granted(0));
  EXPECT_EQ(io.GrantId(0), 0);
  EXPECT_TRUE(io.model.Failure().empty()) << io.model.Failure();
}

TEST(AvailabilityVectorsModel, FullBankAnswersNone) {
  AvailIo io(test::SmallAvailSpec(1));
  io.Request(1);
  int granted = 0;
  for (int c = 0; c < 20; ++c) {
    io.Step();
    granted += io.Granted(1) ? 1 : 0;
  }
  EXPECT_EQ(granted, 8);
  EXPECT_TRUE(io.None(1));
  EXPECT_FALSE(io.Granted(1));
  EXPECT_EQ(io.Free(1), 0);
  EXPECT_EQ(io.Free(0), 8);
  EXPECT_TRUE(io.Powered(1, 0) && io.Powered(1, 1));
}

TEST(AvailabilityVectorsModel, ReleaseOfAFreeRegisterBreaksTheContract) {
  AvailIo io(test::SmallAvailSpec(1));
  io.Release(0, 5);
  io.Step();
  EXPECT_NE(io.model.Failure().find("C1 violated"), std::string::npos) << io.model.Failure();
}

// The stimulus of gpurf verify reaches every corner: grants, full banks, wake-ups (held and
// withdrawn), gating, releases, on the paper's point and on a 3-cycle wake-up.
TEST(AvailabilityVectorsStimulus, ReachesEveryCorner) {
  for (const AvailabilityVectorsSpec& spec :
       {test::MakeAvailSpec({}), test::MakeAvailSpec({.banks = 2,
                                 .regs_per_bank = 32,
                                 .subarrays = 4,
                                 .wake_cycles = 3,
                                 .release_ports = 2})}) {
    SCOPED_TRACE(spec.module_name);
    AvailabilityVectorsModel model(spec);
    AvailabilityVectorsStimulus stim(spec, 5);
    PortValues in = AvailabilityVectorsPortTable(spec).ZeroValues(), out = in, def = in;
    uint64_t grants = 0, nones = 0, gatings = 0, releases = 0, waking = 0;
    std::vector<bool> was(static_cast<size_t>(spec.banks * spec.subarrays), false);
    for (uint64_t c = 0; c < 200000; ++c) {
      stim.Next(c, in);
      model.Outputs(in, out, def);
      for (int b = 0; b < spec.banks; ++b) {
        grants += out[AvailIo::P::kAllocGrant].bit(b);
        nones += out[AvailIo::P::kAllocNone].bit(b);
        waking += out[AvailIo::P::kWaking].bit(b);
      }
      for (int i = 0; i < spec.banks * spec.subarrays; ++i) {
        const bool on = out[AvailIo::P::kPowered].bit(i);
        gatings += (was[i] && !on && in[AvailIo::P::kRstN].bit(0)) ? 1 : 0;
        was[i] = on;
      }
      for (int p = 0; p < spec.release_ports; ++p)
        releases += in[AvailIo::P::kRelValid].bit(p);
      model.Clock(in);
      stim.Observe(c, out);
      ASSERT_TRUE(model.Failure().empty()) << model.Failure() << " at cycle " << c;
    }
    EXPECT_GT(grants, 10000u);
    EXPECT_GT(nones, 100u);
    EXPECT_GT(model.wakeups(), 100u);
    EXPECT_GT(gatings, 100u);
    EXPECT_GT(releases, 10000u);
    if (spec.wake_cycles > 1) {
      EXPECT_GT(waking, 100u);
    }
  }
}

}  // namespace
}  // namespace gpurf
