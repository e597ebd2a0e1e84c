// `gpurf flow` end to end on a small design point (configs/examples/small_sw_orf.yaml): every
// step runs for real (generate, lint, verify, Yosys + OpenSTA synthesis, gate-level
// characterization, the corpus in the SM harness), and the reports it says it wrote must exist
// and agree with each other. Label "flow": about a minute of CPU with a warm Verilator cache,
// several minutes cold.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "sim/tests/cli_fixture.h"

namespace gpurf::test {
namespace {

class FlowEndToEnd : public CliFixture {
 protected:
  FlowEndToEnd() : CliFixture("gpurf_flow_e2e_") {}
};

nlohmann::json ReadJson(const std::filesystem::path& p) {
  EXPECT_TRUE(std::filesystem::exists(p)) << p;
  return nlohmann::json::parse(Slurp(p));
}

TEST_F(FlowEndToEnd, SmallSoftwareOrfDesignPoint) {
  const std::filesystem::path out = dir_ / "flow";
  const CliResult r = Run("flow '" GPURF_SOURCE_DIR "/configs/examples/small_sw_orf.yaml' -o '" +
                          out.string() + "' --cycles 20000");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("flow PASSED"), std::string::npos) << r.out;
  for (int step = 1; step <= 6; ++step)
    EXPECT_NE(r.out.find("[" + std::to_string(step) + "/6]"), std::string::npos) << step;

  // Generation: every structure of the design in the manifest, with its folder.
  const nlohmann::json manifest = ReadJson(out / "manifest.json");
  std::set<std::string> kinds;
  for (const auto& s : manifest.at("structures")) {
    kinds.insert(s.at("kind").get<std::string>());
    EXPECT_TRUE(std::filesystem::is_directory(out / s.at("folder").get<std::string>())) << s;
  }
  for (const char* k : {"mrf", "orf-l1", "orf-l0", "warp-scheduler"})
    EXPECT_TRUE(kinds.count(k)) << k;

  // Synthesis and characterization: the two ORF levels with positive area and energies.
  EXPECT_TRUE(std::filesystem::exists(out / "synthesis" / "synthesis.md"));
  const nlohmann::json ch = ReadJson(out / "characterization" / "characterization.json");
  std::set<std::string> characterized;
  for (const auto& m : ch.at("modules")) {
    characterized.insert(m.at("kind").get<std::string>());
    EXPECT_GT(m.at("area").get<double>(), 0.0) << m.at("module");
  }
  EXPECT_TRUE(characterized.count("orf-l1"));
  EXPECT_TRUE(characterized.count("orf-l0"));

  // Energy: the design beats its MRF-only baseline, and the per-access energies the harness
  // used are the characterization's.
  const nlohmann::json en = ReadJson(out / "energy" / "energy.json");
  const auto& d = en.at("designs").at(0);
  EXPECT_EQ(d.at("design"), "small-sw-orf");
  EXPECT_GT(d.at("warp_instructions").get<uint64_t>(), 100000u);
  EXPECT_GT(d.at("ipc").get<double>(), 0.0);
  const auto& configs = en.at("breakdown").at("configs");
  ASSERT_EQ(configs.size(), 2u);
  const double norm = configs.at(1).at("normalized").get<double>();
  EXPECT_GT(norm, 0.2);
  EXPECT_LT(norm, 1.0);
  const std::string used = Slurp(out / "energy" / "rf_energies.json");
  EXPECT_NE(used.find("gpurf characterize"), std::string::npos) << used;
  for (const char* f : {"energy.md", "energy.svg", "energy.csv"})
    EXPECT_GT(std::filesystem::file_size(out / "energy" / f), 100u) << f;
}

}  // namespace
}  // namespace gpurf::test
