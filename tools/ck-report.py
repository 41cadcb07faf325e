#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""ck-report.py - turn copykernel benchmark output into the seeds' tables, comparisons and plots.

Input: a serial log of the image (make run CMDLINE='bench=rfc'), or the JSON-lines file of the
hosted build (build/bench.jsonl); any line holding a JSON object that starts with "schema" is
a record, every other line (console text, KTAP) is ignored. A record line that is cut off, is
not UTF-8 or not JSON, or lacks a field its kind needs makes the whole input bad (status 3):
a damaged file is not reported as if it were complete.

    ck-report.py LOG                      seed-style tables (baseline vs optimized, speedup);
                                          a run whose summary line says a verdict other
                                          than PASS (ERROR: its command line had errors)
                                          gets a first line saying so
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
                                          errors and failed cases; then a soak table (verdict,
                                          duration, passes, counts, worst bucket) from the
                                          soak_summary records, failed soaks flagged
    ck-report.py LOG --kcidb [--machine NAME] one KernelCI KCIDB I/O document (schema v5.3)
    ck-report.py --fleet DIR --kcidb          for a run or a fleet: a checkout, a build, a
                [--origin O] [--git-commit H] test per KTAP result, benchmark figures, the
                [--git-url URL]               machine-check verdict and the soak's ledger,
                                          each machine as its tests' environment
                                          (tools/cklib/kcidb.py says what maps to what)
"""
import argparse
import json
import os
import re
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cklib.common import (EXIT_BAD_INPUT, EXIT_NO_RESULT, EXIT_OK, BadInput,  # noqa: E402
                          bounded, run_main)
from cklib.compare import RUN_NOISE, compare  # noqa: E402
from cklib import seriallog  # noqa: E402
from cklib.fleet import fleet_dir, fleet_json, fleet_machine, fleet_table  # noqa: E402
from cklib.kcidb import COMMIT_RE, ORIGIN_RE, URL_RE, document  # noqa: E402
from cklib.plots import fleet_plot, plot  # noqa: E402
from cklib.records import (candidate_source, fixed, gbps_text, ratio_text,  # noqa: E402
                           records, size_name)

TOOL = "ck-report"
EPILOG = """exit status:
  0  tables (or the comparison, or the KCIDB document) on stdout
  1  no results: the input holds no record a table is made of (--compare: no case measured
     in both A and B; --fleet: no machine's files in DIR; --kcidb: no test for the document)
  2  usage error (bad options, a --run-noise outside 0..100, no input given, an --origin,
     --git-commit or --git-url KCIDB refuses)
  3  bad input: a file is missing, unreadable or a directory; a record line is cut off, not
     UTF-8, not JSON, of another schema, or lacks a field (or has one of the wrong type);
     the --plot directory cannot be made; with --fleet, any file of a machine damaged
     (a summary that is not ck-results.py's JSON, a lava-run line that is not JSON)
every failure is one line on stderr: "ck-report: FILE: what is wrong (where)"."""


def placed_text(c):
    """" P=6": the interval is the replication interval over 6 placements (" P=6+": held
    to the run's pooled width, wider than its own); " P=1 (rounds' CI)": the rounds' CI of
    one placement; "": a record from before placements."""
    if c.get("interval") == "replication" and isinstance(c.get("placements"), int):
        wider = isinstance(c.get("ci_hi_own_ppm"), int) and c.get("ci_hi_ppm", 0) > \
            c["ci_hi_own_ppm"]
        return " P=%d%s" % (c["placements"], "+" if wider else "")
    return " P=1 (rounds' CI)" if "placements" in c else ""


def sides_of(recs, i, results):
    """The baseline and candidate results of the comparison recs[i]: the two records just
    before it, which is where every writer puts them (a run holds several cases of one api,
    primitive, size and mode: the rfc and copy_pages presets' per-page loops, the patterns
    preset's one primitive on two sources), else looked up by those four."""
    c = recs[i]
    pair = recs[max(i - 2, 0):i]
    if len(pair) == 2 and all(r.get("kind") == "result" and r.get("api") == c["api"] and
                              r.get("size") == c["size"] and r.get("mode") == c["mode"]
                              for r in pair) and \
            [r.get("primitive") for r in pair] == [c["baseline"], c["candidate"]]:
        return pair
    return [results.get((c["api"], c[side], c["size"], c["mode"]))
            for side in ("baseline", "candidate")]


def source_text(c):
    """" (source zero)": the candidate read another source than the baseline."""
    cand = candidate_source(c)
    return " (source %s)" % cand if cand else ""


def seed_tables(recs, out):
    results = {}
    for r in recs:
        if r.get("kind") == "result":
            results[(r["api"], r["primitive"], r["size"], r["mode"])] = r
    groups = defaultdict(list)
    for i, c in enumerate(recs):
        if c.get("kind") == "comparison":
            key = (c["api"], c["mode"], c["baseline"], c["candidate"], source_text(c))
            groups[key].append((c, sides_of(recs, i, results)))
    for (api, mode, base, cand, source), rows in groups.items():
        out.write("fn=%s mode=%s (%s vs %s%s)\n" % (api, mode, base, cand, source))
        out.write("%-14s %-7s %-18s %-18s %s\n" % ("direction", "folio", "baseline GB/s",
                                                    "optimized GB/s", "speedup [95% CI]"))
        for c, (a, b) in sorted(rows, key=lambda row: row[0]["size"]):
            fmt = lambda r: ("%s +- %s" % (gbps_text(r["median_mbps"]),
                                           gbps_text(r["stddev_mbps"])) if r else "?")
            out.write("%-14s %-7s %-18s %-18s %s%s\n" % (
                "%s->%s" % ((a or {}).get("src_node", "node0"), (a or {}).get("dst_node",
                                                                               "node0")),
                size_name(c["size"]), fmt(a), fmt(b), ratio_text(c),
                ("" if c["significant"] else " n.s.") + placed_text(c)))
        out.write("\n")
    prims = [r for r in recs if r.get("kind") == "result" and r["api"] == "primitive"]
    if prims:
        out.write("%-22s %-7s %-11s %-11s %s\n" % ("primitive", "size", "mode", "GB/s",
                                                  "cycles/byte"))
        for r in sorted(prims, key=lambda r: (r["primitive"], r["mode"], r["size"])):
            out.write("%-22s %-7s %-11s %-11s %s\n" % (
                r["primitive"], size_name(r["size"]), r["mode"], gbps_text(r["median_mbps"]),
                fixed(r["cycles_per_byte_x1000"], 1000, 3)))
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
            out.write("%-17s %-16s %-5s %-9s %10.2f %10.2f  %s%s\n" % (
                r["primitive"], r["perf_function"], size_name(r["size"]), r["buffers"],
                r["twin_gibps"], r["perf_gibps"], ratio_text(r),
                "" if r["significant"] else " n.s."))
    return sum(len(rows) for rows in groups.values()) + len(prims) + len(perf) + len(twin)


def verdict_note(path):
    """The first line of a run's tables when its summary line (cklib.seriallog) says it did
    not pass, or None (a clean run, or no summary line: JSON lines)."""
    with open(path, "rb") as f:
        summary = seriallog.read(f.read().decode("utf-8", "replace").split("\n")).last(
            "summary")
    if summary is None or seriallog.passed(summary.result):
        return None
    fields = summary.fields
    note = "run verdict: %s%s" % (fields["result"], " reason=" + fields["reason"]
                                  if "reason" in fields else "")
    n = int(fields["cmdline_errors"]) if fields.get("cmdline_errors", "").isdigit() else 0
    if n:
        note += ", %d command-line error%s: the figures are of the run as it ran, not of the " \
                "one that was asked for" % (n, "" if n == 1 else "s")
    return note


def matching(rx, what):
    def parse(text):
        if not rx.match(text):
            raise argparse.ArgumentTypeError("%r is not %s" % (text, what))
        return text
    parse.__name__ = what
    return parse


def kcidb_out(machines, args, source):
    doc = document(machines, args.origin, args.git_commit, args.git_url)
    if not doc["tests"]:
        print("ck-report: %s: no test for KCIDB (no KTAP result, figure, verdict or soak)"
              % source, file=sys.stderr)
        return EXIT_NO_RESULT
    json.dump(doc, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
    return EXIT_OK


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0], epilog=EPILOG,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input", nargs="?", help="serial log or JSON-lines file")
    ap.add_argument("--compare", nargs=2, metavar=("A", "B"),
                    help="A and B: a run each, or several runs of one build, comma-separated")
    ap.add_argument("--run-noise", type=bounded(float, 0, 100, "a percentage"),
                    default=RUN_NOISE * 100, metavar="PCT",
                    help="run-to-run noise of a ratio when a side has one run (default "
                         "%(default).1f%%)")
    ap.add_argument("--plot", metavar="DIR")
    ap.add_argument("--fleet", metavar="DIR", help="one table over many machines' results")
    ap.add_argument("--json", action="store_true", help="with --fleet: JSON instead of the "
                    "table")
    ap.add_argument("--kcidb", action="store_true",
                    help="a KernelCI KCIDB I/O document (v5.3) of the run or the fleet")
    ap.add_argument("--origin", default="copykernel", help="with --kcidb: the KCIDB origin "
                    "(lower-case letters, digits, _; default %(default)s)",
                    type=matching(ORIGIN_RE, "a KCIDB origin ([a-z0-9_]+)"))
    ap.add_argument("--git-commit", metavar="HASH", type=matching(COMMIT_RE, "a full commit "
                    "hash (40 hex digits)"), help="with --kcidb: the commit the image was "
                    "built from (the checkout's id); else the version the image printed")
    ap.add_argument("--git-url", metavar="URL", type=matching(URL_RE, "an https:// URL"),
                    help="with --kcidb: the repository the commit is in")
    ap.add_argument("--machine", metavar="NAME", help="with --kcidb and a LOG: the machine's "
                    "name (default: the file's name without its extension)")
    args = ap.parse_args(argv)
    if not args.kcidb and (args.git_commit or args.git_url or args.machine or
                           args.origin != "copykernel"):
        ap.error("--origin, --git-commit, --git-url and --machine go with --kcidb")
    if args.kcidb and (args.compare or args.plot or args.json):
        ap.error("--kcidb takes a LOG or --fleet DIR, without --compare, --plot or --json")
    if args.machine and (args.fleet or not args.machine.strip()):
        ap.error("--machine names the machine of one LOG (a fleet's are its entries' names)")
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
            if args.kcidb:
                return kcidb_out(machines, args, args.fleet)
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
        if args.kcidb:
            if os.path.isdir(args.input):
                raise BadInput(args.input, "is a directory (a fleet: --fleet DIR)")
            name = args.machine or re.sub(r"\.(log|jsonl|json)$", "",
                                          os.path.basename(args.input))
            return kcidb_out([fleet_machine(name, [args.input])], args, args.input)
        recs = records(args.input)
        note = verdict_note(args.input)
        if note:
            sys.stdout.write(note + "\n")
        n = seed_tables(recs, sys.stdout)
        if args.plot:
            main.source = args.plot
            plot(recs, args.plot)
    except BadInput as e:
        sys.stdout.flush()
        print(e.line(TOOL), file=sys.stderr)
        return EXIT_BAD_INPUT
    if not n:
        print("ck-report: %s: no benchmark results (%d records, none of a kind the tables "
              "use)%s" % (args.input, len(recs), "; " + note if note else ""), file=sys.stderr)
        return EXIT_NO_RESULT
    return EXIT_OK


main.source = "-"


if __name__ == "__main__":
    sys.exit(run_main(TOOL, main))
