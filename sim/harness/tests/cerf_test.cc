// The cerf hierarchy (Jing et al.'s cache-emulated register file): reg-mem re-indexing widths and
// fields by hand, register hits, misses, spills and fills of a tiny integrated memory by hand,
// LRU-prioritized never evicting a register for cache data, every corpus kernel on the GTX480
// with the counts adding up and the tag array's invariants holding, and bad YAML exiting 2 at its
// file:line:column.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "gen/config/yaml_loader.h"
#include "sim/harness/driver.h"
#include "sim/harness/hierarchies/cerf_rgen.h"
#include "sim/harness/hierarchies/cerf_system.h"
#include "sim/harness/hierarchy.h"
#include "sim/passes/liveness.h"
#include "sim/tests/cli_fixture.h"
#include "sim/tests/kernels_util.h"
#include "sim/workload/launch.h"

namespace gpurf::harness {
namespace {

namespace fs = std::filesystem;
namespace sp = sim::passes;
using sim::test::Add;
using sim::test::Exit;
using sim::test::Make;

// ------------------------------------------------------------------------------------- RGen

TEST(CerfRgen, PaperWidthsAndFields) {
  // Jing III-C: 1,024 warp registers -> 10 bits, << 7 for 128-byte lines, a 15-bit prefix;
  // 256 sets in 4 tag banks: 2 bank bits above the offset, then 6 set bits, 17 tag bits.
  const RegMemIndexer g(RegMemIndexer::Params{});
  EXPECT_EQ(g.offset_bits(), 7);
  EXPECT_EQ(g.reg_addr_bits(), 10);
  EXPECT_EQ(g.prefix_bits(), 15);
  EXPECT_EQ(g.bank_bits(), 2);
  EXPECT_EQ(g.set_in_bank_bits(), 6);
  EXPECT_EQ(g.tag_bits(), 17);
  EXPECT_EQ(g.prefix(), 0x7fffu);
  EXPECT_EQ(g.Address(0, 0), 0xfffe0000u);
  // Warp 1, R2: register address 34 = 0b100010 -> bank 2, set 8 in the bank, global set 34.
  const uint64_t a = g.Address(1, 2);
  EXPECT_EQ(a, 0xfffe0000u | (34u << 7));
  EXPECT_EQ(g.RegisterAddress(1, 2), 34u);
  EXPECT_EQ(g.Bank(a), 2);
  EXPECT_EQ(g.SetInBank(a), 8);
  EXPECT_EQ(g.Set(a), 34);
  EXPECT_EQ(g.Tag(a), 0xfffe0000u >> 15);
  // Consecutive registers go to consecutive banks.
  EXPECT_EQ(g.Bank(g.Address(1, 3)), 3);
  EXPECT_EQ(g.Bank(g.Address(1, 4)), 0);
  int w = -1, r = -1;
  ASSERT_TRUE(g.Decode(g.Address(31, 31), w, r));
  EXPECT_EQ(w, 31);
  EXPECT_EQ(r, 31);
  EXPECT_TRUE(g.InRegSpace(a));
  EXPECT_FALSE(g.InRegSpace(0x1000));
  EXPECT_FALSE(g.Decode(0x1000, w, r));
  EXPECT_THROW(g.Address(32, 0), std::out_of_range);
  EXPECT_THROW(g.Address(0, 32), std::out_of_range);
}

TEST(CerfRgen, WidthsDeriveFromTheParameters) {
  // 48 warps x 21 registers (the GTX480's 128 KB at 48 warps) = 1,008: still 10 bits, packed.
  RegMemIndexer::Params p;
  p.warps = 48;
  p.regs = 21;
  const RegMemIndexer g(p);
  EXPECT_EQ(g.reg_addr_bits(), 10);
  EXPECT_EQ(g.RegisterAddress(47, 20), 1007u);
  int w = 0, r = 0;
  ASSERT_TRUE(g.Decode(g.Address(47, 20), w, r));
  EXPECT_EQ(w, 47);
  EXPECT_EQ(r, 20);
  // 48 x 64 registers: 12 bits, a 13-bit prefix; a given prefix in its place.
  p.regs = 64;
  p.prefix = 0x155;
  const RegMemIndexer h(p);
  EXPECT_EQ(h.reg_addr_bits(), 12);
  EXPECT_EQ(h.prefix_bits(), 13);
  EXPECT_EQ(h.Address(0, 1), (uint64_t{0x155} << 19) | (1u << 7));
  // 64-byte lines, 8 banks of 16 sets: 6 offset bits, 3 bank bits, 4 set bits.
  RegMemIndexer::Params q;
  q.line_bytes = 64;
  q.banks = 8;
  q.sets = 128;
  const RegMemIndexer k(q);
  EXPECT_EQ(k.offset_bits(), 6);
  EXPECT_EQ(k.prefix_bits(), 32 - 6 - 10);
  EXPECT_EQ(k.Bank(k.Address(0, 13)), 13 % 8);
  EXPECT_EQ(k.SetInBank(k.Address(0, 13)), 1);
  // Impossible combinations.
  RegMemIndexer::Params bad;
  bad.prefix = 0x8000;  // 16 bits into 15
  EXPECT_NE(bad.Problem(), "");
  bad = {};
  bad.addr_width = 17;  // 7 + 10 bits leave no prefix bit
  EXPECT_NE(bad.Problem(), "");
  bad = {};
  bad.banks = 3;
  EXPECT_THROW(RegMemIndexer{bad}, std::invalid_argument);
}

// ------------------------------------------------------------------- the system, by hand

// A tiny integrated memory: 8 lines of 128 bytes, 2 ways, 2 tag banks = 4 sets; 2 warps of 8
// registers, so register address w * 8 + r lies in set (w * 8 + r) % 4.
struct Tiny {
  explicit Tiny(bool prioritized, std::vector<sim::Instruction> code)
      : k(Make("tiny", std::move(code))) {
    k.regs_per_thread = 8;
    live = sp::ComputeLiveness(k);
    sm.warps = 2;
    sm.active_warps = 2;
    sm.lat_dram = 400;
    CerfConfig c;
    c.bytes = 8 * 128;
    c.ways = 2;
    c.tag_banks = 2;
    c.prioritized = prioritized;
    sys = std::make_unique<CerfSystem>(k, sm, 4, 4, c, live);
    e = HarnessHierarchyOf(LoadDesignFromString("hierarchy:\n  kind: cerf\n", "t.yaml"))
            .energies(LoadDesignFromString("hierarchy:\n  kind: cerf\n", "t.yaml"), 2,
                      sp::GebhartEnergies(), "");
    sys->CountFor(e);
  }
  sim::DynInst D(uint32_t i) const { return {i, 0xffffffffu, 0}; }
  uint64_t Event(const std::string& name) const {
    return sys->stats().counts.events.at(static_cast<size_t>(e.ComponentIndex(name)));
  }
  const energy::LevelCounts& Mrf() const {
    return sys->stats().counts.levels.at(static_cast<size_t>(e.LevelIndex("MRF")));
  }
  sim::Kernel k;
  sp::Liveness live;
  sim::SmConfig sm;
  energy::Energies e;
  std::unique_ptr<CerfSystem> sys;
};

TEST(CerfSystem, RegisterHitMissSpillAndFillByHand) {
  // i0 writes R0, i1 writes R4 (both set 0 for warp 0), i2 reads R0 and writes R1, i3 reads R1.
  Tiny t(false, {Add(0, 5, 5), Add(4, 5, 5), Add(1, 0, 0), Add(2, 1, 1), Exit()});
  CerfSystem& s = *t.sys;
  s.Writeback(1, 0, t.D(0));  // w0 R0 -> set 0 way 0 (inactive line: first write allocates)
  s.Writeback(2, 0, t.D(1));  // w0 R4 -> set 0 way 1
  s.Writeback(3, 1, t.D(0));  // w1 R0 (address 8) -> set 0 full: LRU way 0 (w0 R0) spilled
  EXPECT_TRUE(s.Spilled(0, 0));
  EXPECT_FALSE(s.Spilled(0, 4));
  EXPECT_EQ(s.cerf_stats().spills, 1u);
  EXPECT_EQ(s.cerf_stats().write_allocs, 3u);
  // w0 reads R0 at cycle 10: a miss of a spilled register: fill from local memory (ideal memory:
  // lat_dram 400 cycles), plus the tagging stage, plus one cycle of data-bank conflict (R0 is
  // read in two operand slots, from one bank, as the MRF-only baseline reads it); the refill
  // evicts the LRU way (w0 R4).
  const int delay = s.Issue(10, 0, t.D(2));
  EXPECT_EQ(delay, 1 + 400 + 1);
  EXPECT_EQ(s.cerf_stats().fills, 1u);
  EXPECT_FALSE(s.Spilled(0, 0));
  EXPECT_TRUE(s.Spilled(0, 4));
  EXPECT_EQ(s.cerf_stats().spills, 2u);
  s.Writeback(420, 0, t.D(2));  // w0 R1 -> set 1, empty
  // w0 reads R1 (twice): a hit; the tagging stage and the data-bank conflict.
  EXPECT_EQ(s.Issue(421, 0, t.D(3)), 1 + 1);
  EXPECT_EQ(s.cerf_stats().reg_read_hits, 1u);
  s.Finish();
  // Counts: 2 distinct source registers looked up + 4 writes; 2 spills drained, 1 fill written;
  // the data array read every operand slot (2 + 2).
  EXPECT_EQ(t.Event("tag lookups"), 6u);
  EXPECT_EQ(t.Event("register spills"), 2u);
  EXPECT_EQ(t.Event("register fills"), 1u);
  EXPECT_EQ(t.Mrf().drains, 2u);
  EXPECT_EQ(t.Mrf().fills, 1u);
  EXPECT_EQ(t.Mrf().reads[0], 4u);
  EXPECT_EQ(t.Mrf().writes[0], 4u);
  EXPECT_EQ(s.cerf_stats().replaced[1][1], 2u);  // r <- r twice
  EXPECT_EQ(s.tags().failure(), "");
}

TEST(CerfSystem, LastUseFreesTheLineUnderPrioritized) {
  // i0 writes R0; i1 reads R0 for the last time (liveness), i2 exits.
  Tiny t(true, {Add(0, 5, 5), Add(1, 0, 0), Exit()});
  CerfSystem& s = *t.sys;
  s.Writeback(1, 0, t.D(0));
  ASSERT_NE(t.live.warp_dead_after[1][0] + t.live.warp_dead_after[1][1], 0);
  EXPECT_EQ(s.Issue(5, 0, t.D(1)), 1 + 1);  // tagging stage + R0's second slot in its bank
  EXPECT_EQ(s.cerf_stats().dead_frees, 1u);
  const uint64_t r0 = s.rgen().Address(0, 0);
  EXPECT_EQ(s.tags().StateOf(s.rgen().Set(r0), 0), TagArraySpec::kInactive);
}

TEST(CerfSystem, PrioritizedNeverEvictsARegisterForCacheData) {
  for (const bool prioritized : {true, false}) {
    SCOPED_TRACE(prioritized ? "lru-prioritized" : "lru-fair");
    Tiny t(prioritized, {Add(0, 5, 5), Add(4, 5, 5), Exit()});
    CerfSystem& s = *t.sys;
    s.Writeback(1, 0, t.D(0));  // set 0 holds w0 R0 and w0 R4: every way a register
    s.Writeback(2, 0, t.D(1));
    // A load of memory line 0x100000000 (set 0).
    const sim::mem::L1Owner::Outcome o = s.Line(3, 0x100000000ull, false);
    EXPECT_FALSE(o.hit);
    if (prioritized) {
      EXPECT_FALSE(o.allocated);  // not cached
      EXPECT_EQ(o.victim.sectors, 0u);
      EXPECT_EQ(s.cerf_stats().not_cached, 1u);
      EXPECT_EQ(s.cerf_stats().spills, 0u);
    } else {
      EXPECT_TRUE(o.allocated);  // the LRU register (w0 R0) spilled for the cache line
      EXPECT_EQ(o.victim.line, s.rgen().Address(0, 0));
      EXPECT_EQ(o.victim.sectors, 0xfu);
      EXPECT_TRUE(s.Spilled(0, 0));
      EXPECT_EQ(s.cerf_stats().replaced[1][0], 1u);  // r <- c
    }
    EXPECT_EQ(s.tags().failure(), "");
  }
}

TEST(CerfSystem, StoresHitDirtyAndDirtyVictimsAreWrittenBackOnce) {
  Tiny t(true, {Add(0, 5, 5), Exit()});
  CerfSystem& s = *t.sys;
  const uint64_t a = 0x100000000ull, b = a + 4 * 128, c = a + 8 * 128;  // all set 0
  EXPECT_FALSE(s.Line(1, a, true).hit);  // store miss: write-no-allocate
  EXPECT_TRUE(s.Line(2, a, false).allocated);
  s.Filled(a, 100);
  const auto hit = s.Line(3, a, false);  // hit while the fill is in flight: ready at 100
  EXPECT_TRUE(hit.hit);
  EXPECT_EQ(hit.ready, 100u);
  EXPECT_TRUE(s.Line(4, a, true).hit);  // cache -> dirty
  EXPECT_TRUE(s.Line(5, b, false).allocated);
  const auto v = s.Line(6, c, false);  // evicts the LRU line: the dirty a
  EXPECT_EQ(v.victim.line, a);
  EXPECT_EQ(s.cerf_stats().write_backs, 1u);
  // A register write takes a cache line of a set without inactive lines (c <- r).
  s.Writeback(7, 0, t.D(0));
  EXPECT_EQ(s.cerf_stats().replaced[0][1], 1u);
  EXPECT_EQ(s.tags().failure(), "");
}

// ----------------------------------------------------------------------------- the corpus

DesignSpec CerfDesign(const std::string& policy, int ways, int sms = 2) {
  return LoadDesignFromString(
      fmt::format("design:\n  name: c\nhierarchy:\n  kind: cerf\n  replacement: {}\n  ways: "
                  "{}\ngpu:\n  preset: gtx480\n  sms: {}\n",
                  policy, ways, sms),
      "cerf.yaml");
}

class CerfCorpus : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    for (const auto& name : sim::ListWorkloads(sim::DefaultCorpusDir())) {
      runs_.push_back(sim::RunWorkload(
          sim::LoadLaunch(sim::WorkloadLaunchPath(sim::DefaultCorpusDir(), name))));
      kernels_.push_back({name, &runs_.back()->compiled.kernel, &runs_.back()->run});
    }
  }
  static void TearDownTestSuite() {
    kernels_.clear();
    runs_.clear();
  }
  static std::vector<std::unique_ptr<sim::WorkloadRun>> runs_;
  static std::vector<WorkloadKernel> kernels_;
};
std::vector<std::unique_ptr<sim::WorkloadRun>> CerfCorpus::runs_;
std::vector<WorkloadKernel> CerfCorpus::kernels_;

uint64_t Extra(const RfStats& s, const std::string& name) {
  for (const auto& [n, v] : s.extra) {
    if (n == name)
      return v;
  }
  ADD_FAILURE() << "no statistic " << name;
  return 0;
}

// Every corpus kernel runs under both policies (the tag array's golden model throws at the first
// invariant violation), and the counts add up.
TEST_F(CerfCorpus, EveryKernelRunsAndCountsAddUp) {
  ASSERT_GE(kernels_.size(), 10u);
  for (const std::string policy : {"lru-prioritized", "lru-fair"}) {
    DriverOptions o;
    o.baseline = false;
    const DesignSpec d = CerfDesign(policy, 4);
    const DesignResult r = RunDesign(d, kernels_, o);
    ASSERT_EQ(r.kernels.size(), kernels_.size());
    for (const auto& k : r.kernels) {
      SCOPED_TRACE(fmt::format("{} / {}", policy, k.kernel));
      const auto& s = k.rf;
      const auto& mrf = s.counts.levels.at(static_cast<size_t>(r.energies.LevelIndex("MRF")));
      auto ev = [&](const char* n) {
        return s.counts.events.at(static_cast<size_t>(r.energies.ComponentIndex(n)));
      };
      EXPECT_EQ(mrf.reads[0] + mrf.reads[1], s.operand_regs);
      EXPECT_EQ(mrf.writes[0] + mrf.writes[1], s.result_regs);
      EXPECT_EQ(Extra(s, "reg writes"), s.result_regs);
      EXPECT_EQ(Extra(s, "reg read hits") + Extra(s, "fills") + Extra(s, "cold reads"),
                Extra(s, "reg reads"));
      EXPECT_EQ(ev("tag lookups"), Extra(s, "reg reads") + Extra(s, "reg writes"));
      EXPECT_EQ(ev("register spills"), Extra(s, "spills"));
      EXPECT_EQ(mrf.drains, Extra(s, "spills"));
      EXPECT_EQ(ev("register fills"), Extra(s, "fills"));
      EXPECT_LE(mrf.fills, Extra(s, "fills"));
      EXPECT_LE(Extra(s, "mem hits") + Extra(s, "mem fills") + Extra(s, "not cached"),
                Extra(s, "mem lookups"));
      EXPECT_EQ(Extra(s, "r<-r") + Extra(s, "r<-c"), Extra(s, "spills"));
      // The integrated memory is the L1D: its lookups are the memory system's L1D accesses.
      EXPECT_GE(k.mem.l1d.accesses, Extra(s, "mem lookups"));
      if (policy == "lru-prioritized") {
        EXPECT_EQ(Extra(s, "r<-c"), 0u);  // never a register for cache data
      } else {
        EXPECT_EQ(Extra(s, "dead frees"), 0u);  // no liveness bits
      }
    }
  }
}

// ---------------------------------------------------------------------------------- the CLI

using Result = test::CliResult;

class CerfCli : public test::CliFixture {
 protected:
  CerfCli() : CliFixture("gpurf-cerf-cli-") {}
};

const std::string kExamples = GPURF_SOURCE_DIR "/configs/examples/";

TEST_F(CerfCli, ExamplesSimulate) {
  for (const char* f : {"cerf.yaml", "cerf_fair.yaml", "cerf_2way.yaml", "cerf_8way.yaml"}) {
    const Result r =
        Run(fmt::format("sim {}{} --workload vectorAdd --sms 2 --stats", kExamples, f));
    ASSERT_EQ(r.code, 0) << f << r.err;
    EXPECT_NE(r.out.find("CERF: 128 KB integrated"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("tag lookups"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("mem lookups"), std::string::npos) << r.out;
  }
}

TEST_F(CerfCli, BadYamlExitsTwoAtTheField) {
  struct Case {
    const char* yaml;
    const char* where;
    const char* what;
  };
  const std::vector<Case> cases = {
      {"hierarchy:\n  kind: cerf\n  replacement: fifo\n", "bad.yaml:5:16", "lru-fair"},
      {"hierarchy:\n  kind: cerf\n  ways: 3\n", "bad.yaml:5:9", "power of two"},
      {"hierarchy:\n  kind: cerf\n  ways: 16\n", "bad.yaml:5:9", "2..8"},
      {"hierarchy:\n  kind: cerf\n  cerf_bytes: 65536\n", "bad.yaml:5:15", "MRF's banks"},
      {"hierarchy:\n  kind: cerf\n  levels: 2\n", "bad.yaml:5:11", "exactly one level"},
  };
  for (const auto& c : cases) {
    const fs::path bad = dir_ / "bad.yaml";
    std::ofstream(bad) << "design:\n  name: x\n" << c.yaml;
    const Result r = Run("sim " + bad.string() + " --workload vectorAdd");
    EXPECT_EQ(r.code, 2) << c.yaml << r.out << r.err;
    EXPECT_NE(r.err.find(c.where), std::string::npos) << c.yaml << r.err;
    EXPECT_NE(r.err.find(c.what), std::string::npos) << c.yaml << r.err;
  }
}

}  // namespace
}  // namespace gpurf::harness
