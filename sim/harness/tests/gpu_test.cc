// GPU presets and the `gpu:` section: every preset is consistent, sourced field by field and
// holds its paper's numbers; a design without a `gpu:` section gets the SM gpurf built before
// the presets; overrides apply in order; every bad field, value or combination is an InputError
// at its file:line:column; `gpurf gpu list/show` and `--gpu` on `sim`.
#include "sim/harness/gpu.h"

#include <gtest/gtest.h>

#include <fstream>

#include "base/diag.h"
#include "gen/config/yaml_loader.h"
#include "sim/harness/driver.h"
#include "sim/sm/gpu_config.h"
#include "sim/tests/cli_fixture.h"

namespace gpurf::harness {
namespace {

const sim::GpuConfig& Preset(const std::string& name) {
  const sim::GpuConfig* g = sim::FindGpuPreset(name);
  EXPECT_NE(g, nullptr) << name;
  return *g;
}

// Every field of the SM, as text (padding makes memcmp unusable).
std::string Fields(const sim::SmConfig& sm) {
  sim::GpuConfig g;
  g.sm = sm;
  std::string s;
  for (const auto& f : sim::GpuFields()) {
    if (f.path.starts_with("sm."))
      s += f.path + "=" + sim::GpuFieldValue(g, f.path) + " ";
  }
  return s;
}

DesignSpec Load(const std::string& yaml) {
  return LoadDesignFromString(yaml, "g.yaml");
}

// The InputError ResolveGpu throws for `yaml` (with `cli`), or a failure.
InputError Rejected(const std::string& yaml, const GpuCliOptions& cli = {}) {
  try {
    const DesignSpec d = Load(yaml);
    ResolveGpu(d, cli);
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "accepted:\n" << yaml;
  return InputError({}, "", "", "");
}

TEST(GpuPresets, EveryPresetIsConsistentAndEveryFieldHasASource) {
  const std::vector<std::string> names = sim::GpuPresetNames();
  EXPECT_EQ(names, (std::vector<std::string>{"fermi-gebhart", "gtx480", "gtx980", "pascal-finereg",
                                             "titanx-pascal"}));
  for (const auto& n : names) {
    const sim::GpuConfig& g = Preset(n);
    EXPECT_EQ(g.preset, n);
    EXPECT_EQ(sim::GpuConfigProblem(g), "") << n;
    EXPECT_FALSE(sim::GpuPresetSummary(n).empty()) << n;
    for (const auto& f : sim::GpuFields())
      EXPECT_FALSE(sim::GpuFieldSource(n, f.path).empty()) << n << " " << f.path;
    // Every field's text sets the same value back.
    sim::GpuConfig copy = g;
    for (const auto& f : sim::GpuFields()) {
      EXPECT_TRUE(sim::SetGpuField(copy, f.path, sim::GpuFieldValue(g, f.path))) << f.path;
      EXPECT_EQ(sim::GpuFieldValue(copy, f.path), sim::GpuFieldValue(g, f.path)) << f.path;
    }
  }
  EXPECT_EQ(sim::FindGpuPreset("gtx-480"), nullptr);
}

TEST(GpuPresets, FermiGebhartIsTableOneAndTheSmGpurfAlwaysHad) {
  const sim::GpuConfig& g = Preset("fermi-gebhart");
  // Gebhart Table I / sections 2.1, 6, 7.
  EXPECT_EQ(g.sm.lanes, 32);
  EXPECT_EQ(g.sm.warps, 32);
  EXPECT_EQ(g.sm.active_warps, 8);
  EXPECT_EQ(g.sm.schedulers, 1);
  EXPECT_EQ(g.sm.issue_width, 1);
  EXPECT_EQ(g.sm.policy, sim::WarpPolicy::kTwoLevel);
  EXPECT_EQ(g.sm.registers * 4, 128u * 1024);
  EXPECT_EQ(g.sm.lat_alu, 8);
  EXPECT_EQ(g.sm.lat_sfu, 20);
  EXPECT_EQ(g.sm.lat_shared, 20);
  EXPECT_EQ(g.sm.lat_texture, 400);
  EXPECT_EQ(g.sm.lat_dram, 400);
  EXPECT_EQ(g.mem.shared_banks * 4, 32u);  // 32 bytes/cycle
  // The memory the paper leaves out: the GTX480's, with an unloaded DRAM access of 400 cycles.
  EXPECT_FALSE(g.mem.ideal);
  EXPECT_EQ(g.mem.l1d.bytes, 16u * 1024);
  EXPECT_EQ(g.mem.l2.bytes, 768u * 1024);
  EXPECT_EQ(g.mem.l2_slices, 12);
  EXPECT_EQ(g.mem.l2_latency + g.mem.dram_latency, 400);
  EXPECT_NEAR(g.mem.dram_bytes_per_cycle * g.core_mhz * 1e6, 177.4e9, 0.1e9);
  // Apart from the active warps the design always sets, the SM is SmConfig's defaults: the SM
  // the harness built before the presets.
  sim::SmConfig old;
  sim::SmConfig sm = g.sm;
  sm.active_warps = old.active_warps;
  EXPECT_EQ(Fields(sm), Fields(old));
}

TEST(GpuPresets, PaperNumbers) {
  const sim::GpuConfig& gtx480 = Preset("gtx480");  // Jeon section 5, Jing Table I
  EXPECT_EQ(gtx480.sms, 16);
  EXPECT_EQ(gtx480.sm.warps, 48);
  EXPECT_EQ(gtx480.sm.schedulers, 2);
  EXPECT_EQ(gtx480.sm.active_warps / gtx480.sm.schedulers, 6);
  EXPECT_EQ(gtx480.sm.schedulers * gtx480.sm.issue_width, 2);
  EXPECT_EQ(gtx480.sm.policy, sim::WarpPolicy::kTwoLevel);
  EXPECT_EQ(gtx480.sm.registers * 4, 128u * 1024);
  EXPECT_EQ(gtx480.sm.cta_slots, 8);
  EXPECT_EQ(gtx480.sm.shared_bytes, 48u * 1024);
  EXPECT_EQ(gtx480.mem.l1d.bytes, 16u * 1024);
  EXPECT_EQ(gtx480.mem.l1d.ways, 4u);
  EXPECT_EQ(gtx480.mem.l2.bytes / static_cast<uint32_t>(gtx480.mem.l2_slices), 64u * 1024);

  const sim::GpuConfig& gtx980 = Preset("gtx980");  // Bailey Table I
  EXPECT_EQ(gtx980.sms, 16);
  EXPECT_EQ(gtx980.sm.warps, 64);
  EXPECT_EQ(gtx980.sm.schedulers, 4);
  EXPECT_EQ(gtx980.sm.issue_width, 2);
  EXPECT_EQ(gtx980.sm.active_warps / gtx980.sm.schedulers, 4);
  EXPECT_EQ(gtx980.sm.registers * 4, 256u * 1024);
  EXPECT_EQ(gtx980.sm.shared_bytes, 96u * 1024);
  EXPECT_EQ(gtx980.mem.l1d.bytes, 48u * 1024);
  EXPECT_EQ(gtx980.mem.l1d.mshrs, 32);
  EXPECT_EQ(gtx980.mem.l2.bytes, 2048u * 1024);
  EXPECT_NEAR(gtx980.mem.dram_bytes_per_cycle * gtx980.core_mhz * 1e6, 224e9, 0.1e9);

  const sim::GpuConfig& fr = Preset("pascal-finereg");  // FineReg Table I
  EXPECT_EQ(fr.sms, 16);
  EXPECT_DOUBLE_EQ(fr.core_mhz, 1126);
  EXPECT_EQ(fr.sm.warps, 64);
  EXPECT_EQ(fr.sm.cta_slots, 32);
  EXPECT_EQ(fr.sm.schedulers, 4);
  EXPECT_EQ(fr.sm.policy, sim::WarpPolicy::kGto);
  EXPECT_EQ(fr.sm.registers * 4, 256u * 1024);
  EXPECT_EQ(fr.sm.shared_bytes, 96u * 1024);
  EXPECT_EQ(fr.mem.l1d.bytes, 48u * 1024);
  EXPECT_EQ(fr.mem.l2.bytes, 2048u * 1024);
  EXPECT_EQ(fr.mem.l2.ways, 8u);
  EXPECT_NEAR(fr.mem.dram_bytes_per_cycle * fr.core_mhz * 1e6, 352.5e9, 0.1e9);

  const sim::GpuConfig& tx = Preset("titanx-pascal");  // Accel-Sim SM6_TITANX
  EXPECT_EQ(tx.sms, 28);
  EXPECT_DOUBLE_EQ(tx.core_mhz, 1417);
  EXPECT_EQ(tx.sm.warps, 64);
  EXPECT_EQ(tx.sm.schedulers, 4);
  EXPECT_EQ(tx.sm.issue_width, 2);
  EXPECT_EQ(tx.sm.policy, sim::WarpPolicy::kGto);
  EXPECT_EQ(tx.sm.registers * 4, 256u * 1024);
  EXPECT_EQ(tx.mem.l1d.bytes, 48u * 1024);
  EXPECT_EQ(tx.mem.l1d.sector_bytes, 32u);
  EXPECT_EQ(tx.mem.l2.bytes, 3u * 1024 * 1024);
  EXPECT_EQ(tx.mem.l2_slices, 24);
  EXPECT_NEAR(tx.mem.dram_bytes_per_cycle * tx.core_mhz * 1e6, 480e9, 0.1e9);
}

TEST(GpuPresets, ProblemsNameTheFields) {
  sim::GpuConfig g = Preset("gtx480");
  g.sm.active_warps = 50;
  EXPECT_EQ(sim::GpuConfigProblem(g), "sm.active_warps 50 exceeds sm.warps 48");
  g = Preset("gtx480");
  g.sm.warps = 47;
  EXPECT_NE(sim::GpuConfigProblem(g).find("sm.warps 47 do not divide evenly among sm.schedulers 2"),
            std::string::npos);
  g = Preset("gtx480");
  g.mem.l1d.bytes = 12288;  // 24 sets of 4 x 128 B
  EXPECT_NE(sim::GpuConfigProblem(g).find("l1d.bytes 12288"), std::string::npos);
  g = Preset("titanx-pascal");
  g.mem.l2.sector_bytes = 48;
  EXPECT_NE(sim::GpuConfigProblem(g).find("l2.sector_bytes 48 does not divide"), std::string::npos);
  g = Preset("gtx480");
  g.sm.issue_width = 3;
  EXPECT_NE(sim::GpuConfigProblem(g).find("sm.issue_width 3 is out of range (integer 1..2)"),
            std::string::npos);
  g = Preset("gtx480");
  g.mem.l1d.bytes = 0;  // no L1: no geometry to check
  EXPECT_EQ(sim::GpuConfigProblem(g), "");
}

// Gebhart's unified memory: the L1D is what the register file leaves, in whole sets.
TEST(GpuPresets, UnifiedMemoryL1dIsWhatTheRegisterFileLeaves) {
  sim::GpuConfig g = Preset("gtx480");
  EXPECT_EQ(g.mem.unified_bytes, 0u);
  EXPECT_EQ(sim::UnifiedL1d(g.mem, 65536).bytes, 16384u);  // separate: the preset's L1D
  g.mem.unified_bytes = 131072;
  EXPECT_EQ(sim::GpuConfigProblem(g), "");
  // 4 ways x 128 B = 512-byte sets.
  EXPECT_EQ(sim::UnifiedL1d(g.mem, 131072).bytes, 0u);
  EXPECT_EQ(sim::UnifiedL1d(g.mem, 98304).bytes, 32768u);     // 64 sets
  EXPECT_EQ(sim::UnifiedL1d(g.mem, 100000).bytes, 30720u);    // 31072 left: 60 whole sets
  EXPECT_EQ(sim::UnifiedL1d(g.mem, 131072 - 511).bytes, 0u);  // less than one set left
  EXPECT_EQ(sim::UnifiedL1d(g.mem, 0).bytes, 131072u);
  EXPECT_EQ(sim::UnifiedL1d(g.mem, 0).ways, 4u);
  g.mem.unified_bytes = 65536;
  EXPECT_EQ(sim::GpuConfigProblem(g),
            "unified_bytes 65536 is less than the register file it must hold (sm.registers 32768 "
            "x 4 bytes = 131072)");
  g.mem.unified_bytes = 131072;
  g.mem.ideal = true;
  EXPECT_NE(sim::GpuConfigProblem(g).find("unified_bytes 131072 needs memory: hierarchy"),
            std::string::npos);
}

// ------------------------------------------------------------------------------ ResolveGpu

TEST(ResolveGpu, WithoutAGpuSectionTheSmIsTheOneBuiltBeforePresets) {
  for (const std::string& yaml :
       {std::string("design:\n  name: a\n"),
        std::string("sm:\n  lanes: 8\n  warps: 4\n  active_warps: 4\nmrf:\n  banks: 4\n  "
                    "entries: 64\nhierarchy:\n  kind: mrf-only\n"),
        std::string("sm:\n  warps: 48\n  active_warps: 6\nmrf:\n  entries: 512\n")}) {
    const DesignSpec d = Load(yaml);
    for (const char* sched : {"", "single-level"}) {
      DriverOptions o;
      o.scheduler = sched;
      bool two_level = false;
      const sim::SmConfig sm = SmConfigFor(d, o, two_level);
      // What SmConfigFor built before the presets.
      sim::SmConfig old;
      old.lanes = d.sm.lanes;
      old.warps = d.sm.warps;
      old.active_warps = d.sm.active_warps;
      old.registers = DesignRegisters(d);
      const bool old_two = (o.scheduler.empty() ? d.scheduler : o.scheduler) == "two-level" &&
                           old.active_warps < old.warps;
      if (!old_two)
        old.active_warps = old.warps;
      EXPECT_EQ(two_level, old_two);
      EXPECT_EQ(Fields(sm), Fields(old)) << yaml;
    }
  }
  EXPECT_FALSE(ResolveGpu(Load("design:\n  name: a\n"), {}).mem.ideal);
}

TEST(ResolveGpu, PresetThenDesignSmThenGpuFieldsThenFlags) {
  const DesignSpec d = Load(
      "sm:\n  active_warps: 8\nmrf:\n  entries: 512\n"
      "gpu:\n  preset: gtx980\n  sms: 20\n  sm:\n    policy: gto\n    cta_slots: 16\n"
      "  l1d.bytes: 0\n  memory: ideal\n  l2:\n    bytes: 1048576\n");
  sim::GpuConfig g = ResolveGpu(d, {});
  EXPECT_EQ(g.preset, "gtx980");
  EXPECT_EQ(g.sms, 20);
  EXPECT_EQ(g.sm.warps, 64);        // the preset's: the design does not write it
  EXPECT_EQ(g.sm.active_warps, 8);  // the design's
  EXPECT_EQ(g.sm.policy, sim::WarpPolicy::kGto);
  EXPECT_EQ(g.sm.cta_slots, 16);
  EXPECT_EQ(g.sm.registers, 65536u);
  EXPECT_TRUE(g.mem.ideal);
  EXPECT_EQ(g.mem.l1d.bytes, 0u);
  EXPECT_EQ(g.mem.l2.bytes, 1048576u);
  GpuCliOptions cli;
  cli.sms = 3;
  cli.memory = "hierarchy";
  g = ResolveGpu(d, cli);
  EXPECT_EQ(g.sms, 3);
  EXPECT_FALSE(g.mem.ideal);
  // --gpu replaces the file's preset; its fields still apply: 1 MB of L2 does not split into
  // titanx-pascal's 24 slices.
  cli.preset = "titanx-pascal";
  try {
    ResolveGpu(d, cli);
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_EQ(e.loc().str(), "g.yaml:14:12");
    EXPECT_NE(
        e.problem().find("(titanx-pascal): l2.bytes 43690 per slice (1048576 / l2_slices 24)"),
        std::string::npos)
        << e.what();
  }
  g = ResolveGpu(Load("mrf:\n  entries: 512\ngpu:\n  sm.cta_slots: 16\n"), cli);
  EXPECT_EQ(g.preset, "titanx-pascal");
  EXPECT_EQ(g.sm.cta_slots, 16);
  EXPECT_EQ(g.sm.lat_alu, 4);
  // Jing's GTX480: 15 SMs, GTO over all 48 warps.
  g = ResolveGpu(Load("gpu:\n  preset: gtx480\n  sms: 15\n  sm.policy: gto\n  "
                      "sm.active_warps: 48\n"),
                 {});
  EXPECT_EQ(g.sms, 15);
  EXPECT_EQ(g.sm.active_warps, 48);
  EXPECT_EQ(g.sm.policy, sim::WarpPolicy::kGto);
}

TEST(ResolveGpu, RejectionsAreLocated) {
  InputError e = Rejected("design:\n  name: a\ngpu:\n  preset: gtx480\n  sm:\n    warpz: 4\n");
  EXPECT_EQ(e.loc().str(), "g.yaml:6:12");
  EXPECT_EQ(e.field(), "gpu.sm.warpz");
  EXPECT_NE(e.problem().find("did you mean 'sm.warps'"), std::string::npos) << e.what();

  e = Rejected("gpu:\n  sm.policy: fifo\n");
  EXPECT_EQ(e.loc().str(), "g.yaml:2:14");
  EXPECT_EQ(e.value(), "fifo");
  EXPECT_EQ(e.allowed(), "one of: lrr, gto, two-level");

  e = Rejected("gpu:\n  l1d:\n    ways: 0\n");
  EXPECT_EQ(e.loc().str(), "g.yaml:3:11");
  EXPECT_EQ(e.allowed(), "integer 1..1024");

  e = Rejected("gpu:\n  preset: gtx48\n");
  EXPECT_EQ(e.loc().str(), "g.yaml:2:11");
  EXPECT_NE(e.problem().find("did you mean 'gtx480'"), std::string::npos);
  EXPECT_NE(e.allowed().find("fermi-gebhart, gtx480, gtx980, pascal-finereg, titanx-pascal"),
            std::string::npos);

  // Inconsistent: at the override that set the field the problem is about.
  e = Rejected("gpu:\n  preset: gtx480\n  sm.active_warps: 13\n");
  EXPECT_EQ(e.loc().str(), "g.yaml:3:20");
  EXPECT_NE(e.problem().find("sm.active_warps 13 do not divide evenly among sm.schedulers 2"),
            std::string::npos)
      << e.what();
  e = Rejected("gpu:\n  sm.schedulers: 3\n");
  EXPECT_EQ(e.loc().str(), "g.yaml:2:18");
  e = Rejected("gpu:\n  l2_slices: 5\n  memory: ideal\n");
  EXPECT_EQ(e.loc().str(), "g.yaml:2:14") << e.what();
  EXPECT_NE(e.problem().find("l2.bytes 157286 per slice"), std::string::npos) << e.what();

  // The unified memory: a value out of range, and one too small for the register file, at the
  // field's line and column.
  e = Rejected("gpu:\n  preset: gtx480\n  unified_bytes: -4\n");
  EXPECT_EQ(e.loc().str(), "g.yaml:3:18");
  EXPECT_EQ(e.field(), "gpu.unified_bytes");
  EXPECT_EQ(e.allowed(), "integer 0..67108864");
  e = Rejected("gpu:\n  preset: gtx480\n  unified_bytes: 65536\n");
  EXPECT_EQ(e.loc().str(), "g.yaml:3:18");
  EXPECT_NE(e.problem().find("unified_bytes 65536 is less than the register file"),
            std::string::npos)
      << e.what();

  // A field written in sm: and in gpu: with another value.
  e = Rejected("sm:\n  warps: 32\ngpu:\n  sm.warps: 48\n");
  EXPECT_EQ(e.loc().str(), "g.yaml:4:13");
  EXPECT_NE(e.problem().find("disagrees with sm.warps = 32 at g.yaml:2:10"), std::string::npos)
      << e.what();
  e = Rejected("gpu:\n  sm.lanes: 16\n");
  EXPECT_EQ(e.loc().str(), "g.yaml:2:13");

  // The shape of the section: gen's loader.
  try {
    Load("gpu:\n  sm:\n    - 1\n");
    ADD_FAILURE();
  } catch (const InputError& x) {
    EXPECT_EQ(x.loc().str(), "g.yaml:3:5");
  }
  try {
    Load("gpu:\n  sm:\n    warps: 4\n  sm.warps: 4\n");
    ADD_FAILURE();
  } catch (const InputError& x) {
    EXPECT_EQ(x.loc().str(), "g.yaml:4:3");
    EXPECT_NE(x.problem().find("set twice"), std::string::npos);
  }
}

TEST(ResolveGpu, ANamedPresetBringsItsRegisterCapacity) {
  // 128 KB MRF on a 256 KB GPU: the GPU's capacity decides how many CTAs are resident.
  EXPECT_EQ(ResolveGpu(Load("gpu:\n  preset: gtx980\n"), {}).sm.registers, 65536u);
  GpuCliOptions cli;
  cli.preset = "titanx-pascal";
  EXPECT_EQ(ResolveGpu(Load("design:\n  name: a\n"), cli).sm.registers, 65536u);
  // gpu.sm.registers overrides it, with or without a named preset.
  EXPECT_EQ(ResolveGpu(Load("gpu:\n  preset: gtx980\n  sm.registers: 32768\n"), {}).sm.registers,
            32768u);
  EXPECT_EQ(ResolveGpu(Load("gpu:\n  sm.registers: 65536\n"), {}).sm.registers, 65536u);
  // The implicit default adopts the design's MRF (4 KB here: 4 x 64 x 128 bits).
  EXPECT_EQ(
      ResolveGpu(
          Load("sm:\n  lanes: 8\n  warps: 4\n  active_warps: 4\nmrf:\n  banks: 4\n  entries: 64\n"),
          {})
          .sm.registers,
      1024u);
}

// ------------------------------------------------------------------------------ CLI

class GpuCli : public test::CliFixture {
 protected:
  GpuCli() : CliFixture("gpurf-gpu-cli-") {}
};

TEST_F(GpuCli, ListAndShow) {
  test::CliResult r = Run("gpu list");
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* n : {"fermi-gebhart", "gtx480", "gtx980", "pascal-finereg", "titanx-pascal"})
    EXPECT_NE(r.out.find(std::string("\n") + n + " "), std::string::npos) << n << "\n" << r.out;
  EXPECT_NE(r.out.find("Bailey et al., Table I"), std::string::npos);
  r = Run("gpu show gtx980");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("sm.warps                     64         Bailey Table I: 64 warps/SM"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("l2.bytes                     2097152    Bailey Table I: 2048 KB L2"),
            std::string::npos);
  r = Run("gpu show fermi-gebhart");
  EXPECT_NE(r.out.find("sm.lat_alu                   8          Gebhart Table I"),
            std::string::npos);
  r = Run("gpu show gtx490");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("unknown GPU preset (did you mean 'gtx480'?)"), std::string::npos) << r.err;
  r = Run("gpu");
  EXPECT_EQ(r.code, 2);
}

TEST_F(GpuCli, SimRejectsAnUnknownGpuListingThePresets) {
  const test::CliResult r =
      Run("sim '" GPURF_SOURCE_DIR
          "/configs/examples/hw_rfc_6entry.yaml' --workload vectorAdd --gpu gtx");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--gpu"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("fermi-gebhart, gtx480, gtx980, pascal-finereg, titanx-pascal"),
            std::string::npos)
      << r.err;
  const test::CliResult m = Run("energy '" GPURF_SOURCE_DIR
                                "/configs/examples/hw_rfc_6entry.yaml' --workload vectorAdd "
                                "--memory perfect");
  EXPECT_EQ(m.code, 2) << m.err;
  // A preset whose register file is not the design's runs with the GPU's capacity.
  const test::CliResult g = Run("sim '" GPURF_SOURCE_DIR
                                "/configs/examples/hw_rfc_6entry.yaml' --workload vectorAdd --gpu "
                                "gtx980 --sms 1");
  EXPECT_EQ(g.code, 0) << g.err;
  EXPECT_NE(g.out.find("GPU gtx980: 1 SM, 4 schedulers x 2 issue per SM, 256 KB registers per SM"),
            std::string::npos)
      << g.out;
}

}  // namespace
}  // namespace gpurf::harness
