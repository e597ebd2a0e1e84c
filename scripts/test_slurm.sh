#!/usr/bin/env bash
# The Slurm backend of `gpurf sweep`, for real (CTest label "cluster"; docs/sweeps.md, "Slurm"):
# starts a private one-node Slurm (munged, slurmctld, slurmd; scripts/slurm_local.sh) with 2
# CPUs, runs a 4-point sweep (simulate + energy of vectorAdd, ideal memory, 1 SM) through it,
# checks its database equals the same sweep run with --backend local (metrics by point, step,
# workload, component and name, run-time fields excluded), checks a re-run submits nothing, that
# a failed record is resubmitted alone, and that a broken sbatch gives a clear error; then stops
# the daemons.
#
#   scripts/test_slurm.sh [GPURF_BINARY]
#
# Exits 0 on success, 1 on a failed check, 77 (CTest SKIP_RETURN_CODE) with a "SKIP: reason"
# line when Slurm is not installed or its daemons cannot start here.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
gpurf=$(realpath "${1:-$here/build/gpurf}")
# shellcheck source=scripts/slurm_local.sh
source "$here/scripts/slurm_local.sh"

work=$(mktemp -d /tmp/gpurf-test-slurm-XXXXXX)
cleanup() {
  slurm_local_stop "$work/cluster" || true
  rm -rf "$work"
}
trap cleanup EXIT
start=$(date +%s.%N)

if ! slurm_local_start "$work/cluster"; then
  echo "SKIP: the local Slurm cluster cannot start here: $SLURM_LOCAL_ERROR"
  exit 77
fi
echo "test_slurm: Slurm up ($(sinfo --version)) in $(python3 -c "print(f'{$(date +%s.%N) - $start:.1f}')") s"

fail() {
  echo "FAIL: $*"
  exit 1
}

cat >"$work/sweep.yaml" <<'EOF'
sweep: {name: slurm-test}
base:
  design: {name: t}
  hierarchy: {kind: sw-orf, levels: 2, l1_entries_per_thread: 3}
axes:
  hierarchy.l1_entries_per_thread: [1, 2, 3, 4]
workloads: [vectorAdd]
steps: [simulate, energy]
options: {sms: 1, memory: ideal}
slurm:
  poll_seconds: 0.5
  wait_hours: 0.1
  resources:
    simulate: {cpus: 1, time: 5}
    energy: {cpus: 1, time: 5}
EOF

# Metrics that are not run-time measurements, one line each, sorted.
metrics() {
  python3 - "$1" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1] + "/results.db")
rows = db.execute("SELECT point, step, workload, component, name, value FROM metrics").fetchall()
skip = ("seconds", "wall", "time", "rate", "per_second", "mips")
for r in sorted(rows):
    if any(s in r[4].lower() for s in skip):
        continue
    print("|".join(str(x) for x in r))
PY
}
steps() {
  python3 - "$1" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1] + "/results.db")
for r in sorted(db.execute("SELECT point, step, workload, status, exit_code FROM steps")):
    print("|".join(str(x) for x in r))
PY
}

steps_errors() {
  python3 - "$1" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1] + "/results.db")
for r in db.execute("SELECT error FROM steps WHERE status != 'ok'"):
    print(r[0])
PY
}

t0=$(date +%s.%N)
"$gpurf" sweep "$work/sweep.yaml" -o "$work/local" -j 2 >"$work/local.log" 2>&1 ||
  fail "local sweep exit $?: $(tail -n 5 "$work/local.log")"
t1=$(date +%s.%N)
rc=0
"$gpurf" sweep "$work/sweep.yaml" -o "$work/slurm" --backend slurm >"$work/slurm.log" 2>&1 || rc=$?
t2=$(date +%s.%N)
cat "$work/slurm.log"
[ "$rc" -eq 0 ] || fail "slurm sweep exit $rc"
grep -q "submitted Slurm job" "$work/slurm.log" || fail "no job was submitted"
[ -s "$work/slurm/slurm/job.sh" ] || fail "no DIR/slurm/job.sh"

metrics "$work/local" >"$work/local.metrics"
metrics "$work/slurm" >"$work/slurm.metrics"
steps "$work/local" >"$work/local.steps"
steps "$work/slurm" >"$work/slurm.steps"
n=$(wc -l <"$work/local.metrics")
[ "$n" -gt 100 ] || fail "only $n metrics in the local run"
[ "$(wc -l <"$work/local.steps")" -eq 8 ] || fail "expected 8 steps (4 points x 2): $(cat "$work/local.steps")"
diff "$work/local.steps" "$work/slurm.steps" >"$work/steps.diff" || fail "steps differ: $(head "$work/steps.diff")"
diff "$work/local.metrics" "$work/slurm.metrics" >"$work/metrics.diff" ||
  fail "metrics differ ($(wc -l <"$work/metrics.diff") diff lines): $(head -n 6 "$work/metrics.diff")"
echo "test_slurm: local and Slurm databases agree: 8 steps, $n metrics (local $(python3 -c "print(f'{$t1 - $t0:.1f}')") s, slurm $(python3 -c "print(f'{$t2 - $t1:.1f}')") s)"

# A re-run submits nothing.
"$gpurf" sweep "$work/sweep.yaml" -o "$work/slurm" --backend slurm >"$work/rerun.log" 2>&1 ||
  fail "re-run exit $?: $(tail -n 3 "$work/rerun.log")"
grep -q "submitted Slurm job" "$work/rerun.log" && fail "the re-run submitted a job: $(cat "$work/rerun.log")"
grep -q "8 skipped as done" "$work/rerun.log" || fail "re-run: $(tail -n 1 "$work/rerun.log")"

# A failed record (as a preempted or failed step leaves) is resubmitted, alone.
rec=$(find "$work/slurm/points" -path '*/records/energy-vectorAdd.json' | head -n 1)
python3 - "$rec" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); r["status"] = "failed"; r["exit_code"] = 1
json.dump(r, open(sys.argv[1], "w"))
PY
"$gpurf" sweep "$work/sweep.yaml" -o "$work/slurm" --backend slurm >"$work/resub.log" 2>&1 ||
  fail "resubmission exit $?: $(tail -n 3 "$work/resub.log")"
grep -q "1 tasks run (0 failed), 7 skipped as done" "$work/resub.log" ||
  fail "resubmission: $(cat "$work/resub.log")"
grep -q "1 array tasks of 1 point" "$work/resub.log" || fail "resubmission: $(cat "$work/resub.log")"
echo "test_slurm: a failed record is resubmitted alone"

# A job cancelled while it runs: each unfinished point's next step gets a failed record naming
# the Slurm state, the sweep exits 1, and a re-run finishes the rest.
rc=0
"$gpurf" sweep "$work/sweep.yaml" -o "$work/dead" --backend slurm >"$work/dead.log" 2>&1 &
sub=$!
for _ in $(seq 1 200); do
  [ -s "$work/dead/slurm/job.id" ] && break
  sleep 0.05
done
scancel "$(cat "$work/dead/slurm/job.id")" || true
wait "$sub" || rc=$?
if grep -q "ended CANCELLED" "$work/dead.log"; then
  [ "$rc" -eq 1 ] || fail "a cancelled job: exit $rc, not 1: $(tail -n 3 "$work/dead.log")"
  steps_errors "$work/dead" >"$work/dead.errors"
  grep -q "Slurm array task .* ended CANCELLED" "$work/dead.errors" ||
    fail "no failed record names the state: $(cat "$work/dead.errors")"
  "$gpurf" sweep "$work/sweep.yaml" -o "$work/dead" --backend slurm >"$work/dead2.log" 2>&1 ||
    fail "re-run after cancel: exit $?: $(tail -n 3 "$work/dead2.log")"
  echo "test_slurm: a cancelled job is recorded as failed with its state (exit $rc), a re-run completes it"
else
  echo "test_slurm: (the job finished before scancel: $(tail -n 1 "$work/dead.log"))"
fi

# sbatch that fails: a clear error, exit 3, no hang.
mkdir -p "$work/bin"
printf '#!/bin/sh\necho "sbatch: error: Batch job submission failed: Invalid partition name specified" >&2\nexit 1\n' >"$work/bin/sbatch"
chmod +x "$work/bin/sbatch"
rc=0
PATH="$work/bin:$PATH" "$gpurf" sweep "$work/sweep.yaml" -o "$work/bad" --backend slurm >"$work/bad.log" 2>&1 || rc=$?
[ "$rc" -eq 3 ] || fail "failing sbatch: exit $rc, not 3: $(cat "$work/bad.log")"
grep -q "sbatch failed (exit 1): sbatch: error: Batch job submission failed" "$work/bad.log" ||
  fail "failing sbatch: $(cat "$work/bad.log")"
# No sbatch at all.
rc=0
PATH="/usr/bin/nonexistent" "$gpurf" sweep "$work/sweep.yaml" -o "$work/none" --backend slurm >"$work/none.log" 2>&1 || rc=$?
[ "$rc" -eq 3 ] && grep -q "'sbatch' not found on PATH" "$work/none.log" ||
  fail "missing sbatch: exit $rc: $(cat "$work/none.log")"
echo "test_slurm: sbatch failing or missing exits 3 with the reason"

echo "test_slurm: PASS in $(python3 -c "print(f'{$(date +%s.%N) - $start:.1f}')") s"
