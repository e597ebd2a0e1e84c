// The hybrid register cache / scratchpad system (Bailey et al.) in the SM harness: the RC's
// replacement by hand, hand-computed counts of tiny kernels for the hybrid, RC-only and RSP-only
// designs, the extra cycle of an RC miss, accounting invariants over every corpus kernel, and
// the YAML errors of a hybrid hierarchy.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "gen/config/yaml_loader.h"
#include "models/hybrid_rc_model.h"
#include "sim/harness/driver.h"
#include "sim/harness/hybrid_system.h"
#include "sim/harness/tests/corpus_kernels.h"
#include "sim/tests/cli_fixture.h"
#include "sim/tests/kernels_util.h"
#include "sim/workload/launch.h"

namespace gpurf::harness {
namespace {

namespace fs = std::filesystem;
using sim::test::Add;
using sim::test::Exit;
using sim::test::Make;

DesignSpec Hybrid(int rc, int rsp, const std::string& org = "hierarchical") {
  return LoadDesignFromString(
      fmt::format("design:\n  name: h\nsm:\n  active_warps: 8\nhierarchy:\n  kind: hybrid\n  "
                  "rc_bytes: {}\n  rsp_bytes: {}\n  organization: {}\nscheduler:\n  kind: "
                  "two-level\n",
                  rc, rsp, org),
      "test.yaml");
}

sim::KernelRun OneWarp(const sim::Kernel& k) {
  sim::KernelRun r;
  r.kernel = &k;
  r.block = {32, 1, 1};
  sim::WarpStream w;
  for (uint32_t i = 0; i < k.code.size(); ++i)
    w.insts.push_back({i, 0xffffffffu, 0});
  r.warps.push_back(w);
  return r;
}

const energy::LevelCounts& Lvl(const DesignResult& r, const std::string& name) {
  return r.counts.levels.at(static_cast<size_t>(r.energies.LevelIndex(name)));
}
uint64_t Reads(const energy::LevelCounts& c) {
  return c.reads[0] + c.reads[1];
}
uint64_t Writes(const energy::LevelCounts& c) {
  return c.writes[0] + c.writes[1];
}
uint64_t Misses(const DesignResult& r) {
  return r.counts.events.at(static_cast<size_t>(r.energies.ComponentIndex("RC misses")));
}

TEST(HybridRc, TwoWayLruWriteAllocate) {
  RegisterCache rc(4, 2);  // 2 sets
  ASSERT_EQ(rc.sets(), 2);
  RegisterCache::Victim v;
  EXPECT_FALSE(rc.Write(0, 0, v));  // (0 ^ 0) % 2: set 0, way 0
  EXPECT_FALSE(v.valid);
  EXPECT_FALSE(rc.Write(0, 2, v));  // set 0, way 1
  EXPECT_FALSE(v.valid);
  EXPECT_TRUE(rc.Write(0, 2, v));  // a hit overwrites in place
  EXPECT_FALSE(v.valid);
  EXPECT_FALSE(rc.Write(1, 1, v));  // (1 ^ 1) % 2: set 0 again, full: R0 of warp 0 is the LRU
  ASSERT_TRUE(v.valid);
  EXPECT_EQ(v.warp, 0);
  EXPECT_EQ(v.reg, 0);
  RegisterCache c2(4, 2);
  c2.Write(0, 0, v);
  c2.Write(0, 2, v);
  c2.Touch(c2.Find(0, 0));  // R0 most recent: R2 is the victim
  EXPECT_FALSE(c2.Write(0, 4, v));
  ASSERT_TRUE(v.valid);
  EXPECT_EQ(v.warp, 0);
  EXPECT_EQ(v.reg, 2);
  EXPECT_GE(c2.Find(0, 0), 0);
  EXPECT_LT(c2.Find(0, 2), 0);
  // Warp bits are hashed in: R0 of warp 1 is in set 1, beside nothing.
  EXPECT_FALSE(c2.Write(1, 0, v));
  EXPECT_FALSE(v.valid);
  // An invalidated line is refilled before any replacement.
  c2.Invalidate(c2.Find(0, 0));
  EXPECT_FALSE(c2.Write(0, 6, v));
  EXPECT_FALSE(v.valid);
  // No RC: nothing is ever found.
  RegisterCache none(0, 2);
  EXPECT_FALSE(none.enabled());
  EXPECT_LT(none.Find(0, 0), 0);
}

// The harness's RC against the hybrid-rc golden model (models/hybrid_rc_model.h) at the family's
// default point (2 KB: 16 lines, 8 sets of 2 ways, 16 warps): the same hits, last-use kills,
// write hits and victims over a random stream of one read or one write per cycle.
TEST(HybridRc, RegisterCacheMatchesTheGoldenModel) {
  const StructureKind* sk = FindStructureKind("hybrid-rc");
  ASSERT_NE(sk, nullptr);
  const HybridRcSpec spec = SpecAs<HybridRcSpec>(sk->make_spec(ParamSet(sk->params)));
  ASSERT_EQ(spec.rc_bytes / spec.line_bytes, 16);
  HybridRc golden(spec);
  RegisterCache rc(spec.rc_bytes / spec.line_bytes, spec.ways);
  std::mt19937 rng(7);
  int hits = 0, victims = 0;
  for (int i = 0; i < 20000; ++i) {
    const int warp = static_cast<int>(rng() % 4), reg = static_cast<int>(rng() % 24);
    HybridRc::Inputs in;
    in.reads.assign(HybridRcSpec::kReadPorts, {});
    in.writes.assign(HybridRcSpec::kWritePorts, {});
    SCOPED_TRACE(fmt::format("step {}: warp {} R{}", i, warp, reg));
    if (rng() % 2 == 0) {
      const bool last = rng() % 3 == 0;
      in.reads[0] = {true, false, last, 0, warp, reg};
      const HybridRc::Outputs o = golden.Step(in);
      const int line = rc.Find(warp, reg);
      ASSERT_EQ(o.hit[0], line >= 0);
      if (line >= 0) {
        ++hits;
        rc.Touch(line);
        if (last)
          rc.Invalidate(line);
      }
    } else {
      in.writes[0] = {true, false, 0, warp, reg, Bits(spec.width)};
      const HybridRc::Outputs o = golden.Step(in);
      RegisterCache::Victim v;
      rc.Write(warp, reg, v);
      ASSERT_EQ(o.wb[0].valid, v.valid);
      if (v.valid) {
        ++victims;
        EXPECT_EQ(o.wb[0].warp, v.warp);
        EXPECT_EQ(o.wb[0].reg, v.reg);
      }
    }
    ASSERT_EQ(golden.failure(), "");
  }
  EXPECT_GT(hits, 1000);
  EXPECT_GT(victims, 1000);
}

// R2 = R0 + R1; R3 = R2 + R2 (R2 dies at its read; R3 is never read).
const sim::Kernel& Tiny() {
  static const sim::Kernel k = Make("tiny", {Add(2, 0, 1), Add(3, 2, 2), Exit()});
  return k;
}

TEST(HybridRc, RcOnlyTinyKernelByHand) {
  const sim::KernelRun run = OneWarp(Tiny());
  const DesignResult r = RunDesign(Hybrid(12288, 0), {{"tiny", &Tiny(), &run}}, {});
  EXPECT_EQ(Reads(Lvl(r, "MRF")), 2u);  // R0, R1 miss
  EXPECT_EQ(Misses(r), 2u);
  EXPECT_EQ(Reads(Lvl(r, "RC")), 2u);   // R2 twice, then killed (last use): never written back
  EXPECT_EQ(Writes(Lvl(r, "RC")), 2u);  // R2, R3 write-allocate
  EXPECT_EQ(Writes(Lvl(r, "MRF")) + Lvl(r, "MRF").writebacks, 0u);
  EXPECT_EQ(Reads(Lvl(r, "RSP")) + Writes(Lvl(r, "RSP")), 0u);
  EXPECT_EQ(r.kernels[0].rf.dead_kills, 1u);
  // The first instruction's RC miss costs one cycle; the second hits.
  EXPECT_EQ(r.kernels[0].sm.operand_delay_cycles, 1u);
  // Energy by hand (per warp operand: 8 rows x pJ + 32 words x mm x 1.9 pJ/mm).
  const double mrf_rd = 8 * 8.0 + 32 * 1.0 * 1.9;
  const double rc_rd = 8 * 1.94 + 32 * 0.2 * 1.9, rc_wr = 8 * 4.75 + 32 * 0.2 * 1.9;
  const double miss = r.energies.components[0].pj;
  EXPECT_NEAR(r.energy.total_pj(), 2 * mrf_rd + 2 * rc_rd + 2 * rc_wr + 2 * miss, 1e-6);
  EXPECT_NEAR(r.base_energy.total_pj(), 796.8, 1e-9);  // harness_test's MRF-only figure
}

TEST(HybridRc, RspOnlyTinyKernelByHand) {
  const sim::KernelRun run = OneWarp(Tiny());
  const DesignResult r = RunDesign(Hybrid(0, 4096), {{"tiny", &Tiny(), &run}}, {});
  // 4096 B / 8 active warps / 128 B = 4 entries per warp: R2 is a write range (written by the
  // first instruction, read twice by the second, dead after): RSP write 1, reads 2.
  EXPECT_EQ(Writes(Lvl(r, "RSP")), 1u);
  EXPECT_EQ(Reads(Lvl(r, "RSP")), 2u);
  EXPECT_EQ(Reads(Lvl(r, "MRF")), 2u);   // R0, R1
  EXPECT_EQ(Writes(Lvl(r, "MRF")), 1u);  // R3: no RC
  EXPECT_EQ(Misses(r), 0u);
  EXPECT_EQ(r.kernels[0].sm.operand_delay_cycles, 0u);  // no RC lookup in front of the MRF
}

TEST(HybridRc, HybridTinyKernelByHand) {
  const sim::KernelRun run = OneWarp(Tiny());
  for (const char* org : {"hierarchical", "parallel-evict"}) {
    SCOPED_TRACE(org);
    const DesignResult r = RunDesign(Hybrid(8192, 4096, org), {{"tiny", &Tiny(), &run}}, {});
    EXPECT_EQ(Writes(Lvl(r, "RSP")), 1u);
    EXPECT_EQ(Reads(Lvl(r, "RSP")), 2u);
    EXPECT_EQ(Reads(Lvl(r, "MRF")), 2u);
    EXPECT_EQ(Misses(r), 2u);
    EXPECT_EQ(Writes(Lvl(r, "RC")), 1u);  // R3
    EXPECT_EQ(Writes(Lvl(r, "MRF")) + Lvl(r, "MRF").writebacks, 0u);
    EXPECT_EQ(r.kernels[0].sm.operand_delay_cycles, 1u);
  }
}

TEST(HybridRc, EnergiesNameTheirSources) {
  energy::Energies e;
  sim::passes::RegisterFileEnergies pe;
  EnergiesFor(Hybrid(8192, 4096), 8, "", e, pe);
  ASSERT_EQ(e.levels.size(), 3u);
  EXPECT_EQ(e.levels[0].name, "MRF");
  EXPECT_EQ(e.levels[1].name, "RC");
  EXPECT_EQ(e.levels[2].name, "RSP");
  EXPECT_DOUBLE_EQ(e.levels[0].read_pj, 8.0);
  EXPECT_DOUBLE_EQ(e.levels[1].write_pj, 4.75);
  EXPECT_DOUBLE_EQ(e.levels[2].read_pj, 0.97);
  EXPECT_NE(e.levels[1].source.find("characterize hybrid-rc"), std::string::npos);
  EXPECT_NE(e.components[0].source.find("estimate"), std::string::npos);
}

// Corpus kernels on every hybrid variant: they run, and the counts add up. The default suite runs
// the twelve SDK-style kernels, WholeCorpusHybridRc (label soak) every corpus kernel.
void CheckCorpusKernelsRunAndCountsAddUp(bool whole) {
  std::vector<std::unique_ptr<sim::WorkloadRun>> runs;
  std::vector<WorkloadKernel> kernels;
  corpus_kernels::Run(whole, runs, kernels);
  ASSERT_GE(kernels.size(), 10u);
  struct Case {
    int rc, rsp;
    const char* org;
  };
  uint64_t work = 0;
  for (const Case& c : {Case{8192, 4096, "hierarchical"}, Case{8192, 4096, "parallel-evict"},
                        Case{12288, 0, "hierarchical"}, Case{0, 12288, "hierarchical"},
                        Case{8192, 4096, "parallel-lifetime"}}) {
    DriverOptions o;
    o.baseline = false;
    o.gpu.sms = 2;  // every kernel still runs whole (on 2 SMs): the counts' invariants, faster
    const DesignResult r = RunDesign(Hybrid(c.rc, c.rsp, c.org), kernels, o);
    ASSERT_EQ(r.kernels.size(), kernels.size());
    uint64_t rsp_reads = 0, rc_reads = 0;
    for (const auto& k : r.kernels) {
      SCOPED_TRACE(fmt::format("{} / {}", r.hierarchy, k.kernel));
      const auto& cnt = k.rf.counts;
      auto lv = [&](const char* n) {
        return cnt.levels[static_cast<size_t>(r.energies.LevelIndex(n))];
      };
      const auto mrf = lv("MRF"), rc = lv("RC"), rsp = lv("RSP");
      const uint64_t misses = cnt.events[0];
      // Every source register is read at exactly one level.
      EXPECT_EQ(Reads(mrf) + Reads(rc) + Reads(rsp), k.rf.operand_regs);
      EXPECT_EQ(k.rf.core_reads, Reads(mrf));
      // Every result is written at exactly one level; hierarchical live-outs are RC writes too.
      const uint64_t live_outs = rsp.drains;
      const bool to_rc = c.rc > 0 && std::string(c.org) == "hierarchical";
      EXPECT_EQ(Writes(mrf) + Writes(rc) + Writes(rsp), k.rf.result_regs + (to_rc ? live_outs : 0));
      if (c.rc > 0) {
        EXPECT_EQ(misses, Reads(mrf));  // every MRF read is an RC miss
        EXPECT_EQ(Writes(mrf), 0u);     // write-allocate: every result goes to the RC or RSP
        if (to_rc) {
          EXPECT_EQ(mrf.writebacks, rc.drains);  // only evictions reach the MRF
        } else {
          // parallel-evict: evictions, live-outs and the RC copies a fill takes.
          EXPECT_GE(mrf.writebacks, rc.drains + live_outs);
        }
      } else {
        EXPECT_EQ(misses, 0u);
        EXPECT_EQ(Reads(rc) + Writes(rc) + rc.drains, 0u);
        EXPECT_EQ(mrf.writebacks, live_outs);
      }
      if (std::string(c.org) == "parallel-lifetime") {
        EXPECT_EQ(rsp.fills + rsp.drains, 0u);  // no transfers
        EXPECT_EQ(mrf.writebacks, rc.drains);
      }
      if (c.rsp == 0) {
        EXPECT_EQ(Reads(rsp) + Writes(rsp) + rsp.fills + rsp.drains, 0u);
      }
      rsp_reads += Reads(rsp);
      rc_reads += Reads(rc);
    }
    if (c.rsp > 0) {
      EXPECT_GT(rsp_reads, 0u);
    }
    if (c.rc > 0) {
      EXPECT_GT(rc_reads, 0u);
    }
    if (work == 0)
      work = r.warp_instructions;
    EXPECT_EQ(r.warp_instructions, work);
  }
}
TEST(HybridRc, EveryCorpusKernelRunsAndCountsAddUp) {
  CheckCorpusKernelsRunAndCountsAddUp(false);
}
TEST(WholeCorpusHybridRc, EveryCorpusKernelRunsAndCountsAddUp) {
  CheckCorpusKernelsRunAndCountsAddUp(true);
}

class HybridCli : public test::CliFixture {
 protected:
  HybridCli() : CliFixture("gpurf-hybrid-cli-") {}
};

TEST_F(HybridCli, BadHybridYamlExitsTwoWithFileLineColumn) {
  struct Bad {
    std::string body, where, what;
  };
  const std::string head = "design:\n  name: x\nhierarchy:\n  kind: hybrid\n";
  for (const Bad& b :
       {Bad{"  rc_bytes: 1000\n", "bad.yaml:5:13", "rc_bytes"},
        Bad{"  rsp_bytes: 100\n", "bad.yaml:5:14", "rsp_bytes"},
        Bad{"  rc_bytes: 0\n  rsp_bytes: 0\n", "bad.yaml:6:14", "rsp_bytes"},
        Bad{"  organization: sideways\n", "bad.yaml:5:17", "organization"},
        Bad{"  rc_bytes: 0\n  organization: parallel-evict\n", "bad.yaml:6:17", "organization"}}) {
    const fs::path bad = dir_ / "bad.yaml";
    std::ofstream(bad) << head << b.body;
    const test::CliResult r = Run("sim " + bad.string() + " --workload vectorAdd");
    SCOPED_TRACE(b.body);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find(b.where), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(b.what), std::string::npos) << r.err;
  }
}

TEST_F(HybridCli, ExamplesRunOnTheGtx980) {
  const std::string ex = GPURF_SOURCE_DIR "/configs/examples/";
  const test::CliResult r =
      Run("energy " + ex + "bailey_hybrid.yaml " + ex + "bailey_rc_only.yaml " + ex +
          "bailey_rsp_only.yaml --workload vectorAdd --sms 2");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("Bailey hybrid hierarchical: RC 8 KB + RSP 4 KB"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("Bailey RC only: 12 KB/SM"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Bailey RSP only: 12 KB/SM"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace gpurf::harness
