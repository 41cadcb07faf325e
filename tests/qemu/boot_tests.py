# SPDX-License-Identifier: GPL-2.0-only
"""boot_tests.py - the check functions of the QEMU boot scenarios of scenarios.cfg's boot
group (memory sizes and paging, command lines, the ways out, deliberate crashes).

Each scenario boots build/copykernel.efi through tools/ck-run.py (the same runner as
`make run`) and checks the exit status and what the image printed on the serial console.
A function here takes the Boot helper (and the string arguments its row gives); `expect`
records failed assertions, so one boot reports every problem it shows.
"""
import os
import tempfile

from qemu_boot import CMDLINE, PASS, check_ktap
import reference_tests


def check_big_memory(b):
    """max_6g: 1 GiB pages map it (3 at least for 6 GiB), 4000 MiB or more above 4 GiB."""
    m = b.has(r"^paging: identity map with 1 GiB pages: (\d+) x 1 GiB, (\d+) x 2 MiB, "
              r"(\d+) x 4 KiB")
    if m:
        b.expect(int(m.group(1)) >= 3, "only %s 1 GiB pages for 6 GiB" % m.group(1))
    m = b.has(r"# \d+ RAM runs, (\d+) MiB checked, (\d+) MiB above 4 GiB")
    if m:
        b.expect(int(m.group(2)) >= 4000, "RAM above 4 GiB: %s MiB" % m.group(2))


def check_plain_serial(b):
    """After the takeover the serial log is plain lines: no escape, nothing unprintable."""
    ours = b.raw.split(b"the machine is ours", 1)[-1]
    b.expect(b"\x1b" not in ours, "escape sequences after the takeover: serial logs must be "
             "plain lines")
    b.expect(all(c in b"\r\n\t" or 32 <= c < 127 for c in ours),
             "non-printable bytes after the takeover")


def check_2m_pages(b):
    """No pdpe1gb: no 1 GiB page, and 2 MiB pages for the 2 GiB."""
    m = b.has(r"^paging: identity map with 2 MiB \(no pdpe1gb\) pages: (\d+) x 1 GiB, "
              r"(\d+) x 2 MiB")
    if m:
        b.expect(m.group(1) == "0" and int(m.group(2)) > 500, "page counts " + m.group(0))


def check_ram_mib(b, low, high):
    """The memory map's RAM is from @low to @high MiB."""
    m = b.has(r"^memory map: (\d+) MiB of RAM")
    if m:
        b.expect(int(low) <= int(m.group(1)) <= int(high), "RAM %s MiB, want %s to %s" % (
            m.group(1), low, high))


def t_bad_cmdline(b):
    """Bad words are reported with the valid choices and defaults, tests run, status 3."""
    b.run("exit=qemu frobnicate=1 tests=paging,bogus console=ttyS9 lonely crash=sometimes")
    b.status_is(CMDLINE)
    reference_tests.valid_keys_agree(b, "frobnicate")
    b.has(r"bad value 'paging,bogus' for tests= \(unknown suite; valid: all, none, or a "
          r"comma-separated list of cmdline, blackbox, extable, .*\); using the default 'all'")
    b.has(r"bad value 'ttyS9' for console= .*using the default 'ttyS0,115200'")
    b.has(r"'lonely' is not key=value")
    b.has(r"bad value 'sometimes' for crash= .*valid: none, ud, gp, pf, de, bp, df, ap, fail, "
          r"hang\)")
    b.has(r"^cmdline: in effect: tests=all console=ttyS0,115200 exit=qemu crash=none")
    b.has(r"cmdline_errors=5")
    check_ktap(b)


def run_with_cmdline_file(b, data):
    with tempfile.NamedTemporaryFile(prefix="ck-cmdline-", delete=False) as f:
        f.write(data)
    try:
        b.run("", runner_args=["--cmdline-file", f.name])
    finally:
        os.unlink(f.name)


def t_cmdline_file_too_long(b):
    """A 64 KiB command-line file ending in bad words: the cut is named, bad-command-line status."""
    words = b"tests=cpu exit=qemu " * 3300
    run_with_cmdline_file(b, b"# a comment header\n" + words + b"frobnicate=1 crash=gp\n")
    b.status_is(CMDLINE)
    b.has(r"^cmdline: copykernel.cmdline: the command line is longer than 4095 characters: "
          r"cut at input byte \d+; the rest is ignored")
    b.has(r"^cmdline: copykernel.cmdline is larger than 16384 bytes")
    b.lacks(r"^PANIC", "the crash= word past the cut must not have been taken")


def t_cmdline_file_nul_and_utf8(b):
    """NUL and non-ASCII bytes in the file are named with their offsets; status 3."""
    run_with_cmdline_file(b, "tests=cpu\u20ac cl\u00e9=valeur exit=qemu\n".encode() +
                          b"\0crash=gp\n")
    b.status_is(CMDLINE)
    b.has(r"^cmdline: copykernel.cmdline: byte 0xe2 at offset 9 \(line 1\) is not printable")
    b.has(r"^cmdline: copykernel.cmdline: NUL byte at offset \d+ \(line 2\)")
    b.has(r"bad value 'cpu\?\?\?' for tests=")
    b.has(r"unknown key 'cl\?\?'")
    b.lacks(r"^PANIC", "the crash= word after the NUL must not have been taken")


def t_subset_and_console(b):
    """tests= selects suites; console=ttyS1 moves the console to the second UART."""
    with tempfile.TemporaryDirectory(prefix="ck-com2-") as tmp:
        com2 = os.path.join(tmp, "com2.log")
        b.run("exit=qemu tests=tsc,cmdline console=ttyS1", extra=["-serial file:" + com2])
        with open(com2, "rb") as f:
            second = f.read().decode("ascii", "replace").replace("\r", "")
    b.status_is(PASS)
    b.has(r"^console: moving to I/O port 0x2f8 at 115200 baud")
    b.expect("KTAP version 1\n1..2\n" in second, "COM2 lacks the KTAP header with 2 suites")
    b.expect("# Subtest: tsc" in second and "# Subtest: paging" not in second,
             "COM2 does not hold exactly the selected suites")
    b.lacks(r"^KTAP version 1", "KTAP went to COM1 after the console moved")


def check_pf_cr2(b):
    """crash=pf: CR2 is the address the image says it read (the page plus 0x10)."""
    m = b.has(r"reading not-present page 0x([0-9a-f]+)")
    if m:
        b.has(r"CR2 %016x " % (int(m.group(1), 16) + 0x10), "CR2 is not the address read")


def check_df_cr2(b):
    """crash=df: the #UD's frame push hit the not-present page just below RSP: CR2 = RSP - 8."""
    cr2 = b.has(r"CR2 ([0-9a-f]{16})")
    rsp = b.has(r"RSP ([0-9a-f]{16})")
    if cr2 and rsp:
        b.expect(int(cr2.group(1), 16) == int(rsp.group(1), 16) - 8,
                 "CR2 %s is not the push below RSP %s" % (cr2.group(1), rsp.group(1)))
