# SPDX-License-Identifier: GPL-2.0-only
"""qemu_boot.py - what every QEMU boot scenario shares: the Boot helper (one boot through
tools/ck-run.py, its serial log, and the assertions on it), the exit statuses, the KTAP
consistency checks and the CPU model names. The scenarios are the rows of scenarios.cfg
(read and run by scenarios.py); the topic files (*_tests.py) hold their check functions.
"""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
RUNNER = os.path.join(ROOT, "tools", "ck-run.py")

PASS, FAIL, PANIC, CMDLINE, RESET, STOPPED, TIMEOUT = 0, 1, 2, 3, 4, 5, 124


class Boot:
    def __init__(self, image, name, timeout=150):
        """@timeout: the seconds each boot may take (the scenario's row says)."""
        self.image, self.name, self.timeout = image, name, timeout
        self.problems = []
        self.log = ""
        self.status = None
        self.logs = []          # every boot's serial log, in order (the last is self.log)
        self.outputs = []       # (name, text): tools a scenario ran (ck-results' summary)

    def run(self, cmdline, cpu="max", mem="512M", extra=(), runner_args=()):
        timeout = self.timeout
        with tempfile.TemporaryDirectory(prefix="ck-boot-") as tmp:
            log = os.path.join(tmp, "serial.log")
            argv = [sys.executable, RUNNER, "-q", "--image", self.image, "--cpu", cpu,
                    "--mem", mem, "--timeout", str(timeout), "--log", log]
            argv += list(runner_args)
            for e in extra:
                argv += ["--qemu-arg", e]
            argv += ["--"] + cmdline.split()
            p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, timeout=timeout + 60)
            self.status = p.returncode
            self.runner_err = p.stderr
            with open(log, "rb") as f:
                raw = f.read()
        self.raw = raw
        self.log = re.sub(r"\x1b\[[0-9;?=]*[A-Za-z]", "",
                          raw.decode("ascii", "replace")).replace("\r", "")
        self.logs.append(self.log)
        return self

    def expect(self, cond, what):
        if not cond:
            self.problems.append(what)
        return cond

    def status_is(self, want):
        return self.expect(self.status == want, "exit status %s, want %s (%s)" % (
            self.status, want, self.runner_err.strip().splitlines()[-1:]))

    def has(self, pattern, what=None):
        m = re.search(pattern, self.log, re.M)
        self.expect(m is not None, what or "serial output lacks /%s/" % pattern)
        return m

    def lacks(self, pattern, what=None):
        m = re.search(pattern, self.log, re.M)
        self.expect(m is None, what or "serial output has /%s/: %r" % (
            pattern, m.group(0) if m else ""))


# The summary line (init/main.c run_summary): groups result, reason, suites, pass, fail, skip,
# cmdline_errors, results.
SUMMARY = (r"^# copykernel-summary: result=(PASS|FAIL|ERROR)(?: reason=(cmdline))? suites=(\d+) "
           r"pass=(\d+) fail=(\d+) skip=(\d+) cmdline_errors=(\d+) "
           r"results=(stored|console-only|NOT-STORED)")
# The KTAP totals (ktest/lib/ktap.c): pass, fail, skip, error (None: none), total.
TOTALS = r"^# Totals: pass:(\d+) fail:(\d+) skip:(\d+)(?: error:(\d+))? total:(\d+)$"
# The run's own failing test when the command line had errors (ktest/lib/ktap.h).
CMDLINE_TEST = r"^not ok (\d+) command_line # ERROR (\d+) command-line errors?: not the run that " \
               r"was asked for$"


def check_ktap(b, want_fail=0):
    """KTAP structure: plans match the numbered results, and the summary line agrees; the
    command line's errors are one failing top-level test of their own and make the verdict
    ERROR unless a test failed (FAIL), never PASS."""
    lines = b.log.splitlines()
    try:
        start = lines.index("KTAP version 1")
    except ValueError:
        b.expect(False, "no top-level 'KTAP version 1' line")
        return
    plan = lines[start + 1]
    b.expect(re.fullmatch(r"1\.\.\d+", plan) is not None, "no top-level plan: %r" % plan)
    top = [l for l in lines[start:] if re.match(r"(not )?ok \d+ ", l)]
    b.expect(plan == "1..%d" % len(top), "plan %s but %d suite results" % (plan, len(top)))
    for i, l in enumerate(top, 1):
        b.expect(re.match(r"(not )?ok %d " % i, l) is not None, "suite result out of order: " + l)
    # Each subtest's case numbers run 1..N as its plan says.
    for m in re.finditer(r"^    # Subtest: (\S+)\n    1\.\.(\d+)\n((?:    .*\n)*?)(?=(?:not )?ok )",
                         b.log, re.M):
        cases = re.findall(r"^    (?:not )?ok (\d+) ", m.group(3), re.M)
        b.expect(cases == [str(i) for i in range(1, int(m.group(2)) + 1)],
                 "suite %s: plan 1..%s, cases %s" % (m.group(1), m.group(2), cases))
    s = b.has(SUMMARY, "no copykernel-summary line")
    t = b.has(TOTALS, "no Totals line")
    if s and t:
        b.expect(s.group(4) == t.group(1) and s.group(5) == t.group(2), "summary and totals differ")
        b.expect(int(s.group(5)) == want_fail, "%s failed cases, want %d" % (s.group(5), want_fail))
        b.expect(len(re.findall(r"^    not ok ", b.log, re.M)) == int(t.group(2)),
                 "'not ok' lines and the fail count differ")
        cases = len(re.findall(r"^    (?:not )?ok \d+ ", b.log, re.M))
        errors = int(t.group(4) or 0)
        b.expect(int(t.group(5)) == cases + errors, "total %s is not the %d cases and %d errors"
                 % (t.group(5), cases, errors))
        planned = int(plan[3:]) if re.fullmatch(r"1\.\.\d+", plan) else len(top)
        check_verdict_words(b, s, errors, top[:planned])


def check_verdict_words(b, s, errors, top):
    """The summary's verdict, the command line's test and the totals' error count agree:
    errors on the command line are ERROR (reason=cmdline), or FAIL when a test failed.
    @top: the first KTAP document's top-level results."""
    n = int(s.group(7))
    cmd = [l for l in top if re.match(CMDLINE_TEST, l)]
    fail = int(s.group(5)) > 0 or re.search(r"^not ok \d+ (?!command_line )", b.log, re.M)
    if n:
        want = "FAIL" if fail else "ERROR"
        b.expect(s.group(1) == want and (s.group(2) == "cmdline") == (want == "ERROR"),
                 "%d command-line errors: result=%s reason=%s, want %s" % (
                     n, s.group(1), s.group(2), want))
        b.expect(len(cmd) == 1 and cmd[0] == top[-1] and
                 int(re.match(CMDLINE_TEST, cmd[0]).group(2)) == n and errors == 1,
                 "%d command-line errors: the last top-level result must be the failing "
                 "command_line test counting them, the totals' error:1 (%r, error:%d)" % (
                     n, cmd, errors))
        b.expect("# ck-lava <command_line fail>" in b.log, "no LAVA line for command_line")
    else:
        b.expect(s.group(1) != "ERROR" and s.group(2) is None and not cmd and not errors,
                 "no command-line error, yet result=%s reason=%s, %d command_line tests, "
                 "error:%d" % (s.group(1), s.group(2), len(cmd), errors))


def load_tool(name):
    """tools/NAME.py as a module (through the tools' own cklib)."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    from cklib import common
    return common.load_tool(name)


def check_ktap_strict(b):
    """tools/ktap-check.py --strict: inside a subtest every line is KTAP (a result, a plan,
    a version line or a '#' diagnostic at the subtest's indentation)."""
    checker = load_tool("ktap-check").check(b.log.splitlines(), strict=True)
    for line, is_error, msg in checker.problems[:10]:
        b.expect(False, "ktap-check --strict: line %s: %s: %r" % (
            line, msg, b.log.splitlines()[line - 1] if line else ""))


# QEMU broadcasts a machine check (mce -b) only for an Intel model of family 6 model >= 14.
INTEL = "max,vendor=GenuineIntel"
