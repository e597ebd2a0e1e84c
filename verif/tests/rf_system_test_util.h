// Helpers shared by the register-file system tests: a spec from flag-style overrides, and a
// model-only run of the stimulus (the lockstep loop without RTL).
#pragma once

#include <map>
#include <string>

#include "gen/params/param.h"
#include "gen/structures/rf_system/rf_system_gen.h"
#include "gen/structures/rf_system/rf_system_spec.h"
#include "models/rf_system_model.h"
#include "verif/stimulus/rf_system_stimulus.h"

namespace gpurf::test {

// Parameters by name ("hierarchy" -> "hw-rfc"); the rest keep their defaults.
inline RfSystemSpec MakeRfSystemSpec(const std::map<std::string, std::string>& values) {
  ParamSet p(RfSystemSpec::ParamDescs());
  for (const auto& [k, v] : values)
    p.Set(k, v, {}, k);
  return RfSystemSpec::FromParams(p);
}

// Runs the golden model under the system stimulus for `cycles` cycles (outputs, observe, clock,
// as the lockstep loop does) and returns the model for inspection.
inline void RunModel(RfSystemCycleModel& model, const RfSystemSpec& spec, uint64_t cycles,
                     uint64_t seed) {
  const GeneratedStructure g = EmitRfSystem(spec);
  PortValues in, out, defined;
  for (const PortInfo& p : g.ports) {
    in.emplace_back(p.width);
    out.emplace_back(p.width);
    defined.emplace_back(p.width);
  }
  RfSystemStimulus stim(spec, seed);
  for (uint64_t c = 0; c < cycles && model.Failure().empty(); ++c) {
    stim.Next(c, in);
    for (auto& d : defined)
      d.clear();
    model.Outputs(in, out, defined);
    stim.Observe(c, out);
    model.Clock(in);
  }
}

}  // namespace gpurf::test
