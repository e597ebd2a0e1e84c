// Every shipped example design point (configs/*.yaml and configs/examples/*.yaml) works with the
// main flow. The issue that added this found configs/examples/small_arrays.yaml failing `gpurf
// flow` (its 4-warp SM cannot run most corpus kernels) with a summary naming a report it never
// wrote.
//
//   ShippedExamples.EnergyOverTheCorpus/*   (label unit)  the flow's last step,
//       `gpurf energy EXAMPLE --workload all`: exit 0, kernels that cannot run on the example's
//       SM skipped and listed, the reports written. The default suite runs it on the default
//       design point, the reproducer and one example per hierarchy kind (each run is
//       the whole corpus, 10-25 s); MoreShippedExamples.EnergyOverTheCorpus/* (label examples)
//       runs it on every other example.
//   ShippedExamples.FlowOfSmallArrays        (label flow)  the whole `gpurf flow` on the issue's
//       reproducer.
//   ShippedExamples.Flow/*                   (labels soak, examples)  the whole `gpurf flow` on
//       every example: about an hour of CPU from an empty cache, so not in the default suite;
//       run it with `ctest --test-dir build -L examples` before changing an example.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "sim/tests/cli_fixture.h"

namespace gpurf::test {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> Examples() {
  std::vector<std::string> out;
  for (const char* dir : {GPURF_SOURCE_DIR "/configs", GPURF_SOURCE_DIR "/configs/examples"})
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".yaml")
        out.push_back(e.path().lexically_relative(GPURF_SOURCE_DIR).string());
  std::sort(out.begin(), out.end());
  return out;
}

// The examples whose energy step runs in the default suite: the default design point, the
// issue's reproducer, and one example per hierarchy kind.
const std::set<std::string> kDefaultSuiteExamples = {
    "configs/fermi_gebhart.yaml",          "configs/examples/small_arrays.yaml",
    "configs/examples/mrf_only.yaml",      "configs/examples/sw_orf_3level.yaml",
    "configs/examples/hw_rfc_3level.yaml", "configs/examples/bailey_hybrid.yaml",
    "configs/examples/jeon_shrink.yaml",   "configs/examples/cerf.yaml",
};

std::vector<std::string> Examples(bool default_suite) {
  std::vector<std::string> out;
  for (const std::string& e : Examples())
    if (kDefaultSuiteExamples.count(e) == (default_suite ? 1u : 0u))
      out.push_back(e);
  return out;
}

std::string TestName(const testing::TestParamInfo<std::string>& i) {
  std::string n = fs::path(i.param).stem().string();
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c)))
      c = '_';
  return n;
}

class ShippedExample : public CliFixture, public testing::WithParamInterface<std::string> {
 protected:
  ShippedExample() : CliFixture("gpurf_examples_") {}
  std::string Path() const { return std::string(GPURF_SOURCE_DIR "/") + GetParam(); }
};

using EnergyOverTheCorpus = ShippedExample;
using Flow = ShippedExample;

TEST_P(EnergyOverTheCorpus, RunsWithUnfitKernelsSkipped) {
  const fs::path json = dir_ / "energy.json";
  const CliResult r = Run("energy '" + Path() + "' --workload all --json '" + json.string() + "'");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  const auto j = nlohmann::json::parse(Slurp(json));
  ASSERT_FALSE(j.at("designs").empty());
  EXPECT_GT(j.at("designs").at(0).at("warp_instructions").get<uint64_t>(), 0u);
  // Every skipped kernel is announced with its reason.
  if (j.contains("skipped")) {
    for (const auto& s : j.at("skipped"))
      EXPECT_NE(r.err.find(s.at("kernel").get<std::string>()), std::string::npos) << s;
  }
}

TEST_P(Flow, Passes) {
  const fs::path out = dir_ / "flow";
  const CliResult r = Run("flow '" + Path() + "' -o '" + out.string() + "' --cycles 2000");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("flow PASSED"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(out / "FLOW-INCOMPLETE.txt"));
}

INSTANTIATE_TEST_SUITE_P(ShippedExamples, EnergyOverTheCorpus, testing::ValuesIn(Examples(true)),
                         TestName);
INSTANTIATE_TEST_SUITE_P(MoreShippedExamples, EnergyOverTheCorpus,
                         testing::ValuesIn(Examples(false)), TestName);
INSTANTIATE_TEST_SUITE_P(ShippedExamples, Flow, testing::ValuesIn(Examples()), TestName);

// The default-suite list names only examples that exist (a renamed example would silently
// leave the default suite otherwise).
TEST(ShippedExamplesList, DefaultSuiteExamplesExist) {
  for (const std::string& e : kDefaultSuiteExamples)
    EXPECT_TRUE(fs::is_regular_file(std::string(GPURF_SOURCE_DIR "/") + e)) << e;
}

// The reproducer, in the default suite: the whole flow, and a summary that names only
// the reports that exist.
class FlowOfSmallArrays : public CliFixture {
 protected:
  FlowOfSmallArrays() : CliFixture("gpurf_examples_small_") {}
};

TEST_F(FlowOfSmallArrays, PassesAndNamesOnlyWrittenReports) {
  const fs::path out = dir_ / "flow";
  const CliResult r = Run("flow '" GPURF_SOURCE_DIR "/configs/examples/small_arrays.yaml' -o '" +
                          out.string() + "' --cycles 2000");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("does not fit one CTA"), std::string::npos) << r.err;
  const size_t at = r.out.find("reports: ");
  ASSERT_NE(at, std::string::npos) << r.out;
  const std::string list = r.out.substr(at + 9, r.out.find('\n', at) - at - 9);
  for (size_t b = 0, e; b < list.size(); b = e + 2) {
    e = list.find(", ", b);
    if (e == std::string::npos)
      e = list.size();
    EXPECT_TRUE(fs::exists(list.substr(b, e - b))) << list.substr(b, e - b);
  }
  EXPECT_TRUE(fs::exists(out / "energy" / "energy.md"));
  EXPECT_FALSE(fs::exists(out / "FLOW-INCOMPLETE.txt"));
}

// `gpurf sim --json` reports the MRF-only baseline run beside the design (`baseline`): what
// FineReg's concurrent-CTA ratio (Fig. 12) and extra memory traffic (Fig. 15) divide by. On
// warpScan FineReg keeps more CTAs resident than the statically allocated baseline can.
class SimJson : public CliFixture {
 protected:
  SimJson() : CliFixture("gpurf_sim_json_") {}
};

TEST_F(SimJson, BaselineObjectReportsTheMrfOnlyRun) {
  const fs::path json = dir_ / "sim.json";
  const CliResult r = Run("sim '" GPURF_SOURCE_DIR
                          "/configs/examples/finereg.yaml' -w warpScan "
                          "--sms 1 --json '" +
                          json.string() + "'");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  const auto j = nlohmann::json::parse(Slurp(json));
  const auto& k = j.at("kernels").at(0);
  const auto& b = k.at("baseline");
  const auto cycles = b.at("cycles").get<uint64_t>();
  ASSERT_GT(cycles, 0u);
  EXPECT_NEAR(k.at("baseline_ipc").get<double>(),
              static_cast<double>(b.at("warp_instructions").get<uint64_t>()) / cycles, 1e-9);
  EXPECT_EQ(b.at("warp_instructions"), k.at("warp_instructions"));
  const auto base_ctas = b.at("max_resident_ctas").get<uint64_t>();
  EXPECT_GT(base_ctas, 0u);
  EXPECT_GT(k.at("sm_stats").at("max_resident_ctas").get<uint64_t>(), base_ctas);
  EXPECT_GT(b.at("memory").at("dram").at("bytes").get<uint64_t>(), 0u);
}

}  // namespace
}  // namespace gpurf::test
