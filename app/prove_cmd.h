// `gpurf prove`: formal proofs of the invariants of a target's structures (verif/formal).
//
//   gpurf prove TARGET [--depth K] [-o DIR] [--property NAME] [--list] [--timeout S]
//
// TARGET is a structure kind with its flags or a design .yaml, as for the other subcommands. One
// line per property: PROVEN, FAILED at step N (the violated assertion's file:line and source) or
// UNKNOWN (why); structures of kinds without properties are listed as skipped. -o DIR keeps the
// counterexample VCDs (with the formal-view RTL, harness and script they refer to) and a
// manifest.json of the results, written atomically. Exit codes: 0 every property proven, 1 a
// property failed or could not be proven, 2 bad input, 3 a tool is missing or failed.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace gpurf {

struct ProveArgs {
  std::string target;
  std::string out_dir;
  std::string property;
  int depth = 0;
  int timeout = 600;
  bool list = false;
};

CLI::App* AddProveCommand(CLI::App& app, ProveArgs& args);

// `cmd` is the App AddProveCommand returned (its remaining() arguments are the structure flags).
// Throws InputError / ToolError like the other commands.
int RunProveCommand(CLI::App* cmd, const ProveArgs& args);

}  // namespace gpurf
