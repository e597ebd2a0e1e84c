// Yosys synthesis of the finereg-system top (a small shape) onto OSU018: the top holds SRAM
// macros of one module (gpurf_sram_1r1w_macro) in two shapes, the ACRF's banks (2 x 16 x 32) and
// the PCRF's data array (8 x 32). Regression: the synthesis used to take the first declared
// shape of a macro module and failed ("Yosys kept 3 cells ..., the generator declared 2"); now
// each declared shape is one macro use, with its own area from the SRAM model.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "gen/structures/finereg_system/finereg_system_gen.h"
#include "gen/structures/finereg_system/finereg_system_spec.h"
#include "synth/synth.h"

namespace gpurf {
namespace {

TEST(SynthFineregSystem, MacrosOfOneModuleInTwoShapes) {
  ParamSet p(FineregSystemSpec::ParamDescs());
  for (const auto& [k, v] : std::map<std::string, std::string>{{"row_bytes", "4"},
                                                               {"regs", "8"},
                                                               {"warps", "4"},
                                                               {"entries", "8"},
                                                               {"ctas", "2"},
                                                               {"banks", "2"},
                                                               {"collectors", "1"}})
    p.Set(k, v, {}, "--" + k);
  const FineregSystemSpec spec = FineregSystemSpec::FromParams(p);
  const GeneratedStructure g = EmitFineregSystem(spec);
  const LibertyLibrary lib = LoadLiberty(DefaultLibertyPath());
  SynthOptions opt;
  opt.jobs = 1;
  const auto rs = SynthesizeAll({&g}, lib, opt);
  ASSERT_EQ(rs.size(), 1u);
  const ModuleSynthResult& r = rs[0];
  ASSERT_EQ(r.macros.size(), 2u);
  EXPECT_EQ(r.macros[0].count, 2);  // the ACRF's banks
  EXPECT_EQ(r.macros[0].figures.shape.depth, 16);
  EXPECT_EQ(r.macros[0].figures.shape.width, 32);
  EXPECT_EQ(r.macros[1].count, 1);  // the PCRF's data array
  EXPECT_EQ(r.macros[1].figures.shape.depth, 8);
  EXPECT_EQ(r.macros[1].figures.shape.width, 32);
  EXPECT_DOUBLE_EQ(r.macro_area, r.macros[0].area() + r.macros[1].area());
  EXPECT_GT(r.total_area, 0);
}

}  // namespace
}  // namespace gpurf
