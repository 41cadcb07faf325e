#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""bench-coverage.py - do the benchmark's intervals cover the run-to-run change they claim
to? (issue 20 item 0.4: two consecutive `make bench` runs gave folio_mc_copy 2M hot 1.219x
[1.217, 1.224], then 1.144x [1.116, 1.168].)

It runs N fresh hosted benchmark processes one after another (build/ck-bench with the
arguments after `--`, default `--preset rfc`; each its own process, mmap and placement), or
reads the JSON lines of runs made already (--from FILE ...), and for every comparison row
(api, size, mode, baseline, candidate, direction) present in at least two runs asks, for
every ordered pair of runs i != j: does run i's point estimate lie inside run j's interval?
A row's coverage is the share of pairs where it does; a row whose coverage is below --rate
(0.95) is marked LOW. Only rows of --size (2M; "all": every size) are judged.

The interval judged is the record's own (ci_lo/ci_hi): since issue 20 item 0.4 the
replication interval over the run's placements ("interval": "replication", "placements":
P), which claims exactly this, or with one placement the rounds' 95% CI. Beside it, from the
same runs, the coverage of the rounds' own CI (ci_lo_round/ci_hi_round; a record without
them: its ci_lo/ci_hi), which is not built to hold another run's estimate 95% of the time,
even with no run-to-run change at all (the other estimate has its own spread).

Exit status: 0 every judged row covers at the rate; 1 no row was in two runs; 2 usage; 3 a
damaged input or a benchmark run that failed; 4 some row covers less than the rate.

  tools/bench-coverage.py --runs 10 -- --preset rfc          (the quiet-machine acceptance)
  tools/bench-coverage.py --from tests/data/bench-aa/*.jsonl  (runs made already)
"""
import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cklib import common  # noqa: E402
from cklib.records import records, size_name  # noqa: E402

TOOL = "bench-coverage"
EXIT_LOW = 4
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def row_key(c):
    """A comparison row; the candidate's source data where it differs (the patterns preset
    compares a zero and a constant source with a random one, the same primitives)."""
    cand_data = c.get("candidate_src_pattern", "")
    return (c["api"], c["size"], c["mode"], c["baseline"], c["candidate"],
            c.get("src_node", "node0"), c.get("dst_node", "node0"),
            cand_data if cand_data != c.get("src_pattern", cand_data) else "")


def bounds(c, lo, hi):
    """(point, lo, hi) as floats from keys @lo/@hi: parts per million when there are."""
    ppm = ("ratio_ppm", lo + "_ppm", hi + "_ppm")
    if all(isinstance(c.get(k), int) for k in ppm):
        return tuple(c[k] / 1e6 for k in ppm)
    return c["ratio_x1000"] / 1e3, c[lo + "_x1000"] / 1e3, c[hi + "_x1000"] / 1e3


def estimate(c):
    """(point, lo, hi, rounds' lo, rounds' hi, placements) of a comparison record."""
    point, lo, hi = bounds(c, "ci_lo", "ci_hi")
    rlo, rhi = lo, hi
    if isinstance(c.get("ci_lo_round_x1000"), int):
        _, rlo, rhi = bounds(c, "ci_lo_round", "ci_hi_round")
    p = c.get("placements") if c.get("interval") == "replication" else 1
    return point, lo, hi, rlo, rhi, p if isinstance(p, int) else 1


def rows_of(runs):
    """{row key: [(point, lo, hi) of each run that has it]} from a list of record lists."""
    rows = {}
    for recs in runs:
        seen = {}
        for c in recs:
            if c.get("kind") == "comparison":
                seen[row_key(c)] = estimate(c)      # a row twice in one run: the last
        for k, e in seen.items():
            rows.setdefault(k, []).append(e)
    return rows


def coverage(ests, lo=1, hi=2):
    """(hits, pairs): how often one run's point lies in another run's [lo, hi] (the
    interval at positions @lo, @hi of the estimates)."""
    hits = pairs = 0
    for i, e in enumerate(ests):
        for j, f in enumerate(ests):
            if i != j:
                pairs += 1
                hits += f[lo] <= e[0] <= f[hi]
    return hits, pairs


def run_fresh(bench, args, n, tmp):
    """@n fresh processes of @bench @args, one after another; the JSON file of each."""
    files = []
    for i in range(n):
        path = os.path.join(tmp, "run%d.jsonl" % (i + 1))
        try:
            p = subprocess.run([bench] + args + ["--json", path], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
        except OSError as e:
            raise common.BadInput(bench, "cannot run: %s (make build/ck-bench)" %
                                  common.os_problem(e))
        if p.returncode != 0:
            raise common.BadInput(bench, "run %d of %d exited %d: %s" % (
                i + 1, n, p.returncode, (p.stderr.strip().splitlines() or ["-"])[-1]))
        print("# run %d of %d done" % (i + 1, n), file=sys.stderr)
        files.append(path)
    return files


def report(rows, size, rate):
    """The table; returns (judged rows, rows below the rate)."""
    judged = low = 0
    print("%-15s %-5s %-10s %-33s %-13s %4s %-15s %-5s %-9s %-18s %s" % (
        "api", "size", "mode", "baseline/candidate", "direction", "runs",
        "estimates", "P", "mean w", "rounds' CI", "coverage"))
    for k in sorted(rows, key=lambda k: (k[0], k[2], k[1], k[3], k[4], k[5], k[6], k[7])):
        ests = rows[k]
        if len(ests) < 2 or (size is not None and k[1] != size):
            continue
        hits, pairs = coverage(ests)
        rhits, _ = coverage(ests, 3, 4)
        judged += 1
        bad = hits < rate * pairs
        low += bad
        pts = [e[0] for e in ests]
        width = sum(e[2] - e[1] for e in ests) / len(ests)
        ps = sorted(set(e[5] for e in ests))
        print("%-15s %-5s %-10s %-33s %-13s %4d %-15s %-5s %-9s %-18s %d/%d = %.2f%s" % (
            k[0], size_name(k[1]), k[2], k[3] + "/" + k[4] + (" (%s)" % k[7] if k[7] else ""),
            k[5] + "->" + k[6], len(ests),
            "%.3f..%.3f" % (min(pts), max(pts)), "/".join(map(str, ps)), "%.3f" % width,
            "%d/%d = %.2f" % (rhits, pairs, rhits / pairs), hits, pairs, hits / pairs,
            "  LOW" if bad else ""))
    return judged, low


def parse_size(text):
    if text == "all":
        return None
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    try:
        if text[-1:].upper() in units:
            return int(text[:-1]) * units[text[-1:].upper()]
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("not a size: %r (e.g. 2M, 262144, all)" % text)


def main(argv=None):
    ap = argparse.ArgumentParser(prog=TOOL, description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=common.bounded(int, 2, 1000, "a count"), default=10,
                    help="fresh benchmark processes to run (default 10)")
    ap.add_argument("--bench", default=os.path.join(ROOT, "build", "ck-bench"),
                    help="the hosted benchmark (default build/ck-bench)")
    ap.add_argument("--from", dest="files", nargs="+", metavar="FILE",
                    help="read these runs' JSON lines instead of running anything")
    ap.add_argument("--size", type=parse_size, default=2 << 20,
                    help="the rows judged: one size (default 2M) or all")
    ap.add_argument("--rate", type=common.bounded(float, 0.0, 1.0, "a rate"), default=0.95,
                    help="the coverage every judged row must reach (default 0.95)")
    ap.add_argument("args", nargs="*", help="after --: the benchmark's arguments "
                    "(default --preset rfc)")
    a = ap.parse_args(argv)
    if a.files and a.args:
        ap.error("--from reads runs made already: no benchmark arguments")
    try:
        with tempfile.TemporaryDirectory(prefix="ck-coverage-") as tmp:
            files = a.files or run_fresh(a.bench, a.args or ["--preset", "rfc"], a.runs, tmp)
            runs = []
            for f in files:
                main.source = f
                runs.append(records(f))
    except common.BadInput as e:
        print(e.line(TOOL), file=sys.stderr)
        return e.status
    judged, low = report(rows_of(runs), a.size, a.rate)
    if not judged:
        print("%s: no comparison row of that size in two runs or more" % TOOL, file=sys.stderr)
        return common.EXIT_NO_RESULT
    print("# %d of %d rows cover the other runs' estimates at %.0f%% or more (%d runs)" % (
        judged - low, judged, 100 * a.rate, len(runs)))
    if low:
        print("%s: %d of %d rows: one run's estimate outside the other runs' intervals more "
              "often than %.0f%% allows" % (TOOL, low, judged, 100 * (1 - a.rate)),
              file=sys.stderr)
        return EXIT_LOW
    return common.EXIT_OK


main.source = "-"

if __name__ == "__main__":
    sys.exit(common.run_main(TOOL, main))
