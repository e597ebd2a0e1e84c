// The GPU a design runs on in the harness: its `gpu:` section (gen/config/design_spec.h
// GpuSection) and the command line's --gpu / --sms / --memory resolved into a checked
// sim::GpuConfig (sim/sm/gpu_config.h).
//
// Order, each step overriding the one before:
//   1. the preset: --gpu NAME, else `gpu.preset`, else fermi-gebhart;
//   2. the design's `sm:` fields that the file writes (sm.lanes always: the register file is
//      built for it; sm.warps, sm.active_warps when written) -- the SM the register file was
//      designed for;
//   3. the `gpu:` section's fields, in file order (a field also written in `sm:` with another
//      value is an error naming both);
//   4. --sms N and --memory ideal|hierarchy.
// Register capacity: the GPU's when a preset is named (--gpu or gpu.preset) or
// gpu.sm.registers is written, otherwise the design's MRF capacity (the implicit fermi-gebhart
// adopts the MRF, so small example designs keep working and every SM is what SmConfigFor built
// before presets). The register-file models of every partition keep the design's MRF
// organisation (banks, width, collectors).
//
// Every rejection is an InputError at the YAML field's file:line:column (or the flag): an
// unknown field path (with a suggestion), a value the field does not allow (naming what is), or
// an inconsistent combination (GpuConfigProblem), located at the override that last set a field
// the problem names.
#pragma once

#include <string>

#include "gen/config/design_spec.h"
#include "sim/sm/gpu_config.h"

namespace gpurf::harness {

struct GpuCliOptions {
  std::string preset;  // --gpu NAME ("" = the design's)
  int sms = 0;         // --sms N (0 = the configuration's)
  std::string memory;  // --memory ideal|hierarchy ("" = the configuration's)
};

// Throws InputError for --gpu naming no preset (listing the presets) or a bad --memory.
void CheckGpuCliOptions(const GpuCliOptions& cli);

sim::GpuConfig ResolveGpu(const DesignSpec& d, const GpuCliOptions& cli);

// The design's MRF capacity in 32-bit registers (banks x entries x width / 32).
uint32_t DesignRegisters(const DesignSpec& d);

}  // namespace gpurf::harness
