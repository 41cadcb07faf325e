# SPDX-License-Identifier: GPL-2.0-only
"""tools/ck-lava.py (issue 13): job rendering checked by LAVA's schema, the monitor patterns
against the image's result lines, and the KTAP-against-LAVA comparison of make lava-check.

Rendering and validation need Debian's python3-jinja2, python3-yaml and lava-common (from
lava-dispatcher); without them those tests skip. Rendering a device also needs lava-server's
device-type templates (installed, or unpacked by make lava-check into build/lava).
"""
import os
import re
import tempfile

import pytest

from conftest import ROOT, assert_clean, load_tool, needs_lava, run_tool, yaml

TOOL = "ck-lava"
ckl = load_tool(TOOL)


TEMPLATE_DIRS = [ckl.SERVER_TEMPLATES,
                 os.path.join(ROOT, "build", "lava", "lava-server", "usr", "share",
                              "lava-server", "device-types")]
TEMPLATES = next((d for d in TEMPLATE_DIRS if os.path.isfile(os.path.join(d, "base.jinja2"))),
                 None)

# What the image prints (ktest/lib/ktap.c, bench/image.c), KTAP and LAVA lines together.
SERIAL = """\
KTAP version 1
1..2
    KTAP version 1
    # Subtest: mce
    1..3
    ok 1 mca_enabled
    # ck-lava <mce.mca_enabled pass>
        KTAP version 1
        # Subtest: grading_rules_intel
        1..3
        ok 1 processor context corrupt (PCC)
        # ck-lava <mce.grading_rules_intel.processor_context_corrupt_pcc pass>
        not ok 2 corrected error
        # ck-lava <mce.grading_rules_intel.corrected_error fail>
        ok 3 corrected error
        # ck-lava <mce.grading_rules_intel.corrected_error_2 pass>
    not ok 2 grading_rules_intel
    # ck-lava <mce.grading_rules_intel fail>
    ok 3 einj_table # SKIP no EINJ table
    # ck-lava <mce.einj_table skip>
not ok 1 mce
    KTAP version 1
    # Subtest: tsc
    1..1
    ok 1 monotonic
    # ck-lava <tsc.monotonic pass>
ok 2 tsc
# Totals: pass:2 fail:1 skip:1 total:4
# ck-lava <bench.rfc.folio_copy.batched.node0-node0.2m.cold pass 6740 MB/s>
copykernel: exit status 1 (some tests failed)
"""
EXPECTED = {
    "mce.mca_enabled": "pass",
    "mce.grading_rules_intel.processor_context_corrupt_pcc": "pass",
    "mce.grading_rules_intel.corrected_error": "fail",
    "mce.grading_rules_intel.corrected_error_2": "pass",
    "mce.grading_rules_intel": "fail",
    "mce.einj_table": "skip",
    "tsc.monotonic": "pass",
}


# A run whose command line had errors (init/main.c, ktest/lib/ktap.c): its suites, then the
# run's own failing test, in the same KTAP document.
BAD_CMDLINE = """\
cmdline: in effect: tests=tsc console=ttyS0,115200 exit=qemu crash=none (after errors above)
memory: 487 MiB free for tests
KTAP version 1
1..2
    KTAP version 1
    # Subtest: tsc
    1..1
    ok 1 monotonic
    # ck-lava <tsc.monotonic pass>
ok 1 tsc
# command_line: 'tests=tsc,pagign': bad value (unknown suite 'pagign'); running only the ...
not ok 2 command_line # ERROR 1 command-line error: not the run that was asked for
# ck-lava <command_line fail>
# Totals: pass:1 fail:0 skip:0 error:1 total:2
# copykernel-summary: result=ERROR reason=cmdline suites=1 pass=1 fail=0 skip=0 cmdline_errors=1 results=stored
copykernel: exit status 3 (bad command line)
"""
# tests=none and a bad word: no suite, the command line's test alone.
BAD_CMDLINE_NONE = """\
memory: 487 MiB free for tests
KTAP version 1
1..1
# command_line: 'soak=15q': bad value (unknown unit); using the default 'off'
not ok 1 command_line # ERROR 1 command-line error: not the run that was asked for
# ck-lava <command_line fail>
# Totals: pass:0 fail:0 skip:0 error:1 total:1
copykernel: exit status 3 (bad command line)
"""


def lava_lines(text, pattern):
    """What a LAVA monitor with @pattern would record from @text, line by line."""
    out = {}
    for line in text.splitlines():
        m = re.search(pattern, line + "\r\r\n")
        if m:
            out[m.group("test_case_id")] = m.groupdict()
    return out


def test_ktap_ids_are_the_ids_the_image_prints():
    assert ckl.ktap_cases(SERIAL.splitlines()) == EXPECTED
    got = {k: v["result"] for k, v in lava_lines(SERIAL, ckl.PATTERN).items()}
    assert got == EXPECTED
    assert ckl.compare(EXPECTED, got) == []


def test_the_command_line_test_is_an_id():
    """The run's own failing test is a top-level KTAP result that closes no suite: its id is
    its name, for KTAP and for the monitor alike."""
    want = {"tsc.monotonic": "pass", "command_line": "fail"}
    assert ckl.ktap_cases(BAD_CMDLINE.splitlines()) == want
    got = {k: v["result"] for k, v in lava_lines(BAD_CMDLINE, ckl.PATTERN).items()}
    assert got == want
    assert ckl.ktap_cases(BAD_CMDLINE_NONE.splitlines()) == {"command_line": "fail"}
    # A suite's own result is never taken for a test of the run.
    assert "tsc" not in ckl.ktap_cases(SERIAL.splitlines())


@needs_lava
@pytest.mark.parametrize("serial,cmdline", [(BAD_CMDLINE, "tests=tsc,pagign exit=qemu"),
                                            (BAD_CMDLINE_NONE, "tests=none soak=15q exit=qemu"),
                                            (BAD_CMDLINE_NONE, "tests=none soak=1h frobnicate=1")])
@pytest.mark.parametrize("template", sorted(ckl.TEMPLATES))
def test_a_bad_command_line_is_a_failing_result(serial, cmdline, template):
    """The job's monitors, as rendered, over the run: a failing command_line result in the
    copykernel monitor, so the job is never a clean Complete."""
    r = run_tool(TOOL, "job", "--template", template, "--cmdline", cmdline, "--test-minutes",
                 "90", "--image-url", "http://lab/copykernel.efi", "--disk-url",
                 "http://lab/ck.img")
    if "15q" in cmdline:        # a soak= the tool itself cannot size: refused at once
        assert_clean(r, TOOL, allowed=(2,))
        assert b"soak" in r.err
        return
    assert_clean(r, TOOL, allowed=(0,))
    job = yaml.safe_load(r.out)
    monitors = [a["test"]["monitors"] for a in job["actions"] if "test" in a][0]
    got = ckl.monitor_results(monitors, serial.splitlines())
    assert got["copykernel"].get("command_line") == "fail", got


def test_bench_pattern_takes_figures_only():
    got = lava_lines(SERIAL, ckl.BENCH_PATTERN)
    assert list(got) == ["bench.rfc.folio_copy.batched.node0-node0.2m.cold"]
    rec = got["bench.rfc.folio_copy.batched.node0-node0.2m.cold"]
    assert (rec["result"], rec["measurement"], rec["units"]) == ("pass", "6740", "MB/s")
    assert not any(k.startswith("bench.") for k in lava_lines(SERIAL, ckl.PATTERN))


@pytest.mark.parametrize("pattern", ["PATTERN", "BENCH_PATTERN"])
def test_a_line_still_arriving_never_matches(pattern):
    """pexpect matches while a line arrives: no prefix of a line may match (the '>' anchor)."""
    for line in SERIAL.splitlines():
        if "ck-lava <" not in line:
            continue
        for cut in range(len(line)):
            assert not re.search(getattr(ckl, pattern), line[:cut]), (line, cut)


def test_compare_names_every_mismatch():
    lava = dict(EXPECTED)
    lava["mce.einj_table"] = "pass"          # a skip LAVA took for a pass
    del lava["tsc.monotonic"]                # a case LAVA lost
    lava["tsc.extra"] = "pass"               # a result KTAP does not have
    bad = ckl.compare(EXPECTED, lava)
    assert len(bad) == 3, bad
    assert any(b.startswith("mce.einj_table: KTAP skip, LAVA pass") for b in bad)
    assert any(b.startswith("tsc.monotonic:") for b in bad)
    assert any(b.startswith("tsc.extra:") for b in bad)


def test_ktap_rejects_repeated_ids():
    text = SERIAL.replace("ok 1 monotonic", "ok 1 monotonic\n    ok 2 monotonic")
    with pytest.raises(ValueError):
        ckl.ktap_cases(text.splitlines())


@pytest.mark.parametrize("name,want", [
    ("mca_enabled", "mca_enabled"), ("processor context corrupt (PCC)",
                                     "processor_context_corrupt_pcc"),
    ("per-page copy_page", "per-page_copy_page"), ("  a..b  ", "a_b"), ("", "_"),
    ("(#)", "_"), ("256K", "256k")])
def test_slug_is_ck_slug(name, want):
    """The same rows as tests/host/test_format.c's test_slug."""
    assert ckl.slug(name) == want


def test_slug_truncates_as_ck_slug():
    assert ckl.slug("abc def ghi", 5) == "abc"
    assert len(ckl.slug("x" * 200)) == 63


def test_lava_log_reads_tagged_lines():
    log = "\n".join([
        '{"dt": "t", "lvl": "target", "msg": "    ok 1 monotonic"}',
        '{"dt": "t", "lvl": "results", "msg": {"case": "tsc_monotonic", "definition": '
        '"copykernel", "extra": {"test_case_id": "tsc.monotonic"}, "level": "3.1", '
        '"result": "pass", "size": ! "3"}}',
        '{"dt": "t", "lvl": "info", "msg": "Job finished correctly"}',
        '{"dt": "t", "lvl": "results", "msg": {"case": "job", "definition": "lava", '
        '"result": "pass"}}',
    ])
    serial, results, finished = ckl.lava_log(log.splitlines())
    assert serial == ["    ok 1 monotonic"]
    assert results == {"tsc.monotonic": "pass"}
    assert finished
    _, _, finished = ckl.lava_log(log.replace('"result": "pass"}}', '"result": "fail"}}')
                                  .splitlines())
    assert not finished


@pytest.mark.parametrize("cmdline", ["tests='all'", "tests=all {KERNEL}", "tests=a\"b",
                                     "justaword", "", "tests=all #x"])
def test_bad_command_lines_are_refused(cmdline):
    r = run_tool(TOOL, "job", "--template", "qemu-kernel", "--image-url", "file:///x.efi",
                 "--cmdline", cmdline)
    assert_clean(r, TOOL, allowed=(2,))


@needs_lava
@pytest.mark.parametrize("template", sorted(ckl.TEMPLATES))
@pytest.mark.parametrize("preset", sorted(ckl.PRESETS))
def test_every_template_and_preset_validates(template, preset):
    r = run_tool(TOOL, "job", "--template", template, "--preset", preset,
                 "--image-url", "http://lab/copykernel.efi", "--disk-url", "http://lab/ck.img")
    assert_clean(r, TOOL, allowed=(0,))
    job = yaml.safe_load(r.out)
    cmdline = ckl.PRESETS[preset][0].format(soak=ckl.SOAK_DEFAULT)
    text = r.out.decode()
    # The command line reaches the image the template's way, and nowhere a half of it.
    where = {"qemu-kernel": f'-append "{cmdline}"', "ipxe": f"{{KERNEL}} {cmdline}'",
             "grub": f"{{KERNEL}} {cmdline}'", "qemu-disk": f"command line: {cmdline}\n"}
    assert where[template] in text
    monitors = [a["test"]["monitors"] for a in job["actions"] if "test" in a][0]
    names = [m["name"] for m in monitors]
    assert names[0] == "copykernel" and monitors[0]["pattern"] == ckl.PATTERN
    assert ("copykernel-soak" in names) == ("soak=" in cmdline)
    assert ("copykernel-bench" in names) == ("bench=" in cmdline and "bench=none" not in cmdline)


@needs_lava
def test_lava_schema_rejects_a_broken_job():
    with tempfile.TemporaryDirectory() as tmp:
        r = run_tool(TOOL, "job", "--template", "qemu-kernel", "--preset", "bringup",
                     "--image-url", "file:///x.efi", "-o", os.path.join(tmp, "job.yaml"))
        assert_clean(r, TOOL, allowed=(0,))
        good = open(os.path.join(tmp, "job.yaml")).read()
        r = run_tool(TOOL, "validate", os.path.join(tmp, "job.yaml"))
        assert r.status == 0, r
        for broken in (good.replace("method: qemu", "method: qemoo"),
                       good.replace("name: copykernel", "name: 'copy kernel!'"),
                       good.replace("device_type: qemu\n", "")):
            assert broken != good
            with open(os.path.join(tmp, "bad.yaml"), "w") as f:
                f.write(broken)
            r = run_tool(TOOL, "validate", os.path.join(tmp, "bad.yaml"))
            assert_clean(r, TOOL, allowed=(1,))


def test_template_needs_its_image():
    r = run_tool(TOOL, "job", "--template", "qemu-disk", "--preset", "bringup",
                 "--image-url", "file:///x.efi")
    assert_clean(r, TOOL, allowed=(2,))
    r = run_tool(TOOL, "job", "--template", "ipxe", "--preset", "bringup", "--device-type",
                 "qemu", "--image-url", "file:///x.efi")
    assert_clean(r, TOOL, allowed=(2,))


@needs_lava
@pytest.mark.skipif(TEMPLATES is None, reason="no lava-server device-type templates here")
@pytest.mark.parametrize("device", ["qemu-ovmf", "qemu-ovmf-kvm", "qemu-penryn", "qemu-epyc",
                                    "x86-ipxe", "x86-grub"])
def test_rendered_devices_are_current(device):
    r = run_tool(TOOL, "device", device, "--templates", TEMPLATES)
    assert_clean(r, TOOL, allowed=(0,))
    with open(os.path.join(ROOT, "lava", "devices", "rendered", device + ".yaml"), "rb") as f:
        assert r.out == f.read()
    r = run_tool(TOOL, "validate", "--device",
                 os.path.join(ROOT, "lava", "devices", "rendered", device + ".yaml"))
    assert r.status == 0, r


def test_bench_figures_compare_with_value():
    log = ('{"dt": "t", "lvl": "results", "msg": {"case": "x", "definition": '
           '"copykernel-bench", "extra": {"test_case_id": '
           '"bench.rfc.folio_copy.batched.node0-node0.2m.cold"}, "measurement": "6740", '
           '"result": "pass", "units": "MB/s"}}')
    _, results, _ = ckl.lava_log([log])
    figures = ckl.bench_figures(SERIAL.splitlines())
    assert figures == {"bench.rfc.folio_copy.batched.node0-node0.2m.cold": "pass 6740 MB/s"}
    assert ckl.compare(figures, results) == []
    _, results, _ = ckl.lava_log([log.replace('"6740"', '"6741"')])
    assert len(ckl.compare(figures, results)) == 1
