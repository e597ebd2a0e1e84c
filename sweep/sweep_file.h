// Sweep files: a base design point, axes over any design field by its dotted path, constraints
// between axes, workloads and the steps to run (docs/sweeps.md). LoadSweepFile parses and checks
// the file; ExpandSweep applies every combination of axis values to the base design, drops the
// combinations a constraint rejects, validates every point's design with the design loader and
// gives each point a content hash. Every rejection is an InputError at the sweep file's
// file:line:column (exit 2), raised before anything runs.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/diag.h"

namespace gpurf {

// The steps of a point, in the order they run (the names used in sweep files and the database).
const std::vector<std::string>& SweepStepNames();
// Steps that run once per workload (the others run once per design point).
bool SweepStepPerWorkload(const std::string& step);

struct SweepAxis {
  std::string path;                   // dotted design path, e.g. hierarchy.l1_entries_per_thread
  std::vector<YAML::Node> values;     // scalars or whole sub-trees
  std::vector<SourceLoc> value_locs;  // where each value is in the sweep file
  SourceLoc loc;                      // where the path is
};

struct SweepConstraint {
  std::string text;  // e.g. "hierarchy.l1_entries_per_thread * sm.active_warps <= 48"
  SourceLoc loc;
};

struct SweepOptions {
  uint64_t verify_cycles = 10000;  // cycles per structure of the verify step
  std::string gpu;                 // --gpu of sim/energy ("" = the design's)
  int sms = 0;                     // --sms (0 = the design's)
  std::string memory;              // --memory ideal|hierarchy ("" = the design's)
};

// Where a step runs under `--backend slurm`: what one array task asks for per step kind.
struct SlurmResources {
  int cpus = 1;          // --cpus-per-task
  std::string mem;       // --mem, e.g. 2G ("" = the cluster's default)
  int time_minutes = 0;  // the step's time limit (0 = the step kind's default)
};

// The sweep file's `slurm:` section (docs/sweeps.md, "Slurm"); not part of the point hash.
struct SlurmOptions {
  std::string partition;                 // --partition ("" = the cluster's default)
  std::string account;                   // --account
  int points_per_task = 0;               // points per array task (0 = auto: ~4 tasks per CPU)
  int max_running = 0;                   // array throttle --array=...%N (0 = none)
  double poll_seconds = 5;               // squeue interval
  double wait_hours = 72;                // give up following the job after this long
  std::vector<std::string> sbatch_args;  // extra sbatch arguments
  std::map<std::string, SlurmResources> resources;  // per step name
  // The resources of `step`: the file's, else cpus 1, no mem, the kind's default time.
  SlurmResources For(const std::string& step) const;
};

struct SweepFile {
  std::string path;  // as given
  std::string name;
  std::string text;  // the file's bytes
  YAML::Node base;   // the base design (a mapping)
  SourceLoc base_loc;
  std::vector<SweepAxis> axes;
  std::vector<SweepConstraint> constraints;
  std::vector<std::string> workloads;
  std::vector<std::string> steps;  // in SweepStepNames() order
  SweepOptions options;
  SlurmOptions slurm;
};

struct SweepPoint {
  size_t index = 0;    // 0-based, in expansion order
  std::string hash;    // content hash (16 hex digits) of the design, workloads, options, version
  std::string design;  // the point's design YAML text
  // Axis path -> the value's canonical text (scalars as written, sub-trees as JSON).
  std::vector<std::pair<std::string, std::string>> axis_values;
  nlohmann::json params;  // every leaf of the point's design: dotted path -> value
};

// Parses and checks `path`. Throws InputError.
SweepFile LoadSweepFile(const std::string& path);
// Every point that satisfies the constraints, each design validated. Throws InputError at the
// sweep file's location of the axis value (or of the base) that makes a design invalid.
std::vector<SweepPoint> ExpandSweep(const SweepFile& sweep);

// The canonical JSON of a design YAML tree (mappings with sorted keys; scalars typed as
// integer, number, boolean or string), the basis of the content hash.
nlohmann::json CanonicalJson(const YAML::Node& node);
// The content hash of a point: design, workloads, options and the gpurf version.
std::string PointHash(const YAML::Node& design, const SweepFile& sweep);

}  // namespace gpurf
