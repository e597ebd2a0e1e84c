// The register-file system's golden model on its own: hand-worked sequences through the
// harness API (a value written with level targets comes back from the level the request names,
// RFC evictions and deschedule flushes reach the MRF, bank conflicts serialize reads), the
// stimulus driving it without RTL for every hierarchy with proof the traffic was not vacuous,
// and each system invariant (I1 data end to end, I2 dispatch = issued instruction, I3
// deschedule) firing on a deliberately broken model.
#include <gtest/gtest.h>

#include "gen/structures/rf_system/rf_system_spec.h"
#include "verif/tests/rf_system_test_util.h"

namespace gpurf {
namespace {

Bits Value(int width, uint64_t v) {
  Bits b(width);
  b.set(0, 64, v * 0x9e3779b97f4a7c15ULL);
  return b;
}

RfSysResult Result(const RfSystemSpec& s, int warp, int slot, int reg, uint64_t v) {
  RfSysResult r;
  r.valid = true;
  r.warp = warp;
  r.slot = slot;
  r.reg = reg;
  r.data = Value(s.width, v);
  return r;
}

// Steps with dispatch ready until an instruction leaves (at most `limit` cycles).
RfSysDispatch Drain(RfSystem& sys, int limit = 20) {
  for (int i = 0; i < limit; ++i) {
    sys.SetDispatchReady(true);
    const RfSysOutputs o = sys.Step();
    if (o.disp.valid)
      return o.disp;
  }
  return {};
}

TEST(RfSystemModel, SwOrfValueComesBackFromTheNamedLevel) {
  const RfSystemSpec s = test::MakeRfSystemSpec({});  // sw-orf, 3 levels, split L0
  RfSystem sys(s);
  RfSysResult r = Result(s, 3, 1, 5, 11);
  r.mrf = true;
  r.orf = true;
  r.orf_entry = 2;  // L1 entry 2
  sys.Writeback(r);
  EXPECT_TRUE(sys.Step().res_ready);
  RfSysResult r0 = Result(s, 3, 1, 6, 12);
  r0.orf = true;
  r0.orf_l0 = true;
  r0.orf_entry = 2;  // L0 bank C
  sys.Writeback(r0);
  sys.Step();

  RfSysIssue is;
  is.valid = true;
  is.tag = 7;
  is.warp = 3;
  is.slot = 1;
  is.src_valid = {true, true, true};
  is.src_reg = {5, 5, 6};
  is.src_level = {RfSystemSpec::kLevelL1, RfSystemSpec::kLevelMrf, RfSystemSpec::kLevelL0};
  is.src_entry = {2, 0, 0};
  sys.Issue(is);
  EXPECT_TRUE(sys.Step().issue_ready);
  const RfSysDispatch d = Drain(sys);
  ASSERT_TRUE(d.valid);
  EXPECT_EQ(d.tag, 7u);
  EXPECT_EQ(d.data[0], Value(s.width, 11));
  EXPECT_EQ(d.data[1], Value(s.width, 11));
  EXPECT_EQ(d.data[2], Value(s.width, 12));
  EXPECT_EQ(d.level[0], 1);
  EXPECT_EQ(d.level[1], 0);
  EXPECT_EQ(d.level[2], 2);
  EXPECT_EQ(sys.counters().l1_reads, 1u);
  EXPECT_EQ(sys.counters().l0_reads, 1u);
  EXPECT_EQ(sys.counters().mrf_reads, 1u);
  EXPECT_EQ(sys.counters().l1_writes, 1u);
  EXPECT_EQ(sys.counters().l0_writes, 1u);
  EXPECT_EQ(sys.counters().checked_operands, 3u);
  EXPECT_EQ(sys.Failure(), "");
}

TEST(RfSystemModel, SwDescheduleInvalidatesTheSlot) {
  const RfSystemSpec s = test::MakeRfSystemSpec({});
  RfSystem sys(s);
  RfSysResult r = Result(s, 2, 2, 1, 5);
  r.orf = true;
  r.orf_l0 = true;
  r.orf_entry = 0;
  sys.Writeback(r);
  sys.Step();
  sys.Flush({true, 2, 2});
  EXPECT_TRUE(sys.Step().fl_ready);
  RfSysIssue is;
  is.valid = true;
  is.warp = 2;
  is.slot = 2;
  is.src_valid = {true, false, false};
  is.src_level = {RfSystemSpec::kLevelL0, 0, 0};
  sys.Issue(is);
  sys.Step();
  EXPECT_NE(sys.Failure().find("misuse"), std::string::npos) << sys.Failure();
}

TEST(RfSystemModel, HwEvictionReachesTheMrfAndHitsAreServedByTheCache) {
  const RfSystemSpec s =
      test::MakeRfSystemSpec({{"hierarchy", "hw-rfc"}, {"levels", "2"}, {"l1_entries", "1"}});
  RfSystem sys(s);
  sys.Writeback(Result(s, 4, 0, 1, 21));
  EXPECT_TRUE(sys.Step().res_ready);
  sys.Writeback(Result(s, 4, 0, 2, 22));  // the one entry of slot 0: r1 is evicted
  sys.Step();
  EXPECT_FALSE(sys.mrf().Register(4, 1).has_value());  // still in the write-back register
  sys.Step();                                          // written back at this edge
  ASSERT_TRUE(sys.mrf().Register(4, 1).has_value());
  EXPECT_EQ(*sys.mrf().Register(4, 1), Value(s.width, 21));
  EXPECT_EQ(sys.counters().writebacks, 1u);

  RfSysIssue is;
  is.valid = true;
  is.tag = 3;
  is.warp = 4;
  is.slot = 0;
  is.src_valid = {true, true, false};
  is.src_reg = {2, 1, 0};
  sys.Issue(is);
  sys.Step();
  const RfSysDispatch d = Drain(sys);
  ASSERT_TRUE(d.valid);
  EXPECT_EQ(d.data[0], Value(s.width, 22));  // RFC hit
  EXPECT_EQ(d.data[1], Value(s.width, 21));  // MRF
  EXPECT_EQ(d.level[0], 1);
  EXPECT_EQ(d.level[1], 0);
  EXPECT_EQ(sys.counters().tag_hits, 1u);
  EXPECT_EQ(sys.counters().tag_checks, 4u);  // two results, two lookups
  EXPECT_EQ(sys.counters().mrf_reads, 1u);
  EXPECT_EQ(sys.Failure(), "");
}

TEST(RfSystemModel, HwDescheduleWritesDirtyEntriesBackBeforeReady) {
  const RfSystemSpec s = test::MakeRfSystemSpec({{"hierarchy", "hw-rfc"}, {"l1_entries", "4"}});
  RfSystem sys(s);
  for (int r = 0; r < 3; ++r) {
    sys.Writeback(Result(s, 9, 5, r, 30 + r));
    sys.Step();
  }
  int cycles = 0;
  bool ready = false;
  while (!ready && cycles < 20) {
    sys.Flush({true, 9, 5});
    ready = sys.Step().fl_ready;
    ++cycles;
  }
  ASSERT_TRUE(ready);
  EXPECT_GE(cycles, 4);  // accept, then one write-back per cycle
  for (int r = 0; r < 3; ++r)
    EXPECT_EQ(*sys.mrf().Register(9, r), Value(s.width, 30 + r));
  EXPECT_EQ(sys.counters().writebacks, 3u);
  EXPECT_EQ(sys.Failure(), "");
}

TEST(RfSystemModel, BankConflictsSerializeMrfReads) {
  const RfSystemSpec s = test::MakeRfSystemSpec({{"hierarchy", "mrf-only"}});
  RfSystem sys(s);
  for (int r : {0, 4, 8}) {  // all in bank 0 of 4
    RfSysResult res = Result(s, 1, 0, r, 40 + r);
    sys.Writeback(res);
    sys.Step();
  }
  RfSysIssue is;
  is.valid = true;
  is.warp = 1;
  is.src_valid = {true, true, true};
  is.src_reg = {0, 4, 8};
  sys.Issue(is);
  sys.Step();
  int waited = 0;
  RfSysDispatch d;
  while (!d.valid && waited < 20) {
    sys.SetDispatchReady(true);
    d = sys.Step().disp;
    ++waited;
  }
  ASSERT_TRUE(d.valid);
  EXPECT_EQ(waited, 5);  // reads in t+1, t+2, t+3; data after the last one; dispatch in t+5
  EXPECT_EQ(sys.counters().mrf_conflicts, 3u);  // B waits 1 cycle, C waits 2
  for (int p = 0; p < 3; ++p)
    EXPECT_EQ(d.data[p], Value(s.width, 40 + 4 * p));
}

struct Config {
  const char* name;
  std::map<std::string, std::string> values;
};

const Config kConfigs[] = {
    {"sw3_split", {}},
    {"sw3_unified_reg", {{"l0_split", "false"}, {"read_mode", "reg"}}},
    {"sw2", {{"levels", "2"}}},
    {"hw2_fifo", {{"hierarchy", "hw-rfc"}, {"levels", "2"}, {"replacement", "fifo"}}},
    {"hw3_lru", {{"hierarchy", "hw-rfc"}, {"l1_entries", "2"}}},
    {"mrf_only", {{"hierarchy", "mrf-only"}}},
};

class RfSystemModelRun : public ::testing::TestWithParam<size_t> {};

TEST_P(RfSystemModelRun, StimulusExercisesEveryPartWithoutFailure) {
  const RfSystemSpec s = test::MakeRfSystemSpec(kConfigs[GetParam()].values);
  RfSystemCycleModel model(s);
  test::RunModel(model, s, 40000, 5 + GetParam());
  ASSERT_EQ(model.Failure(), "");
  const RfSysCounters& c = model.system().counters();
  EXPECT_GT(c.checked_operands, 10000u);
  EXPECT_GT(c.dispatched, 5000u);
  EXPECT_GT(c.mrf_conflicts, 0u);
  EXPECT_GT(c.flushes, 20u);
  if (s.has_l1()) {
    EXPECT_GT(c.l1_reads, 500u);
  }
  if (s.has_l0()) {
    EXPECT_GT(c.l0_reads, 300u);
  }
  if (s.hw()) {
    EXPECT_GT(c.tag_hits, 1000u);
    EXPECT_GT(c.writebacks, 500u);
  }
}

INSTANTIATE_TEST_SUITE_P(Configs, RfSystemModelRun,
                         ::testing::Range<size_t>(0, std::size(kConfigs)),
                         [](const ::testing::TestParamInfo<size_t>& p) {
                           return std::string(kConfigs[p.param].name);
                         });

struct FaultCase {
  const char* name;
  std::map<std::string, std::string> values;
  RfSystem::Fault fault;
  const char* invariant;
};

const FaultCase kFaults[] = {
    {"UpperDataFromMrf", {}, RfSystem::Fault::kUpperDataFromMrf, "I1 violated"},
    {"UpperDataFromMrfHw",
     {{"hierarchy", "hw-rfc"}},
     RfSystem::Fault::kUpperDataFromMrf,
     "I1 violated"},
    {"DispatchTagSwapped", {}, RfSystem::Fault::kDispatchTagSwapped, "I2 violated"},
    {"FlushReadyEarly",
     {{"hierarchy", "hw-rfc"}},
     RfSystem::Fault::kFlushReadyEarly,
     "I3 violated"},
    {"FlushKeepsOrf", {}, RfSystem::Fault::kFlushKeepsOrf, "I3 violated"},
};

class RfSystemModelFault : public ::testing::TestWithParam<size_t> {};

TEST_P(RfSystemModelFault, InvariantCheckFires) {
  const FaultCase& f = kFaults[GetParam()];
  const RfSystemSpec s = test::MakeRfSystemSpec(f.values);
  RfSystemCycleModel model(s);
  model.system().InjectFault(f.fault);
  test::RunModel(model, s, 40000, 3);
  EXPECT_NE(model.Failure().find(f.invariant), std::string::npos) << model.Failure();
}

INSTANTIATE_TEST_SUITE_P(Faults, RfSystemModelFault,
                         ::testing::Range<size_t>(0, std::size(kFaults)),
                         [](const ::testing::TestParamInfo<size_t>& p) {
                           return std::string(kFaults[p.param].name);
                         });

}  // namespace
}  // namespace gpurf
