// Yosys synthesis of the banked MRF onto OSU018, both bank implementations:
//   - flip-flop banks (a small shape): at least one flip-flop per storage bit plus the banks'
//     output registers, no macro cells;
//   - black-boxed SRAM banks (4 x 256 x 128, the per-cluster slice of Gebhart's MRF): Yosys keeps
//     exactly one gpurf_sram_1r1w_macro cell per bank, their area comes from the SRAM model
//     (4 x 38000 um^2 at the 40 nm reference) and stays out of the library-cell total, and the
//     library cells are far fewer than the bank bits (the storage is not synthesized).
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "gen/structures/mrf/mrf_gen.h"
#include "gen/structures/mrf/mrf_spec.h"
#include "synth/synth.h"

namespace gpurf {
namespace {

MrfSpec Spec(const std::map<std::string, std::string>& values) {
  ParamSet p(MrfSpec::ParamDescs());
  for (const auto& [k, v] : values)
    p.Set(k, v, {}, "--" + k);
  return MrfSpec::FromParams(p);
}

TEST(SynthMrf, FlopBanksAndBlackBoxedBanks) {
  const LibertyLibrary lib = LoadLiberty(DefaultLibertyPath());
  const MrfSpec flops = Spec({{"banks", "2"},
                              {"rows", "4"},
                              {"width", "4"},
                              {"warps", "2"},
                              {"regs", "4"},
                              {"collectors", "1"},
                              {"bank_impl", "flops"}});
  const MrfSpec macro = Spec({{"banks", "4"},
                              {"rows", "256"},
                              {"width", "128"},
                              {"warps", "32"},
                              {"regs", "32"},
                              {"collectors", "2"}});
  const GeneratedStructure gf = EmitMrf(flops);
  const GeneratedStructure gm = EmitMrf(macro);
  SynthOptions opt;
  opt.jobs = 2;
  const auto rs = SynthesizeAll({&gf, &gm}, lib, opt);
  ASSERT_EQ(rs.size(), 2u);

  const ModuleSynthResult& f = rs[0];
  const double ff = lib.SmallestFlipFlop()->area;
  EXPECT_TRUE(f.macros.empty());
  EXPECT_EQ(f.macro_area, 0);
  // 2 banks x 4 rows x 4 bits of storage and 2 x 4 bits of bank output registers.
  EXPECT_GE(f.sequential_area, (2 * 4 * 4 + 2 * 4) * ff);
  EXPECT_GE(f.count_of("DFFPOSX1"), 2 * 4 * 4 + 2 * 4);

  const ModuleSynthResult& m = rs[1];
  ASSERT_EQ(m.macros.size(), 1u);
  EXPECT_EQ(m.macros[0].module, "gpurf_sram_1r1w_macro");
  EXPECT_EQ(m.macros[0].count, 4);
  EXPECT_EQ(m.macros[0].figures.shape.depth, 256);
  EXPECT_EQ(m.macros[0].figures.shape.width, 128);
  EXPECT_DOUBLE_EQ(m.macro_area, 4 * 38000.0);
  EXPECT_GT(m.total_area, 0);
  // Collector state and 2 x 3 x 128-bit operand buffers are flops; the 4 x 256 x 128 bank bits
  // are not.
  int flops_count = 0;
  for (const auto& c : m.cells)
    flops_count += c.sequential ? c.count : 0;
  EXPECT_GE(flops_count, 2 * 3 * 128);
  EXPECT_LT(flops_count, 4 * 256 * 128 / 10);
  bool noted = false;
  for (const auto& n : m.notes)
    noted = noted || n.find("SRAM model") != std::string::npos;
  EXPECT_TRUE(noted);
  const auto j = m.Json();
  EXPECT_DOUBLE_EQ(j["macro_area"].get<double>(), 4 * 38000.0);
  EXPECT_EQ(j["macros"][0]["per_macro"]["read_pj"], 8.0);
  EXPECT_NE(SynthesisMarkdown(rs).find("gpurf_sram_1r1w_macro:4(macro)"), std::string::npos);
}

}  // namespace
}  // namespace gpurf
