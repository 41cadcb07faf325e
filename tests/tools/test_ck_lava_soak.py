# SPDX-License-Identifier: GPL-2.0-only
"""tools/ck-lava.py and the soak (issue 19): a job's monitor timeout derived from soak= and
refused past the monitor limit, and the soak monitor run over real serial logs of the image
(tests/data/soak-fleet) and checked against lava-run's own record of a soak job.

The expected results come from the logs themselves: the soak's KTAP cases and its
`# copykernel-soak: result=` line, never from the monitor's patterns.
"""
import glob
import math
import os
import re
import tempfile

import pytest
from hypothesis import given, strategies as st

from conftest import ROOT, assert_clean, load_tool, needs_lava, run_tool, yaml

TOOL = "ck-lava"
ckl = load_tool(TOOL)
SOAK_FLEET = os.path.join(ROOT, "tests", "data", "soak-fleet")
SERIALS = sorted(glob.glob(os.path.join(SOAK_FLEET, "*", "serial.log")))
LAVA_LOG = os.path.join(SOAK_FLEET, "qemu-max-lava", "lava-run.log")



def serial_of(path):
    with open(path, encoding="utf-8") as f:
        lines = [ln.lstrip("\x1b") for ln in f.read().splitlines()]
    if path == LAVA_LOG:
        lines, _, _ = ckl.lava_log(lines)
    return lines


def cmdline_of(lines):
    """The command line the run was given, as the image quotes it."""
    for ln in lines:
        m = re.match(r"^cmdline: from \S+: '(.*)'$", ln)
        if m:
            return m.group(1)
    raise AssertionError("no cmdline line")


def expected_soak(lines):
    """{id: result} of the soak from the log: its KTAP cases and its summary line."""
    start = next(i for i, ln in enumerate(lines) if ln.startswith("soak: soak="))
    cases = {k: v for k, v in ckl.ktap_cases(lines[start:]).items() if k.startswith("soak.")}
    verdict = [re.match(r"^# copykernel-soak: result=(PASS|FAIL) ", ln) for ln in lines]
    verdict = [m.group(1).lower() for m in verdict if m]
    assert cases and len(verdict) == 1
    return {**cases, "soak": verdict[0]}


def run_monitors(monitors, lines):
    """LAVA's monitors in turn over @lines (cklib.lavaids.monitor_results)."""
    return ckl.monitor_results(monitors, lines)


def render(*args):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "job.yaml")
        st_ = ckl.main(["job", "--template", "qemu-kernel", "--image-url", "file:///x.efi",
                        "-o", out] + list(args))
        if st_:
            return st_, None
        with open(out) as f:
            return 0, yaml.safe_load(f.read())


def test_the_stored_logs_hold_soaks():
    assert len(SERIALS) >= 4
    results = [expected_soak(serial_of(p))["soak"] for p in SERIALS + [LAVA_LOG]]
    assert "pass" in results and "fail" in results


@needs_lava
@pytest.mark.parametrize("path", SERIALS + [LAVA_LOG], ids=lambda p: os.path.basename(os.path.dirname(p)))
def test_the_soak_monitor_records_what_the_log_says(path):
    """The rendered job's monitors over a real run: the soak monitor gets each soak case and
    the verdict; the suites' monitor (when there is one) gets no soak result."""
    lines = serial_of(path)
    cmdline = cmdline_of(lines)
    status, job = render("--cmdline", cmdline, "--test-minutes", "60")
    assert status == 0
    monitors = [a["test"]["monitors"] for a in job["actions"] if "test" in a][0]
    got = run_monitors(monitors, lines)
    assert got.get("copykernel-soak") == expected_soak(lines)
    suites = got.get("copykernel")
    assert suites is not None, "the suites' monitor is always there (it holds command_line)"
    assert not any(k == "soak" or k.startswith("soak.") for k in suites), suites
    if cmdline.startswith("tests=none"):
        assert suites == {}, suites
    else:
        assert suites == ckl.ktap_cases(lines[:next(i for i, ln in enumerate(lines)
                                                     if ln.startswith("soak: soak="))])


def test_lava_recorded_the_soak_as_its_log_says():
    """lava-run's results of a real soak job (make lava-check's comparison) agree with the
    run's KTAP and soak summary; without the summary's verdict they would not."""
    with open(LAVA_LOG, encoding="utf-8") as f:
        serial, results, finished = ckl.lava_log(f.read().splitlines())
    assert finished
    assert "soak" in results and any(k.startswith("soak.") for k in results)
    assert ckl.soak_verdict(serial) == {"soak": "pass"}
    assert ckl.compare({**ckl.ktap_cases(serial), **ckl.soak_verdict(serial)}, results) == []


def test_the_soak_pattern_never_matches_a_partial_line():
    lines = {ln for p in SERIALS for ln in serial_of(p) if "ck-lava <soak" in ln}
    assert len(lines) >= 3
    for line in lines:
        assert re.search(ckl.SOAK_PATTERN, line)
        for cut in range(len(line)):
            assert not re.search(ckl.SOAK_PATTERN, line[:cut]), (line, cut)


def monitor_minutes(job):
    return [a["test"]["timeout"]["minutes"] for a in job["actions"] if "test" in a][0]


@needs_lava
@given(st.sampled_from(["s", "m", "h"]), st.integers(1, 24 * 3600))
def test_a_duration_soak_gets_a_monitor_that_covers_it(unit, n):
    """The monitor outlasts the soak by at least 5 minutes (boot, report), the job outlasts
    the monitor, and a soak that cannot fit in a 24 h monitor is refused with status 2."""
    secs = n * {"s": 1, "m": 60, "h": 3600}[unit]
    if secs > 7 * 24 * 3600:
        return
    status, job = render("--preset", "soak", "--soak", f"{n}{unit}")
    if status == 0:
        minutes = monitor_minutes(job)
        assert minutes * 60 >= secs + 5 * 60
        assert minutes <= math.ceil(secs / 60) + 15
        assert minutes <= 24 * 60
        assert job["timeouts"]["job"]["minutes"] > minutes
    else:
        assert status == 2
        assert secs + 5 * 60 > 24 * 3600


@pytest.mark.parametrize("args,fits", [
    (["--preset", "soak", "--soak", "23h"], True),
    (["--preset", "soak", "--soak", "1430m"], True),        # 1430 + 10 = 1440
    (["--cmdline", "tests=all soak=1430m"], False),         # 1430 + 15 for the suites
    (["--preset", "soak", "--soak", "24h"], False),
    (["--preset", "soak", "--soak", "168h"], False),
    (["--preset", "soak", "--soak", "passes:3"], False),    # no duration to derive from
    (["--preset", "soak", "--soak", "passes:3", "--test-minutes", "40"], True),
    (["--preset", "soak", "--soak", "2h", "--test-minutes", "100"], False),
    (["--preset", "soak", "--soak", "1h30m"], False),
    (["--preset", "bringup", "--soak", "1h"], False),
    (["--cmdline", "tests=none soak=1h bench=rfc"], False),
])
def test_soak_jobs_are_refused_with_status_2_when_they_cannot_fit(args, fits):
    r = run_tool(TOOL, "job", "--template", "ipxe", "--image-url", "http://lab/ck.efi", *args)
    assert_clean(r, TOOL, allowed=(0,) if fits else (2,))
    if not fits and "24h" in args:
        assert "1440 minutes" in r.err_text and "24 h" in r.err_text, r.err_text


@needs_lava
@pytest.mark.parametrize("template", sorted(ckl.TEMPLATES))
def test_a_soak_after_the_suites_validates_everywhere(template):
    r = run_tool(TOOL, "job", "--template", template, "--cmdline", "tests=all soak=2h exit=reset",
                 "--image-url", "http://lab/copykernel.efi", "--disk-url", "http://lab/ck.img")
    assert_clean(r, TOOL, allowed=(0,))
    job = yaml.safe_load(r.out)
    assert monitor_minutes(job) * 60 >= 2 * 3600 + 5 * 60
    names = [m["name"] for a in job["actions"] if "test" in a for m in a["test"]["monitors"]]
    assert names == ["copykernel", "copykernel-soak"]
