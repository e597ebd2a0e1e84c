// Switching-activity characterization (label "char"): the Liberty power data and function
// reader against hand-computed values, the least-squares fit and the scaling factors on exact
// numbers, and the whole flow on small flop arrays (4x8 2R1W, 3x5 1R1W and neighbours) checked
// against physics that must hold: positive energies, writes costlier than reads, more energy
// for more entries and more bits, exact leakage agreement with OpenSTA, the cache, and the
// error paths (missing and malformed Liberty, Yosys failure, unknown structure kind).
#include "synth/characterize.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "base/diag.h"
#include "gen/structures/flop_array/flop_array_gen.h"
#include "gen/structures/orf/orf_gen.h"
#include "gen/structures/orf/orf_spec.h"
#include "synth/characterize_fit.h"
#include "synth/characterize_report.h"
#include "synth/gate_sim.h"
#include "synth/liberty_expr.h"
#include "synth/power.h"
#include "verif/harness/verilator_build.h"
#include "verif/tests/test_util.h"

namespace gpurf {
namespace {

constexpr const char* kLib = R"(library (tiny45nm) {
  time_unit : "1ps";
  voltage_unit : "1V";
  leakage_power_unit : "1pW";
  capacitive_load_unit (1, ff);
  nom_voltage : 1.1;
  power_lut_template (e2x2) {
    variable_1 : input_transition_time;
    variable_2 : total_output_net_capacitance;
    index_1 ("10, 30");
    index_2 ("1, 3");
  }
  cell (NAND) {
    area : 2;
    cell_leakage_power : 5;
    pin (A) { direction : input; capacitance : 1.5; }
    pin (B) { direction : input; capacitance : 2.5; }
    pin (Y) { direction : output; function : "(A B)'";
      internal_power () { related_pin : "A";
        rise_power (e2x2) { values ("1, 3", "5, 7"); }
        fall_power (e2x2) { index_1 ("10, 20"); values ("2, 2", "4, 4"); } }
    }
  }
  cell (DFFR) {
    area : 6;
    ff (IQ, IQN) { next_state : "D"; clocked_on : "!CKN"; clear : "!RN"; }
    pin (D) { direction : input; capacitance : 1; }
    pin (CKN) { direction : input; capacitance : 2; }
    pin (RN) { direction : input; capacitance : 1; }
    pin (Q) { direction : output; function : "IQ"; }
    pin (QN) { direction : output; function : "IQN"; }
  }
}
)";

TEST(CharLiberty, UnitsTablesAndSequentialFunctions) {
  const LibertyLibrary lib = ParseLiberty(kLib, "tiny.lib");
  EXPECT_DOUBLE_EQ(*lib.time_unit_ns, 1e-3);
  EXPECT_DOUBLE_EQ(*lib.voltage_unit_v, 1);
  EXPECT_DOUBLE_EQ(*lib.capacitive_unit_pf, 1e-3);
  EXPECT_DOUBLE_EQ(*lib.leakage_power_unit_w, 1e-12);
  EXPECT_DOUBLE_EQ(*lib.nom_voltage, 1.1);
  EXPECT_DOUBLE_EQ(lib.EnergyUnitPj(), 1e-3);  // fF x V^2 = fJ
  const LibertyCell& nand = lib.cells.at("NAND");
  EXPECT_DOUBLE_EQ(nand.leakage_power, 5);
  EXPECT_DOUBLE_EQ(nand.FindPin("B")->capacitance, 2.5);
  const auto& pw = nand.FindPin("Y")->internal_power;
  ASSERT_EQ(pw.size(), 1u);
  EXPECT_EQ(pw[0].related_pin, "A");
  ASSERT_TRUE(pw[0].rise && pw[0].fall);
  const LibertyTable& r = *pw[0].rise;
  // Corners, the centre (bilinear), and linear extrapolation beyond the last slew point.
  EXPECT_DOUBLE_EQ(r.Lookup(10, 1), 1);
  EXPECT_DOUBLE_EQ(r.Lookup(30, 3), 7);
  EXPECT_DOUBLE_EQ(r.Lookup(20, 2), 4);
  EXPECT_DOUBLE_EQ(r.Lookup(50, 1), 9);
  // The fall table overrides index_1 of its template.
  EXPECT_DOUBLE_EQ(pw[0].fall->Lookup(15, 2), 3);
  const LibertyCell& ff = lib.cells.at("DFFR");
  EXPECT_EQ(ff.ff_clocked_on, "!CKN");
  EXPECT_EQ(ff.ff_next_state, "D");
  EXPECT_EQ(ff.clear, "!RN");
}

// The OpenSTA cross-check's library copy: functions and register data become pseudo inputs,
// output internal_power groups get a `when` pseudo input, and everything else (tables,
// capacitances, leakage) is the original text, which still parses to the same numbers.
TEST(CharLiberty, CrossCheckLibraryRoutesActivityThroughPseudoPins) {
  LibertyLibrary lib = ParseLiberty(kLib, "tiny.lib");
  lib.contents = kLib;  // as LoadLiberty keeps it
  const std::string text = CrossCheckLiberty(lib, {"NAND", "DFFR"});
  EXPECT_NE(text.find("function : \"GPURF_F_Y\";"), std::string::npos) << text;
  EXPECT_NE(text.find("next_state : \"GPURF_N\";"), std::string::npos) << text;
  EXPECT_NE(text.find("when : \"GPURF_W_Y_0\";"), std::string::npos) << text;
  EXPECT_EQ(text.find("(A B)'"), std::string::npos);  // the NAND function is gone
  const LibertyLibrary copy = ParseLiberty(text, "copy.lib");
  const LibertyCell& nand = copy.cells.at("NAND");
  ASSERT_NE(nand.FindPin("GPURF_F_Y"), nullptr);
  EXPECT_EQ(nand.FindPin("GPURF_F_Y")->direction, "input");
  EXPECT_EQ(nand.FindPin("GPURF_F_Y")->capacitance, 0);
  ASSERT_NE(nand.FindPin("GPURF_W_Y_0"), nullptr);
  EXPECT_EQ(nand.FindPin("Y")->function, "GPURF_F_Y");
  ASSERT_EQ(nand.FindPin("Y")->internal_power.size(), 1U);
  EXPECT_EQ(nand.FindPin("Y")->internal_power[0].when, "GPURF_W_Y_0");
  EXPECT_DOUBLE_EQ(nand.FindPin("Y")->internal_power[0].rise->Lookup(20, 2), 4);
  EXPECT_DOUBLE_EQ(nand.FindPin("B")->capacitance, 2.5);
  EXPECT_DOUBLE_EQ(nand.leakage_power, 5);
  const LibertyCell& dff = copy.cells.at("DFFR");
  EXPECT_EQ(dff.ff_next_state, "GPURF_N");
  EXPECT_EQ(dff.ff_clocked_on, "!CKN");
  EXPECT_EQ(dff.FindPin("Q")->function, "IQ");  // register outputs keep the state
  EXPECT_THROW(CrossCheckLiberty(lib, {"NOSUCHCELL"}), ToolError);
}

TEST(CharLiberty, MissingUnitsAreInputErrors) {
  const LibertyLibrary lib = ParseLiberty(
      "library (x) { cell (A) { area : 1; pin (Y) { direction : output; "
      "function : \"1\"; } } }",
      "x.lib");
  EXPECT_THROW(lib.EnergyUnitPj(), InputError);
  EXPECT_THROW(ParseLiberty("library (x) { capacitive_load_unit (1, pf); cell (A) { area : 1; "
                            "pin (Y) { direction : output; internal_power () { rise_power (nope) "
                            "{ values (\"1\"); } } } } }",
                            "x.lib"),
               InputError);
}

TEST(CharLibertyExpr, ParsesPrecedenceAndPrintsVerilog) {
  const auto id = [](const std::string& n) { return n; };
  EXPECT_EQ(ParseLibertyExpr("(!(A B))", "f")->Verilog(id), "~(A & B)");
  EXPECT_EQ(ParseLibertyExpr("A+B*C", "f")->Verilog(id), "(A | (B & C))");
  EXPECT_EQ(ParseLibertyExpr("A B'", "f")->Verilog(id), "(A & ~B)");
  EXPECT_EQ(ParseLibertyExpr("A^B C", "f")->Verilog(id), "((A ^ B) & C)");
  EXPECT_EQ(ParseLibertyExpr("(S&B)|(!S&A)", "f")->Verilog(id), "((S & B) | (~S & A))");
  EXPECT_EQ(ParseLibertyExpr("1", "f")->Verilog(id), "1'b1");
  EXPECT_THROW(ParseLibertyExpr("(A B", "f"), InputError);
  EXPECT_THROW(ParseLibertyExpr("A + ", "f"), InputError);
}

TEST(CharFit, RecoversExactEnergiesAndReportsResidual) {
  // 2 pJ per read, 5 pJ per write.
  const AccessFit f =
      FitAccessEnergies({{{3000, 0, 6000}}, {{0, 1000, 5000}}, {{1500, 500, 5500}}});
  EXPECT_NEAR(f.e_read, 2, 1e-9);
  EXPECT_NEAR(f.e_write, 5, 1e-9);
  EXPECT_NEAR(f.residual, 0, 1e-12);
  const AccessFit g = FitAccessEnergies({{{100, 0, 200}}, {{0, 100, 500}}, {{50, 50, 400}}});
  EXPECT_GT(g.residual, 0.01);
  // A read-only structure: no write column.
  EXPECT_NEAR(FitAccessEnergies({{{10, 0, 30}}, {{0, 0, 0}}, {{5, 0, 15}}}).e_read, 3, 1e-12);
}

TEST(CharScaling, StillmakerBaasFactors) {
  EXPECT_DOUBLE_EQ(StillmakerBaasEnergy(45), 1);
  EXPECT_DOUBLE_EQ(StillmakerBaasEnergy(180), 30.6);
  EXPECT_DOUBLE_EQ(StillmakerBaasArea(32), 0.46);
  // 40 nm: log-log between 45 (1) and 32 nm (0.53 / 0.46).
  const double t = std::log(45.0 / 40.0) / std::log(45.0 / 32.0);
  EXPECT_NEAR(StillmakerBaasEnergy(40), std::pow(0.53, t), 1e-12);
  EXPECT_NEAR(StillmakerBaasArea(40), std::pow(0.46, t), 1e-12);
  EXPECT_GT(StillmakerBaasEnergy(40), 0.53);
  EXPECT_LT(StillmakerBaasEnergy(40), 1);
  const ScalingFactors f = StillmakerBaasScaling(180, 40);
  EXPECT_NEAR(f.energy, std::pow(0.53, t) / 30.6, 1e-12);
  EXPECT_NEAR(f.area, std::pow(0.46, t) / 19.0, 1e-12);
  EXPECT_NE(f.source.find("Stillmaker"), std::string::npos);
  EXPECT_THROW(StillmakerBaasScaling(180, 7), InputError);
  LibertyLibrary lib;
  lib.name = "osu018_stdcells";
  EXPECT_EQ(GuessLibraryNodeNm(lib), 180);
  lib.name = "tiny45nm";
  EXPECT_EQ(GuessLibraryNodeNm(lib), 45);
  lib.name = "mystery";
  EXPECT_FALSE(GuessLibraryNodeNm(lib).has_value());
}

// ------------------------------------------------------------------ the flow on small arrays

const test::Shape kShapes[] = {
    {4, 8, 2, 1, false, false, true},   // 4x8 2R1W
    {8, 8, 2, 1, false, false, true},   // entries doubled
    {4, 16, 2, 1, false, false, true},  // width doubled
    {3, 5, 1, 1, false, false, true},   // 3x5 1R1W
};

class CharFlopArrays : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    lib_ = new LibertyLibrary(LoadLiberty(DefaultLibertyPath()));
    for (const auto& s : kShapes)
      rtl_.push_back(EmitFlopArray(test::MakeSpec(s)));
    std::vector<const GeneratedStructure*> gs;
    for (const auto& g : rtl_)
      gs.push_back(&g);
    opt_.cycles = 2000;
    opt_.synth.jobs = 2;
    opt_.progress = [](const std::string&) {};
    results_ = CharacterizeAll(gs, *lib_, opt_);
  }
  static void TearDownTestSuite() {
    delete lib_;
    lib_ = nullptr;
  }
  static inline LibertyLibrary* lib_ = nullptr;
  static inline CharacterizeOptions opt_;
  static inline std::vector<GeneratedStructure> rtl_;
  static inline std::vector<ModuleCharacterization> results_;
};

TEST_F(CharFlopArrays, AreaIsTheSumOfLibraryCellAreasOfTheNetlist) {
  for (size_t i = 0; i < results_.size(); ++i) {
    const auto& r = results_[i];
    SCOPED_TRACE(r.top());
    // Count the cells of the JSON netlist the simulation read, independently of Yosys stat.
    const GateNetlist nl = ReadYosysJsonNetlist(r.synth.work_dir / "netlist.json", r.top(), *lib_);
    double area = 0;
    for (const auto& c : nl.cells)
      area += c.lib->area > 0 ? c.lib->area : lib_->SmallestFlipFlop()->area;
    EXPECT_NEAR(area, r.synth.total_area, 1e-9 * area);
    EXPECT_EQ(static_cast<int>(nl.cells.size()), r.synth.cell_count());
  }
}

TEST_F(CharFlopArrays, EnergiesArePositiveAndWritesCostMoreThanReads) {
  for (const auto& r : results_) {
    SCOPED_TRACE(r.top());
    EXPECT_GT(r.e_read_pj(), 0);
    EXPECT_GT(r.e_write_pj(), 0);
    EXPECT_GT(r.idle_pj_per_cycle, 0);  // the clock gates' latches toggle every cycle
    EXPECT_GT(r.leakage_w, 0);
    // A write clocks a whole row of flip-flops and drives the write data to every row.
    EXPECT_GT(r.e_write_pj(), r.e_read_pj());
    EXPECT_LT(r.fit_residual, 0.1);
    ASSERT_EQ(r.sets.size(), 4u);
    EXPECT_EQ(r.sets[1].accesses[kReadComponent],
              2000u * rtl_[&r - results_.data()].ports[5].count);
    EXPECT_EQ(r.sets[1].accesses[kWriteComponent], 0u);
    EXPECT_EQ(r.sets[2].accesses[kWriteComponent], 2000u);
    // The mixed set does about half of each.
    EXPECT_NEAR(static_cast<double>(r.sets[3].accesses[kWriteComponent]), 1000, 150);
    // Every set burns more than idle.
    for (size_t s = 1; s < 4; ++s)
      EXPECT_GT(r.sets[s].energy.dynamic_pj(), r.sets[0].energy.dynamic_pj());
  }
}

TEST_F(CharFlopArrays, MonotonicInEntriesAndWidth) {
  const auto& base = results_[0];
  const auto& deeper = results_[1];
  const auto& wider = results_[2];
  EXPECT_GT(deeper.synth.total_area, base.synth.total_area);
  EXPECT_GT(deeper.e_read_pj(), base.e_read_pj());
  EXPECT_GT(deeper.e_write_pj(), base.e_write_pj());
  EXPECT_GT(deeper.idle_pj_per_cycle, base.idle_pj_per_cycle);
  EXPECT_GT(wider.synth.total_area, base.synth.total_area);
  EXPECT_GT(wider.e_read_pj(), base.e_read_pj());
  EXPECT_GT(wider.e_write_pj(), base.e_write_pj());
}

TEST_F(CharFlopArrays, OpenStaCrossCheck) {
  for (const auto& r : results_) {
    SCOPED_TRACE(r.top());
    ASSERT_TRUE(r.sta.available) << r.sta.reason;
    // Same cells, same library: leakage must agree exactly (float rounding aside).
    EXPECT_NEAR(r.sta.sta_leakage_w, r.sta.ours_leakage_w, 1e-6 * r.sta.ours_leakage_w);
    // Same activity on every pin (the cut netlist): switching is 1/2 C V^2 x toggles on both
    // sides, internal power differs by the rise/fall split of each net (OpenSTA averages the
    // two tables per transition) and the quantized `when` duties; measured within 0.2%.
    EXPECT_NEAR(r.sta.sta_switching_w, r.sta.ours_switching_w, 1e-3 * r.sta.ours_switching_w);
    EXPECT_NEAR(r.sta.sta_internal_w, r.sta.ours_internal_w, 0.01 * r.sta.ours_internal_w);
    EXPECT_LT(std::abs(r.sta.dynamic_diff), 0.01);
  }
}

// The simulation model samples the inputs at the falling clock edge (one scheduling region in
// Verilator); the direct form (ports wired to their nets) is the reference: both must see the
// same toggles on every net, the same high times and the same attributed internal energy.
TEST_F(CharFlopArrays, SampledInputsToggleLikeDirectInputs) {
  const auto& r = results_[0];
  const GateNetlist nl = ReadYosysJsonNetlist(r.synth.work_dir / "netlist.json", r.top(), *lib_);
  const EnergyModel model = BuildEnergyModel(nl, *lib_, opt_.energy);
  BuildOptions bopt;
  bopt.trace = false;
  bopt.opt = "-O0";
  bopt.make_flags = "OPT_FAST=-O0 OPT_SLOW=-O0";
  std::vector<std::vector<ToggleRun>> runs;
  for (const bool sampled : {true, false}) {
    GateSimulator sim(nl, *lib_, rtl_[0], bopt, sampled);
    auto driver = MakeActivityDriver(rtl_[0]);
    ActivityRng rng(7);
    sim.Start(*driver, rng);
    runs.emplace_back();
    for (const StimulusSet& set : StandardStimulusSets())
      runs.back().push_back(sim.Run(*driver, set, 300, 10, rng, model.arcs));
  }
  uint64_t toggles = 0;
  for (size_t i = 0; i < runs[0].size(); ++i) {
    SCOPED_TRACE(runs[0][i].set);
    EXPECT_EQ(runs[0][i].rises, runs[1][i].rises);
    EXPECT_EQ(runs[0][i].falls, runs[1][i].falls);
    EXPECT_EQ(runs[0][i].high_ns, runs[1][i].high_ns);
    EXPECT_EQ(runs[0][i].output_internal_pj, runs[1][i].output_internal_pj);
    EXPECT_EQ(runs[0][i].accesses, runs[1][i].accesses);
    for (size_t n = 0; n < nl.nets.size(); ++n)
      toggles += runs[0][i].toggles(static_cast<int>(n));
  }
  EXPECT_GT(toggles, 1000U);  // the comparison saw activity
}

TEST_F(CharFlopArrays, ScaledToFortyNanometres) {
  for (const auto& r : results_) {
    ASSERT_TRUE(r.scaling.has_value());
    EXPECT_EQ(r.scaling->from_nm, 180);
    EXPECT_EQ(r.scaling->to_nm, 40);
    EXPECT_NEAR(r.scaled_e_write_pj(), r.e_write_pj() * r.scaling->energy, 1e-12);
    EXPECT_NEAR(r.scaled_area, r.synth.total_area * r.scaling->area, 1e-9);
  }
}

TEST_F(CharFlopArrays, ReportsAndSecondRunFromCache) {
  const auto j = CharacterizationJson(results_, opt_);
  ASSERT_EQ(j["modules"].size(), results_.size());
  EXPECT_EQ(j["modules"][0]["e_read_pj"], results_[0].e_read_pj());
  const std::string csv = CharacterizationCsv(results_);
  EXPECT_EQ(csv.rfind("module,structure,shape,area_um2,fmax_mhz,e_read_pj,e_write_pj,", 0), 0u);
  EXPECT_NE(CharacterizationMarkdown(results_).find("4x8 2R1W"), std::string::npos);
  const ModuleCharacterization again = CharacterizeModule(rtl_[0], results_[0].synth, *lib_, opt_);
  EXPECT_TRUE(again.from_cache);
  EXPECT_DOUBLE_EQ(again.e_read_pj(), results_[0].e_read_pj());
  EXPECT_DOUBLE_EQ(again.e_write_pj(), results_[0].e_write_pj());
  EXPECT_EQ(again.sets.size(), 4u);
}

TEST(CharErrors, MissingLibertyIsInputError) {
  EXPECT_THROW(LoadLiberty("/no/such/lib.lib"), InputError);
}

TEST(CharErrors, MalformedLibertyIsInputErrorWithLine) {
  try {
    ParseLiberty("library (x) {\n  cell (A) {\n    area : 1;\n    pin (Y) {\n", "bad.lib");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.lib:"), std::string::npos) << e.what();
  }
}

TEST(CharErrors, YosysFailureIsToolError) {
  const fs::path cache = MakeTempDir(fs::temp_directory_path(), "gpurf-char-err-test");
  const LibertyLibrary lib = LoadLiberty(DefaultLibertyPath());
  GeneratedStructure g = EmitFlopArray(test::MakeSpec({2, 4, 1, 1, false, false, false}));
  g.files.back().contents += "\nnot verilog at all\n";
  CharacterizeOptions opt;
  opt.synth.cache_dir = cache;
  opt.progress = [](const std::string&) {};
  EXPECT_THROW(CharacterizeAll({&g}, lib, opt), ToolError);
  fs::remove_all(cache);
}

TEST(CharErrors, UnknownKindHasNoDriver) {
  GeneratedStructure g = EmitFlopArray(test::MakeSpec({2, 4, 1, 1, false, false, false}));
  g.kind = "warp-scheduler-without-driver";
  EXPECT_FALSE(HasActivityDriver(g.kind));
  EXPECT_THROW(MakeActivityDriver(g), ToolError);
  // A port role the read/write driver does not know is refused, naming it.
  GeneratedStructure h = EmitFlopArray(test::MakeSpec({2, 4, 1, 1, false, false, false}));
  h.ports[2].role = "grant";
  try {
    MakeActivityDriver(h);
    FAIL() << "no error";
  } catch (const ToolError& e) {
    EXPECT_NE(std::string(e.what()).find("grant"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gpurf

namespace gpurf {
namespace {

// The ORF levels have (slot, entry) ports, driven by their own activity driver: a 2-slot x
// 2-entry L1 of 16-bit rows and a split L0 of 2 slots. Energies positive, writes above reads,
// and the L1 (3 read ports over 4 rows) dearer per read than the split L0 (one row per bank
// and slot).
TEST(CharOrf, DriverCharacterizesBothLevels) {
  const fs::path cache = MakeTempDir(fs::temp_directory_path(), "gpurf-char-orf-test");
  const LibertyLibrary lib = LoadLiberty(DefaultLibertyPath());
  auto make = [](bool l1, std::vector<std::pair<std::string, std::string>> values) {
    ParamSet p(l1 ? OrfSpec::L1ParamDescs() : OrfSpec::L0ParamDescs());
    for (const auto& [k, v] : values)
      p.Set(k, v, SourceLoc{}, "--" + k);
    return EmitOrf(l1 ? OrfSpec::FromL1Params(p) : OrfSpec::FromL0Params(p));
  };
  const GeneratedStructure g1 =
      make(true, {{"active_warps", "2"}, {"entries_per_thread", "2"}, {"width", "16"}});
  const GeneratedStructure g0 = make(false, {{"active_warps", "2"}, {"width", "16"}});
  ASSERT_TRUE(HasActivityDriver(g1.kind));
  ASSERT_TRUE(HasActivityDriver(g0.kind));
  CharacterizeOptions opt;
  opt.cycles = 1000;
  opt.synth.cache_dir = cache;
  opt.progress = [](const std::string&) {};
  const auto rs = CharacterizeAll({&g1, &g0}, lib, opt);
  ASSERT_EQ(rs.size(), 2U);
  for (const auto& r : rs) {
    EXPECT_GT(r.e_read_pj(), 0) << r.top();
    EXPECT_GT(r.e_write_pj(), r.e_read_pj()) << r.top();
    EXPECT_GT(r.idle_pj_per_cycle, 0) << r.top();
  }
  fs::remove_all(cache);
}

}  // namespace
}  // namespace gpurf
