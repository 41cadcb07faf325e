# SPDX-License-Identifier: GPL-2.0-only
"""tools/ck-report.py --fleet's soak table (issue 19) on tests/data/soak-fleet: real soak
runs of the image (README.md there), one of them through lava-run.

Each machine's row (from its soak_summary JSON record) must agree with the image's other
account of the same soak, the `# copykernel-soak:` and `# soak-ledger:` text lines; the
worst bucket follows docs/user/soak.md "Thresholds" (a miscompare fails a soak, corrected
errors only above a threshold), whatever the ledger's order; a damaged record is refused.
"""
import json
import os
import re

import pytest
from hypothesis import given, strategies as st

from conftest import ROOT, assert_clean, fleet_copy, fleet_machines, run_tool

TOOL = "ck-report"
FLEET = os.path.join(ROOT, "tests", "data", "soak-fleet")
MACHINES = sorted(d for d in os.listdir(FLEET) if os.path.isdir(os.path.join(FLEET, d)))
SUMMARY = re.compile(r"# copykernel-soak: result=(PASS|FAIL) duration=([0-9.]+)s passes=(\d+) "
                     r"bytes=(\d+) corrected=(\d+) deferred=(\d+) uncorrected=(\d+) "
                     r"miscompares=(\d+) stuck_cpus=(\d+) retired_pages=(\d+)")


def log_of(machine):
    d = os.path.join(FLEET, machine)
    [name] = os.listdir(d)
    with open(os.path.join(d, name), encoding="utf-8") as f:
        return os.path.join(d, name), f.read()


fleet = fleet_machines


@pytest.fixture
def copy():
    with fleet_copy(FLEET) as dst:
        yield dst


def test_every_stored_soak_has_a_row_that_agrees_with_its_summary_line():
    ms = fleet(FLEET)
    assert sorted(ms) == MACHINES and len(MACHINES) >= 5
    for name in MACHINES:
        _, text = log_of(name)
        [m] = [SUMMARY.search(ln) for ln in text.splitlines() if SUMMARY.search(ln)]
        s = ms[name]["soak"]
        assert s is not None, name
        assert s["result"] == m.group(1)
        assert 0 <= s["seconds"] - float(m.group(2)) < 0.001     # the line truncates to ms
        assert (s["passes"], s["bytes_verified"]) == (int(m.group(3)), int(m.group(4)))
        want = dict(zip(("corrected", "deferred", "uncorrected", "miscompares", "stuck_cpus",
                         "retired_pages"), map(int, m.group(*range(5, 11)))))
        assert s["counts"] == want, name


def test_only_the_failed_soaks_are_flagged():
    ms = fleet(FLEET)
    failed = {n for n in MACHINES if "# copykernel-soak: result=FAIL" in log_of(n)[1]}
    assert failed and failed != set(MACHINES)
    for n, m in ms.items():
        assert any(f.startswith("soak FAIL") for f in m["flags"]) == (n in failed), (n, m)


def ledger_lines(text):
    """{where: {kind: n}} from the image's `# soak-ledger:` text lines."""
    out = {}
    words = {"stuck CPUs": "stuck_cpus", "retired pages": "retired_pages"}
    for ln in text.splitlines():
        m = re.match(r"^# soak-ledger: (.*): ((?:[A-Za-z ]+ \d+(?:, )?)+)$", ln)
        if m:
            counts = {}
            for part in m.group(2).split(", "):
                k, n = part.rsplit(" ", 1)
                counts[words.get(k, k)] = int(n)
            out[m.group(1)] = counts
    return out


def test_the_worst_bucket_is_the_miscompare_not_the_most_events():
    ms = fleet(FLEET)
    _, text = log_of("sky-512m-ce-flip")
    buckets = ledger_lines(text)
    assert len(buckets) == 2
    [bad] = [w for w, c in buckets.items() if c["miscompares"]]
    [many] = [w for w, c in buckets.items() if not c["miscompares"]]
    assert sum(buckets[many].values()) > sum(buckets[bad].values())
    worst = ms["sky-512m-ce-flip"]["soak"]["worst"]
    assert worst == {"where": bad, "counts": {"miscompares": 1}}
    for n in MACHINES:
        if not ledger_lines(log_of(n)[1]):
            assert ms[n]["soak"]["worst"] is None, n


def test_the_worst_bucket_does_not_hang_on_the_ledgers_order(copy):
    path = os.path.join(copy, "sky-512m-ce-flip", "serial.log")
    with open(path) as f:
        lines = f.read().split("\n")
    [i] = [i for i, ln in enumerate(lines) if '"kind":"soak_summary"' in ln]
    rec = json.loads(lines[i])
    rec["ledger"].reverse()
    lines[i] = json.dumps(rec, separators=(",", ":"))
    with open(path, "w") as f:
        f.write("\n".join(lines))
    assert fleet(copy)["sky-512m-ce-flip"]["soak"]["worst"]["counts"] == {"miscompares": 1}


def test_the_table_has_a_soak_row_per_machine():
    r = run_tool(TOOL, "--fleet", FLEET)
    assert_clean(r, TOOL, allowed=(0,))
    lines = r.out.decode().splitlines()
    [head] = [i for i, ln in enumerate(lines) if ln.startswith("machine") and "worst bucket"
              in ln]
    rows = {ln.split()[0]: ln for ln in lines[head + 1:head + 1 + len(MACHINES)]}
    assert sorted(rows) == MACHINES
    for n in MACHINES:
        verdict = "FAIL" if "# copykernel-soak: result=FAIL" in log_of(n)[1] else "PASS"
        assert rows[n].split()[1] == verdict, rows[n]
    assert "miscompares 1" in rows["sky-512m-ce-flip"]


@pytest.mark.parametrize("old,new", [
    ('"result":"FAIL","reason"', '"result":"MAYBE","reason"'),
    ('"counts":{"corrected":3,', '"counts":{"corrected":-3,'),
    ('"duration_ns":', '"duration_ms":'),
    ('"ledger":[', '"ledger":[7,'),
])
def test_a_damaged_soak_summary_is_refused(copy, old, new):
    path = os.path.join(copy, "sky-512m-ce-flip", "serial.log")
    with open(path) as f:
        text = f.read()
    assert text.count(old) == 1
    with open(path, "w") as f:
        f.write(text.replace(old, new))
    r = run_tool(TOOL, "--fleet", copy)
    assert_clean(r, TOOL, allowed=(3,))
    assert "soak_summary" in r.err_text


KINDS = ("uncorrected", "deferred", "miscompares", "stuck_cpus", "corrected")
bucket = st.fixed_dictionaries({k: st.integers(0, 3) for k in KINDS})


@given(st.lists(bucket, max_size=6), st.randoms(use_true_random=False))
def test_worst_bucket_properties(ledger, rnd):
    """Whatever the order, the worst bucket is one with events; an uncorrected error makes a
    bucket the worst when no other bucket has one."""
    from cklib.soak import worst_bucket
    ledger = [dict(b, where="b%d" % i) for i, b in enumerate(ledger)]
    w = worst_bucket(ledger)
    assert (w is None) == (not any(any(b[k] for k in KINDS) for b in ledger))
    shuffled = list(ledger)
    rnd.shuffle(shuffled)
    w2 = worst_bucket(shuffled)
    assert (w and w["counts"]) == (w2 and w2["counts"])
    if ledger and not any(b["uncorrected"] for b in ledger):
        i = rnd.randrange(len(ledger))
        ledger[i] = dict(ledger[i], uncorrected=1)
        assert worst_bucket(ledger)["where"] == ledger[i]["where"]


LEDGER_LINE = re.compile(r"^# soak-ledger: (.*): corrected (\d+), deferred (\d+), uncorrected "
                         r"(\d+), miscompares (\d+), stuck CPUs (\d+), retired pages (\d+)$", re.M)


def test_the_ledger_table_is_the_images_ledger_per_bucket():
    """Per machine and bucket (DIMM, or node and range): the fleet's ledger lines hold what the
    image's own `# soak-ledger:` text lines say, for every bucket with an event, and no other."""
    r = run_tool(TOOL, "--fleet", FLEET)
    assert_clean(r, TOOL, allowed=(0,))
    lines = r.out.decode().splitlines()
    [head] = [i for i, ln in enumerate(lines) if ln.startswith("machine") and "where (DIMM" in ln]
    got = set()
    for ln in lines[head + 1:]:
        if not ln.strip():
            break
        f = ln.split()
        got.add((f[0], " ".join(f[1:-6]), tuple(int(x) for x in f[-6:])))
    want = set()
    for n in MACHINES:
        for m in LEDGER_LINE.finditer(log_of(n)[1]):
            ce, de, uc, mis, stuck, ret = (int(x) for x in m.groups()[1:])
            if ce or de or uc or mis or stuck or ret:
                want.add((n, m.group(1), (uc, de, mis, stuck, ce, ret)))
    assert want and got == want
