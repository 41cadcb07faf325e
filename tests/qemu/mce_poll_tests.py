# SPDX-License-Identifier: GPL-2.0-only
"""mce_poll_tests.py - the QEMU scenarios of the corrected-error poller (mce/poll.h): corrected
errors written into banks of several CPUs through QEMU's monitor (`mce` with UC clear writes the
bank and raises nothing, REFERENCE.md 9) before the run's final poll, each reported once with
its CPU, node, bank, address and granularity; a bank written twice shows OVER.

What each scenario expects comes from what it injected and from the machine QEMU was told to
build (which CPUs and which memory each node holds), never from the image's own numbers. The
runner sends the monitor commands when the image says it waits, then an NMI, the image's cue
to poll (mce_poll_wait=).
"""
import re

from qemu_boot import INTEL, PASS, check_ktap

WAIT = r"mce-poll: waiting up to \d+ s for an NMI before the final poll"
# Two nodes of 512 MiB: CPUs 0-1 and the first 512 MiB on node 0, CPUs 2-3 and the next on 1.
NODE_MIB = 512
TWO_NODES = ("-object memory-backend-ram,id=m0,size=512M -object memory-backend-ram,id=m1,"
             "size=512M -numa node,nodeid=0,cpus=0-1,memdev=m0 "
             "-numa node,nodeid=1,cpus=2-3,memdev=m1")
CPU_NODE = {0: 0, 1: 0, 2: 1, 3: 1}
# VAL EN MISCV ADDRV (UC clear: corrected), memory-controller codes.
CORRECTED = 0x9c00000000000000
FINDING = re.compile(r"^# mce-poll: CPU (\d+) \(APIC id (\d+), node (\d+)\) bank (\d+): (\w+)"
                     r"(, OVER \(an earlier error was lost\))?, STATUS (0x[0-9a-f]+) \[([^]]*)\]"
                     r".*\n# mce-poll:   address (0x[0-9a-f]+) \(ADDR (0x[0-9a-f]+), LSB (\d+): "
                     r"(\d+)-byte granularity\), node (-?\d+)$", re.M)


def node_of_addr(addr):
    return addr // (NODE_MIB << 20)


def inject(cpu, bank, status, addr, misc):
    return [WAIT, "mce %d %d 0x%x 0 0x%x 0x%x" % (cpu, bank, status, addr, misc)]


def findings(b):
    return [dict(cpu=int(m.group(1)), apic=int(m.group(2)), node=int(m.group(3)),
                 bank=int(m.group(4)), kind=m.group(5), over=m.group(6) is not None,
                 status=int(m.group(7), 16), phys=int(m.group(9), 16),
                 addr=int(m.group(10), 16), lsb=int(m.group(11)), gran=int(m.group(12)),
                 addr_node=int(m.group(13)))
            for m in FINDING.finditer(b.log)]


def t_mce_poll_corrected_two_nodes(b):
    """Corrected errors in CPUs 0, 1, 2 of two nodes: each polled once, as injected; OVER shown."""
    # Each finding must carry the CPU, its node, the bank, the address, its granularity and
    # the address's node as injected; CPU 2's bank 3 is written twice, so it shows OVER and
    # the second error, the one the bank holds.
    # (cpu, bank, status code, address, MISC): MISC[5:0] is the LSB, MISC[8:6] = 2 physical.
    shots = [(0, 2, 0x9f, 0x30000040, 0x86),		# node 1's memory, 64-byte granularity
             (1, 4, 0x90, 0x00200abc, 0x8c),		# node 0's memory, a whole page
             (2, 3, 0x9f, 0x10000080, 0x86),		# node 0's memory ...
             (2, 3, 0xa0, 0x10001000, 0x86)]		# ... and again before the poll: OVER
    args = ["--smp", "4"]
    for cpu, bank, code, addr, misc in shots:
        args += ["--hmp-when"] + inject(cpu, bank, CORRECTED | code, addr, misc)
    args += ["--hmp-when", WAIT, "nmi"]
    b.run("exit=qemu tests=cpu mce_poll_wait=60", cpu=INTEL, mem="1G",
          extra=[TWO_NODES], runner_args=args)
    b.status_is(PASS)
    b.has(r"^MCE: corrected-error pollers on 4 CPUs; CMCI absent \(MCG_CAP.CMCI_P clear\): "
          r"polling only; banks whose sharing is unknown are polled by every CPU in turn")
    b.has(r"^# mce-poll: NMI received after \d+ ms: polling$", "the NMI cue did not arrive")
    got = findings(b)
    # The last injection into a bank is what the bank holds; an earlier one there is lost.
    want = {}
    for cpu, bank, code, addr, misc in shots:
        over = (cpu, bank) in want
        want[(cpu, bank)] = dict(status=CORRECTED | code | (1 << 62 if over else 0), addr=addr,
                                 lsb=misc & 0x3f, over=over)
    b.expect(len(got) == len(want), "%d findings, want %d: %s" % (len(got), len(want), got))
    for (cpu, bank), w in sorted(want.items()):
        mine = [f for f in got if f["cpu"] == cpu and f["bank"] == bank]
        if not b.expect(len(mine) == 1, "CPU %d bank %d reported %d times, want once" %
                        (cpu, bank, len(mine))):
            continue
        f = mine[0]
        phys = w["addr"] & ~((1 << w["lsb"]) - 1)
        b.expect(f["apic"] == cpu and f["node"] == CPU_NODE[cpu],
                 "CPU %d: APIC id %d node %d, want %d and %d" % (cpu, f["apic"], f["node"], cpu,
                                                                  CPU_NODE[cpu]))
        b.expect(f["kind"] == "corrected" and f["status"] == w["status"] and
                 f["over"] == w["over"], "CPU %d bank %d: %s STATUS 0x%x OVER %s, want "
                 "corrected 0x%x OVER %s" % (cpu, bank, f["kind"], f["status"], f["over"],
                                             w["status"], w["over"]))
        b.expect(f["addr"] == w["addr"] and f["lsb"] == w["lsb"] and
                 f["gran"] == 1 << w["lsb"] and f["phys"] == phys,
                 "CPU %d bank %d: address 0x%x LSB %d (ADDR 0x%x), want 0x%x LSB %d" %
                 (cpu, bank, f["phys"], f["lsb"], f["addr"], phys, w["lsb"]))
        b.expect(f["addr_node"] == node_of_addr(w["addr"]),
                 "CPU %d bank %d: address on node %d, want %d" % (cpu, bank, f["addr_node"],
                                                                 node_of_addr(w["addr"])))
    b.has(r"^# mce-poll: final poll of 4 CPUs: 3 findings \(3 corrected, 0 deferred, 0 UCNA, "
          r"0 threshold\), 0 banks left for the #MC handler")
    check_ktap(b)


# One finding's first line, whatever its address line says (QEMU's broadcast filler has none).
FOUND = re.compile(r"^# mce-poll: CPU (\d+) \(APIC id \d+, node \d+\) bank (\d+): (\w+)"
                   r"(?:, OVER [^,]*)?, STATUS (0x[0-9a-f]+) ", re.M)
QEMU_FILLER = 0xa000000000000000      # "mce -b": VAL|UC in bank 1 of every other CPU


def check_ce_left_by_broadcast(b):
    """The CE written into CPU 3's bank 2 before the SRAR broadcast: the #MC handler on CPU 3
    leaves it (UC and S clear: not signalled, Linux's __mc_scan_banks skips it), so the final
    poll reports it once, as corrected; QEMU's VAL|UC in bank 1 of CPUs 1-3 is not signalled
    either and is polled once each (Linux's poller logs EN-clear errors); nothing else."""
    got = [(int(c), int(bk), kind, int(st, 16)) for c, bk, kind, st in FOUND.findall(b.log)]
    want = sorted([(3, 2, "corrected", 0x9c0000000000009f)] +
                  [(c, 1, "UCNA", QEMU_FILLER) for c in (1, 2, 3)])
    b.expect(sorted(got) == want, "final poll findings %s, want %s" % (got, want))
    b.has(r"^# mce-poll: final poll of 4 CPUs: 4 findings \(1 corrected, 0 deferred, 3 UCNA, "
          r"0 threshold\), 0 banks left for the #MC handler")
    # The CE's address, decoded once by the poller (64-byte granularity from MISC 0x86).
    b.has(r"^# mce-poll: CPU 3 .* bank 2: corrected, .*\n# mce-poll:   address 0x10000040 "
          r"\(ADDR 0x10000040, LSB 6: 64-byte granularity\)")
    check_ktap(b)


def check_soak_ucna(b, cpu, bank, status, addr):
    """One deferred ledger entry for the UCNA the monitor raised on @cpu's @bank (the #MC
    handler leaves it, the soak's poller on that CPU counts it), none corrected or
    uncorrected; its address at 64-byte granularity (MISC 0x86)."""
    from soak_tests import soak_records
    ev = [r for r in soak_records(b) if r.get("kind") == "soak_event"]
    dfr = [r for r in ev if r.get("event") == "deferred"]
    if b.expect(len(dfr) == 1, "one deferred record: %s" % ev):
        e = dfr[0]
        b.expect(e.get("cpu") == int(cpu) and e.get("bank") == int(bank) and
                 int(e["status"], 16) == int(status, 16) and
                 int(e["phys"], 16) == int(addr, 16) & ~63 and e.get("granularity") == 64,
                 "the record is the UCNA injected: %s" % e)
    b.expect(not [r for r in ev if r.get("event") in ("corrected", "uncorrected")],
             "nothing counted as corrected or uncorrected: %s" % ev)
