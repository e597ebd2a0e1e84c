// `gpurf sim/energy --characterization`: a structure's own characterization report (the
// characterization.json `gpurf characterize -o` writes) read and checked (bad inputs name the
// file and the field), FineReg's PCRF and vector-cache events and Bailey's RC/RSP accesses priced
// from it by hand-computed figures, fills and evictions priced apart, and the RC/RSP toggles
// rescaling their levels in the data-dependent estimate.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "base/diag.h"
#include "gen/config/yaml_loader.h"
#include "sim/harness/driver.h"
#include "sim/harness/hierarchies/finereg_system.h"
#include "sim/harness/rtl_loop.h"
#include "sim/passes/rf_energies.h"

namespace gpurf::harness {
namespace {

namespace fs = std::filesystem;
namespace sp = sim::passes;

// A report of one module as `gpurf characterize` writes it (the fields the loader reads, plus
// some it ignores), at 40 nm.
std::string Report(const std::string& kind, const std::string& params,
                   const std::string& components, const std::string& macro = "null") {
  return fmt::format(R"({{
  "generator": "gpurf characterize test",
  "options": {{"scale": true, "target_node_nm": 40}},
  "modules": [
    {{
      "module": "rf_test",
      "structure": "{0}",
      "kind": "{0}",
      "parameters": {1},
      "e_read_pj": 100.0,
      "scaled": {{"from_nm": 180, "to_nm": 40, "components": {2}}},
      "sram_macro": {3}
    }}
  ]
}})",
                     kind, params, components, macro);
}

std::string PcrfReport() {
  return Report("pcrf", R"({"entries": 64, "row_bytes": 128, "ctas": 16, "data_impl": "macro"})",
                R"({"read": 0.5, "write": 1.25, "pointer_update": 1.75})",
                R"({"module": "m", "scaled_e_read_pj": 32.0, "scaled_e_write_pj": 44.0})");
}

std::string HybridReport(bool fill = true) {
  return Report("hybrid-rc", R"({"rc_bytes": 2048, "rsp_bytes": 1024})",
                fmt::format(R"({{"read": 1.0, "write": 3.0, "rc_hit_read": 2.0, "rc_write": 5.0,
                                 {}"write_back": 1.5}})",
                            fill ? R"("rc_fill": 20.0, )" : ""));
}

std::string ThrownBy(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no InputError)";
}

TEST(CharacterizationEnergy, ReadsAReport) {
  const auto cs = sp::ParseStructureCharacterizations(PcrfReport(), "p.json");
  ASSERT_EQ(cs.size(), 1u);
  const sp::StructureCharacterization& c = cs[0];
  EXPECT_EQ(c.kind, "pcrf");
  EXPECT_EQ(c.node_nm, 40);
  EXPECT_DOUBLE_EQ(c.Parameter("entries"), 64);
  EXPECT_DOUBLE_EQ(c.Component("pointer_update"), 1.75);
  EXPECT_DOUBLE_EQ(c.ReadPj(), 32.5);     // logic 0.5 + SRAM model 32
  EXPECT_DOUBLE_EQ(c.WritePj(2), 89.25);  // logic 1.25 + 2 x 44
  EXPECT_NE(c.Source().find("gpurf characterize pcrf"), std::string::npos);
  EXPECT_NE(c.Source().find("entries 64"), std::string::npos);
  EXPECT_NE(c.Source().find("p.json"), std::string::npos);
  EXPECT_FALSE(c.parameters.count("data_impl"));  // only numbers
}

TEST(CharacterizationEnergy, BadReportsNameTheFileAndField) {
  // Malformed JSON: file:line:column.
  EXPECT_NE(ThrownBy([] {
              sp::ParseStructureCharacterizations("{\n  \"modules\": [,]\n}", "b.json");
            }).find("b.json:2:"),
            std::string::npos);
  // Not a characterization report.
  EXPECT_NE(ThrownBy([] {
              sp::ParseStructureCharacterizations(R"({"mrf": {}})", "e.json");
            }).find("modules"),
            std::string::npos);
  // Characterized with --no-scale.
  const std::string unscaled = R"({"modules": [{"kind": "pcrf", "module": "m", "scaled": null}]})";
  const std::string m = ThrownBy([&] { sp::ParseStructureCharacterizations(unscaled, "u.json"); });
  EXPECT_NE(m.find("u.json"), std::string::npos) << m;
  EXPECT_NE(m.find("modules[0].scaled"), std::string::npos) << m;
  // A negative energy.
  const std::string neg = Report("pcrf", "{}", R"({"read": -1})");
  EXPECT_NE(ThrownBy([&] {
              sp::ParseStructureCharacterizations(neg, "n.json");
            }).find("modules[0].scaled.components.read"),
            std::string::npos);
  // A missing component and parameter: the field path and what the report has.
  const auto cs =
      sp::ParseStructureCharacterizations(Report("pcrf", "{}", R"({"read": 1})"), "c.json");
  const std::string missing = ThrownBy([&] { cs[0].Component("pointer_update"); });
  EXPECT_NE(missing.find("c.json"), std::string::npos) << missing;
  EXPECT_NE(missing.find("modules[0].scaled.components.pointer_update"), std::string::npos);
  EXPECT_NE(missing.find("read"), std::string::npos);
  EXPECT_NE(ThrownBy([&] { cs[0].Parameter("entries"); }).find("modules[0].parameters.entries"),
            std::string::npos);
  // A missing file.
  EXPECT_NE(ThrownBy([] {
              sp::LoadStructureCharacterizations("/nonexistent/c.json");
            }).find("no such file"),
            std::string::npos);
}

TEST(CharacterizationEnergy, AFolderStandsForItsReport) {
  const fs::path dir = fs::temp_directory_path() / fmt::format("gpurf_char_{}", ::getpid());
  fs::create_directories(dir);
  std::ofstream(dir / "characterization.json") << HybridReport();
  const auto cs = sp::LoadStructureCharacterizations(dir.string());
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_EQ(cs[0].kind, "hybrid-rc");
  EXPECT_EQ(cs[0].file, (dir / "characterization.json").string());
  fs::remove_all(dir);
}

TEST(CharacterizationEnergy, FineRegPricesThePcrfAndVectorCacheFromOurs) {
  const DesignSpec d = LoadDesign(GPURF_SOURCE_DIR "/configs/examples/finereg.yaml");
  auto cs = sp::ParseStructureCharacterizations(PcrfReport(), "p.json");
  const auto v = sp::ParseStructureCharacterizations(
      Report("live-vector-cache", R"({"entries": 32})", R"({"read": 2.25, "write": 3.0})"),
      "v.json");
  cs.push_back(v[0]);
  energy::Energies e, gebhart;
  sp::RegisterFileEnergies pe;
  EnergiesFor(d, 32, "", e, pe, cs);
  EnergiesFor(d, 32, "", gebhart, pe);
  const int entries = FineRegConfig::From(d).pcrf_entries();
  const double scale = std::sqrt(entries / 64.0);  // the SRAM model's sqrt(D / D0)
  ASSERT_EQ(entries, 1024);                        // 128 KB of 128-byte rows
  auto comp = [](const energy::Energies& x, const char* n) {
    return x.components.at(static_cast<size_t>(x.ComponentIndex(n)));
  };
  EXPECT_DOUBLE_EQ(comp(e, "PCRF tag+row writes").pj, 1.25 + 44.0 * scale);
  EXPECT_DOUBLE_EQ(comp(e, "PCRF chain hops").pj, 0.5 + 32.0 * scale);
  EXPECT_DOUBLE_EQ(comp(e, "PCRF pointer updates").pj, 1.75);
  EXPECT_DOUBLE_EQ(comp(e, "vector-cache accesses").pj, 2.25);
  EXPECT_NE(comp(e, "PCRF chain hops").source.find("ours: gpurf characterize pcrf"),
            std::string::npos);
  EXPECT_NE(comp(e, "vector-cache accesses").source.find("v.json"), std::string::npos);
  EXPECT_NE(comp(gebhart, "PCRF chain hops").source.find("estimate"), std::string::npos);
  // Per entry, not per lane-cluster row: a wider cluster does not rescale them.
  energy::Energies wide = e;
  wide.ScaleRows(256);
  EXPECT_DOUBLE_EQ(comp(wide, "PCRF pointer updates").pj, 1.75);
  EXPECT_DOUBLE_EQ(wide.levels[0].read_pj, 2 * e.levels[0].read_pj);
  // 3 appends, 2 hops, 1 pointer update, 4 vector lookups by hand.
  energy::AccessCounts c(e);
  c.events[static_cast<size_t>(e.ComponentIndex("PCRF tag+row writes"))] = 3;
  c.events[static_cast<size_t>(e.ComponentIndex("PCRF chain hops"))] = 2;
  c.events[static_cast<size_t>(e.ComponentIndex("PCRF pointer updates"))] = 1;
  c.events[static_cast<size_t>(e.ComponentIndex("vector-cache accesses"))] = 4;
  const energy::Breakdown b = energy::Evaluate(c, e, energy::SmGeometry{});
  EXPECT_NEAR(b.components_pj(), 3 * (1.25 + 176) + 2 * (0.5 + 128) + 1.75 + 4 * 2.25, 1e-9);
}

DesignSpec Hybrid(const std::string& org) {
  return LoadDesignFromString(
      fmt::format("design:\n  name: h\nsm:\n  active_warps: 8\nhierarchy:\n  kind: hybrid\n  "
                  "rc_bytes: 8192\n  rsp_bytes: 4096\n  organization: {}\nscheduler:\n  kind: "
                  "two-level\n",
                  org),
      "test.yaml");
}

TEST(CharacterizationEnergy, HybridPricesRcRspFillsAndWriteBacksFromOurs) {
  const auto cs = sp::ParseStructureCharacterizations(HybridReport(), "h.json");
  energy::Energies e;
  sp::RegisterFileEnergies pe;
  EnergiesFor(Hybrid("hierarchical"), 8, "", e, pe, cs);
  const energy::LevelEnergy& rc = e.levels.at(static_cast<size_t>(e.LevelIndex("RC")));
  const energy::LevelEnergy& rsp = e.levels.at(static_cast<size_t>(e.LevelIndex("RSP")));
  EXPECT_DOUBLE_EQ(rc.read_pj, 2.0);
  EXPECT_DOUBLE_EQ(rc.write_pj, 5.0);
  EXPECT_DOUBLE_EQ(rc.drain_pj, 1.5);
  EXPECT_DOUBLE_EQ(rsp.read_pj, 1.0);
  EXPECT_DOUBLE_EQ(rsp.write_pj, 3.0);
  EXPECT_DOUBLE_EQ(rsp.fill_pj, 20.0);
  EXPECT_NE(rc.source.find("ours: gpurf characterize hybrid-rc"), std::string::npos);
  EXPECT_NE(rsp.source.find("h.json"), std::string::npos);
  // By hand, one warp operand = 8 rows: RC 1 hit read, 1 write, 2 evictions; RSP 1 read,
  // 1 write, 3 fills, 1 live-out drain.
  energy::AccessCounts c(e);
  energy::LevelCounts& crc = c.levels.at(static_cast<size_t>(e.LevelIndex("RC")));
  energy::LevelCounts& crsp = c.levels.at(static_cast<size_t>(e.LevelIndex("RSP")));
  crc.reads[0] = 1;
  crc.writes[0] = 1;
  crc.drains = 2;
  crsp.reads[0] = 1;
  crsp.writes[0] = 1;
  crsp.fills = 3;
  crsp.drains = 1;
  const energy::Breakdown b = energy::Evaluate(c, e, energy::SmGeometry{});
  EXPECT_NEAR(b.FindLevel("RC")->access_pj, 8 * (2.0 + 5.0 + 2 * 1.5), 1e-9);
  EXPECT_NEAR(b.FindLevel("RSP")->access_pj, 8 * (1.0 + 3.0 + 3 * 20.0 + 1.0), 1e-9);
  // Without a characterization fills are RSP writes and evictions RC reads, as before.
  energy::Energies d;
  EnergiesFor(Hybrid("hierarchical"), 8, "", d, pe);
  EXPECT_LT(d.levels[1].drain_pj, 0);
  EXPECT_LT(d.levels[2].fill_pj, 0);
  // A characterization of an organization without transfers has no rc_fill: fills stay writes.
  energy::Energies nf;
  EnergiesFor(Hybrid("hierarchical"), 8, "", nf, pe,
              sp::ParseStructureCharacterizations(HybridReport(false), "nf.json"));
  EXPECT_LT(nf.levels[2].fill_pj, 0);
  // A component missing: the file and field.
  const auto bad = sp::ParseStructureCharacterizations(
      Report("hybrid-rc", "{}", R"({"read": 1.0, "write": 3.0})"), "bad.json");
  const std::string m = ThrownBy([&] {
    energy::Energies x;
    EnergiesFor(Hybrid("hierarchical"), 8, "", x, pe, bad);
  });
  EXPECT_NE(m.find("bad.json"), std::string::npos) << m;
  EXPECT_NE(m.find("modules[0].scaled.components.rc_hit_read"), std::string::npos) << m;
  // A kind the hierarchy does not price is left out.
  energy::Energies other;
  EnergiesFor(Hybrid("hierarchical"), 8, "", other, pe,
              sp::ParseStructureCharacterizations(PcrfReport(), "p.json"));
  EXPECT_DOUBLE_EQ(other.levels[1].read_pj, d.levels[1].read_pj);
}

TEST(CharacterizationEnergy, RcAndRspTogglesRescaleTheirLevels) {
  energy::Energies e;
  sp::RegisterFileEnergies pe;
  EnergiesFor(Hybrid("hierarchical"), 8, "", e, pe);
  energy::AccessCounts c(e);
  for (auto& l : c.levels)
    l.reads[0] = 10;
  const energy::Breakdown uniform = energy::Evaluate(c, e, energy::SmGeometry{});
  DataActivity a;
  a.level[static_cast<size_t>(ActivityLevel::kL0)] = {10, 1000, 250};  // RC rows: activity 0.25
  a.level[static_cast<size_t>(ActivityLevel::kL1)] = {10, 1000, 750};  // RSP rows: 0.75
  const energy::Breakdown data = a.DataDependent(uniform);
  EXPECT_NEAR(data.FindLevel("RC")->access_pj, uniform.FindLevel("RC")->access_pj * 0.5, 1e-9);
  EXPECT_NEAR(data.FindLevel("RSP")->access_pj, uniform.FindLevel("RSP")->access_pj * 1.5, 1e-9);
  EXPECT_DOUBLE_EQ(data.FindLevel("MRF")->access_pj, uniform.FindLevel("MRF")->access_pj);
  // Summed breakdowns keep the level's activity name.
  energy::Breakdown sum;
  sum += uniform;
  EXPECT_NEAR(a.DataDependent(sum).FindLevel("RC")->access_pj, data.FindLevel("RC")->access_pj,
              1e-9);
}

// The PCRF's row toggles (pcrf transactor: appends and walks) rescale its tag+row writes and
// chain hops, not its pointer updates nor a level whose rows did not move.
TEST(CharacterizationEnergy, PcrfTogglesRescaleItsRowAccesses) {
  const DesignSpec d = LoadDesign(GPURF_SOURCE_DIR "/configs/examples/finereg.yaml");
  energy::Energies e;
  sp::RegisterFileEnergies pe;
  EnergiesFor(d, 32, "", e, pe, sp::ParseStructureCharacterizations(PcrfReport(), "p.json"));
  energy::AccessCounts c(e);
  c.levels[0].reads[0] = 10;
  for (auto& n : c.events)
    n = 5;
  const energy::Breakdown uniform = energy::Evaluate(c, e, energy::SmGeometry{});
  DataActivity a;
  a.pcrf = {8, 1000, 200};  // activity 0.2: 0.4 of the uniform-random energy
  const energy::Breakdown data = a.DataDependent(uniform);
  for (const char* n : DataActivity::kPcrfRowComponents) {
    ASSERT_NE(uniform.FindComponent(n), nullptr) << n;
    EXPECT_GT(uniform.FindComponent(n)->pj, 0.0) << n;
    EXPECT_NEAR(data.FindComponent(n)->pj, uniform.FindComponent(n)->pj * 0.4, 1e-9) << n;
  }
  EXPECT_DOUBLE_EQ(data.FindComponent("PCRF pointer updates")->pj,
                   uniform.FindComponent("PCRF pointer updates")->pj);
  EXPECT_DOUBLE_EQ(data.FindComponent("vector-cache accesses")->pj,
                   uniform.FindComponent("vector-cache accesses")->pj);
  EXPECT_DOUBLE_EQ(data.FindLevel("MRF")->access_pj, uniform.FindLevel("MRF")->access_pj);
  // Summed over kernels, the PCRF's counts add up like a level's.
  DataActivity sum;
  sum += a;
  sum += a;
  EXPECT_EQ(sum.pcrf.transfers, 16u);
  EXPECT_EQ(sum.pcrf.bits, 2000u);
  EXPECT_EQ(sum.pcrf.toggles, 400u);
  // PCRF rows counted for a breakdown that does not price them under those names: an error, not
  // a silently uniform estimate.
  energy::Breakdown other = uniform;
  other.components.erase(other.components.begin());
  EXPECT_THROW(a.DataDependent(other), std::logic_error);
  // Without PCRF rows the components keep their uniform-random energy.
  EXPECT_DOUBLE_EQ(DataActivity{}.DataDependent(uniform).components_pj(), uniform.components_pj());
}

// A row crossing a port counts the bits that differ from the port's previous row (zero first).
TEST(CharacterizationEnergy, TransferCountsTheBitsThatDifferFromThePreviousRow) {
  DataActivity::Level l;
  Bits last;
  Bits a(130), b(130);
  a.set(0, 64, 0xF0F0ULL);  // 8 bits set
  a.set_bit(129, true);     // 9
  b.set(0, 64, 0x0FF0ULL);  // differs from a in 8 bits of the low word, and bit 129
  l.Transfer(last, a);
  EXPECT_EQ(l.toggles, 9u);
  l.Transfer(last, b);
  EXPECT_EQ(l.toggles, 9u + 9u);
  l.Transfer(last, b);
  EXPECT_EQ(l.toggles, 18u);
  EXPECT_EQ(l.transfers, 3u);
  EXPECT_EQ(l.bits, 390u);
  EXPECT_EQ(last, b);
}

}  // namespace
}  // namespace gpurf::harness
