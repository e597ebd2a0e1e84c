// The hybrid-rc structure kind at the generator level: the paper's defaults, cross-field
// rejections naming the field, the value and what is allowed, module names per organization,
// determinism, the composition from two generated flop arrays (their files first, each
// instantiated once with its row count), the assertion guard with every invariant's message, and
// the manifest ports from the port table.
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <string>

#include "base/diag.h"
#include "gen/structures/hybrid_rc/hybrid_rc_gen.h"
#include "gen/structures/hybrid_rc/hybrid_rc_ports.h"
#include "gen/structures/hybrid_rc/hybrid_rc_spec.h"
#include "gen/structures/registry.h"
#include "gen/tests/test_util.h"

namespace gpurf {
namespace {

HybridRcSpec Make(const std::map<std::string, std::string>& values) {
  const StructureKind* k = FindStructureKind("hybrid-rc");
  EXPECT_NE(k, nullptr);
  ParamSet p(k->params);
  for (const auto& [name, v] : values)
    p.Set(name, v, {}, "--" + name);
  return SpecAs<HybridRcSpec>(k->make_spec(p));
}

using test::Count;

const GeneratedFile& Top(const GeneratedStructure& g) {
  return g.files.back();
}

TEST(HybridRcEmit, PaperDefaultsAndNames) {
  const HybridRcSpec s = Make({});
  EXPECT_EQ(s.rc_bytes, 2048);
  EXPECT_EQ(s.rsp_bytes, 1024);
  EXPECT_EQ(s.line_bytes, 128);
  EXPECT_EQ(s.ways, 2);
  EXPECT_EQ(s.warps, 16);
  EXPECT_TRUE(s.hierarchical());
  EXPECT_EQ(s.module_name, "rf_hybrid_rc2048_rsp1024_2w_hier_" + s.config_hash);
  EXPECT_EQ(
      Make({{"organization", "parallel-evict"}}).module_name.find("_pevict_") != std::string::npos,
      true);
  const HybridRcSpec life = Make({{"organization", "parallel-lifetime"}});
  EXPECT_NE(life.module_name.find("_plife_"), std::string::npos);
  EXPECT_FALSE(life.transfers());
  EXPECT_NE(life.config_hash, s.config_hash);
}

TEST(HybridRcEmit, RejectionsNameFieldValueAndAllowed) {
  try {
    Make({{"rc_bytes", "2432"}});  // 19 lines: not whole 2-way sets
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--rc_bytes");
    EXPECT_EQ(e.value(), "2432");
    EXPECT_NE(e.problem().find("19 lines"), std::string::npos) << e.what();
    EXPECT_EQ(e.allowed(), "0 or line_bytes x ways x k = 128 x 2 x k bytes, k >= 2");
  }
  try {
    Make({{"rc_bytes", "256"}});  // one set
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--rc_bytes");
  }
  try {
    Make({{"rc_bytes", "0"}, {"rsp_bytes", "0"}});
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--rsp_bytes");
    EXPECT_NE(e.problem().find("neither an RC nor an RSP"), std::string::npos) << e.what();
  }
  try {
    Make({{"rc_bytes", "0"}, {"organization", "parallel-evict"}});
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--organization");
    EXPECT_EQ(e.allowed(), "hierarchical");
  }
  try {
    Make({{"rc_bytes", "8192"}, {"reg_bits", "5"}});  // 32 sets need 6 register bits
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--reg_bits");
    EXPECT_EQ(e.allowed(), "integer 6..8");
  }
  try {
    Make({{"rsp_bytes", "200"}});
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--rsp_bytes");
    EXPECT_EQ(e.allowed(), "0 or a multiple of line_bytes = 128, at least 256");
  }
}

// Bailey's comparison points per scheduler (12 KB/SM over 4): RC only has 12 sets, a number
// that is not a power of two (the tag keeps the whole register name and the set is a
// remainder); RSP only has no RC. Neither has an array, net or parameter of zero rows.
TEST(HybridRcEmit, ZeroSizeShapesHaveNoEmptyArray) {
  const HybridRcSpec rc = Make({{"rc_bytes", "3072"}, {"rsp_bytes", "0"}});
  EXPECT_TRUE(rc.has_rc());
  EXPECT_FALSE(rc.has_rsp());
  EXPECT_EQ(rc.sets, 12);
  EXPECT_FALSE(rc.sets_pow2);
  EXPECT_EQ(rc.set_bits, 4);
  EXPECT_EQ(rc.tag_width, 4 + 8);  // {warp, reg}
  EXPECT_EQ(rc.SetOf(3, 200), (200 ^ 3) % 12);
  EXPECT_EQ(rc.RegOf(rc.SetOf(3, 200), rc.TagOf(3, 200)), 200);
  EXPECT_EQ(rc.WarpOf(rc.TagOf(3, 200)), 3);
  const GeneratedStructure g = EmitHybridRc(rc);
  const std::string& v = Top(g).contents;
  EXPECT_EQ(v.find("u_rsp_data"), std::string::npos);
  EXPECT_EQ(v.find("RspSlots"), std::string::npos);
  EXPECT_EQ(v.find("rsp_live_q"), std::string::npos);
  EXPECT_NE(v.find("% NumSets"), std::string::npos);
  EXPECT_NE(v.find("I4 violated: an RSP access or transfer without an RSP"), std::string::npos);
  EXPECT_EQ(Count(v, rc.rc_storage.module_name + " #("), 1);
  for (const GeneratedFile& f : g.files)
    EXPECT_EQ(f.contents.find("[-1:0]"), std::string::npos) << f.name;

  const HybridRcSpec rsp = Make({{"rc_bytes", "0"}, {"rsp_bytes", "3072"}});
  EXPECT_FALSE(rsp.has_rc());
  EXPECT_EQ(rsp.rsp_slots, 24);
  const GeneratedStructure h = EmitHybridRc(rsp);
  const std::string& w = Top(h).contents;
  for (const char* absent :
       {"u_rc_data", "NumSets", "valid_q", "RcLines", "TagWidth", "I1 violated"})
    EXPECT_EQ(w.find(absent), std::string::npos) << absent;
  EXPECT_NE(w.find("u_rsp_data"), std::string::npos);
  EXPECT_NE(w.find("assign xf_hit_o = 1'b0;"), std::string::npos);
  EXPECT_NE(w.find("I4 violated: an RSP access to a slot never written"), std::string::npos);
  int arrays = 0;
  for (const GeneratedFile& f : h.files)
    arrays += f.module.rfind("rf_flop_", 0) == 0 ? 1 : 0;
  EXPECT_EQ(arrays, 1);
}

TEST(HybridRcEmit, ComposesTwoFlopArraysAndIsDeterministic) {
  const HybridRcSpec s = Make({});
  const GeneratedStructure g = EmitHybridRc(s);
  const GeneratedStructure again = EmitHybridRc(s);
  ASSERT_EQ(g.files.size(), again.files.size());
  for (size_t i = 0; i < g.files.size(); ++i)
    EXPECT_EQ(g.files[i].contents, again.files[i].contents) << g.files[i].name;
  EXPECT_EQ(g.top, s.module_name);
  EXPECT_EQ(Top(g).module, s.module_name);
  bool rc = false, rsp = false;
  for (const GeneratedFile& f : g.files) {
    rc = rc || f.module == s.rc_storage.module_name;
    rsp = rsp || f.module == s.rsp_storage.module_name;
  }
  EXPECT_TRUE(rc && rsp);
  EXPECT_EQ(s.rc_storage.entries, 16);
  EXPECT_EQ(s.rsp_storage.entries, 8);
  const std::string& v = Top(g).contents;
  EXPECT_EQ(Count(v, s.rc_storage.module_name + " #("), 1);
  EXPECT_EQ(Count(v, s.rsp_storage.module_name + " #("), 1);
  EXPECT_NE(v.find(".Entries(RcLines)"), std::string::npos);
  EXPECT_NE(v.find(".Entries(RspSlots)"), std::string::npos);
  const std::regex org0(R"(int\s+Organization\s+=\s+0,)"), org1(R"(int\s+Organization\s+=\s+1,)");
  EXPECT_TRUE(std::regex_search(v, org0));
  EXPECT_TRUE(std::regex_search(
      Top(EmitHybridRc(Make({{"organization", "parallel-evict"}}))).contents, org1));
}

TEST(HybridRcEmit, AssertionsGuardedWithEveryInvariant) {
  const std::string v = Top(EmitHybridRc(Make({}))).contents;
  EXPECT_NE(v.find("`ifdef GPURF_ASSERTIONS"), std::string::npos);
  for (const char* msg :
       {"I1 violated", "I2 violated", "I3 violated: a fill", "I3 violated: the RC kept",
        "I4 violated: an RSP access", "I4 violated: a transfer"})
    EXPECT_NE(v.find(msg), std::string::npos) << msg;
}

TEST(HybridRcEmit, ManifestPortsFollowThePortTable) {
  const HybridRcSpec s = Make({{"width", "64"}, {"rsp_bytes", "1536"}});
  const GeneratedStructure g = EmitHybridRc(s);
  const PortTable t = HybridRcPortTable(s);
  ASSERT_EQ(static_cast<int>(g.ports.size()), t.size());
  ASSERT_EQ(t.size(), HybridRcPort::kNumPorts);
  EXPECT_EQ(g.ports[HybridRcPort::kRdData].name, "rd_data_o");
  EXPECT_EQ(g.ports[HybridRcPort::kRdData].width, 6 * 64);
  EXPECT_EQ(g.ports[HybridRcPort::kWbData].width, 3 * 64);
  EXPECT_EQ(g.ports[HybridRcPort::kRdSlot].width, 6 * 4);  // 12 slots: 4 bits
  EXPECT_EQ(g.ports[HybridRcPort::kWrWarp].width, 2 * 4);  // 16 warps
  EXPECT_EQ(g.ports[HybridRcPort::kXfReg].width, 8);
}

}  // namespace
}  // namespace gpurf
