#!/usr/bin/env bash
# Browser test of gpurf report (label "browser"): runs a tiny sweep (vectorAdd, simulate +
# energy, 2 hierarchies x 2 L1 sizes, --memory ideal --sms 1), writes its report, loads it in
# headless Chromium and checks that the page's self-check passed (every chart has the data points
# the report says it drew), that the DOM holds those points, that the page logged nothing to the
# console (the report logs nothing when it is well; a script error, a self-check failure or a
# blocked network request would), and writes a screenshot whose path it prints.
# Exits 77 (CTest SKIP_RETURN_CODE) with the reason when Chromium is not installed.
#
#   report_browser_test.sh GPURF_BINARY WORK_DIR
set -euo pipefail

gpurf=$1
work=$2
chromium=${CHROMIUM:-}
if [ -z "$chromium" ]; then
  for c in chromium chromium-browser google-chrome; do
    if command -v "$c" >/dev/null 2>&1; then chromium=$(command -v "$c"); break; fi
  done
fi
if [ -z "$chromium" ]; then
  echo "SKIP: no chromium on PATH (install the Debian package 'chromium': scripts/setup.sh), so the report is not loaded in a browser"
  exit 77
fi

rm -rf "$work"
mkdir -p "$work"
cat > "$work/tiny.yaml" <<'YAML'
sweep: {name: "report-browser-test <b>&amp;\"x\"</b>"}
base:
  design: {name: report-browser}
  sm: {active_warps: 8}
  scheduler: {kind: two-level}
axes:
  hierarchy:
    - {kind: hw-rfc, levels: 2, replacement: lru}
    - {kind: sw-orf, levels: 2}
  hierarchy.l1_entries_per_thread: [2, 4]
workloads: [vectorAdd]
steps: [simulate, energy]
options: {sms: 1, memory: ideal}
YAML
start=$(date +%s.%N)
"$gpurf" sweep "$work/tiny.yaml" -o "$work/sweep" -j 2 > "$work/sweep.log" 2>&1 || {
  cat "$work/sweep.log"; echo "FAIL: the sweep failed"; exit 1; }
"$gpurf" report "$work/sweep" -o "$work/report.html" | tee "$work/report.log"

fail=0
check() {  # check DESCRIPTION COMMAND...
  if "${@:2}"; then echo "ok: $1"; else echo "FAIL: $1"; fail=1; fi
}
# What gpurf says it drew: "(22 data points: pareto-energy-ipc 4, breakdown-vectorAdd 18)".
expected=$(sed -n 's/.*data points: \(.*\))$/\1/p' "$work/report.log" | tr -d ' ' | tr ',' '\n')
check "the report drew the energy-vs-IPC chart and the vectorAdd breakdown" \
  grep -q "pareto-energy-ipc4" <<< "$expected"
check "the vectorAdd breakdown is in the report" grep -q "breakdown-vectorAdd" <<< "$expected"
check "the report says area is missing (no synthesize step)" grep -q "missing: area" "$work/report.log"
check "the report references nothing outside itself" \
  bash -c "! grep -Eq '(src|href)=\"(https?:|//)' '$work/report.html'"

profile="$work/chromium-profile"
flags=(--headless --disable-gpu --no-sandbox --no-first-run --user-data-dir="$profile"
       --disable-extensions --hide-scrollbars)
timeout 120 "$chromium" "${flags[@]}" --enable-logging=stderr --v=0 \
  --dump-dom "file://$work/report.html" > "$work/dom.html" 2> "$work/chromium.log" || {
  tail -20 "$work/chromium.log"; echo "FAIL: chromium --dump-dom failed"; exit 1; }
selfcheck=$(grep -o 'id="gpurf-selfcheck"[^>]*>[^<]*' "$work/dom.html" || true)
echo "self-check: $selfcheck"
check "the page's self-check ran and passed" grep -q 'data-status="ok"' <<< "$selfcheck"
while IFS= read -r e; do
  [ -n "$e" ] || continue
  id=$(sed 's/[0-9]*$//' <<< "$e")
  n=$(sed 's/^.*[^0-9]//' <<< "$e")
  check "chart $id has $n data points in the loaded page" grep -q "$id=$n[,)]" <<< "$selfcheck"
done <<< "$expected"
points=$(grep -o 'data-point-hash="[0-9a-f]*"' "$work/dom.html" | wc -l)
echo "data points in the DOM (table rows included): $points"
check "the sweep name is escaped, not markup" \
  grep -q 'report-browser-test &lt;b&gt;&amp;amp;&quot;x&quot;&lt;/b&gt;' "$work/report.html"
console=$(grep 'CONSOLE' "$work/chromium.log" || true)
check "no console messages (errors, warnings, self-check failures)" test -z "$console"
[ -z "$console" ] || echo "$console"

timeout 120 "$chromium" "${flags[@]}" --window-size=1400,2400 \
  --screenshot="$work/report.png" "file://$work/report.html" > "$work/screenshot.log" 2>&1 || true
check "screenshot written" test -s "$work/report.png"
echo "screenshot: $work/report.png ($(stat -c %s "$work/report.png" 2>/dev/null || echo 0) bytes)"
echo "report: $work/report.html ($(stat -c %s "$work/report.html") bytes)"
echo "time: $(echo "$(date +%s.%N) - $start" | bc) s"
exit $fail
