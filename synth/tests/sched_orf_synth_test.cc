// Yosys synthesis of small warp schedulers and ORF levels onto OSU018, against hand-computed
// flip-flop counts: the scheduler keeps exactly its state (slots, per-warp active and waiting
// bits, issue and activation pointers, greedy's hold bit), all with asynchronous reset; an ORF
// level is its flop-array storage only (A x entries rows of Width flip-flops, three banks when
// split, one clock-gate latch per row), because validity is a checker, not hardware.
#include <gtest/gtest.h>

#include <map>
#include <regex>

#include "base/fs.h"
#include "gen/structures/orf/orf_gen.h"
#include "gen/structures/warp_scheduler/warp_scheduler_gen.h"
#include "synth/synth.h"
#include "verif/harness/verilator_build.h"
#include "verif/tests/sched_orf_test_util.h"

namespace gpurf {
namespace {

int Sequential(const ModuleSynthResult& r, bool latches) {
  int n = 0;
  for (const auto& c : r.cells) {
    const bool latch = c.cell.find("LATCH") != std::string::npos;
    if (c.sequential && latch == latches)
      n += c.count;
  }
  return n;
}

class SynthSchedOrf : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    lib_ = new LibertyLibrary(LoadLiberty(DefaultLibertyPath()));
    rtl_.push_back(EmitWarpScheduler(test::MakeSchedSpec({4, 2, false})));
    rtl_.push_back(EmitWarpScheduler(test::MakeSchedSpec({6, 3, true})));
    rtl_.push_back(EmitOrf(test::MakeOrfSpec({1, 2, 2, 8, false, false, false, true})));
    rtl_.push_back(EmitOrf(test::MakeOrfSpec({0, 1, 2, 8, true, false, false, true})));
    std::vector<const GeneratedStructure*> gs;
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

// Flip-flops of the mapped netlist by the register their Q output drives ("slot_warp_q", ...).
std::map<std::string, int> FlopsByRegister(const ModuleSynthResult& r) {
  const std::string netlist = ReadFile(r.work_dir / "netlist.v");
  static const std::regex q(R"(\.Q\(\\?([A-Za-z_][A-Za-z0-9_]*))");
  std::map<std::string, int> n;
  for (auto it = std::sregex_iterator(netlist.begin(), netlist.end(), q);
       it != std::sregex_iterator(); ++it)
    ++n[(*it)[1].str()];
  return n;
}

TEST_F(SynthSchedOrf, SchedulerFlopsAreExactlyItsState) {
  struct Expect {
    int warps, active, warp_id_width, slot_width;
    bool greedy;
  };
  const Expect ex[] = {{4, 2, 2, 1, false}, {6, 3, 3, 2, true}};
  for (int i = 0; i < 2; ++i) {
    const auto& e = ex[i];
    const auto& r = results_[i];
    SCOPED_TRACE(r.top);
    std::map<std::string, int> want = {
        {"slot_valid_q", e.active}, {"slot_warp_q", e.active * e.warp_id_width},
        {"active_q", e.warps},      {"waiting_q", e.warps},
        {"last_q", e.slot_width},   {"outer_q", e.warp_id_width}};
    if (e.greedy)
      want["hold_q"] = 1;
    EXPECT_EQ(FlopsByRegister(r), want);  // binary pointers: fsm_encoding keeps them as written
    int total = 0;
    for (const auto& [name, n] : want)
      total += n;
    EXPECT_EQ(Sequential(r, false), total);  // no other flip-flop anywhere
    EXPECT_EQ(Sequential(r, true), 0);
    EXPECT_EQ(r.count_of("DFFSR"), total);  // every state bit has the asynchronous reset
    EXPECT_TRUE(r.timing.available) << r.timing.reason;
  }
}

TEST_F(SynthSchedOrf, OrfIsItsStorageOnly) {
  // L1: 2 entries x 2 slots x 8 bits, one gated row each.
  EXPECT_EQ(results_[2].count_of("DFFPOSX1"), 2 * 2 * 8);
  EXPECT_EQ(Sequential(results_[2], false), 2 * 2 * 8);
  EXPECT_EQ(Sequential(results_[2], true), 4);
  // Split L0: three banks of 2 slots x 8 bits.
  EXPECT_EQ(results_[3].count_of("DFFPOSX1"), 3 * 2 * 8);
  EXPECT_EQ(Sequential(results_[3], true), 3 * 2);
  for (int i = 2; i < 4; ++i)
    EXPECT_TRUE(results_[i].timing.available) << results_[i].timing.reason;
}

}  // namespace
}  // namespace gpurf
