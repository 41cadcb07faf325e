# SPDX-License-Identifier: GPL-2.0-only
"""ck-report --compare on stored runs (issue 14): an A/A test and an A/B test.

tests/data/bench-aa/ holds ten hosted `ck-bench --preset rfc` runs of one build, made one after
another on the Zen 3 CI VM at load 5-6 (the machine and comparison records; the result records
are left out to keep them small). A/A: runs 1-5 against runs 6-10 must flag nothing, and so
must single runs against each other with the default run-to-run noise. A/B: the same runs
6-10 with every candidate made 5% faster (ratio and interval times 1.05), or slower, must be
flagged: all cases together always, and no case the wrong way; per case, with the
Benjamini-Hochberg correction, at least 16 of the 20 cases each way. A 5% change is about
3.3 standard errors of a case's change here (run-to-run noise 2.4% per case, five runs a
side), so a case can still be missed; over every split of the ten runs into five and five
the tests pin how often a case is found and how often an A/A split flags anything. The
verdicts come from the tool's own output (the splits from its own functions).
"""
import io
import itertools
import json
import math
import os
import re
import subprocess
import sys
import tempfile

from conftest import TOOLS

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data",
                    "bench-aa")
RUNS = [os.path.join(DATA, "run%d.jsonl" % i) for i in range(1, 11)]


def compare(a, b, *extra):
    p = subprocess.run([sys.executable, os.path.join(TOOLS, "ck-report.py"), "--compare",
                        ",".join(a), ",".join(b)] + list(extra), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    assert p.returncode == 0, p.stderr
    rows = [l for l in p.stdout.splitlines() if re.search(r"\d\.\d{3}x  ", l)]
    return p.stdout, rows


def shifted(path, factor, out_dir):
    """A copy of a run with every comparison's candidate @factor times as fast."""
    out = os.path.join(out_dir, os.path.basename(path))
    with open(path) as f, open(out, "w") as g:
        for line in f:
            r = json.loads(line)
            if r.get("kind") == "comparison":
                for k in ("ratio_x1000", "ci_lo_x1000", "ci_hi_x1000"):
                    r[k] = round(r[k] * factor)
            g.write(json.dumps(r) + "\n")
    return out


def test_stored_runs_are_one_build_of_rfc():
    for path in RUNS:
        with open(path) as f:
            recs = [json.loads(l) for l in f]
        comps = [r for r in recs if r["kind"] == "comparison"]
        assert len(comps) == 20 and all(r["rounds"] == 30 for r in comps), path


def overall(out):
    return [l for l in out.splitlines() if l.startswith("all ")][0]


def test_aa_five_runs_against_five_flags_nothing():
    out, rows = compare(RUNS[:5], RUNS[5:])
    assert len(rows) == 20, out
    assert "estimated from the runs" in out
    assert all("no change" in r for r in rows), out
    assert overall(out).endswith(": no change"), out


def test_aa_single_runs_flag_nothing():
    for a, b in zip(RUNS[:5], RUNS[5:]):
        out, rows = compare([a], [b])
        assert len(rows) == 20 and all("no change" in r for r in rows), out
        assert overall(out).endswith(": no change"), out


def test_ab_known_5_percent_shift_is_flagged():
    with tempfile.TemporaryDirectory(prefix="ck-ab-") as tmp:
        faster = [shifted(p, 1.05, tmp) for p in RUNS[5:]]
        out, rows = compare(RUNS[:5], faster)
        assert len(rows) == 20, out
        assert "CHANGED: faster" in overall(out), out
        assert not any("slower" in r for r in rows), out
        assert sum("CHANGED: faster" in r for r in rows) >= 16, out
        for a, b in zip(RUNS[:5], faster):
            out, rows = compare([a], [b])
            assert "CHANGED: faster" in overall(out), out
            assert not any("slower" in r for r in rows), out


def test_ab_known_5_percent_slowdown_is_flagged():
    with tempfile.TemporaryDirectory(prefix="ck-ab-") as tmp:
        slower = [shifted(p, 1 / 1.05, tmp) for p in RUNS[5:]]
        out, rows = compare(RUNS[:5], slower)
        assert "CHANGED: slower" in overall(out), out
        assert not any("faster" in r for r in rows), out
        assert sum("CHANGED: slower" in r for r in rows) >= 15, out
        for a, b in zip(RUNS[:5], slower):
            out, rows = compare([a], [b])
            assert "CHANGED: slower" in overall(out), out
            assert not any("faster" in r for r in rows), out


def report_module():
    """ck-report's comparison (tools/cklib/compare.py)."""
    from cklib import compare as cmp        # conftest put tools/ on sys.path
    return cmp


def test_bh_rejects_step_up():
    rep = report_module()
    assert rep.bh([0.01, 0.02, 0.03, 0.04]) == [True] * 4         # 0.04 <= 0.05 * 4/4
    assert rep.bh([0.001, 0.5, 0.02]) == [True, False, True]      # 0.02 <= 0.05 * 2/3
    assert rep.bh([0.03, 0.04, 0.2]) == [False, False, False]     # 0.04 > 0.05 * 2/3
    assert rep.bh([0.5]) == [False]


def shifted_recs(recs, factor):
    out = []
    for r in recs:
        r = dict(r)
        if r.get("kind") == "comparison":
            for k in ("ratio_x1000", "ci_lo_x1000", "ci_hi_x1000"):
                r[k] = round(r[k] * factor)
        out.append(r)
    return out


def test_every_split_of_ten_runs():
    """
    All 126 ways to split the ten runs five and five (run 1 on side A): unchanged, a split
    flags a case rarely (nominal 5% of splits; 11 of 126 measured); with B made 5% faster or
    slower, no case is ever flagged the wrong way and on average 17 of 20 are found.
    """
    rep = report_module()
    runs = []
    for path in RUNS:
        with open(path) as f:
            runs.append([json.loads(l) for l in f])
    aa_flagging, found = 0, {1.05: [], 1 / 1.05: []}
    for pick in itertools.combinations(range(1, 10), 4):
        a = [runs[0]] + [runs[i] for i in pick]
        rest = [runs[i] for i in range(1, 10) if i not in pick]
        rows, _ = rep.compare_ratios(a, rest)
        aa_flagging += any(r[5] for r in rows)
        for f in found:
            rows, _ = rep.compare_ratios(a, [shifted_recs(r, f) for r in rest])
            assert not any(r[5] and (r[3] > 1) != (f > 1) for r in rows), pick
            found[f].append(sum(r[5] for r in rows))
    assert aa_flagging <= 15, aa_flagging
    for f, n in found.items():
        assert len(n) == 126 and sum(n) / len(n) >= 16.5 and min(n) >= 10, (f, n)


def test_replication_interval_is_read_as_such():
    """A replication interval over B blocks is +- t(0.975, B - 1) sqrt(2) standard errors
    (2.570582 x 1.414214 = 3.635 for B = 6, from a printed t table), one made by the earlier
    bootstrap 1.96 sqrt(2) sqrt(B / (B - 1)), a rounds' interval +- 1.96; and two sides
    whose ratios were computed differently are said to be."""
    sys.path.insert(0, TOOLS)
    from cklib import compare as cmp
    rec = {"ci_lo_x1000": 1000, "ci_hi_x1000": 1100}
    half = (math.log(1.1) - math.log(1.0)) / 2
    assert abs(cmp.log_se(rec) - half / 1.959964) < 1e-9
    rec.update(interval="replication", placements=6, method="mean-of-block-medians")
    assert abs(cmp.log_se(rec) - half / 3.635351) < 1e-6
    # made before: 1.959964 x 1.414214 x sqrt(6/5) = 3.036376
    rec.update(method="median-of-round-ratios")
    assert abs(cmp.log_se(rec) - half / 3.036376) < 1e-6
    with open(RUNS[0]) as f:
        old = [json.loads(l) for l in f]
    new = [dict(r, method="mean-of-block-medians") if r["kind"] == "comparison" else r
           for r in old]
    out = io.StringIO()
    cmp.compare([old], [new], out)
    assert "note: 20 cases computed their ratio differently" in out.getvalue()
    out = io.StringIO()
    cmp.compare([old], [old], out)
    assert "computed their ratio differently" not in out.getvalue()
