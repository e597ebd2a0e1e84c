#!/usr/bin/env python3
"""Bailey et al.'s Fig. 9/10 figures from `gpurf energy ... --json` output of hybrid designs.

Per workload (kernels summed) and geometric means over the workloads:
  energy  = register-hierarchy energy / the MRF-only baseline's (Fig. 9)
  rd/wr elided = operand reads / result writes that never reach the MRF (Fig. 10)
  RC hit  = RC read hits / RC lookups (Section V-C: 51.3% in the hybrid, 71.5% RC only)
Usage: bailey_report.py E.json [E.json ...] [--per-workload]
"""
import json
import math
import sys
from collections import defaultdict


def totals(counts, live_outs_to_rc):
    lv = {k: v for k, v in counts.items() if k != "events"}
    rd = lambda l: lv.get(l, {}).get("reads_private", 0) + lv.get(l, {}).get("reads_shared", 0)
    wr = lambda l: lv.get(l, {}).get("writes_private", 0) + lv.get(l, {}).get("writes_shared", 0)
    reads = sum(rd(l) for l in lv)
    live_outs = lv.get("RSP", {}).get("drains", 0)
    results = sum(wr(l) for l in lv) - (live_outs if live_outs_to_rc else 0)
    mrf_reads = rd("MRF")
    mrf_writes = wr("MRF") + lv["MRF"]["writebacks"]
    rc_hits = rd("RC")
    rc_miss = counts.get("events", {}).get("RC misses", 0)
    return reads, results, mrf_reads, mrf_writes, rc_hits, rc_miss


def gmean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main(argv):
    per = "--per-workload" in argv
    rows = []
    # Result writes per workload, from a hybrid design (its levels count each result once, plus
    # live-outs, which totals() removes); other frames (SW ORF writes some results to the MRF and
    # the ORF) take them from there. The dynamic instruction stream is the same in every design.
    results_of = {}
    for path in [a for a in argv if not a.startswith("--")]:
        j = json.load(open(path))
        base_access = j["breakdown"]["configs"][0]["access_pj"]  # the MRF-only baseline's
        for d in j["designs"]:
            h = d["hierarchy"]
            hybrid = "RC" in d["energy"]["levels"]
            to_rc = hybrid and ("hierarchical" in h or "RC only" in h)
            w = defaultdict(lambda: [0.0, 0.0, 0, 0, 0, 0, 0, 0])
            for k in d["kernels"]:
                a = w[k["workload"]]
                a[0] += k["energy_pj"]["total_pj"] if isinstance(k["energy_pj"], dict) else k["energy_pj"]
                a[1] += k["baseline_energy_pj"]
                for i, v in enumerate(totals(k["counts"], to_rc)):
                    a[2 + i] += v
            e, rde, wre, hit = [], [], [], []
            for name, a in sorted(w.items()):
                reads, results, mr, mw, hits, miss = a[2:]
                if hybrid:
                    results_of[name] = results
                else:
                    results = results_of.get(name, 0)
                e.append(a[0] / a[1])
                rde.append(1 - mr / reads if reads else 0)
                wre.append(1 - mw / results if results else 0)
                if hits + miss:
                    hit.append(hits / (hits + miss))
                if per:
                    print(f"  {d['design']:<22} {name:<22} energy {a[0]/a[1]:.3f} rd-elided "
                          f"{rde[-1]:.3f} wr-elided {wre[-1]:.3f}")
            rows.append((d["design"], h, len(w), gmean(e), gmean(rde), gmean(wre),
                         gmean(hit) if hit else float("nan"), d["normalized"],
                         d["energy"]["access_pj"] / base_access))
    print("| design | workloads | energy (geo. mean) | energy (all kernels summed) | access only "
          "(summed) | reads elided | writes elided | RC read hit rate |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for n, h, nw, e, r, wv, hr, tot, acc in rows:
        hs = "-" if math.isnan(hr) else f"{100*hr:.1f}%"
        print(f"| {n} | {nw} | {100*e:.1f}% | {100*tot:.1f}% | {100*acc:.1f}% | {100*r:.1f}% | "
              f"{100*wv:.1f}% | {hs} |")


if __name__ == "__main__":
    main(sys.argv[1:])
