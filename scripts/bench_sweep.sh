#!/usr/bin/env bash
# Overhead of `gpurf sweep` over running the same points by hand (docs/perf.md, "Sweeps").
# Runs the points of a sweep file twice from an empty folder: once as the exact step commands
# the sweep runs (read from its records), one after another, and once as `gpurf sweep -j 1`;
# prints both wall times and the overhead. Usage: scripts/bench_sweep.sh [SWEEP] [BUILD_DIR]
set -euo pipefail
sweep=${1:-configs/sweeps/gebhart_fig22.yaml}
build=${2:-build}
gpurf=$(realpath "$build/gpurf")
work=$(mktemp -d /tmp/gpurf-bench-sweep-XXXXXX)
trap 'rm -rf "$work"' EXIT

# 1. The sweep, -j 1.
t0=$(date +%s.%N)
"$gpurf" sweep "$sweep" -o "$work/sweep" -j 1 > "$work/sweep.log"
t1=$(date +%s.%N)
# 2. The same commands by hand: each record's command, with outputs into a fresh folder.
mkdir -p "$work/hand"
python3 - "$work" > "$work/cmds.sh" <<'PY'
import json, pathlib, sys
work = pathlib.Path(sys.argv[1])
for rec in sorted((work / "sweep/points").glob("*/records/*.json")):
    cmd = json.loads(rec.read_text())["command"]
    print(cmd.replace(str(work / "sweep"), str(work / "hand")) + " > /dev/null 2>&1")
PY
while read -r c; do
  d=$(echo "$c" | grep -o "$work/hand/points/[0-9a-f]*" | head -1)
  mkdir -p "$d"/{energy,simulate}
  cp "${d/hand/sweep}/design.yaml" "$d/"
done < "$work/cmds.sh"
t2=$(date +%s.%N)
bash "$work/cmds.sh"
t3=$(date +%s.%N)
python3 -c "
s, h = $t1 - $t0, $t3 - $t2
print(f'points by hand: {h:.2f} s; gpurf sweep -j 1: {s:.2f} s; overhead {100 * (s - h) / h:+.1f}%')"
