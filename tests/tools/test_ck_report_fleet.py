# SPDX-License-Identifier: GPL-2.0-only
"""tools/ck-report.py --fleet (issue 13) on tests/data/fleet: real runs of the image under
QEMU CPU models and memory sizes, a lava-run log and a hosted run, with one injected outlier
(tests/data/fleet/README.md). The report must flag that one and nothing else; copies of the
set with a stale machine-check error, a failed case or damage must be flagged or refused.
"""
import os
import tempfile

import pytest

from conftest import ROOT, assert_clean, fleet_copy, fleet_machines, run_tool

TOOL = "ck-report"
FLEET = os.path.join(ROOT, "tests", "data", "fleet")
with open(os.path.join(FLEET, "README.md")) as f:
    README = f.read()
# The README names the injected outlier as: injected outlier: MACHINE FIGURE
INJECTED = [ln.split(":", 1)[1].split() for ln in README.splitlines()
            if ln.startswith("injected outlier:")][0]


fleet_json = fleet_machines


@pytest.fixture
def copy():
    with fleet_copy(FLEET) as dst:
        yield dst


def edit(path, old, new):
    with open(path) as f:
        text = f.read()
    assert old in text, (path, old)
    with open(path, "w") as f:
        f.write(text.replace(old, new, 1))


def test_the_stored_fleet_has_enough_machines():
    ms = fleet_json(FLEET)
    assert len(ms) >= 6
    assert len({m["cpu"] for m in ms.values()}) >= 3
    assert any(m["cpu"].endswith("(hosted)") for m in ms.values())
    assert any(s.endswith("lava-run.log") for m in ms.values() for s in m["sources"])


def test_only_the_injected_outlier_is_flagged():
    ms = fleet_json(FLEET)
    machine, figure = INJECTED
    flagged = {n: m["flags"] for n, m in ms.items() if m["flags"]}
    assert list(flagged) == [machine], flagged
    assert len(flagged[machine]) == 1 and flagged[machine][0].startswith(
        "outlier %s:" % figure), flagged


def test_table_has_every_machine_and_the_flag():
    r = run_tool(TOOL, "--fleet", FLEET)
    assert_clean(r, TOOL, allowed=(0,))
    text = r.out.decode()
    for name in fleet_json(FLEET):
        assert "\n%s " % name in "\n" + text
    assert text.count("outlier ") == 1


def test_without_the_injection_nothing_is_flagged(copy):
    machine, figure = INJECTED
    prim = figure.split("/", 1)[1]
    # The untouched value is kept in the README: "original value: N"
    orig = [ln.split(":", 1)[1].strip() for ln in README.splitlines()
            if ln.startswith("original value:")][0]
    log = os.path.join(copy, machine, "serial.log")
    with open(log) as f:
        lines = f.read().split("\n")
    for i, ln in enumerate(lines):
        if '"kind":"quick","primitive":"%s"' % prim in ln:
            head, _ = ln.rsplit('"mb_per_s":', 1)
            lines[i] = head + '"mb_per_s":%s}' % orig
    with open(log, "w") as f:
        f.write("\n".join(lines))
    assert {n: m["flags"] for n, m in fleet_json(copy).items() if m["flags"]} == {}


def test_stale_machine_checks_are_flagged(copy):
    name = sorted(n for n in os.listdir(copy) if n.startswith("epyc") and n != INJECTED[0])[0]
    edit(os.path.join(copy, name, "serial.log"), "0 stale banks cleared",
         "2 stale banks cleared")
    ms = fleet_json(copy)
    assert any(f.startswith("stale machine-check errors: 2") for f in ms[name]["flags"])
    assert sum(bool(m["flags"]) for m in ms.values()) == 2


def test_failed_cases_are_flagged(copy):
    name = sorted(n for n in os.listdir(copy) if n.startswith("epyc"))[-1]
    edit(os.path.join(copy, name, "serial.log"), "    ok 1 identity",
         "    not ok 1 identity")
    ms = fleet_json(copy)
    assert ms[name]["failed"] == ["cpu.identity"], ms[name]
    assert any(f.startswith("failed: cpu.identity") for f in ms[name]["flags"])


def test_failed_lava_result_is_flagged(copy):
    log = os.path.join(copy, "qemu-max-lava", "lava-run.log")
    edit(log, '"test_case_id": "tsc.monotonic"}, "level": "3.1", "result": "pass"',
         '"test_case_id": "tsc.monotonic"}, "level": "3.1", "result": "fail"')
    ms = fleet_json(copy)
    assert "LAVA tsc.monotonic" in ms["qemu-max-lava"]["failed"]


def test_plot(copy):
    with tempfile.TemporaryDirectory() as out:
        r = run_tool(TOOL, "--fleet", copy, "--plot", out)
        assert_clean(r, TOOL, allowed=(0,))
        pytest.importorskip("matplotlib")
        assert os.path.getsize(os.path.join(out, "fleet.png")) > 1000


def test_bad_input_and_usage(copy):
    assert_clean(run_tool(TOOL, "--fleet", os.path.join(copy, "nope")), TOOL, allowed=(3,))
    with open(os.path.join(copy, "broken.json"), "w") as f:
        f.write('{"schema": 1, "status": ')
    assert_clean(run_tool(TOOL, "--fleet", copy), TOOL, allowed=(3,))
    with tempfile.TemporaryDirectory() as empty:
        assert_clean(run_tool(TOOL, "--fleet", empty), TOOL, allowed=(1,))
    # usage errors: argparse's usage text and status 2
    assert run_tool(TOOL, "--json", os.path.join(FLEET, "sky-1g", "serial.log")).status == 2
    assert run_tool(TOOL, "--fleet", FLEET, FLEET).status == 2


@pytest.mark.parametrize("machine,name", [("epyc-1g", "result.json"),
                                          ("epyc-1g", "serial.log"),
                                          ("qemu-max-lava", "lava-run.log"),
                                          ("hosted", "bench.jsonl")])
def test_damaged_files_keep_the_contract(copy, machine, name):
    """Cuts and byte flips of every kind of file: a documented status, one line, no
    traceback (damage a reader cannot see, in console text, may still give status 0)."""
    path = os.path.join(copy, machine, name)
    with open(path, "rb") as f:
        data = f.read()
    for i, cut in enumerate([len(data) // 7, len(data) // 3, len(data) // 2, len(data) - 3]):
        for damaged in (data[:cut], data[:cut] + b"\xff" + data[cut + 1:],
                        data[:cut] + b'"' + data[cut + 1:]):
            with open(path, "wb") as f:
                f.write(damaged)
            assert_clean(run_tool(TOOL, "--fleet", copy), TOOL, allowed=(0, 3))


def test_a_wrongly_typed_summary_is_bad_input(copy):
    edit(os.path.join(copy, "epyc-1g", "result.json"), '"family": 23', '"family": "23"')
    assert_clean(run_tool(TOOL, "--fleet", copy), TOOL, allowed=(3,))


@pytest.mark.parametrize("value", ["1.0", "true", '"1"', "2"])
def test_a_summary_whose_schema_is_not_the_integer_1_is_bad_input(copy, value):
    """ck-results writes "schema": 1 (an integer); 1.0 is another document."""
    edit(os.path.join(copy, "epyc-1g", "result.json"), '"schema": 1,', '"schema": %s,' % value)
    r = run_tool(TOOL, "--fleet", copy)
    assert_clean(r, TOOL, allowed=(3,))
    assert "epyc-1g" in r.err_text and "schema 1" in r.err_text, r


@pytest.mark.parametrize("line", ["result=FAIL suites=3 pass=17 fail=1",
                                  "result=ERROR reason=cmdline suites=3 pass=18 fail=0"])
def test_a_run_whose_summary_is_not_a_pass_is_flagged(copy, line):
    """The summary line's verdict, whatever the word: only PASS is a clean run."""
    edit(os.path.join(copy, "epyc-1g", "serial.log"), "result=PASS suites=3 pass=18 fail=0",
         line)
    ms = fleet_json(copy)
    word = line.split()[0].split("=")[1]
    assert ms["epyc-1g"]["result"] == word
    # ERROR's reason follows its word (cklib/fleet.py): "run result ERROR reason=cmdline".
    assert "run result %s" % " ".join(line.split()[:2] if word == "ERROR" else [word]).replace(
        "result=", "") in ms["epyc-1g"]["flags"], ms["epyc-1g"]["flags"]


def cut_after(path, line):
    """Keep @path up to and including its first line that starts with @line."""
    with open(path) as f:
        lines = f.read().splitlines(True)
    keep = next(i for i, ln in enumerate(lines) if ln.startswith(line))
    with open(path, "w") as f:
        f.writelines(lines[:keep + 1])


def test_a_run_whose_log_ends_before_its_summary_is_flagged_unfinished(copy):
    """A hang: the log stops, and no summary was stored (the JSON summary is written at the
    run's end); the flag quotes the log's last line."""
    os.remove(os.path.join(copy, "epyc-1g", "result.json"))
    cut_after(os.path.join(copy, "epyc-1g", "serial.log"), "    # Subtest: tsc")
    ms = fleet_json(copy)
    assert ms["epyc-1g"]["result"] is None
    assert ms["epyc-1g"]["flags"] == [
        "unfinished: the log ends before the run's summary (last line: '# Subtest: tsc')"]


def test_a_run_that_stopped_before_its_summary_says_its_exit_status(copy):
    """A panic: the exit status came, the summary did not."""
    os.remove(os.path.join(copy, "epyc-1g", "result.json"))
    path = os.path.join(copy, "epyc-1g", "serial.log")
    cut_after(path, "    # Subtest: tsc")
    with open(path, "a") as f:
        f.write("PANIC: unexpected exception 6 #UD\ncopykernel: exit status 2 (panic)\n")
    assert fleet_json(copy)["epyc-1g"]["flags"] == [
        "unfinished: exit status 2 (panic) before the run's summary"]


def test_a_lava_failure_that_ktap_also_says_counts_once(copy):
    """lava-run's log: a case failed in KTAP and in LAVA's result is one failure; a LAVA
    failure of a case KTAP passed stays a failure of its own."""
    log = os.path.join(copy, "qemu-max-lava", "lava-run.log")
    edit(log, '"msg": "    ok 4 monotonic"', '"msg": "    not ok 4 monotonic"')
    edit(log, '"test_case_id": "tsc.monotonic"}, "level": "3.1", "result": "pass"',
         '"test_case_id": "tsc.monotonic"}, "level": "3.1", "result": "fail"')
    m = fleet_json(copy)["qemu-max-lava"]
    assert m["failed"] == ["tsc.monotonic"], m["failed"]
    assert m["lava"]["problems"] == [] and m["lava"]["results"]["fail"] == 1
