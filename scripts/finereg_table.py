#!/usr/bin/env python3
"""FineReg's evaluation tables (docs/results.md, FineReg section) from `gpurf sim --json` runs.

    for c in finereg finereg_vt finereg_dram finereg_8ports finereg_64_192 finereg_96_160 \
             finereg_160_96 finereg_192_64; do
      gpurf sim configs/examples/$c.yaml --workload all --stats --json OUT/$c.json
    done
    gpurf workload list --sm-warps 64 --sm-registers 65536 --sm-cta-slots 32 \
      --sm-shared-bytes 98304 --sm-register-granularity 4 > OUT/limits.txt
    scripts/finereg_table.py OUT

Every run carries its MRF-only baseline (the same preset with the whole register file
statically allocated; `baseline` per kernel in the JSON). Kernels are Type-R when the baseline's
occupancy is limited by registers, Type-S when by shared memory (the `limited by` column of
`gpurf workload list` for the preset's SM, OUT/limits.txt), as FineReg's evaluation splits them.
Missing runs are left out of the tables (a line says which).
"""
import json
import math
import os
import sys


def load(out, name):
    p = os.path.join(out, name + ".json")
    if not os.path.exists(p):
        return None
    with open(p) as f:
        j = json.load(f)
    return {k["kernel"]: k for k in j["kernels"]}, j


def limits(out):
    """kernel -> 'R' (registers), 'S' (shared memory) or '-' from `gpurf workload list`."""
    p = os.path.join(out, "limits.txt")
    kinds = {}
    if not os.path.exists(p):
        return kinds
    with open(p) as f:
        for line in f:
            cols = line.split()
            if len(cols) < 9 or cols[0] == "workload" or cols[0] == "SM:":
                continue
            rest = line.split("%", 1)[1] if "%" in line else ""
            lim = rest.strip()
            kind = "-"
            if lim.startswith("registers"):
                kind = "R"
            elif lim.startswith("shared memory"):
                kind = "S"
            kinds[cols[1]] = kind
    return kinds


def geomean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def sms(j):
    return j["gpu"]["sms"]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: finereg_table.py OUT")
    out = sys.argv[1]
    fr = load(out, "finereg")
    if fr is None:
        sys.exit(f"finereg_table.py: {out}/finereg.json missing")
    ks, fj = fr
    kinds = limits(out)
    vt = load(out, "finereg_vt")
    dram = load(out, "finereg_dram")
    ports = load(out, "finereg_8ports")
    missing = [n for n, r in (("finereg_vt", vt), ("finereg_dram", dram), ("finereg_8ports", ports))
               if r is None]
    if missing:
        print(f"(not found in {out}: {', '.join(missing)})")
    n_sms = sms(fj)

    print("| kernel | type | IPC / baseline | IPC / VT-like | IPC / DRAM | 8 ports: IPC / baseline "
          "| CTAs resident (FineReg / baseline, per SM) | move stalls (% of SM cycles) | "
          "DRAM bytes / baseline |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    groups = {"R": [], "S": [], "-": [], "all": []}
    for name, k in ks.items():
        b = k["baseline"]
        base_ipc = b["warp_instructions"] / b["cycles"] if b["cycles"] else float("nan")
        r_base = k["ipc"] / base_ipc
        r_vt = k["ipc"] / vt[0][name]["ipc"] if vt and name in vt[0] else float("nan")
        r_dram = k["ipc"] / dram[0][name]["ipc"] if dram and name in dram[0] else float("nan")
        r_ports = ports[0][name]["ipc"] / base_ipc if ports and name in ports[0] else float("nan")
        cta = k["sm_stats"]["max_resident_ctas"] / max(1, b["max_resident_ctas"])
        hs = k["hierarchy_stats"]
        stall = 100.0 * hs.get("move stall cycles", 0) / max(1, k["cycles"] * n_sms)
        dr = k.get("memory", {}).get("dram", {}).get("bytes", 0)
        bdr = b.get("memory", {}).get("dram", {}).get("bytes", 0)
        mem = dr / bdr if bdr else float("nan")
        kind = kinds.get(name, "-")
        row = (r_base, r_vt, r_dram, cta, stall, mem, r_ports)
        groups[kind].append(row)
        groups["all"].append(row)
        print(f"| {name} | {kind} | {r_base:.3f} | {r_vt:.3f} | {r_dram:.3f} | {r_ports:.3f} | "
              f"{k['sm_stats']['max_resident_ctas']} / {b['max_resident_ctas']} = {cta:.2f} | "
              f"{stall:.2f} | {mem:.3f} |")
    print()
    print("| kernels | n | IPC / baseline | IPC / VT-like | IPC / DRAM | 8 ports: IPC / baseline | "
          "CTA ratio | move stalls (mean %) | DRAM bytes / baseline |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    label = {"R": "Type-R (registers)", "S": "Type-S (shared memory)",
             "-": "other (warps, CTA slots)", "all": "all"}
    for g in ("R", "S", "-", "all"):
        rows = groups[g]
        if not rows:
            continue
        cols = list(zip(*rows))
        mean_stall = sum(cols[4]) / len(rows)
        mems = [m for m in cols[5] if not math.isnan(m)]
        print(f"| {label[g]} | {len(rows)} | {geomean(cols[0]):.3f} | {geomean(cols[1]):.3f} | "
              f"{geomean(cols[2]):.3f} | {geomean(cols[6]):.3f} | {geomean(cols[3]):.2f} | "
              f"{mean_stall:.2f} | "
              f"{geomean(mems):.3f} |")

    splits = [s for s in ("finereg_64_192", "finereg_96_160", "finereg", "finereg_160_96",
                          "finereg_192_64")]
    rows = []
    for s in splits:
        r = fr if s == "finereg" else load(out, s)
        if r is None:
            continue
        sk, _ = r
        rs = [k["ipc"] / (k["baseline"]["warp_instructions"] / k["baseline"]["cycles"])
              for k in sk.values() if k["baseline"]["cycles"]]
        rr = [k["ipc"] / (k["baseline"]["warp_instructions"] / k["baseline"]["cycles"])
              for n, k in sk.items() if kinds.get(n) == "R" and k["baseline"]["cycles"]]
        rows.append((s, geomean(rs), geomean(rr)))
    if rows:
        print()
        print("| ACRF / PCRF split | IPC / baseline, all (geomean) | Type-R (geomean) |")
        print("|---|---:|---:|")
        for s, a, r in rows:
            split = "128/128" if s == "finereg" else s.split("_", 1)[1].replace("_", "/")
            print(f"| {split} KB | {a:.3f} | {r:.3f} |")


if __name__ == "__main__":
    main()
