#!/usr/bin/env python3
"""Per-kernel table of the cerf examples against their baseline (docs/results.md, Jing section).

Usage: scripts/cerf_table.py DIR, where DIR holds the --json outputs of
  gpurf sim configs/examples/X.yaml --workload all --stats --json DIR/X.json
for X in cerf, cerf_fair, cerf_2way, cerf_8way, cerf_baseline.

Memory-side energy estimate (Jing et al. Table III, pJ per 16-byte bank access; a 32-byte sector
is two): baseline L1D sector 2 x 0.72 + 0.47 (tag); integrated memory sector (hit or fill) 2 x
4.62 + 0.75 (tag); L2 sector 2 x 5.52 + 1.05 (tag). Everything charged as a read, no leakage,
DRAM left out (as the paper does).
"""
import json
import sys

d = sys.argv[1]
load = lambda n: {k["workload"]: k for k in json.load(open(f"{d}/{n}.json"))["kernels"]}
pri, fair, w2, w8, base = (load(n) for n in ("cerf", "cerf_fair", "cerf_2way", "cerf_8way", "cerf_baseline"))


def hit(k):
    a = k["memory"]["l1d"]["accesses"]
    return 100.0 * k["memory"]["l1d"]["hits"] / a if a else float("nan")


def mem_pj(k, integrated):
    l1 = k["memory"]["l1d"]["accesses"]
    l2 = k["memory"]["l2"]["accesses"]
    per = 2 * 4.62 + 0.75 if integrated else 2 * 0.72 + 0.47
    return l1 * per + l2 * (2 * 5.52 + 1.05)


print("| kernel | IPC pri | IPC fair | IPC 2-way | IPC 8-way | L1D hit base | L1D hit cerf | L2 sectors cerf/base | RF energy | RF+L1D+L2 energy | spills (fair) | fills (fair) |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
tot = {"s": [], "f": [], "e": [], "m": []}
for w in sorted(pri):
    p, b = pri[w], base[w]
    sp = lambda x: x[w]["ipc"] / b["ipc"]
    hs = fair[w]["hierarchy_stats"]
    l2r = p["memory"]["l2"]["accesses"] / max(1, b["memory"]["l2"]["accesses"])
    rf = p["energy_pj"] / p["baseline_energy_pj"]
    allp = p["energy_pj"] + mem_pj(p, True)
    allb = p["baseline_energy_pj"] + mem_pj(b, False)
    tot["s"].append(sp(pri)); tot["f"].append(sp(fair)); tot["e"].append(rf); tot["m"].append(allp / allb)
    print(f"| {w} | {sp(pri):.3f} | {sp(fair):.3f} | {sp(w2):.3f} | {sp(w8):.3f} | {hit(b):.1f}% | {hit(p):.1f}% | {l2r:.2f} | {rf:.3f} | {allp/allb:.3f} | {hs['spills']} | {hs['fills']} |")
g = lambda xs: __import__("math").prod(xs) ** (1 / len(xs))
print(f"\ngeomean IPC ratio: prioritized {g(tot['s']):.3f}, fair {g(tot['f']):.3f}; RF energy {g(tot['e']):.3f}; RF+L1D+L2 {g(tot['m']):.3f}")
for n, x in (("2way", w2), ("8way", w8)):
    print(n, f"{g([x[w]['ipc'] / base[w]['ipc'] for w in x]):.3f}")
