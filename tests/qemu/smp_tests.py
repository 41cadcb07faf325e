# SPDX-License-Identifier: GPL-2.0-only
"""smp_tests.py - the check functions of scenarios.cfg's smp rows (bring-up under -smp 1 to
255, absent and limited CPUs, CPUs on NUMA nodes, a crash on an AP, machine checks broadcast
to every CPU, the parallel benchmark preset, NMIs during a run), and smp_limit, two boots.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

from qemu_boot import PASS, ROOT


def smp_started(b, n, of=None):
    """The bring-up line: n CPUs online of `of` numbered, and every AP's start accounted."""
    m = b.has(r"^smp: %d of %d CPUs? online \((xAPIC|x2APIC), APIC ids: ([0-9 .]+)\)"
              % (n, of or n))
    b.lacks(r"^smp: CPU \d+ \(APIC id \d+\) did not start", "an AP failed to start")
    return m


def smp_suite_passed(b, skip=0):
    b.has(r"^ok \d+ smp$", "the smp suite did not pass")
    for case in ("cpus_started", "each_cpu_runs_on_its_own"):
        b.has(r"^    ok \d+ %s$" % case, "smp case %s did not pass" % case)
    if not skip:
        for case in ("fault_on_ap_guard_page", "nmi_on_ap_uses_its_ist", "barriers_hold",
                     "slow_cpu_is_a_timeout", "atomics_across_cpus"):
            b.has(r"^    ok \d+ %s$" % case, "smp case %s did not pass" % case)


def check_started(b, n):
    """-smp N: N CPUs online, APIC ids 0..N-1 (up to 16), the APs' start time as a note."""
    n = int(n)
    m = smp_started(b, n)
    t_ms = re.search(r"APs started in (\d+)\.(\d+) ms", b.log)
    b.expect(n == 1 or t_ms, "no AP start time reported")
    if t_ms:
        b.note = "APs started in %s.%s ms" % t_ms.groups()
    if m and n <= 16:
        b.expect(m.group(2).split() == [str(i) for i in range(n)],
                 "APIC ids %r, want 0..%d" % (m.group(2), n - 1))


def check_parallel_records(b):
    """bench=parallel on 2 CPUs: its JSON records, every primitive at 1 and 2 CPUs."""
    recs = [json.loads(l) for l in b.log.splitlines()
            if l.startswith('{"schema":1,"kind":"parallel"')]
    prims = {r["primitive"] for r in recs}
    b.expect(prims == {"copy_page", "memcpy", "copy_mc_to_kernel", "clear_page", "clear_pages"},
             "parallel primitives: %s" % sorted(prims))
    for r in recs:
        b.expect(r["error"] is None and r["aggregate_mbps"] > 0 and
                 len(r["per_cpu_mbps"]) == r["nr_cpus"] and
                 r["cpus"] == list(range(r["nr_cpus"])),
                 "bad parallel record %r" % r)
    b.expect(sorted({r["nr_cpus"] for r in recs}) == [1, 2], "steps other than 1 and 2 CPUs")


def t_smp_limit(b):
    """smp=2 under -smp 4 uses two CPUs and names the two left alone; smp=1 is today's run."""
    b.run("exit=qemu tests=smp smp=2", extra=["-smp 4"])
    b.status_is(PASS)
    smp_started(b, 2)
    b.has(r"^smp: 2 more enabled CPUs not used \(smp= limit\)$")
    smp_suite_passed(b)
    b.run("exit=qemu tests=smp smp=1", extra=["-smp 4"])
    b.status_is(PASS)
    b.has(r"^smp: running on the boot CPU only: smp=1$")
    b.has(r"^smp: 3 more enabled CPUs not used \(smp= limit\)$")
    b.has(r"^    ok \d+ fault_on_ap_guard_page # SKIP one CPU online")


NMI_NOTE = re.compile(r"# note: NMI #(\d+) received on CPU (\d+) at RIP [0-9a-f]{16} "
                      r"([A-Za-z_][A-Za-z0-9_.]*)\+0x[0-9a-f]+, continuing")
NMI_LOST = re.compile(r"# note: (\d+) more NMIs? on CPU (\d+) not noted \(its queue of \d+ "
                      r"was full\)")


def strict_ktap(b):
    """tools/ktap-check.py --strict over the raw serial log: every line inside the KTAP
    document is a version, plan, result or diagnostic line."""
    with tempfile.NamedTemporaryFile(suffix=".log") as f:
        f.write(b.raw)
        f.flush()
        p = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "ktap-check.py"),
                            "--strict", f.name], stdout=subprocess.PIPE, text=True)
    b.expect(p.returncode == 0, "ktap-check --strict: %s" % p.stdout.strip().splitlines()[-4:])


def check_nmi_notes(b):
    """Each NMI note a whole line naming its CPU and a symbol, numbered in order per CPU,
    none lost unsaid; 20 or more on the boot CPU (the monitor's, through LINT1, which only
    the boot CPU leaves unmasked) and one on CPU 3 (the smp suite's own NMI)."""
    last, noted, lost = {}, {}, {}
    for line in b.log.splitlines():
        if "NMI" not in line or "# note:" not in line:
            continue
        m, gone = NMI_NOTE.fullmatch(line), NMI_LOST.fullmatch(line)
        if not b.expect(m or gone, "an NMI note that is not a line of its own with a "
                        "symbol: %r" % line):
            continue
        if gone:
            cpu = int(gone.group(2))
            lost[cpu] = lost.get(cpu, 0) + int(gone.group(1))
            continue
        nr, cpu = int(m.group(1)), int(m.group(2))
        b.expect(nr > last.get(cpu, 0), "CPU %d's NMI #%d after #%d" % (cpu, nr,
                                                                  last.get(cpu, 0)))
        last[cpu] = nr
        noted[cpu] = noted.get(cpu, 0) + 1
    for cpu in last:
        b.expect(last[cpu] <= noted[cpu] + lost.get(cpu, 0),
                 "CPU %d: NMI #%d, but %d noted and %d counted lost" % (
                     cpu, last[cpu], noted[cpu], lost.get(cpu, 0)))
    b.expect(noted.get(0, 0) + lost.get(0, 0) >= 20, "CPU 0: %d NMIs noted, %d lost, want 20 "
             "or more" % (noted.get(0, 0), lost.get(0, 0)))
    b.expect(noted.get(3, 0) >= 1, "no note from CPU 3 (the smp suite's NMI)")
