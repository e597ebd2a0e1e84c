#!/usr/bin/env bash
# gpurf test suite: bring the build up to date, then run every test except the long soak runs.
#
#   scripts/test.sh [--build-dir DIR] [--no-fuzz] [extra ctest arguments...]
#
# Labels: unit (no external tools, includes the CLI tests), rtl (Verilator/Yosys/Icarus),
# cluster (gpurf sweep --backend slurm on a private local Slurm; skipped with its reason where
# Slurm cannot start); browser (gpurf report loaded in headless Chromium; skipped, saying why,
# without chromium);
# `ctest --test-dir build -L soak` runs the million-cycle soak tests, `-L examples` the whole
# flow on every shipped example (both long, left out here). Then the fuzz targets (label fuzz):
# their own clang build in build-fuzz/ (scripts/fuzz.sh --build-only), each target run for a
# bounded time on its seed corpus; --no-fuzz skips that step.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir="$here/build"
fuzz=1
while [ $# -gt 0 ]; do
  case "$1" in
    --build-dir) build_dir=$2; shift 2 ;;
    --no-fuzz) fuzz=0; shift ;;
    *) break ;;
  esac
done
if [ ! -f "$build_dir/build.ninja" ]; then
  echo "test.sh: no build in $build_dir: run scripts/setup.sh first" >&2
  exit 2
fi
cmake --build "$build_dir" -j "$(nproc)"
ctest --test-dir "$build_dir" -LE '^(soak|examples)$' -j "$(nproc)" --output-on-failure "$@"
if [ "$fuzz" -eq 1 ]; then
  "$here/scripts/fuzz.sh" --build-only --build-dir "$here/build-fuzz"
  ctest --test-dir "$here/build-fuzz" -L fuzz -j "$(nproc)" --output-on-failure
fi
