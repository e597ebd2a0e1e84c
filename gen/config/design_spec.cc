#include "gen/config/design_spec.h"

#include "gen/config/derive.h"

namespace gpurf {

std::vector<const DesignStructure*> DesignSpec::Implemented() const {
  std::vector<const DesignStructure*> v;
  for (const auto& s : structures) {
    if (s.implemented())
      v.push_back(&s);
  }
  return v;
}

std::vector<const DesignStructure*> DesignSpec::Skipped() const {
  std::vector<const DesignStructure*> v;
  for (const auto& s : structures) {
    if (!s.implemented())
      v.push_back(&s);
  }
  return v;
}

nlohmann::ordered_json DesignSpec::ToJson() const {
  nlohmann::ordered_json j;
  j["name"] = name;
  j["description"] = description;
  j["sm"] = {{"lanes", sm.lanes},
             {"lane_cluster", sm.lane_cluster},
             {"warps", sm.warps},
             {"active_warps", sm.active_warps},
             {"clusters", sm.clusters}};
  j["mrf"] = {{"banks", mrf.banks},
              {"banks_per_cluster", mrf.banks_per_cluster},
              {"entries", mrf.entries},
              {"width", mrf.width},
              {"capacity_bytes", mrf.capacity_bytes},
              {"registers_per_thread", mrf.registers_per_thread}};
  j["hierarchy"] = {{"kind", hierarchy.kind},
                    {"levels", hierarchy.levels},
                    {"l1_entries_per_thread", hierarchy.l1_entries_per_thread},
                    {"l0_entries_per_thread", hierarchy.l0_entries_per_thread},
                    {"l0_split", hierarchy.l0_split},
                    {"replacement", hierarchy.replacement}};
  if (hierarchy.kind == "hybrid") {  // only then: the other designs keep their config_hash
    j["hierarchy"]["rc_bytes"] = hierarchy.rc_bytes;
    j["hierarchy"]["rsp_bytes"] = hierarchy.rsp_bytes;
    j["hierarchy"]["organization"] = hierarchy.organization;
  }
  if (hierarchy.kind == "cerf") {
    j["hierarchy"]["replacement"] =
        hierarchy.replacement == "lru-fair" ? "lru-fair" : "lru-prioritized";
    j["hierarchy"]["cerf_bytes"] = hierarchy.cerf_bytes;
    j["hierarchy"]["ways"] = hierarchy.ways;
    j["hierarchy"]["tag_banks"] = hierarchy.tag_banks;
    j["hierarchy"]["address_prefix"] = hierarchy.address_prefix;
  }
  if (hierarchy.kind == "renaming" && sections != nullptr) {
    const ParamSet& h = sections->sections.at("hierarchy");
    for (const char* key :
         {"physical_bytes", "table_bytes", "flag_cache_entries", "subarrays", "wake_cycles"})
      j["hierarchy"][key] = h.Int(key);
    j["hierarchy"]["power_gating"] = h.Bool("power_gating");
    j["hierarchy"]["table_energy"] = h.Enum("table_energy");
  }
  if (hierarchy.kind == "finereg" && sections != nullptr) {
    const ParamSet& h = sections->sections.at("hierarchy");
    for (const char* key : {"acrf_bytes", "pcrf_bytes", "resident_ctas", "hop_cycles", "move_ports",
                            "vector_cache_entries", "vector_miss_cycles"})
      j["hierarchy"][key] = h.Int(key);
    j["hierarchy"]["switch_target"] = h.Enum("switch_target");
  }
  j["scheduler"] = scheduler;
  j["inner_policy"] = inner_policy;
  nlohmann::ordered_json st = nlohmann::ordered_json::array();
  for (const auto& s : structures) {
    nlohmann::ordered_json e = {
        {"name", s.name}, {"kind", s.kind}, {"count", s.count}, {"role", s.role}};
    if (s.spec) {
      e["module"] = ModuleName(*s.spec);
      e["config_hash"] = ConfigHash(*s.spec);
      e["parameters"] = Params(*s.spec).ToJson();
    } else {
      e["skipped"] = s.skip_reason;
    }
    st.push_back(e);
  }
  j["structures"] = st;
  return j;
}

}  // namespace gpurf
