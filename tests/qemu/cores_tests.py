# SPDX-License-Identifier: GPL-2.0-only
"""cores_tests.py - the cores suite proved from outside the image (issue 36, item 6): QEMU runs
with its gdb stub (-gdb tcp:127.0.0.1:PORT), and once the image prints its load address
Debian's gdb attaches, breaks at one kernel's symbol on one vCPU only (the load address plus
the symbol's value in copykernel.so, `if $_thread == N + 1`), flips one bit of the memory that
kernel is about to check (or of a register it is about to use), detaches, and the run goes on.
The run must FAIL naming that CPU and that kernel, in the KTAP case, its per-CPU parameter
and its JSON record, and nothing else may fail; the replay of the seed on that CPU and on
the CPU furthest from it finds nothing (a flip made once is "not_reproduced"); a control run with the same breakpoint and no
flip must PASS. There is no hook in the image: what it reports comes from its own vote.

Every gdb step runs under a timeout: a gdb that cannot attach, or a breakpoint that is never
hit, fails the scenario with what gdb said, and QEMU's own timeout (tools/ck-run.py) bounds
the boot, so nothing hangs.
"""
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time

from qemu_boot import FAIL, INTEL, PASS, RUNNER

SMP = 4
# The kernels of cores/list.c: each leaves one record, run or skipped.
KERNELS = 22
# What each flip does at the kernel's entry (SysV: rdi, rsi, rdx are the first arguments):
#   memory  one bit of the buffer the routine is about to read (rdi), at byte 100 (memory4:
#           at byte 4)
#   rdx     one bit of the third argument (muldiv's starting state)
FLIPS = {
    # kernel case: (symbol the debugger stops at, what it flips)
    "copy_page_rep": ("cores_copy_digest", "memory"),    # the first copy kernel's checker
    "crc32c": ("cores_crc32c_insn", "memory"),
    "muldiv": ("cores_muldiv_chain", "rdx"),
    "vec_sse2": ("cores_vec_sse2", "memory"),
    "aes128": ("cores_aes128_cbc", "memory"),
    "x87": ("cores_x87", "memory4"),                       # the second input (48 bytes in all)
    # The copy pairs (CPU c checks the copy of the CPU before it; the CPU after c checks
    # again): the checker's answer flipped (rax when it returns), or the writer's data.
    "pair_checker": ("cores_copy_check_other", "rax"),
    "pair_writer": ("cores_copy_check_other", "memory"),
}
LOAD_RE = re.compile(r"image at (0x[0-9A-Fa-f]+)")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def symbol(b, name):
    """@name's value in copykernel.so (linked at 0), or None."""
    so = os.path.join(os.path.dirname(b.image), "copykernel.so")
    p = subprocess.run(["nm", "--defined-only", so], stdout=subprocess.PIPE, text=True,
                       timeout=60)
    for line in p.stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[2] == name:
            return int(parts[0], 16)
    return None


def gdb_script(port, addr, cpu, flip):
    lines = ["set pagination off", "set confirm off", "set remotetimeout 30",
             "target remote 127.0.0.1:%d" % port,
             "break *0x%x if $_thread == %d" % (addr, cpu + 1),
             "continue",
             'printf "CK-HIT thread %d pc %lx rdi %lx\\n", $_thread, $pc, $rdi']
    if flip in ("memory", "memory4"):
        at = 100 if flip == "memory" else 4
        lines += ["set var *(unsigned char *)($rdi + %d) = *(unsigned char *)($rdi + %d) ^ 4" % (
            at, at)]
    elif flip == "rdx":
        lines += ["set var $rdx = $rdx ^ 0x10000"]
    elif flip == "rax":
        lines += ["delete", "tbreak *(*(unsigned long *)$rsp) if $_thread == %d" % (cpu + 1),
                  "continue", "set var $rax = $rax ^ 1"]
    if flip:
        lines += ['printf "CK-FLIPPED %s\\n"' % flip]
    lines += ["delete", "detach", "quit"]
    return "\n".join(lines) + "\n"


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read().decode("ascii", "replace")
    except OSError:
        return ""


def boot_with_gdb(b, cmdline, kernel, cpu, flip, smp=SMP, qemu=()):
    """One boot of @cmdline on SMP vCPUs with gdb flipping (@flip None: only breaking) in
    @kernel's routine on vCPU @cpu. Fills b.log, b.status and b.gdb_out."""
    sym, _how = FLIPS[kernel]
    value = symbol(b, sym)
    b.gdb_out = ""
    if not b.expect(value is not None, "%s is not in copykernel.so" % sym):
        return False
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="ck-cores-gdb-") as tmp:
        log, errs = os.path.join(tmp, "serial.log"), os.path.join(tmp, "runner.err")
        # The runner stops the guest (the monitor's `stop`) as soon as the load address is
        # printed, so the breakpoint is in before the suites run, whatever the host's speed;
        # gdb's `continue` starts it again.
        # -v: the runner names QEMU's live serial file (its --log is written at the end).
        argv = [sys.executable, RUNNER, "-q", "-v", "--image", b.image, "--smp", str(smp),
                "--timeout", str(b.timeout), "--log", log,
                "--hmp-when", LOAD_RE.pattern, "stop",
                "--qemu-arg", "-gdb tcp:127.0.0.1:%d" % port]
        for q in qemu:
            argv += ["--qemu-arg", q]
        argv += ["--"] + cmdline.split()
        with open(errs, "w") as ef:
            qemu = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=ef, text=True)
        m, end = None, time.monotonic() + b.timeout
        while m is None and qemu.poll() is None and time.monotonic() < end:
            time.sleep(0.05)
            said = read(errs)
            live = re.search(r"-chardev file,id=ser0,path=(\S+)", said)
            if live and "ck-run: sending: stop" in said:
                m = LOAD_RE.search(read(live.group(1)))
        if m:
            script = os.path.join(tmp, "flip.gdb")
            with open(script, "w") as f:
                f.write(gdb_script(port, int(m.group(1), 16) + value, cpu, flip))
            try:
                g = subprocess.run(["gdb", "-nx", "-batch", "-x", script],
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   text=True, timeout=90)
                b.gdb_out = g.stdout
            except subprocess.TimeoutExpired as e:
                b.gdb_out = (e.stdout or b"").decode("ascii", "replace") if isinstance(
                    e.stdout, bytes) else (e.stdout or "")
                b.expect(False, "gdb did not finish within 90 s: %s" % b.gdb_out[-300:])
        try:
            qemu.communicate(timeout=b.timeout + 60)
        except subprocess.TimeoutExpired:
            qemu.kill()
            qemu.communicate()
        b.status, b.runner_err = qemu.returncode, read(errs)
        b.log = read(log).replace("\r", "")
        b.logs.append(b.log)
    if not b.expect(m is not None, "the image never printed its load address, or the runner "
                    "did not stop the guest there: %s" % b.runner_err.strip()[-300:]):
        return False
    hit = re.search(r"^CK-HIT thread (\d+) ", b.gdb_out, re.M)
    if not b.expect(hit is not None and int(hit.group(1)) == cpu + 1,
                    "gdb's breakpoint at %s on vCPU %d was not hit: %s" % (
                        sym, cpu, b.gdb_out.strip()[-400:])):
        return False
    return b.expect(not flip or "CK-FLIPPED %s" % flip in b.gdb_out,
                    "gdb did not flip: %s" % b.gdb_out.strip()[-400:])


def records(b):
    out = {}
    for line in b.log.splitlines():
        i = line.find('{"schema":1,"kind":"cores"')
        if i >= 0:
            r = json.loads(line[i:])
            out[r["kernel"]] = r
    return out


def check_agree_everywhere(b, recs, but=None):
    """Every kernel's case, parameters and record agree with its verdict; only @but fails."""
    for k, r in recs.items():
        case = re.search(r"^    (ok|not ok) \d+ %s(?: # SKIP .*)?$" % re.escape(k), b.log, re.M)
        if not b.expect(case is not None, "no KTAP case for kernel %s" % k):
            continue
        if k == but:
            continue
        b.expect(r["verdict"] in ("agree", "none") and case.group(1) == "ok",
                 "kernel %s: %s, KTAP %s, want agree and ok" % (k, r["verdict"], case.group(1)))


def t_cores_gdb(b, kernel, cpu, flip="flip"):
    """tests=cores on -smp 4; gdb breaks in @kernel's routine on vCPU @cpu and (@flip "flip")
    flips a bit there, or (@flip "control") only breaks."""
    cpu = int(cpu)
    how = FLIPS[kernel][1] if flip == "flip" else None
    if not boot_with_gdb(b, "exit=qemu tests=cores", kernel, cpu, how):
        return
    recs = records(b)
    b.expect(len(recs) == KERNELS, "%d cores records, want %d" % (len(recs), KERNELS))
    r = recs.get(kernel, {})
    if not how:
        b.status_is(PASS)
        b.lacks(r"in the minority|reference or the code|disputed|^\s*not ok")
        b.expect(r.get("verdict") == "agree", "kernel %s after a breakpoint alone: %s" % (
            kernel, r.get("verdict")))
        check_agree_everywhere(b, recs)
        return
    b.status_is(FAIL)
    b.has(r"^    # ktest/test_cores\.c:\d+: FAIL: cores: kernel %s: CPU %d \(APIC id %d\) in the "
          r"minority: digest 0x[0-9a-f]{16}; %d of %d CPUs and the known answer give "
          % (kernel, cpu, cpu, SMP - 1, SMP))
    b.has(r"^    not ok \d+ %s$" % kernel)
    b.has(r"^        not ok %d cpu%d_apic%d$" % (cpu + 1, cpu, cpu))
    for other in range(SMP):
        if other != cpu:
            b.has(r"^        ok %d cpu%d_apic%d$" % (other + 1, other, other))
    b.expect(r.get("verdict") == "minority" and r.get("named_total") == 1 and
             r.get("named", [{}])[0].get("cpu") == cpu and r.get("known_cpus") == SMP - 1,
             "kernel %s's record: %s" % (kernel, r))
    # A flip made once does not come back: the replay on the named CPU and on the last CPU
    # that gave the known answer (CPU 3, or 2 when CPU 3 is the one) finds nothing.
    other = SMP - 1 if cpu != SMP - 1 else SMP - 2
    b.has(r"^    # %s: replayed 10 times: CPU %d wrong 0 times \(not reproduced\), CPU %d \(it "
          r"gave the known answer\) wrong 0 times: not_reproduced$" % (kernel, cpu, other))
    # -smp 4 is one socket of 4 cores, one thread each, sharing the L3 (QEMU's defaults):
    # no SMT sibling, and the furthest CPU is in the same complex.
    b.expect(r.get("replay") == {"cpu": cpu, "runs": 10, "wrong": 0, "other_cpu": other,
                                 "other_wrong": 0, "other_rel": "same_complex",
                                 "class": "not_reproduced"},
             "kernel %s's replay: %s" % (kernel, r.get("replay")))
    b.has(r"^# copykernel-summary: result=FAIL suites=1 pass=\d+ fail=1 ")
    check_agree_everywhere(b, recs, but=kernel)


def t_cores_gdb_pair(b, role, cpu):
    """tests=cores on -smp 4; in the copy pairs, gdb flips the answer of CPU @cpu's check of
    the copy CPU @cpu - 1 wrote (@role "checker": the third CPU finds it right, so the checker
    is named) or a byte of that copy as CPU @cpu is about to check it (@role "writer": the
    third finds it wrong too, so the writer is named)."""
    cpu = int(cpu)
    writer, third = (cpu + SMP - 1) % SMP, (cpu + 1) % SMP
    if not boot_with_gdb(b, "exit=qemu tests=cores", "pair_" + role, cpu,
                         FLIPS["pair_" + role][1]):
        return
    named = cpu if role == "checker" else writer
    b.status_is(FAIL)
    b.has(r"^    # ktest/test_cores\.c:\d+: FAIL: cores: pairs: kernel copy_page_rep: CPU %d "
          r"\(APIC id %d\) found CPU %d's copy wrong \(0x[0-9a-f]{16}, known 0x[0-9a-f]{16}\); "
          r"CPU %d checked it again: %s; the %s is named: CPU %d \(APIC id %d\)$" % (
              cpu, cpu, writer, third, "right" if role == "checker" else "wrong too", role,
              named, named))
    b.has(r"^        not ok 1 copy_page_rep$")
    b.has(r"^    not ok \d+ copy_pairs$")
    b.has(r"^# copykernel-summary: result=FAIL suites=1 pass=\d+ fail=1 ")
    check_agree_everywhere(b, records(b))


# Item 4: a corrected error written into one vCPU's bank through QEMU's monitor (`mce` with UC
# clear fills the bank and raises nothing: REFERENCE.md 3 and 9) while the suite runs.
CORRECTED = 0x9c0000000000009f      # VAL EN MISCV ADDRV, a memory-controller code
ROUNDS = 1000
MCA_HIT = re.compile(r"^    # cores: mca: slice (\d+) \((\w+) (\w+)\) CPU (\d+) \(APIC id (\d+)\) "
                     r"bank (\d+): (\w+), STATUS (0x[0-9a-f]{16}), (in the slice|between "
                     r"slices, not the kernel's); (\d+) corrected on this bank, more than 10 "
                     r"fail$", re.M)


def t_cores_mca_corrected(b, cpu, bank):
    """tests=cores (integer and x87, 1000 rounds) on -smp 4 (Intel): as crc32c starts, the
    monitor writes a corrected error into CPU @cpu's bank @bank. CPU @cpu's next bank
    reading around a slice
    finds it: it is reported once, with that CPU, that bank and its STATUS as injected, the
    slice and its kernel (crc32c or one after it), the CPU's microcode and its PPIN or why
    it has none; its kernel's JSON record carries it; one corrected error is within the
    soak's rule, so every case passes; the run's final poll finds nothing left (counted
    once). What is expected comes from the injection, never from the image."""
    cpu, bank = int(cpu), int(bank)
    # The last copy kernel's SKIP (cores= leaves the copy family out) is printed just before
    # crc32c starts; 1000 rounds make crc32c's slices last about half a second under TCG,
    # long enough for the monitor's write to land in one of them.
    when = r"^    ok \d+ copy_mc_avx2_nt # SKIP "
    b.run("exit=qemu tests=cores cores=rounds:%d,kernels:integer+x87" % ROUNDS, cpu=INTEL,
          runner_args=["--smp", str(SMP), "--hmp-when", when,
                       "mce %d %d 0x%x 0 0x1000 0x86" % (cpu, bank, CORRECTED)])
    b.status_is(PASS)
    b.expect("ck-run: sending: mce %d %d" % (cpu, bank) in b.runner_err,
             "the runner did not send the injection: %s" % b.runner_err.strip()[-300:])
    hits = [m.groups() for m in MCA_HIT.finditer(b.log)]
    if not b.expect(len(hits) == 1, "%d mca findings, want 1: %s" % (len(hits), hits)):
        return
    slice_no, kernel, part, hcpu, apic, hbank, sev, status, where, count = hits[0]
    b.expect((int(hcpu), int(apic), int(hbank), sev, int(status, 16), int(count)) ==
             (cpu, cpu, bank, "corrected", CORRECTED, 1),
             "finding: CPU %s APIC %s bank %s %s STATUS %s (%s on the bank), want CPU %d "
             "bank %d corrected 0x%x (1)" % (hcpu, apic, hbank, sev, status, count, cpu, bank,
                                             CORRECTED))
    order = ["crc32c", "muldiv", "popcnt", "lzcnt_tzcnt", "pdep_pext", "aes128", "clmul",
             "sha256", "x87"]
    b.expect(kernel in order, "the finding is put in kernel %s's slice, not one that ran "
             "after the injection" % kernel)
    b.has(r"^    # mca: CPU %d \(APIC id %d\): microcode (0x[0-9a-f]+|not readable), "
          r"(PPIN 0x[0-9a-f]{16}|no PPIN \([^)]+\))$" % (cpu, cpu))
    recs = records(b)
    if part == "run":
        m = recs.get(kernel, {}).get("mca")
        b.expect(recs.get(kernel, {}).get("mca_total") == 1 and m and
                 (m[0]["cpu"], m[0]["bank"], m[0]["severity"], m[0]["slice"],
                  int(m[0]["status"], 16), m[0]["source"]) ==
                 (cpu, bank, "corrected", int(slice_no), CORRECTED, "poll") and
                 m[0]["when"] == ("in_slice" if where == "in the slice" else "between"),
                 "kernel %s's record: %s" % (kernel, recs.get(kernel)))
    others = [k for k, r in recs.items() if "mca" in r and (k != kernel or part != "run")]
    b.expect(not others, "records with machine checks beyond the one: %s" % others)
    b.has(r"^    # mca: banks read before and after \d+ slices on each CPU: 1 corrected "
          r"\([01] in slices\), 0 deferred, 0 uncorrected; corrected fail past 10 on one CPU "
          r"bank: not passed$")
    b.has(r"^# mce-poll: final poll of %d CPUs: 0 findings " % SMP,
          "the final poll found it again (or did not run)")
    b.lacks(r"^\s*not ok")
    check_agree_everywhere(b, recs)


def t_cores_gdb_replay_topology(b):
    """tests=cores on -smp 8,sockets=2,cores=2,threads=2; gdb flips a bit of the buffer
    crc32c is about to read on CPU 2 (package 0, core 1, whose other thread is CPU 3). The
    replay runs on CPU 2, on its SMT sibling CPU 3, and on the CPU furthest from it that gave
    the known answer: another package, the highest-numbered there, CPU 7. Where each CPU sits
    comes from the -smp line (APIC id = package << 2 | core << 1 | thread), not the image."""
    cpu, sibling, far = 2, 3, 7
    if not boot_with_gdb(b, "exit=qemu tests=cores", "crc32c", cpu, FLIPS["crc32c"][1],
                         smp=8, qemu=["-smp 8,sockets=2,cores=2,threads=2"]):
        return
    b.status_is(FAIL)
    b.has(r"^    # ktest/test_cores\.c:\d+: FAIL: cores: kernel crc32c: CPU %d \(APIC id %d\) "
          r"in the minority: " % (cpu, cpu))
    b.has(r"^    # crc32c: replay: CPU %d's SMT sibling: replayed; the CPU furthest from it "
          r"with the known answer: CPU %d, other_package$" % (cpu, far))
    b.has(r"^    # crc32c: replayed 10 times on SMT sibling CPU %d: wrong 0 times$" % sibling)
    r = records(b).get("crc32c", {})
    b.expect(r.get("replay") == {"cpu": cpu, "runs": 10, "wrong": 0, "other_cpu": far,
                                 "other_wrong": 0, "other_rel": "other_package",
                                 "sibling_cpu": sibling, "sibling_wrong": 0,
                                 "class": "not_reproduced"},
             "crc32c's replay: %s" % r.get("replay"))
