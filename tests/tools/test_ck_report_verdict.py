# SPDX-License-Identifier: GPL-2.0-only
"""A run whose command line had errors is never a PASS in ck-report or LAVA (issue 37).

On a stored real run (tests/data/cmdline-error: `tests=cpu,pagign soak_chunk=48`, verdict
ERROR) and a stored PASS (tests/data/fleet/epyc-1g): ck-report's run mode says the verdict
first, --fleet gives the machine that result and flags its command-line errors, --kcidb holds
the run's tests as they ran and an ERROR test command_line (from the serial log, and from the
ck-results summary alone), and the monitors ck-lava renders record command_line as a failing
result. What each must say is read from the log's own lines here (its summary line, its KTAP
results), not from the tools' code.
"""
import json
import os
import re
import shutil

from conftest import ROOT, assert_clean, load_tool, needs_lava, run_tool

DATA = os.path.join(ROOT, "tests", "data")
BAD = os.path.join(DATA, "cmdline-error")
GOOD = os.path.join(DATA, "fleet", "epyc-1g")
ckl = load_tool("ck-lava")


def serial(d):
    with open(os.path.join(d, "serial.log"), encoding="utf-8") as f:
        return f.read()


def summary_fields(text):
    m = re.search(r"^# copykernel-summary: (.*)$", text, re.M)
    return dict(w.split("=", 1) for w in m.group(1).split())


def ktap_results(text):
    """{path: PASS|FAIL|SKIP|ERROR} of the log's KTAP results, read here: a suite's cases as
    suite.case, a top-level result that closes no suite by its own name."""
    out, suite = {}, None
    for line in text.splitlines():
        m = re.match(r"^    # Subtest: (\S+)$", line)
        if m:
            suite = m.group(1)
            continue
        m = re.match(r"^( *)(ok|not ok) \d+ (\S+)(?: # (\S+))?", line)
        if not m:
            continue
        status = "ERROR" if m.group(4) == "ERROR" else "SKIP" if m.group(4) == "SKIP" else \
            "PASS" if m.group(2) == "ok" else "FAIL"
        if m.group(1) == "    ":
            out["%s.%s" % (suite, m.group(3))] = status
        elif not m.group(1):
            out[m.group(3) if suite is None else suite] = status
            suite = None
    return out


def test_the_stored_run_is_an_error():
    text = serial(BAD)
    f = summary_fields(text)
    assert (f["result"], f["reason"], f["cmdline_errors"]) == ("ERROR", "cmdline", "2")
    assert re.findall(r"^    # Subtest: (\S+)$", text, re.M) == ["cpu"]
    with open(os.path.join(BAD, "result.json")) as fh:
        obj = json.load(fh)
    assert (obj["result"], obj["reason"], obj["status"]) == ("ERROR", "cmdline", 3)
    assert obj["cmdline_problems"] == re.findall(r"^# command_line: (.*)$", text, re.M)


def test_run_mode_says_the_verdict(tmp_path):
    log = tmp_path / "run.log"
    shutil.copy(os.path.join(BAD, "serial.log"), log)
    r = run_tool("ck-report", str(log))
    assert_clean(r, "ck-report", allowed=(1,))      # no table kind in a tests=cpu run
    assert "run verdict: ERROR reason=cmdline, 2 command-line errors: the figures are of " \
        "the run as it ran, not of the one that was asked for" in r.err_text, r
    shutil.copy(os.path.join(GOOD, "serial.log"), log)
    r = run_tool("ck-report", str(log))
    assert "run verdict" not in r.err_text + r.out.decode(), r


def fleet(tmp_path, **machines):
    for name, (src, files) in machines.items():
        os.makedirs(tmp_path / name)
        for f in files:
            shutil.copy(os.path.join(src, f), tmp_path / name / f)
    return str(tmp_path)


def test_fleet_flags_the_error(tmp_path):
    d = fleet(tmp_path, bad=(BAD, ["serial.log", "result.json"]),
              good=(GOOD, ["serial.log", "result.json"]))
    r = run_tool("ck-report", "--fleet", d, "--json")
    assert_clean(r, "ck-report", allowed=(0,))
    m = {x["machine"]: x for x in json.loads(r.out)["machines"]}
    assert m["bad"]["result"] == "ERROR" and m["good"]["result"] == "PASS"
    assert "run result ERROR reason=cmdline" in m["bad"]["flags"]
    assert "command line: 2 errors (the run is not the one asked for)" in m["bad"]["flags"]
    assert not any("command line" in f for f in m["good"]["flags"])
    r = run_tool("ck-report", "--fleet", d)
    assert "command line: 2 errors" in r.out.decode()


def test_kcidb_has_the_run_as_it_ran_and_an_error_test(tmp_path):
    want = ktap_results(serial(BAD))
    assert want["command_line"] == "ERROR" and want["cpu"] == "PASS"
    r = run_tool("ck-report", os.path.join(BAD, "serial.log"), "--kcidb", "--machine", "bad")
    assert_clean(r, "ck-report", allowed=(0,))
    tests = {t["path"]: t for t in json.loads(r.out)["tests"]}
    assert {p: t["status"] for p, t in tests.items() if p in want} == want
    assert set(want) <= set(tests)
    cmd = tests["command_line"]
    assert cmd["comment"].startswith("command_line # ERROR 2 command-line errors")
    assert "'tests=cpu,pagign': bad value" in cmd["log_excerpt"]
    # A PASS run has no such test.
    r = run_tool("ck-report", os.path.join(GOOD, "serial.log"), "--kcidb")
    assert "command_line" not in {t["path"] for t in json.loads(r.out)["tests"]}


def test_kcidb_from_the_summary_alone(tmp_path):
    d = fleet(tmp_path, bad=(BAD, ["result.json"]), good=(GOOD, ["result.json"]))
    r = run_tool("ck-report", "--fleet", d, "--kcidb")
    assert_clean(r, "ck-report", allowed=(0,))
    tests = [t for t in json.loads(r.out)["tests"] if t["path"] == "command_line"]
    assert len(tests) == 1 and tests[0]["status"] == "ERROR" and ".bad." in tests[0]["id"]
    with open(os.path.join(BAD, "result.json")) as fh:
        assert tests[0]["misc"]["problems"] == json.load(fh)["cmdline_problems"]


@needs_lava
def test_lava_records_a_failing_command_line():
    lines = serial(BAD).splitlines()
    for cmdline in ("tests=cpu,pagign soak_chunk=48 exit=qemu", "tests=cpu,pagign exit=qemu"):
        got = ckl.monitor_results(ckl.job_monitors(cmdline), lines)["copykernel"]
        want = {k: v.lower().replace("error", "fail")
                for k, v in ktap_results(serial(BAD)).items() if "." in k or k == "command_line"}
        assert got == want and got["command_line"] == "fail", got
    got = ckl.monitor_results(ckl.job_monitors("tests=cpu,tsc,mce exit=qemu"),
                              serial(GOOD).splitlines())["copykernel"]
    assert got and "command_line" not in got and "fail" not in got.values()
