#include "gen/structures/cerf_system/cerf_system_spec.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "base/hash.h"

namespace gpurf {

namespace {

// The tag array's parameters with this top's smaller defaults (the Verilator build and a 1e6
// cycle verify stay within minutes); the paper geometry is a soak shape.
std::string DefaultOf(const std::string& name, const std::string& tag_default) {
  if (name == "banks")
    return "2";
  if (name == "sets")
    return "16";
  if (name == "addr_width")
    return "20";
  if (name == "warps")
    return "8";
  if (name == "regs")
    return "16";
  return tag_default;
}

}  // namespace

const std::vector<ParamDesc>& CerfSystemSpec::ParamDescs() {
  static const std::vector<ParamDesc> descs = [] {
    std::vector<ParamDesc> d;
    for (ParamDesc t : TagArraySpec::ParamDescs()) {
      t.default_value = DefaultOf(t.name, t.default_value);
      d.push_back(t);
    }
    d.push_back(IntParam("data_width", 8, 1024, 32,
                         "bits of one line in the data array (1024: the paper's 128-byte line)"));
    return d;
  }();
  return descs;
}

CerfSystemSpec CerfSystemSpec::FromParams(const ParamSet& p) {
  CerfSystemSpec s;
  s.params = p;
  // The tag array's own ParamSet: every value keeps where the user gave it.
  ParamSet tp(TagArraySpec::ParamDescs());
  for (const ParamDesc& d : TagArraySpec::ParamDescs()) {
    const ParamValue& v = p.Get(d.name);
    tp.Set(d.name, v.s, v.loc, (v.field.empty() ? d.name : v.field) + " (-> tags." + d.name + ")");
  }
  s.tags = TagArraySpec::FromParams(tp);
  s.data_width = p.IntAsInt("data_width");
  s.id_bits = std::max(1, static_cast<int>(std::bit_width(static_cast<unsigned>(s.lookups() - 1))));
  s.kind = "cerf-system";
  s.config_hash = HashHex(s.kind + ":" + p.Canonical(), 6);
  s.module_name = fmt::format("rf_cerf_{}b{}s{}w_d{}_{}_{}", s.tags.banks, s.tags.sets, s.tags.ways,
                              s.data_width, s.tags.prioritized() ? "pri" : "fair", s.config_hash);
  return s;
}

}  // namespace gpurf
