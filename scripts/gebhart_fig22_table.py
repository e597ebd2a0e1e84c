#!/usr/bin/env python3
"""Gebhart Figures 22/23 from a sweep's results: reads and writes per register-file level,
normalized to the single-level register file, for each hierarchy and L1 size.

    gpurf results OUT --json | scripts/gebhart_fig22_table.py

Reads the `energy` step's whole-corpus counts (workload `all`) of every point. The single-level
file reads every operand from the MRF and writes every result to it, so its reads are the operand
reads counted at any level (each operand is read from exactly one level) and its writes are the
results (a software ORF may write a result to two levels; a hardware RFC writes each result to
its first level, or to the MRF for long-latency results). Reads of the RFC for write-backs to the
MRF (drains) are reads the single-level file does not have: they appear in the `RFC wb reads`
column, and the write-backs themselves in the writes of the level they go to.
"""
import collections
import json
import sys


def level_counts(m, level):
    get = lambda name: m.get(f"counts.{level}.{name}", 0.0)
    return (get("reads_private") + get("reads_shared"),
            get("writes_private") + get("writes_shared"), get("drains"), get("writebacks"))


def main():
    rows = json.load(sys.stdin)
    points = collections.defaultdict(dict)
    for r in rows:
        if r["workload"] != "all" or r["step"] != "energy":
            continue
        h = json.loads(r["hierarchy"]) if r["hierarchy"].startswith("{") else {"kind": r["hierarchy"]}
        key = (h["kind"], int(r["hierarchy.l1_entries_per_thread"]))
        points[key][r["metric"]] = r["value"]
    levels = ["L0", "L1", "MRF"]
    print("| hierarchy | L1 entries | " + " | ".join(f"{l} reads" for l in levels) +
          " | RFC wb reads | " + " | ".join(f"{l} writes" for l in levels) +
          " | all reads | all writes | energy |")
    print("|---|---:|" + "---:|" * (2 * len(levels) + 4))
    for key in sorted(points):
        m = points[key]
        c = {l: level_counts(m, l) for l in levels}
        operand_reads = sum(c[l][0] for l in levels)
        # A hardware RFC writes each result once, to its first level (the MRF for long-latency
        # results); its write-backs are counted apart. A software ORF may write a result twice.
        results = sum(c[l][1] for l in levels) if key[0] == "hw-rfc" else None
        drains = sum(c[l][2] for l in levels)
        base_w = results if results is not None else None
        cells = [f"{c[l][0] / operand_reads:.3f}" for l in levels]
        cells.append(f"{drains / operand_reads:.3f}")
        writes = [c[l][1] + c[l][3] for l in levels]  # results and write-backs into the level
        if base_w is None:
            # Software: the baseline writes each result once; take the HW run of the same size
            # (same corpus and kernels, so the same results) when present.
            hw = points.get(("hw-rfc", key[1]))
            if hw is not None:
                hc = {l: level_counts(hw, l) for l in levels}
                base_w = sum(hc[l][1] for l in levels)
        cells += [f"{w / base_w:.3f}" if base_w else "-" for w in writes]
        cells.append(f"{(operand_reads + drains) / operand_reads:.3f}")
        cells.append(f"{sum(writes) / base_w:.3f}" if base_w else "-")
        cells.append(f"{m.get('normalized', float('nan')):.3f}")
        print(f"| {key[0]} | {key[1]} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
