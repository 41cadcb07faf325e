# SPDX-License-Identifier: GPL-2.0-only
"""ck-report --compare on stored runs (issue 14): an A/A test and an A/B test.

tests/data/bench-aa/ holds ten hosted `ck-bench --preset rfc` runs of one build, made one after
another on the Zen 3 CI VM at load 5-6 (the machine and comparison records; the result records
are left out to keep them small). A/A: runs 1-5 against runs 6-10 must flag nothing, and so
must single runs against each other with the default run-to-run noise. A/B: the same runs
6-10 with every candidate made 5% faster (ratio and interval times 1.05), or slower, must be
flagged: all cases together always, and no case the wrong way. Per case, a 5% change is
above what this machine's run-to-run noise lets five runs a side resolve in every case
(+-3%, Holm-corrected over 20 cases): the tests pin how many were found. The verdicts come
from the tool's own output.
"""
import json
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
        assert sum("CHANGED: faster" in r for r in rows) >= 15, out
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
        assert sum("CHANGED: slower" in r for r in rows) >= 5, out
        for a, b in zip(RUNS[:5], slower):
            out, rows = compare([a], [b])
            assert "CHANGED: slower" in overall(out), out


def test_holm_rejects_in_order():
    sys.path.insert(0, TOOLS)
    try:
        import importlib
        rep = importlib.import_module("ck-report")
    finally:
        sys.path.pop(0)
    assert rep.holm([0.001, 0.02, 0.04]) == [True, True, True]      # 0.05/3, /2, /1
    assert rep.holm([0.03, 0.001, 0.04]) == [False, True, False]   # 0.03 > 0.05/2
    assert rep.holm([0.5]) == [False]
