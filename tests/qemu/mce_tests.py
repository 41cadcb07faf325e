# SPDX-License-Identifier: GPL-2.0-only
"""mce_tests.py - the QEMU scenarios of machine checks on one CPU: the mce suite on an Intel
model, real #MCs injected through QEMU's monitor (recovered, panicked, early, no SUCCOR), and
the poison sweep of the folio copies against the model of Linux.
"""
import json
import re

from qemu_boot import INTEL, PANIC, PASS, check_ktap


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
    b.has(r"machine check at RIP [0-9a-f]+ (qemu_injection|qemu_must_stop)\+")


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


def sweep_records(b, npages):
    """The poison-sweep records of the @npages-page folio, one dict per cell."""
    recs = [json.loads(m.group(1)) for m in
            re.finditer(r'^    # (\{"schema":1,"kind":"poison-sweep".*\})$', b.log, re.M)]
    return [r for r in recs if r["kind"] == "poison-sweep" and r["folio_pages"] == npages]


# The table's form-primitive pairs: the Linux forms over copy_mc_to_kernel's primitives, the
# copy_pages candidate's forms over its copy_mc_pages bodies.
SWEEP_PAIRS = [(f, p) for f in ("v6.17 per-page", "v3 batched", "v3 no-preempt")
               for p in ("fragile", "rep movsb", "rep movsb early")] + \
              [(f, p) for f in ("copy_pages cand.", "cand. no-preempt")
               for p in ("pages_erms", "pages_erms early", "pages_rep", "pages_rep early",
                         "pages_unrolled")]
# One call over the folio whose rep movs stopped 40 bytes early: the formula names the page
# before the poisoned one, the project queues the bank's page.
SWEEP_BANK = {("v3 batched", "rep movsb early"), ("copy_pages cand.", "pages_erms early"),
              ("copy_pages cand.", "pages_rep early")}


def check_sweep_cells(b, npages, pages):
    """Each cell: @pages points (3 for hwpoison of 2 MiB), none unexplained; a page marked
    hwpoison is refused at every point with the pre-check and agrees without it; a rep movs
    told to stop 40 bytes early names the page before in one call over the folio (v3 and
    the candidate) unless the line is page 0's first (the stop then lies in the line)."""
    cells = sweep_records(b, npages)
    got_pairs = sorted({(c["form"], c["primitive"]) for c in cells})
    b.expect(len(cells) == len(SWEEP_PAIRS) * 5 and got_pairs == sorted(SWEEP_PAIRS),
             "%d poison-sweep cells for %d pages, pairs %s" % (len(cells), npages, got_pairs))
    for c in cells:
        name = "%s, %s, %s" % (c["form"], c["primitive"], c["place"])
        want = 3 if c["place"].startswith("hwpoison") and npages == 512 else pages
        refuse = want if c["place"] == "hwpoison" else 0
        bank = want - 1 if (c["form"], c["primitive"]) in SWEEP_BANK and \
            c["place"] == "first line" else 0
        got = (c["points"], c["ours_refuse"], c["ours_bank_page"], c["unexplained"])
        b.expect(c["ran"] and got == (want, refuse, bank, 0),
                 "%s: points, refused, bank page, unexplained %s, want %s"
                 % (name, got, (want, refuse, bank, 0)))


def t_poison_sweep(b):
    """Poison sweep (sweep=quick) of the folio copies against the model of Linux: 0 unexplained."""
    # Line poison lands on its line, then every page of a 16-page folio and six of a 2 MiB
    # one, at its first, middle and last line and marked hwpoison, through the per-page, v3
    # and v3 no-preempt forms over fragile and rep movsb (Skylake-Server has ERMS), and the
    # copy_pages candidate's forms over each of its copy_mc_pages bodies.
    b.run("exit=qemu tests=sweep sweep=quick", cpu="Skylake-Server", timeout=240)
    b.status_is(PASS)
    for case in ("line_poison_lands_on_its_line", "poison_sweep", "poison_sweep_2m"):
        b.has(r"^    ok \d+ %s$" % case, "%s did not pass (or was skipped)" % case)
    b.has(r"# 64 lines of a page poisoned one at a time, over fragile, rep movsb and rep movsb "
          r"stopping 40 bytes early")
    b.has(r"# sweep: refuse = a deliberate difference: ")
    b.has(r"# sweep: bank = a deliberate difference: ")
    b.has(r"# sweep: pages_\*: the copy_mc_pages bodies of the copy_pages\(\) candidate \(not "
          r"Linux\), each swept; this CPU's dispatch picks pages_erms$")
    check_sweep_cells(b, 16, 16)
    check_sweep_cells(b, 512, 6)
    for pages, how in ((16, "every"), (512, "sampled")):
        b.has(r'"kind":"poison-sweep-total","folio_pages":%d,"pages":"%s",.*"unexplained":0,'
              % (pages, how))
    check_ktap(b)


SCENARIOS = [t_mce_suite_intel, t_mce_qemu_fragile, t_mce_qemu_fast_string, t_mce_qemu_twice, t_mce_qemu_pcc, t_mce_qemu_idle, t_mce_qemu_amd_no_succor, t_mce_qemu_early, t_poison_sweep]
