// Builds generated RTL into a loadable simulation model with Verilator, at run time, and loads
// it. Builds are cached by content (RTL, adaptor, Verilator version, flags): an unchanged
// design is compiled once per cache folder and shared by every test and command that needs it.
#pragma once

#include <memory>
#include <string>

#include "base/fs.h"
#include "base/process.h"  // RunCommand
#include "gen/output/artifact.h"
#include "verif/harness/dut_abi.h"

namespace gpurf {

struct BuildOptions {
  fs::path cache_dir;       // empty: DefaultCacheDir()
  int jobs = 2;             // parallel C++ compile jobs
  std::string opt = "-O1";  // C++ optimisation of the Verilated model (-O3 for benchmarks)
  bool trace = true;        // VCD support (OpenTrace); off for large gate-level netlists
  // Make variables for the C++ build (Verilator -MAKEFLAGS), e.g. "OPT_FAST=-O0": Verilator's
  // makefile compiles the eval code with OPT_FAST (default -Os) after `opt`, so `opt` alone
  // does not set the level of the bulk of a model. Empty: Verilator's defaults.
  std::string make_flags;
};

struct BuiltModel {
  fs::path so_path;  // the shared object
  fs::path dir;      // its cache folder (RTL copy, obj_dir, build log)
  bool from_cache = false;
  double build_seconds = 0;
};

// $GPURF_CACHE_DIR, else $XDG_CACHE_HOME/gpurf, else ~/.cache/gpurf.
fs::path DefaultCacheDir();

// The C++ adaptor source for `g` (public for tests).
std::string AdaptorSource(const GeneratedStructure& g, bool trace = true);

// Builds (or finds in the cache) the model of `g`. Throws ToolError with the tail of the
// Verilator/compiler log on failure.
BuiltModel BuildModel(const GeneratedStructure& g, const BuildOptions& opt);

// Loads a built model; each call returns a fresh instance (own VerilatedContext).
std::unique_ptr<DutModel> LoadModel(const BuiltModel& m);

}  // namespace gpurf
