// RTL in the loop for the renaming hierarchy (Jeon et al.; renaming_system.cc and the
// renaming-table / availability-vectors / release-flag-cache / cta-throttle transactors), label
// "rtl":
//   - a small renaming design (8 warps, 4 MRF banks of 64 rows per lane cluster, a 64-byte
//     table, 4 gated subarrays per bank with a 2-cycle wake-up, a 4-entry flag cache) in lockstep
//     under corpus kernels: zero divergence, and the timing and every count (renaming events
//     included) equal to the C++ models' run;
//   - a kernel with more registers than the MRF RTL lays out runs on structures generated for
//     its resident warps (single-level scheduling);
//   - spill mode (an eighth-size physical file) under bfs in lockstep;
//   - mutations: a golden model with a flipped output bit of each of the four structures stops
//     the run with SM cycle, structure, signal, expected and actual value;
//   - corrupted expectations: transactions that disagree with what the RTL does (a row the
//     availability vectors would not grant, a mapping the table does not hold, a flag-cache hit
//     on an empty cache, a reserved CTA, issue answer, allocation answer, spill or free count the
//     CTA throttle does not have) are each reported by the structure's transactor.
#include <gtest/gtest.h>

#include <memory>

#include "gen/structures/availability_vectors/availability_vectors_ports.h"
#include "gen/structures/availability_vectors/availability_vectors_spec.h"
#include "gen/structures/cta_throttle/cta_throttle_ports.h"
#include "gen/structures/release_flag_cache/release_flag_cache_ports.h"
#include "gen/structures/release_flag_cache/release_flag_cache_spec.h"
#include "gen/structures/renaming_table/renaming_table_ports.h"
#include "gen/structures/renaming_table/renaming_table_spec.h"
#include "models/registry.h"
#include "sim/harness/tests/rtl_test_points.h"
#include "sim/harness/transactors/renaming_transactions.h"

namespace gpurf::harness {
namespace {

using rtl_points::DesignText;
using rtl_points::ExpectMentions;
using rtl_points::FlipBit;
using rtl_points::Kernel;
using rtl_points::Options;

constexpr const char* kRenaming =
    "  kind: renaming\n  table_bytes: 64\n  flag_cache_entries: 4\n  subarrays: 4\n"
    "  wake_cycles: 2\n";

DesignSpec Design() {
  return LoadDesignFromString(DesignText(kRenaming, "single-level"), "renaming.yaml");
}

TEST(RenamingLoop, LockstepHasZeroDivergenceAndTheModelsTimingAndCounts) {
  const DesignSpec d = Design();
  for (const char* kname : {"vectorAdd", "histogram"}) {
    SCOPED_TRACE(kname);
    const WorkloadKernel& wk = Kernel(kname);
    const DesignResult models = RunDesign(d, {wk}, Options(RfMode::kModels));
    DesignResult rtl;
    ASSERT_NO_THROW(rtl = RunDesign(d, {wk}, Options(RfMode::kLockstep)));
    ASSERT_TRUE(rtl.rtl_skipped.empty());
    EXPECT_EQ(rtl.cycles, models.cycles);
    EXPECT_EQ(rtl.warp_instructions, models.warp_instructions);
    ASSERT_EQ(rtl.counts.levels.size(), models.counts.levels.size());
    for (size_t l = 0; l < rtl.counts.levels.size(); ++l) {
      EXPECT_EQ(rtl.counts.levels[l].reads, models.counts.levels[l].reads) << l;
      EXPECT_EQ(rtl.counts.levels[l].writes, models.counts.levels[l].writes) << l;
    }
    EXPECT_EQ(rtl.counts.events, models.counts.events);
    // The renaming structures were driven: allocations, releases and flag-cache lookups happened
    // (the MRF alone could not account for these RTL cycles: it takes under one per register).
    const int alloc = rtl.energies.ComponentIndex("renaming allocations");
    const int rel = rtl.energies.ComponentIndex("renaming releases");
    const int wake = rtl.energies.ComponentIndex("subarray wake-ups");
    EXPECT_GT(rtl.counts.events.at(static_cast<size_t>(alloc)), 0U);
    EXPECT_GT(rtl.counts.events.at(static_cast<size_t>(rel)), 0U);
    EXPECT_GT(rtl.counts.events.at(static_cast<size_t>(wake)), 0U);
    EXPECT_GT(rtl.activity.rtl_cycles, rtl.counts.events.at(static_cast<size_t>(alloc)) * 3);
    EXPECT_GT(rtl.activity.value_checks, 0U);
  }
}

// Regression: a kernel with more registers per thread than the MRF RTL lays out (sgemm: 56; 8
// warps x 32 here) was skipped under single-level scheduling, because the structures were only
// generated again for at least the active warps (all of them). It now runs on structures for the
// 4 warps it keeps resident, with the models' timing.
TEST(RenamingLoop, KernelWithMoreRegistersRunsOnRtlForItsResidentWarps) {
  const DesignSpec d = Design();
  const WorkloadKernel& sgemm = Kernel("sgemm");
  ASSERT_GT(sgemm.kernel->regs_per_thread, 32);
  const DesignResult models = RunDesign(d, {sgemm}, Options(RfMode::kModels));
  DesignResult r;
  ASSERT_NO_THROW(r = RunDesign(d, {sgemm}, Options(RfMode::kLockstep)));
  EXPECT_TRUE(r.rtl_skipped.empty());
  ASSERT_EQ(r.kernels.size(), 1U);
  EXPECT_NE(r.kernels[0].rtl_sm.find("RTL generated for 4 warps"), std::string::npos)
      << r.kernels[0].rtl_sm;
  EXPECT_EQ(r.cycles, models.cycles);
  EXPECT_EQ(r.counts.events, models.counts.events);
}

// Regression: in spill mode (an eighth-size physical file: 16 registers per bank, less than one
// bfs CTA needs) a spilled register read with its pir release bit and written again by the same
// instruction was reported to the renaming table as mapped (to the destination's new register)
// although the table held no mapping for it, and its read loaded nothing. The read now loads the
// value (a fill) and the lookup reports no mapping: zero divergence, the models' timing.
TEST(RenamingLoop, SpilledRegisterReleasedByItsReadIsLoadedAndUnmapped) {
  const DesignSpec d = LoadDesignFromString(
      DesignText(std::string(kRenaming) + "  physical_bytes: 8192\n", "single-level"),
      "renaming_eighth.yaml");
  DriverOptions models_opt = Options(RfMode::kModels), rtl_opt = Options(RfMode::kLockstep);
  models_opt.gpu.sms = rtl_opt.gpu.sms = 1;
  const WorkloadKernel& bfs = Kernel("bfs");
  const DesignResult models = RunDesign(d, {bfs}, models_opt);
  DesignResult rtl;
  ASSERT_NO_THROW(rtl = RunDesign(d, {bfs}, rtl_opt));
  ASSERT_TRUE(rtl.rtl_skipped.empty());
  EXPECT_EQ(rtl.cycles, models.cycles);
  EXPECT_EQ(rtl.counts.events, models.counts.events);
  const int spills = rtl.energies.ComponentIndex("register spills");
  const int fills = rtl.energies.ComponentIndex("register fills");
  EXPECT_GT(rtl.counts.events.at(static_cast<size_t>(spills)), 1000U);
  EXPECT_GT(rtl.counts.events.at(static_cast<size_t>(fills)), 1000U);
  EXPECT_GT(rtl.activity.value_checks, 0U);
}

// Lockstep with one structure's golden model broken (bit `bit` of output `port`, its `nth`
// defined value): the report names the structure and the signal.
void ExpectFlipReported(const std::string& kind, int port, int bit, int nth,
                        std::initializer_list<const char*> parts) {
  const DesignSpec d = Design();
  DriverOptions o = Options(RfMode::kLockstep);
  o.rtl.make_model = [=](const StructureSpec& s) -> std::unique_ptr<CycleModel> {
    if (s.kind() == kind)
      return std::make_unique<FlipBit>(MakeModel(s), port, bit, nth);
    return MakeModel(s);
  };
  try {
    RunDesign(d, {Kernel("vectorAdd")}, o);
    ADD_FAILURE() << "the flipped bit of " << kind << " was not caught";
  } catch (const RtlDivergence& e) {
    ExpectMentions(e.what(), parts);
    ExpectMentions(e.what(), {"divergence at SM cycle", "RTL cycle", "RTL and golden model differ",
                              "expected", "actual", "kernel vectorAdd"});
  }
}

TEST(RenamingLoopMutation, FlippedTableMappingIsReported) {
  ExpectFlipReported("renaming-table", RenamingTablePort::kSrcPhys, 0, 20,
                     {"in renaming_table", "signal src_phys_o"});
}

TEST(RenamingLoopMutation, FlippedAvailabilityGrantIsReported) {
  ExpectFlipReported("availability-vectors", AvailabilityVectorsPort::kAllocId, 1, 30,
                     {"in availability_vectors", "signal alloc_id_o"});
}

TEST(RenamingLoopMutation, FlippedThrottleIssueCheckIsReported) {
  ExpectFlipReported("cta-throttle", CtaThrottlePort::kIssueOk, 0, 40,
                     {"in cta_throttle", "signal issue_ok_o"});
}

TEST(RenamingLoopMutation, FlippedThrottleFreeCountIsReported) {
  ExpectFlipReported("cta-throttle", CtaThrottlePort::kFreeCount, 2, 60,
                     {"in cta_throttle", "signal free_count_o"});
}

TEST(RenamingLoopMutation, FlippedFlagCacheHitIsReported) {
  ExpectFlipReported("release-flag-cache", ReleaseFlagCachePort::kLkHit, 0, 5,
                     {"in release_flag_cache", "signal lk_hit_o"});
}

class CorruptedExpectation : public testing::Test {
 protected:
  void SetUp() override {
    sm_.warps = 8;
    sm_.active_warps = 8;
    structures_ = PrepareRtl(d_, sm_, BuildOptions{});
    inner_ = std::make_unique<rtl_points::SilentSystem>(*Kernel("vectorAdd").kernel, sm_);
    loop_ = std::make_unique<RtlLoopSystem>(d_, *Kernel("vectorAdd").kernel, sm_, *inner_,
                                            structures_, Options(RfMode::kRtl).rtl);
  }
  std::string Report(const StructureTransaction& t) { return rtl_points::DivergenceOf(*loop_, t); }

  DesignSpec d_ = Design();
  sim::SmConfig sm_;
  std::vector<RtlStructure> structures_;
  std::unique_ptr<rtl_points::SilentSystem> inner_;
  std::unique_ptr<RtlLoopSystem> loop_;
};

TEST_F(CorruptedExpectation, AvailabilityVectorsReportAnotherRow) {
  // 64 free registers in bank 1, every subarray gated: the RTL wakes subarray 0 and grants row 0
  // after the 2-cycle wake-up. Then the RTL grants row 1 at once (subarray 0 is powered); the
  // system claims row 5.
  EXPECT_EQ(Report(AvAllocate(1, 0, true, 64)), "");
  const std::string m = Report(AvAllocate(1, 5, false, 63));
  ExpectMentions(m, {"in availability_vectors", "alloc_id_o[1] is 5 (row 1)",
                     "the system maps id 21 (row 5)"});
}

TEST_F(CorruptedExpectation, AvailabilityVectorsReportAMissingWakeUp) {
  ExpectMentions(Report(AvAllocate(2, 0, false, 64)),
                 {"in availability_vectors", "no grant after 1 cycles", "no wake-up"});
}

TEST_F(CorruptedExpectation, AvailabilityVectorsReportTheFreeCount) {
  ExpectMentions(Report(AvRelease(0, 3, 10)),
                 {"in availability_vectors", "free_count_o[0] is 64", "the system has 10 free"});
}

TEST_F(CorruptedExpectation, RenamingTableReportsAMappingItDoesNotHold) {
  const std::vector<RtSource> srcs = {RtSource{2, false, 7}};
  ExpectMentions(Report(RtLookup(3, srcs)), {"in renaming_table", "lookup of table R2",
                                             "src_mapped_o 0", "the system maps it to 7"});
}

TEST_F(CorruptedExpectation, RenamingTableReportsAWrongDestination) {
  // First write of table R1 of warp 0 to id 9: mapped. A second "first write" must find it held.
  EXPECT_EQ(Report(RtDestination(0, 1, 9, true)), "");
  ExpectMentions(
      Report(RtDestination(0, 1, 9, true)),
      {"destination table R1", "dst_alloc_o 0 dst_phys_o 9", "maps it (first write) to 9"});
  // Releasing it returns 9 on a free port; a release of an id it never held is reported.
  const std::vector<std::pair<int, int>> ok = {{1, 9}};
  EXPECT_EQ(Report(RtRelease(0, ok, false)), "");
  const std::vector<std::pair<int, int>> wrong = {{1, 9}};
  ExpectMentions(Report(RtRelease(0, wrong, false)),
                 {"release request: physical registers 9 not released"});
}

// The CTA throttle (4 banks x 64 physical registers here, 8 CTA slots).
TEST_F(CorruptedExpectation, ThrottleReportsTheReservedCta) {
  const std::vector<int> free(4, 64), need = {4, 4, 4, 4};
  // The first CTA is reserved; a second with the same counter leaves the tie with slot 0.
  EXPECT_EQ(Report(CtLaunch(0, need, CtState{0, &free, false, false})), "");
  ExpectMentions(Report(CtLaunch(1, need, CtState{1, &free, false, false})),
                 {"in cta_throttle", "after the launch of CTA slot 1: reserved_o is 0",
                  "the system reserves CTA slot 1"});
}

TEST_F(CorruptedExpectation, ThrottleReportsTheIssueCheckAndSpillMode) {
  const std::vector<int> free(4, 64), need = {4, 4, 4, 4}, big = {70, 4, 4, 4};
  EXPECT_EQ(Report(CtLaunch(0, need, CtState{0, &free, false, false})), "");
  ExpectMentions(
      Report(CtIssueCheck(0, true, true)),
      {"issue check of CTA slot 0: throttle_o 0 issue_ok_o[0] 1", "the system's throttle is on"});
  // 70 registers in bank 0 of 64: the RTL turns the spill mode on; the system claims it off.
  ExpectMentions(Report(CtLaunch(1, big, CtState{0, &free, false, false})),
                 {"after the launch of CTA slot 1: spill_mode_o is 1", "spill mode is off"});
}

TEST_F(CorruptedExpectation, ThrottleReportsAllocationsAndFreeCounts) {
  const std::vector<int> free(4, 64), need = {4, 4, 4, 4}, more = {8, 8, 8, 8};
  EXPECT_EQ(Report(CtLaunch(0, need, CtState{0, &free, false, false})), "");
  EXPECT_EQ(Report(CtLaunch(1, more, CtState{0, &free, false, false})), "");
  // 8 registers of CTA 1 in bank 0 leave 56 >= CTA 0's 4: granted; the system claims a refusal.
  const std::vector<int> banks(8, 0);
  ExpectMentions(Report(CtAllocCheck(1, banks, false)),
                 {"allocation check of CTA slot 1", "alloc_grant_o is 1",
                  "the system refuses the instruction's registers"});
  // A mapping with a spill the RTL does not ask for (bank 2 has room).
  const std::vector<int> after = {64, 64, 63, 64};
  ExpectMentions(
      Report(CtMap(1, 2, 0, CtState{0, &after, false, false})),
      {"mapping of a register of CTA slot 1 in bank 2: spill_o[2] is 0", "the system spills 1"});
  // The mapping made, then a release the system counts wrong.
  EXPECT_EQ(Report(CtMap(1, 2, -1, CtState{0, &after, false, false})), "");
  ExpectMentions(Report(CtRelease(1, 2, CtState{0, &after, false, false})),
                 {"after the release of CTA slot 1 in bank 2: free_count_o[2] is 64",
                  "the system has 63 free registers in bank 2"});
}

TEST_F(CorruptedExpectation, FlagCacheReportsAHitOnAnEmptyCache) {
  ExpectMentions(Report(FcLookup(3, true, 0x5)),
                 {"in release_flag_cache", "lookup of pir group 3", "lk_hit_o 0 lk_miss_o 1",
                  "the system's cache hits"});
}

}  // namespace
}  // namespace gpurf::harness
