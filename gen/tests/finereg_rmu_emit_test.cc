// The live-vector-cache and cta-status-monitor kinds at the generator level: the paper's
// defaults and derived widths, rejected combinations naming the field, the value and what is
// allowed, module names, determinism, the assertion guard with every invariant, and the
// manifest's ports.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "base/diag.h"
#include "gen/structures/cta_status_monitor/cta_status_monitor_gen.h"
#include "gen/structures/cta_status_monitor/cta_status_monitor_ports.h"
#include "gen/structures/live_vector_cache/live_vector_cache_gen.h"
#include "gen/structures/live_vector_cache/live_vector_cache_ports.h"
#include "gen/structures/registry.h"

namespace gpurf {
namespace {

template <typename Spec>
Spec Make(const char* kind, const std::map<std::string, std::string>& values) {
  const StructureKind* k = FindStructureKind(kind);
  EXPECT_NE(k, nullptr);
  ParamSet p(k->params);
  for (const auto& [name, v] : values)
    p.Set(name, v, {}, "--" + name);
  return SpecAs<Spec>(k->make_spec(p));
}

const GeneratedFile& Top(const GeneratedStructure& g) {
  for (const auto& f : g.files) {
    if (f.module == g.top)
      return f;
  }
  throw std::logic_error("no top file");
}

TEST(LiveVectorCacheSpec, DefaultsAndModuleName) {
  const auto s = Make<LiveVectorCacheSpec>("live-vector-cache", {});
  EXPECT_EQ(s.entries, 32);
  EXPECT_EQ(s.vector_bits, 64);
  EXPECT_EQ(s.index_bits, 5);
  EXPECT_EQ(s.tag_bits, 24);
  EXPECT_EQ(s.module_name.rfind("rf_lvc_32x64b_pc32_d1_", 0), 0U) << s.module_name;
  EXPECT_NE(s.module_name,
            Make<LiveVectorCacheSpec>("live-vector-cache", {{"fetch_latency", "9"}}).module_name);
}

TEST(LiveVectorCacheSpec, NonPowerOfTwoAndNoTagAreRejected) {
  try {
    Make<LiveVectorCacheSpec>("live-vector-cache", {{"entries", "24"}});
    FAIL() << "accepted 24 lines";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--entries");
    EXPECT_EQ(e.value(), "24");
    EXPECT_NE(e.allowed().find("power of two"), std::string::npos) << e.what();
  }
  try {
    Make<LiveVectorCacheSpec>("live-vector-cache",
                              {{"pc_bits", "8"}, {"align_bits", "4"}, {"entries", "16"}});
    FAIL() << "accepted a PC with no tag bits";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--pc_bits");
    EXPECT_NE(e.problem().find("no tag"), std::string::npos) << e.what();
  }
}

TEST(LiveVectorCacheEmit, DeterministicWithAssertionsAndPorts) {
  const auto s = Make<LiveVectorCacheSpec>("live-vector-cache", {{"decode_width", "3"}});
  const GeneratedStructure a = EmitLiveVectorCache(s), b = EmitLiveVectorCache(s);
  EXPECT_EQ(Top(a).contents, Top(b).contents);
  const std::string& v = Top(a).contents;
  EXPECT_NE(v.find("`ifdef GPURF_ASSERTIONS"), std::string::npos);
  for (const char* inv :
       {"I1 violated", "I2 violated", "I3 violated", "I4 violated", "I5 violated"})
    EXPECT_NE(v.find(inv), std::string::npos) << inv;
  ASSERT_EQ(a.ports.size(), static_cast<size_t>(LiveVectorCachePort::kNumPorts));
  EXPECT_EQ(a.ports[LiveVectorCachePort::kDecIdx].width, 18);
  EXPECT_EQ(a.ports[LiveVectorCachePort::kDecCount].width, 2);
  EXPECT_EQ(a.derived["storage_bits"], 32 * (1 + 24 + 64));
  EXPECT_EQ(a.derived["pc_index_bits"], "[7:3]");
}

TEST(CtaStatusMonitorSpec, DefaultsAndModuleName) {
  const auto s = Make<CtaStatusMonitorSpec>("cta-status-monitor", {});
  EXPECT_EQ(s.ctas, 128);
  EXPECT_EQ(s.count_bits, 11);
  EXPECT_EQ(s.module_name.rfind("rf_ctamon_c128_e1024_", 0), 0U) << s.module_name;
  const auto odd = Make<CtaStatusMonitorSpec>("cta-status-monitor", {{"ctas", "5"}});
  EXPECT_EQ(odd.cta_bits, 3);
  EXPECT_EQ(odd.slot_bits, 3);
}

TEST(CtaStatusMonitorEmit, DeterministicWithAssertionsAndPorts) {
  const auto s = Make<CtaStatusMonitorSpec>("cta-status-monitor", {{"ctas", "32"}});
  const GeneratedStructure a = EmitCtaStatusMonitor(s), b = EmitCtaStatusMonitor(s);
  EXPECT_EQ(Top(a).contents, Top(b).contents);
  const std::string& v = Top(a).contents;
  for (const char* inv :
       {"S1 violated", "S2 violated", "S3 violated", "S4 violated", "S5 violated", "S6 violated"})
    EXPECT_NE(v.find(inv), std::string::npos) << inv;
  ASSERT_EQ(a.ports.size(), static_cast<size_t>(CtaStatusMonitorPort::kNumPorts));
  EXPECT_EQ(a.ports[CtaStatusMonitorPort::kReady].width, 32);
  EXPECT_EQ(a.ports[CtaStatusMonitorPort::kDecAvail].width, 12);
  EXPECT_EQ(a.derived["context_field_bits"], 64);  // 2 bits x 32 CTAs (paper: 256 for 128)
}

}  // namespace
}  // namespace gpurf
