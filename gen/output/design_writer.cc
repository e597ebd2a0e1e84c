#include "gen/output/design_writer.h"

#include <fmt/format.h>

#include <set>

#include "gen/rtl_primitives.h"
#include "gen/structures/emit.h"

namespace gpurf {

GeneratedDesign GenerateDesign(const DesignSpec& spec) {
  GeneratedDesign g;
  g.spec = &spec;
  for (const DesignStructure* s : spec.Implemented()) {
    GeneratedStructure gs = Emit(*s->spec);
    gs.instance = s->name;
    g.structures.emplace_back(s, std::move(gs));
  }
  return g;
}

nlohmann::ordered_json GeneratedDesign::ManifestJson() const {
  nlohmann::ordered_json j;
  j["generator"] = {{"name", "gpurf"}, {"version", GeneratorVersion()}};
  j["design"] = spec->name;
  j["source"] = spec->source;
  j["config_hash"] = spec->config_hash;
  nlohmann::ordered_json st = nlohmann::ordered_json::array();
  for (const auto& ds : spec->structures) {
    nlohmann::ordered_json e = {
        {"name", ds.name}, {"kind", ds.kind}, {"count", ds.count}, {"role", ds.role}};
    const GeneratedStructure* gs = nullptr;
    for (const auto& [d, s] : structures) {
      if (d == &ds)
        gs = &s;
    }
    if (gs != nullptr) {
      e["folder"] = ds.name;
      e["top"] = gs->top;
      e["manifest"] = ds.name + "/manifest.json";
    } else {
      e["skipped"] = ds.skip_reason;
    }
    st.push_back(e);
  }
  j["structures"] = st;
  j["spec"] = spec->ToJson();
  return j;
}

std::string GeneratedDesign::Filelist() const {
  std::string s;
  std::set<std::string> seen;  // shared primitives and identical modules appear once
  for (const auto& [d, gs] : structures) {
    for (const auto& f : gs.files) {
      if (!seen.insert(f.name).second)
        continue;
      // Headers (gpurf_assert.svh, the same in every folder) are found through the include path.
      s += IsRtlHeader(f.name) ? "+incdir+" + d->name + "\n" : d->name + "/" + f.name + "\n";
    }
  }
  return s;
}

void WriteDesign(const fs::path& dir, const GeneratedDesign& g) {
  for (const auto& [d, gs] : g.structures) {
    fs::create_directories(dir / d->name);
    WriteStructure(dir / d->name, gs);
  }
  WriteFile(dir / "filelist.f", g.Filelist());
  WriteFile(dir / "manifest.json", g.ManifestJson().dump(2) + "\n");
}

}  // namespace gpurf
