// The FuseSoC core written beside every generated structure: parsed back as YAML, its VLNV names
// the top module and gpurf's version, every file it lists exists in the folder (in filelist.f
// order, the header as an include file), the default target's toplevel is the top module and
// the manifest names the core.

#include "gen/output/fusesoc.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "base/fs.h"
#include "gen/output/artifact.h"
#include "gen/rtl_primitives.h"
#include "gen/structures/flop_array/flop_array_gen.h"
#include "gen/structures/flop_array/flop_array_spec.h"

namespace gpurf {
namespace {

TEST(FusesocCore, BesideTheRtlListsEveryFileAndTheToplevel) {
  ParamSet p(FlopArraySpec::ParamDescs());
  const GeneratedStructure g = EmitFlopArray(FlopArraySpec::FromParams(p));
  const fs::path tmp = MakeTempDir(fs::temp_directory_path(), "gpurf-fusesoc-test");
  WriteStructure(tmp, g);
  const fs::path core_path = tmp / (g.top + ".core");
  ASSERT_TRUE(fs::is_regular_file(core_path));
  const std::string text = ReadFile(core_path);
  EXPECT_EQ(text.rfind("CAPI=2:\n", 0), 0U);
  const YAML::Node core = YAML::LoadFile(core_path.string());
  EXPECT_EQ(core["name"].as<std::string>(), "gpurf:structures:" + g.top + ":" + GeneratorVersion());
  const YAML::Node files = core["filesets"]["rtl"]["files"];
  ASSERT_TRUE(files.IsSequence());
  std::vector<std::string> listed;
  for (const auto& f : files) {
    std::string name;
    if (f.IsMap()) {
      name = f.begin()->first.as<std::string>();
      EXPECT_TRUE(IsRtlHeader(name)) << name;
      EXPECT_TRUE(f.begin()->second["is_include_file"].as<bool>()) << name;
    } else {
      name = f.as<std::string>();
      EXPECT_FALSE(IsRtlHeader(name)) << name;
    }
    EXPECT_TRUE(fs::is_regular_file(tmp / name)) << name;
    listed.push_back(name);
  }
  EXPECT_EQ(listed.size(), g.files.size());
  // The sources in filelist.f order.
  std::vector<std::string> sources, filelist;
  for (const auto& n : listed)
    if (!IsRtlHeader(n))
      sources.push_back(n);
  std::istringstream in(ReadFile(tmp / "filelist.f"));
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && !line.starts_with("+incdir+"))
      filelist.push_back(line);
  EXPECT_EQ(sources, filelist);
  EXPECT_EQ(core["filesets"]["rtl"]["file_type"].as<std::string>(), "systemVerilogSource");
  EXPECT_EQ(core["targets"]["default"]["toplevel"].as<std::string>(), g.top);
  EXPECT_EQ(core["targets"]["default"]["filesets"][0].as<std::string>(), "rtl");
  const auto manifest = nlohmann::json::parse(ReadFile(tmp / "manifest.json"));
  EXPECT_EQ(manifest["fusesoc_core"], g.top + ".core");
  fs::remove_all(tmp);
}

}  // namespace
}  // namespace gpurf
