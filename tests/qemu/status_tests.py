# SPDX-License-Identifier: GPL-2.0-only
"""status_tests.py - the exit-status scenario that writes its own copykernel.cmdline: a NUL
byte in the file alone gives the bad-command-line status, and the verdict ERROR everywhere. The other status rows of
scenarios.cfg (crash=fail, and the precedence of init/main.c: panic beats a failed test,
which beats a bad command line) are data.
"""
import os
import tempfile

from qemu_boot import CMDLINE
import verdict_tests


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
    b.has(r"^cmdline: in effect: tests=cmdline .*\(after errors above: the run's verdict is "
          r"ERROR, reason=cmdline, with the bad-command-line status, unless a test fails\)$")
    b.has(r"^# copykernel-summary: result=ERROR reason=cmdline suites=1 pass=\d+ fail=0 "
          r"skip=\d+ cmdline_errors=1 ")
    b.has(r"^copykernel: exit status 3 \(bad command line\)")
    b.lacks(r"unknown key|bad value|is not key=value", "the words themselves were all valid")
    b.lacks(r"^PANIC", "the crash= word after the NUL must not have been taken")
    verdict_tests.check_verdict(b, "ERROR", [
        r"copykernel\.cmdline: NUL byte at offset 24 \(line 2\): the 10 bytes from there on "
        r"are ignored"], "exit=qemu tests=cmdline")
