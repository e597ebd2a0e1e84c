// The finereg hierarchy over the whole corpus (label "soak": minutes): every kernel runs to
// completion under CTA switching on two SMs of the pascal-finereg preset, for the PCRF and the
// two baselines, without a deadlock (the SM's cycle limit, CTAs never launched) or a broken
// invariant of the system (an internal error, exit 3), and CTAs do switch.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <regex>

#include "sim/tests/cli_fixture.h"

namespace gpurf::harness {
namespace {

using Result = test::CliResult;

class FineRegCorpus : public test::CliFixture {
 protected:
  FineRegCorpus() : CliFixture("gpurf-finereg-corpus-") {}
};

const std::string kExamples = GPURF_SOURCE_DIR "/configs/examples/";

// The number after `name ` in the total FineReg line of --stats (the last one printed).
uint64_t Stat(const std::string& out, const std::string& name) {
  const std::regex re(name + " ([0-9]+)");
  uint64_t v = 0;
  for (auto it = std::sregex_iterator(out.begin(), out.end(), re); it != std::sregex_iterator();
       ++it)
    v = std::stoull((*it)[1].str());
  return v;
}

TEST_F(FineRegCorpus, EveryKernelFinishesUnderSwitching) {
  for (const char* f : {"finereg.yaml", "finereg_vt.yaml", "finereg_dram.yaml"}) {
    const Result r = Run(fmt::format("sim {}{} --workload all --sms 2 --stats", kExamples, f));
    ASSERT_EQ(r.code, 0) << f << r.err;
    EXPECT_NE(r.out.find("FineReg: switches"), std::string::npos) << f;
    uint64_t switches = 0;
    const std::regex re("FineReg: switches ([0-9]+)");
    for (auto it = std::sregex_iterator(r.out.begin(), r.out.end(), re);
         it != std::sregex_iterator(); ++it)
      switches += std::stoull((*it)[1].str());
    EXPECT_GT(switches, 0u) << f << ": no kernel of the corpus switched a CTA";
    if (std::string(f) == "finereg.yaml") {
      EXPECT_GT(Stat(r.out, "saved entries"), 0u) << f;
    }
  }
}

}  // namespace
}  // namespace gpurf::harness
