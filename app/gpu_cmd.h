// `gpurf gpu`: the GPU presets a design's `gpu:` section and --gpu start from
// (sim/sm/gpu_config.h), with the source of every field.
//
//   gpurf gpu list         one line per preset: name, SMs, warps, schedulers, RF, and its source
//   gpurf gpu show NAME    every field of the preset: path, value, source
// An unknown NAME is an InputError (exit 2) listing the presets.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace gpurf {

struct GpuArgs {
  std::string name;  // gpu show NAME
};

// Adds `gpu` with its `list` and `show` subcommands; returns `gpu`.
CLI::App* AddGpuCommand(CLI::App& app, GpuArgs& args);
// Runs whichever of list / show was parsed.
int RunGpuCommand(CLI::App* gpu, const GpuArgs& args);

}  // namespace gpurf
