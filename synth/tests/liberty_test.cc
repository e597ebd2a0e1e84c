// The Liberty reader on the real OSU018 library and on a hand-written snippet.
#include "synth/liberty.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "base/diag.h"
#include "synth/liberty_expr.h"
#include "synth/synth.h"

namespace gpurf {
namespace {

bool HasWarning(const LibertyLibrary& lib, const std::string& needle) {
  const auto w = lib.Warnings();
  return std::any_of(w.begin(), w.end(),
                     [&](const std::string& s) { return s.find(needle) != std::string::npos; });
}

TEST(Liberty, Osu018) {
  const LibertyLibrary lib = LoadLiberty(DefaultLibertyPath());
  EXPECT_EQ(lib.name, "osu018_stdcells");
  EXPECT_EQ(lib.time_unit, "1ns");
  EXPECT_EQ(lib.cells.size(), 32u);
  const LibertyCell* dff = lib.Find("DFFPOSX1");
  ASSERT_NE(dff, nullptr);
  EXPECT_TRUE(dff->is_ff);
  EXPECT_TRUE(dff->sequential());
  EXPECT_DOUBLE_EQ(dff->area, 96);
  EXPECT_TRUE(dff->has_internal_power);
  EXPECT_TRUE(dff->has_leakage_power);
  ASSERT_NE(dff->FindPin("CLK"), nullptr);
  EXPECT_EQ(dff->FindPin("CLK")->direction, "input");
  EXPECT_EQ(dff->FindPin("Q")->direction, "output");

  const LibertyCell* latch = lib.Find("LATCH");
  ASSERT_NE(latch, nullptr);
  EXPECT_TRUE(latch->is_latch);
  EXPECT_TRUE(latch->has_area);
  EXPECT_EQ(latch->area, 0);
  EXPECT_EQ(latch->latch_data_in, "D");
  EXPECT_EQ(latch->latch_enable, "CLK");
  EXPECT_TRUE(HasWarning(lib, "cell LATCH declares area 0"));

  const LibertyCell* nand = lib.Find("NAND2X1");
  ASSERT_NE(nand, nullptr);
  EXPECT_FALSE(nand->sequential());
  EXPECT_DOUBLE_EQ(nand->area, 24);
  EXPECT_EQ(nand->FindPin("Y")->function, "(!(A B))");

  ASSERT_NE(lib.SmallestFlipFlop(), nullptr);
  EXPECT_DOUBLE_EQ(lib.SmallestFlipFlop()->area, 96);
  // LATCH is transparent while CLK is high: $_DLATCH_N_ needs an inverter, $_DLATCH_P_ not.
  const std::string map = LatchTechmap(lib);
  EXPECT_NE(map.find("module \\$_DLATCH_P_ (input E, input D, output Q);\n  LATCH "
                     "_TECHMAP_REPLACE_ (.CLK(E), .D(D), .Q(Q));"),
            std::string::npos)
      << map;
  EXPECT_NE(map.find("LATCH _TECHMAP_REPLACE_ (.CLK(en_n), .D(D), .Q(Q));"), std::string::npos)
      << map;
}

constexpr const char* kSnippet = R"(/* hand-written */
library (tiny) {
  time_unit : "1ps" ;
  capacitive_load_unit (1, ff);
  cell (INV) {
    area : 1.5;
    cell_leakage_power : 0.1;
    pin (A) { direction : input; }
    pin (Y) { direction : output; function : "!A";
      internal_power () { related_pin : "A"; rise_power (scalar) { values ("0.1"); } }
    }
  }
  cell (DFF) {
    area : 6.25 ;
    ff (IQ, IQN) { next_state : "D"; clocked_on : "CK"; }
    pin (D) { direction : input; }
    pin (CK) { direction : input; clock : true; }
    pin (Q) { direction : output; function : "IQ"; }
  }
  cell (LATN) {
    area : 4;
    leakage_power () { value : 0.2; }
    latch (IQ, IQN) { data_in : "D"; enable : "!GN"; }
    pin (D) { direction : input; }
    pin (GN) { direction : input; }
    pin (Q) { direction : output; function : "IQ"; }
    pin (ZZ) { direction : output; function : "IQN"; }
  }
  cell (TIE) {
    pin (Y) { direction : output; function : "1"; }
  }
}
)";

TEST(Liberty, HandWrittenSnippet) {
  const LibertyLibrary lib = ParseLiberty(kSnippet, "tiny.lib");
  EXPECT_EQ(lib.name, "tiny");
  EXPECT_EQ(lib.time_unit, "1ps");
  ASSERT_EQ(lib.cells.size(), 4u);
  const LibertyCell& inv = lib.cells.at("INV");
  EXPECT_DOUBLE_EQ(inv.area, 1.5);
  EXPECT_FALSE(inv.sequential());
  EXPECT_TRUE(inv.has_internal_power);
  EXPECT_TRUE(inv.has_leakage_power);
  EXPECT_EQ(inv.FindPin("Y")->function, "!A");
  const LibertyCell& dff = lib.cells.at("DFF");
  EXPECT_TRUE(dff.is_ff);
  EXPECT_DOUBLE_EQ(dff.area, 6.25);
  EXPECT_EQ(dff.state_vars, (std::vector<std::string>{"IQ", "IQN"}));
  const LibertyCell& lat = lib.cells.at("LATN");
  EXPECT_TRUE(lat.is_latch);
  EXPECT_EQ(lat.latch_enable, "!GN");
  EXPECT_TRUE(lat.has_leakage_power);
  EXPECT_FALSE(lat.has_internal_power);
  EXPECT_FALSE(lib.cells.at("TIE").has_area);

  EXPECT_TRUE(HasWarning(lib, "cell TIE declares no area"));
  EXPECT_TRUE(HasWarning(lib, "cell TIE has no power data"));
  EXPECT_TRUE(HasWarning(lib, "cell DFF has no power data"));
  EXPECT_TRUE(HasWarning(lib, "cell LATN has no internal_power"));
  EXPECT_FALSE(HasWarning(lib, "cell INV"));
  EXPECT_EQ(lib.SmallestFlipFlop(), &dff);

  // Active-low enable: $_DLATCH_N_ maps directly, $_DLATCH_P_ through an inverter.
  const std::string map = LatchTechmap(lib);
  EXPECT_NE(map.find("module \\$_DLATCH_N_ (input E, input D, output Q);\n  LATN "
                     "_TECHMAP_REPLACE_ (.GN(E), .D(D), .Q(Q));"),
            std::string::npos)
      << map;
  EXPECT_NE(map.find("LATN _TECHMAP_REPLACE_ (.GN(en_n), .D(D), .Q(Q));"), std::string::npos)
      << map;
}

TEST(Liberty, MalformedIsInputErrorWithLine) {
  try {
    ParseLiberty("library (x) {\n  cell (A) {\n    area : 1;\n", "bad.lib");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.lib:2"), std::string::npos) << e.what();
  }
  EXPECT_THROW(ParseLiberty("cell (A) { }", "x.lib"), InputError);
  EXPECT_THROW(ParseLiberty("library (x) { area : 3; }", "x.lib"), InputError);  // no cells
}

TEST(Liberty, DeepGroupNestingIsAnInputErrorNotAStackOverflow) {
  // Found by feeding liberty_fuzz 200000 nested groups: the recursive group parser overflowed
  // the stack. 64 levels are allowed (real libraries use about 6).
  std::string deep = "library (x) {\n";
  for (int i = 0; i < 200000; ++i)
    deep += "g () {\n";
  try {
    ParseLiberty(deep, "deep.lib");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("groups nested more than 64 deep"), std::string::npos)
        << e.what();
    EXPECT_EQ(e.loc().line, 65);
  }
  std::string ok = "library (x) { cell (A) { area : 1; ";
  for (int i = 0; i < 62; ++i)
    ok += "g () { ";
  ok += std::string(62, '}') + " } }";
  EXPECT_EQ(ParseLiberty(ok, "ok.lib").cells.size(), 1u);
}

TEST(Liberty, MalformedUnitMultipliersAreInputErrorsNotExceptions) {
  // Found by liberty_fuzz: std::stod threw std::invalid_argument on "." and std::out_of_range on
  // a 400-digit multiplier out of ParseLiberty.
  const auto lib = [](const std::string& time_unit) {
    return ParseLiberty("library (x) { time_unit : \"" + time_unit +
                            "\"; capacitive_load_unit (1, ff); cell (A) { area : 1; } }",
                        "u.lib");
  };
  // Such a unit is rejected when the library is read (exit 2 naming the attribute), not carried
  // along as unusable.
  EXPECT_THROW(lib(".ns"), InputError);
  EXPECT_THROW(lib(std::string(400, '9') + "ns"), InputError);
  EXPECT_THROW(lib("1.2.3ns"), InputError);
  EXPECT_DOUBLE_EQ(*lib("10ps").time_unit_ns, 0.01);
  EXPECT_DOUBLE_EQ(*lib("ns").time_unit_ns, 1);
  EXPECT_DOUBLE_EQ(*lib("1ns").capacitive_unit_pf, 0.001);
}

TEST(LibertyExpr, DeepExpressionsAreInputErrorsNotStackOverflows) {
  // Found by feeding liberty_fuzz deeply nested functions: parentheses and '!' recursed in the
  // parser, and long chains of ' or & built trees that Names(), Verilog() and the destructor
  // walk recursively; all overflowed the stack. Trees and nesting are capped at 256 levels.
  for (const std::string& text :
       {std::string(200000, '(') + "A" + std::string(200000, ')'), std::string(300000, '!') + "A",
        "A" + std::string(300000, '\''), [] {
          std::string s;
          for (int i = 0; i < 200000; ++i)
            s += "A&";
          return s + "A";
        }()}) {
    try {
      ParseLibertyExpr(text, "cell X pin Y function");
      ADD_FAILURE() << "no error for " << text.substr(0, 20);
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("expression nested more than 256 deep"),
                std::string::npos)
          << e.what();
      EXPECT_EQ(e.field(), "cell X pin Y function");
    }
  }
  // 255 levels of each kind still parse.
  const auto id = [](const std::string& n) { return n; };
  EXPECT_EQ(ParseLibertyExpr(std::string(255, '(') + "A" + std::string(255, ')'), "f")->Verilog(id),
            "A");
  EXPECT_EQ(ParseLibertyExpr(std::string(255, '!') + "A", "f")->Verilog(id),
            std::string(255, '~') + "A");
  std::string chain = "A";
  for (int i = 0; i < 255; ++i)
    chain += "&A";
  EXPECT_NO_THROW(ParseLibertyExpr(chain, "f"));
}

TEST(Liberty, MissingFileIsInputErrorNamingIt) {
  try {
    LoadLiberty("/nonexistent/dir/lib.lib");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/dir/lib.lib"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace gpurf
