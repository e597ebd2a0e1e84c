#!/usr/bin/env bash
# gpurf test suite: bring the build up to date, then run every test except the long soak runs.
#
#   scripts/test.sh [--build-dir DIR] [extra ctest arguments...]
#
# Labels: unit (no external tools, includes the CLI tests), rtl (Verilator/Yosys/Icarus);
# `ctest --test-dir build -L soak` runs the million-cycle soak tests, `-L examples` the whole
# flow on every shipped example (both long, left out here).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir="$here/build"
if [ "${1:-}" = "--build-dir" ]; then
  build_dir=$2
  shift 2
fi
if [ ! -f "$build_dir/build.ninja" ]; then
  echo "test.sh: no build in $build_dir: run scripts/setup.sh first" >&2
  exit 2
fi
cmake --build "$build_dir" -j "$(nproc)"
ctest --test-dir "$build_dir" -LE '^(soak|examples)$' -j "$(nproc)" --output-on-failure "$@"
