#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""ck-report.py - turn copykernel benchmark output into the seeds' tables, comparisons and plots.

Input: a serial log of the image (make run CMDLINE='bench=rfc'), or the JSON-lines file of the
hosted build (build/bench.jsonl); any line that is a JSON object with "schema" is read.

    ck-report.py LOG                      seed-style tables (baseline vs optimized, speedup)
    ck-report.py --compare A B            B against A per case, and whether the difference
                                          exceeds the noise (interquartile range of either run)
    ck-report.py LOG --plot DIR           bandwidth against size per primitive, PNG and SVG
                                          (needs Debian's python3-matplotlib)
"""
import argparse
import json
import os
import sys
from collections import defaultdict


def records(path):
    out = []
    with open(path, "rb") as f:
        for raw in f:
            line = raw.decode("ascii", "replace").strip().replace("\r", "")
            start = line.find('{"schema"')
            if start < 0:
                continue
            try:
                obj = json.loads(line[start:])
            except ValueError:
                continue
            if isinstance(obj, dict):
                out.append(obj)
    return out


def size_name(n):
    for unit, shift in (("G", 30), ("M", 20), ("K", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return "%d%s" % (n >> shift, unit)
    return str(n)


def gbps(mbps):
    return mbps / 1000.0


def seed_tables(recs, out):
    results = {}
    for r in recs:
        if r.get("kind") == "result":
            results[(r["api"], r["primitive"], r["size"], r["mode"])] = r
    comps = [r for r in recs if r.get("kind") == "comparison"]
    groups = defaultdict(list)
    for c in comps:
        groups[(c["api"], c["mode"], c["baseline"], c["candidate"])].append(c)
    for (api, mode, base, cand), rows in groups.items():
        out.write("fn=%s mode=%s (%s vs %s)\n" % (api, mode, base, cand))
        out.write("%-14s %-7s %-18s %-18s %s\n" % ("direction", "folio", "baseline GB/s",
                                                    "optimized GB/s", "speedup [95% CI]"))
        for c in sorted(rows, key=lambda c: c["size"]):
            a = results.get((api, base, c["size"], mode))
            b = results.get((api, cand, c["size"], mode))
            fmt = lambda r: ("%.2f +- %.2f" % (gbps(r["median_mbps"]), gbps(r["stddev_mbps"]))
                             if r else "?")
            out.write("%-14s %-7s %-18s %-18s %.2fx [%.2f, %.2f]%s\n" % (
                "%s->%s" % ((a or {}).get("src_node", "node0"), (a or {}).get("dst_node",
                                                                               "node0")),
                size_name(c["size"]), fmt(a), fmt(b), c["ratio_x1000"] / 1000.0,
                c["ci_lo_x1000"] / 1000.0, c["ci_hi_x1000"] / 1000.0,
                "" if c["significant"] else " n.s."))
        out.write("\n")
    prims = [r for r in recs if r.get("kind") == "result" and r["api"] == "primitive"]
    if prims:
        out.write("%-22s %-7s %-11s %-11s %s\n" % ("primitive", "size", "mode", "GB/s",
                                                  "cycles/byte"))
        for r in sorted(prims, key=lambda r: (r["primitive"], r["mode"], r["size"])):
            out.write("%-22s %-7s %-11s %-11.2f %.3f\n" % (
                r["primitive"], size_name(r["size"]), r["mode"], gbps(r["median_mbps"]),
                r["cycles_per_byte_x1000"] / 1000.0))
    perf = [r for r in recs if r.get("kind") == "perf-compare"]
    if perf:
        out.write("\n%-18s %-17s %-6s %10s %10s %8s\n" % ("ours", "perf -f", "size",
                                                         "ours GiB/s", "perf GiB/s", "ratio"))
        for r in perf:
            out.write("%-18s %-17s %-6s %10.2f %10.2f %7.3fx\n" % (
                r["primitive"], r["perf_function"], size_name(r["size"]), r["ours_gibps"],
                r["perf_gibps"], r["ours_gibps"] / r["perf_gibps"] if r["perf_gibps"] else 0))
    return len(comps) + len(prims) + len(perf)


def noise(r):
    """Relative interquartile range of a run's durations."""
    return (r["q3_ns"] - r["q1_ns"]) / r["median_ns"] if r.get("median_ns") else 1.0


def compare(a_recs, b_recs, out):
    key = lambda r: (r["api"], r["primitive"], r["size"], r["mode"])
    a = {key(r): r for r in a_recs if r.get("kind") == "result"}
    b = {key(r): r for r in b_recs if r.get("kind") == "result"}
    out.write("%-18s %-20s %-7s %-11s %9s %9s %7s  %s\n" % (
        "api", "primitive", "size", "mode", "A GB/s", "B GB/s", "B/A", "verdict"))
    n = 0
    for k in sorted(set(a) & set(b)):
        ra, rb = a[k], b[k]
        ratio = rb["median_mbps"] / ra["median_mbps"] if ra["median_mbps"] else 0.0
        limit = max(noise(ra), noise(rb))
        verdict = "within noise" if abs(ratio - 1) <= limit else (
            "faster" if ratio > 1 else "slower")
        out.write("%-18s %-20s %-7s %-11s %9.2f %9.2f %6.2fx  %s (noise %.0f%%)\n" % (
            k[0], k[1], size_name(k[2]), k[3], gbps(ra["median_mbps"]),
            gbps(rb["median_mbps"]), ratio, verdict, limit * 100))
        n += 1
    return n


def plot(recs, outdir):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("ck-report: plots need matplotlib (Debian: python3-matplotlib, run with "
              "/usr/bin/python3)", file=sys.stderr)
        return 0
    os.makedirs(outdir, exist_ok=True)
    series = defaultdict(list)
    for r in recs:
        if r.get("kind") == "result":
            series[(r["api"], r["mode"], r["primitive"])].append((r["size"], r["median_mbps"]))
    by_fig = defaultdict(list)
    for (api, mode, prim), pts in series.items():
        by_fig[(api, mode)].append((prim, sorted(pts)))
    made = 0
    for (api, mode), lines in by_fig.items():
        fig, ax = plt.subplots(figsize=(8, 5))
        for prim, pts in sorted(lines):
            ax.plot([p[0] for p in pts], [gbps(p[1]) for p in pts], marker="o", label=prim)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("size (bytes)")
        ax.set_ylabel("GB/s (median)")
        ax.set_title("%s, %s" % (api, mode))
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
        base = os.path.join(outdir, "%s-%s" % (api, mode))
        fig.savefig(base + ".png", dpi=100)
        fig.savefig(base + ".svg")
        plt.close(fig)
        made += 1
    print("ck-report: %d plots in %s" % (made, outdir), file=sys.stderr)
    return made


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("input", nargs="?")
    ap.add_argument("--compare", nargs=2, metavar=("A", "B"))
    ap.add_argument("--plot", metavar="DIR")
    args = ap.parse_args()
    if args.compare:
        n = compare(records(args.compare[0]), records(args.compare[1]), sys.stdout)
        return 0 if n else 1
    if not args.input:
        ap.error("give a log or JSON-lines file, or --compare A B")
    recs = records(args.input)
    n = seed_tables(recs, sys.stdout)
    if args.plot:
        plot(recs, args.plot)
    if not n:
        print("ck-report: no benchmark results in %s" % args.input, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:         # the reader (head, less) went away: not an error
        sys.stderr.close()
        sys.exit(0)
