// The verification loop: drives a DUT and its golden model with the same stimulus, cycle by
// cycle, and compares every output (its defined bits) every cycle. Stops at the first
// mismatch or assertion and says where: seed, cycle, stimulus phase, port, expected, actual.
#pragma once

#include <cstdint>
#include <string>

#include "base/fs.h"
#include "gen/output/artifact.h"
#include "verif/harness/dut_abi.h"
#include "verif/harness/stimulus.h"

namespace gpurf {

struct LockstepOptions {
  uint64_t cycles = 100000;
  uint64_t seed = 1;
  fs::path trace_path;               // non-empty: dump a VCD of the run
  uint64_t stop_after = UINT64_MAX;  // stop tracing runs shortly after a known failure
};

struct LockstepResult {
  bool passed = true;
  uint64_t cycles = 0;  // cycles simulated
  double seconds = 0;   // wall time of the loop
  uint64_t fail_cycle = 0;
  uint64_t checked_cycles = 0;  // cycles where at least one output bit was defined and compared
  bool assertion = false;       // failed because an RTL assertion fired
  std::string failure;          // one paragraph, empty when passed
};

LockstepResult RunLockstep(DutModel& dut, const GeneratedStructure& g, CycleModel& model,
                           Stimulus& stim, const LockstepOptions& opt);

}  // namespace gpurf
