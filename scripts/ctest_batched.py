#!/usr/bin/env python3
"""Run a ctest selection with one process per GoogleTest binary shard instead of one per test.

    scripts/ctest_batched.py --build-dir DIR [-j N] [ctest selection arguments...]

The sanitizer job runs about 1,500 discovered GoogleTest cases; under AddressSanitizer each
process start costs 0.3-0.6 s, more than most of the tests themselves. This script asks ctest
for the selection (`ctest --show-only=json-v1` with the given -L/-LE/-R/-E arguments), groups the
GoogleTest cases by binary and working directory, and runs each group as a few shards
of at most TESTS_PER_SHARD cases, each with an explicit --gtest_filter of exactly its names
(short enough for one command-line argument), N at a time. Tests that are not GoogleTest cases run through ctest as usual.

Every selected test still runs; what is lost is per-test process isolation, which the main
suite (one process per test) keeps. Exit status: 0 when every shard and every other test passed,
1 otherwise (the failing shards' output is printed), 2 on bad usage.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

TESTS_PER_SHARD = 120
SHARD_TIMEOUT_S = 1800
RAN = re.compile(r"^\[==========\] (\d+) tests? from .* ran\.", re.MULTILINE)


def selection(build_dir, ctest_args):
  out = subprocess.run(["ctest", "--test-dir", build_dir, "--show-only=json-v1"] + ctest_args,
                       check=True, capture_output=True, text=True).stdout
  return json.loads(out)["tests"]


def prop(test, name):
  for p in test.get("properties", []):
    if p["name"] == name:
      return p["value"]
  return None


def is_gtest_case(test):
  cmd = test.get("command") or []
  return (len(cmd) >= 2 and cmd[1].startswith("--gtest_filter=") and
          prop(test, "PASS_REGULAR_EXPRESSION") is None and prop(test, "ENVIRONMENT") is None)


def run_shard(job):
  exe, cwd, names, _, _ = job
  start = time.monotonic()
  try:
    proc = subprocess.run([exe, "--gtest_filter=" + ":".join(names), "--gtest_brief=1"], cwd=cwd,
                          capture_output=True, text=True, timeout=SHARD_TIMEOUT_S)
    rc, output = proc.returncode, proc.stdout + proc.stderr
  except subprocess.TimeoutExpired as e:
    rc = -1
    output = f"timed out after {SHARD_TIMEOUT_S} s\n" + (e.stdout or b"").decode(errors="replace")
  ran = RAN.search(output)
  if rc == 0 and (ran is None or int(ran.group(1)) != len(names)):
    # A name the filter did not match would otherwise pass unnoticed.
    rc = -2
    output += (f"ctest_batched: the shard selected {len(names)} tests but GoogleTest reports "
               f"{ran.group(1) if ran else 'no'} run\n")
  return job, rc, output, time.monotonic() - start


def main():
  ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
  ap.add_argument("--build-dir", required=True)
  ap.add_argument("-j", type=int, default=os.cpu_count() or 1)
  args, ctest_args = ap.parse_known_args()
  if args.j < 1:
    ap.error(f"-j must be at least 1, got {args.j}")
  if not os.path.isfile(os.path.join(args.build_dir, "CTestTestfile.cmake")):
    print(f"ctest_batched.py: {args.build_dir} is not a configured build directory", file=sys.stderr)
    return 2

  tests = selection(args.build_dir, ctest_args)
  groups, others = {}, []
  for t in tests:
    if is_gtest_case(t):
      key = (t["command"][0], prop(t, "WORKING_DIRECTORY") or args.build_dir)
      groups.setdefault(key, []).append(t["command"][1][len("--gtest_filter="):])
    else:
      others.append(t["name"])

  jobs = []
  for (exe, cwd), names in groups.items():
    chunks = [names[i:i + TESTS_PER_SHARD] for i in range(0, len(names), TESTS_PER_SHARD)]
    jobs += [(exe, cwd, chunk, i, len(chunks)) for i, chunk in enumerate(chunks)]
  jobs.sort(key=lambda j: -len(j[2]))
  print(f"ctest_batched: {len(tests) - len(others)} GoogleTest cases in {len(groups)} binaries, "
        f"{len(jobs)} shards, {args.j} at a time; {len(others)} other tests through ctest")

  failed = []
  with ThreadPoolExecutor(max_workers=args.j) as pool:
    for (exe, _, names, index, total), rc, output, secs in pool.map(run_shard, jobs):
      status = "ok" if rc == 0 else f"FAILED (exit {rc})"
      print(f"  {os.path.basename(exe)} shard {index + 1}/{total}: {status} in {secs:.1f} s",
            flush=True)
      if rc != 0:
        failed.append(f"{os.path.basename(exe)} shard {index + 1}/{total}")
        sys.stdout.write(output)

  if others:
    exact = "^(" + "|".join(re.escape(n) for n in others) + ")$"
    if subprocess.run(["ctest", "--test-dir", args.build_dir, "-R", exact, "-j", str(args.j),
                       "--output-on-failure"]).returncode != 0:
      failed.append("the non-GoogleTest tests (see ctest's output above)")

  if failed:
    print("ctest_batched: failed: " + "; ".join(failed))
    return 1
  print(f"ctest_batched: all {len(tests)} tests passed")
  return 0


if __name__ == "__main__":
  sys.exit(main())
