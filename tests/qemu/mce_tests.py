# SPDX-License-Identifier: GPL-2.0-only
"""mce_tests.py - the check functions of the machine checks on one CPU (scenarios.cfg's mce
group: the mce suite on an Intel model, real #MCs injected through QEMU's monitor, and the
poison sweep of the folio copies against the model of Linux): two recoveries in a row, and
each cell of the poison sweep held to what the model of Linux says.
"""
import json
import re



def check_two_recoveries(b):
    """mce_case=twice: two real #MC records, the last two poisoned pfns distinct."""
    pfns = re.findall(r"poisoned pfn (0x[0-9a-f]+) \(from the bank address\)", b.log)
    real = re.findall(r"mce #\d+: machine check at RIP", b.log)
    b.expect(len(real) == 2, "%d real #MC records, want 2" % len(real))
    b.expect(len(set(pfns[-2:])) == 2, "the last two pfns are not distinct: %s" % pfns[-2:])


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
    npages, pages = int(npages), int(pages)
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
