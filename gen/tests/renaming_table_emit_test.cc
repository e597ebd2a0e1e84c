// The renaming-table kind at the generator level: parameters and their rejections (the field,
// the value and what is allowed), derived widths and the budgeted window, the banks' rows adding
// up to the window, module names, determinism, the manifest's ports from the port table, and
// the invariants stated as assertions under the guard.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "base/diag.h"
#include "gen/structures/registry.h"
#include "gen/structures/renaming_table/renaming_table_gen.h"
#include "gen/structures/renaming_table/renaming_table_spec.h"
#include "gen/tests/test_util.h"

namespace gpurf {
namespace {

RenamingTableSpec Make(const std::map<std::string, std::string>& values) {
  const StructureKind* k = FindStructureKind("renaming-table");
  EXPECT_NE(k, nullptr);
  ParamSet p(k->params);
  for (const auto& [name, v] : values)
    p.Set(name, v, {}, "--" + name);
  return SpecAs<RenamingTableSpec>(k->make_spec(p));
}

std::string TopText(const GeneratedStructure& g) {
  for (const auto& f : g.files) {
    if (f.module == g.top)
      return f.contents;
  }
  ADD_FAILURE() << "no file of " << g.top;
  return "";
}

using test::Count;

TEST(RenamingTableSpec, DefaultsAreThePaperPoint) {
  const RenamingTableSpec s = Make({});
  EXPECT_EQ(s.warps, 48);
  EXPECT_EQ(s.regs, 63);
  EXPECT_EQ(s.phys_regs, 1024);
  EXPECT_EQ(s.capacity_bytes, 1024);
  EXPECT_EQ(s.banks, 4);
  EXPECT_EQ(s.phys_bits, 10);
  EXPECT_EQ(s.warp_bits, 6);
  EXPECT_EQ(s.reg_bits, 6);
  EXPECT_EQ(s.exempt_bits, 6);  // N in 0..63
  EXPECT_EQ(s.window, 17);
  EXPECT_EQ(s.module_name, "rf_rename_48w63r1024p17k_" + s.config_hash);
}

TEST(RenamingTableSpec, IdWidthsDeriveFromCounts) {
  // 600 physical registers: 10-bit ids; 4096: 12-bit; 64 registers need 7 bits for N = 64.
  EXPECT_EQ(Make({{"phys_regs", "600"}}).phys_bits, 10);
  EXPECT_EQ(Make({{"phys_regs", "4096"}, {"capacity_bytes", "4096"}}).phys_bits, 12);
  const RenamingTableSpec r64 = Make({{"regs", "64"}});
  EXPECT_EQ(r64.reg_bits, 6);
  EXPECT_EQ(r64.exempt_bits, 7);
  // GPU-shrink: half the physical registers, 9-bit ids, the same budget covers 18 per warp.
  EXPECT_EQ(Make({{"phys_regs", "512"}}).window, 18);
}

TEST(RenamingTableSpec, BanksRowsAddUpToTheWindow) {
  for (const auto& v : std::vector<std::map<std::string, std::string>>{
           {},
           {{"capacity_bytes", "3780"}},
           {{"banks", "8"}},
           {{"banks", "2"}},
           {{"warps", "16"}, {"regs", "24"}, {"phys_regs", "128"}, {"capacity_bytes", "64"}}}) {
    const RenamingTableSpec s = Make(v);
    int rows = 0;
    for (int b = 0; b < s.banks; ++b)
      rows += s.RowsPerWarp(b);
    EXPECT_EQ(rows, s.window) << s.module_name;
    for (int j = 0; j < s.window; ++j)
      EXPECT_LT(s.RowOfEntry(j), s.RowsPerWarp(s.BankOfEntry(j))) << s.module_name << " j " << j;
    EXPECT_LE(s.table_bits, 8 * s.capacity_bytes) << s.module_name;
  }
}

TEST(RenamingTableSpec, RejectionsNameFieldValueAndAllowed) {
  auto message = [](const std::map<std::string, std::string>& v) -> std::string {
    try {
      Make(v);
    } catch (const InputError& e) {
      return e.what();
    }
    return "accepted";
  };
  const std::string banks = message({{"banks", "6"}});
  EXPECT_NE(banks.find("--banks"), std::string::npos) << banks;
  EXPECT_NE(banks.find("6 is not a power of two"), std::string::npos) << banks;
  EXPECT_NE(banks.find("2, 4 or 8"), std::string::npos) << banks;
  const std::string cap = message({{"capacity_bytes", "100"}});
  EXPECT_NE(cap.find("--capacity_bytes"), std::string::npos) << cap;
  EXPECT_NE(cap.find("fewer than the 4 banks"), std::string::npos) << cap;
  EXPECT_NE(cap.find("240..65536"), std::string::npos) << cap;
  EXPECT_NE(message({{"warps", "65"}}).find("2..64"), std::string::npos);
  EXPECT_NE(message({{"banks", "1"}}).find("2..8"), std::string::npos);
}

TEST(RenamingTableEmit, DeterministicAndNamedByConfiguration) {
  const RenamingTableSpec s = Make({});
  const GeneratedStructure a = EmitRenamingTable(s), b = EmitRenamingTable(s);
  EXPECT_EQ(TopText(a), TopText(b));
  const RenamingTableSpec full = Make({{"capacity_bytes", "3780"}});
  EXPECT_EQ(full.module_name, "rf_rename_48w63r1024p63k_" + full.config_hash);
  EXPECT_NE(full.config_hash, s.config_hash);
  EXPECT_EQ(a.derived["window"], 17);
  EXPECT_EQ(a.derived["entries"], 48 * 17);
  EXPECT_EQ(a.derived["id_bytes"], 1020);
}

TEST(RenamingTableEmit, PortsAndParametersOfTheSpec) {
  const RenamingTableSpec s = Make({});
  const GeneratedStructure g = EmitRenamingTable(s);
  std::map<std::string, int> width;
  for (const PortInfo& p : g.ports)
    width[p.name] = p.width;
  EXPECT_EQ(width.at("exempt_i"), 6);
  EXPECT_EQ(width.at("src_reg_i"), 18);
  EXPECT_EQ(width.at("rel_mask_i"), 63);
  EXPECT_EQ(width.at("src_phys_o"), 30);
  EXPECT_EQ(width.at("dst_phys_i"), 10);
  EXPECT_EQ(width.at("free_valid_o"), 4);
  EXPECT_EQ(width.at("free_phys_o"), 40);
  EXPECT_EQ(width.at("conflict_cycles_o"), 32);
  const std::string v = TopText(g);
  EXPECT_NE(v.find("parameter  int Window     = 17"), std::string::npos) << v;
  EXPECT_NE(v.find("localparam int PhysBits   = $clog2(NumPhys)"), std::string::npos);
  EXPECT_NE(v.find("for (genvar b = 0; b < NumBanks; b++) begin : gen_banks"), std::string::npos);
  EXPECT_EQ(Count(v, "always_ff"), 3);  // the request latch, a bank's valid bits and its ids
}

TEST(RenamingTableEmit, InvariantsAreAssertionsUnderTheGuard) {
  const std::string v = TopText(EmitRenamingTable(Make({})));
  const size_t guard = v.find("`ifdef GPURF_ASSERTIONS");
  ASSERT_NE(guard, std::string::npos);
  for (const char* msg :
       {"I1 violated", "I2 violated", "I3 violated", "C1 violated", "C2 violated", "C3 violated"}) {
    const size_t at = v.find(msg);
    ASSERT_NE(at, std::string::npos) << msg;
    EXPECT_GT(at, guard) << msg;
  }
  EXPECT_EQ(Count(v, "`GPURF_ASSERT") + Count(v, "assert ("), 6) << v.substr(guard);
}

}  // namespace
}  // namespace gpurf
