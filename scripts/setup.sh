#!/usr/bin/env bash
# gpurf setup: install the Debian 12 packages gpurf needs (idempotent), configure and build
# the project in Release mode, then run the main flow on the default design point
# (configs/fermi_gebhart.yaml -> out/fermi-gebhart).
#
#   scripts/setup.sh [--no-build] [--no-flow] [--build-dir DIR]
#
# Works as root or as a user with sudo. Runs `apt-get update` at most once, and only when
# something is missing. Extra CMake arguments can be passed in $GPURF_CMAKE_ARGS
# (CI uses -DGPURF_WERROR=ON).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir="$here/build"
do_build=1
do_flow=1
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) do_build=0; do_flow=0 ;;
    --no-flow) do_flow=0 ;;
    --build-dir) shift; build_dir=$1 ;;
    -h|--help) sed -n '2,11p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "setup.sh: unknown option '$1' (allowed: --no-build, --no-flow, --build-dir DIR)" >&2; exit 2 ;;
  esac
  shift
done

packages=(
  build-essential g++ cmake ninja-build ccache git pkg-config
  verilator yosys iverilog opensta qflow-tech-osu018
  z3  # SMT solver of gpurf prove (yosys-smtbmc comes with yosys)
  libgtest-dev libgmock-dev libbenchmark-dev
  libspdlog-dev libfmt-dev libyaml-cpp-dev libcli11-dev nlohmann-json3-dev
  libsqlite3-dev  # results database of gpurf sweep
  slurm-wlm munge  # gpurf sweep --backend slurm and its test (scripts/test_slurm.sh)
  clang-format
  python3  # scripts/ctest_batched.py (CI's sanitizer job) and the results scripts
  chromium  # headless browser of the gpurf report test (label browser; skipped without it)
  clang libfuzzer-14-dev libclang-rt-14-dev
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then
    sudo_cmd=()
  elif command -v sudo >/dev/null 2>&1; then
    sudo_cmd=(sudo)
  else
    echo "setup.sh: need root or sudo to install: ${missing[*]}" >&2
    exit 2
  fi
  echo "setup.sh: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -q
  "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  echo "setup.sh: all ${#packages[@]} packages already installed"
fi

if [ "$do_build" -eq 1 ]; then
  # shellcheck disable=SC2086  # word splitting of the extra arguments is intended
  cmake -S "$here" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release ${GPURF_CMAKE_ARGS:-}
  cmake --build "$build_dir" -j "$(nproc)"
fi

if [ "$do_flow" -eq 1 ]; then
  echo "setup.sh: running the main flow on configs/fermi_gebhart.yaml"
  "$build_dir/gpurf" flow "$here/configs/fermi_gebhart.yaml" -o "$here/out/fermi-gebhart" \
    --waveform-dir "$here/out/waves"
fi
