# SPDX-License-Identifier: GPL-2.0-only
"""soak_tests.py - the check functions of scenarios.cfg's soak rows (the soak in the image,
soak/run.c): one pass over all free memory on every CPU, on the boot CPU alone and
over a node without CPUs, the soak_fault= knobs that must fail it (a flipped bit, a stuck
CPU, emulated poison on two nodes consumed at once, a real #MC from QEMU's monitor during a
copy), and a corrected error the soak's polling must find; and one whole scenario, corrected
errors on two nodes. Under TCG, -m 1G -smp 4 takes about 2 minutes and smp=1 about 6 on a
two-core machine shared with other work; the other scenarios use 256, 512 or 768 MiB (under
a minute each).

The checks come from what QEMU was told: the memory size bounds the pages soaked (what the
firmware and the image keep is less than 256 MiB of it), -smp the CPUs that soak, no -numa one
node and so one KTAP case; the image's own count of soak pages must then be what every pass
touched.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

from qemu_boot import INTEL, PASS, ROOT

MiB = 1 << 20


def soak_records(b):
    """The soak's JSON lines that parse, by kind."""
    recs = []
    for line in b.log.splitlines():
        if line.startswith('{"schema"') and '"kind":"soak' in line:
            try:
                recs.append(json.loads(line))
            except ValueError:
                b.expect(False, "not JSON: " + line[:120])
    return recs


def check_pass_over_all(b, mem_mib, cpus):
    """One pass: every soak page touched once, the count as planned, the summary record
    agrees with the plan and the verdict line."""
    mem_bytes, cpus = int(mem_mib) * MiB, int(cpus)
    m = b.has(r"^soak: free memory to soak: (\d+) pages \((\d+) bytes\) in \d+ ranges; covered "
              r"by the plan: (\d+) pages \((\d+) bytes\)$")
    c = b.has(r"^soak: coverage: the first pass touched (\d+) pages of the (\d+) the plan covers "
              r"\(0 retired, 0 on stuck CPUs not counted\)$")
    if m and c:
        pages = int(m.group(1))
        b.expect(int(m.group(2)) == pages * 4096, "pages and bytes agree")
        b.expect(mem_bytes - 256 * MiB < pages * 4096 <= mem_bytes,
                 "%d soak pages in the %d MiB QEMU was given" % (pages, mem_bytes >> 20))
        b.expect(int(c.group(1)) == pages == int(c.group(2)) == int(m.group(3)),
                 "touched %s of %s free pages" % (c.group(1), pages))
    s = b.has(r"^# copykernel-soak: result=PASS duration=\d+\.\d{3}s passes=1 bytes=(\d+) "
              r"corrected=0 deferred=0 uncorrected=0 miscompares=0 stuck_cpus=0 "
              r"retired_pages=0 not_stored=0$")
    summ = [r for r in soak_records(b) if r.get("kind") == "soak_summary"]
    if b.expect(len(summ) == 1, "one soak_summary record: %d" % len(summ)) and m and s:
        r = summ[0]
        b.expect(r["result"] == "PASS" and r["passes"] == 1 and r["cpus"] == cpus and
                 r["bytes_per_pass"] == int(m.group(4)) and
                 r["bytes_verified"] == int(s.group(1)), "summary record: %s" % r)


def check_flip_record(b, passes):
    """soak_fault=flip: in each of the @passes passes CPU 0 flipped one bit of a word CPU 1
    wrote; one miscompare record for each, naming that word, its bit and both values, a stored
    error found by CPU 1, and no other (the verify goes on past each at the right word, in the
    passes whose data changes word by word too)."""
    flips = re.findall(r"^soak: soak_fault=flip: CPU 0 flipped bit (\d+) of the word at "
                       r"(0x[0-9a-f]+) \((0x[0-9a-f]+) -> (0x[0-9a-f]+)\), written by CPU 1 in "
                       r"pass (\d+), before its verify$", b.log, re.M)
    b.expect(sorted(int(f[4]) for f in flips) == list(range(int(passes))),
             "one flip in each of %s passes: %s" % (passes, flips))
    ev = [r for r in soak_records(b) if r.get("kind") == "soak_event" and
          r.get("event") == "miscompare"]
    b.expect(len(ev) == len(flips), "%d miscompare records for %d flips: %s" %
             (len(ev), len(flips), [(e.get("phys"), e.get("pattern")) for e in ev][:8]))
    for bit, pa, before, after, _ in flips:
        mine = [e for e in ev if int(e["phys"], 16) == int(pa, 16)]
        if not b.expect(len(mine) == 1, "no single record of the word at %s" % pa):
            continue
        e = mine[0]
        b.expect(int(e["expected"], 16) == int(before, 16) and
                 int(e["actual"], 16) == int(after, 16) and
                 int(e["expected"], 16) ^ int(e["actual"], 16) == 1 << int(bit),
                 "the record names the flipped word: %s" % e)
        b.expect(str(e.get("reread")).startswith("stored error"), "a stored error: %s" % e)
        b.expect(e.get("cpu") == 1, "found by the CPU that wrote it: %s" % e)
    # A flip where the words differ from one another, so resuming at a wrong word would show.
    b.expect(any(int(f[2], 16) not in (0, (1 << 64) - 1) for f in flips),
             "every flip landed in all-zero or all-one data: %s" % flips)


def check_stuck_records(b):
    """soak_fault=stuck:2: the pages not counted are the stuck CPU's, and one stuck_cpu
    record names CPU 2."""
    c = b.has(r"^soak: coverage: the first pass touched (\d+) pages of the (\d+) the plan "
              r"covers \(0 retired, (\d+) on stuck CPUs not counted\)$")
    if c:
        b.expect(int(c.group(1)) + int(c.group(3)) == int(c.group(2)) and int(c.group(3)) > 0,
                 "the other CPUs' pages and the stuck CPU's make the plan: %s" % c.group(0))
    ev = [r for r in soak_records(b) if r.get("kind") == "soak_event" and
          r.get("event") == "stuck_cpu"]
    b.expect(len(ev) == 1 and ev[0].get("cpu") == 2, "one stuck_cpu record for CPU 2: %s" % ev)


# VAL EN MISCV ADDRV, UC clear: a corrected memory error QEMU's `mce` writes into a bank without
# raising anything (REFERENCE.md 9); MISC 0x86: LSB 6 (a 64-byte line), physical address mode.
def check_corrected_record(b, bank, status, addr, outside=None):
    """One corrected record: the @bank, @status and @addr its row wrote through the monitor,
    at 64-byte granularity (MISC 0x86); with @outside, a second one at that address, outside
    the soak ranges, on node 0: without an SRAT one node holds everything."""
    ev = [r for r in soak_records(b) if r.get("kind") == "soak_event" and
          r.get("event") == "corrected"]
    inside = [e for e in ev if int(e["phys"], 16) == int(addr, 16)]
    if b.expect(len(inside) == 1 and len(ev) == 1 + (outside is not None),
                "corrected records: %s" % ev):
        e = inside[0]
        b.expect(e.get("bank") == int(bank) and int(e["status"], 16) == int(status, 16) and
                 e.get("granularity") == 64 and e.get("range") is not None,
                 "the record is what was written: %s" % e)
    if outside is None:
        return
    out = [e for e in ev if int(e["phys"], 16) == int(outside, 16)]
    if b.expect(len(out) == 1, "no record at %s" % outside):
        b.expect(out[0].get("node") == 0 and out[0].get("range") is None,
                 "outside the soak ranges, node 0 (no SRAT): %s" % out[0])
        b.has(r"^# soak-event: .* physical %s \(64 bytes\), node 0, outside the soak "
              r"ranges, " % outside)


def check_cpu_records(b, cpus, passes=1):
    """Each of the @cpus CPUs says its whole passes, the pages of its share and how long its
    first pass took, as a line and a soak_cpu record; the shares make the plan, differ by one
    page at most (one node), and the first whole pass over everything is the slowest CPU's."""
    cpus, passes = int(cpus), int(passes)
    recs = [r for r in soak_records(b) if r.get("kind") == "soak_cpu"]
    plan = b.has(r"^soak: free memory to soak: \d+ pages .*; covered by the plan: (\d+) pages "
                 r"\((\d+) bytes\)$")
    if not b.expect(len(recs) == cpus, "%d soak_cpu records, want %d" % (len(recs), cpus)):
        return
    b.expect(sorted(r["cpu"] for r in recs) == list(range(cpus)), "CPUs %s" % recs)
    for r in recs:
        b.expect(r["passes"] == passes and not r["stuck"] and r["first_pass_ns"] and
                 r["min_pass_ns"] <= r["first_pass_ns"] <= r["max_pass_ns"] and
                 r["done_ns"] >= r["first_pass_ns"], "CPU %d: %s" % (r["cpu"], r))
        b.has(r"^soak: CPU %d \(node 0\): %d whole pass(es)? over %d pages \([\d.]+ MiB\), "
              r"the first in [\d.]+s" % (r["cpu"], passes, r["pages"]))
    pages = [r["pages"] for r in recs]
    if plan:
        b.expect(sum(pages) == int(plan.group(1)) and max(pages) - min(pages) <= 1,
                 "shares %s of %s pages" % (pages, plan.group(1)))
        slowest = max(r["first_pass_ns"] for r in recs)
        b.has(r"^soak: the first whole pass over all %s bytes took %d\.%03ds \(CPU \d+'s, "
              r"the slowest\)$" % (plan.group(2), slowest // 10**9, slowest // 10**6 % 1000))


def _gbps(mbps):
    """MB/s as the image prints GB/s."""
    return r"%d\.%03d GB/s" % (mbps // 1000, mbps % 1000)


def _share(value, limit, div):
    """The image's share in parts per thousand: value over limit/div, rounded down."""
    return value * 1000 * div // limit if limit else None


def check_speed(b, cpus, passes=1):
    """The soak measures itself (issue 38): one soak_probe record and its line, every stream
    run by all @cpus CPUs; one soak_speed record and line per schedule row the soak reached
    (@passes whole passes: rows 0..passes-1), each by every CPU. Consistent with each other and
    with the rest of the soak's output, never with a time: the shares are the rates over the
    probe's limits, traffic is at least what was checked, a row's time is within the slowest
    CPU's first pass, and row 0's checked rate is at least the bytes the summary says were
    checked in its pass over the row's longest time. Under TCG both say the figures say
    nothing about hardware."""
    cpus, passes = int(cpus), int(passes)
    recs = soak_records(b)
    probe = [r for r in recs if r.get("kind") == "soak_probe"]
    speed = [r for r in recs if r.get("kind") == "soak_speed"]
    if not b.expect(len(probe) == 1, "one soak_probe record: %d" % len(probe)):
        return
    p = probe[0]
    b.expect(p["cpus"] == cpus and p["hypervisor"] is True and p["window_bytes"] > 0,
             "the probe on %d CPUs under a hypervisor: %s" % (cpus, p))
    for k in ("nt_write", "read", "copy"):
        b.expect(p[k + "_cpus"] == cpus and (p[k + "_mbps"] or 0) > 0,
                 "%s: every CPU, a rate: %s" % (k, p))
    b.has(r"^soak: probe: every soaking CPU at once \(%d CPUs, up to %d KiB each\), traffic: "
          r"nt-write %s, read %s, copy %s \(%s\); the probe took %d\.%03ds; under a "
          r"hypervisor: .*say nothing about the hardware$" %
          (cpus, p["window_bytes"] >> 10, _gbps(p["nt_write_mbps"]), _gbps(p["read_mbps"]),
           _gbps(p["copy_mbps"]), re.escape(p["copy"] or ""), p["took_ns"] // 10**9,
           p["took_ns"] // 10**6 % 1000))
    b.expect(sorted(r["row"] for r in speed) == list(range(min(passes, 5))),
             "a soak_speed record for each row reached: %s" % [r["row"] for r in speed])
    firsts = [r["first_pass_ns"] for r in recs if r.get("kind") == "soak_cpu" and
              r.get("first_pass_ns")]
    summ = [r for r in recs if r.get("kind") == "soak_summary"]
    for r in speed:
        b.expect(r["cpus"] == cpus and r["passes"] >= 1 and r["hypervisor"] is True and
                 0 < r["checked_mbps"] <= r["traffic_mbps"],
                 "row %d by every CPU, traffic at least checked: %s" % (r["row"], r))
        want = (_share(r["checked_mbps"], p["read_mbps"], 1),
                _share(r["checked_mbps"], p["copy_mbps"], 2),
                _share(r["traffic_mbps"], p["copy_mbps"], 1))
        got = (r["checked_read_x1000"], r["checked_copy_half_x1000"], r["traffic_copy_x1000"])
        b.expect(got == want, "row %d's shares are its rates over the probe's: %s, want %s" %
                 (r["row"], got, want))
        b.has(r"^soak: speed: pass row %d \(%s\), %d whole pass(es)? on each of %d CPUs, "
              r"[\d.]+s at most on one: checked %s, traffic %s; of the probe's limits: "
              r"checked/read %d\.%d%%, checked/\(copy/2\) %d\.%d%%, traffic/copy %d\.%d%%; "
              r"under a hypervisor: " %
              (r["row"], r["pass"], r["passes"], cpus, _gbps(r["checked_mbps"]),
               _gbps(r["traffic_mbps"]), want[0] // 10, want[0] % 10, want[1] // 10,
               want[1] % 10, want[2] // 10, want[2] % 10))
    row0 = [r for r in speed if r["row"] == 0]
    if row0 and firsts:
        r = row0[0]
        b.expect(r["ns"] <= max(firsts), "row 0's time %d within the slowest first pass %d" %
                 (r["ns"], max(firsts)))
        if passes == 1 and len(summ) == 1:
            floor = summ[0]["bytes_verified"] * 1000 // r["ns"]
            b.expect(r["checked_mbps"] + cpus >= floor, "row 0 checked %d MB/s, at least the "
                     "summary's bytes over its time, %d" % (r["checked_mbps"], floor))


def check_after_suites(b, mem_mib, cpus):
    """tests=all then soak=passes:1: the suites left no page of the soak's memory on the poison
    list, every CPU touched its whole share, PASS (issue 31, defect 1)."""
    b.lacks(r"^soak: page 0x[0-9a-f]+ is on the poison list from before the soak",
            "the suites left poison on free memory")
    b.lacks(r"^soak: coverage: CPU \d+ (touched|did not)", "a CPU fell short")
    check_pass_over_all(b, mem_mib, cpus)
    check_cpu_records(b, cpus)


CE_NODES = ("-object memory-backend-ram,id=m0,size=256M -object memory-backend-ram,id=m1,"
            "size=256M -numa node,nodeid=0,cpus=0-1,memdev=m0 "
            "-numa node,nodeid=1,cpus=2-3,memdev=m1")
NODE_BYTES = 256 * MiB
# VAL EN MISCV ADDRV (UC clear: corrected) with a memory-controller code; MISC 0x86 is LSB 6
# (64-byte granularity), physical address mode.
CE_VAL = 0x9c00000000000000
# Outside the soak ranges: RAM below 1 MiB (node 0), the firmware's ACPI NVS at the top of
# node 1 (QEMU's OVMF keeps the last 576 KiB of low RAM so).
OUT_NODE0, OUT_NODE1 = 0x1040, 2 * NODE_BYTES - 0x10000 + 0x40


def t_soak_corrected_two_nodes(b):
    """CEs into CPUs 0 and 2 of two nodes mid-soak: each in the ledger once, OVER decoded."""
    # Each with its CPU, bank, address and node; a bank written twice before a poll: OVER.
    # (cpu, bank, code, address): CPU 0 reports an address on node 1, CPU 2 two on node 0 in
    # one bank. They go in at the first progress line, a second in, after each CPU's first
    # poll; soak_poll= is longer than the soak, so the next poll is when each CPU's pass ends.
    # Two more outside the soak ranges, one on each node (RAM below 1 MiB, and the firmware's
    # ACPI NVS at node 1's top): each in its own bucket, labelled with its own node.
    shots = [(0, 2, 0x9f, NODE_BYTES + 0x40), (2, 3, 0x9f, 0x200080), (2, 3, 0xa0, 0x201000),
             (1, 4, 0x9f, OUT_NODE0), (3, 4, 0x9f, OUT_NODE1)]
    args = ["--smp", "4"]
    for cpu, bank, code, addr in shots:
        args += ["--hmp-when", r"^soak: progress: ",
                 "mce %d %d 0x%x 0 0x%x 0x86" % (cpu, bank, CE_VAL | code, addr)]
    b.run("exit=qemu tests=none soak=passes:1 soak_poll=60000 soak_progress=1", cpu=INTEL,
          mem="512M", extra=[CE_NODES], runner_args=args)
    b.status_is(PASS)
    ev = [r for r in soak_records(b) if r.get("kind") == "soak_event" and
          r.get("event") == "corrected"]
    # What each bank holds at the poll: the last error written to it, OVER when it was not the
    # first (the bank's STATUS gains bit 62).
    want = {}
    for cpu, bank, code, addr in shots:
        over = (cpu, bank) in want
        want[(cpu, bank)] = (CE_VAL | code | (1 << 62 if over else 0), addr, over)
    b.expect(len(ev) == len(want), "%d corrected records, want %d: %s" % (len(ev), len(want), ev))
    for (cpu, bank), (status, addr, over) in sorted(want.items()):
        mine = [e for e in ev if e.get("cpu") == cpu and e.get("bank") == bank]
        if not b.expect(len(mine) == 1, "CPU %d bank %d in the ledger %d times, want once" %
                        (cpu, bank, len(mine))):
            continue
        e = mine[0]
        b.expect(int(e["status"], 16) == status and e.get("over") is over and
                 int(e["phys"], 16) == addr & ~63 and e.get("granularity") == 64 and
                 e.get("node") == addr // NODE_BYTES,
                 "CPU %d bank %d: %s; want STATUS 0x%x OVER %s at 0x%x on node %d" %
                 (cpu, bank, e, status, over, addr & ~63, addr // NODE_BYTES))
    b.has(r"^# copykernel-soak: result=PASS .* corrected=%d deferred=0 uncorrected=0 "
          r"miscompares=0 stuck_cpus=0 retired_pages=0 not_stored=0$" % len(want))
    summ = [r for r in soak_records(b) if r.get("kind") == "soak_summary"]
    if b.expect(len(summ) == 1, "one soak_summary record"):
        b.expect(summ[0]["counts"]["corrected"] == len(want),
                 "the summary counts %s corrected" % summ[0]["counts"]["corrected"])
        # (The 8 MiB the soak keeps back are outside its ranges too: 0x201000 is there.)
        want = {}
        for e in ev:
            if e.get("range") is None:
                want[e.get("node")] = want.get(e.get("node"), 0) + 1
        outside = {x.get("node"): x.get("corrected") for x in summ[0]["ledger"]
                   if x.get("where", "").endswith("outside the soak ranges (no DIMM map "
                                                  "from firmware)")}
        b.expect(sorted(want) == [0, 1] and outside == want,
                 "one bucket outside the soak ranges per node, %s: %s" % (want,
                                                                          summ[0]["ledger"]))
        for node, n in want.items():
            b.has(r"^# soak-ledger: node %d outside the soak ranges \(no DIMM map from "
                  r"firmware\): corrected %d, " % (node, n))


# Two nodes of unequal size, a DIMM map with two DIMMs on node 1 (tools/mk-smbios-dimms.py):
# node 0 (CPU 0) 448 MiB, node 1 (CPU 1) 64 MiB in DIMM_B0 and DIMM_B1 of 32 MiB each.
UNEQUAL_NODES = ("-object memory-backend-ram,id=m0,size=448M -object memory-backend-ram,id=m1,"
                 "size=64M -numa node,nodeid=0,cpus=0,memdev=m0 "
                 "-numa node,nodeid=1,cpus=1,memdev=m1")
B0, B1 = 448 * MiB + 0x100040, 480 * MiB + 0x100040


def t_soak_node_buckets_late_ce(b):
    """12 CEs on node 1, 6 in each of its DIMMs, the last after CPU 1's own last poll: PASS."""
    # (cpu, bank, address): CPU 0 reports six in DIMM_B0 and CPU 1 five in DIMM_B1 as the
    # soak starts, each in a bank of its own (no OVER); the twelfth goes into CPU 1's bank 7
    # once CPU 1 has said its passes are done (after its own last poll) while CPU 0, with
    # seven times the memory, still soaks. Two buckets of 6: below the threshold of 10 each,
    # so every line says PASS, node 1's KTAP case too, though node 1 holds all twelve.
    early = [(0, bank, B0) for bank in range(2, 8)] + [(1, bank, B1) for bank in range(2, 7)]
    late = (1, 7, B1)
    with tempfile.TemporaryDirectory(prefix="ck-smbios-") as tmp:
        p = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "mk-smbios-dimms.py"),
                            "--map", "0:448M=DIMM_A0", "--map", "448M:32M=DIMM_B0",
                            "--map", "480M:32M=DIMM_B1", "--out-dir", tmp],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if not b.expect(p.returncode == 0, "mk-smbios-dimms: " + p.stderr.strip()):
            return
        args = ["--smp", "2"]
        for cpu, bank, addr in early:
            args += ["--hmp-when", r"^soak: node 1: \d+ pages",
                     "mce %d %d 0x%x 0 0x%x 0x86" % (cpu, bank, CE_VAL | 0x9f, addr)]
        args += ["--hmp-when", r"^soak: CPU 1 done ",
                 "mce %d %d 0x%x 0 0x%x 0x86" % (late[0], late[1], CE_VAL | 0x9f, late[2])]
        b.run("exit=qemu tests=none soak=passes:1", cpu=INTEL, mem="512M",
              extra=[UNEQUAL_NODES] + ["-smbios file=" + os.path.join(tmp, f)
                                       for f in sorted(os.listdir(tmp))],
              runner_args=args)
    b.status_is(PASS)
    b.has(r"^    KTAP version 1\n    # Subtest: soak\n    1\.\.2\n    ok 1 node0\n"
          r"    # ck-lava <soak\.node0 pass>\n    ok 2 node1\n    # ck-lava <soak\.node1 pass>\n"
          r"ok 1 soak$")
    b.has(r"^# copykernel-soak: result=PASS .* corrected=12 deferred=0 uncorrected=0 "
          r"miscompares=0 stuck_cpus=0 retired_pages=0 not_stored=0$")
    b.has(r"^# ck-lava <soak pass>$")
    for dimm in ("DIMM_B0", "DIMM_B1"):
        b.has(r"^# soak-ledger: DIMM \S*%s \(node 1\): corrected 6, " % dimm)
    ev = [r for r in soak_records(b) if r.get("kind") == "soak_event"]
    b.expect(all(e.get("event") == "corrected" and e.get("node") == 1 for e in ev),
             "every record a corrected error on node 1: %s" % ev)
    cpu1 = [r for r in soak_records(b) if r.get("kind") == "soak_cpu" and r.get("cpu") == 1]
    last = [e for e in ev if (e.get("cpu"), e.get("bank")) == late[:2]]
    if b.expect(len(last) == 1 and len(cpu1) == 1,
                "the CE written after CPU 1 was done is in the ledger once: %s" % last):
        b.expect(int(last[0]["phys"], 16) == late[2] & ~63 and
                 last[0]["t_ns"] > cpu1[0]["done_ns"],
                 "found after CPU 1's passes ended (%d ns): %s" % (cpu1[0]["done_ns"], last[0]))
    summ = [r for r in soak_records(b) if r.get("kind") == "soak_summary"]
    if b.expect(len(summ) == 1, "one soak_summary record"):
        b.expect(summ[0]["result"] == "PASS" and summ[0]["counts"]["corrected"] == 12,
                 "the summary record: %s" % summ[0])


# Two nodes, the second without CPUs (how CXL memory appears, REFERENCE.md 2), no SLIT.
def check_cpuless_pages(b):
    """Node 0 (2 CPUs, 512 MiB) and node 1 (no CPU, 256 MiB): each node's pages within what
    QEMU gave it, and the first pass touched every page of both."""
    n0 = b.has(r"^soak: node 0: (\d+) pages, 2 CPUs$")
    n1 = b.has(r"^soak: node 1: (\d+) pages, 0 CPUs$")
    if n0 and n1:
        b.expect(256 * MiB < int(n0.group(1)) * 4096 <= 512 * MiB and
                 128 * MiB < int(n1.group(1)) * 4096 <= 256 * MiB,
                 "node pages within what QEMU gave each node: %s, %s" %
                 (n0.group(1), n1.group(1)))
    m = b.has(r"^soak: free memory to soak: (\d+) pages")
    c = b.has(r"^soak: coverage: the first pass touched (\d+) pages of the (\d+) the plan")
    if m and c and n0 and n1:
        b.expect(int(c.group(1)) == int(m.group(1)) == int(n0.group(1)) + int(n1.group(1)),
                 "every page of both nodes touched: %s" % c.group(0))


SRAR_STATUS = 0xbd80000000000134


def check_emulate_records(b):
    """soak_fault=emulate: CPUs 0 and 1 each armed a page on its own node; each copy stopped
    there; one uncorrected and one retired record per page; the verdict names one."""
    armed = {}
    for m in re.finditer(r"^soak: soak_fault=emulate: CPU (\d) \(node (\d)\) armed emulated "
                         r"poison on the page at (0x[0-9a-f]+) of the source it copies next$",
                         b.log, re.M):
        armed[int(m.group(1))] = (int(m.group(2)), int(m.group(3), 16))
    b.expect(sorted(armed) == [0, 1] and armed[0][0] != armed[1][0],
             "CPUs 0 and 1 armed a page each, on two nodes: %s" % armed)
    for cpu, (node, pa) in armed.items():
        b.has(r"^soak: soak_fault=emulate: CPU %d left together from the rendezvous; its copy "
              r"over the page at 0x%x returned -133 \(stopped by the poison\) \d+ us after "
              r"it; the page is on the poison list \(memory_failure_queue\)$" % (cpu, pa))
    ev = [r for r in soak_records(b) if r.get("kind") == "soak_event"]
    unc = sorted((r.get("cpu"), r.get("node"), int(r["phys"], 16)) for r in ev
                 if r.get("event") == "uncorrected" and r.get("bank") == 1 and
                 int(r.get("status", "0"), 16) == SRAR_STATUS)
    ret = sorted((r.get("cpu"), r.get("node"), int(r["phys"], 16)) for r in ev
                 if r.get("event") == "retired_page" and r.get("cause") == "uncorrected")
    want = sorted((c, n, pa) for c, (n, pa) in armed.items())
    # Three passes (the halves swap each pass, so the page is a source again in the third):
    # had the retirement not kept the later passes off the pages, they would meet the poison
    # again (or store into a page that is not present).
    b.expect(unc == want and ret == want and len(ev) == 4,
             "one uncorrected and one retired record per armed page, with its CPU and node "
             "(want %s): %s" % (want, ev))
    for cpu, (node, pa) in armed.items():
        b.has(r"^# soak-event: [\d.]+s CPU %d uncorrected: bank 1 .*physical 0x%x "
              r"\(64 bytes\), node %d, " % (cpu, pa, node))
    v = b.has(r"^# copykernel-soak: result=FAIL .* passes=3 .* uncorrected=2 miscompares=0 "
              r"stuck_cpus=0 retired_pages=2 not_stored=0 reason=\"uncorrected error "
              r"\(recovered\) \(2\), the first at (0x[0-9a-f]+) on CPU (\d)\"$")
    if v:
        b.expect(armed.get(int(v.group(2)), (0, 0))[1] == int(v.group(1), 16),
                 "the verdict names a poisoned page with its CPU: %s" % v.group(0))


def check_mce_records(b):
    """soak_fault=mce: the SRAR the image asked for is what the runner sent, recovered in a
    copy; one uncorrected record of it and the page retired; the verdict names it; a
    broadcast's bank on the other CPU is polled once."""
    q = b.has(r"^soak: soak_fault=mce: mce-inject: request bank=1 status=(0x[0-9a-f]+) "
              r"mcg=0x7 addr=(0x[0-9a-f]+) misc=0x86 cpu=0 broadcast=(yes|no)$")
    if not q:
        return
    pa = int(q.group(2), 16)
    b.expect(int(q.group(1), 16) == SRAR_STATUS, "an SRAR data load asked for: %s" % q.group(0))
    b.expect(re.search(r"ck-run: injecting: mce (-b )?0 1 0x%x 0x7 0x%x 0x86" %
                       (SRAR_STATUS, pa), b.runner_err) is not None,
             "the runner sent it to QEMU: %s" % b.runner_err.strip().splitlines()[:3])
    # The copy loop is where it must land: a copy_mc routine's RIP, recovered through it.
    b.has(r"^soak: soak_fault=mce: the #MC came during copy \d+ of the piece: a real #MC on "
          r"CPU 0 at RIP copy_mc_\w+[.\w]*\+0x[0-9a-f]+, recovered, bank address 0x%x$" % pa)
    ev = [r for r in soak_records(b) if r.get("kind") == "soak_event"]
    unc = [r for r in ev if r.get("event") == "uncorrected"]
    ret = [r for r in ev if r.get("event") == "retired_page"]
    # QEMU's "mce -b" writes VAL|UC (EN and S clear) into bank 1 of the other CPU. Linux's
    # #MC handler leaves such a bank (not signalled) and its poller logs it as a UCNA (EN
    # clear is logged); so does the image, once, as a deferred error of CPU 1 with no address.
    qemu_bc = [r for r in ev if r.get("event") == "deferred"]
    want_bc = 1 if q.group(3) == "yes" else 0
    b.expect(len(qemu_bc) == want_bc and all(
        r.get("cpu") == 1 and r.get("bank") == 1 and int(r["status"], 16) == 0xa000000000000000
        and r.get("phys") is None for r in qemu_bc),
        "broadcast=%s: %d deferred record(s) of QEMU's bank 1 on CPU 1: %s" %
        (q.group(3), want_bc, qemu_bc))
    if b.expect(len(unc) == 1 and len(ret) == 1 and len(ev) == 2 + want_bc,
                "one uncorrected and one retired record: %s" % ev):
        u, r = unc[0], ret[0]
        b.expect(u.get("cpu") == 0 and u.get("bank") == 1 and
                 int(u["status"], 16) == SRAR_STATUS and int(u["phys"], 16) == pa and
                 u.get("granularity") == 64 and u.get("node") == 0,
                 "the record is the injected error: %s" % u)
        b.expect(r.get("cpu") == 0 and r.get("cause") == "uncorrected" and
                 int(r["phys"], 16) == pa & ~0xfff, "the page retired: %s" % r)
    b.has(r"^# soak-event: [\d.]+s CPU 0 uncorrected: bank 1 .*physical 0x%x \(64 bytes\)" % pa)
    b.has(r"^# copykernel-soak: result=FAIL .* passes=1 .* uncorrected=1 miscompares=0 "
          r"stuck_cpus=0 retired_pages=1 not_stored=0 reason=\"uncorrected error "
          r"\(recovered\) \(1\), the first at 0x%x on CPU 0\"$" % pa)
