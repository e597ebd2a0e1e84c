// Activity drivers of the handshake structures (MRF, RFC, warp scheduler), the component fit and
// the per-level table.
//
// Label "unit" (no tools): the drivers against their golden models alone (what each stimulus
// set makes the structure do: the MRF's bank reads and write-backs through its handshakes, the
// RFC's lookups, hits, misses and writes, the scheduler's issues and activations) and the fit
// on exact numbers with four components.
// Label "char" (Yosys, Verilator, OSU018): the gate-level flow on reduced shapes, checked
// against relations that must hold: positive energies, a tag check cheaper than a hit's lookup
// (tag check + data read), tag-check energy and area growing with the entries per slot, SRAM
// bank energy from the model beside the logic, and the per-level table of the Gebhart Fig. 24
// configurations (small shapes) containing every level.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "base/diag.h"
#include "base/fs.h"
#include "gen/config/yaml_loader.h"
#include "gen/structures/emit.h"
#include "synth/activity_driver.h"
#include "synth/characterize.h"
#include "synth/characterize_cache.h"
#include "synth/characterize_fit.h"
#include "synth/characterize_report.h"
#include "synth/level_table.h"
#include "verif/harness/verilator_build.h"

namespace gpurf {
namespace {

GeneratedStructure Make(const std::string& kind,
                        const std::vector<std::pair<std::string, std::string>>& values) {
  const StructureKind* k = FindStructureKind(kind);
  EXPECT_NE(k, nullptr) << kind;
  ParamSet p(k->params);
  for (const auto& [name, v] : values)
    p.Set(name, v, SourceLoc{}, "--" + name);
  return Emit(k->make_spec(p));
}

DriveValues Values(const GeneratedStructure& g) {
  DriveValues v;
  for (const auto& p : g.ports)
    v.emplace_back(static_cast<size_t>((p.width + 63) / 64), 0);
  return v;
}

// The accesses a driver counted per stimulus set, by component name.
struct DriverCounts {
  std::vector<AccessComponent> components;
  std::map<StimulusSet, AccessCounts> sets;

  uint64_t n(const StimulusSet& set, const std::string& component) const {
    for (size_t c = 0; c < components.size(); ++c)
      if (components[c].name == component)
        return sets.at(set).at(c);
    ADD_FAILURE() << "no component " << component;
    return 0;
  }
};

// Runs a driver alone (no simulator): reset, warm-up, then `cycles` cycles of each set.
DriverCounts RunDriver(const GeneratedStructure& g, uint64_t cycles) {
  auto d = MakeActivityDriver(g);
  DriveValues v = Values(g);
  ActivityRng rng(7);
  d->Reset(v);
  for (uint64_t c = 0; c < d->WarmupCycles(); ++c)
    d->Warmup(c, rng, v);
  std::vector<StimulusSet> sets = StandardStimulusSets();
  for (const auto& s : d->ExtraSets())
    sets.push_back(s);
  DriverCounts out;
  out.components = d->Components();
  for (const auto& s : sets) {
    out.sets[s].assign(out.components.size(), 0);
    for (uint64_t c = 0; c < cycles; ++c)
      d->Drive(s, rng, v, out.sets[s]);
  }
  return out;
}

const std::vector<std::pair<std::string, std::string>> kMrf = {
    {"banks", "2"}, {"rows", "16"},      {"width", "16"},    {"warps", "4"},
    {"regs", "8"},  {"collectors", "2"}, {"tag_width", "2"}, {"counter_width", "8"}};

TEST(ModelDrivers, MrfReadsAreBankReadsThroughTheCollectors) {
  const auto c = RunDriver(Make("mrf", kMrf), 400);
  EXPECT_EQ(c.n(kIdleSet, "read") + c.n(kIdleSet, "write"), 0U);
  // Reads: 3 operands per accepted instruction, at most one per bank and cycle (2 banks), and
  // conflicts keep it below that.
  EXPECT_GT(c.n(kReadsSet, "read"), 400U);
  EXPECT_LE(c.n(kReadsSet, "read"), 2U * 400U);
  EXPECT_EQ(c.n(kReadsSet, "write"), 0U);
  // Writes: a write-back every cycle, always accepted without reads under write priority.
  EXPECT_EQ(c.n(kWritesSet, "write"), 400U);
  EXPECT_LE(c.n(kWritesSet, "read"), 6U);  // trailing reads of the last instructions
  EXPECT_GT(c.n(kMixedSet, "read"), 100U);
  EXPECT_GT(c.n(kMixedSet, "write"), 100U);
  EXPECT_LT(c.n(kMixedSet, "write"), 300U);
}

TEST(ModelDrivers, MrfReadPriorityHoldsRefusedWriteBacks) {
  auto params = kMrf;
  params.push_back({"wb_policy", "read-priority"});
  const auto c = RunDriver(Make("mrf", params), 400);
  // Offered with probability 1/2 per cycle and held until accepted: never more than offered.
  EXPECT_GT(c.n(kMixedSet, "write"), 100U);
  EXPECT_LE(c.n(kMixedSet, "write"), 300U);
}

const std::vector<std::pair<std::string, std::string>> kRfc1 = {{"active_warps", "2"},
                                                                {"levels", "1"},
                                                                {"l1_entries", "3"},
                                                                {"width", "16"},
                                                                {"reg_bits", "4"}};
const std::vector<std::pair<std::string, std::string>> kRfc2 = {
    {"active_warps", "2"}, {"levels", "2"}, {"l1_entries", "3"},
    {"l0_entries", "1"},   {"width", "16"}, {"reg_bits", "4"}};

TEST(ModelDrivers, RfcLookupsHitsMissesAndWrites) {
  const auto c = RunDriver(Make("rfc", kRfc1), 300);
  EXPECT_EQ(c.n(kReadsSet, "tag_check"), 900U);  // 3 lookups per cycle
  EXPECT_GT(c.n(kReadsSet, "read"), 300U);       // about half of them hit
  EXPECT_LT(c.n(kReadsSet, "read"), 600U);
  EXPECT_EQ(c.n(kReadsSet, "write"), 0U);
  EXPECT_EQ(c.n("misses", "tag_check"), 900U);
  EXPECT_EQ(c.n("misses", "read"), 0U);
  // One level: read, write and the tag check, no L0 component.
  ASSERT_EQ(c.components.size(), 3U);
  EXPECT_EQ(c.components[2].name, "tag_check");
  EXPECT_EQ(c.sets.size(), 5U);               // idle, reads, writes, mixed, misses
  EXPECT_EQ(c.n(kWritesSet, "write"), 300U);  // the MRF takes every write-back
  EXPECT_EQ(c.n(kWritesSet, "tag_check"), 0U);
  EXPECT_GT(c.n(kMixedSet, "read"), c.n(kMixedSet, "tag_check") / 2);  // mostly hits
}

TEST(ModelDrivers, RfcTwoLevelsCountsL0HitsApart) {
  const auto c = RunDriver(Make("rfc", kRfc2), 300);
  EXPECT_EQ(c.n(kReadsSet, "l0_read"), 0U);  // L1 hits and misses
  EXPECT_GT(c.n(kReadsSet, "read"), 300U);   // half of 900 lookups
  EXPECT_EQ(c.n("l0-reads", "read"), 0U);    // L0 hits and misses
  EXPECT_EQ(c.n("misses", "read") + c.n("misses", "l0_read"), 0U);
  EXPECT_GT(c.n("l0-reads", "l0_read"), 300U);
  EXPECT_EQ(c.n("l0-reads", "tag_check"), 900U);
  EXPECT_GT(c.n(kMixedSet, "l0_read"), c.n(kMixedSet, "read"));
}

TEST(ModelDrivers, SchedulerIssuesAndActivations) {
  const auto c = RunDriver(Make("warp-scheduler", {{"warps", "8"}, {"active", "4"}}), 200);
  EXPECT_EQ(c.n(kIdleSet, "read"), 0U);
  EXPECT_EQ(c.n(kReadsSet, "read"), 200U);
  EXPECT_EQ(c.n(kReadsSet, "write"), 0U);
  EXPECT_GT(c.n(kWritesSet, "write"),
            150U);  // nearly every issue deschedules its warp and a pending one enters
  EXPECT_GT(c.n(kWritesSet, "read"), 150U);
  EXPECT_GT(c.n(kMixedSet, "read"), 0U);
  EXPECT_GT(c.n(kMixedSet, "write"), 0U);
  EXPECT_LT(c.n(kMixedSet, "write"), c.n(kMixedSet, "read"));
}

TEST(ModelDrivers, ComponentFitRecoversFourEnergies) {
  // tag 0.3, L1 hit 1.1, write 2.5, L0 hit 0.6.
  const std::vector<std::vector<double>> counts = {
      {100, 0, 300, 100}, {0, 400, 0, 0}, {50, 200, 150, 100}, {0, 0, 300, 0}, {10, 5, 90, 40}};
  std::vector<double> rhs;
  for (const auto& c : counts)
    rhs.push_back(1.1 * c[0] + 2.5 * c[1] + 0.3 * c[2] + 0.6 * c[3]);
  const ComponentFit f = FitAccessComponents(counts, rhs);
  EXPECT_NEAR(f.energy[0], 1.1, 1e-9);
  EXPECT_NEAR(f.energy[1], 2.5, 1e-9);
  EXPECT_NEAR(f.energy[2], 0.3, 1e-9);
  EXPECT_NEAR(f.energy[3], 0.6, 1e-9);
  EXPECT_LT(f.residual, 1e-12);
  // Unused components are left at zero; the two-component case agrees with the old fit.
  const ComponentFit g =
      FitAccessComponents({{10, 0, 0, 0}, {0, 5, 0, 0}, {5, 5, 0, 0}}, {12, 10, 16});
  const AccessFit a = FitAccessEnergies({{10, 0, 12}, {0, 5, 10}, {5, 5, 16}});
  EXPECT_NEAR(g.energy[0], a.e_read, 1e-12);
  EXPECT_NEAR(g.energy[1], a.e_write, 1e-12);
  EXPECT_EQ(g.energy[2], 0);
  EXPECT_NEAR(g.residual, a.residual, 1e-12);
  // Proportional columns cannot be separated.
  EXPECT_THROW(FitAccessComponents({{1, 2, 0, 0}, {2, 4, 0, 0}}, {1, 2}), ToolError);
}

// Energies are never negative: data whose unconstrained fit is (2.1, -1) gives the second
// component 0 and refits the first alone (the mean of 20, 19, 18 over 10 accesses: 1.9).
TEST(ModelDrivers, ComponentFitHoldsANegativeComponentAtZero) {
  const ComponentFit f = FitAccessComponents({{10, 1}, {10, 2}, {10, 3}}, {20, 19, 18});
  EXPECT_NEAR(f.energy[0], 1.9, 1e-12);
  EXPECT_EQ(f.energy[1], 0.0);
  EXPECT_EQ(f.held_at_zero, std::vector<size_t>{1});
  EXPECT_GT(f.residual, 0.0);
  // A fit with no negative component holds nothing.
  EXPECT_TRUE(FitAccessComponents({{10, 1}, {10, 2}, {10, 3}}, {21, 22, 23}).held_at_zero.empty());
}

// A result of the characterize-v2 writer, before the components had names (e_tag_pj,
// e_l0_read_pj, access_semantics; reads/writes/tag_checks/l0_reads per set): the RFC of
// configs/examples/hw_rfc_3level.yaml from `gpurf characterize --accesses 200`. It reads into the
// same numbers, the fit over its stored sets gives its stored energies again, and today's format
// carries them by component name.
TEST(ModelDrivers, ReadsCharacterizeV2ResultsByComponentName) {
  const nlohmann::json v2 = nlohmann::json::parse(
      ReadFile(fs::path(GPURF_SYNTH_TEST_DATA) / "characterize_v2_rfc_result.json"));
  const std::vector<AccessComponent> declared =
      MakeActivityDriver(Make("rfc", kRfc2))->Components();
  ModuleCharacterization r;
  ReadCharacterizationResult(v2, declared, r);
  ASSERT_EQ(r.components.size(), 4U);
  EXPECT_EQ(r.e_read_pj(), v2.at("e_read_pj").get<double>());
  EXPECT_EQ(r.e_write_pj(), v2.at("e_write_pj").get<double>());
  ASSERT_NE(r.Component("tag_check"), nullptr);
  ASSERT_NE(r.Component("l0_read"), nullptr);
  EXPECT_EQ(r.Component("tag_check")->e_pj, v2.at("e_tag_pj").get<double>());
  EXPECT_EQ(r.Component("l0_read")->e_pj, v2.at("e_l0_read_pj").get<double>());
  EXPECT_GT(r.Component("tag_check")->e_pj, 0);
  EXPECT_GT(r.Component("l0_read")->e_pj, 0);
  EXPECT_EQ(r.Component("tag_check")->meaning, declared[2].meaning);
  EXPECT_EQ(r.idle_pj_per_cycle, v2.at("idle_pj_per_cycle").get<double>());
  EXPECT_EQ(r.fit_residual, v2.at("fit_residual").get<double>());
  EXPECT_EQ(r.leakage_w, v2.at("leakage_w").get<double>());
  EXPECT_EQ(r.nets, v2.at("nets").get<int>());
  const auto& sets = v2.at("stimulus_sets");
  ASSERT_EQ(r.sets.size(), 6U);
  ASSERT_EQ(sets.size(), 6U);
  const std::vector<std::string> old_counts = {"reads", "writes", "tag_checks", "l0_reads"};
  for (size_t i = 0; i < sets.size(); ++i) {
    SCOPED_TRACE(r.sets[i].set);
    EXPECT_EQ(r.sets[i].set, sets[i].at("set").get<std::string>());
    EXPECT_EQ(r.sets[i].cycles, sets[i].at("cycles").get<uint64_t>());
    for (size_t c = 0; c < old_counts.size(); ++c)
      EXPECT_EQ(r.sets[i].accesses.at(c), sets[i].value(old_counts[c], uint64_t{0}));
    EXPECT_EQ(r.sets[i].energy.dynamic_pj(), sets[i].at("energy").at("dynamic_pj").get<double>());
  }
  EXPECT_EQ(r.sets[5].set, "l0-reads");
  EXPECT_GT(r.sets[5].accesses[3], 0U);  // l0_read
  // The fit over the stored sets: the stored energies.
  ModuleCharacterization refit = r;
  FitStimulusSets(refit);
  for (size_t c = 0; c < r.components.size(); ++c)
    EXPECT_DOUBLE_EQ(refit.components[c].e_pj, r.components[c].e_pj) << r.components[c].name;
  EXPECT_DOUBLE_EQ(refit.idle_pj_per_cycle, r.idle_pj_per_cycle);
  // Today's format names the components and reads back the same numbers.
  const nlohmann::ordered_json now = CharacterizationResultJson(r);
  EXPECT_FALSE(now.contains("e_tag_pj"));
  EXPECT_EQ(now.at("components").at("tag_check").at("e_pj").get<double>(),
            v2.at("e_tag_pj").get<double>());
  EXPECT_EQ(now.at("stimulus_sets").at(4).at("accesses").at("tag_check").get<uint64_t>(),
            sets[4].at("tag_checks").get<uint64_t>());
  ModuleCharacterization back;
  ReadCharacterizationResult(nlohmann::json::parse(now.dump()), declared, back);
  ASSERT_EQ(back.components.size(), r.components.size());
  for (size_t c = 0; c < r.components.size(); ++c)
    EXPECT_EQ(back.components[c].e_pj, r.components[c].e_pj) << r.components[c].name;
  ASSERT_EQ(back.sets.size(), r.sets.size());
  for (size_t i = 0; i < r.sets.size(); ++i) {
    EXPECT_EQ(back.sets[i].accesses, r.sets[i].accesses);
    EXPECT_EQ(back.sets[i].energy.dynamic_pj(), r.sets[i].energy.dynamic_pj());
  }
  // A driver's components begin with read and write.
  EXPECT_THROW(DeclaredComponents({{"tag_check", "", ""}}), ToolError);
}

// ------------------------------------------------------------------ gate level (label char)

class CharModelDrivers : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    lib_ = new LibertyLibrary(LoadLiberty(DefaultLibertyPath()));
    opt_.cycles = 1000;
    opt_.synth.jobs = 2;
    opt_.sta_check = false;
    opt_.progress = [](const std::string&) {};
  }
  static void TearDownTestSuite() {
    delete lib_;
    lib_ = nullptr;
  }
  static std::vector<ModuleCharacterization> Run(const std::vector<GeneratedStructure>& gs) {
    std::vector<const GeneratedStructure*> p;
    for (const auto& g : gs)
      p.push_back(&g);
    return CharacterizeAll(p, *lib_, opt_);
  }
  static inline LibertyLibrary* lib_ = nullptr;
  static inline CharacterizeOptions opt_;
};

TEST_F(CharModelDrivers, MrfLogicPlusSramModelAndFlopBanks) {
  auto flops = kMrf;
  flops.push_back({"bank_impl", "flops"});
  const auto rs = Run({Make("mrf", kMrf), Make("mrf", flops)});
  const auto& macro = rs[0];
  const auto& flop = rs[1];
  ASSERT_FALSE(macro.synth.macros.empty());
  EXPECT_TRUE(flop.synth.macros.empty());
  for (const auto* r : {&macro, &flop}) {
    EXPECT_GT(r->e_read_pj(), 0) << r->top();
    EXPECT_GT(r->e_write_pj(), 0) << r->top();
    EXPECT_LT(r->fit_residual, 0.2) << r->top();
  }
  EXPECT_GT(macro.macro_e_read_pj, 0);
  EXPECT_GT(macro.macro_e_write_pj, macro.macro_e_read_pj);  // Gebhart Table V: 11 > 8 pJ
  // The flop banks are in the netlist: their storage costs more area than the logic alone.
  EXPECT_GT(flop.synth.total_area, macro.synth.total_area);
  const auto levels = CharacterizationLevels(rs);
  std::set<std::string> names;
  for (const auto& l : levels)
    names.insert(l.level);
  EXPECT_TRUE(names.count("MRF bank"));
  EXPECT_TRUE(names.count("MRF logic (collectors, arbitration)"));
  EXPECT_TRUE(names.count("MRF per access (bank + logic)"));
  EXPECT_TRUE(names.count("MRF (flip-flop banks)"));
  for (const auto& l : levels) {
    if (l.level == "MRF per access (bank + logic)") {
      EXPECT_NEAR(*l.e_read_pj, macro.e_read_pj() + macro.macro_e_read_pj, 1e-12);
    }
  }
}

TEST_F(CharModelDrivers, RfcTagCheckPositiveCheaperThanAHitAndGrowsWithEntries) {
  auto big = kRfc1;
  big[2].second = "6";
  const auto rs = Run({Make("rfc", kRfc1), Make("rfc", big), Make("rfc", kRfc2)});
  const auto energy = [](const ModuleCharacterization& r, const char* component) {
    const EnergyComponent* c = r.Component(component);
    EXPECT_NE(c, nullptr) << r.top() << " " << component;
    return c != nullptr ? c->e_pj : 0;
  };
  for (const auto& r : rs) {
    EXPECT_GT(energy(r, "tag_check"), 0) << r.top();
    EXPECT_GT(r.e_read_pj(), 0) << r.top();
    EXPECT_GT(r.e_write_pj(), 0) << r.top();
    // A hit costs its tag check plus the data read: a lookup that hits costs more than the tag
    // check alone, and a result write (tag check, data write, evictions) more than a data read.
    EXPECT_LT(energy(r, "tag_check"), energy(r, "tag_check") + r.e_read_pj()) << r.top();
    EXPECT_GT(r.e_write_pj(), r.e_read_pj()) << r.top();
    EXPECT_EQ(r.sets.size(), r.Component("l0_read") != nullptr ? 6U : 5U) << r.top();
  }
  // More entries per slot: more tags to compare, more rows to read and write, more area.
  EXPECT_GT(energy(rs[1], "tag_check"), energy(rs[0], "tag_check"));
  EXPECT_GT(rs[1].e_read_pj(), rs[0].e_read_pj());
  EXPECT_GT(rs[1].synth.total_area, rs[0].synth.total_area);
  // Two levels: L0 hits measured apart.
  EXPECT_EQ(rs[0].Component("l0_read"), nullptr);
  EXPECT_GT(energy(rs[2], "l0_read"), 0);
  const auto levels = CharacterizationLevels({rs[2]});
  ASSERT_EQ(levels.size(), 3U);
  EXPECT_EQ(levels[0].level, "RFC L1");
  EXPECT_EQ(levels[1].level, "RFC L0");
  EXPECT_EQ(levels[2].level, "RFC tag check");
}

TEST_F(CharModelDrivers, SchedulerIssueAndActivationEnergies) {
  const auto rs = Run({Make("warp-scheduler", {{"warps", "8"}, {"active", "4"}})});
  EXPECT_GT(rs[0].e_read_pj(), 0);
  EXPECT_GT(rs[0].e_write_pj(), 0);
  ASSERT_NE(rs[0].Component("read"), nullptr);
  EXPECT_EQ(rs[0].Component("read")->meaning.rfind("one issue", 0), 0U);
}

// The Gebhart Fig. 24 configurations at small shapes (1 lane cluster of 1 lane, 4 warps, 2
// active, 2 MRF banks of 32 rows): every level appears in the per-level table.
TEST_F(CharModelDrivers, PerLevelTableOfTheFigure24Configurations) {
  const std::string base =
      "sm: {lanes: 1, lane_cluster: 1, warps: 4, active_warps: 2}\n"
      "mrf: {banks: 2, entries: 32, width: 32, collectors: 2}\n"
      "scheduler: {kind: two-level}\n";
  const std::vector<std::pair<std::string, std::vector<std::string>>> configs = {
      {"hierarchy: {kind: hw-rfc, levels: 2, l1_entries_per_thread: 6}\n",
       {"MRF bank", "MRF per access (bank + logic)", "RFC L1", "RFC tag check", "warp scheduler"}},
      {"hierarchy: {kind: hw-rfc, levels: 3, l1_entries_per_thread: 6}\n",
       {"MRF bank", "RFC L1", "RFC L0", "RFC tag check", "warp scheduler"}},
      {"hierarchy: {kind: sw-orf, levels: 2, l1_entries_per_thread: 3}\n",
       {"MRF bank", "MRF logic (collectors, arbitration)", "L1 ORF", "warp scheduler"}},
      {"hierarchy: {kind: sw-orf, levels: 3, l1_entries_per_thread: 3, l0_split: true}\n",
       {"MRF bank", "L1 ORF", "L0 ORF", "warp scheduler"}},
  };
  for (const auto& [hier, want] : configs) {
    const DesignSpec d = LoadDesignFromString(base + hier, "fig24.yaml");
    std::vector<GeneratedStructure> gs;
    std::set<std::string> tops;
    for (const auto* s : d.Implemented()) {
      if (!HasActivityDriver(s->kind))
        continue;  // the rf_system top: its levels are characterized on their own
      GeneratedStructure g = Emit(*s->spec);
      if (tops.insert(g.top).second)
        gs.push_back(std::move(g));
    }
    const auto rs = Run(gs);
    const auto levels = CharacterizationLevels(rs);
    std::set<std::string> names;
    for (const auto& l : levels) {
      names.insert(l.level);
      if (l.e_read_pj) {
        EXPECT_GT(*l.e_read_pj, 0) << hier << l.level;
      }
      if (l.e_write_pj) {
        EXPECT_GT(*l.e_write_pj, 0) << hier << l.level;
      }
    }
    for (const auto& w : want)
      EXPECT_TRUE(names.count(w)) << hier << " lacks " << w;
    const std::string md = CharacterizationMarkdown(rs);
    EXPECT_NE(md.find("## Per-level energies"), std::string::npos);
    EXPECT_EQ(CharacterizationJson(rs, opt_)["levels"].size(), levels.size());
  }
}

}  // namespace
}  // namespace gpurf
