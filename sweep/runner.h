// Running a sweep: every point's steps become tasks, each a child `gpurf` process (one per point
// and step, and per workload for simulate/energy) whose outputs go into DIR/points/HASH/. A task
// that finishes (passed or failed) writes its record file (sweep/results_db.h); a task whose
// record says it passed is skipped on a re-run, so a sweep killed at any moment resumes where it
// stopped. A backend decides where tasks run: the local backend runs them on -j worker threads
// and merges each record into DIR/results.db as it arrives; a batch-system backend (Slurm, later)
// submits the same task commands and leaves merging to the collector.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sweep/results_db.h"
#include "sweep/sweep_file.h"

namespace gpurf {

struct SweepRunOptions {
  std::filesystem::path out_dir;
  int jobs = 1;
  bool dry_run = false;
  std::string backend = "local";
  std::string cache_dir;               // --cache-dir passed to every step ("" = default)
  std::filesystem::path gpurf_binary;  // the gpurf the steps run ("" = this executable)
};

// One step of one point: the command and where its record goes.
struct SweepTask {
  size_t point = 0;  // index into the plan's points
  std::string step;
  std::string workload;  // "" for per-design steps
  std::vector<std::string> argv;
  std::filesystem::path output;  // the step's main output (JSON or folder), "" if none
  std::filesystem::path record;
  std::filesystem::path log;
  bool done = false;  // a passed record exists
};

struct SweepPlan {
  SweepFile sweep;
  std::vector<SweepPoint> points;
  std::vector<std::filesystem::path> point_dirs;
  // Per point, its tasks in order: per-design steps, then per workload its per-workload steps.
  std::vector<std::vector<SweepTask>> tasks;
};

// The tasks of every point and which are done already (records in out_dir).
SweepPlan PlanSweep(const SweepFile& sweep, std::vector<SweepPoint> points,
                    const SweepRunOptions& opt);

// Runs one task in a child process and returns its record (also written to task.record).
StepRecord RunSweepTask(const SweepPlan& plan, const SweepTask& task, const SweepRunOptions& opt);

// The numbers a step's output holds (sim/energy JSON, synthesis/characterization JSON).
std::vector<Metric> ExtractMetrics(const std::string& step, const std::filesystem::path& output);

// Runs the tasks of point `point` that are not done, in order: the per-design steps, stopping at
// the first failure, then each workload's steps, a workload's failure stopping only that
// workload. `on_record` is called after each task (from this thread).
void RunPointTasks(const SweepPlan& plan, size_t point, const SweepRunOptions& opt,
                   const std::function<void(const SweepTask&, const StepRecord&)>& on_record);

class SweepBackend {
 public:
  virtual ~SweepBackend() = default;
  // Checks what the backend needs (its tools) before anything is written; throws ToolError.
  virtual void Preflight(const SweepPlan& /*plan*/, const SweepRunOptions& /*opt*/) {}
  // Runs every task that is not done. `on_record` is called (serialized) after each task.
  virtual void Run(const SweepPlan& plan, const SweepRunOptions& opt,
                   const std::function<void(const SweepTask&, const StepRecord&)>& on_record) = 0;
};

// "local" or "slurm" (sweep/slurm_backend.h); others are InputErrors naming what is allowed.
std::unique_ptr<SweepBackend> MakeSweepBackend(const std::string& name);

// `gpurf sweep`: load, validate, plan, run, merge. Returns the exit code (0 all passed, 1 some
// step failed). Throws InputError before anything runs on bad input.
int RunSweep(const std::string& sweep_file, const SweepRunOptions& opt);

}  // namespace gpurf
