# SPDX-License-Identifier: GPL-2.0-only
"""cklib.lavaids - the ids and results LAVA takes from the image's serial lines: the monitors'
patterns, the dotted ids of a KTAP log (suite.case, suite.case.param), benchmark figures and
the soak's verdict, and the comparison of all those with what lava-run recorded (ck-lava.py
check, make lava-check).
"""
import re

from cklib import seriallog

# The monitors' patterns (docs/user/results.md), ending at the line's closing '>'. LAVA
# records a measurement (null when the group did not match) whenever the pattern has the
# group, so test cases and benchmark figures need a pattern each.
PATTERN = r"ck-lava <(?P<test_case_id>[a-z0-9_.-]+) (?P<result>pass|fail|skip)>"
BENCH_PATTERN = (r"ck-lava <(?P<test_case_id>bench\.[a-z0-9_.-]+) (?P<result>pass) "
                 r"(?P<measurement>[0-9]+) (?P<units>MB/s)>")
# The soak's cases (soak.nodeN) and its verdict (soak), after the suites' totals.
SOAK_PATTERN = r"ck-lava <(?P<test_case_id>soak(?:\.[a-z0-9_-]+)?) (?P<result>pass|fail)>"


def slug(name, size=64):
    """ck_slug() (kernel/lib/format.c) in Python, with its buffer size: one id component."""
    out, gap = [], False
    for ch in name:
        if len(out) + 1 >= size:
            break
        c = ch.lower() if "A" <= ch <= "Z" else ch
        if c.isascii() and (c.isalnum() or c in "_-"):
            if gap and out:
                if len(out) + 2 >= size:
                    break
                out.append("_")
            gap = False
            out.append(c)
        else:
            gap = True
    return "".join(out) or "_"


def ktap_cases(lines):
    """{id: pass|fail|skip} for every case (depth 2) and parameter (depth 3) of a KTAP log,
    with the ids the image prints: suite.case and suite.case.param (docs/user/results.md).
    Raises ValueError on a result outside a subtest or a repeated id."""
    names = {}          # indent -> name of the subtest open at that indent
    seen_params = {}    # param slug -> occurrences, within the current case
    out = {}
    for _, kind, v in seriallog.read(lines):
        if kind == "subtest":
            names[v.indent] = v.name
            if v.indent == 8:
                seen_params = {}
            continue
        if kind != "result":
            continue
        indent = v.indent
        if indent == 0:
            continue        # a suite's result: not a case
        if not v.ok:
            result = "fail"
        elif (v.directive or "").upper().startswith("SKIP"):
            result = "skip"
        else:
            result = "pass"
        name = v.name
        if indent == 4:
            if 4 not in names:
                raise ValueError(f"case {name!r} outside a suite")
            cid = f"{slug(names[4])}.{slug(name)}"
            seen_params = {}
        elif indent == 8:
            if 4 not in names or 8 not in names:
                raise ValueError(f"parameter {name!r} outside a case")
            p = slug(name)
            seen_params[p] = seen_params.get(p, 0) + 1
            if seen_params[p] > 1:
                p = f"{p}_{seen_params[p]}"
            cid = f"{slug(names[4])}.{slug(names[8])}.{p}"
        else:
            continue
        if cid in out:
            raise ValueError(f"id {cid} twice")
        out[cid] = result
    return out


def bench_figures(lines):
    """{id: "pass VALUE MB/s"} from the image's benchmark lines (the same run's serial)."""
    out = {}
    for line in lines:
        m = re.search(BENCH_PATTERN, line)
        if m:
            out[m.group("test_case_id")] = " ".join(m.group("result", "measurement", "units"))
    return out


def soak_verdict(lines):
    """{"soak": pass|fail} from the image's soak summary line (the same run's serial): the
    soak's LAVA verdict, which is no KTAP case."""
    verdict = seriallog.read(lines).first("soak")
    return {"soak": verdict.lower()} if verdict else {}


def compare(ktap, lava):
    """Mismatches between KTAP's cases and LAVA's results, one line each ([] when equal)."""
    bad = []
    for cid, res in sorted(ktap.items()):
        if cid not in lava:
            bad.append(f"{cid}: KTAP {res}, not in LAVA's results")
        elif lava[cid] != res:
            bad.append(f"{cid}: KTAP {res}, LAVA {lava[cid]}")
    for cid in sorted(set(lava) - set(ktap)):
        bad.append(f"{cid}: LAVA {lava[cid]}, no such KTAP case")
    return bad
