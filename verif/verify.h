// `gpurf verify` for one structure: build its RTL with Verilator (cached), run it in lockstep
// with its golden model under its stimulus, and on failure re-run the same seed with a
// waveform dump up to the failing cycle.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "gen/output/artifact.h"
#include "gen/structures/registry.h"
#include "models/registry.h"
#include "verif/harness/lockstep.h"
#include "verif/harness/stimulus.h"
#include "verif/harness/verilator_build.h"
#include "verif/stimulus/registry.h"

namespace gpurf {

struct VerifyOptions {
  uint64_t cycles = 100000;
  uint64_t seed = 1;
  BuildOptions build;
  fs::path waveform_dir = ".";  // where a failing run leaves its VCD
};

struct VerifyResult {
  std::string top;
  uint64_t seed = 0;
  LockstepResult run;
  BuiltModel model;
  fs::path waveform;  // set on failure

  bool passed() const { return run.passed; }
  std::string Summary() const;  // one line
};

VerifyResult VerifyStructure(const StructureSpec& spec, const GeneratedStructure& rtl,
                             const VerifyOptions& opt);

}  // namespace gpurf
