#!/usr/bin/env bash
# Every GPU preset x every example hierarchy over the whole corpus: the C++ models on the preset's
# full SM count, then the same with the RTL in lockstep with the golden models (zero divergence
# or the run fails). Prints one Markdown row per point and exits 1 when any point failed.
#
# Usage: scripts/preset_matrix.sh [-b BUILD_DIR] [-j JOBS] [-o OUT_DIR] [-w WORKLOAD]
#                                 [-p PRESET]... [-d DESIGN]... [--models-only]
#   BUILD_DIR  holds the gpurf binary (default: build)
#   OUT_DIR    each point's output and JSON (default: a new folder under /tmp)
#   WORKLOAD   default: all (the whole corpus)
#   PRESET     default: every preset `gpurf gpu list` prints
#   DESIGN     an example design name (configs/examples/<DESIGN>.yaml); default: the five
#              register-file hierarchies (MRF only, HW RFC 1 and 2 levels, SW ORF 2 and 3 levels)
# Also run by `ctest -L soak -R preset_matrix` (hours of CPU: not in the default suite).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build"
jobs=1
out=""
workload=all
models_only=0
presets=()
designs=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    -b) build="$2"; shift 2 ;;
    -j) jobs="$2"; shift 2 ;;
    -o) out="$2"; shift 2 ;;
    -w) workload="$2"; shift 2 ;;
    -p) presets+=("$2"); shift 2 ;;
    -d) designs+=("$2"); shift 2 ;;
    --models-only) models_only=1; shift ;;
    -h|--help) sed -n '2,14p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "preset_matrix.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
if ! [[ "$jobs" =~ ^[1-9][0-9]*$ ]]; then
  echo "preset_matrix.sh: -j: '$jobs' is not a positive integer" >&2
  exit 2
fi
gpurf="$build/gpurf"
if [[ ! -x "$gpurf" ]]; then
  echo "preset_matrix.sh: no gpurf binary at $gpurf (build first, or pass -b)" >&2
  exit 2
fi
mapfile -t known < <("$gpurf" gpu list | awk 'NR > 1 { print $1 }')
if [[ ${#presets[@]} -eq 0 ]]; then
  presets=("${known[@]}")
fi
for p in "${presets[@]}"; do
  if ! printf '%s\n' "${known[@]}" | grep -qx -- "$p"; then
    echo "preset_matrix.sh: -p: unknown preset '$p'; allowed: ${known[*]}" >&2
    exit 2
  fi
done
if [[ ${#designs[@]} -eq 0 ]]; then
  designs=(mrf_only hw_rfc_6entry hw_rfc_3level sw_orf_2level sw_orf_3level)
fi
for d in "${designs[@]}"; do
  if [[ ! -f "$root/configs/examples/$d.yaml" ]]; then
    echo "preset_matrix.sh: -d: no design configs/examples/$d.yaml" >&2
    exit 2
  fi
done
if [[ -z "$out" ]]; then
  out="$(mktemp -d /tmp/gpurf-preset-matrix-XXXXXX)"
fi
mkdir -p "$out"

# One point: <preset> <design> <mode>; writes <out>/<preset>.<design>.<mode>.{txt,json,row}.
run_point() {
  local preset="$1" design="$2" mode="$3"
  local base="$out/$preset.$design.$mode"
  local flags=()
  [[ "$mode" == lockstep ]] && flags+=(--lockstep)
  local start end status
  start=$(date +%s)
  if "$gpurf" sim "$root/configs/examples/$design.yaml" --gpu "$preset" --workload "$workload" \
      "${flags[@]}" --json "$base.json" > "$base.txt" 2>&1; then
    status=ok
  else
    status="FAILED (exit $?, see $base.txt)"
  fi
  end=$(date +%s)
  local total
  total=$(grep -m1 '^total:' "$base.txt" || true)
  local skipped
  skipped=$(grep -c 'skipping kernel' "$base.txt" || true)
  printf '| %s | %s | %s | %s | %s | %s | %s s |\n' "$preset" "$design" "$mode" "$status" \
    "${total#total: }" "$skipped" "$((end - start))" > "$base.row"
}
export -f run_point
export gpurf root out workload

modes=(models)
[[ $models_only -eq 0 ]] && modes+=(lockstep)
points=()
for p in "${presets[@]}"; do
  for d in "${designs[@]}"; do
    for m in "${modes[@]}"; do
      points+=("$p $d $m")
    done
  done
done
# Killing this script (Ctrl-C, `kill`, a ctest timeout) stops every point it started: xargs,
# its shells and their gpurf processes, which would otherwise run on as orphans.
kill_tree() {
  local child
  for child in $(pgrep -P "$1" || true); do
    kill_tree "$child"
  done
  kill -TERM "$1" 2> /dev/null || true
}
printf '%s\n' "${points[@]}" | xargs -P "$jobs" -L 1 bash -c 'run_point "$@"' _ &
xargs_pid=$!
trap 'kill_tree "$xargs_pid"; exit 143' INT TERM
wait "$xargs_pid"
trap - INT TERM

echo "| preset | design | mode | result | total | kernels skipped by the RTL | time |"
echo "|---|---|---|---|---|---:|---:|"
failed=0
for pt in "${points[@]}"; do
  read -r p d m <<< "$pt"
  cat "$out/$p.$d.$m.row"
  grep -q '| ok |' "$out/$p.$d.$m.row" || failed=1
done
echo "outputs: $out"
exit "$failed"
