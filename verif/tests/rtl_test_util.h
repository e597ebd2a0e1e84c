// Steps shared by the RTL tests of every structure kind: lint with all three tools, plant a
// bug in generated RTL, and run a mutant through `gpurf verify`'s code path or a model in
// lockstep through a fresh Verilator build.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "base/fs.h"
#include "gen/output/artifact.h"
#include "verif/harness/lockstep.h"
#include "verif/harness/verilator_build.h"
#include "verif/lint/lint.h"
#include "verif/verify.h"

namespace gpurf::test {

// Writes `rtl` to a temporary folder and lints it with every tool; each finding is a failure.
inline void ExpectLintClean(const GeneratedStructure& rtl) {
  const TempDir dir("gpurf-lint-test");
  WriteStructure(dir.path(), rtl);
  const LintReport lint = LintStructure(rtl, dir.path());
  for (const auto& f : lint.findings)
    ADD_FAILURE() << f.tool << " (" << f.view << "): " << f.message;
  EXPECT_EQ(lint.tools_run.size(), 5u);
}

// Replaces the first `from` by `to` in every file of `rtl` whose name starts with `file` (""
// = the file of the top module). A site that is not found is a fatal failure (ASSERT): call it
// as ASSERT_NO_FATAL_FAILURE(Mutate(...)).
inline void Mutate(GeneratedStructure& rtl, const std::string& file, const std::string& from,
                   const std::string& to) {
  bool applied = false;
  for (auto& f : rtl.files) {
    const bool target = file.empty() ? f.module == rtl.top : f.name.starts_with(file);
    if (!target)
      continue;
    const auto pos = f.contents.find(from);
    ASSERT_NE(pos, std::string::npos) << "mutation site not found in " << f.name << ": " << from;
    f.contents.replace(pos, from.size(), to);
    applied = true;
  }
  ASSERT_TRUE(applied) << "no file " << (file.empty() ? rtl.top : file) << " in the structure";
}

// Runs `gpurf verify`'s code path on `rtl` (a mutant) for `cycles` with `seed`, leaving the
// waveform of a failure in `waves`.
inline VerifyResult VerifyMutant(const StructureSpec& spec, const GeneratedStructure& rtl,
                                 uint64_t cycles, uint64_t seed, const TempDir& waves) {
  VerifyOptions opt;
  opt.cycles = cycles;
  opt.seed = seed;
  opt.build.jobs = 1;
  opt.waveform_dir = waves.path();
  return VerifyStructure(spec, rtl, opt);
}

// A lockstep mutation test: the mutant `rtl` named `name` fails verification (30000 cycles, seed
// 7) with a mismatch report naming the cycle and the stimulus phase, and leaves a waveform.
inline void ExpectCaughtByLockstep(const StructureSpec& spec, const GeneratedStructure& rtl,
                                   const std::string& name) {
  const TempDir waves("gpurf-mutation");
  const VerifyResult r = VerifyMutant(spec, rtl, 30000, 7, waves);
  ASSERT_FALSE(r.passed()) << name << " escaped verification: " << r.Summary();
  const std::string s = r.Summary();
  EXPECT_NE(s.find("mismatch at cycle " + std::to_string(r.run.fail_cycle)), std::string::npos)
      << s;
  EXPECT_NE(s.find("stimulus phase"), std::string::npos) << s;
  EXPECT_TRUE(std::filesystem::exists(r.waveform)) << s;
}

// Builds `rtl` with Verilator and runs it against `model` under `stim` for `cycles`.
inline LockstepResult RunInLockstep(const GeneratedStructure& rtl, CycleModel& model,
                                    Stimulus& stim, uint64_t cycles, uint64_t seed) {
  BuildOptions bo;
  bo.jobs = 1;
  const BuiltModel built = BuildModel(rtl, bo);
  auto dut = LoadModel(built);
  LockstepOptions lo;
  lo.cycles = cycles;
  lo.seed = seed;
  return RunLockstep(*dut, rtl, model, stim, lo);
}

// RunInLockstep (seed 7) with what the simulation printed (assertion messages) captured.
struct CapturedRun {
  LockstepResult run;
  std::string log;
};
inline CapturedRun RunCaptured(const GeneratedStructure& rtl, CycleModel& model, Stimulus& stim,
                               uint64_t cycles) {
  CapturedRun o;
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  o.run = RunInLockstep(rtl, model, stim, cycles, 7);
  o.log = ::testing::internal::GetCapturedStdout() + ::testing::internal::GetCapturedStderr();
  return o;
}

// Runs mutated `rtl` under `stim` for up to `cycles` beside `model` (a model that compares
// nothing, or only observes): the RTL assertion whose message contains `message` must stop the
// run, so that the invariant's own check, not an output difference, catches the mutation `name`.
inline void ExpectAssertionFires(const GeneratedStructure& rtl, CycleModel& model, Stimulus& stim,
                                 uint64_t cycles, const std::string& name,
                                 const std::string& message) {
  const CapturedRun o = RunCaptured(rtl, model, stim, cycles);
  ASSERT_FALSE(o.run.passed) << name << " did not fire";
  EXPECT_TRUE(o.run.assertion) << o.run.failure;
  EXPECT_NE(o.log.find(message), std::string::npos) << o.log;
}

// A bug planted in generated RTL: the text `from` replaced by `to`. A lockstep mutation must make
// an output differ from the golden model's; an invariant mutation must make the RTL assertion
// whose message contains `message` fire (ExpectAssertionFires).
struct LockstepMutation {
  const char* name;
  const char* from;
  const char* to;
};
struct InvariantMutation {
  const char* name;
  const char* from;
  const char* to;
  const char* message;
};

// The gtest name generator of a suite instantiated over the indices of `cases` (an array of
// cases with a `name`).
template <class Case, size_t N>
auto CaseNames(const Case (&cases)[N]) {
  return [&cases](const ::testing::TestParamInfo<size_t>& p) {
    return std::string(cases[p.param].name);
  };
}

// The points of a parameter-space matrix of N points that run in one suite. Each matrix is
// instantiated twice (verif/tests/CMakeLists.txt): every third point, the first and the last
// among them, in the default suite (prefix Shapes/ or Configs/, label rtl), and the others in
// the soak suite (prefix MoreShapes/ or MoreConfigs/, label soak). Each point builds its own
// Verilator model, so the whole matrix is most of the rtl label's time; the default suite keeps
// corners of every axis and `ctest -L soak` runs them all.
enum class MatrixSuite { kDefault, kSoak };
inline std::vector<size_t> MatrixPoints(size_t n, MatrixSuite suite) {
  std::vector<size_t> out;
  for (size_t i = 0; i < n; ++i) {
    const bool in_default = i % 3 == 0 || i + 1 == n;
    if (in_default == (suite == MatrixSuite::kDefault))
      out.push_back(i);
  }
  return out;
}

// A golden model that still answers the stimulus (its outputs drive the handshakes the stimulus
// waits on) but compares nothing, so that only an RTL assertion can stop a run.
template <class Model>
class ObserveOnly : public CycleModel {
 public:
  template <class Spec>
  explicit ObserveOnly(const Spec& spec) : model_(spec) {}
  void Outputs(const PortValues& in, PortValues& out, PortValues& defined) override {
    model_.Outputs(in, out, defined);
    for (Bits& d : defined)
      d.clear();
  }
  void Clock(const PortValues& in) override { model_.Clock(in); }

 private:
  Model model_;
};

}  // namespace gpurf::test
