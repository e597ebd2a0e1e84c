// The contract between a golden model and whatever drives it (the lockstep loop of gpurf
// verify, the SM harness, the synthesis activity drivers).
//
// A golden model is written from a structure's documented semantics, independently of its
// RTL. The loop calls it once per clock cycle:
//   1. Outputs(in): given the inputs of this cycle (before the rising edge), the value every
//      output must show now, and which of its bits are defined (storage that was never written,
//      or data of a misused port, is undefined and not compared);
//   2. Clock(in): the rising edge with the same inputs.
// Ports are indexed as in the structure's manifest port list; the clock port is driven by the
// loop, not by stimulus or model.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/bits.h"

namespace gpurf {

using PortValues = std::vector<Bits>;

class CycleModel {
 public:
  virtual ~CycleModel() = default;
  virtual void Outputs(const PortValues& in, PortValues& out, PortValues& defined) = 0;
  virtual void Clock(const PortValues& in) = 0;
  // A violated model-side invariant (checked by the model on its own state and outputs), or ""
  // when all hold. The loop checks it after every Clock and stops at the first violation.
  virtual std::string Failure() const { return {}; }
};

}  // namespace gpurf
