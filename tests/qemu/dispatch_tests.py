# SPDX-License-Identifier: GPL-2.0-only
"""dispatch_tests.py - the QEMU scenarios of copy dispatch: the image's choice per API checked
against an independent reading of Linux's rules, on Intel and AMD models, with overrides.
"""
import re

from qemu_boot import CMDLINE, PASS, check_ktap


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


SCENARIOS = [t_dispatch_intel_max, t_dispatch_amd_milan, t_dispatch_overrides, t_dispatch_refused, t_dispatch_avx2nt]
