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
A row's coverage is the share of pairs where it does. Only rows of --size (2M; "all": every
size) are judged.

A row's coverage from a few runs scatters even when its intervals are exactly right: the
pairs share runs, so ten runs are ten draws, not ninety. Where every run's interval of a row
is a replication interval over the same P blocks (P >= 2), the row is judged against its
floor: the coverage an exactly calibrated interval (normal block medians, the row's own P and
number of runs, ck-bench's t x s x sqrt(2/P) half-width) falls below with probability
--alpha / (rows judged), from a seeded simulation of that model. A row below its floor is
LOW: evidence, at a false-alarm rate of --alpha for the whole table, that its intervals hold
less than 95%. (With 10 runs of 6 blocks an exactly right interval shows a coverage below
0.95 in about 40% of rows, below 0.84 in 5%.) The share of all pairs of all judged rows is
printed beside the stated rate. Any other row (the rounds' CI, or --strict) is LOW below
--rate itself. The rows judged against the model are also judged together: their pooled
coverage is POOLED LOW below the --alpha point of what exactly right, independent rows of the
same shapes give (a single row has little power; thirty rows at 0.86 on the whole are not
chance).

Pooled widths. On ten fresh make bench runs on 2026-12-02 the estimates varied between runs
about as much as the intervals' average width allowed, but the width from six blocks varied
from run to run, and the narrow ones missed. Since then ck-bench holds every replication
interval to at least the run's root-mean-square relative half-width over the replicas'
comparisons of its mode, cache-hot and cache-cold apart (--widths own: not); such a record
keeps its own interval in ci_lo_own_ppm/ci_hi_own_ppm, and --own-widths judges those
instead.
--pool-widths re-does the pooling from each row's own interval over the judged size only
(how it was first evaluated, on records made before).

Under a LOW row, a line says which of the runs' bandwidth probes (the machine's own speed,
measured at each run's start) its estimates follow most closely across the runs, and how
closely (Pearson's r). Where |r| is 0.8 or more the machine itself changed between runs (a
shared VM's host load, say) and the row with it: no interval from inside one run can hold
that. It is a diagnosis, not an excuse: the row is LOW all the same.

The interval judged is the one the record states (ci_lo/ci_hi): since issue 20 item 0.4 the
replication interval over the run's placements ("interval": "replication", "placements":
P), which claims exactly this, or with one placement the rounds' 95% CI. Beside it, from the
same runs, the coverage of the rounds' own CI (ci_lo_round/ci_hi_round; a record without
them: its ci_lo/ci_hi), which is not built to hold another run's estimate 95% of the time,
even with no run-to-run change at all (the other estimate has its own spread).

Exit status: 0 no judged row is LOW, nor the rows together; 1 no row was in two runs; 2
usage; 3 a damaged input or a benchmark run that failed; 4 some row, or the rows together,
LOW.

  tools/bench-coverage.py --runs 10 -- --preset rfc          (the quiet-machine acceptance)
  tools/bench-coverage.py --from tests/data/bench-aa/*.jsonl  (runs made already)
"""
import argparse
import math
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cklib import common  # noqa: E402
from cklib.records import candidate_source, records, size_name  # noqa: E402

TOOL = "bench-coverage"
EXIT_LOW = 4
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def row_key(c):
    """A comparison row; the candidate's source data where it differs (the patterns preset
    compares a zero and a constant source with a random one, the same primitives)."""
    return (c["api"], c["size"], c["mode"], c["baseline"], c["candidate"],
            c.get("src_node", "node0"), c.get("dst_node", "node0"), candidate_source(c))


def bounds(c, lo, hi):
    """(point, lo, hi) as floats from keys @lo/@hi: parts per million when there are."""
    ppm = ("ratio_ppm", lo + "_ppm", hi + "_ppm")
    if all(isinstance(c.get(k), int) for k in ppm):
        return tuple(c[k] / 1e6 for k in ppm)
    return c["ratio_x1000"] / 1e3, c[lo + "_x1000"] / 1e3, c[hi + "_x1000"] / 1e3


def estimate(c, own=False):
    """(point, lo, hi, rounds' lo, rounds' hi, placements) of a comparison record; with
    @own, lo and hi are the blocks' own interval where the run pooled its widths
    (ci_lo_own_ppm/ci_hi_own_ppm)."""
    point, lo, hi = bounds(c, "ci_lo", "ci_hi")
    if own and isinstance(c.get("ci_lo_own_ppm"), int):
        lo, hi = c["ci_lo_own_ppm"] / 1e6, c["ci_hi_own_ppm"] / 1e6
    rlo, rhi = lo, hi
    if isinstance(c.get("ci_lo_round_x1000"), int):
        _, rlo, rhi = bounds(c, "ci_lo_round", "ci_hi_round")
    p = c.get("placements") if c.get("interval") == "replication" else 1
    return point, lo, hi, rlo, rhi, p if isinstance(p, int) else 1


def pooled_widths(seen, size):
    """--pool-widths: in one run's rows (@seen, {key: estimate}), each replication interval
    of the judged @size widened to at least the run's root-mean-square relative half-width
    over those rows of its mode (cache-hot, cache-cold). A candidate remedy, judged with
    nothing but the run's own records: six blocks give an interval whose width varies from
    run to run more than the estimates do."""
    judged = {k: e for k, e in seen.items()
              if (size is None or k[1] == size) and e[5] >= 2 and e[0] > 0}
    rel = {}
    for k, e in judged.items():
        rel.setdefault(k[2], []).append(((e[2] - e[1]) / 2 / e[0]) ** 2)
    out = dict(seen)
    for k, e in judged.items():
        half = max((e[2] - e[1]) / 2, e[0] * math.sqrt(sum(rel[k[2]]) / len(rel[k[2]])))
        out[k] = (e[0], e[0] - half, e[0] + half) + tuple(e[3:])
    return out


def rows_of(runs, pool=False, size=None, own=False):
    """{row key: [(point, lo, hi) of each run that has it]} from a list of record lists;
    with @own (or @pool) the blocks' own intervals (estimate()), with @pool each run's
    intervals of @size (None: every size) then pooled_widths()."""
    rows = {}
    for recs in runs:
        seen = {}
        probes = {c["probe"]: c["traffic_mbps"] for c in recs if c.get("kind") == "bandwidth"
                  and isinstance(c.get("traffic_mbps"), int) and isinstance(c.get("probe"), str)}
        for c in recs:
            if c.get("kind") == "comparison":
                seen[row_key(c)] = estimate(c, own or pool)  # a row twice in a run: the last
        if pool:
            seen = pooled_widths(seen, size)
        for k, e in seen.items():
            rows.setdefault(k, []).append(e + (probes,))    # [6]: the run's probe figures
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


# t(0.975, df) for df = 1 .. 15: the two-sided 95% points of Student's t (any table).
T975 = (12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004,
        2.262157, 2.228139, 2.200985, 2.178813, 2.160369, 2.144787, 2.131450)
MODEL_TRIALS = 20000


def model_coverages(runs, blocks, trials=MODEL_TRIALS, seed=20):
    """The sorted coverages of @trials simulated rows of @runs runs, each run's estimate the
    mean of @blocks standard normal block medians and its interval that mean +- t x s x
    sqrt(2 / blocks): an interval exactly right for another run's estimate. The mean and
    sample standard deviation of normal samples are drawn directly: the mean N(0, 1 / B),
    s^2 a chi-squared of B - 1 degrees of freedom over B - 1."""
    rng = random.Random("%d/%d/%d" % (seed, runs, blocks))
    k = T975[blocks - 2] * math.sqrt(2.0 / blocks)
    out = []
    for _ in range(trials):
        ests = []
        for _ in range(runs):
            m = rng.gauss(0.0, 1.0 / math.sqrt(blocks))
            sd = math.sqrt(rng.gammavariate((blocks - 1) / 2.0, 2.0) / (blocks - 1))
            ests.append((m, m - k * sd, m + k * sd))
        hits, pairs = coverage(ests)
        out.append(hits / pairs)
    out.sort()
    return out


_models = {}


def model_of(runs, blocks):
    """model_coverages(@runs, @blocks), simulated once per shape."""
    if (runs, blocks) not in _models:
        _models[(runs, blocks)] = model_coverages(runs, blocks)
    return _models[(runs, blocks)]


def floor_of(runs, blocks, quantile):
    """The @quantile point of the exactly-right interval's coverage for @runs runs of
    @blocks blocks."""
    cs = model_of(runs, blocks)
    return cs[min(int(quantile * len(cs)), len(cs) - 1)]


def row_floor(ests, rate, alpha, judged, strict):
    """(floor, how): what a row's coverage is judged against."""
    ps = set(e[5] for e in ests)
    if strict or len(ps) != 1 or not 2 <= min(ps) <= len(T975) + 1:
        return rate, "rate"
    return floor_of(len(ests), ps.pop(), alpha / max(judged, 1)), "model"


def pooled_floor(modelled, alpha, trials=4000, seed=21):
    """The @alpha point of the pooled coverage (all pairs of all @modelled rows) if every
    row's interval were exactly right and the rows independent: each simulated row's coverage
    drawn from its own shape's model. Rows that share runs are not independent, so this is a
    floor for a table that is right on the whole, not a proof that it is."""
    rng = random.Random(seed)
    total = sum(m[3] for m in modelled)
    sims = sorted(sum(rng.choice(model_of(m[0], m[1])) * m[3] for m in modelled) / total
                  for _ in range(trials))
    return sims[int(alpha * trials)]


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


def report(rows, size, rate, alpha, strict):
    """The table; returns (judged rows, LOW rows, hits, pairs, modelled) over the judged
    rows, modelled a list of (runs, blocks, hits, pairs) of those judged against the model."""
    keys = [k for k in sorted(rows, key=lambda k: (k[0], k[2], k[1], k[3], k[4], k[5], k[6],
                                                   k[7]))
            if len(rows[k]) >= 2 and (size is None or k[1] == size)]
    low = all_hits = all_pairs = 0
    modelled = []
    print("%-15s %-5s %-10s %-33s %-13s %4s %-15s %-5s %-9s %-18s %-18s %s" % (
        "api", "size", "mode", "baseline/candidate", "direction", "runs",
        "estimates", "P", "mean w", "rounds' CI", "coverage", "floor"))
    for k in keys:
        ests = rows[k]
        hits, pairs = coverage(ests)
        rhits, _ = coverage(ests, 3, 4)
        floor, how = row_floor(ests, rate, alpha, len(keys), strict)
        bad = hits < floor * pairs
        if how == "model":
            modelled.append((len(ests), ests[0][5], hits, pairs))
        low += bad
        all_hits += hits
        all_pairs += pairs
        pts = [e[0] for e in ests]
        width = sum(e[2] - e[1] for e in ests) / len(ests)
        ps = sorted(set(e[5] for e in ests))
        print("%-15s %-5s %-10s %-33s %-13s %4d %-15s %-5s %-9s %-18s %-18s %.2f %s%s" % (
            k[0], size_name(k[1]), k[2], k[3] + "/" + k[4] + (" (%s)" % k[7] if k[7] else ""),
            k[5] + "->" + k[6], len(ests),
            "%.3f..%.3f" % (min(pts), max(pts)), "/".join(map(str, ps)), "%.3f" % width,
            "%d/%d = %.2f" % (rhits, pairs, rhits / pairs),
            "%d/%d = %.2f" % (hits, pairs, hits / pairs), floor, how,
            "  LOW" if bad else ""))
        if bad:
            say_drift(ests)
    return len(keys), low, all_hits, all_pairs, modelled


def correlation(xs, ys):
    """Pearson's r of two equally long lists; None where either does not vary."""
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sx = math.sqrt(sum((x - mx) ** 2 for x in xs))
    sy = math.sqrt(sum((y - my) ** 2 for y in ys))
    if not sx or not sy:
        return None
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / (sx * sy)


def follows_machine(ests):
    """(r, probe, its lowest and highest figure) for the bandwidth probe, among those every
    run of a row has, whose figures the row's estimates follow most closely across the runs
    (r near 1 or -1: the machine itself changed between runs, and the row with it); None
    with fewer than 3 runs or no such probe."""
    if len(ests) < 3:
        return None
    pts = [e[0] for e in ests]
    best = None
    for probe in sorted(set.intersection(*(set(e[6]) for e in ests))):
        ys = [e[6][probe] for e in ests]
        r = correlation(pts, ys)
        if r is not None and (best is None or abs(r) > abs(best[0])):
            best = (r, probe, min(ys), max(ys))
    return best


def say_drift(ests):
    """Under a LOW row: whether its estimates followed the machine's own speed."""
    f = follows_machine(ests)
    if f is None:
        return
    r, probe, lo, hi = f
    print("#   the row above follows its runs' %s probe most closely of all their probes "
          "(%.1f..%.1f GB/s of traffic over them): r = %.2f%s" % (
              probe, lo / 1e3, hi / 1e3, r, "; the machine changed between runs, which no "
              "interval from inside one run can hold" if abs(r) >= DRIFT_R else ""))


# |r| from which a LOW row is said to have followed the machine (a diagnosis, not a verdict)
DRIFT_R = 0.8


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
                    help="the rate the intervals state (default 0.95): the floor of a row "
                    "the model does not cover, and of every row with --strict")
    ap.add_argument("--alpha", type=common.bounded(float, 0.0001, 0.5, "a probability"),
                    default=0.05, help="the false-alarm rate of the whole table for rows "
                    "judged against the model (default 0.05)")
    ap.add_argument("--pool-widths", action="store_true",
                    help="widen each run's replication intervals of the judged size to at "
                    "least that run's root-mean-square relative half-width over them, per "
                    "mode, from each row's own interval (what ck-bench does itself since "
                    "2026-12-02, over every size: re-done here over the judged size only)")
    ap.add_argument("--own-widths", action="store_true",
                    help="judge the blocks' own intervals where a run pooled its widths "
                    "(ci_lo_own_ppm/ci_hi_own_ppm), not the pooled ones it printed")
    ap.add_argument("--strict", action="store_true",
                    help="judge every row against --rate itself, not the model's floor")
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
    rows = rows_of(runs, a.pool_widths, a.size, a.own_widths)
    judged, low, hits, pairs, modelled = report(rows, a.size, a.rate, a.alpha, a.strict)
    if not judged:
        print("%s: no comparison row of that size in two runs or more" % TOOL, file=sys.stderr)
        return common.EXIT_NO_RESULT
    print("# all %d rows: %d/%d = %.3f of the pairs covered (the intervals state %.2f); "
          "%d LOW (%d runs)" % (judged, hits, pairs, hits / pairs, a.rate, low,
                                     len(runs)))
    pooled_low = False
    if len(modelled) >= 2:
        mh, mp = sum(m[2] for m in modelled), sum(m[3] for m in modelled)
        floor = pooled_floor(modelled, a.alpha)
        pooled_low = mh < floor * mp
        print("# the %d rows judged against the model: %d/%d = %.3f, floor %.3f%s" % (
            len(modelled), mh, mp, mh / mp, floor, "  POOLED LOW" if pooled_low else ""))
    if low or pooled_low:
        print("%s: %s: one run's estimate outside the other runs' intervals more often than "
              "an interval of the stated rate allows" % (
                  TOOL, "%d of %d rows" % (low, judged) if low else
                  "the rows together"), file=sys.stderr)
        return EXIT_LOW
    return common.EXIT_OK


main.source = "-"

if __name__ == "__main__":
    sys.exit(common.run_main(TOOL, main))
