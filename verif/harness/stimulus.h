// The contract between the verification loop and the stimulus that drives a structure (the
// golden model's side is models/cycle_model.h).
#pragma once

#include <cstdint>
#include <string>

#include "models/cycle_model.h"

namespace gpurf {

class Stimulus {
 public:
  virtual ~Stimulus() = default;
  // Fills every input port (except the clock) for `cycle`.
  virtual void Next(uint64_t cycle, PortValues& in) = 0;
  // Short name of the current stimulus phase, for mismatch reports ("collisions", ...).
  virtual std::string Phase() const = 0;
  // Called after the outputs of `cycle` were compared, with the golden model's outputs (equal to
  // the RTL's on every defined bit), so that reactive stimulus can honour handshakes (stall,
  // ready, grant) in the next cycle. Open-loop stimulus ignores it.
  virtual void Observe(uint64_t /*cycle*/, const PortValues& /*out*/) {}
};

}  // namespace gpurf
