// The flip-flop array across its parameter space, through the same code path as `gpurf lint`
// and `gpurf verify`: every shape below is generated, linted by Verilator, Yosys and Icarus
// (Verilator and Icarus in simulation and synthesis views, Yosys in the synthesis view), built with
// Verilator and run for 100k cycles in lockstep with the golden model under the full stimulus
// (reset, sweep, random, collisions, back-to-back, read-after-write, hot addresses, idle, data
// patterns, reset pulses). Shapes cover entries 1..300 (powers of two and not), width 1..1024,
// R 1..8, W 1..4, both read modes, bypass on and off, clock gating on and off. The largest row
// counts (1000 and 1024 entries, 10-bit addresses) take over a minute each to build and run, so
// they are soak tests (soak_flop_array_*, verif/tests/CMakeLists.txt). A third of the shapes run
// in the default suite and the rest in the soak suite (test::MatrixPoints).
#include <gtest/gtest.h>

#include "gen/structures/flop_array/flop_array_gen.h"
#include "gen/structures/flop_array/flop_array_spec.h"
#include "verif/lint/lint.h"
#include "verif/tests/rtl_test_util.h"
#include "verif/tests/test_util.h"
#include "verif/verify.h"

namespace gpurf {
namespace {

using test::Shape;

const Shape kShapes[] = {
    // entries, width, R, W, registered, bypass, clock_gate
    {1, 1, 1, 1, false, false, true},    {1, 1, 1, 1, true, true, false},
    {2, 8, 2, 1, false, true, true},     {3, 1, 1, 2, true, false, true},
    {5, 128, 3, 3, true, true, true},    {7, 200, 6, 2, true, false, false},
    {24, 128, 3, 1, false, false, true}, {8, 128, 1, 1, false, false, true},
    {48, 128, 3, 1, false, false, true}, {48, 128, 3, 1, true, false, true},
    {64, 128, 3, 1, false, true, false}, {100, 33, 4, 2, false, false, true},
    {17, 65, 5, 3, true, true, true},    {256, 32, 2, 2, false, false, false},
    {300, 16, 1, 1, true, false, true},  {31, 64, 6, 1, false, true, true},
    {9, 1, 2, 3, false, true, true},     {12, 32, 2, 2, true, true, true},
    {40, 64, 1, 1, false, false, false}, {6, 96, 4, 1, true, true, false},
    {257, 8, 3, 2, false, false, true},  {2, 1024, 1, 1, true, false, true},
    {33, 127, 3, 3, false, true, true},  {128, 128, 6, 3, true, false, true},
    {15, 7, 8, 4, false, true, true},    {4, 4, 1, 4, true, false, false},
};

class FlopArrayMatrix : public ::testing::TestWithParam<size_t> {};

TEST_P(FlopArrayMatrix, LintsCleanAndMatchesModel) {
  const size_t index = GetParam();
  const FlopArraySpec spec = test::MakeSpec(kShapes[index]);
  const GeneratedStructure rtl = EmitFlopArray(spec);

  test::ExpectLintClean(rtl);

  VerifyOptions opt;
  opt.cycles = 100000;
  opt.seed = 1000 + index;
  opt.build.jobs = 1;
  opt.waveform_dir = fs::temp_directory_path() / "gpurf-matrix-waves";
  const VerifyResult r = VerifyStructure(spec, rtl, opt);
  EXPECT_TRUE(r.passed()) << r.Summary();
  EXPECT_EQ(r.run.cycles, opt.cycles);
  // The comparison was not vacuous: after the sweep nearly every cycle has defined data.
  EXPECT_GT(r.run.checked_cycles, opt.cycles * 9 / 10) << r.Summary();
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, FlopArrayMatrix,
    ::testing::ValuesIn(test::MatrixPoints(std::size(kShapes), test::MatrixSuite::kDefault)),
    [](const ::testing::TestParamInfo<size_t>& p) { return kShapes[p.param].Name(); });
INSTANTIATE_TEST_SUITE_P(
    MoreShapes, FlopArrayMatrix,
    ::testing::ValuesIn(test::MatrixPoints(std::size(kShapes), test::MatrixSuite::kSoak)),
    [](const ::testing::TestParamInfo<size_t>& p) { return kShapes[p.param].Name(); });

// Write-data segmentation at explicit segment sizes (the shapes above use "auto": segments of
// 8 rows from 24 entries up, off below), including partial last segments and several write
// ports, and "off" on a large array.
struct SegmentedShape {
  Shape shape;
  const char* segment_rows;
};

const SegmentedShape kSegmented[] = {
    {{48, 128, 3, 1, false, false, true}, "2"},   {{100, 33, 4, 2, false, true, true}, "16"},
    {{17, 65, 5, 3, true, true, true}, "4"},      {{64, 8, 2, 4, false, false, false}, "32"},
    {{300, 16, 2, 2, true, false, true}, "256"},  {{48, 128, 3, 1, false, false, true}, "off"},
    {{24, 32, 2, 1, false, false, true}, "auto"},
};

class FlopArraySegments : public ::testing::TestWithParam<size_t> {};

TEST_P(FlopArraySegments, LintsCleanAndMatchesModel) {
  const size_t index = GetParam();
  const SegmentedShape& c = kSegmented[index];
  ParamSet p = test::MakeSpec(c.shape).params;
  p.Set("write_segment_rows", c.segment_rows, {}, "write_segment_rows");
  const FlopArraySpec spec = FlopArraySpec::FromParams(p);
  const std::string seg = c.segment_rows;
  EXPECT_EQ(spec.segmented(), seg != "off") << seg;
  const GeneratedStructure rtl = EmitFlopArray(spec);
  const std::string& top = rtl.files.back().contents;
  EXPECT_EQ(top.find("gen_write_segments") != std::string::npos, spec.segmented());

  test::ExpectLintClean(rtl);

  VerifyOptions opt;
  opt.cycles = 100000;
  opt.seed = 2000 + index;
  opt.build.jobs = 1;
  opt.waveform_dir = fs::temp_directory_path() / "gpurf-matrix-waves";
  const VerifyResult r = VerifyStructure(spec, rtl, opt);
  EXPECT_TRUE(r.passed()) << r.Summary();
  EXPECT_EQ(r.run.cycles, opt.cycles);
  EXPECT_GT(r.run.checked_cycles, opt.cycles * 9 / 10) << r.Summary();
}

INSTANTIATE_TEST_SUITE_P(Shapes, FlopArraySegments,
                         ::testing::ValuesIn(test::MatrixPoints(std::size(kSegmented),
                                                                test::MatrixSuite::kDefault)),
                         [](const ::testing::TestParamInfo<size_t>& p) {
                           return kSegmented[p.param].shape.Name() + "_seg_" +
                                  kSegmented[p.param].segment_rows;
                         });
INSTANTIATE_TEST_SUITE_P(MoreShapes, FlopArraySegments,
                         ::testing::ValuesIn(test::MatrixPoints(std::size(kSegmented),
                                                                test::MatrixSuite::kSoak)),
                         [](const ::testing::TestParamInfo<size_t>& p) {
                           return kSegmented[p.param].shape.Name() + "_seg_" +
                                  kSegmented[p.param].segment_rows;
                         });

}  // namespace
}  // namespace gpurf
