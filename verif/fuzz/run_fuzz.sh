#!/usr/bin/env bash
# One bounded libFuzzer run, as the `fuzz` CTest tests do it:
#
#   run_fuzz.sh FUZZER SEED_CORPUS DICT WORK_DIR SECONDS [extra libFuzzer flags...]
#
# WORK_DIR is emptied and receives the inputs the run adds (WORK_DIR/corpus; the seed corpus is
# only read) and its artefacts (WORK_DIR/artifacts: crash-*, leak-*, timeout-*, oom-*). Fails when
# libFuzzer fails or leaves an artefact.
set -euo pipefail

if [ $# -lt 5 ]; then
  echo "usage: run_fuzz.sh FUZZER SEED_CORPUS DICT WORK_DIR SECONDS [libFuzzer flags...]" >&2
  exit 2
fi
fuzzer=$1 seeds=$2 dict=$3 work=$4 seconds=$5
shift 5

rm -rf "$work"
mkdir -p "$work/corpus" "$work/artifacts"
dict_flag=()
[ -f "$dict" ] && dict_flag=("-dict=$dict")

set +e
"$fuzzer" -max_total_time="$seconds" -rss_limit_mb=2048 -malloc_limit_mb=2048 -timeout=10 \
  -max_len=16384 -print_final_stats=1 -artifact_prefix="$work/artifacts/" "${dict_flag[@]}" "$@" \
  "$work/corpus" "$seeds" >"$work/fuzz.log" 2>&1
rc=$?
set -e

artefacts=$(find "$work/artifacts" -type f | sort)
grep -aE '^stat::(number_of_executed_units|peak_rss_mb)|^Done [0-9]+ runs' "$work/fuzz.log" || true
if [ "$rc" -ne 0 ] || [ -n "$artefacts" ]; then
  echo "run_fuzz.sh: $(basename "$fuzzer") failed (exit $rc); log: $work/fuzz.log" >&2
  tail -n 60 "$work/fuzz.log" >&2
  for a in $artefacts; do
    echo "artefact: $a (reproduce: $fuzzer $a)" >&2
  done
  exit 1
fi
