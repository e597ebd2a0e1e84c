// The Slurm backend of `gpurf sweep` (docs/sweeps.md, "Slurm"). It writes the pending tasks to
// DIR/slurm/tasks.json in batches (one batch = the task chains of `points_per_task` points) and
// an array job DIR/slurm/job.sh whose array task i runs `gpurf sweep-task DIR/slurm/tasks.json
// i` (no shell quoting of step commands: the worker reads their argv from the manifest). It
// submits the job with `sbatch --parsable`, follows it with `squeue` (and `sacct` or `scontrol`
// for the end state of a task that died), reports each record as it appears, and writes a failed
// record naming the Slurm state for a step whose array task ended (FAILED, CANCELLED, TIMEOUT,
// PREEMPTED, NODE_FAIL, OUT_OF_MEMORY) before it wrote its record, so a re-run resubmits exactly
// the tasks without a passed record. A sweep re-run while its previous job is still queued or
// running follows that job first instead of submitting the same tasks twice.
#pragma once

#include <filesystem>
#include <memory>

#include "sweep/runner.h"

namespace gpurf {

std::unique_ptr<SweepBackend> MakeSlurmBackend();

// `gpurf sweep-task MANIFEST INDEX`: runs batch INDEX of a manifest written by the Slurm backend
// (each point's chain in order, as the local backend does), each step writing its record, then
// marks the batch done (DIR/slurm/done/INDEX). Returns 0 once the batch ran, whatever its steps'
// outcomes (they are in the records); throws InputError on a bad manifest or index.
int RunSweepTaskBatch(const std::filesystem::path& manifest, int index);

}  // namespace gpurf
