# SPDX-License-Identifier: GPL-2.0-only
"""status_tests.py - the exit status end to end: a boot-side command-line note alone gives the
bad-command-line status; crash=fail gives some-tests-failed; and the precedence of
kernel/main.c holds: panic beats a failed test, which beats a bad command line.
"""
import os
import tempfile

from qemu_boot import CMDLINE, FAIL, INTEL, PANIC, check_ktap

FAILED_CASE = r"^    not ok 1 fails_on_purpose$"


def run_with_file(b, data):
    """Boot with @data, byte for byte, as EFI/BOOT/copykernel.cmdline."""
    with tempfile.NamedTemporaryFile(prefix="ck-cmdline-", delete=False) as f:
        f.write(data)
    try:
        b.run("", runner_args=["--cmdline-file", f.name])
    finally:
        os.unlink(f.name)


def t_status_cmdline_note_only(b):
    """A NUL byte in copykernel.cmdline is the only error: noted, status 3, nothing failed."""
    run_with_file(b, b"exit=qemu tests=cmdline\n\0crash=gp\n")
    b.status_is(CMDLINE)
    b.has(r"^cmdline: copykernel.cmdline: NUL byte at offset 24 \(line 2\): the 10 bytes "
          r"from there on are ignored$")
    b.has(r"^cmdline: in effect: tests=cmdline .*\(after errors above: the run ends with the "
          r"bad-command-line status\)$")
    b.has(r"^# copykernel-summary: result=PASS suites=1 pass=\d+ fail=0 skip=\d+ "
          r"cmdline_errors=1 ")
    b.has(r"^copykernel: exit status 3 \(bad command line\)")
    b.lacks(r"unknown key|bad value|is not key=value", "the words themselves were all valid")
    b.lacks(r"^PANIC", "the crash= word after the NUL must not have been taken")
    check_ktap(b)


def t_status_fail(b):
    """crash=fail: the deliberate case fails, every other suite runs and passes, status 1."""
    b.run("exit=qemu crash=fail")
    b.status_is(FAIL)
    b.has(r"^crash: crash=fail: deliberate.fails_on_purpose will fail on purpose")
    b.has(FAILED_CASE)
    b.has(r"^not ok \d+ deliberate$")
    b.has(r"^# copykernel-summary: result=FAIL suites=\d+ pass=\d+ fail=1 skip=\d+ "
          r"cmdline_errors=0 ")
    b.has(r"^copykernel: exit status 1 \(some tests failed\)")
    check_ktap(b, want_fail=1)


def t_status_fail_beats_cmdline(b):
    """A failed case and a bad word: some-tests-failed (1) wins over bad command line (3)."""
    b.run("exit=qemu tests=deliberate crash=fail frobnicate=1")
    b.status_is(FAIL)
    b.has(r"unknown key 'frobnicate'")
    b.has(FAILED_CASE)
    b.has(r"^# copykernel-summary: result=FAIL suites=1 pass=0 fail=1 skip=0 cmdline_errors=1 ")
    b.has(r"^copykernel: exit status 1 \(some tests failed\)")
    check_ktap(b, want_fail=1)


def t_status_panic_beats_both(b):
    """A bad word, a failed case, then a machine check that panics: panic (2) wins."""
    b.run("exit=qemu tests=deliberate,mce inject=qemu mce_case=pcc crash=fail frobnicate=1",
          cpu=INTEL, runner_args=["--inject-mce"])
    b.status_is(PANIC)
    b.has(r"unknown key 'frobnicate'")
    b.has(FAILED_CASE)
    b.has(r"^PANIC: machine check: processor context corrupt \(PCC\)")
    b.has(r"^copykernel: exit status 2 \(panic\)")
    b.lacks(r"^# copykernel-summary:", "the run went on to its summary after the panic")


SCENARIOS = [t_status_cmdline_note_only, t_status_fail, t_status_fail_beats_cmdline,
             t_status_panic_beats_both]
