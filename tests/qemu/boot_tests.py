# SPDX-License-Identifier: GPL-2.0-only
"""boot_tests.py - the QEMU boot scenarios of `make check`.

Each scenario boots build/copykernel.efi once through tools/ck-run.py (the same runner as
`make run`) and checks the exit status and what the image printed on the serial console.
A scenario is a function taking a Boot helper and returning nothing; `expect` records failed
assertions, so one boot reports every problem it shows.
"""
import importlib.util
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

from qemu_boot import (CMDLINE, INTEL, PANIC, PASS, RESET, ROOT, TIMEOUT,  # noqa: F401
                       Boot, check_ktap)
import smp_tests


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
          r"bench_tiny, bench_cold, smp, smp_timeout, bench_cpu\); ignored")
    b.has(r"bad value 'paging,bogus' for tests= \(unknown suite; valid: all, none, or a "
          r"comma-separated list of cmdline, extable, .*\); using the default 'all'")
    b.has(r"bad value 'ttyS9' for console= .*using the default 'ttyS0,115200'")
    b.has(r"'lonely' is not key=value")
    b.has(r"bad value 'sometimes' for crash= .*valid: none, ud, gp, pf, de, bp, df, ap")
    b.has(r"^cmdline: in effect: tests=all console=ttyS0,115200 exit=qemu crash=none")
    b.has(r"cmdline_errors=5")
    check_ktap(b)


def t_no_cmdline(b):
    """No command line at all: defaults, QEMU detected, leaves through isa-debug-exit."""
    b.run("", runner_args=["--no-cmdline-file"])
    b.status_is(PASS)
    b.has(r"^cmdline: from none: ''")
    b.has(r"^exit: auto: QEMU detected \(fw_cfg\)")
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


def linux_dispatch(log):
    """An independent oracle of Linux v6.17's rules, from the CPU lines the image printed."""
    m = re.search(r"^CPU: (\S+) family 0x([0-9a-f]+) model 0x([0-9a-f]+) stepping \d+ "
                  r"\(signature 0x([0-9a-f]+)\)", log, re.M)
    f = re.search(r"^CPU: string ops: ERMS (yes|no) FSRM (yes|no)", log, re.M)
    if not m or not f:
        return None
    vendor, fam, model = m.group(1), int(m.group(2), 16), int(m.group(3), 16)
    sig = int(m.group(4), 16)
    erms, fsrm = f.group(1) == "yes", f.group(2) == "yes"
    fast_off = "fast strings off" in log
    if vendor == "AuthenticAMD":
        rep_good = fam >= 0x10 or (fam == 0xf and (0x0f48 <= sig < 0x0f50 or sig >= 0x0f58))
    elif vendor == "HygonGenuine":
        rep_good = True
    elif vendor == "GenuineIntel":
        # intel.c since v6.15: from the Pentium M Dothan on, when fast strings are on.
        dothan_on = fam > 6 or (fam == 6 and model >= 0xd)
        rep_good = dothan_on and not fast_off
        erms = erms and not (dothan_on and fast_off)
    elif vendor == "CentaurHauls":
        rep_good = (fam == 6 and model >= 0xf) or fam >= 7
    elif vendor == "  Shanghai  ":
        rep_good = fam >= 6
    else:
        rep_good = False
    return {
        "copy_page": "rep movsq" if rep_good else "unrolled movq",
        "memcpy": "rep movsb" if fsrm else "memcpy_orig (movq)",
        "copy_mc": "rep movsb" if erms else "memcpy (not #MC-safe)",
        "clear_page": "rep stosb" if erms else "rep stosq" if rep_good else "unrolled movq",
    }


def check_dispatch_table(b):
    want = linux_dispatch(b.log)
    if not b.expect(want is not None, "no CPU lines to derive Linux's choice from"):
        return
    rows = [
        "dispatch: %-20s %-34s %-34s " % ("copy_highpage(s)", "copy_page: " + want["copy_page"],
                                          "memcpy: " + want["memcpy"]),
        "dispatch: %-20s %-34s %-34s " % ("copy_mc_highpage(s)", "copy_mc: " + want["copy_mc"],
                                          "copy_mc: " + want["copy_mc"]),
        "dispatch: %-20s %-34s %-34s " % ("clear_highpage(s)",
                                          "clear_page: " + want["clear_page"],
                                          "clear_pages: " + want["clear_page"]),
    ]
    for row in rows:
        b.has("^" + re.escape(row), "no dispatch row %r (Linux's rules)" % row.strip())


def t_dispatch_intel_max(b):
    """-cpu max,vendor=GenuineIntel: the dispatch table follows Linux's Intel rules."""
    b.run("exit=qemu tests=copy,pages,cpu", cpu="max,vendor=GenuineIntel")
    b.status_is(PASS)
    b.has(r"^CPU: GenuineIntel ")
    check_dispatch_table(b)
    b.has(r"^    ok \d+ dispatch_matches_linux$")
    check_ktap(b)


def t_dispatch_amd_milan(b):
    """An AMD model (EPYC-Milan): the dispatch table follows Linux's AMD rules."""
    b.run("exit=qemu tests=copy,pages,cpu", cpu="EPYC-Milan")
    b.status_is(PASS)
    b.has(r"^CPU: AuthenticAMD family 0x19 ")
    check_dispatch_table(b)
    b.has(r"copy_page: rep movsq", "Zen 3 is REP_GOOD: copy_page must be rep movsq")
    check_ktap(b)


def t_dispatch_refused(b):
    """Overrides the CPU cannot run (AVX-512, CLZERO under TCG) are refused with a reason."""
    b.run("exit=qemu tests=copy copy_mc=avx512nt clear_page=clzero")
    b.status_is(CMDLINE)
    b.has(r"dispatch: copy_mc=avx512nt refused: needs AVX-512F .*; keeping erms")
    b.has(r"dispatch: clear_page=clzero refused: needs CLZERO .*; keeping erms")
    b.has(r"cmdline_errors=2")
    check_dispatch_table(b)
    check_ktap(b)


def t_dispatch_avx2nt(b):
    """copy_mc=avx2nt clear_page=nt: the candidates beyond Linux, selected and tested."""
    b.run("exit=qemu tests=copy,pages copy_mc=avx2nt clear_page=nt")
    b.status_is(PASS)
    b.has(r"^fpu: SSE on, AVX on")
    b.has(r"copy_mc: AVX2 load \+ NT store +copy_mc: AVX2 load \+ NT store +command-line")
    b.has(r"clear_page: movnti \(NT\) +clear_pages: movnti \(NT\) +command-line")
    b.has(r"^    ok \d+ copy_mc_avx2_nt_sweep$")
    b.has(r"^    ok \d+ nt_faults$")
    check_ktap(b)


def t_dispatch_overrides(b):
    """copy_mc=fragile copy_page=unrolled memcpy=erms clear_page=rep: used, marked, tested."""
    b.run("exit=qemu tests=copy,pages copy_mc=fragile copy_page=unrolled memcpy=erms "
          "clear_page=rep")
    b.status_is(PASS)
    b.has(r"copy_mc_fragile on")
    b.has(r"copy_page: unrolled movq +memcpy: rep movsb +command-line override")
    b.lacks(r"refused")
    b.has(r"copy_mc: copy_mc_fragile \(movq\) +copy_mc: copy_mc_fragile \(movq\) +"
          r"command-line override")
    b.has(r"clear_page: rep stosq +clear_pages: rep stosq +command-line override")
    b.has(r"^    ok \d+ dispatch_matches_linux # SKIP primitives overridden")
    b.has(r"^    # copy_page=unrolled memcpy=erms copy_mc=fragile clear_page=rep")
    check_ktap(b)




def t_mce_suite_intel(b):
    """tests=mce on an Intel CPU: every rule simulated, emulated poison swept and recovered."""
    b.run("exit=qemu tests=mce", cpu=INTEL)
    b.status_is(PASS)
    b.has(r"^MCE: enabled: 10 banks \(legacy\)")
    for case in ("grading_rules_intel", "grading_rules_amd", "emulated_poison_sweep",
                 "hwpoison_refuses_copy", "two_recoveries_in_a_row"):
        b.has(r"^    ok \d+ %s$" % case, "%s did not pass (or was skipped)" % case)
    b.has(r"^        ok \d+ data load in error-recoverable area of kernel$")
    b.has(r"# mce-verdict: backends: simulate ok, emulate ok")
    check_ktap(b)


def qemu_mce(b, cmdline, cpu=INTEL, tests="mce"):
    b.run("exit=qemu inject=qemu tests=%s %s" % (tests, cmdline), cpu=cpu,
          runner_args=["--inject-mce"])
    b.expect("ck-run: injecting: mce 0 1 " in b.runner_err, "the runner injected nothing")


def t_mce_qemu_fragile(b):
    """A real #MC from QEMU's monitor during copy_mc_fragile: recovered, the other suites run."""
    qemu_mce(b, "copy_mc=fragile", tests="all")
    b.status_is(PASS)
    b.has(r"ok \d+ mce\n(.*\n)*ok \d+ copy\n(.*\n)*ok \d+ pages$",
          "the copy and pages suites did not run and pass after the #MC")
    b.has(r"machine check at RIP [0-9a-f]+ copy_mc_fragile\.\w+")
    b.has(r"recovered: resumed at the fixup")
    b.has(r"^    ok \d+ qemu_injection$")
    b.has(r"# mce-verdict: backends: .*qemu ok")
    check_ktap(b)


def t_mce_qemu_fast_string(b):
    """A real #MC during the rep movsb copy: recovered, RCX gives the count left."""
    qemu_mce(b, "copy_mc=erms")
    b.status_is(PASS)
    b.has(r"machine check at RIP [0-9a-f]+ copy_mc_fast_string\.copy\+0x0")
    b.has(r"# bytes left \d+; pfn from the return value 0x[0-9a-f]+, from the bank")
    b.has(r"^    ok \d+ qemu_injection$")
    check_ktap(b)


def t_mce_qemu_twice(b):
    """Two recoverable #MCs in a row on different pages: both recovered, both pfns listed."""
    qemu_mce(b, "mce_case=twice")
    b.status_is(PASS)
    pfns = re.findall(r"poisoned pfn (0x[0-9a-f]+) \(from the bank address\)", b.log)
    real = re.findall(r"mce #\d+: machine check at RIP", b.log)
    b.expect(len(real) == 2, "%d real #MC records, want 2" % len(real))
    b.expect(len(set(pfns[-2:])) == 2, "the last two pfns are not distinct: %s" % pfns[-2:])
    b.has(r"^    ok \d+ qemu_injection$")
    check_ktap(b)


def t_mce_qemu_pcc(b):
    """A real #MC with PCC set: decoded report, panic status, no hang."""
    qemu_mce(b, "mce_case=pcc")
    b.status_is(PANIC)
    b.has(r"^PANIC: machine check: processor context corrupt \(PCC\)")
    b.has(r"bank 1: STATUS 0xbf80000000000134 \[VAL UC EN MISCV ADDRV PCC S AR\]")
    b.has(r"MCACOD 0x0134: cache hierarchy: data read, data, L0")
    b.has(r"verdict: panic, by rule \"processor context corrupt \(PCC\)\"")


def t_mce_qemu_idle(b):
    """A real #MC while no copy_mc runs: no MCE-safe fixup at RIP, decoded report, panic."""
    qemu_mce(b, "mce_case=idle")
    b.status_is(PANIC)
    b.has(r"^PANIC: machine check: data load in unrecoverable area of kernel")
    b.has(r"exception-table entry at RIP: none")
    b.has(r"machine check at RIP [0-9a-f]+ qemu_injection\+")


def t_mce_qemu_early(b):
    """A real #MC before MCA is set up: the banks are still read and decoded, then panic."""
    qemu_mce(b, "mce_case=early", tests="cpu")
    b.status_is(PANIC)
    b.has(r"^PANIC: machine check: machine check before the image set up MCA")
    b.has(r"^    bank 1: STATUS 0xbd80000000000134 \[VAL UC EN MISCV ADDRV S AR\]")
    b.has(r"MCACOD 0x0134: cache hierarchy: data read")
    b.lacks(r"^MCE: enabled", "the #MC should come before mce_init")


def t_mce_qemu_amd_no_succor(b):
    """QEMU's AMD -cpu max has no SUCCOR: a real #MC in copy_mc panics, as Linux would."""
    qemu_mce(b, "copy_mc=fragile", cpu="max")
    b.status_is(PANIC)
    b.has(r"^PANIC: machine check: uncorrected error and no SUCCOR: recovery not supported")
    b.has(r"    ok \d+ emulated_poison_sweep # SKIP this CPU cannot recover \(AMD without SUCCOR\)")


def t_pxe_ovmf(b):
    """PXE with no disk through OVMF's own stack: no command line, defaults, tests pass."""
    b.run("", runner_args=["--pxe", "ovmf", "--no-cmdline-file"])
    b.status_is(PASS)
    b.has(r"Start PXE over IPv4")
    b.has(r"^cmdline: from none: ''")
    b.has(r"^exit: auto: QEMU detected")
    check_ktap(b)


def t_pxe_ipxe_script(b):
    """PXE through the iPXE EFI ROM running a script: 'chain ... ARGS' arrives as LoadOptions."""
    b.run("", runner_args=["--pxe", "ipxe", "--no-cmdline-file",
                           "--ipxe-args", "tests=cpu,tsc exit=qemu"])
    b.status_is(PASS)
    b.has(r"boot\.ipxe : \d+ bytes \[script\]")
    b.has(r"^cmdline: from LoadOptions: 'tests=cpu,tsc exit=qemu'")
    b.has(r"^KTAP version 1\n1\.\.2$")
    check_ktap(b)


def t_disk_image(b):
    """make img's GPT disk boots under QEMU and takes its default command-line file."""
    img = os.path.join(os.path.dirname(b.image), "copykernel.img")
    if not b.expect(os.path.exists(img), "%s missing: make img" % img):
        return
    b.run("", runner_args=["--disk", img, "--no-cmdline-file"])
    b.status_is(PASS)
    b.has(r"^cmdline: from copykernel.cmdline: 'tests=all console=ttyS0,115200 exit=auto'$")
    check_ktap(b)


def read_ppm(path):
    with open(path, "rb") as f:
        data = f.read()
    magic, dims, maxval, pixels = data.split(b"\n", 3)
    w, h = map(int, dims.split())
    if magic != b"P6" or maxval != b"255" or len(pixels) < w * h * 3:
        raise ValueError("not a 24-bit PPM")
    return w, h, pixels


def check_summary_screen(b, ppm, banner_rgb):
    """The screen is not blank, and the top 80 rows are the verdict banner (colour + text)."""
    if not b.expect(os.path.exists(ppm), "no screendump was taken"):
        return
    w, h, px = read_ppm(ppm)
    bg = bytes((0x10, 0x14, 0x1c))
    total = w * h
    not_bg = sum(1 for i in range(0, total * 3, 3 * 7) if px[i:i + 3] != bg) * 7
    b.expect(not_bg > total // 20, "screen nearly blank: %d of %d pixels drawn" % (not_bg, total))
    banner = white = 0
    for y in range(0, 80, 2):
        for x in range(0, w, 2):
            p = px[(y * w + x) * 3:(y * w + x) * 3 + 3]
            banner += p == bytes(banner_rgb)
            white += p == b"\xff\xff\xff"
    n = 40 * (w // 2)
    b.expect(banner > n * 6 // 10, "banner colour on %d of %d sampled pixels" % (banner, n))
    b.expect(white > n // 50, "no verdict text in the banner (%d white pixels)" % white)


def t_framebuffer_summary(b):
    """GOP console: a screendump after the summary shows the green PASS banner and text."""
    with tempfile.TemporaryDirectory(prefix="ck-fb-") as tmp:
        ppm = os.path.join(tmp, "screen.ppm")
        b.run("exit=qemu exit_delay=2 tests=cpu,tsc", runner_args=["--screendump", ppm])
        b.status_is(PASS)
        b.has(r"^fbcon: 1280x800 framebuffer, 106x44 text, mirroring the serial console")
        b.has(r'^\{"schema":1,"kind":"quick","primitive":"copy_mc_fragile","bytes":1048576,')
        b.has(r"^fbcon: summary drawn")
        check_summary_screen(b, ppm, (0x1e, 0x8c, 0x3c))


def t_framebuffer_bad_cmdline(b):
    """The summary banner turns red when the run did not pass (here: a bad command line)."""
    with tempfile.TemporaryDirectory(prefix="ck-fb-") as tmp:
        ppm = os.path.join(tmp, "screen.ppm")
        b.run("exit=qemu exit_delay=2 tests=cpu nonsense", runner_args=["--screendump", ppm])
        b.status_is(CMDLINE)
        check_summary_screen(b, ppm, (0xb4, 0x1e, 0x1e))


def t_bench_presets_tiny(b):
    """bench=all at test sizes: every preset runs, every JSON line parses, tables render."""
    b.run("exit=qemu tests=none bench=all bench_runs=3 bench_tiny=yes bench_cold=flush")
    b.status_is(PASS)
    b.has(r"^bench: .*cache-cold by CLFLUSHOPT of source and destination")
    objs = []
    for line in b.log.splitlines():
        if line.startswith('{"schema"'):
            try:
                objs.append(json.loads(line))
            except ValueError:
                b.expect(False, "not JSON: " + line[:120])
    kinds = {o.get("kind") for o in objs}
    b.expect({"machine", "result", "comparison"} <= kinds, "JSON kinds seen: %s" % kinds)
    for preset in ("rfc", "v3", "clear", "primitives", "patterns", "uarch", "big"):
        b.has(r"^== preset %s ==$" % preset)
    b.has(r"^== uarch: as Linux resolves on Zen 3 \(ERMS, REP_GOOD, no FSRM\): "
          r"copy_page=\w+ memcpy=orig ")
    b.has(r"^== uarch: as Linux resolves on Zen 4/5 or Intel with FSRM .* memcpy=erms ")
    b.has(r"^bandwidth probe, one core, 4 MiB each")
    b.has(r"^as % of this machine's measured copy bandwidth \(\d+\.\d\d GB/s of traffic\): "
          r"memcpy_erms \d+%, copy_mc_avx\w+ \d+%")
    b.has(r"^bench: SMI count and APERF/MPERF effective clock unavailable: under a hypervisor")
    ids = re.findall(r"^# ck-lava <(bench\.\S+) pass", b.log, re.M)
    b.expect(ids and len(ids) == len(set(ids)), "benchmark ids unique: %d ids, %d distinct"
             % (len(ids), len(set(ids))))
    b.has(r"^bench: method: rounds alternating AB/BA")
    b.has(r"^fn=folio_copy mode=cache-cold$")
    b.has(r"^node0->node0   256K    \d+\.\d\d \+- \d+\.\d\d +\d+\.\d\d \+- \d+\.\d\d +"
          r"\d+\.\d\dx \[\d+\.\d\d, \d+\.\d\d\]")
    b.has(r"^fn=copy_mc_highpages mode=cache-cold$")
    b.has(r"^fn=folio_zero_huge \(target = middle subpage\)")
    b.has(r"^bench: running under a hypervisor: figures describe the emulation")
    results = [o for o in objs if o.get("kind") == "result"]
    b.expect(all(o["runs"] == 3 and o["median_mbps"] > 0 for o in results),
             "every result has 3 runs and a throughput")
    b.expect(all(o["cold_method"] == ("clflushopt" if o["mode"] == "cache-cold" else "none")
                 for o in results), "cache-cold results say cold_method clflushopt")
    b.expect(all(o.get("src_pattern") in ("zero", "constant", "random", "none") and
                 o.get("dst_pattern") in ("zero", "constant", "random", "none") and
                 o.get("reps", 0) >= 1 and o.get("k") in (3, 5) for o in results),
             "every result records its data patterns, repetitions and k")
    b.expect(all(o.get("smi", 0) is None and o.get("eff_mhz_min", 0) is None and
                 o.get("noise") == "unavailable: under a hypervisor" for o in results),
             "every result says SMI count and effective clock are unavailable under QEMU")
    b.expect(any(o.get("kind") == "comparison" and o.get("api") == "patterns" and
                 o.get("candidate_src_pattern") == "zero" for o in objs),
             "the patterns preset compares a zero source against a random one")


NUMA3 = ("-object memory-backend-ram,id=m0,size=1G -object memory-backend-ram,id=m1,size=512M "
         "-object memory-backend-ram,id=m2,size=512M -numa node,nodeid=0,cpus=0,memdev=m0 "
         "-numa node,nodeid=1,cpus=1,memdev=m1 -numa node,nodeid=2,memdev=m2")


def t_numa_directions(b):
    """Three SRAT nodes, one without CPUs (how CXL appears): bench=rfc runs every node pair."""
    b.run("exit=qemu tests=pages bench=rfc bench_runs=3 bench_tiny=yes", mem="2G",
          extra=["-smp 2", NUMA3])
    b.status_is(PASS)
    b.has(r"^NUMA: node0 \(proximity domain 0\): 10\d\d MiB, 1 CPU$")
    b.has(r"^NUMA: node2 \(proximity domain 2\): 51\d MiB, 0 CPUs \(memory without CPUs: how "
          r"CXL memory appears\)")
    b.has(r"^bench: 3 NUMA nodes from the SRAT.*cache-cold by an eviction buffer")
    for s_ in range(3):
        for d_ in range(3):
            b.has(r"^node%d->node%d   256K " % (s_, d_),
                  "no cache-cold folio_copy row for node%d->node%d" % (s_, d_))
    # Each direction runs from a CPU of its source node (NUMA3: CPU 0 on node0, 1 on node1).
    b.has(r"^node0->node1: from CPU 0, on the source node$")
    b.has(r"^node1->node0: from CPU 1, on the source node$")
    b.has(r"^node2->node0: node2 has no CPU: from the benchmark's CPU$")
    cmp_cpus = {(o["src_node"], o["cpu"]) for o in
                (json.loads(l) for l in b.log.splitlines() if l.startswith('{"schema"'))
                if o.get("kind") == "comparison" and o.get("api") == "folio_copy"}
    b.expect(cmp_cpus == {("node0", 0), ("node1", 1), ("node2", None)},
             "comparison records' CPUs by source node: %s" % sorted(cmp_cpus, key=str))
    dirs = {(o["src_node"], o["dst_node"]) for o in
            (json.loads(l) for l in b.log.splitlines() if l.startswith('{"schema"'))
            if o.get("kind") == "result"}
    b.expect(("node2", "node0") in dirs and ("node0", "node2") in dirs,
             "JSON results lack the node2 directions: %s" % sorted(dirs))


def acpi_table(sig, body, revision=1):
    """An ACPI table: the 36-byte header (OEM "CKTEST"), @body, a correct checksum."""
    t = bytearray(struct.pack("<4sIBB6s8sI4sI", sig, 36 + len(body), revision, 0, b"CKTEST",
                              b"CKFUZZ  ", 1, b"CKBT", 1)) + body
    t[9] = (-sum(t)) & 0xff
    return bytes(t)


def srat_mem(domain, base, size):
    """An enabled SRAT memory affinity entry (ACPI 6.x 5.2.16.2)."""
    return struct.pack("<BBIHQQIIQ", 1, 40, domain, 0, base, size, 0, 1, 0)


def srat(*entries):
    return acpi_table(b"SRAT", struct.pack("<IQ", 1, 0) + b"".join(entries), revision=3)


def boot_with_table(b, table, cmdline, **kw):
    """Boot with @table added to the firmware's ACPI tables (QEMU -acpitable)."""
    with tempfile.TemporaryDirectory(prefix="ck-acpi-") as tmp:
        path = os.path.join(tmp, "table.aml")
        with open(path, "wb") as f:
            f.write(table)
        return b.run(cmdline, extra=list(kw.pop("extra", [])) + ["-acpitable file=" + path],
                     **kw)


def t_srat_overlap(b):
    """An SRAT whose two domains claim the same memory: refused by name, one node, PASS."""
    boot_with_table(b, srat(srat_mem(0, 0, 256 << 20), srat_mem(1, 128 << 20, 384 << 20)),
                    "exit=qemu tests=cmdline")
    b.status_is(PASS)
    b.has(r"^warning: NUMA: SRAT rejected: SRAT memory affinity: ranges of two proximity domains "
          r"overlap at base 0x8000000$")
    b.has(r"^NUMA: no usable SRAT: one node holds everything$")


def t_srat_too_many_domains(b):
    """Nine proximity domains, one more than the kernel keeps: refused by name, one node."""
    boot_with_table(b, srat(*[srat_mem(d, d << 24, 1 << 24) for d in range(9)]),
                    "exit=qemu tests=cmdline")
    b.status_is(PASS)
    b.has(r"^warning: NUMA: SRAT rejected: SRAT: more proximity domains than the 8 nodes kept: "
          r"domain 0x8$")
    b.has(r"^NUMA: no usable SRAT: one node holds everything$")


def t_srat_node_without_ram(b):
    """A node whose SRAT range holds no RAM: bench=rfc names its directions, does not drop them."""
    boot_with_table(b, srat(srat_mem(0, 0, 512 << 20), srat_mem(1, 64 << 30, 256 << 20)),
                    "exit=qemu tests=pages bench=rfc bench_runs=3 bench_tiny=yes")
    b.status_is(PASS)
    # Its range is kept to the RAM of the memory map: none is left, and that is named.
    b.has(r"^warning: NUMA: SRAT memory affinity: a range holds no RAM of the memory map, "
          r"ignored: base 0x")
    b.has(r"^NUMA: node1 \(proximity domain 1\): 0 MiB, 0 CPUs \(no memory: tests cannot "
          r"place buffers here\)")
    b.has(r"^node0->node1 256K: no free memory for it on a node, skipped$")
    b.has(r"^node1->node0 256K: no free memory for it on a node, skipped$")


def t_einj_bogus(b):
    """inject=einj with an EINJ whose register is beyond 2^52: named and skipped, no #PF."""
    entry = struct.pack("<BBBBBBBBQQQ", 0, 3, 0, 0, 0, 64, 0, 4, 0xfffffffffffff000, 0xb,
                        (1 << 64) - 1)
    table = acpi_table(b"EINJ", struct.pack("<IBBBBI", 12, 0, 0, 0, 0, 1) + entry)
    boot_with_table(b, table, "exit=qemu tests=mce inject=einj", cpu=INTEL)
    b.status_is(PASS)
    b.has(r"^warning: EINJ: table rejected: entry 0: memory register beyond 2\^52: address "
          r"0xfffffffffffff000$")
    b.has(r"^    ok \d+ einj_table # SKIP EINJ table rejected")
    b.lacks(r"^PANIC: unexpected exception")


def load_tool(name):
    spec = importlib.util.spec_from_file_location(name.replace("-", "_"),
                                                  os.path.join(ROOT, "tools", name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def t_results_variable(b):
    """The summary survives in UEFI variables: read back from the OVMF vars file and efivarfs."""
    res = load_tool("ck-results")
    with tempfile.TemporaryDirectory(prefix="ck-vars-") as tmp:
        vars_fd = os.path.join(tmp, "vars.fd")
        shutil.copy("/usr/share/OVMF/OVMF_VARS_4M.fd", vars_fd)
        b.run("exit=qemu tests=cpu crash=ud", runner_args=["--vars", vars_fd])
        b.status_is(PANIC)
        b.has(r"^results: summary stored in 1 UEFI variable CopykernelResult\* \(run id ")
        p = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "ck-results.py"),
                            "--ovmf-vars", vars_fd], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        if not b.expect(p.returncode == 0, "ck-results failed: " + p.stderr.strip()):
            return
        obj = json.loads(p.stdout)
        b.expect(obj["status"] == 2 and obj["status_name"] == "panic",
                 "stored status %s, want 2 (panic)" % obj.get("status"))
        b.expect(obj["cmdline"] == "exit=qemu tests=cpu crash=ud", "stored cmdline")
        b.expect(obj["tests"]["ran"] is False, "tests must not have run before the crash")
        # The same variables as Linux's efivarfs shows them: NAME-GUID, u32 attributes, data.
        efivars = os.path.join(tmp, "efivars")
        os.mkdir(efivars)
        for name, data in res.from_ovmf_vars(vars_fd).items():
            with open(os.path.join(efivars, "%s-%s" % (name, res.GUID)), "wb") as f:
                f.write(struct.pack("<I", 7) + data)
        p = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "ck-results.py"),
                            "--efivars", efivars], stdout=subprocess.PIPE, text=True)
        b.expect(p.returncode == 0 and json.loads(p.stdout) == obj, "efivarfs read differs")
    # Chunks: joined in order; a chunk left by an older, longer run is ignored.
    mk = lambda i, n, run, text: b"CKR1" + struct.pack("<HHI", i, n, run) + text
    text, why = res.assemble({"CopykernelResult0": mk(0, 3, 7, b'{"a":'),
                              "CopykernelResult1": mk(1, 3, 7, b'"xy'),
                              "CopykernelResult2": mk(2, 3, 7, b'z"}')})
    b.expect(text == '{"a":"xyz"}', "three chunks joined: %r (%s)" % (text, why))
    text, why = res.assemble({"CopykernelResult0": mk(0, 2, 9, b"{}"),
                              "CopykernelResult1": mk(1, 3, 7, b"old")})
    b.expect(text is None and "another run" in why, "stale chunk accepted: %r" % text)


def t_results_stale_chunks(b):
    """A shorter summary replaces a longer one whole: the older run's extra chunk is deleted."""
    res = load_tool("ck-results")
    with tempfile.TemporaryDirectory(prefix="ck-vars-") as tmp:
        vars_fd = os.path.join(tmp, "vars.fd")
        shutil.copy("/usr/share/OVMF/OVMF_VARS_4M.fd", vars_fd)
        long_line = "exit=qemu tests=cpu " + "fb=on " * 700      # JSON of two chunks
        b.run(long_line, runner_args=["--vars", vars_fd])
        b.has(r"^results: summary stored in 2 UEFI variables CopykernelResult\* \(run id ")
        first = res.from_ovmf_vars(vars_fd)
        b.expect("CopykernelResult1" in first, "the long summary did not take two chunks")
        b.run("exit=qemu tests=cpu", runner_args=["--vars", vars_fd])
        b.status_is(PASS)
        b.has(r"^results: summary stored in 1 UEFI variable CopykernelResult\* \(run id ")
        b.has(r"^# copykernel-summary: .* results=stored$")
        second = res.from_ovmf_vars(vars_fd)
        b.expect("CopykernelResult1" not in second,
                 "the first run's second chunk is still in the store")
        p = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "ck-results.py"),
                            "--ovmf-vars", vars_fd], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        if b.expect(p.returncode == 0 and "stale" not in p.stderr,
                    "ck-results: %d %s" % (p.returncode, p.stderr.strip())):
            obj = json.loads(p.stdout)
            b.expect(obj["cmdline"] == "exit=qemu tests=cpu" and
                     re.match(r"^[0-9a-f]{8}$", obj["run_id"]) is not None and
                     "started" in obj, "run id and start time in the JSON: %r" %
                     {k: obj.get(k) for k in ("run_id", "started")})


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
    b.run("exit=halt tests=none", timeout=25)
    b.status_is(TIMEOUT)
    b.has(r"^copykernel: halted; power-cycle or reset the machine to leave")


SCENARIOS = smp_tests.SLOW + [
    t_max_6g, t_no_pdpe1gb, t_256m_headless, t_intel_skylake, t_bad_cmdline, t_no_cmdline,
    t_cmdline_file_too_long, t_cmdline_file_nul_and_utf8, t_shell_loadoptions, t_ebs_retry,
    t_subset_and_console, t_exit_shutdown, t_exit_reset, t_exit_halt, t_dispatch_intel_max,
    t_dispatch_amd_milan, t_dispatch_overrides, t_dispatch_refused, t_dispatch_avx2nt,
    t_mce_suite_intel, t_mce_qemu_fragile, t_mce_qemu_fast_string, t_mce_qemu_twice,
    t_mce_qemu_pcc, t_mce_qemu_idle, t_mce_qemu_amd_no_succor, t_mce_qemu_early, t_pxe_ovmf,
    t_pxe_ipxe_script, t_disk_image, t_results_variable, t_results_stale_chunks,
    t_framebuffer_summary, t_framebuffer_bad_cmdline, t_bench_presets_tiny, t_numa_directions,
    t_srat_overlap, t_srat_too_many_domains, t_srat_node_without_ram, t_einj_bogus] + \
    smp_tests.SCENARIOS + [make_crash_test(k) for k in CRASHES]


def scenario_name(fn):
    return fn.__name__[2:] if fn.__name__.startswith("t_") else fn.__name__
