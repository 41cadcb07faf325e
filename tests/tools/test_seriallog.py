# SPDX-License-Identifier: GPL-2.0-only
"""tools/cklib/seriallog.py: the one reader of the image's serial log that ck-report's fleet
and KCIDB output, the LAVA ids and tools/ktap-check.py share. Its readers and the validator
read one KTAP grammar; a verdict word of the summary line is one the image prints.
"""
import glob
import io
import json
import os
import re
import tempfile

from conftest import ROOT, fleet_copy, fleet_machines, load_tool, run_tool
from cklib import lavaids, seriallog

DATA = os.path.join(ROOT, "tests", "data")
KTAP_CHECK = load_tool("ktap-check")


def test_the_verdicts_are_the_words_the_image_prints():
    """VERDICTS holds each word init/main.c's summary line can print after result= (a
    verdict the image learns goes into VERDICTS too), and only PASS is a clean run."""
    with open(os.path.join(ROOT, "init", "main.c")) as f:
        src = f.read()
    call = re.search(r'printk\("# copykernel-summary: result=%s.*?\);', src, re.S)
    assert call, "init/main.c no longer prints the summary line as this test reads it"
    words = set(re.findall(r'"([A-Z]+)"', call.group(0)))
    assert words and words == set(seriallog.VERDICTS), words
    assert {w for w in words if seriallog.passed(w)} == {"PASS"}
    assert not seriallog.passed(None) and not seriallog.passed("SOMETHING")


def test_the_summary_line_is_read_word_by_word():
    log = seriallog.read(["# copykernel-summary: result=ERROR reason=cmdline suites=0 "
                          "pass=0 fail=0 skip=0 cmdline_errors=1 results=stored\r\n"])
    s = log.first("summary")
    assert s.result == "ERROR" and s.fields["reason"] == "cmdline"
    assert s.fields["cmdline_errors"] == "1" and s.fields["results"] == "stored"


def stored_logs():
    return sorted(glob.glob(os.path.join(DATA, "fleet", "*", "serial.log")) +
                  glob.glob(os.path.join(DATA, "soak-fleet", "*", "serial.log")))


def test_the_readers_see_every_result_ktap_check_counts():
    """One grammar: in every stored log, the results a reader takes inside the KTAP document
    are the results ktap-check counted."""
    for path in stored_logs():
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        checker = KTAP_CHECK.check(lines, strict=True)
        assert KTAP_CHECK.report(checker, path, io.StringIO()) == 0, path
        start = lines.index("KTAP version 1")
        doc = lines[start:checker.done_line]
        results = seriallog.read(doc).all("result")
        assert len(results) == checker.tests + checker.subtests > 0, path


STRAY = ["KTAP version 1", "1..1", "    KTAP version 1", "    # Subtest: copy", "    1..2",
         "    ok 1 first", "    not ok 2 second#3 went wrong", "not ok 1 copy"]


def test_a_not_ok_with_a_stray_hash_is_still_a_failure_everywhere():
    """ktap-check calls the name malformed; every reader still counts the failure (a FAIL is
    never lost to a typo)."""
    checker = KTAP_CHECK.check(STRAY)
    assert any("'#' inside the test name" in m for _, _, m in checker.problems)
    assert lavaids.ktap_cases(STRAY) == {"copy.first": "pass", "copy.second": "fail"}
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "stray.log")
        with open(path, "w") as f:
            f.write("\n".join(STRAY) + "\n")
        r = run_tool("ck-report", "--kcidb", path)
        assert r.status == 0, r
    tests = {t["path"]: t["status"] for t in json.loads(r.out)["tests"]}
    assert tests == {"copy.first": "PASS", "copy.second": "FAIL", "copy": "FAIL"}
    with fleet_copy(os.path.join(DATA, "fleet")) as copy:
        with open(os.path.join(copy, "epyc-1g", "serial.log"), "a") as f:
            f.write("\n".join(STRAY) + "\n")
        assert fleet_machines(copy)["epyc-1g"]["failed"] == ["copy.second"]
