// The hardware register file cache across its parameter space, through the same code path as
// `gpurf lint` and `gpurf verify`: every shape below is generated, linted by Verilator, Yosys and
// Icarus (with and without assertions), built with Verilator (assertions on) and run for 100k
// cycles in lockstep with the golden model under the full stimulus (eviction chains, flushes
// with dirty entries, dead hints, long-latency bypass, not-for-L0 results, repeated writes of
// one register, all slots, write-back back-pressure, reset pulses), with the model's invariant
// checks and scoreboard on. Shapes cover 1 and 2 levels, FIFO and LRU, 1..32 slots (powers of
// two and not), 1..8 entries per level (L0 larger than L1 included), widths 1..128, register ids
// of 2..6 bits (entries per slot up to the number of registers), clock gating on and off.
#include <gtest/gtest.h>

#include "gen/structures/rfc/rfc_gen.h"
#include "gen/structures/rfc/rfc_spec.h"
#include "verif/lint/lint.h"
#include "verif/tests/rfc_test_util.h"
#include "verif/tests/rtl_test_util.h"
#include "verif/verify.h"

namespace gpurf {
namespace {

using test::RfcShape;

const RfcShape kShapes[] = {
    // active_warps, levels, l1, l0, width, reg_bits, lru, clock_gate
    {8, 1, 6, 0, 128, 6, false, true},  // Gebhart's baseline RFC (FIFO), 6 entries
    {8, 1, 6, 0, 128, 6, true, true},   // Figure 24 "HW RFC" with LRU
    {8, 2, 6, 1, 128, 6, true, true},   // Figure 24 "HW L0+L1 RFC"
    {8, 1, 3, 0, 128, 6, true, false},  // 3 entries (most efficient 2-level HW design)
    {1, 1, 1, 0, 32, 6, false, true},   // degenerate: one slot, one entry
    {5, 1, 3, 0, 65, 4, true, true},    // non-power-of-two slots and width
    {3, 2, 2, 2, 16, 3, false, true},   // two levels of equal size, 8 registers
    {6, 2, 1, 8, 1, 4, true, false},    // L0 larger than L1, 1-bit data
    {32, 1, 8, 0, 8, 6, true, true},    // maximum slots and entries
    {4, 2, 3, 1, 32, 2, false, true},   // 4 registers, 4 entries per slot: constant pressure
};

class RfcMatrix : public ::testing::TestWithParam<size_t> {};

TEST_P(RfcMatrix, LintsCleanAndMatchesModel) {
  const size_t index = GetParam();
  const RfcSpec spec = test::MakeRfcSpec(kShapes[index]);
  const GeneratedStructure rtl = EmitRfc(spec);

  test::ExpectLintClean(rtl);

  VerifyOptions opt;
  opt.cycles = 100000;
  opt.seed = 2000 + index;
  opt.build.jobs = 1;
  opt.waveform_dir = fs::temp_directory_path() / "gpurf-rfc-matrix-waves";
  const VerifyResult r = VerifyStructure(spec, rtl, opt);
  EXPECT_TRUE(r.passed()) << r.Summary();
  EXPECT_EQ(r.run.cycles, opt.cycles);
  EXPECT_EQ(r.run.checked_cycles, opt.cycles) << r.Summary();
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, RfcMatrix,
    ::testing::ValuesIn(test::MatrixPoints(std::size(kShapes), test::MatrixSuite::kDefault)),
    [](const ::testing::TestParamInfo<size_t>& p) { return kShapes[p.param].Name(); });
INSTANTIATE_TEST_SUITE_P(
    MoreShapes, RfcMatrix,
    ::testing::ValuesIn(test::MatrixPoints(std::size(kShapes), test::MatrixSuite::kSoak)),
    [](const ::testing::TestParamInfo<size_t>& p) { return kShapes[p.param].Name(); });

}  // namespace
}  // namespace gpurf
