#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""ck-report.py - turn copykernel benchmark output into the seeds' tables, comparisons and plots.

Input: a serial log of the image (make run CMDLINE='bench=rfc'), or the JSON-lines file of the
hosted build (build/bench.jsonl); any line holding a JSON object that starts with "schema" is
a record, every other line (console text, KTAP) is ignored. A record line that is cut off, is
not UTF-8 or not JSON, or lacks a field its kind needs makes the whole input bad (status 3):
a damaged file is not reported as if it were complete.

    ck-report.py LOG                      seed-style tables (baseline vs optimized, speedup)
    ck-report.py --compare A B            B against A per case, and whether the difference
                                          exceeds the noise (interquartile range of either run)
    ck-report.py LOG --plot DIR           bandwidth against size per primitive, PNG and SVG
                                          (needs Debian's python3-matplotlib)
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


def noise(r):
    """Relative interquartile range of a run's durations (1, all noise, when unknown)."""
    if not r.get("median_ns") or "q1_ns" not in r or "q3_ns" not in r:
        return 1.0
    return (r["q3_ns"] - r["q1_ns"]) / r["median_ns"]


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
        base = os.path.join(outdir, re.sub(r"[^A-Za-z0-9_.+-]", "_", "%s-%s" % (api, mode))
                            .lstrip("."))
        fig.savefig(base + ".png", dpi=100)
        fig.savefig(base + ".svg")
        plt.close(fig)
        made += 1
    print("ck-report: %d plots in %s" % (made, outdir), file=sys.stderr)
    return made


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0], epilog=EPILOG,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input", nargs="?", help="serial log or JSON-lines file")
    ap.add_argument("--compare", nargs=2, metavar=("A", "B"))
    ap.add_argument("--plot", metavar="DIR")
    args = ap.parse_args(argv)
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="backslashreplace")
    try:
        if args.compare:
            a, b = args.compare
            main.source = a
            a_recs = records(a)
            main.source = b
            b_recs = records(b)
            main.source = "%s, %s" % (a, b)
            n = compare(a_recs, b_recs, sys.stdout)
            if not n:
                print("ck-report: %s, %s: no benchmark result measured in both (%d and %d "
                      "results)" % (a, b, sum(r["kind"] == "result" for r in a_recs),
                                    sum(r["kind"] == "result" for r in b_recs)),
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
