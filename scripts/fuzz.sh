#!/usr/bin/env bash
# gpurf fuzzing: build the libFuzzer targets (clang, ASan + UBSan, build-fuzz/) and run each one
# for a fixed time on a scratch copy of its committed seed corpus (verif/fuzz/corpus/TARGET).
#
#   scripts/fuzz.sh [--minutes N] [--work-dir DIR] [--build-dir DIR] [TARGET...]
#   scripts/fuzz.sh --build-only [--build-dir DIR]
#
# TARGETs: yaml ptx launch trace liberty (default: all, one after the other; default 10 minutes
# each). Per target it prints executions, exec/s, crashes (artefacts: crash-*, leak-*, timeout-*,
# oom-*; libFuzzer stops at the first one), final coverage (cov = edges, ft = features, corpus
# size) and peak RSS, then the artefacts with the command that reproduces each. The scratch
# folder (default: a new folder under ${TMPDIR:-/tmp}) keeps every target's corpus, artefacts and
# log. Exit 1 if any target crashed, 2 on bad usage, 3 if clang/libFuzzer is missing.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir="$here/build-fuzz"
minutes=10
work_dir=""
build_only=0
targets=()
all_targets=(yaml ptx launch trace liberty)

while [ $# -gt 0 ]; do
  case "$1" in
    --minutes) shift; minutes=${1:-} ;;
    --work-dir) shift; work_dir=${1:-} ;;
    --build-dir) shift; build_dir=${1:-} ;;
    --build-only) build_only=1 ;;
    -h|--help) sed -n '2,15p' "${BASH_SOURCE[0]}"; exit 0 ;;
    -*) echo "fuzz.sh: unknown option '$1' (allowed: --minutes N, --work-dir DIR, --build-dir DIR, --build-only)" >&2; exit 2 ;;
    *)
      if [[ ! " ${all_targets[*]} " == *" $1 "* ]]; then
        echo "fuzz.sh: unknown target '$1' (allowed: ${all_targets[*]})" >&2
        exit 2
      fi
      targets+=("$1") ;;
  esac
  shift
done
if ! [[ "$minutes" =~ ^[0-9]+([.][0-9]+)?$ ]] || [ "$(awk -v m="$minutes" 'BEGIN{print (m > 0)}')" != 1 ]; then
  echo "fuzz.sh: --minutes needs a positive number (got '$minutes')" >&2
  exit 2
fi
[ ${#targets[@]} -eq 0 ] && targets=("${all_targets[@]}")

# --- clang with libFuzzer and the sanitizers (scripts/setup.sh installs them).
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' \
  >"$probe/p.cc"
if ! command -v clang++ >/dev/null 2>&1 ||
   ! clang++ -fsanitize=fuzzer,address,undefined "$probe/p.cc" -o "$probe/p" >"$probe/log" 2>&1; then
  echo "fuzz.sh: clang++ with libFuzzer and ASan/UBSan is missing or broken; run scripts/setup.sh" \
       "(it installs clang, libfuzzer-14-dev and libclang-rt-14-dev)" >&2
  [ -s "$probe/log" ] && tail -n 5 "$probe/log" >&2
  exit 3
fi

# --- the fuzz build: only the parsers and the targets.
if [ ! -f "$build_dir/build.ninja" ]; then
  CC=clang CXX=clang++ cmake -S "$here" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DGPURF_FUZZ=ON -DGPURF_WERROR=ON >/dev/null
fi
cmake --build "$build_dir" -j "$(nproc)"
[ "$build_only" -eq 1 ] && exit 0

# --- the runs.
if [ -z "$work_dir" ]; then
  work_dir=$(mktemp -d "${TMPDIR:-/tmp}/gpurf-fuzz-XXXXXX")
fi
mkdir -p "$work_dir"
seconds=$(awk -v m="$minutes" 'BEGIN{printf "%d", m * 60 + 0.5}')
summary="$work_dir/summary.txt"
printf '%-8s %8s %12s %8s %8s %8s %8s %8s %12s\n' target seconds executions exec/s crashes cov ft corpus peak_rss_mb \
  | tee "$summary"
failed=0
for t in "${targets[@]}"; do
  w="$work_dir/$t"
  rm -rf "$w"
  mkdir -p "$w/artifacts"
  cp -r "$here/verif/fuzz/corpus/$t" "$w/corpus"  # scratch copy: the run adds to it
  fuzzer="$build_dir/verif/fuzz/${t}_fuzz"
  set +e
  (cd "$w" && "$fuzzer" -max_total_time="$seconds" -rss_limit_mb=2048 -malloc_limit_mb=2048 \
    -timeout=10 -max_len=16384 -print_final_stats=1 -dict="$here/verif/fuzz/dict/$t.dict" \
    -artifact_prefix="$w/artifacts/" "$w/corpus" >"$w/fuzz.log" 2>&1)
  rc=$?
  set -e
  fstat() { sed -n "s/^stat::$1: *//p" "$w/fuzz.log" | tail -n 1; }
  last_cov=$(grep -aE '^#[0-9]+[[:space:]].* cov: ' "$w/fuzz.log" | tail -n 1 || true)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last_cov")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last_cov")
  corp=$(sed -n 's/.* corp: \([0-9]*\/[0-9A-Za-z]*\).*/\1/p' <<<"$last_cov")
  mapfile -t artefacts < <(find "$w/artifacts" -type f | sort)
  printf '%-8s %8s %12s %8s %8s %8s %8s %8s %12s\n' "$t" "$seconds" "$(fstat number_of_executed_units)" \
    "$(fstat average_exec_per_sec)" "${#artefacts[@]}" "${cov:-?}" "${ft:-?}" "${corp:-?}" \
    "$(fstat peak_rss_mb)" | tee -a "$summary"
  if [ "$rc" -ne 0 ] || [ ${#artefacts[@]} -gt 0 ]; then
    failed=1
    echo "  $t: libFuzzer exit $rc; log: $w/fuzz.log" | tee -a "$summary"
    { grep -aE '^(==[0-9]+==ERROR|SUMMARY|fuzz contract|.*runtime error)' "$w/fuzz.log" || true; } \
      | head -n 5 | sed 's/^/  /' | tee -a "$summary"
    for a in "${artefacts[@]}"; do
      echo "  artefact: $a (reproduce: $fuzzer $a)" | tee -a "$summary"
    done
  fi
done
echo "fuzz.sh: corpora, artefacts and logs in $work_dir (summary: $summary)"
exit "$failed"
