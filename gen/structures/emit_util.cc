#include "gen/structures/emit_util.h"

#include <fmt/format.h>

#include "gen/rtl_primitives.h"

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

vlog::SourceFile ModuleSource(const std::string& kind, const std::string& config_hash,
                              const std::string& regenerate, vlog::Module m) {
  vlog::SourceFile f{m.name + ".sv", Banner(kind, config_hash, regenerate), std::move(m), {}};
  f.includes = {vlog::kAssertHeader};
  return f;
}

}  // namespace gpurf
