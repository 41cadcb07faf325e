# SPDX-License-Identifier: GPL-2.0-only
"""dispatch_tests.py - the check of copy dispatch (scenarios.cfg's dispatch and model rows):
the image's choice per API held to an independent reading of Linux's rules.
"""
import re


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
