// The warp scheduler and the ORF levels across their parameter spaces, through the code paths of
// `gpurf lint` and `gpurf verify`: every configuration is generated, linted by Verilator, Yosys
// and Icarus (with and without assertions), built with Verilator (assertions on) and run for
// 100k cycles in lockstep with its golden model under the full stimulus, with zero mismatches
// and no assertion. Each run also proves it was not vacuous: outputs were compared on every
// cycle, and the stimulus reached the behaviour that matters (scheduler: issues, deschedules and
// activations by the hundred; ORF: enabled reads of live entries, invalidations, no misuse).
//   scheduler: W 1..64, A 1..W (A == 1, A == W, non-powers of two), greedy and round-robin;
//   orf-l1:    entries per thread 1..8, A 1..64, widths 1..128, both read modes, bypass, gating;
//   orf-l0:    split and unified, the same storage options.
#include <gtest/gtest.h>

#include "gen/structures/orf/orf_gen.h"
#include "gen/structures/orf/orf_spec.h"
#include "gen/structures/warp_scheduler/warp_scheduler_gen.h"
#include "gen/structures/warp_scheduler/warp_scheduler_spec.h"
#include "models/orf_model.h"
#include "models/warp_scheduler_model.h"
#include "verif/lint/lint.h"
#include "verif/stimulus/orf_stimulus.h"
#include "verif/stimulus/warp_scheduler_stimulus.h"
#include "verif/tests/rtl_test_util.h"
#include "verif/tests/sched_orf_test_util.h"
#include "verif/verify.h"

namespace gpurf {
namespace {

constexpr uint64_t kCycles = 100000;

// ------------------------------------------------------------------------------ scheduler

const test::SchedShape kSched[] = {
    // warps, active, greedy
    {32, 8, false}, {32, 8, true}, {1, 1, false}, {1, 1, true},   {4, 4, false}, {8, 8, true},
    {16, 1, false}, {16, 1, true}, {5, 3, true},  {64, 8, false}, {48, 6, true},
};

class SchedulerMatrix : public ::testing::TestWithParam<size_t> {};

TEST_P(SchedulerMatrix, LintsCleanAndMatchesModel) {
  const size_t index = GetParam();
  const WarpSchedulerSpec spec = test::MakeSchedSpec(kSched[index]);
  const GeneratedStructure rtl = EmitWarpScheduler(spec);
  test::ExpectLintClean(rtl);

  WarpSchedulerCycleModel model(spec);
  WarpSchedulerStimulus stim(spec, 2000 + index);
  const LockstepResult r = test::RunInLockstep(rtl, model, stim, kCycles, 2000 + index);
  EXPECT_TRUE(r.passed) << r.failure;
  EXPECT_EQ(r.cycles, kCycles);
  EXPECT_EQ(r.checked_cycles, kCycles);  // every output is defined every cycle
  const WarpScheduler& s = model.scheduler();
  EXPECT_GT(s.issues(), kCycles / 5);
  EXPECT_GT(s.deactivations(), 500U);
  EXPECT_GT(s.activations(), 500U);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, SchedulerMatrix,
    ::testing::ValuesIn(test::MatrixPoints(std::size(kSched), test::MatrixSuite::kDefault)),
    [](const ::testing::TestParamInfo<size_t>& p) { return kSched[p.param].Name(); });
INSTANTIATE_TEST_SUITE_P(
    MoreShapes, SchedulerMatrix,
    ::testing::ValuesIn(test::MatrixPoints(std::size(kSched), test::MatrixSuite::kSoak)),
    [](const ::testing::TestParamInfo<size_t>& p) { return kSched[p.param].Name(); });

// ------------------------------------------------------------------------------ ORF

const test::OrfShape kOrf[] = {
    // level, entries/thread, active, width, split, registered, bypass, clock_gate
    {1, 3, 8, 128, false, false, false, true},  // Gebhart's L1 (Table I design point)
    {1, 1, 1, 1, false, false, false, true},
    {1, 8, 8, 128, false, true, false, true},
    {1, 6, 6, 128, false, false, true, true},
    {1, 4, 4, 128, false, true, true, false},
    {1, 5, 3, 33, false, false, false, false},
    {1, 2, 64, 32, false, false, false, true},
    {1, 7, 5, 100, false, true, false, true},
    {0, 1, 8, 128, true, false, false, true},  // Gebhart's split L0
    {0, 1, 8, 128, false, false, false, true},
    {0, 1, 1, 1, true, false, false, true},
    {0, 1, 1, 1, false, true, false, true},
    {0, 1, 6, 64, true, true, true, true},
    {0, 1, 4, 128, false, false, true, true},
    {0, 1, 64, 32, true, false, false, false},
    {0, 1, 3, 17, false, true, true, false},
};

class OrfMatrix : public ::testing::TestWithParam<size_t> {};

TEST_P(OrfMatrix, LintsCleanAndMatchesModel) {
  const size_t index = GetParam();
  const OrfSpec spec = test::MakeOrfSpec(kOrf[index]);
  const GeneratedStructure rtl = EmitOrf(spec);
  test::ExpectLintClean(rtl);

  OrfCycleModel model(spec);
  OrfStimulus stim(spec, 3000 + index);
  const LockstepResult r = test::RunInLockstep(rtl, model, stim, kCycles, 3000 + index);
  EXPECT_TRUE(r.passed) << r.failure;
  EXPECT_EQ(r.cycles, kCycles);
  EXPECT_GT(r.checked_cycles, kCycles * 8 / 10);  // invalidations and resets leave some idle
  const OperandRegisterFile& orf = model.orf();
  EXPECT_EQ(orf.misuses(), 0U) << orf.first_misuse();
  EXPECT_GT(orf.reads(), kCycles);  // enabled reads of live entries, about 2 per cycle
  EXPECT_GT(orf.writes(), kCycles / 3);
  EXPECT_GT(orf.invalidations(), 200U);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, OrfMatrix,
    ::testing::ValuesIn(test::MatrixPoints(std::size(kOrf), test::MatrixSuite::kDefault)),
    [](const ::testing::TestParamInfo<size_t>& p) { return kOrf[p.param].Name(); });
INSTANTIATE_TEST_SUITE_P(
    MoreShapes, OrfMatrix,
    ::testing::ValuesIn(test::MatrixPoints(std::size(kOrf), test::MatrixSuite::kSoak)),
    [](const ::testing::TestParamInfo<size_t>& p) { return kOrf[p.param].Name(); });

}  // namespace
}  // namespace gpurf
