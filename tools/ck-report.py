#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""ck-report.py - turn copykernel benchmark output into the seeds' tables, comparisons and plots.

Input: a serial log of the image (make run CMDLINE='bench=rfc'), or the JSON-lines file of the
hosted build (build/bench.jsonl); any line holding a JSON object that starts with "schema" is
a record, every other line (console text, KTAP) is ignored. A record line that is cut off, is
not UTF-8 or not JSON, or lacks a field its kind needs makes the whole input bad (status 3):
a damaged file is not reported as if it were complete.

    ck-report.py LOG                      seed-style tables (baseline vs optimized, speedup)
    ck-report.py --compare A B            B against A per comparison: whether the ratio
                                          changed, tested on the two runs' 95% intervals
                                          (Holm-corrected over all cases); absolute GB/s are
                                          listed beside, not tested (they move with load)
    ck-report.py LOG --plot DIR           per API and mode: bandwidth against size with
                                          error bars, and the ratios with their intervals;
                                          PNG and SVG (needs Debian's python3-matplotlib)
"""
import argparse
import json
import math
import os
import re
import sys
from collections import defaultdict

TOOL = "ck-report"
EXIT_OK, EXIT_NO_RESULT, EXIT_USAGE, EXIT_BAD_INPUT = 0, 1, 2, 3
EPILOG = """exit status:
  0  tables (or the comparison) on stdout
  1  no results: the input holds no record a table is made of (--compare: no case measured
     in both A and B)
  2  usage error (bad options, no input given)
  3  bad input: a file is missing, unreadable or a directory; a record line is cut off, not
     UTF-8, not JSON, of another schema, or lacks a field (or has one of the wrong type);
     the --plot directory cannot be made
every failure is one line on stderr: "ck-report: FILE: what is wrong (where)"."""

MARK = b'{"schema"'
STR, SIZE, NUM, BOOL = "a string", "an integer size", "a number", "true or false"
# What each kind of record needs (kinds not listed are read and ignored).
FIELDS = {
    "result": {"api": STR, "primitive": STR, "size": SIZE, "mode": STR, "median_mbps": NUM,
               "stddev_mbps": NUM, "cycles_per_byte_x1000": NUM},
    "comparison": {"api": STR, "mode": STR, "baseline": STR, "candidate": STR, "size": SIZE,
                   "ratio_x1000": NUM, "ci_lo_x1000": NUM, "ci_hi_x1000": NUM,
                   "significant": BOOL},
    "perf-compare": {"primitive": STR, "perf_function": STR, "size": SIZE, "ours_gibps": NUM,
                     "perf_gibps": NUM},
}
OPTIONAL = {"result": {"src_node": STR, "dst_node": STR, "median_ns": NUM, "q1_ns": NUM,
                       "q3_ns": NUM}}


class BadInput(Exception):
    """The input cannot be read as benchmark output (exit status 3)."""

    def __init__(self, file, what, where=None):
        super().__init__(what)
        self.file, self.what, self.where = file, what, where

    def line(self):
        return "%s: %s: %s%s" % (TOOL, self.file, self.what,
                                 " (%s)" % self.where if self.where else "")


def os_problem(e):
    if isinstance(e, FileNotFoundError):
        return "no such file or directory"
    if isinstance(e, IsADirectoryError):
        return "is a directory, not a file"
    if isinstance(e, NotADirectoryError):
        return "a part of the path is not a directory"
    return e.strerror or type(e).__name__


def json_type(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    return {str: "a string", int: "an integer", float: "a number", list: "a list",
            dict: "an object", type(None): "null"}.get(type(v), type(v).__name__)


def fits(v, want):
    if want == STR:
        return isinstance(v, str)
    if want == BOOL:
        return isinstance(v, bool)
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return False
    if want == SIZE:
        return isinstance(v, int) and 0 <= v < 1 << 64
    try:
        return math.isfinite(float(v))
    except OverflowError:
        return False


def check_record(obj, path, where):
    """Raise BadInput unless @obj is a record this tool can use (or may ignore)."""
    schema = obj.get("schema")
    if type(schema) is not int or schema != 1:
        raise BadInput(path, "record of schema %s; this tool reads schema 1" %
                       json.dumps(schema), where)
    kind = obj.get("kind")
    if not isinstance(kind, str):
        raise BadInput(path, "record without a \"kind\" string (%s)" % json_type(kind), where)
    for table, required in ((FIELDS.get(kind, {}), True), (OPTIONAL.get(kind, {}), False)):
        for key, want in table.items():
            if key not in obj:
                if required:
                    raise BadInput(path, "%s record lacks \"%s\"" % (kind, key), where)
                continue
            if not fits(obj[key], want):
                raise BadInput(path, "%s record: \"%s\" is %s, want %s" % (
                    kind, key, json_type(obj[key]), want), where)


def reject_constant(name):
    raise ValueError("%s is not JSON" % name)


def records(path):
    """The records of one input, checked; BadInput when the file or a record is damaged."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise BadInput(path, "cannot read: %s" % os_problem(e))
    out = []
    for n, raw in enumerate(data.split(b"\n"), 1):
        start = raw.find(MARK)
        if start < 0:
            continue
        text = raw[start:].strip().replace(b"\r", b"")
        try:
            line = text.decode("utf-8")
        except UnicodeDecodeError as e:
            raise BadInput(path, "record is not UTF-8 (byte %#04x)" % text[e.start],
                           "line %d, column %d" % (n, start + e.start + 1))
        try:
            obj = json.loads(line, parse_constant=reject_constant)
        except json.JSONDecodeError as e:
            raise BadInput(path, "record is not valid JSON: %s" % e.msg,
                           "line %d, column %d" % (n, start + e.pos + 1))
        except ValueError as e:
            raise BadInput(path, "record is not valid JSON: %s" % e, "line %d" % n)
        except RecursionError:
            raise BadInput(path, "record nested too deeply", "line %d" % n)
        check_record(obj, path, "line %d" % n)
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


ALPHA = 0.05            # family-wise: the chance that --compare flags anything in an A/A run
Z95 = 1.959964          # the comparison intervals are 95% intervals
SE_FLOOR = 0.0005       # ratios are printed in parts per thousand: no interval is narrower
# Run-to-run noise of a ratio (standard deviation of its log) used when a side has one run:
# ten hosted rfc runs of one build on the Zen 3 CI VM at load 5-6 spread by 2.4% (README).
RUN_NOISE = 0.025


def comp_key(c):
    """What makes two comparison records the same case."""
    return (c["api"], c["mode"], c["size"], c["baseline"], c["candidate"],
            c.get("src_node", "node0"), c.get("dst_node", "node0"),
            c.get("candidate_src_pattern", c.get("src_pattern", "")),
            c.get("cold_method", ""))


def log_se(c):
    """Standard error of log(ratio) from a record's 95% interval (its half-width in logs)."""
    lo, hi = c["ci_lo_x1000"], c["ci_hi_x1000"]
    if lo <= 0 or hi <= 0:
        return None
    return max((math.log(hi) - math.log(lo)) / (2 * Z95), SE_FLOOR)


def holm(pvalues, alpha=ALPHA):
    """Which of @pvalues Holm's step-down procedure rejects at family-wise level @alpha."""
    order = sorted(range(len(pvalues)), key=lambda i: pvalues[i])
    reject = [False] * len(pvalues)
    for rank, i in enumerate(order):
        if pvalues[i] > alpha / (len(pvalues) - rank):
            break
        reject[i] = True
    return reject


def side(runs, key):
    """One side's view of a case: its records, mean log ratio and mean within-run variance."""
    recs = [r[key] for r in runs if key in r]
    logs = [math.log(c["ratio_x1000"]) for c in recs if c["ratio_x1000"] > 0]
    ses = [log_se(c) for c in recs]
    if len(logs) != len(recs) or any(se is None for se in ses):
        return recs, None, None
    return recs, sum(logs) / len(logs), sum(se * se for se in ses) / len(ses)


def run_noise(a_runs, b_runs, keys):
    """Run-to-run variance of log ratios, pooled over cases and sides (None: one run each)."""
    ss, df = 0.0, 0
    for runs in (a_runs, b_runs):
        if len(runs) < 2:
            continue
        for k in keys:
            logs = [math.log(r[k]["ratio_x1000"]) for r in runs
                    if k in r and r[k]["ratio_x1000"] > 0]
            if len(logs) >= 2:
                m = sum(logs) / len(logs)
                ss += sum((x - m) ** 2 for x in logs)
                df += len(logs) - 1
    return ss / df if df else None


def compare_ratios(a_recs, b_recs, noise=RUN_NOISE):
    """
    Per comparison measured on both sides: [key, A records, B records, change B/A (geometric
    means), p-value or None, flagged, smallest change resolved]. @a_recs and @b_recs are
    lists of runs (lists of records). With several runs on a side, a ratio's variance is the
    runs' spread (pooled over cases, never below the case's own within-run variance); with
    one run each, its interval (within-run) plus @noise squared for the run-to-run part.
    """
    a_runs = [{comp_key(r): r for r in recs if r.get("kind") == "comparison"} for recs in a_recs]
    b_runs = [{comp_key(r): r for r in recs if r.get("kind") == "comparison"} for recs in b_recs]
    keys = sorted(set().union(*a_runs) & set().union(*b_runs),
                  key=lambda k: tuple(str(x) for x in k))
    between = run_noise(a_runs, b_runs, keys)
    estimated = between is not None
    if not estimated:
        between = noise * noise
    rows = []
    for k in keys:
        ra, ma, va = side(a_runs, k)
        rb, mb, vb = side(b_runs, k)
        change, p, resolves = None, None, None
        if ma is not None and mb is not None:
            change = math.exp(mb - ma)
            if estimated:       # the runs' spread already holds their within-run noise
                se = math.sqrt(max(between, va) / len(ra) + max(between, vb) / len(rb))
            else:
                se = math.sqrt(va + vb + 2 * between)
            p = math.erfc(abs(mb - ma) / se / math.sqrt(2))
            resolves = Z95 * se
        rows.append([k, ra, rb, change, p, False, resolves])
    tested = [r for r in rows if r[4] is not None]
    for r, rej in zip(tested, holm([r[4] for r in tested])):
        r[5] = rej
    return rows, math.sqrt(between)


def overall(rows, out):
    """
    All cases together: the mean log change over the cases, tested against 0 with the spread
    of the cases' changes (a one-sample t-test, so run-wide effects shared by the cases are
    not mistaken for independent evidence). Returns (change, low, high, flagged) or None.
    """
    d = [math.log(r[3]) for r in rows if r[4] is not None]
    if len(d) < 3:
        return None
    n, m = len(d), sum(d) / len(d)
    se = math.sqrt(sum((x - m) ** 2 for x in d) / (n - 1) / n)
    df = n - 1
    t = Z95 + (Z95 ** 3 + Z95) / (4 * df) + \
        (5 * Z95 ** 5 + 16 * Z95 ** 3 + 3 * Z95) / (96 * df * df)     # t quantile, df

    lo, hi = math.exp(m - t * se), math.exp(m + t * se)
    flagged = lo > 1 or hi < 1
    out.write("all %d cases together: B/A %.3fx [%.3f, %.3f] (mean over the cases, 95%% t "
              "interval): %s\n" % (n, math.exp(m), lo, hi,
                                   ("CHANGED: %s" % ("faster" if m > 0 else "slower"))
                                   if flagged else "no change"))
    return math.exp(m), lo, hi, flagged


def compare(a_recs, b_recs, out, noise=RUN_NOISE):
    """@a_recs, @b_recs: lists of runs. Returns the number of cases written."""
    n = 0
    rows, between = compare_ratios(a_recs, b_recs, noise)
    if rows:
        out.write("comparisons: B's ratio against A's (%d and %d runs; run-to-run noise %.1f%% "
                  "%s); a change is flagged when significant at %g family-wise (Holm, %d "
                  "cases)\n" % (len(a_recs), len(b_recs), between * 100,
                                 "estimated from the runs" if max(len(a_recs), len(b_recs)) > 1
                                 else "assumed (--run-noise)", ALPHA, len(rows)))
        out.write("%-16s %-10s %-5s %-24s %-13s %-22s %-22s %7s  %s\n" % (
            "api", "mode", "size", "baseline -> candidate", "direction", "A ratio [95% CI]",
            "B ratio [95% CI]", "B/A", "verdict"))
    for k, ra, rb, change, p, flagged, resolves in rows:
        fmt = lambda c: "%.3fx [%.3f, %.3f]%s" % (c[0]["ratio_x1000"] / 1000.0,
                                                  c[0]["ci_lo_x1000"] / 1000.0,
                                                  c[0]["ci_hi_x1000"] / 1000.0,
                                                  " +%d" % (len(c) - 1) if len(c) > 1 else "")
        if p is None:
            verdict = "not tested (no interval)"
        elif flagged:
            verdict = "CHANGED: %s (p=%.2g)" % ("faster" if change > 1 else "slower", p)
        else:
            verdict = "no change (p=%.2g; resolves +-%.1f%%)" % (p, resolves * 100)
        what = "%s -> %s" % (k[3], k[4])
        if k[7]:
            what += " (%s)" % k[7]
        out.write("%-16s %-10s %-5s %-24s %-13s %-22s %-22s %6.3fx  %s\n" % (
            k[0], k[1], size_name(k[2]), what, "%s->%s" % (k[5], k[6]), fmt(ra), fmt(rb),
            change or 0.0, verdict))
        n += 1
    overall(rows, out)
    key = lambda r: (r["api"], r["primitive"], r["size"], r["mode"], r.get("src_node", "node0"),
                     r.get("dst_node", "node0"), r.get("src_pattern", ""))
    a = {key(r): r for r in a_recs[0] if r.get("kind") == "result"}
    b = {key(r): r for r in b_recs[0] if r.get("kind") == "result"}
    common = sorted(set(a) & set(b), key=lambda k: tuple(str(x) for x in k))
    if common:
        out.write("%sresults (first run of each side): absolute throughput, listed, not tested "
                  "(it moves with the machine's load; the comparisons above are paired)\n" %
                  ("\n" if rows else ""))
        out.write("%-18s %-20s %-7s %-11s %9s %9s %7s\n" % (
            "api", "primitive", "size", "mode", "A GB/s", "B GB/s", "B/A"))
    for k in common:
        ra, rb = a[k], b[k]
        ratio = rb["median_mbps"] / ra["median_mbps"] if ra["median_mbps"] else 0.0
        out.write("%-18s %-20s %-7s %-11s %9.2f %9.2f %6.2fx\n" % (
            k[0], k[1], size_name(k[2]), k[3], gbps(ra["median_mbps"]),
            gbps(rb["median_mbps"]), ratio))
        n += 1
    return n


def plot(recs, outdir):
    try:
        os.makedirs(outdir, exist_ok=True)
    except OSError as e:
        raise BadInput(outdir, "cannot make the plot directory: %s" %
                       ("a file of that name exists" if isinstance(e, FileExistsError)
                        else os_problem(e)))
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("ck-report: plots need matplotlib (Debian: python3-matplotlib, run with "
              "/usr/bin/python3)", file=sys.stderr)
        return 0
    machine = next((r for r in recs if r.get("kind") == "machine"), {})
    label = "%s; cold: %s; %s rounds%s" % (
        machine.get("machine", "machine unknown"), machine.get("cold_method", "?"),
        machine.get("rounds", machine.get("runs", "?")),
        "; EMULATED (under a hypervisor)" if machine.get("hypervisor") else "")
    series = defaultdict(list)
    for r in recs:
        if r.get("kind") != "result":
            continue
        med = gbps(r["median_mbps"])
        lo = hi = med
        if r.get("q1_ns") and r.get("q3_ns") and r.get("median_ns"):
            lo = med * r["median_ns"] / r["q3_ns"]      # slower quartile: lower bandwidth
            hi = med * r["median_ns"] / r["q1_ns"]
        dirn = "%s->%s" % (r.get("src_node", "node0"), r.get("dst_node", "node0"))
        api = r["api"]
        if api == "primitive":          # copies and clears apart: one figure each
            api = "clear primitives" if r["primitive"].startswith("clear") else "copy primitives"
        series[(api, r["mode"], r["primitive"], dirn)].append((r["size"], med, lo, hi))
    ratios = defaultdict(list)
    for c in recs:
        if c.get("kind") == "comparison":
            ratios[(c["api"], c["mode"], "%s / %s" % (c["candidate"], c["baseline"]),
                    "%s->%s" % (c.get("src_node", "node0"), c.get("dst_node", "node0")))].append(
                (c["size"], c["ratio_x1000"] / 1000.0, c["ci_lo_x1000"] / 1000.0,
                 c["ci_hi_x1000"] / 1000.0))
    apis = sorted({k[0] for k in series} | {k[0] for k in ratios})
    made = 0
    for api in apis:
        modes = sorted({k[1] for k in series if k[0] == api} |
                       {k[1] for k in ratios if k[0] == api})
        has_ratio = any(k[0] == api for k in ratios)
        fig, axes = plt.subplots(2 if has_ratio else 1, len(modes), squeeze=False,
                                 figsize=(6 * len(modes), 8 if has_ratio else 5))
        for col, mode in enumerate(modes):
            ax = axes[0][col]
            for key in sorted(k for k in series if k[0] == api and k[1] == mode):
                pts = sorted(series[key])
                ax.errorbar([p[0] for p in pts], [p[1] for p in pts],
                            yerr=[[p[1] - p[2] for p in pts], [p[3] - p[1] for p in pts]],
                            marker="o", capsize=3, label="%s %s" % (key[2], key[3]))
            ax.set_title("%s, %s (error bars: quartiles)" % (api, mode), fontsize=9)
            ax.set_ylabel("GB/s (median)")
            ax.set_ylim(bottom=0)
            size_axis(ax, [p[0] for k in series if k[0] == api for p in series[k]])
            ax.grid(True, alpha=0.3)
            ax.legend(fontsize=6)
            if has_ratio:
                ax = axes[1][col]
                for key in sorted(k for k in ratios if k[0] == api and k[1] == mode):
                    pts = sorted(ratios[key])
                    ax.errorbar([p[0] for p in pts], [p[1] for p in pts],
                                yerr=[[p[1] - p[2] for p in pts], [p[3] - p[1] for p in pts]],
                                marker="s", capsize=3, label="%s %s" % (key[2], key[3]))
                ax.axhline(1.0, color="grey", linewidth=0.8)
                ax.set_ylabel("speed ratio, 95% CI")
                ax.set_ylim(bottom=0)
                size_axis(ax, [p[0] for k in ratios if k[0] == api for p in ratios[k]])
                ax.grid(True, alpha=0.3)
                ax.legend(fontsize=6)
        fig.suptitle(label, fontsize=8)
        fig.tight_layout()
        base = os.path.join(outdir, re.sub(r"[^A-Za-z0-9_.+-]", "_", api).lstrip("."))
        fig.savefig(base + ".png", dpi=100)
        fig.savefig(base + ".svg")
        plt.close(fig)
        made += 1
    print("ck-report: %d plots in %s" % (made, outdir), file=sys.stderr)
    return made


def size_axis(ax, sizes):
    """A log2 size axis labelled 4K, 2M, 1G at the sizes measured."""
    ticks = sorted(set(s for s in sizes if s > 0))
    ax.set_xscale("log", base=2)
    if ticks:
        ax.set_xticks(ticks)
        ax.set_xticklabels([size_name(t) for t in ticks], fontsize=7)
        ax.minorticks_off()
    ax.set_xlabel("size")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0], epilog=EPILOG,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input", nargs="?", help="serial log or JSON-lines file")
    ap.add_argument("--compare", nargs=2, metavar=("A", "B"),
                    help="A and B: a run each, or several runs of one build, comma-separated")
    ap.add_argument("--run-noise", type=float, default=RUN_NOISE * 100, metavar="PCT",
                    help="run-to-run noise of a ratio when a side has one run (default "
                         "%(default).1f%%)")
    ap.add_argument("--plot", metavar="DIR")
    args = ap.parse_args(argv)
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="backslashreplace")
    try:
        if args.compare:
            a, b = args.compare
            a_recs, b_recs = [], []
            for names, into in ((a, a_recs), (b, b_recs)):
                for name in names.split(","):
                    main.source = name
                    into.append(records(name))
            main.source = "%s, %s" % (a, b)
            n = compare(a_recs, b_recs, sys.stdout, args.run_noise / 100)
            if not n:
                print("ck-report: %s, %s: no benchmark result measured in both (%d and %d "
                      "results)" % (a, b, sum(r["kind"] == "result" for r in a_recs[0]),
                                    sum(r["kind"] == "result" for r in b_recs[0])),
                      file=sys.stderr)
                return EXIT_NO_RESULT
            return EXIT_OK
        if not args.input:
            ap.error("give a log or JSON-lines file, or --compare A B")
        main.source = args.input
        recs = records(args.input)
        n = seed_tables(recs, sys.stdout)
        if args.plot:
            main.source = args.plot
            plot(recs, args.plot)
    except BadInput as e:
        sys.stdout.flush()
        print(e.line(), file=sys.stderr)
        return EXIT_BAD_INPUT
    if not n:
        print("ck-report: %s: no benchmark results (%d records, none of a kind the tables "
              "use)" % (args.input, len(recs)), file=sys.stderr)
        return EXIT_NO_RESULT
    return EXIT_OK


main.source = "-"


def run_main():
    """main() with every failure as one line on stderr: no traceback, whatever happens."""
    try:
        return main()
    except BrokenPipeError:             # the reader (head, less) went away: not an error
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK
    except Exception as e:              # a case this tool does not know: still one line
        if os.environ.get("CK_TRACEBACK"):
            raise
        print("%s: %s: unexpected %s: %s (a bug in %s; CK_TRACEBACK=1 shows where)" % (
            TOOL, main.source, type(e).__name__, e, TOOL), file=sys.stderr)
        return EXIT_BAD_INPUT


if __name__ == "__main__":
    sys.exit(run_main())
