// The pcrf structure kind at the generator level: parameter validation (the flip-flop data
// array limit names the field, the value and what is allowed; out-of-range values name their
// range), derived widths against the paper's field widths, module names, determinism, the data
// array behind the SRAM wrapper (macro or flip-flops), the assertion guard and the manifest's
// ports.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "base/diag.h"
#include "gen/structures/pcrf/pcrf_gen.h"
#include "gen/structures/pcrf/pcrf_ports.h"
#include "gen/structures/pcrf/pcrf_spec.h"
#include "gen/structures/registry.h"

namespace gpurf {
namespace {

PcrfSpec Make(const std::map<std::string, std::string>& values) {
  const StructureKind* k = FindStructureKind("pcrf");
  EXPECT_NE(k, nullptr);
  ParamSet p(k->params);
  for (const auto& [name, v] : values)
    p.Set(name, v, {}, "--" + name);
  return SpecAs<PcrfSpec>(k->make_spec(p));
}

const GeneratedFile& Top(const GeneratedStructure& g) {
  for (const auto& f : g.files) {
    if (f.module == g.top)
      return f;
  }
  throw std::logic_error("no top file");
}

TEST(PcrfSpec, PaperDefaultsAndDerivedWidths) {
  const PcrfSpec s = Make({});
  EXPECT_EQ(s.entries, 1024);
  EXPECT_EQ(s.row_bits, 1024);
  EXPECT_EQ(s.ctas, 128);
  EXPECT_EQ(s.entry_bits, 10);
  EXPECT_EQ(s.warp_bits, 5);
  EXPECT_EQ(s.reg_bits, 6);
  EXPECT_EQ(s.tag_bits, 23);
  EXPECT_EQ(s.count_bits, 11);
  EXPECT_EQ(s.cta_bits, 7);
  EXPECT_TRUE(s.pipelined);
  EXPECT_TRUE(s.macro());
  EXPECT_EQ(s.module_name.rfind("rf_pcrf_1024x128b_c128_h4p_", 0), 0U) << s.module_name;
  // Non-powers of two round the fields up.
  const PcrfSpec odd = Make({{"entries", "13"}, {"ctas", "5"}, {"warps", "3"}, {"regs", "7"}});
  EXPECT_EQ(odd.entry_bits, 4);
  EXPECT_EQ(odd.count_bits, 4);
  EXPECT_EQ(odd.cta_bits, 3);
  EXPECT_EQ(odd.warp_bits, 2);
  EXPECT_EQ(odd.reg_bits, 3);
  EXPECT_NE(odd.module_name, Make({{"entries", "13"}}).module_name);
}

TEST(PcrfSpec, FlopDataArrayAboveTheLimitIsRejected) {
  try {
    Make({{"data_impl", "flops"}, {"entries", "2048"}});
    FAIL() << "accepted 2 Mbit of flip-flops";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--data_impl");
    EXPECT_EQ(e.value(), "flops");
    EXPECT_NE(e.problem().find("2097152 data bits (entries 2048 x row_bytes 128)"),
              std::string::npos)
        << e.what();
    EXPECT_EQ(e.allowed(), "macro, or flops with entries x row_bytes x 8 <= 1048576");
  }
  // The paper's 128 KB is exactly at the limit.
  EXPECT_NO_THROW(Make({{"data_impl", "flops"}}));
}

TEST(PcrfSpec, HopCyclesBelowFourIsRejected) {
  try {
    Make({{"hop_cycles", "3"}});
    FAIL() << "accepted a 3-cycle hop";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--hop_cycles");
    EXPECT_EQ(e.value(), "3");
    EXPECT_NE(e.allowed().find("4..16"), std::string::npos) << e.what();
  }
}

TEST(PcrfEmit, DataArrayBehindTheSramWrapper) {
  const GeneratedStructure macro = EmitPcrf(Make({{"entries", "64"}, {"ctas", "8"}}));
  const std::string& v = Top(macro).contents;
  EXPECT_NE(v.find("gpurf_sram_1r1w #("), std::string::npos);
  EXPECT_NE(v.find(".Depth(NumEntries)"), std::string::npos);
  EXPECT_NE(v.find("localparam int DataImpl   = 1"), std::string::npos) << v.substr(0, 3000);
  bool has_macro_file = false;
  for (const auto& f : macro.files)
    has_macro_file = has_macro_file || f.name == "gpurf_sram_1r1w_macro.sv";
  EXPECT_TRUE(has_macro_file);
  EXPECT_EQ(macro.derived["sram_macros"][0]["depth"], 64);
  EXPECT_EQ(macro.derived["sram_macros"][0]["width"], 1024);
  const GeneratedStructure flops =
      EmitPcrf(Make({{"entries", "64"}, {"ctas", "8"}, {"data_impl", "flops"}}));
  for (const auto& f : flops.files)
    EXPECT_NE(f.name, "gpurf_sram_1r1w_macro.sv");
  EXPECT_FALSE(flops.derived.contains("sram_macros"));
}

TEST(PcrfEmit, DeterministicWithAssertionsAndPorts) {
  const PcrfSpec s = Make({{"entries", "32"}, {"ctas", "4"}, {"pipelined", "false"}});
  const GeneratedStructure a = EmitPcrf(s), b = EmitPcrf(s);
  EXPECT_EQ(Top(a).contents, Top(b).contents);
  const std::string& v = Top(a).contents;
  EXPECT_NE(v.find("`ifdef GPURF_ASSERTIONS"), std::string::npos);
  for (const char* inv :
       {"I1 violated", "I2 violated", "I3 violated", "I4 violated", "I5 violated"})
    EXPECT_NE(v.find(inv), std::string::npos) << inv;
  EXPECT_NE(v.find("parameter  int Pipelined  = 0"), std::string::npos);
  ASSERT_EQ(a.ports.size(), static_cast<size_t>(PcrfPort::kNumPorts));
  EXPECT_EQ(a.ports[PcrfPort::kAppData].width, 1024);
  EXPECT_EQ(a.ports[PcrfPort::kAppEntry].width, 5);
  EXPECT_EQ(a.ports[PcrfPort::kFreeCount].width, 6);
  EXPECT_EQ(a.derived["tag_bits"], 2 + 5 + 5 + 6);
  EXPECT_EQ(a.derived["find_free_per_cycle"], 1);
}

}  // namespace
}  // namespace gpurf
