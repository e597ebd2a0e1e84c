#include "gen/structures/emit_util.h"

#include <fmt/format.h>

#include <set>

#include "gen/rtl_primitives.h"
#include "gen/vlog/printer.h"

namespace gpurf {

std::string RegenerateCommand(const std::string& kind, const ParamSet& params,
                              const std::function<bool(const ParamDesc&)>& omit) {
  std::string cmd = "gpurf gen " + kind;
  for (const auto& d : params.descs()) {
    if (omit && omit(d))
      continue;
    cmd += fmt::format(" {} {}", d.flag(), params.Get(d.name).s);
  }
  return cmd + " -o DIR";
}

GeneratedFile PrimitiveFile(const std::string& file_name) {
  const std::string module =
      IsRtlHeader(file_name) ? std::string() : file_name.substr(0, file_name.rfind('.'));
  return {file_name, module, std::string(RtlPrimitive(file_name)), true};
}

GeneratedFile AssertHeaderFile() {
  return PrimitiveFile(vlog::kAssertHeader);
}

nlohmann::ordered_json AppendSubModules(GeneratedStructure& g,
                                        const std::vector<GeneratedStructure>& subs) {
  std::set<std::string> seen;
  for (const GeneratedFile& f : g.files)
    seen.insert(f.name);
  nlohmann::ordered_json sub_json = nlohmann::ordered_json::array();
  for (const GeneratedStructure& sub : subs) {
    for (const GeneratedFile& f : sub.files) {
      if (seen.insert(f.name).second)
        g.files.push_back(f);
    }
    sub_json.push_back({{"kind", sub.kind}, {"top", sub.top}, {"regenerate", sub.regenerate}});
  }
  return sub_json;
}

GeneratedFile ModuleFile(const std::string& kind, const std::string& config_hash,
                         const std::string& regenerate, vlog::Module m) {
  const std::string name = m.name;
  vlog::SourceFile f{name + ".sv", Banner(kind, config_hash, regenerate), std::move(m), {}};
  f.includes = {vlog::kAssertHeader};
  return {f.file_name, name, vlog::Print(f), false};
}

namespace emit {

using vlog::Always;
using vlog::AlwaysKind;
using vlog::Body;
using vlog::ContinuousAssign;
using vlog::IfThen;
using vlog::Item;
using vlog::MakeItem;
using vlog::Net;

Item Decl(std::string name, std::string msb, std::string comment, std::string unpacked) {
  const bool array = !unpacked.empty();
  return MakeItem(Net{std::move(name), std::move(msb), std::move(unpacked), std::move(comment),
                      array ? "mem2reg" : ""});
}
Item Assign(std::string lhs, std::string rhs) {
  return MakeItem(ContinuousAssign{std::move(lhs), std::move(rhs)});
}
Item Comb(std::string label, Body body) {
  return MakeItem(Always{AlwaysKind::kComb, "", std::move(label), std::move(body)});
}
Item Ff(std::string label, Body reset, Body run) {
  return MakeItem(Always{AlwaysKind::kFF,
                         "posedge clk_i or negedge rst_ni",
                         std::move(label),
                         {IfThen("!rst_ni", std::move(reset), std::move(run))}});
}
Item MisuseCheck(Body checks) {
  return MakeItem(Always{AlwaysKind::kPlain,
                         "posedge clk_i or negedge rst_ni",
                         "p_misuse_check",
                         {IfThen("rst_ni", std::move(checks))}});
}
Item FfNoReset(std::string label, Body body) {
  return MakeItem(Always{AlwaysKind::kFF, "posedge clk_i", std::move(label), std::move(body)});
}

}  // namespace emit

}  // namespace gpurf
