// Yosys synthesis of small flop arrays onto OSU018, checked against hand-computed bounds:
// one flip-flop per storage bit, one latch per gated row, cell counts that add up to the
// total area, more area for more entries, the cache and OpenSTA timing.
#include "synth/synth.h"

#include <gtest/gtest.h>

#include <map>

#include "base/diag.h"
#include "gen/structures/flop_array/flop_array_gen.h"
#include "verif/harness/verilator_build.h"
#include "verif/tests/test_util.h"

namespace gpurf {
namespace {

const test::Shape kShapes[] = {
    {4, 8, 1, 1, false, false, true},    // 4x8 1R1W, clock gating
    {8, 8, 1, 1, false, false, true},    // the same with entries doubled
    {8, 16, 2, 1, false, false, true},   // 8x16 2R1W, clock gating
    {8, 16, 2, 1, false, false, false},  // 8x16 2R1W, no clock gating
};

class SynthFlopArrays : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    lib_ = new LibertyLibrary(LoadLiberty(DefaultLibertyPath()));
    std::vector<const GeneratedStructure*> gs;
    for (const auto& s : kShapes) {
      rtl_.push_back(EmitFlopArray(test::MakeSpec(s)));
    }
    for (const auto& g : rtl_)
      gs.push_back(&g);
    SynthOptions opt;
    opt.jobs = 2;
    results_ = SynthesizeAll(gs, *lib_, opt);
  }
  static void TearDownTestSuite() {
    delete lib_;
    lib_ = nullptr;
  }
  static inline LibertyLibrary* lib_ = nullptr;
  static inline std::vector<GeneratedStructure> rtl_;
  static inline std::vector<ModuleSynthResult> results_;
};

TEST_F(SynthFlopArrays, AreaIsAtLeastOneFlipFlopPerBit) {
  const double ff = lib_->SmallestFlipFlop()->area;
  ASSERT_GT(ff, 0);
  for (size_t i = 0; i < results_.size(); ++i) {
    const auto& s = kShapes[i];
    const auto& r = results_[i];
    SCOPED_TRACE(r.top);
    EXPECT_GT(r.total_area, 0);
    EXPECT_EQ(r.area_unit, "um^2");
    EXPECT_GE(r.sequential_area, s.entries * s.width * ff);
    EXPECT_GT(r.combinational_area, 0);
    EXPECT_DOUBLE_EQ(r.sequential_area + r.combinational_area, r.total_area);
    // Storage bits are DFFPOSX1 flops (no reset on storage, comb read: nothing else clocked).
    EXPECT_EQ(r.count_of("DFFPOSX1"), s.entries * s.width);
  }
}

TEST_F(SynthFlopArrays, CellCountsAddUpToTotalArea) {
  for (const auto& r : results_) {
    SCOPED_TRACE(r.top);
    double sum = 0, seq = 0;
    int n = 0;
    for (const auto& c : r.cells) {
      const LibertyCell* lc = lib_->Find(c.cell);
      ASSERT_NE(lc, nullptr) << c.cell;
      EXPECT_EQ(c.sequential, lc->sequential());
      if (!c.estimated) {
        EXPECT_DOUBLE_EQ(c.area_each, lc->area);
      } else {
        EXPECT_EQ(lc->area, 0);
        EXPECT_DOUBLE_EQ(c.area_each, lib_->SmallestFlipFlop()->area);
      }
      sum += c.count * c.area_each;
      seq += c.sequential ? c.count * c.area_each : 0;
      n += c.count;
    }
    EXPECT_DOUBLE_EQ(sum, r.total_area);
    EXPECT_DOUBLE_EQ(seq, r.sequential_area);
    EXPECT_EQ(n, r.cell_count());
    // Yosys's own figure counts zero-area cells as zero; everything else must agree.
    ASSERT_TRUE(r.yosys_chip_area.has_value());
    double lib_only = 0;
    for (const auto& c : r.cells)
      lib_only += c.estimated ? 0 : c.area();
    EXPECT_NEAR(*r.yosys_chip_area, lib_only, 1e-6 * lib_only);
  }
}

TEST_F(SynthFlopArrays, ClockGateLatchesAreMappedAndNeverFree) {
  for (size_t i = 0; i < results_.size(); ++i) {
    const auto& r = results_[i];
    SCOPED_TRACE(r.top);
    if (kShapes[i].clock_gate) {
      // One gpurf_clock_gate (latch + AND) per row.
      EXPECT_EQ(r.count_of("LATCH"), kShapes[i].entries);
      ASSERT_FALSE(r.notes.empty());
      EXPECT_NE(r.notes.front().find("LATCH"), std::string::npos);
      bool estimated = false;
      for (const auto& c : r.cells)
        estimated |= c.cell == "LATCH" && c.estimated && c.area_each > 0;
      EXPECT_TRUE(estimated);
    } else {
      EXPECT_EQ(r.count_of("LATCH"), 0);
    }
    EXPECT_EQ(ReadFile(r.work_dir / "netlist.v").find("$_DLATCH"), std::string::npos);
  }
}

TEST_F(SynthFlopArrays, DoublingEntriesIncreasesArea) {
  EXPECT_GT(results_[1].total_area, results_[0].total_area);
  EXPECT_GT(results_[1].sequential_area, results_[0].sequential_area);
}

TEST_F(SynthFlopArrays, StaGivesPositiveCriticalPath) {
  for (const auto& r : results_) {
    SCOPED_TRACE(r.top);
    ASSERT_TRUE(r.timing.available) << r.timing.reason;
    EXPECT_GT(r.timing.critical_path_ns, 0);
    EXPECT_LT(r.timing.critical_path_ns, r.clock_period_ns);
    EXPECT_NEAR(r.timing.fmax_mhz, 1000.0 / r.timing.critical_path_ns, 1e-9);
    EXPECT_FALSE(r.timing.endpoint.empty());
  }
}

TEST_F(SynthFlopArrays, ReportsCarryEveryModule) {
  const auto j = SynthesisJson(results_);
  ASSERT_EQ(j["modules"].size(), results_.size());
  EXPECT_EQ(j["modules"][0]["module"], results_[0].top);
  EXPECT_EQ(j["modules"][0]["area_unit"], "um^2");
  const std::string md = SynthesisMarkdown(results_);
  const std::string csv = SynthesisCsv(results_);
  for (const auto& r : results_) {
    EXPECT_NE(md.find(r.top), std::string::npos);
    EXPECT_NE(csv.find(r.top), std::string::npos);
  }
}

TEST(SynthCache, SecondRunDoesNotInvokeYosys) {
  const fs::path cache = MakeTempDir(fs::temp_directory_path(), "gpurf-synth-cache-test");
  const LibertyLibrary lib = LoadLiberty(DefaultLibertyPath());
  const GeneratedStructure g = EmitFlopArray(test::MakeSpec({2, 4, 1, 1, false, false, true}));
  SynthOptions opt;
  opt.cache_dir = cache;
  const ModuleSynthResult a = SynthesizeModule(g, lib, opt);
  EXPECT_FALSE(a.from_cache);
  const ModuleSynthResult b = SynthesizeModule(g, lib, opt);
  EXPECT_TRUE(b.from_cache);
  EXPECT_EQ(a.work_dir, b.work_dir);
  EXPECT_DOUBLE_EQ(a.total_area, b.total_area);
  EXPECT_EQ(a.timing.critical_path_ns, b.timing.critical_path_ns);
  fs::remove_all(cache);
}

TEST(SynthErrors, YosysFailureIsToolErrorWithLogTail) {
  const fs::path cache = MakeTempDir(fs::temp_directory_path(), "gpurf-synth-err-test");
  const LibertyLibrary lib = LoadLiberty(DefaultLibertyPath());
  GeneratedStructure g = EmitFlopArray(test::MakeSpec({2, 4, 1, 1, false, false, false}));
  g.files.back().contents += "\nthis is not verilog\n";
  SynthOptions opt;
  opt.cache_dir = cache;
  try {
    SynthesizeModule(g, lib, opt);
    FAIL() << "no error";
  } catch (const ToolError& e) {
    EXPECT_NE(std::string(e.what()).find("Yosys synthesis of " + g.top + " failed"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("ERROR"), std::string::npos) << e.what();
  }
  // Nothing half-built is left in the cache.
  EXPECT_TRUE(fs::is_empty(cache / "synth"));
  fs::remove_all(cache);
}

TEST(SynthErrors, BadLibertyPathIsInputError) {
  EXPECT_THROW(LoadLiberty("/no/such/library.lib"), InputError);
}

}  // namespace
}  // namespace gpurf
