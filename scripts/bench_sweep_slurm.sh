#!/usr/bin/env bash
# The Slurm backend against the local backend on this machine (docs/perf.md, "Sweeps through
# Slurm"): starts a private one-node Slurm with $(nproc) CPUs (scripts/slurm_local.sh), then runs
# one 64-point sweep (2 hierarchies x 8 L1 sizes x 4 active-warp counts; simulate + energy of
# WORKLOAD, ideal memory, 1 SM) twice from empty folders: `-j $(nproc) --backend local` and
# `--backend slurm` (points_per_task auto); prints both wall times and the ratio.
#
#   scripts/bench_sweep_slurm.sh [WORKLOAD] [BUILD_DIR]      # default histogram, build
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
workload=${1:-histogram}
gpurf=$(realpath "${2:-$here/build}/gpurf")
# shellcheck source=scripts/slurm_local.sh
source "$here/scripts/slurm_local.sh"
work=$(mktemp -d /tmp/gpurf-bench-slurm-XXXXXX)
trap 'slurm_local_stop "$work/cluster"; rm -rf "$work"' EXIT
export SLURM_LOCAL_CPUS=$(nproc)
slurm_local_start "$work/cluster" || { echo "bench: Slurm cannot start: $SLURM_LOCAL_ERROR"; exit 77; }
cat >"$work/sweep.yaml" <<EOS
sweep: {name: bench-slurm-64}
base:
  design: {name: bench}
  sm: {active_warps: 8}
  scheduler: {kind: two-level}
axes:
  hierarchy:
    - {kind: hw-rfc, levels: 2, replacement: lru}
    - {kind: sw-orf, levels: 2}
  hierarchy.l1_entries_per_thread: {from: 1, to: 8, step: 1}
  sm.active_warps: [2, 4, 6, 8]
workloads: [$workload]
steps: [simulate, energy]
options: {sms: 1, memory: ideal}
slurm: {poll_seconds: 2${SLURM_BENCH_EXTRA:-}}
EOS
t0=$(date +%s.%N)
"$gpurf" sweep "$work/sweep.yaml" -o "$work/local" -j "$(nproc)" >"$work/local.log"
t1=$(date +%s.%N)
"$gpurf" sweep "$work/sweep.yaml" -o "$work/slurm" --backend slurm >"$work/slurm.log"
t2=$(date +%s.%N)
grep "submitted" "$work/slurm.log"
tail -n 1 "$work/local.log" "$work/slurm.log"
python3 -c "
l, s = $t1 - $t0, $t2 - $t1
print(f'64 points x $workload x {{simulate, energy}}: local -j $(nproc) {l:.2f} s; slurm {s:.2f} s; ratio {s / l:.2f}')"
