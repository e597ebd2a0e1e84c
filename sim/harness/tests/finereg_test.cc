// The finereg hierarchy (Oh et al., FineReg, MICRO 2018): the CTA switching decision, the PCRF
// accounting and the register-move timing of the system by hand on a two-CTA kernel, the switch
// kept when the live registers do not fit, a warp of a switched-out CTA refused at issue, the
// examples simulating through the CLI and bad YAML exiting 2 at its file:line:column.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "gen/config/yaml_loader.h"
#include "sim/harness/hierarchies/finereg_system.h"
#include "sim/harness/hierarchy.h"
#include "sim/passes/liveness.h"
#include "sim/tests/cli_fixture.h"
#include "sim/tests/kernels_util.h"

namespace gpurf::harness {
namespace {

namespace fs = std::filesystem;
namespace sp = sim::passes;
using sim::test::Add;
using sim::test::Exit;
using sim::test::Load;
using sim::test::Make;

const char* kDesign = "hierarchy:\n  kind: finereg\nscheduler:\n  kind: single-level\n";

// i0 loads R0 from the address in R1 (long latency), i1 adds R0 and R3 into R2, i2 exits. A
// warp stalled at i1 keeps R0 (the load's destination) and R3 live: 2 registers. One warp per
// CTA, 4 registers per thread: a CTA's static allocation is 32 x 4 = 128 registers = 512 bytes,
// the whole ACRF; the scheduling limit is one CTA (1 CTA slot). The PCRF has `pcrf_entries`
// entries; the vector cache 2 lines with a 10-cycle miss; 4 cycles per hop.
// With `ctas` CTAs (one warp each); with `twice` the kernel repeats i0 and i1 before the exit
// (a warp stalls twice).
struct Tiny {
  explicit Tiny(int pcrf_entries, int move_ports = 1, int ctas = 2, bool twice = false)
      : k(twice ? Make("tiny2", {Load(0, 1), Add(2, 0, 3), Load(0, 1), Add(2, 0, 3), Exit()})
                : Make("tiny", {Load(0, 1), Add(2, 0, 3), Exit()})),
        streams(static_cast<size_t>(ctas)),
        warps(static_cast<size_t>(ctas)) {
    k.regs_per_thread = 4;
    live = sp::FineRegLiveVectors(k, sp::ComputeLiveness(k));
    sm.warps = ctas;
    sm.active_warps = ctas;
    sm.cta_slots = 1;
    sm.register_alloc_unit = 1;
    FineRegConfig c;
    c.acrf_bytes = 512;
    c.pcrf_bytes = 128LL * pcrf_entries;
    c.resident_ctas = 4;
    c.hop_cycles = 4;
    c.move_ports = move_ports;
    c.vector_lines = 2;
    c.vector_miss_cycles = 10;
    sys = std::make_unique<FineRegSystem>(k, sm, 4, 4, c, live);
    const DesignSpec d = LoadDesignFromString(kDesign, "t.yaml");
    e = HarnessHierarchyOf(d).energies(d, 2, sp::GebhartEnergies(), "");
    sys->CountFor(e);
    for (uint32_t w = 0; w < static_cast<uint32_t>(ctas); ++w) {
      streams[w].cta = w;
      for (uint32_t i = 0; i < k.code.size(); ++i)
        streams[w].insts.push_back(D(i));
    }
  }
  static sim::DynInst D(uint32_t i) { return {i, 0xffffffffu, 0}; }
  // CTA `slot` with warp `slot`, launched in `cycle`.
  void LaunchCta(uint32_t slot, uint64_t cycle) {
    warps[slot] = {slot};
    sys->Launch(cycle, slot, streams[slot]);
    sim::CtaInfo info;
    info.cta = slot;
    info.slot = slot;
    info.threads = 32;
    info.regs_per_thread = 4;
    info.static_registers = 128;
    info.warps = &warps[slot];
    ASSERT_TRUE(sys->AdmitCta(cycle, info));
    sys->CtaLaunched(cycle, info);
  }
  void Stall(uint32_t slot, uint64_t cycle) {
    sim::CtaInfo info;
    info.cta = slot;
    info.slot = slot;
    info.warps = &warps[slot];
    sys->CtaStalled(cycle, info);
  }
  // Ticks from `cycle` until CTA `slot` runs; returns that cycle.
  uint64_t RunUntil(uint32_t slot, uint64_t cycle) {
    for (; cycle < 10000 && !sys->CtaRunnable(slot); ++cycle)
      sys->Tick(cycle);
    EXPECT_TRUE(sys->CtaRunnable(slot)) << "CTA " << slot << " never runs";
    return cycle;
  }
  uint64_t Event(const std::string& name) const {
    return sys->stats().counts.events.at(static_cast<size_t>(e.ComponentIndex(name)));
  }
  sim::Kernel k;
  sp::LiveVectors live;
  sim::SmConfig sm;
  energy::Energies e;
  std::vector<sim::WarpStream> streams;
  std::vector<std::vector<uint32_t>> warps;
  std::unique_ptr<FineRegSystem> sys;
};

TEST(FineRegSystem, SwitchSaveAndRestoreByHand) {
  Tiny t(8);
  FineRegSystem& s = *t.sys;
  ASSERT_EQ(t.live.bits[1], 0b1001u);  // R0 and R3 live at i1
  t.LaunchCta(0, 0);                   // runs: the ACRF has room for one CTA
  t.LaunchCta(1, 0);                   // waits: the ACRF is full
  EXPECT_TRUE(s.CtaRunnable(0));
  EXPECT_FALSE(s.CtaRunnable(1));
  s.Issue(1, 0, Tiny::D(0));  // warp 0 issues its load
  // Cycle 2: CTA 0 stalls. The candidate is the waiting CTA 1. The lookup of i1 misses (10
  // cycles); its 2 live registers fit the 8 free entries: switch. The port moves 2 entries from
  // cycle 12 (2 + 10) to 13; the last lands 4 cycles after its issue: the moves end at cycle
  // 12 + 2 + 4 - 1 = 17.
  t.Stall(0, 2);
  EXPECT_EQ(s.finereg_stats().switches, 1u);
  EXPECT_EQ(s.finereg_stats().saved_entries, 2u);
  EXPECT_EQ(s.pcrf_free(), 6);
  EXPECT_FALSE(s.CtaRunnable(0));
  EXPECT_FALSE(s.CtaRunnable(1));
  EXPECT_TRUE(s.Busy());
  s.Tick(16);
  EXPECT_FALSE(s.CtaRunnable(1));
  s.Tick(17);
  EXPECT_TRUE(s.CtaRunnable(1));
  EXPECT_FALSE(s.CtaRunnable(0));
  EXPECT_EQ(s.finereg_stats().move_wait_cycles, 15u);  // decided at 2, runs at 17
  EXPECT_EQ(s.finereg_stats().move_stall_cycles, 1u);  // cycle 16: a move, none running
  // A warp of the switched-out CTA may not issue.
  EXPECT_THROW(s.Issue(18, 0, Tiny::D(1)), std::logic_error);
  s.Issue(18, 1, Tiny::D(0));  // warp 1 issues its load
  // Cycle 19: CTA 1 stalls; CTA 0's load is still out: no candidate, CTA 1 stays.
  t.Stall(1, 19);
  EXPECT_EQ(s.finereg_stats().no_candidate, 1u);
  EXPECT_TRUE(s.CtaRunnable(1));
  // Cycle 400: CTA 0's load lands: CTA 0 is a ready candidate, and CTA 1 is still stalled (its
  // load is out): the decision is made again. The lookup of i1 hits (1 cycle); CTA 1's 2 live
  // registers fit 6 free entries + 2 that CTA 0's restore frees. 2 restored + 2 saved entries
  // pass the port from cycle 401 to 404 and end at 401 + 4 + 4 - 1 = 408.
  s.Writeback(400, 0, Tiny::D(0));
  s.Tick(400);
  EXPECT_EQ(s.finereg_stats().switches, 2u);
  EXPECT_EQ(s.finereg_stats().no_candidate, 1u);  // counted once per stall episode
  EXPECT_FALSE(s.CtaRunnable(1));
  s.Tick(407);
  EXPECT_FALSE(s.CtaRunnable(0));
  s.Tick(408);
  EXPECT_TRUE(s.CtaRunnable(0));
  EXPECT_FALSE(s.CtaRunnable(1));
  s.Issue(409, 0, Tiny::D(1));  // warp 0 resumes at i1 with R0 and R3 back
  const FineRegStats& f = s.finereg_stats();
  EXPECT_EQ(f.saved_entries, 4u);
  EXPECT_EQ(f.restored_entries, 2u);
  EXPECT_EQ(f.restores, 1u);
  EXPECT_EQ(f.starts, 2u);  // CTA 0 at its launch, CTA 1 on the first switch
  EXPECT_EQ(f.vector_lookups, 2u);
  EXPECT_EQ(f.vector_misses, 1u);
  EXPECT_EQ(f.move_cycles, 6u);
  EXPECT_EQ(f.move_wait_cycles, 15u + 8u);  // 2 -> 17, 400 -> 408
  EXPECT_EQ(f.move_stall_cycles, 1u + 1u);  // cycles 16 and 407
  EXPECT_EQ(f.max_resident, 2u);
  EXPECT_EQ(f.max_active, 1u);
  EXPECT_EQ(f.max_pcrf_entries, 2u);
  EXPECT_EQ(s.pcrf_free(), 6);  // CTA 1's 2 registers
  s.Finish();
  EXPECT_EQ(t.Event("PCRF tag+row writes"), 4u);
  EXPECT_EQ(t.Event("PCRF chain hops"), 2u);
  EXPECT_EQ(t.Event("PCRF pointer updates"), 4u + 1u);  // 4 appends, 1 chain taken
  EXPECT_EQ(t.Event("vector-cache accesses"), 2u);
}

// The same first switch with two move ports: the 2 live registers pass the port in one cycle
// (12), so the moves end at 12 + 1 + 4 - 1 = 16 instead of 17.
TEST(FineRegSystem, MovePortsMoveEntriesInParallel) {
  Tiny t(8, 2);
  FineRegSystem& s = *t.sys;
  t.LaunchCta(0, 0);
  t.LaunchCta(1, 0);
  s.Issue(1, 0, Tiny::D(0));
  t.Stall(0, 2);
  ASSERT_EQ(s.finereg_stats().switches, 1u);
  EXPECT_EQ(s.finereg_stats().saved_entries, 2u);
  s.Tick(15);
  EXPECT_FALSE(s.CtaRunnable(1));
  s.Tick(16);
  EXPECT_TRUE(s.CtaRunnable(1));
  EXPECT_EQ(s.finereg_stats().move_cycles, 1u);
  EXPECT_EQ(s.finereg_stats().move_wait_cycles, 14u);  // decided at 2, runs at 16
}

// Section V-B's status monitor prioritizes pending CTAs by a fixed priority: among the ready ones
// the lowest monitor slot is resumed, not the one switched out first. CTAs 0, 1, 2 take monitor
// slots 0, 1, 2 as they start; CTA 1 is switched out before CTA 0's second switch, so when CTA 2
// stalls with both ready the oldest pending is CTA 1 but the monitor's pick is CTA 0.
TEST(FineRegSystem, ResumesTheLowestReadyMonitorSlotNotTheOldest) {
  Tiny t(16, 1, 3, true);
  FineRegSystem& s = *t.sys;
  t.LaunchCta(0, 0);  // runs, monitor slot 0
  t.LaunchCta(1, 0);  // waits
  t.LaunchCta(2, 0);  // waits
  s.Issue(1, 0, Tiny::D(0));
  t.Stall(0, 2);  // CTA 1 (the oldest waiting) starts in monitor slot 1
  uint64_t c = t.RunUntil(1, 3);
  s.Writeback(c, 0, Tiny::D(0));  // CTA 0's load lands: ready, pending
  s.Issue(c + 1, 1, Tiny::D(0));
  t.Stall(1, c + 2);  // CTA 0 resumes, CTA 1 pending
  c = t.RunUntil(0, c + 3);
  EXPECT_FALSE(s.CtaRunnable(1));
  s.Issue(c, 0, Tiny::D(1));
  s.Issue(c + 1, 0, Tiny::D(2));  // the second load
  t.Stall(0, c + 2);              // CTA 1's load is out: CTA 2 starts in monitor slot 2
  c = t.RunUntil(2, c + 3);
  EXPECT_EQ(s.finereg_stats().starts, 3u);
  s.Writeback(c, 0, Tiny::D(2));
  s.Writeback(c, 1, Tiny::D(0));  // both pending CTAs ready
  s.Tick(c);
  s.Issue(c + 1, 2, Tiny::D(0));
  t.Stall(2, c + 2);
  EXPECT_EQ(s.finereg_stats().switches, 4u);
  t.RunUntil(0, c + 3);
  EXPECT_FALSE(s.CtaRunnable(1));
  EXPECT_FALSE(s.CtaRunnable(2));
  EXPECT_EQ(s.finereg_stats().restores, 2u);
}

TEST(FineRegSystem, NoSwitchWhenTheLiveRegistersDoNotFit) {
  Tiny t(1);  // one PCRF entry: 2 live registers never fit
  FineRegSystem& s = *t.sys;
  t.LaunchCta(0, 0);
  t.LaunchCta(1, 0);
  s.Issue(1, 0, Tiny::D(0));
  t.Stall(0, 2);
  EXPECT_EQ(s.finereg_stats().switches, 0u);
  EXPECT_EQ(s.finereg_stats().kept, 1u);
  EXPECT_TRUE(s.CtaRunnable(0));
  EXPECT_FALSE(s.CtaRunnable(1));
  EXPECT_EQ(s.pcrf_free(), 1);
}

// ---------------------------------------------------------------------------------- the CLI

using Result = test::CliResult;

class FineRegCli : public test::CliFixture {
 protected:
  FineRegCli() : CliFixture("gpurf-finereg-cli-") {}
};

const std::string kExamples = GPURF_SOURCE_DIR "/configs/examples/";

TEST_F(FineRegCli, ExampleSimulates) {
  const Result r = Run("sim " + kExamples + "finereg.yaml --workload vectorAdd --sms 2 --stats");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("FineReg: 128 KB ACRF + 128 KB PCRF"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("saved entries"), std::string::npos) << r.out;
}

// A 64 KB ACRF runs half the CTAs vectorAdd's static allocation admits: the rest wait and are
// switched in on stalls, through the SM's CTA switching end to end (a warp of a CTA that is not
// running issuing, or a broken PCRF invariant, is an internal error: exit 3).
TEST_F(FineRegCli, SmallAcrfSwitchesEndToEnd) {
  const Result r =
      Run("sim " + kExamples + "finereg_64_192.yaml --workload vectorAdd --sms 2 --stats");
  ASSERT_EQ(r.code, 0) << r.err;
  const size_t at = r.out.rfind("FineReg: switches ");
  ASSERT_NE(at, std::string::npos) << r.out;
  EXPECT_GT(std::stoull(r.out.substr(at + 18)), 0u) << r.out;
  const size_t saved = r.out.find("saved entries ", at);
  ASSERT_NE(saved, std::string::npos);
  EXPECT_GT(std::stoull(r.out.substr(saved + 14)), 0u) << r.out;
}

TEST_F(FineRegCli, BadYamlExitsTwoAtTheField) {
  struct Case {
    const char* yaml;
    const char* where;
    const char* what;
  };
  const std::string single = "scheduler:\n  kind: single-level\n";
  const std::vector<Case> cases = {
      {"hierarchy:\n  kind: finereg\n  acrf_bytes: 100\n", "bad.yaml:5:15", "multiple of 128"},
      {"hierarchy:\n  kind: finereg\n  pcrf_bytes: 200\n", "bad.yaml:5:15", "multiple of 128"},
      {"hierarchy:\n  kind: finereg\n  acrf_bytes: 65536\n", "bad.yaml:5:15",
       "the ACRF is the MRF"},
      {"hierarchy:\n  kind: finereg\n  vector_cache_entries: 24\n", "bad.yaml:5:25",
       "power of two"},
      {"hierarchy:\n  kind: finereg\n  switch_target: disk\n", "bad.yaml:5:18", "full-rf"},
  };
  for (const auto& c : cases) {
    const fs::path bad = dir_ / "bad.yaml";
    std::ofstream(bad) << "design:\n  name: x\n" << c.yaml << single;
    const Result r = Run("sim " + bad.string() + " --workload vectorAdd");
    EXPECT_EQ(r.code, 2) << c.yaml << r.out << r.err;
    EXPECT_NE(r.err.find(c.where), std::string::npos) << c.yaml << r.err;
    EXPECT_NE(r.err.find(c.what), std::string::npos) << c.yaml << r.err;
  }
  // The default two-level scheduler cannot switch CTAs: the error points at the kind.
  const fs::path bad = dir_ / "bad.yaml";
  std::ofstream(bad) << "design:\n  name: x\nhierarchy:\n  kind: finereg\n";
  const Result r = Run("sim " + bad.string() + " --workload vectorAdd");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("bad.yaml:4:9"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("single-level"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace gpurf::harness
