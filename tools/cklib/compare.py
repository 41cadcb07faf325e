# SPDX-License-Identifier: GPL-2.0-only
"""cklib.compare - ck-report.py --compare: B's ratio against A's per comparison, whether it
changed (a z-test on log ratios, Benjamini-Hochberg over the cases), and all cases together.
"""
import math

from cklib.records import gbps_text, size_name

# Benjamini-Hochberg at 5%: of the cases flagged, at most 5% are expected to be false; when
# nothing changed (an A/A run) that is a 5% chance of flagging anything, as with Holm.
ALPHA = 0.05
Z95 = 1.959964          # the comparison intervals are 95% intervals
SE_FLOOR = 0.0005       # ratios are printed in parts per thousand: no interval is narrower
# Run-to-run noise of a ratio (standard deviation of its log) used when a side has one run:
# ten hosted rfc runs of one build on the Zen 3 CI VM at load 5-6 spread by 2.4%
# (docs/design/benchmark-method.md).
RUN_NOISE = 0.025
# Student's t, 97.5% points for 1 .. 15 degrees of freedom (a printed table): a replication
# interval over B blocks is the estimate +- t(B - 1) sqrt(2) standard errors
# (bench/stats.c, stats_round_ratio_placed).
T975 = (12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004,
        2.262157, 2.228139, 2.200985, 2.178813, 2.160369, 2.144787, 2.131450)


def comp_key(c):
    """What makes two comparison records the same case."""
    return (c["api"], c["mode"], c["size"], c["baseline"], c["candidate"],
            c.get("src_node", "node0"), c.get("dst_node", "node0"),
            c.get("candidate_src_pattern", c.get("src_pattern", "")),
            c.get("cold_method", ""))


def log_se(c):
    """
    Standard error of log(ratio) from a record's 95% interval (its half-width in logs): the
    rounds' interval is +-1.96 of them; a replication interval over B blocks, where another
    run's estimate lies, +- t(0.975, B - 1) sqrt(2) of them (the mean of the blocks'
    medians), or, made before that method, 1.96 sqrt(2) sqrt(B / (B - 1)) (a two-level
    bootstrap around the pooled median, widened by sqrt(B / (B - 1))). An interval held to
    its run's pooled width (width_floor_ppm) is read the same way: the pooled spread is the
    run's better estimate of the blocks' s, so the standard error is the larger one.
    """
    lo, hi = c["ci_lo_x1000"], c["ci_hi_x1000"]
    if lo <= 0 or hi <= 0:
        return None
    blocks = c.get("placements", 1)
    k = Z95
    if c.get("interval") == "replication" and 2 <= blocks <= len(T975) + 1:
        if c.get("method") == "mean-of-block-medians":
            k = T975[blocks - 2] * math.sqrt(2)
        else:
            k = Z95 * math.sqrt(2) * math.sqrt(blocks / (blocks - 1))
    return max((math.log(hi) - math.log(lo)) / (2 * k), SE_FLOOR)


def methods(recs):
    """The ways a side's records of one case computed their ratio."""
    return {c.get("method", "median-of-round-ratios") for c in recs}


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
        differ = [r for r in rows if methods(r[1]) != methods(r[2])]
        if differ:
            out.write("note: %d cases computed their ratio differently on the two sides (the "
                      "median of all rounds against the mean of the blocks' medians): a "
                      "change there may be the method's\n" % len(differ))
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
        out.write("%-18s %-20s %-7s %-11s %9s %9s %6.2fx\n" % (
            k[0], k[1], size_name(k[2]), k[3], gbps_text(ra["median_mbps"]),
            gbps_text(rb["median_mbps"]), ratio))
        n += 1
    return n

