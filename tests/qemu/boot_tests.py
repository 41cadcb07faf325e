# SPDX-License-Identifier: GPL-2.0-only
"""boot_tests.py - the QEMU boot scenarios of `make check`: this file's own (memory sizes and
paging, command lines, the ways out, deliberate crashes) and SCENARIOS, every topic file's list
(dispatch_tests, mce_tests, mce_poll_tests, firmware_tests, bench_tests, smp_tests, status_tests,
model_tests, blackbox_tests, soak_tests) in the order they run.

Each scenario boots build/copykernel.efi once through tools/ck-run.py (the same runner as
`make run`) and checks the exit status and what the image printed on the serial console.
A scenario is a function taking a Boot helper and returning nothing; `expect` records failed
assertions, so one boot reports every problem it shows.
"""
import os
import tempfile

from qemu_boot import CMDLINE, PANIC, PASS, RESET, TIMEOUT, Boot, check_ktap  # noqa: F401
import bench_tests
import blackbox_tests
import dispatch_tests
import firmware_tests
import mce_poll_tests
import mce_tests
import model_tests
import smp_tests
import soak_tests
import status_tests
from dispatch_tests import check_dispatch_table


def cpu_and_paging_reported(b):
    b.has(r"^CPU: \S+ family 0x[0-9a-f]+ model 0x[0-9a-f]+ stepping \d+")
    b.has(r"^CPU: string ops: ERMS (yes|no) FSRM (yes|no) FZRM (yes|no) FSRS (yes|no) "
          r"REP_GOOD (yes|no)")
    b.has(r"^CPU: machine check: MCE (yes|no) MCA (yes|no)")
    b.has(r"^CPU: caches \(")
    b.has(r"^TSC: \d+\.\d{3} MHz from ")
    b.has(r"^ACPI: rev \d+ XSDT at 0x[0-9a-f]+, OEM .*FACP")
    b.has(r"^memory map: \d+ MiB of RAM")


def t_max_6g(b):
    """-cpu max with 6 GiB: 1 GiB pages used, RAM above 4 GiB mapped, all tests pass."""
    b.run("exit=qemu", cpu="max", mem="6G")
    b.status_is(PASS)
    m = b.has(r"^paging: identity map with 1 GiB pages: (\d+) x 1 GiB, (\d+) x 2 MiB, "
              r"(\d+) x 4 KiB")
    if m:
        b.expect(int(m.group(1)) >= 3, "only %s 1 GiB pages for 6 GiB" % m.group(1))
    m = b.has(r"# \d+ RAM runs, (\d+) MiB checked, (\d+) MiB above 4 GiB")
    if m:
        b.expect(int(m.group(2)) >= 4000, "RAM above 4 GiB: %s MiB" % m.group(2))
    b.has(r"^    ok \d+ ram_mapped_identity")
    b.has(r"^    ok \d+ page_sizes")
    b.has(r"^    ok \d+ set_attr_in_1g_leaf$", "set_attr_in_1g_leaf did not run and pass: the "
          "1 GiB split, the server case, went untested")
    cpu_and_paging_reported(b)
    b.has(r"^framebuffer: 1280x800")
    # Under QEMU the TSC is calibrated against the PM timer, so the PIT checks it.
    b.has(r"^    # in use \d+ Hz \(from the PM timer\), PIT over 200 ms \d+ Hz")
    ours = b.raw.split(b"the machine is ours", 1)[-1]
    b.expect(b"\x1b" not in ours, "escape sequences after the takeover: serial logs must be "
             "plain lines")
    b.expect(all(c in b"\r\n\t" or 32 <= c < 127 for c in ours),
             "non-printable bytes after the takeover")
    check_ktap(b)


def t_no_pdpe1gb(b):
    """A CPU without pdpe1gb (qemu64): 2 MiB pages only; no ERMS: copy_mc is plain memcpy."""
    b.run("exit=qemu", cpu="qemu64", mem="2G")
    b.status_is(PASS)
    check_dispatch_table(b)
    b.has(r"copy_mc: memcpy \(not #MC-safe\)")
    b.has(r"^CPU: paging: pdpe1gb no")
    m = b.has(r"^paging: identity map with 2 MiB \(no pdpe1gb\) pages: (\d+) x 1 GiB, "
              r"(\d+) x 2 MiB")
    if m:
        b.expect(m.group(1) == "0" and int(m.group(2)) > 500, "page counts " + m.group(0))
    check_ktap(b)


def t_256m_headless(b):
    """256 MiB and no display: runs headless and says so; all tests pass."""
    b.run("exit=qemu", mem="256M", runner_args=["--no-vga"])
    b.status_is(PASS)
    b.has(r"^framebuffer: none \(no GOP\): running headless")
    m = b.has(r"^memory map: (\d+) MiB of RAM")
    if m:
        b.expect(200 <= int(m.group(1)) <= 256, "RAM %s MiB for -m 256M" % m.group(1))
    b.has(r"^    # no framebuffer to check")
    check_ktap(b)


def t_intel_skylake(b):
    """An Intel model: REP_GOOD by the from-Dothan rule, fast strings read, CPUID 4 caches."""
    b.run("exit=qemu", cpu="Skylake-Server", mem="1G")
    b.status_is(PASS)
    b.has(r"^CPU: GenuineIntel family 0x6 model 0x55")
    b.has(r"REP_GOOD yes \(Intel from Dothan \(family 6 model >= 0xd\) on, fast strings on\)")
    b.has(r"fast strings on")
    b.has(r"^CPU: caches \(CPUID 4\)")
    check_ktap(b)


def t_bad_cmdline(b):
    """Bad words are reported with the valid choices and defaults, tests run, status 3."""
    b.run("exit=qemu frobnicate=1 tests=paging,bogus console=ttyS9 lonely crash=sometimes")
    b.status_is(CMDLINE)
    b.has(r"unknown key 'frobnicate' \(valid keys: tests, console, exit, crash, ebs, copy_page, "
          r"memcpy, copy_mc, clear_page, inject, mce_case, fb, exit_delay, bench, bench_runs, "
          r"bench_tiny, bench_cold, bench_migrate_size, smp, smp_timeout, bench_cpu, soak, "
          r"soak_chunk, soak_progress, soak_watchdog, soak_poll, soak_fault, mce_poll_wait, blackbox_test, sweep\); ignored")
    b.has(r"bad value 'paging,bogus' for tests= \(unknown suite; valid: all, none, or a "
          r"comma-separated list of cmdline, blackbox, extable, .*\); using the default 'all'")
    b.has(r"bad value 'ttyS9' for console= .*using the default 'ttyS0,115200'")
    b.has(r"'lonely' is not key=value")
    b.has(r"bad value 'sometimes' for crash= .*valid: none, ud, gp, pf, de, bp, df, ap")
    b.has(r"^cmdline: in effect: tests=all console=ttyS0,115200 exit=qemu crash=none")
    b.has(r"cmdline_errors=5")
    check_ktap(b)


def check_ktap_strict(b):
    """tools/ktap-check.py --strict: inside a subtest every line is KTAP (a result, a plan,
    a version line or a '#' diagnostic at the subtest's indentation)."""
    kc = firmware_tests.load_tool("ktap-check")
    checker = kc.check(b.log.splitlines(), strict=True)
    for line, is_error, msg in checker.problems[:10]:
        b.expect(False, "ktap-check --strict: line %s: %s: %r" % (
            line, msg, b.log.splitlines()[line - 1] if line else ""))


def t_no_cmdline(b):
    """No command line at all: defaults, QEMU detected, isa-debug-exit; strict KTAP."""
    b.run("", runner_args=["--no-cmdline-file"])
    b.status_is(PASS)
    b.has(r"^cmdline: from none: ''")
    b.has(r"^exit: auto: QEMU detected \(fw_cfg\)")
    check_ktap(b)
    check_ktap_strict(b)


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


def t_shell_loadoptions(b):
    """From the UEFI shell: the command line arrives as LoadOptions, image name dropped."""
    b.run("tests=cmdline exit=qemu", runner_args=["--shell"])
    b.status_is(PASS)
    b.has(r"^copykernel: boot: image at 0x[0-9A-F]+, command line from LoadOptions: "
          r"'tests=cmdline exit=qemu'")
    b.has(r"^cmdline: in effect: tests=cmdline ")
    b.has(r"^    # from LoadOptions: 'tests=cmdline exit=qemu'")
    check_ktap(b)


def t_ebs_retry(b):
    """A stale map key on the first ExitBootServices call is retried with a fresh map."""
    b.run("exit=qemu tests=cmdline ebs=stale")
    b.status_is(PASS)
    b.has(r"ExitBootServices after 2 attempts")
    check_ktap(b)


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


CRASHES = {"ud": (6, "UD"), "gp": (13, "GP"), "pf": (14, "PF"), "de": (0, "DE"),
           "bp": (3, "BP"), "df": (8, "DF")}


def make_crash_test(kind):
    vec, mnem = CRASHES[kind]

    def t(b):
        b.run("exit=qemu crash=" + kind)
        b.status_is(PANIC)
        b.has(r"^PANIC: unexpected exception %d #%s " % (vec, mnem))
        if kind != "df":
            b.has(r"^  error code 0x[0-9a-f]+, RIP [0-9a-f]{16} crash_%s\+0x[0-9a-f]+$" % kind,
                  "RIP not shown as crash_%s+offset" % kind)
        b.has(r"^  CR0 [0-9a-f]{16} CR2 [0-9a-f]{16} CR3 [0-9a-f]{16} CR4 [0-9a-f]{16}")
        for r in ("RAX", "RSI", "R8 ", "R12", "RFLAGS"):
            b.has(r"^  .*%s [0-9a-f]{16}" % r, "register %s missing" % r)
        b.has(r"^  stack:")
        if kind == "pf":
            m = b.has(r"reading not-present page 0x([0-9a-f]+)")
            b.has(r"page fault: not-present page on read in kernel mode")
            if m:
                b.has(r"CR2 %016x " % (int(m.group(1), 16) + 0x10), "CR2 is not the address read")
        if kind == "df":
            # The #UD's frame push hit the not-present page just below RSP: CR2 = RSP - 8.
            cr2 = b.has(r"CR2 ([0-9a-f]{16})")
            rsp = b.has(r"RSP ([0-9a-f]{16})")
            if cr2 and rsp:
                b.expect(int(cr2.group(1), 16) == int(rsp.group(1), 16) - 8,
                         "CR2 %s is not the push below RSP %s" % (cr2.group(1), rsp.group(1)))
        b.has(r"^copykernel: exit status 2 \(panic\)")
        b.lacks(r"^KTAP version 1", "tests ran after the crash")
    t.__name__ = "t_crash_" + kind
    t.__doc__ = "crash=%s: the unexpected #%s is reported and the status is panic" % (kind, mnem)
    return t


def t_exit_shutdown(b):
    """exit=shutdown goes through the UEFI runtime ResetSystem: QEMU powers off."""
    b.run("exit=shutdown tests=none", timeout=60)
    b.status_is(RESET)
    b.has(r"^copykernel: exit status 0 \(all tests passed\)")
    b.lacks(r"did not happen")


def t_exit_reset(b):
    """exit=reset goes through ResetSystem(cold): with -no-reboot QEMU leaves by itself."""
    b.run("exit=reset tests=none", timeout=60)
    b.status_is(RESET)
    b.has(r"^copykernel: exit status 0 \(all tests passed\)")
    b.lacks(r"did not happen")


def t_exit_halt(b):
    """exit=halt stops and stays: the runner's timeout is the only way out."""
    # The halt comes after the quick figures, which under TCG on a loaded host took more
    # than 25 s (old and new images alike): the runner waits long enough for them.
    b.run("exit=halt tests=none", timeout=60)
    b.status_is(TIMEOUT)
    b.has(r"^copykernel: halted; power-cycle or reset the machine to leave")


SCENARIOS = smp_tests.SLOW + soak_tests.SLOW + [
    t_max_6g, t_no_pdpe1gb, t_256m_headless, t_intel_skylake, t_bad_cmdline, t_no_cmdline,
    t_cmdline_file_too_long, t_cmdline_file_nul_and_utf8, t_shell_loadoptions, t_ebs_retry,
    t_subset_and_console, t_exit_shutdown, t_exit_reset, t_exit_halt] + \
    dispatch_tests.SCENARIOS + mce_tests.SCENARIOS + mce_poll_tests.SCENARIOS + \
    firmware_tests.SCENARIOS + \
    bench_tests.SCENARIOS + smp_tests.SCENARIOS + [make_crash_test(k) for k in CRASHES] + \
    status_tests.SCENARIOS + model_tests.SCENARIOS + blackbox_tests.SCENARIOS + \
    soak_tests.SCENARIOS


def scenario_name(fn):
    return fn.__name__[2:] if fn.__name__.startswith("t_") else fn.__name__
