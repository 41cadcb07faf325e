# SPDX-License-Identifier: GPL-2.0-only
"""inject_tests.py - DRAM faults injected from outside while the soak runs (issue 31): QEMU
keeps the guest's RAM in a shared file and the host injector (host/inject/ck-inject.c, through
tools/ck-run.py --inject) keeps each fault alive in it for the whole run. Each persistent
fault must be found by `soak=passes:1` with its address and bit (a decoder fault: with both
its addresses), in the DIMM that holds it, and the soak must FAIL; the fault-free run on the
same machine passes; a transient flip, made once after the soak wrote the word, must be
found by a timed soak.

The machine: q35, -m 512M, -smp 2, and a DIMM map from tools/mk-smbios-dimms.py (DIMM_A0 the
first 256 MiB, DIMM_B0 the next). On q35 with at most 1 GiB a guest physical address is the
offset in the RAM file (REFERENCE.md section 10). The faults sit at their own addresses in
the free RAM the soak takes (one range, from about 18 MiB to 480 MiB here), each in its own
32 MiB, so that several can share a boot and every check stays per fault. The expected
values come from the faults as defined here and the injector's own account of what it
changed, never from the soak's code: the DIMM from the map given to QEMU, the bit from the
fault, the direction from its kind.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

from qemu_boot import FAIL, PASS, ROOT, load_tool

inject = load_tool("ck-run").inject

MiB = 1 << 20
MEM = "512M"
DIMMS = [(0, 256 * MiB, "DIMM_A0"), (256 * MiB, 256 * MiB, "DIMM_B0")]
FAULTS, DECODER, spec = inject.FAULTS, inject.DECODER, inject.spec
# The timed soak of the transient flip: long enough for passes after the one that writes it.
FLIP_SOAK = "90s"
# The retention cell (cklib.inject) decays 4 s after its word last changed; pass 0 rewrites
# every word within a second or so under TCG, so only the fade pass (pass 4, soak/pattern.c) idles long
# enough: the first five passes, with an idle longer than the decay.
FADE_SOAK = "soak=passes:5 soak_fade=6"


def dimm_of(addr):
    for base, size, name in DIMMS:
        if base <= addr < base + size:
            return name
    return None


def dimm_args(b, tmp):
    """QEMU's -smbios arguments for DIMMS (tools/mk-smbios-dimms.py), or None."""
    argv = [sys.executable, os.path.join(ROOT, "tools", "mk-smbios-dimms.py"), "--out-dir", tmp]
    for base, size, name in DIMMS:
        argv += ["--map", "%d:%d=%s" % (base, size, name)]
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if not b.expect(p.returncode == 0, "mk-smbios-dimms: " + p.stderr.strip()):
        return None
    return ["-smbios file=" + os.path.join(tmp, f) for f in sorted(os.listdir(tmp))]


def miscompares(b):
    """The soak's miscompare records (JSON soak_event lines), with phys/expected/actual as
    numbers."""
    out = []
    for line in b.log.splitlines():
        if not line.startswith('{"schema"') or '"kind":"soak_event"' not in line:
            continue
        try:
            r = json.loads(line)
        except ValueError:
            b.expect(False, "not JSON: " + line[:120])
            continue
        if r.get("event") == "miscompare" and r.get("phys"):
            for k in ("phys", "expected", "actual", "bits"):
                r[k] = int(r[k], 16)
            out.append(r)
    return out


# The text line of a miscompare, as soak/report.c prints it:
#   # soak-event: T CPU N miscompare: expected 0x... actual 0x..., differing bit 3, ...,
#   physical 0x4000a08 (8 bytes), node 0, ...
TEXT_MISCOMPARE = re.compile(r"^# soak-event: .*\bmiscompare: expected 0x([0-9a-f]+) actual "
                             r"0x([0-9a-f]+), differing (?:bits? ([\d, ]+)|(\d+) bits),.*?, "
                             r"physical 0x([0-9a-f]+) \(", re.M)


def check_text_agrees(b, events):
    """Each miscompare's text line and its JSON record say the same word, values and bits."""
    text = []
    for m in TEXT_MISCOMPARE.finditer(b.log):
        exp, act = int(m.group(1), 16), int(m.group(2), 16)
        if m.group(3):
            b.expect(sum(1 << int(x) for x in m.group(3).split(", ")) == exp ^ act,
                     "the bits named are not expected ^ actual: %s" % m.group(0))
        text.append((int(m.group(5), 16), exp, act))
    records = [(e["phys"], e["expected"], e["actual"]) for e in events]
    b.expect(sorted(text) == sorted(records), "the text lines and the records of the "
             "miscompares differ: text %s, records %s" % (text[:4], records[:4]))


def usable_ranges(b):
    """The firmware's usable RAM as the image printed its memory map: [(start, end)]."""
    return [(int(s, 16), int(e, 16) + 1) for s, e in
            re.findall(r"^  \[([0-9a-f]+)-([0-9a-f]+)\] usable ", b.log, re.M)]


def injector_lines(b):
    return [l[len("ck-run: "):] for l in b.runner_err.splitlines()
            if l.startswith("ck-run: ck-inject: ")]


def changed(b, index):
    """The injector's end line for fault @index: how many times it changed a word."""
    for l in injector_lines(b):
        m = re.match(r"ck-inject: end: fault %d .*: changed a word (\d+) times" % index, l)
        if m:
            return int(m.group(1))
    return None


def check_in_free_ram(b, name, addrs):
    free = usable_ranges(b)
    for a in addrs:
        b.expect(any(s <= a < e for s, e in free),
                 "%s: 0x%x is not in the free RAM of this boot's memory map (%s): move the "
                 "fault" % (name, a, ", ".join("0x%x-0x%x" % r for r in free)))


def bit_event(events, addr, bit):
    return [e for e in events if e["phys"] == addr and e["bits"] == 1 << bit]


def names_partner(events, e, partner):
    """A decoder fault's report shows its second address: reported there too, or the word's
    value says it (a pattern of each word's own address, or its complement)."""
    mask = (1 << 64) - 1
    return any(x["phys"] == partner for x in events) or \
        partner in (e["actual"], e["actual"] ^ mask)


def check_fault(b, name, index, events):
    """One fault: the soak's report names its word, bit (or both addresses) and DIMM."""
    kind, addr, arg, _ = FAULTS[name]
    n = changed(b, index)
    if not b.expect(n, "%s (%s): the injector never changed its word (changed %s): the soak "
                    "never wrote a value this fault shows in, so it cannot find it" %
                    (name, spec(name), n)):
        return
    if name in DECODER:
        check_in_free_ram(b, name, [addr, arg])
        found = [e for e in events if e["phys"] in (addr, arg)]
        if kind == "alias":
            found = [e for e in found if e["phys"] == addr]
        if not b.expect(found, "%s (%s): no miscompare at 0x%x%s" % (
                name, spec(name), addr, "" if kind == "alias" else " or 0x%x" % arg)):
            return
        b.expect(any(names_partner(events, e, arg if e["phys"] == addr else addr)
                     for e in found),
                 "%s: no report shows the second address: %s" % (name, found[:2]))
    else:
        check_in_free_ram(b, name, [addr])
        found = bit_event(events, addr, arg)
        if not b.expect(found, "%s (%s): no miscompare at 0x%x in bit %d (at that word: %s)"
                        % (name, spec(name), addr, arg,
                           [hex(e["bits"]) for e in events if e["phys"] == addr])):
            return
        m, e = 1 << arg, found[0]
        want = {"stuck1": (0, m), "stuck0": (m, 0), "fade": (m, 0), "zeros": (0, m),
                "ones": (m, 0)}.get(kind)
        if kind in ("zeros", "ones"):
            b.expect(e["expected"] == (0 if kind == "zeros" else (1 << 64) - 1),
                     "%s: expected 0x%x: not the pattern that triggers it" % (name, e["expected"]))
        if want:
            b.expect((e["expected"] & m, e["actual"] & m) == want,
                     "%s: bit %d went the wrong way: expected 0x%x actual 0x%x" % (
                         name, arg, e["expected"], e["actual"]))
    e = found[0]
    where = dimm_of(e["phys"])
    b.expect(e.get("dimms") == [where], "%s: at 0x%x, in %s by the map QEMU was given; the "
             "record says %s" % (name, e["phys"], where, e.get("dimms")))


def check_buckets(b, events):
    """The summary's DIMM buckets count each DIMM's miscompares as the records place them."""
    summ = [json.loads(l) for l in b.log.splitlines()
            if l.startswith('{"schema"') and '"kind":"soak_summary"' in l]
    if not b.expect(len(summ) == 1, "one soak_summary record: %d" % len(summ)):
        return
    buckets = {r.get("dimm"): r.get("miscompares") for r in summ[0].get("ledger", [])
               if r.get("type") == "dimm"}
    for _, _, name in DIMMS:
        want = sum(dimm_of(e["phys"]) == name for e in events)
        b.expect(buckets.get(name, 0) == want, "bucket %s: %s miscompares, the records put %d "
                 "there (%s)" % (name, buckets.get(name), want, buckets))


def check_flip(b, index, events):
    """The transient flip: made once, after the soak wrote the word; a later read found it."""
    _, addr, bit, _ = FAULTS["flip"]
    flips = [a for a in inject.acts("\n".join(injector_lines(b))) if a["what"] == "flipped"]
    if not b.expect(len(flips) == 1 and flips[0]["addr"] == addr,
                    "flip: the injector flipped %s, not 0x%x once: the soak never wrote the "
                    "word once armed, or it ended first (lengthen the soak)" % (flips, addr)):
        return
    found = bit_event(events, addr, bit)
    if b.expect(found, "flip: the soak did not report the bit flipped at 0x%x (bit %d) %s" % (
            addr, bit, "(its word's miscompares: %s)" % [e for e in events if e["phys"] == addr])):
        b.expect(found[0]["expected"] == flips[0]["old"] and
                 found[0]["actual"] == flips[0]["new"],
                 "flip: the soak read 0x%x for 0x%x; the injector made 0x%x of 0x%x" % (
                     found[0]["actual"], found[0]["expected"], flips[0]["new"], flips[0]["old"]))
        b.expect(found[0].get("dimms") == [dimm_of(addr)], "flip: in %s by the map, the record "
                 "says %s" % (dimm_of(addr), found[0].get("dimms")))


def t_inject(b, *names):
    """soak=passes:1 with the faults @names (or none) kept alive: each found, FAIL. With the
    transient flip, a timed soak (FLIP_SOAK) whose start arms it; with the retention cell, the
    passes up to the fade pass (FADE_SOAK): pass 0 never leaves a word unchanged for long."""
    cmdline = "exit=qemu tests=none " + ("soak=%s" % FLIP_SOAK if "flip" in names else
                                          FADE_SOAK if "fade" in names else "soak=passes:1")
    with tempfile.TemporaryDirectory(prefix="ck-inject-") as tmp:
        dimms = dimm_args(b, tmp)
        if dimms is None:
            return
        runner = ["--smp", "2"] + [a for n in (names or ("none",)) for a in
                                   ("--inject", "none" if n == "none" else spec(n))]
        if "flip" in names:
            runner += ["--inject-arm", r"^soak: soak="]
        b.run(cmdline, mem=MEM, extra=dimms, runner_args=runner)
    b.has(r"^SMBIOS: DIMM map from firmware: 2 device mapped address ranges")
    faults = [n for n in names if n != "none"]
    events = miscompares(b)
    b.expect(len(injector_lines(b)) >= 2 + len(faults),
             "the injector's lines are missing: %r" % b.runner_err[-400:])
    if not faults:
        b.status_is(PASS)
        b.has(r"^# copykernel-soak: result=PASS ")
        b.expect(not events, "miscompares on a fault-free run: %s" % events[:3])
        return
    b.status_is(FAIL)
    b.has(r'^# copykernel-soak: result=FAIL .* reason="miscompare \(\d+\)')
    check_text_agrees(b, events)
    for i, n in enumerate(faults):
        if n == "flip":
            check_flip(b, i, events)
        else:
            check_fault(b, n, i, events)
    check_buckets(b, events)
