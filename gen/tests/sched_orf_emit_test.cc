// The warp-scheduler and ORF structure kinds at the generator level: parameter validation
// (cross-field rejections name the field, the value and what is allowed), derived widths and
// module names, determinism, the ORF's composition from the generated flop array (its files come
// first, the top instantiates it once or, split, three times), the assertion guard, manifest
// ports, and that the default design point's structures are exactly the kinds' defaults.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "base/diag.h"
#include "gen/config/yaml_loader.h"
#include "gen/structures/orf/orf_gen.h"
#include "gen/structures/orf/orf_spec.h"
#include "gen/structures/registry.h"
#include "gen/structures/warp_scheduler/warp_scheduler_gen.h"
#include "gen/structures/warp_scheduler/warp_scheduler_spec.h"
#include "gen/tests/test_util.h"

namespace gpurf {
namespace {

StructureSpec Make(const std::string& kind, const std::map<std::string, std::string>& values) {
  const StructureKind* k = FindStructureKind(kind);
  EXPECT_NE(k, nullptr) << kind;
  ParamSet p(k->params);
  for (const auto& [name, v] : values)
    p.Set(name, v, {}, "--" + name);
  return k->make_spec(p);
}

using test::Count;

TEST(SchedulerSpec, DefaultsAndDerivedWidths) {
  const auto s = SpecAs<WarpSchedulerSpec>(Make("warp-scheduler", {}));
  EXPECT_EQ(s.warps, 32);
  EXPECT_EQ(s.active, 8);
  EXPECT_FALSE(s.greedy());
  EXPECT_EQ(s.warp_id_width, 5);
  EXPECT_EQ(s.slot_width, 3);
  EXPECT_EQ(s.module_name, "rf_sched_32w8a_rr_" + s.config_hash);
  const auto one = SpecAs<WarpSchedulerSpec>(
      Make("warp-scheduler", {{"warps", "1"}, {"active", "1"}, {"inner_policy", "greedy"}}));
  EXPECT_EQ(one.warp_id_width, 1);
  EXPECT_EQ(one.slot_width, 1);
  EXPECT_TRUE(one.greedy());
  EXPECT_EQ(SpecAs<WarpSchedulerSpec>(Make("warp-scheduler", {{"warps", "5"}, {"active", "5"}}))
                .slot_width,
            3);
}

TEST(SchedulerSpec, ActiveAboveWarpsIsRejected) {
  try {
    Make("warp-scheduler", {{"warps", "4"}, {"active", "8"}});
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--active");
    EXPECT_EQ(e.value(), "8");
    EXPECT_NE(e.problem().find("exceeds warps = 4"), std::string::npos) << e.what();
    EXPECT_EQ(e.allowed(), "integer 1..4 (warps)");
  }
}

TEST(OrfSpec, LevelsShapesAndStorage) {
  const auto l1 = SpecAs<OrfSpec>(Make("orf-l1", {}));
  EXPECT_EQ(l1.kind, "orf-l1");
  EXPECT_EQ(l1.entries, 3);
  EXPECT_EQ(l1.banks, 1);
  EXPECT_EQ(l1.slot_width, 3);
  EXPECT_EQ(l1.entry_width, 2);
  EXPECT_EQ(l1.storage.entries, 24);
  EXPECT_EQ(l1.storage.read_ports, 3);
  EXPECT_EQ(l1.module_name, "rf_orf_l1_3e8a_128_" + l1.config_hash);

  const auto l0 = SpecAs<OrfSpec>(Make("orf-l0", {}));
  EXPECT_TRUE(l0.split);  // Gebhart's best design splits L0 per operand slot
  EXPECT_EQ(l0.entries, 3);
  EXPECT_EQ(l0.banks, 3);
  EXPECT_EQ(l0.storage.entries, 8);
  EXPECT_EQ(l0.storage.read_ports, 1);
  EXPECT_EQ(l0.module_name.substr(0, 11), "rf_orf_l0s_");

  const auto u = SpecAs<OrfSpec>(Make("orf-l0", {{"split", "false"}, {"read_mode", "reg"}}));
  EXPECT_EQ(u.entries, 1);
  EXPECT_EQ(u.banks, 1);
  EXPECT_EQ(u.storage.read_ports, 3);
  EXPECT_TRUE(u.registered());
  EXPECT_EQ(u.module_name.substr(0, 11), "rf_orf_l0u_");
}

TEST(OrfSpec, OversizedArrayIsRejectedAtWidth) {
  try {
    Make("orf-l1", {{"entries_per_thread", "8"}, {"active_warps", "64"}, {"width", "1024"}});
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--width");
    EXPECT_NE(e.problem().find("512 rows x 1024 bits"), std::string::npos) << e.what();
    EXPECT_NE(e.allowed().find("<= 262144 bits"), std::string::npos) << e.what();
  }
}

TEST(EmitOrf, ComposesTheGeneratedFlopArray) {
  const auto l1 = SpecAs<OrfSpec>(Make("orf-l1", {}));
  const GeneratedStructure g = EmitOrf(l1);
  ASSERT_EQ(g.files.size(), 4U);
  EXPECT_EQ(g.files[0].name, "gpurf_assert.svh");
  EXPECT_EQ(g.files[1].name, "gpurf_clock_gate.sv");
  EXPECT_EQ(g.files[2].module, l1.storage.module_name);
  EXPECT_EQ(g.files[3].module, g.top);
  const std::string& top = g.files[3].contents;
  EXPECT_EQ(Count(top, l1.storage.module_name + " u_storage ("), 1);
  EXPECT_EQ(Count(top, "`ifdef GPURF_ASSERTIONS"), 1);
  EXPECT_NE(top.find("reads invalid entry"), std::string::npos);
  // The storage is not re-implemented here: no always_ff outside the assertion guard.
  EXPECT_GT(top.find("always_ff"), top.find("`ifdef GPURF_ASSERTIONS"));
  EXPECT_EQ(EmitOrf(l1).files[3].contents, top);  // deterministic
  // Row addresses through the named index function, on per-port slot and entry wires.
  EXPECT_NE(top.find("    SlotEntry = slot * Entries + entry;\n"), std::string::npos);
  EXPECT_NE(top.find("assign raddr[p*RowAddrWidth +: RowAddrWidth] = "
                     "RowAddrWidth'(SlotEntry(32'(slot), 32'(entry)));"),
            std::string::npos);

  const auto l0 = SpecAs<OrfSpec>(Make("orf-l0", {{"clock_gate", "false"}}));
  const GeneratedStructure s = EmitOrf(l0);
  ASSERT_EQ(s.files.size(), 3U);  // no clock gate primitive
  const std::string& split = s.files[2].contents;
  EXPECT_NE(split.find("for (genvar b = 0; b < NumReadPorts; b++) begin : gen_banks"),
            std::string::npos);
  EXPECT_EQ(Count(split, l0.storage.module_name + " u_bank ("), 1);  // inside the generate loop
  EXPECT_NE(split.find("not its own (split L0)"), std::string::npos);

  // Manifest ports in the order the models index them.
  const char* names[] = {"clk_i", "rst_ni",  "we_i",     "wslot_i", "wentry_i", "wdata_i",
                         "re_i",  "rslot_i", "rentry_i", "rdata_o", "inv_i",    "inv_slot_i"};
  ASSERT_EQ(g.ports.size(), std::size(names));
  for (size_t i = 0; i < g.ports.size(); ++i)
    EXPECT_EQ(g.ports[i].name, names[i]);
  EXPECT_EQ(g.FindPort("rdata_o")->width, 3 * 128);
  EXPECT_EQ(g.FindPort("rdata_o")->count, 3);
  EXPECT_EQ(g.FindPort("rslot_i")->width, 3 * 3);
  EXPECT_EQ(g.FindPort("rentry_i")->width, 3 * 2);
}

TEST(EmitWarpScheduler, PolicyAndAssertions) {
  const auto rr = SpecAs<WarpSchedulerSpec>(Make("warp-scheduler", {}));
  const auto gr = SpecAs<WarpSchedulerSpec>(Make("warp-scheduler", {{"inner_policy", "greedy"}}));
  const GeneratedStructure a = EmitWarpScheduler(rr), b = EmitWarpScheduler(gr);
  ASSERT_EQ(a.files.size(), 2U);
  EXPECT_EQ(a.files[0].name, "gpurf_assert.svh");
  const std::string& ra = a.files[1].contents;
  const std::string& gb = b.files[1].contents;
  EXPECT_EQ(ra.find("hold_q"), std::string::npos);
  EXPECT_NE(gb.find("logic                   hold_q;"), std::string::npos) << gb;
  for (const char* inv : {"I1 violated", "I2 violated", "I3 violated"})
    EXPECT_NE(ra.find(inv), std::string::npos) << inv;
  EXPECT_EQ(EmitWarpScheduler(rr).files[1].contents, ra);
  EXPECT_EQ(a.FindPort("act_warp_o")->width, 8 * 5);
  EXPECT_EQ(a.FindPort("act_warp_o")->count, 8);
  EXPECT_EQ(a.FindPort("waiting_o")->width, 32);
  EXPECT_EQ(a.ports.size(), 18U);
}

TEST(DesignPoint, FermiStructuresAreTheKindDefaults) {
  // The default design point's ORF levels and scheduler are the same modules as `gpurf gen
  // <kind>` with default flags, so the CLI runs of the defaults verify the design point.
  const DesignSpec d = LoadDesign(GPURF_SOURCE_DIR "/configs/fermi_gebhart.yaml");
  std::map<std::string, std::string> module;
  for (const DesignStructure* s : d.Implemented())
    module[s->kind] = ModuleName(*s->spec);
  for (const char* kind : {"warp-scheduler", "orf-l1", "orf-l0"})
    EXPECT_EQ(module[kind], ModuleName(Make(kind, {}))) << kind;
}

}  // namespace
}  // namespace gpurf

namespace gpurf {
namespace {

TEST(DesignPoint, OversizedOrfIsRejectedAtTheYamlFieldThatDecidedIt) {
  const std::string text =
      "sm:\n  lanes: 64\n  lane_cluster: 32\n  warps: 64\n  active_warps: 64\n"
      "mrf:\n  width: 1024\nhierarchy:\n  l1_entries_per_thread: 8\n";
  try {
    (void)LoadDesignFromString(text, "t.yaml");
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.loc().line, 7) << e.what();
    EXPECT_EQ(e.loc().column, 10) << e.what();
    EXPECT_EQ(e.field(), "mrf.width (-> orf_l1.width)");
    EXPECT_NE(e.problem().find("512 rows x 1024 bits"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gpurf
