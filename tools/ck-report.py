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
                                          (Benjamini-Hochberg over all cases); absolute GB/s are
                                          listed beside, not tested (they move with load)
    ck-report.py LOG --plot DIR           per API and mode: bandwidth against size with
                                          error bars, and the ratios with their intervals;
                                          PNG and SVG (needs Debian's python3-matplotlib)
    ck-report.py --fleet DIR [--json] [--plot PDIR]
                                          one row per machine (DIR/MACHINE/ or MACHINE.json,
                                          .log, .jsonl: ck-results.py summaries, serial or
                                          lava-run logs, hosted JSON lines); flags outliers
                                          (median and MAD per CPU model), stale machine-check
                                          errors and failed cases
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
     in both A and B; --fleet: no machine's files in DIR)
  2  usage error (bad options, no input given)
  3  bad input: a file is missing, unreadable or a directory; a record line is cut off, not
     UTF-8, not JSON, of another schema, or lacks a field (or has one of the wrong type);
     the --plot directory cannot be made; with --fleet, any file of a machine damaged
     (a summary that is not ck-results.py's JSON, a lava-run line that is not JSON)
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
    "perf-twin": {"primitive": STR, "perf_function": STR, "size": SIZE, "buffers": STR,
                  "twin_gibps": NUM, "perf_gibps": NUM, "ratio_x1000": NUM,
                  "ci_lo_x1000": NUM, "ci_hi_x1000": NUM, "significant": BOOL},
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
    return parse_records(data, path)


def parse_records(data, path):
    """The records among the lines of @data (bytes), checked; @path names it in errors."""
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
    twin = [r for r in recs if r.get("kind") == "perf-twin"]
    if twin:
        out.write("\n%-17s %-16s %-5s %-9s %10s %10s  %s\n" % (
            "ours (perf twin)", "perf -f", "size", "buffers", "twin GiB/s", "perf GiB/s",
            "twin/perf [95% CI]"))
        for r in twin:
            out.write("%-17s %-16s %-5s %-9s %10.2f %10.2f  %.2fx [%.2f, %.2f]%s\n" % (
                r["primitive"], r["perf_function"], size_name(r["size"]), r["buffers"],
                r["twin_gibps"], r["perf_gibps"], r["ratio_x1000"] / 1000.0,
                r["ci_lo_x1000"] / 1000.0, r["ci_hi_x1000"] / 1000.0,
                "" if r["significant"] else " n.s."))
    return len(comps) + len(prims) + len(perf) + len(twin)


# Benjamini-Hochberg at 5%: of the cases flagged, at most 5% are expected to be false; when
# nothing changed (an A/A run) that is a 5% chance of flagging anything, as with Holm.
ALPHA = 0.05
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


def bh(pvalues, alpha=ALPHA):
    """
    Which of @pvalues the Benjamini-Hochberg step-up procedure rejects at false discovery
    rate @alpha: the k smallest, for the largest k whose p-value is at most alpha * k / m.
    When every case is unchanged it flags anything with chance at most @alpha (as Holm);
    when many changed it finds far more of them than a family-wise correction does.
    """
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    k = 0
    for rank, i in enumerate(order):
        if pvalues[i] <= alpha * (rank + 1) / m:
            k = rank + 1
    reject = [False] * m
    for i in order[:k]:
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
    for r, rej in zip(tested, bh([r[4] for r in tested])):
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
                  "%s); a change is flagged when significant at a %g false discovery rate "
                  "(Benjamini-Hochberg, %d cases)\n" % (len(a_recs), len(b_recs), between * 100,
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


def plot_setup(outdir):
    """Make @outdir and load matplotlib's file backend: pyplot, or None (said) without it."""
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
        return None
    return plt


def plot(recs, outdir):
    plt = plot_setup(outdir)
    if plt is None:
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


# ---- the fleet report (issue 13) -------------------------------------------------------------
#
# DIR holds one entry per machine: a subdirectory named after it, or files named
# MACHINE.json (ck-results.py's summary), MACHINE.log (a serial log or lava-run's output) and
# MACHINE.jsonl (the hosted build's JSON lines). Every file of a machine adds what it holds.

FLEET_Z = 3.5           # robust z-score (0.6745 (x - median) / MAD) beyond which a figure is off
FLEET_FACTOR = 2.0      # ... and only when it is also more than this factor off the median:
                        # runs under TCG on a loaded host scattered by up to 1.7x (tests/data/fleet)
KEY_FIGURES = ("quick/memcpy_erms", "quick/memcpy_orig", "quick/copy_page_rep",
               "quick/copy_mc_fragile", "quick/clear_pages_erms")
RE_CPU = re.compile(r"^CPU: (\S+) family (0x[0-9a-f]+) model (0x[0-9a-f]+) stepping (\d+)")
RE_UCODE = re.compile(r"^CPU: microcode revision (0x[0-9a-f]+)")
RE_STALE = re.compile(r"^MCE: .*?(\d+) stale banks? cleared")
RE_DISPATCH = re.compile(r"^dispatch: (copy_highpage|copy_mc_highpage|clear_highpage)\(s\)\s+"
                         r"(\w+): (.+?)\s{2,}(\w+): (.+?)\s{2,}")
RE_VERDICT = re.compile(r"^\s*# mce-verdict: copy_mc_to_kernel here is .*?: (.*)$")
RE_MCA = re.compile(r"^\s*# mce-verdict: (MCA .*)$")
RE_FAILED = re.compile(r"^( {4,})not ok \d+ ([^#]*?)\s*(?:#.*)?$")
RE_SUBTEST = re.compile(r"^( *)# Subtest: (.+?)\s*$")
RE_SUMMARY = re.compile(r"^# copykernel-summary: result=(\S+)")


class Machine:
    def __init__(self, name):
        self.name = name
        self.sources = []
        self.vendor = self.family = self.model = self.stepping = self.ucode = None
        self.dispatch = {}
        self.mca = None
        self.verdict = None
        self.stale = 0
        self.failed = []
        self.result = None
        self.figures = {}
        self.flags = []
        self.hosted = False

    def cpu_key(self):
        """The CPU model peers are grouped by (a hosted run is its own group: figures of a
        Linux process and of the image are not comparable)."""
        if self.vendor is None:
            return "unknown"
        key = self.vendor
        if self.family is not None and self.model is not None:
            key += " %#x/%#x" % (self.family, self.model)
        return key + (" (hosted)" if self.hosted else "")


def fleet_serial(m, lines, path):
    suites = {}
    for raw in lines:
        line = raw.rstrip("\r\n").lstrip("\x1b")
        if (mt := RE_CPU.match(line)):
            m.vendor, m.family, m.model = mt.group(1), int(mt.group(2), 16), int(mt.group(3), 16)
            m.stepping = int(mt.group(4))
        elif (mt := RE_UCODE.match(line)):
            m.ucode = int(mt.group(1), 16)
        elif (mt := RE_STALE.match(line)):
            m.stale = int(mt.group(1))
        elif (mt := RE_DISPATCH.match(line)):
            m.dispatch.setdefault(mt.group(2), mt.group(3))
            m.dispatch.setdefault("bulk " + mt.group(4), mt.group(5))
        elif (mt := RE_VERDICT.match(line)):
            m.verdict = mt.group(1)
        elif (mt := RE_MCA.match(line)) and m.mca is None:
            m.mca = mt.group(1)
        elif (mt := RE_SUBTEST.match(line)):
            suites[len(mt.group(1))] = mt.group(2)
        elif (mt := RE_FAILED.match(line)):
            outer = suites.get(len(mt.group(1)) - 4)
            case = "%s.%s" % (suites.get(len(mt.group(1)), "?"), mt.group(2))
            m.failed.append("%s.%s" % (outer, case) if outer else case)
        elif (mt := RE_SUMMARY.match(line)):
            m.result = mt.group(1)
    for r in records_of_lines(lines, path):
        fleet_record(m, r)


def records_of_lines(lines, path):
    """parse_records() over lines already read (a lava-run log's serial lines)."""
    return parse_records("\n".join(lines).encode("utf-8"), path)


def fleet_record(m, r):
    kind = r.get("kind")
    if kind == "quick" and isinstance(r.get("primitive"), str) and \
            fits(r.get("mb_per_s"), NUM):
        m.figures["quick/" + r["primitive"]] = r["mb_per_s"]
    elif kind == "result":
        key = "%s/%s/%s/%s" % (r["api"], r["primitive"], size_name(r["size"]), r["mode"])
        m.figures[key] = r["median_mbps"]
    elif kind == "machine":
        # The image: "machine" is the vendor, with family, model and microcode as numbers;
        # the hosted build: "hosted VENDOR family 0x19 model 0x1", microcode a hex string.
        name = r.get("machine") if isinstance(r.get("machine"), str) else ""
        mt = re.match(r"^(?:hosted )?(\S+) family (0x[0-9a-f]+) model (0x[0-9a-f]+)", name)
        if mt and m.vendor is None:
            m.vendor, m.family, m.model = mt.group(1), int(mt.group(2), 16), int(mt.group(3), 16)
            m.hosted = name.startswith("hosted ")
        elif name and m.vendor is None:
            m.vendor = name
        for k, attr in (("family", "family"), ("model", "model"), ("microcode", "ucode")):
            v = r.get(k)
            if isinstance(v, str) and re.match(r"^0x[0-9a-f]+$", v):
                v = int(v, 16)
            if isinstance(v, int) and not isinstance(v, bool) and getattr(m, attr) is None:
                setattr(m, attr, v)


def fleet_summary(m, obj, path):
    """ck-results.py's JSON summary."""
    if not isinstance(obj, dict) or obj.get("schema") != 1 or "status" not in obj:
        raise BadInput(path, "not a ck-results.py summary (schema 1 with a status)")
    cpu = obj.get("cpu") if isinstance(obj.get("cpu"), dict) else {}
    for k, attr, want in (("vendor", "vendor", STR), ("family", "family", SIZE),
                          ("model", "model", SIZE), ("stepping", "stepping", SIZE),
                          ("microcode", "ucode", SIZE)):
        if cpu.get(k) is None:
            continue
        if not fits(cpu[k], want):
            raise BadInput(path, "summary: cpu \"%s\" is %s, want %s" % (
                k, json_type(cpu[k]), want))
        setattr(m, attr, cpu[k])
    if isinstance(obj.get("dispatch"), dict):
        m.dispatch = {k: str(v) for k, v in obj["dispatch"].items()}
    mce = obj.get("mce") if isinstance(obj.get("mce"), dict) else {}
    if m.mca is None and "enabled" in mce:
        m.mca = "MCA %s, %s banks" % ("enabled" if mce["enabled"] else "off",
                                      mce.get("banks", "?"))
    tests = obj.get("tests") if isinstance(obj.get("tests"), dict) else {}
    if tests.get("fail") and not m.failed:
        m.failed.append("%s failed case(s) (summary JSON)" % tests["fail"])
    if m.result is None:
        m.result = "PASS" if obj["status"] == 0 else str(obj.get("status_name", obj["status"]))


def fleet_machine(name, files):
    m = Machine(name)
    for path in sorted(files):
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as e:
            raise BadInput(path, "cannot read: %s" % os_problem(e))
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise BadInput(path, "not UTF-8 (byte %#04x at offset %d)" % (data[e.start],
                                                                          e.start))
        m.sources.append(os.path.basename(path))
        if path.endswith(".json"):
            try:
                obj = json.loads(text, parse_constant=reject_constant)
            except ValueError as e:
                raise BadInput(path, "not JSON: %s" % e)
            fleet_summary(m, obj, path)
        elif path.endswith(".jsonl"):
            for r in records(path):
                fleet_record(m, r)
        else:
            lines = text.splitlines()
            if lines and lines[0].startswith('{"dt"'):
                serial = []
                for n, line in enumerate(lines, 1):
                    mt = re.match(r'^\{"dt": "[^"]*", "lvl": "target", "msg": (".*")\}$', line)
                    if mt:
                        try:
                            # lava-run writes a serial line's '"' as '\"' inside the string
                            serial.append(json.loads(mt.group(1)).replace('\\"', '"'))
                        except ValueError:
                            raise BadInput(path, "lava-run line is not JSON", "line %d" % n)
                    elif '"lvl": "results"' in line and '"definition": "copykernel' in line \
                            and '"result": "fail"' in line:
                        mt = re.search(r'"test_case_id": "([^"]+)"', line)
                        if mt:
                            m.failed.append("LAVA " + mt.group(1))
                fleet_serial(m, serial, path)
            else:
                fleet_serial(m, lines, path)
    return m


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def fleet_flag(machines):
    """Outliers per CPU model and figure (median and MAD of the peers), stale machine-check
    errors and failed cases; each machine gets its flags."""
    groups = defaultdict(list)
    for m in machines:
        groups[m.cpu_key()].append(m)
    for key, peers in groups.items():
        names = sorted({f for m in peers for f in m.figures})
        for fig in names:
            vals = [(m, m.figures[fig]) for m in peers if fig in m.figures]
            if len(vals) < 3:
                continue
            med = median([v for _, v in vals])
            mad = median([abs(v - med) for _, v in vals])
            for m, v in vals:
                if v > 0 and med > 0:
                    factor = max(v / med, med / v)
                else:
                    factor = 1 if v == med else math.inf
                z = 0.6745 * abs(v - med) / mad if mad else (0 if v == med else math.inf)
                if z > FLEET_Z and factor > FLEET_FACTOR:
                    m.flags.append("outlier %s: %s MB/s, peers' median %s (%+.0f%%, robust z %s)"
                                   % (fig, v, med, 100 * (v - med) / med if med else 0,
                                      "inf" if z == math.inf else "%.1f" % z))
    for m in machines:
        if m.stale:
            m.flags.append("stale machine-check errors: %d bank(s) held errors at boot" %
                           m.stale)
        if m.failed:
            m.flags.append("failed: " + ", ".join(m.failed[:5]) +
                           (" and %d more" % (len(m.failed) - 5) if len(m.failed) > 5 else ""))
        elif m.result not in (None, "PASS"):
            m.flags.append("run result %s" % m.result)


def fleet_dir(path):
    try:
        entries = sorted(os.listdir(path))
    except OSError as e:
        raise BadInput(path, "cannot read the fleet directory: %s" % os_problem(e))
    per = defaultdict(list)
    for e in entries:
        full = os.path.join(path, e)
        if e.startswith("."):
            continue
        if os.path.isdir(full):
            for f in sorted(os.listdir(full)):
                if f.endswith((".json", ".jsonl", ".log")):
                    per[e].append(os.path.join(full, f))
        elif e.endswith((".json", ".jsonl", ".log")):
            per[e.rsplit(".", 1)[0]].append(full)
    machines = [fleet_machine(name, files) for name, files in sorted(per.items())]
    fleet_flag(machines)
    return machines


def fleet_table(machines, out):
    cols = [f for f in KEY_FIGURES if any(f in m.figures for m in machines)]
    head = ["machine", "CPU", "microcode", "dispatch", "MCA verdict"] + \
        [c.split("/", 1)[1] for c in cols] + ["flags"]
    rows = []
    for m in machines:
        d = m.dispatch
        disp = " ".join("%s=%s" % (k, d[k]) for k in ("copy_page", "memcpy", "copy_mc",
                                                       "clear_page") if k in d) or "-"
        verdict = "; ".join(x for x in (m.mca, m.verdict) if x) or "-"
        flags = "; ".join(m.flags) or "-"
        rows.append([m.name, m.cpu_key(), "-" if m.ucode is None else "%#x" % m.ucode, disp,
                     verdict] + [str(m.figures.get(c, "-")) for c in cols] + [flags])
    widths = [max(len(r[i]) for r in rows + [head]) for i in range(len(head) - 1)]
    for r in [head] + rows:
        out.write("  ".join(c.ljust(w) for c, w in zip(r, widths)) + "  " + r[-1] + "\n")
    out.write("figures: MB/s (quick: 1 MiB cache-warm median of 5); outliers: robust z > %.1f "
              "and more than %gx off the median of the same CPU model (3 or more machines)\n"
              % (FLEET_Z, FLEET_FACTOR))


def fleet_json(machines):
    return {"schema": 1, "kind": "fleet", "z_threshold": FLEET_Z, "factor_threshold": FLEET_FACTOR,
            "machines": [{"machine": m.name, "sources": m.sources, "cpu": m.cpu_key(),
                          "vendor": m.vendor, "family": m.family, "model": m.model,
                          "stepping": m.stepping, "microcode": m.ucode,
                          "dispatch": m.dispatch, "mca": m.mca, "mca_verdict": m.verdict,
                          "stale_mce_banks": m.stale, "failed": m.failed, "result": m.result,
                          "figures": m.figures, "flags": m.flags} for m in machines]}


def fleet_plot(machines, outdir):
    """One strip per key figure: each machine a dot by CPU model, flagged ones in red."""
    plt = plot_setup(outdir)
    if plt is None:
        return 0
    cols = [f for f in KEY_FIGURES if any(f in m.figures for m in machines)]
    if not cols:
        return 0
    models = sorted({m.cpu_key() for m in machines})
    fig, axes = plt.subplots(1, len(cols), figsize=(3.2 * len(cols), 4.5), squeeze=False)
    for ax, col in zip(axes[0], cols):
        for i, key in enumerate(models):
            for m in machines:
                if m.cpu_key() != key or col not in m.figures:
                    continue
                bad = any(f.startswith("outlier " + col + ":") for f in m.flags)
                ax.scatter([i], [m.figures[col]], color="red" if bad else "tab:blue",
                           marker="x" if bad else "o")
                if bad:
                    ax.annotate(m.name, (i, m.figures[col]), fontsize=7)
        ax.set_xticks(range(len(models)))
        ax.set_xticklabels(models, rotation=30, ha="right", fontsize=7)
        ax.set_title(col, fontsize=9)
        ax.set_ylabel("MB/s")
        ax.grid(True, alpha=0.3)
    fig.tight_layout()
    base = os.path.join(outdir, "fleet")
    fig.savefig(base + ".png", dpi=100)
    fig.savefig(base + ".svg")
    plt.close(fig)
    print("ck-report: fleet plot in %s.png and .svg" % base, file=sys.stderr)
    return 1


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
    ap.add_argument("--fleet", metavar="DIR", help="one table over many machines' results")
    ap.add_argument("--json", action="store_true", help="with --fleet: JSON instead of the "
                    "table")
    args = ap.parse_args(argv)
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="backslashreplace")
    try:
        if args.fleet:
            if args.input or args.compare:
                ap.error("--fleet DIR takes no other input")
            main.source = args.fleet
            if not os.path.isdir(args.fleet):
                raise BadInput(args.fleet, "not a directory" if os.path.exists(args.fleet)
                               else "no such file or directory")
            machines = fleet_dir(args.fleet)
            if not machines:
                print("ck-report: %s: no machine's results (MACHINE/ or MACHINE.json, .log, "
                      ".jsonl)" % args.fleet, file=sys.stderr)
                return EXIT_NO_RESULT
            if args.json:
                json.dump(fleet_json(machines), sys.stdout, indent=1, sort_keys=True)
                sys.stdout.write("\n")
            else:
                fleet_table(machines, sys.stdout)
            if args.plot:
                main.source = args.plot
                fleet_plot(machines, args.plot)
            return EXIT_OK
        if args.json:
            ap.error("--json goes with --fleet")
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
