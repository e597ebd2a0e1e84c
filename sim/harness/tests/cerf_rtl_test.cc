// The cerf hierarchy with its tag array as RTL in the loop (label "rtl";
// sim/harness/transactors/tag_array_transactor.cc): a small cache-emulated register file (8
// warps, 32 KB integrated memory, 4-way, 4 tag banks) on the GTX480's memory system.
//   - Lockstep, both policies: corpus kernels run with the Verilated tag array and MRF beside
//     their golden models, zero divergence; timing, access counts and the cerf statistics are
//     the models-only run's, and the tag array saw register and memory lookups, spills or fills.
//   - A golden model with a flipped rsp_hit_o bit is reported (SM cycle, structure, signal,
//     expected, actual).
//   - A cerf system answer that differs from the RTL's is reported by the transactor (signal,
//     expected, actual), and so is a register address the system re-indexed differently.
//   - hierarchy.address_prefix other than -1 cannot run in the loop: exit 2 at the field.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

#include "base/diag.h"
#include "gen/structures/tag_array/tag_array_ports.h"
#include "models/registry.h"
#include "sim/harness/driver.h"
#include "sim/harness/hierarchies/cerf_system.h"
#include "sim/harness/tests/rtl_test_points.h"
#include "sim/harness/transactors/tag_array_transactions.h"

namespace gpurf::harness {
namespace {

using rtl_points::ExpectMentions;
using rtl_points::FlipBit;
using rtl_points::Kernel;
using rtl_points::Options;

std::string CerfText(const std::string& policy, const std::string& extra = "") {
  return fmt::format(
      "design:\n  name: c\nsm:\n  lanes: 32\n  lane_cluster: 4\n  warps: 8\n  active_warps: 4\n"
      "mrf:\n  banks: 32\n  entries: 64\n  width: 128\nhierarchy:\n  kind: cerf\n"
      "  replacement: {}\n  ways: 4\n  tag_banks: 4\n{}gpu:\n  preset: gtx480\n  sms: 1\n",
      policy, extra);
}

DesignSpec CerfDesign(const std::string& policy) {
  return LoadDesignFromString(CerfText(policy), "cerf.yaml");
}

uint64_t Extra(const RfStats& s, const std::string& name) {
  for (const auto& [n, v] : s.extra) {
    if (n == name)
      return v;
  }
  ADD_FAILURE() << "no statistic " << name;
  return 0;
}

constexpr const char* kCerfKernels[] = {"vectorAdd", "histogram", "matrixMul", "transpose"};

class CerfLockstep : public testing::TestWithParam<std::string> {};

TEST_P(CerfLockstep, ZeroDivergenceAndTheModelsTotals) {
  const DesignSpec d = CerfDesign(GetParam());
  uint64_t reg_lookups = 0, mem_lookups = 0, replaced = 0;
  for (const char* kname : kCerfKernels) {
    SCOPED_TRACE(kname);
    const WorkloadKernel& wk = Kernel(kname);
    const DesignResult models = RunDesign(d, {wk}, Options(RfMode::kModels));
    DesignResult rtl;
    ASSERT_NO_THROW(rtl = RunDesign(d, {wk}, Options(RfMode::kLockstep)));
    ASSERT_TRUE(rtl.rtl_skipped.empty()) << rtl.rtl_skipped.front().reason;
    EXPECT_EQ(rtl.cycles, models.cycles);
    EXPECT_EQ(rtl.warp_instructions, models.warp_instructions);
    ASSERT_EQ(rtl.counts.levels.size(), models.counts.levels.size());
    for (size_t l = 0; l < rtl.counts.levels.size(); ++l) {
      EXPECT_EQ(rtl.counts.levels[l].reads, models.counts.levels[l].reads) << l;
      EXPECT_EQ(rtl.counts.levels[l].writes, models.counts.levels[l].writes) << l;
      EXPECT_EQ(rtl.counts.levels[l].drains, models.counts.levels[l].drains) << l;
      EXPECT_EQ(rtl.counts.levels[l].fills, models.counts.levels[l].fills) << l;
    }
    EXPECT_EQ(rtl.counts.events, models.counts.events);
    ASSERT_EQ(rtl.kernels.size(), 1u);
    ASSERT_EQ(models.kernels.size(), 1u);
    EXPECT_EQ(rtl.kernels[0].rf.extra, models.kernels[0].rf.extra);
    EXPECT_GT(rtl.activity.value_checks, 0u);
    EXPECT_GT(rtl.activity.rtl_cycles, 0u);
    const RfStats& s = rtl.kernels[0].rf;
    reg_lookups += Extra(s, "reg reads") + Extra(s, "reg writes");
    mem_lookups += Extra(s, "mem lookups");
    replaced += Extra(s, "r<-r") + Extra(s, "r<-c") + Extra(s, "c<-r") + Extra(s, "c<-c");
  }
  // The tag array was exercised on both sides and had to replace lines.
  EXPECT_GT(reg_lookups, 0u);
  EXPECT_GT(mem_lookups, 0u);
  EXPECT_GT(replaced, 0u);
}

INSTANTIATE_TEST_SUITE_P(Policies, CerfLockstep, testing::Values("lru-prioritized", "lru-fair"),
                         [](const auto& p) {
                           return p.param == "lru-fair" ? "fair" : "prioritized";
                         });

TEST(CerfRtlMutation, FlippedTagHitIsReported) {
  const DesignSpec d = CerfDesign("lru-prioritized");
  DriverOptions o = Options(RfMode::kLockstep);
  o.rtl.make_model = [](const StructureSpec& s) -> std::unique_ptr<CycleModel> {
    if (s.If<TagArraySpec>() != nullptr)
      return std::make_unique<FlipBit>(MakeModel(s), TagArrayPort::kRspHit, 0, 300);
    return MakeModel(s);
  };
  try {
    RunDesign(d, {Kernel("vectorAdd")}, o);
    FAIL() << "the flipped hit was not caught";
  } catch (const RtlDivergence& e) {
    ExpectMentions(e.what(), {"divergence at SM cycle", "in cerf_tags", "its RTL cycle",
                              "RTL and golden model differ", "signal rsp_hit_o", "expected",
                              "actual", "kernel vectorAdd"});
  }
}

// The transactor's own checks, driven by hand: a loop over the design's RTL (no golden model)
// with a cerf system, given requests whose answers are not the RTL's.
class CerfTransactorChecks : public testing::Test {
 protected:
  CerfTransactorChecks() : d_(CerfDesign("lru-prioritized")) {
    bool two_level = false;
    DriverOptions o = Options(RfMode::kRtl);
    sm_ = SmConfigFor(d_, o, two_level);
    structures_ = PrepareRtl(d_, sm_, o.rtl.build);
    const WorkloadKernel& wk = Kernel("vectorAdd");
    live_ = sim::passes::ComputeLiveness(*wk.kernel);
    sys_ = std::make_unique<CerfSystem>(*wk.kernel, sm_, 4, 4, CerfConfig::From(d_), live_);
    loop_ = std::make_unique<RtlLoopSystem>(d_, *wk.kernel, sm_, *sys_, structures_, o.rtl);
  }
  uint64_t Address(int warp, int reg) const { return sys_->rgen().Address(warp, reg); }
  int Warps() const { return sys_->rgen().params().warps; }
  int Regs() const { return sys_->rgen().params().regs; }

  DesignSpec d_;
  sim::SmConfig sm_;
  std::vector<RtlStructure> structures_;
  sim::passes::Liveness live_;
  std::unique_ptr<CerfSystem> sys_;
  std::unique_ptr<RtlLoopSystem> loop_;
};

TEST_F(CerfTransactorChecks, AnswersOtherThanTheRtlsAreReported) {
  // A write-reg of R3 of warp 1 into the empty array fills way 0 (the lowest inactive way).
  TagLookup l{TagArraySpec::kWriteReg, false, 1, 3, Address(1, 3), {}};
  l.res.filled = true;
  l.res.after = TagArraySpec::kReg;
  std::vector<TagLookup> ls = {l};
  ASSERT_NO_THROW(
      loop_->Transaction(TagRequest(TagRequest::Cause::kResults, ls, -1, Warps(), Regs())));
  // Reading it back hits; a system that says it missed is contradicted by the RTL.
  TagLookup rd{TagArraySpec::kReadReg, false, 1, 3, Address(1, 3), {}};
  ls = {rd};
  try {
    loop_->Transaction(TagRequest(TagRequest::Cause::kOperands, ls, 0, Warps(), Regs()));
    FAIL() << "the wrong answer was not caught";
  } catch (const RtlDivergence& e) {
    ExpectMentions(e.what(), {"divergence at SM cycle", "in cerf_tags", "read-reg of R3 of warp 1",
                              "signal rsp_hit_o[0]: expected 0x0", "actual 0x1"});
  }
}

TEST_F(CerfTransactorChecks, AnotherReIndexingIsReported) {
  TagLookup l{TagArraySpec::kWriteReg, false, 1, 3, Address(1, 4), {}};
  const std::vector<TagLookup> ls = {l};
  try {
    loop_->Transaction(TagRequest(TagRequest::Cause::kResults, ls, -1, Warps(), Regs()));
    FAIL() << "the wrong address was not caught";
  } catch (const RtlDivergence& e) {
    ExpectMentions(e.what(), {"re-indexed R3 of warp 1", "the transactor's RGen"});
  }
}

TEST_F(CerfTransactorChecks, WrongConflictChargeIsReported) {
  // R0 and R4 of warp 0 are four lines apart: the same tag bank of four, one cycle serialized.
  TagLookup a{TagArraySpec::kReadReg, false, 0, 0, Address(0, 0), {}};
  TagLookup b{TagArraySpec::kReadReg, false, 0, 4, Address(0, 4), {}};
  const std::vector<TagLookup> ls = {a, b};
  try {
    loop_->Transaction(TagRequest(TagRequest::Cause::kOperands, ls, 0, Warps(), Regs()));
    FAIL() << "the wrong charge was not caught";
  } catch (const RtlDivergence& e) {
    ExpectMentions(e.what(), {"charged 0 bank-conflict cycles", "serialize 1"});
  }
}

class CerfRtlCli : public rtl_points::RtlCliFixture {
 protected:
  CerfRtlCli() : RtlCliFixture("gpurf_cerf_rtl_cli_") {}
};

TEST_F(CerfRtlCli, LockstepRunsAndAnotherPrefixExitsTwo) {
  const std::string ok = Write("c.yaml", CerfText("lru-fair"));
  const test::CliResult r = Run(fmt::format("sim {} -w vectorAdd --lockstep", ok));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("zero divergence"), std::string::npos) << r.out;
  const std::string bad = Write("p.yaml", CerfText("lru-fair", "  address_prefix: 5\n"));
  const test::CliResult p = Run(fmt::format("sim {} -w vectorAdd --rtl", bad));
  EXPECT_EQ(p.code, 2) << p.out << p.err;
  EXPECT_NE(p.err.find("hierarchy.address_prefix"), std::string::npos) << p.err;
  EXPECT_NE(p.err.find("p.yaml:"), std::string::npos) << p.err;
  EXPECT_NE(p.err.find("-1"), std::string::npos) << p.err;
}

// Regression: a kernel that keeps fewer warps resident than the SM has (backprop on the GTX480's
// 48 warps) runs on RTL generated for those warps, while the cerf system packs its register
// addresses for all 48 warp contexts. The transactor computed the expected addresses for the
// RTL's warp count and stopped the run with a false re-indexing divergence at SM cycle 222; it
// now re-indexes with the system's warp count and maps the unused high bits onto the RTL's
// prefix.
TEST_F(CerfRtlCli, SoakKernelOnRtlForItsResidentWarpsRunsInLockstep) {
  const test::CliResult r =
      Run("sim '" GPURF_SOURCE_DIR "/configs/examples/cerf.yaml' -w backprop --sms 1 --lockstep");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("zero divergence"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("RTL generated for"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace gpurf::harness
