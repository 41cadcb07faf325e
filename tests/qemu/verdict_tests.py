# SPDX-License-Identifier: GPL-2.0-only
"""verdict_tests.py - a command line the image cannot read is never a PASS, anywhere it
reports (issue 37).

check_verdict() holds one boot to one verdict in every output the run has: the summary line
(`result=ERROR reason=cmdline` and its count), the KTAP document (strict; the failing
top-level command_line test whose diagnostic lines name each word and what was taken, its
LAVA line, the totals' error:1), the exit status, the JSON summary read back from the UEFI
variable store with tools/ck-results.py (result, reason, cmdline_problems: the same lines as
KTAP's), ck-report on the log (the run's tables say the verdict; --fleet flags it; --kcidb
has the run's tests as they ran and command_line as ERROR) and the LAVA monitors
tools/ck-lava.py renders for the command line, run over the log as lava-dispatcher runs them
(a failing command_line result, so the job is no clean Complete). A run with no error is held
to PASS in the same places.

The boots: the issue's files (UTF-8 with a byte-order mark; UTF-16LE with one, CRLF lines)
run exactly tests=cpu and PASS; UTF-16 that cannot be read (a character that is not ASCII,
a NUL before the end) and `tests=none soak=15q` are ERROR. The other error classes' boots
(every key's bad value, an unknown key, an unknown suite, a file too large, NUL and UTF-8
bytes) call check_verdict from boot_tests, reference_tests and status_tests.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from qemu_boot import (CMDLINE, PASS, ROOT, SUMMARY, TOTALS, check_ktap, check_ktap_strict,
                       load_tool)

VARS = "/usr/share/OVMF/OVMF_VARS_4M.fd"
# ck-lava's job for the run's command line carries these monitors (a word ck-lava refuses in
# a job, such as one without '=', is left out: the monitors do not depend on it).
LAVA = load_tool("ck-lava")


def tool(name, *args):
    return subprocess.run([sys.executable, os.path.join(ROOT, "tools", name + ".py")] +
                          list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, timeout=300)


def run_file(b, data, vars_fd=None):
    """Boot with @data, byte for byte, as EFI/BOOT/copykernel.cmdline."""
    with tempfile.NamedTemporaryFile(prefix="ck-cmdline-", delete=False) as f:
        f.write(data)
    try:
        b.run("", runner_args=["--cmdline-file", f.name] +
              (["--vars", vars_fd] if vars_fd else []))
    finally:
        os.unlink(f.name)


def ktap_briefs(b):
    """The command_line test's diagnostic lines: one per error, in the order found."""
    return re.findall(r"^# command_line: (.*)$", b.log, re.M)


def check_summary_and_ktap(b, verdict, briefs):
    """The summary line, the KTAP document and the exit status say @verdict; the command
    line's test names @briefs (regexes, one per error, in order)."""
    b.status_is(CMDLINE if verdict == "ERROR" else PASS)
    check_ktap(b)
    check_ktap_strict(b)
    s = b.has(SUMMARY)
    if s:
        b.expect(s.group(1) == verdict and int(s.group(7)) == len(briefs),
                 "summary: result=%s cmdline_errors=%s, want %s and %d" % (
                     s.group(1), s.group(7), verdict, len(briefs)))
    have = ktap_briefs(b)
    b.expect(len(have) == len(briefs) and
             all(re.fullmatch(w, h) for w, h in zip(briefs, have)),
             "command_line names %r, want %r" % (have, briefs))
    b.expect(bool(re.search(r"^# copykernel-summary: result=ERROR reason=cmdline ", b.log,
                            re.M)) == (verdict == "ERROR"), "reason=cmdline with ERROR only")
    t = b.has(TOTALS)
    if t:
        b.expect((t.group(4) == "1") == (verdict == "ERROR"), "totals: error:%s" % t.group(4))


def check_stored(b, vars_fd, verdict, briefs):
    """The JSON summary in the UEFI variables, through ck-results: the same verdict and the
    same words as the KTAP test's."""
    p = tool("ck-results", "--ovmf-vars", vars_fd)
    b.outputs.append(("ck-results --ovmf-vars", p.stdout))
    if not b.expect(p.returncode == 0, "ck-results: %d %s" % (p.returncode, p.stderr)):
        return None
    obj = json.loads(p.stdout)
    b.expect(obj.get("result") == verdict and
             obj.get("reason") == ("cmdline" if verdict == "ERROR" else None) and
             obj.get("cmdline_errors") == len(briefs) and
             obj.get("cmdline_problems") == ktap_briefs(b) and
             obj.get("status") == (3 if verdict == "ERROR" else 0),
             "stored: %r" % {k: obj.get(k) for k in ("status", "result", "reason",
                                                     "cmdline_errors", "cmdline_problems")})
    said = re.search(r"^ck-results: .*: run [0-9a-f]{8}: result=ERROR reason=cmdline: %d "
                     r"command-line errors?, the first: " % len(briefs), p.stderr, re.M)
    b.expect(bool(said) == (verdict == "ERROR"), "ck-results' stderr: %r" % p.stderr)
    return p.stdout


def check_reports(b, verdict, summary_json=None):
    """ck-report over the log (and the stored summary): the run mode's note, the fleet's
    result and flag, KCIDB's tests as they ran and command_line."""
    cases = LAVA.ktap_cases(b.log.splitlines())
    with tempfile.TemporaryDirectory(prefix="ck-report-") as tmp:
        fleet = os.path.join(tmp, "fleet", "m")
        os.makedirs(fleet)
        log = os.path.join(fleet, "serial.log")
        with open(log, "w") as f:
            f.write(b.log)
        if summary_json:
            with open(os.path.join(fleet, "result.json"), "w") as f:
                f.write(summary_json)
        p = tool("ck-report", log)
        b.expect((("run verdict: ERROR reason=cmdline, %d command-line error" %
                   len(ktap_briefs(b))) in p.stdout + p.stderr) == (verdict == "ERROR"),
                 "ck-report LOG: %r %r" % (p.stdout[:200], p.stderr[-300:]))
        p = tool("ck-report", "--fleet", os.path.dirname(fleet), "--json")
        if b.expect(p.returncode == 0, "ck-report --fleet: %s" % p.stderr[-300:]):
            m = json.loads(p.stdout)["machines"][0]
            b.expect(m["result"] == verdict and
                     any(f.startswith("command line: ") for f in m["flags"]) ==
                     (verdict == "ERROR"), "fleet: result %r, flags %r" % (m["result"],
                                                                         m["flags"]))
        p = tool("ck-report", log, "--kcidb")
        if b.expect(p.returncode == 0, "ck-report --kcidb: %s" % p.stderr[-300:]):
            tests = {t["path"]: t["status"] for t in json.loads(p.stdout)["tests"]}
            want = {k: "ERROR" if k == "command_line" else v.upper() for k, v in cases.items()}
            got = {k: v for k, v in tests.items() if k in want}
            b.expect(got == want and ("command_line" in tests) == (verdict == "ERROR"),
                     "KCIDB: %r, want %r" % ({k: v for k, v in tests.items()
                                              if v != "PASS"}, want.get("command_line")))
        if summary_json:
            os.unlink(log)      # the summary alone: command_line from its problems
            p = tool("ck-report", "--fleet", os.path.dirname(fleet), "--kcidb")
            tests = {t["path"]: t for t in json.loads(p.stdout or "{}").get("tests", [])}
            b.expect(("command_line" in tests) == (verdict == "ERROR"),
                     "KCIDB from the summary alone: %s" % sorted(tests))


def check_lava(b, verdict, cmdline):
    """The monitors ck-lava renders for @cmdline, over the log: the run's cases as KTAP has
    them, and a failing command_line with ERROR; nothing failing with PASS."""
    words = [w for w in cmdline.split() if LAVA.WORD.match(w)] or ["tests=all"]
    try:
        monitors = LAVA.job_monitors(" ".join(words))
    except LAVA.Fail as e:
        b.expect(False, "ck-lava cannot render the job's monitors: %s" % e)
        return
    got = LAVA.monitor_results(monitors, b.log.splitlines()).get("copykernel", {})
    want = {k: v for k, v in LAVA.ktap_cases(b.log.splitlines()).items()
            if not k.startswith("soak")}
    b.expect(got == want and (got.get("command_line") == "fail") == (verdict == "ERROR"),
             "LAVA's copykernel monitor: %r, want %r" % (
                 {k: v for k, v in got.items() if v != "pass"}, want.get("command_line")))


def check_verdict(b, verdict, briefs, cmdline, vars_fd=None):
    """@verdict ("ERROR" or "PASS") in every output of the boot (the module's docstring);
    @briefs: a regex per command-line error the KTAP test must name, in order."""
    check_summary_and_ktap(b, verdict, briefs)
    stored = check_stored(b, vars_fd, verdict, briefs) if vars_fd else None
    check_reports(b, verdict, stored)
    check_lava(b, verdict, cmdline)


def with_vars(fn):
    """@fn(b, vars_fd) with a writable copy of OVMF's variable store."""
    def run(b, *args):
        with tempfile.TemporaryDirectory(prefix="ck-vars-") as tmp:
            vars_fd = os.path.join(tmp, "vars.fd")
            shutil.copy(VARS, vars_fd)
            fn(b, vars_fd, *args)
    run.__doc__ = fn.__doc__
    return run


def ran_exactly(b, suites):
    have = re.findall(r"^    # Subtest: (\S+)$", b.log, re.M)
    b.expect(have == suites, "suites run: %s, want %s" % (have, suites))


ISSUE_FILE = "# saved by an editor\r\ntests=cpu exit=qemu\r\n"


@with_vars
def t_cmdline_utf8_bom(b, vars_fd):
    """A copykernel.cmdline with a UTF-8 byte-order mark runs exactly tests=cpu, a PASS."""
    run_file(b, b"\xef\xbb\xbf" + ISSUE_FILE.encode(), vars_fd)
    b.has(r"^cmdline: note: copykernel.cmdline: UTF-8 byte-order mark \(EF BB BF\) dropped$")
    b.has(r"^cmdline: in effect: tests=cpu console=ttyS0,115200 exit=qemu crash=none$")
    ran_exactly(b, ["cpu"])
    check_verdict(b, "PASS", [], "tests=cpu exit=qemu", vars_fd)


def t_cmdline_utf16(b):
    """The same file saved as UTF-16LE with its byte-order mark (a UEFI shell script's own
    encoding, CRLF lines) runs exactly tests=cpu, a PASS."""
    run_file(b, b"\xff\xfe" + ISSUE_FILE.encode("utf-16-le"))
    b.has(r"^cmdline: note: copykernel.cmdline: UTF-16LE \(byte-order mark FF FE\): decoded$")
    b.has(r"^cmdline: in effect: tests=cpu console=ttyS0,115200 exit=qemu crash=none$")
    ran_exactly(b, ["cpu"])
    check_verdict(b, "PASS", [], "tests=cpu exit=qemu")


def t_cmdline_utf16_bad(b):
    """UTF-16BE that is not all ASCII and has a NUL before its end: each named with its byte
    offset, what was taken said, verdict ERROR."""
    text = "exit=qemu tests=cpu\r\nfb=off\u20ac\r\n\0soak=1h\r\n"
    run_file(b, b"\xfe\xff" + text.encode("utf-16-be"))
    # Offsets: the mark is 2 bytes, then 2 a character: U+20AC is character 27, NUL 30.
    b.has(r"^cmdline: copykernel.cmdline: character U\+20AC at byte offset 56 \(line 2\) is "
          r"not printable ASCII: written as '\?'")
    b.has(r"^cmdline: copykernel.cmdline: NUL character at byte offset 62 \(line 3\): the 20 "
          r"bytes from there on are ignored$")
    ran_exactly(b, ["cpu"])
    b.lacks(r"^soak: ", "the soak= word after the NUL must not have been taken")
    check_verdict(b, "ERROR", [
        r"copykernel\.cmdline: character U\+20AC at byte offset 56 \(line 2\) is not .*",
        r"copykernel\.cmdline: NUL character at byte offset 62 \(line 3\): .*",
        r"'fb=off\?': bad value \(not one of the choices\); using the default 'on'"],
        "exit=qemu tests=cpu")


@with_vars
def t_soak_bad_value(b, vars_fd):
    """tests=none soak=15q: no soak runs, and the verdict is ERROR, never a clean run."""
    b.run("tests=none soak=15q exit=qemu", runner_args=["--vars", vars_fd])
    b.lacks(r"^soak: soak=", "no soak may run")
    b.has(r"^KTAP version 1\n1\.\.1\n# command_line: ", "the command line's test alone")
    check_verdict(b, "ERROR", [r"'soak=15q': bad value \(unknown unit: .*\); using the "
                               r"default 'off'"], "tests=none exit=qemu", vars_fd)
