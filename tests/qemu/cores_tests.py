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
KERNELS = 26
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


def gdb_script_repeat(port, addr, cpu, skip, count):
    """Flip a bit of the memory at rdi + 100 at each of vCPU @cpu's hits after @skip, @count
    times, gdb staying attached between them; then delete the breakpoint and detach. The
    loop is the script's own (continue, flip, count), not the breakpoint's command list: gdb
    does not promise what follows a `continue` or a `detach` inside one."""
    flip = "set var *(unsigned char *)($rdi + 100) = *(unsigned char *)($rdi + 100) ^ 4"
    return "\n".join([
        "set pagination off", "set confirm off", "set remotetimeout 30",
        "target remote 127.0.0.1:%d" % port, "set $ck_n = 0",
        "break *0x%x if $_thread == %d" % (addr, cpu + 1), "ignore 1 %d" % skip,
        "while $ck_n < %d" % count, "continue", flip, "set $ck_n = $ck_n + 1",
        'printf "CK-HIT thread %d pc %lx rdi %lx\\n", $_thread, $pc, $rdi',
        'printf "CK-FLIPPED memory\\n"', "end",
        "delete", "detach", "quit"]) + "\n"


def gdb_script(port, addr, cpu, flip, skip=0):
    # skip: hits of vCPU @cpu to let go by first (gdb tests the condition, then counts the
    # ignore count down), e.g. 1 for the first pass of a soak.
    lines = ["set pagination off", "set confirm off", "set remotetimeout 30",
             "target remote 127.0.0.1:%d" % port,
             "break *0x%x if $_thread == %d" % (addr, cpu + 1)]
    if skip:
        lines += ["ignore 1 %d" % skip]
    lines += ["continue",
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


def boot_with_gdb(b, cmdline, kernel, cpu, flip, smp=SMP, qemu=(), skip=0, repeat=0):
    """One boot of @cmdline on SMP vCPUs with gdb flipping (@flip None: only breaking) in
    @kernel's routine on vCPU @cpu, after @skip hits (@repeat: at that many hits, memory
    only). Fills b.log, b.status and b.gdb_out."""
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
                addr = int(m.group(1), 16) + value
                f.write(gdb_script_repeat(port, addr, cpu, skip, repeat) if repeat else
                        gdb_script(port, addr, cpu, flip, skip))
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
    # no SMT sibling, and the furthest CPU is in the same complex; the second distant CPU is
    # the highest-numbered of the other two.
    near = max(c for c in range(SMP) if c not in (cpu, other))
    b.has(r"^    # %s: replayed 10 times on a second distant CPU %d \(same_complex\): wrong 0 "
          r"times$" % (kernel, near))
    b.expect(r.get("replay") == {"cpu": cpu, "runs": 10, "wrong": 0, "other_cpu": other,
                                 "other_wrong": 0, "other_rel": "same_complex",
                                 "near_cpu": near, "near_wrong": 0,
                                 "near_rel": "same_complex", "class": "not_reproduced"},
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
    # One flip, one finding: the third CPU's second look does not stand for its own check.
    n = len(re.findall(r"FAIL: cores: pairs: ", b.log))
    b.expect(n == 1, "%d pair findings for one flip" % n)
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
    the known answer: another package, the highest-numbered there, CPU 7, and on a second
    distant CPU, another core of its own package: CPU 1 (core 0's second thread). Where each
    CPU sits comes from the -smp line (APIC id = package << 2 | core << 1 | thread), not the
    image; QEMU gives each package one L3, so package 0 is one complex."""
    cpu, sibling, far, near = 2, 3, 7, 1
    if not boot_with_gdb(b, "exit=qemu tests=cores", "crc32c", cpu, FLIPS["crc32c"][1],
                         smp=8, qemu=["-smp 8,sockets=2,cores=2,threads=2"]):
        return
    b.status_is(FAIL)
    b.has(r"^    # ktest/test_cores\.c:\d+: FAIL: cores: kernel crc32c: CPU %d \(APIC id %d\) "
          r"in the minority: " % (cpu, cpu))
    b.has(r"^    # crc32c: replay: CPU %d's SMT sibling: replayed; the CPU furthest from it "
          r"with the known answer: CPU %d, other_package$" % (cpu, far))
    b.has(r"^    # crc32c: replayed 10 times on SMT sibling CPU %d: wrong 0 times$" % sibling)
    b.has(r"^    # crc32c: replayed 10 times on a second distant CPU %d \(same_complex\): wrong 0 "
          r"times$" % near)
    r = records(b).get("crc32c", {})
    b.expect(r.get("replay") == {"cpu": cpu, "runs": 10, "wrong": 0, "other_cpu": far,
                                 "other_wrong": 0, "other_rel": "other_package",
                                 "sibling_cpu": sibling, "sibling_wrong": 0, "near_cpu": near,
                                 "near_wrong": 0, "near_rel": "same_complex",
                                 "class": "not_reproduced"},
             "crc32c's replay: %s" % r.get("replay"))


# The soak mode (cores=time:, item 1): pass N's seed is splitmix64 of the base seed plus N
# times its step (S. Vigna's splitmix64.c, written here from its definition); pass 1 runs the
# base seed itself.
DEFAULT_SEED = int.from_bytes(b"cores", "big")
M64 = (1 << 64) - 1


def pass_seed(base, n):
    if n <= 1:
        return base
    z = (base + n * 0x9e3779b97f4a7c15) & M64
    z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M64
    z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M64
    return z ^ (z >> 31)


def soak_record(b):
    recs = [json.loads(line[line.find("{"):]) for line in b.log.splitlines()
            if '"kind":"cores_soak"' in line]
    b.expect(len(recs) == 1, "%d cores_soak records, want 1" % len(recs))
    return recs[0] if recs else {}


SOAK_LINE = re.compile(r"^    # soak: (\d+) passes in (\d+)\.\d{3} s \(pass 1: the cases above; "
                       r"(\d+) in this case\), (\d+) failing \((\d+) of them here, (\d+) printed "
                       r"in full\), (\d+) CPUs named: (PASS|FAIL)$", re.M)


def t_cores_soak(b, seconds, smp):
    """tests=cores cores=time:SECONDS on -smp SMP: passes back to back until the time is up;
    several passes, all clean, so the run passes; the pass count the line prints is the
    record's, the clean passes print nothing but the progress lines, and every CPU's
    parameter of the soak case is ok, in KTAP and in the LAVA lines."""
    seconds, smp = int(seconds), int(smp)
    b.run("exit=qemu tests=cores cores=time:%d" % seconds, runner_args=["--smp", str(smp)])
    b.status_is(PASS)
    m = SOAK_LINE.search(b.log)
    r = soak_record(b)
    if not b.expect(m is not None, "no soak total line"):
        return
    passes, secs = int(m.group(1)), int(m.group(2))
    b.expect(passes >= 3 and int(m.group(3)) == passes - 1 and m.group(8) == "PASS" and
             m.groups()[3:7] == ("0", "0", "0", "0"),
             "soak line: %s" % m.group(0))
    b.expect(secs >= seconds, "the soak ended after %d s, before its %d s" % (secs, seconds))
    b.expect(r.get("passes") == passes and r.get("failing_passes") == 0 and
             r.get("result") == "PASS" and r.get("seconds") == seconds and
             r.get("seed") == hex(DEFAULT_SEED) and r.get("named") == [] and
             r.get("elapsed_ms", 0) >= seconds * 1000,
             "the record %s against %d passes" % (r, passes))
    b.has(r"^cmdline: in effect: .*cores=time:%ds" % seconds)
    progress = re.findall(r"^    # soak: pass (\d+) next \(seed (0x[0-9a-f]+)\), (\d+) of %d s, "
                          r"0 failing passes$" % seconds, b.log, re.M)
    b.expect(len(progress) >= (seconds - 1) // 10 and
             all(int(s, 16) == pass_seed(DEFAULT_SEED, int(n)) for n, s, _ in progress),
             "progress lines %s: one each 10 s, the seeds splitmix64's" % progress)
    b.expect(len(re.findall(r"^    # soak:", b.log, re.M)) == 2 + len(progress),
             "the soak said more than its start, progress and total lines")
    # A clean pass says nothing: each kernel's line and record come once, from pass 1.
    ran = re.search(r"^    # (\d+) of (\d+) kernels ran, ", b.log, re.M)
    lines = re.findall(r"^    # \w+ \(\w+\): \d+ CPUs, seed ", b.log, re.M)
    recs = re.findall(r'"kind":"cores",', b.log)
    b.expect(ran is not None and len(lines) == int(ran.group(1)) and
             len(recs) == int(ran.group(2)),
             "%d kernel lines and %d records after %s passes: the clean passes spoke" % (
                 len(lines), len(recs), passes))
    for c in range(smp):
        b.has(r"^        ok %d cpu%d_apic%d$\n^        # ck-lava <cores\.soak\.cpu%d_apic%d "
              r"pass>$" % (c + 1, c, c, c, c))
    b.has(r"^    ok \d+ soak$\n^    # ck-lava <cores\.soak pass>$")
    b.lacks(r"^\s*not ok")


def t_cores_gdb_soak(b, kernel, cpu):
    """tests=cores cores=time:8 on -smp 4; gdb lets vCPU @cpu's first run of @kernel's routine
    go by and flips a bit as it runs it in pass 2: pass 1 (the kernel cases)
    passes, the soak case fails naming that CPU and that kernel in pass 2, with pass 2's seed
    (splitmix64 of the default seed, computed here) and the words that replay it; the
    records and the total agree: one failing pass of the soak, that CPU named once."""
    cpu = int(cpu)
    if not boot_with_gdb(b, "exit=qemu tests=cores cores=time:8", kernel, cpu,
                         FLIPS[kernel][1], skip=1):
        return
    seed = pass_seed(DEFAULT_SEED, 2)
    b.status_is(FAIL)
    b.has(r"^    ok \d+ %s$" % kernel)
    b.has(r"^    # soak: pass 2 \(seed 0x%x\) finds what follows; cores=seed:0x%x replays it "
          r"alone$" % (seed, seed))
    b.has(r"^    # ktest/test_cores\.c:\d+: FAIL: cores: kernel %s: CPU %d \(APIC id %d\) in the "
          r"minority: " % (kernel, cpu, cpu))
    b.has(r"^    # ktest/test_cores\.c:\d+: FAIL: cores: soak: 1 of the \d+ passes here failed, "
          r"the first of all passes pass 2 \(seed 0x%x\)$" % seed)
    b.has(r"^    not ok \d+ soak$\n^    # ck-lava <cores\.soak fail>$")
    for c in range(SMP):
        b.has(r"^        %s %d cpu%d_apic%d$" % ("not ok" if c == cpu else "ok", c + 1, c, c))
    failing = [json.loads(line[line.find("{"):]) for line in b.log.splitlines()
               if '"kind":"cores",' in line and '"pass":2,' in line]
    b.expect(len(failing) == 1 and failing[0]["kernel"] == kernel and
             failing[0]["seed"] == hex(seed) and failing[0]["verdict"] == "minority" and
             failing[0]["named"][0]["cpu"] == cpu and
             failing[0]["replay"]["class"] == "not_reproduced",
             "pass 2's records: %s" % failing)
    r = soak_record(b)
    m = SOAK_LINE.search(b.log)
    b.expect(m is not None and r.get("passes") == int(m.group(1)) and
             (r.get("failing_passes"), r.get("soak_failing_passes"),
              r.get("first_failing_pass"), r.get("first_failing_seed"), r.get("result")) ==
             (1, 1, 2, hex(seed), "FAIL") and
             r.get("named") == [{"cpu": cpu, "apic": cpu, "passes": 1}],
             "the total %s, the line %s" % (r, m and m.group(0)))
    b.has(r"^# copykernel-summary: result=FAIL suites=1 pass=\d+ fail=1 ")


COPY_KERNELS = 7        # copy/'s primitives the cores suite copies with (cores/list.c), on max
DETAILED = 8            # failing soak passes printed in full (ktest/test_cores.c)


def t_cores_gdb_soak_many(b, failing):
    """tests=cores cores=time:30 on -smp 4 (max: every copy kernel runs); gdb lets pass 1's
    checks go by, then flips a byte of each copy CPU 1 wrote as CPU 2 is about to check it, in
    each copy kernel's pairs, for @failing passes (COPY_KERNELS flips a pass): each pass finds
    COPY_KERNELS wrong copies, CPU 3 finds them wrong too, and the writer, CPU 1, is named.
    Each pass counts once: @failing failing passes, CPU 1 named in @failing; the first
    DETAILED are printed in full (their line, their pairs' findings), the others counted
    only, and the soak case and the total say so."""
    failing = int(failing)
    cpu, writer = 2, 1
    if not boot_with_gdb(b, "exit=qemu tests=cores cores=time:30", "pair_writer", cpu,
                         "memory", skip=COPY_KERNELS, repeat=failing * COPY_KERNELS):
        return
    b.status_is(FAIL)
    b.has(r"^        1\.\.%d\n        ok 1 copy_page_rep$" % COPY_KERNELS)
    b.expect(b.gdb_out.count("CK-FLIPPED memory") == failing * COPY_KERNELS,
             "gdb flipped %d times, want %d" % (b.gdb_out.count("CK-FLIPPED memory"),
                                               failing * COPY_KERNELS))
    b.has(r"^    ok \d+ copy_pairs$")
    said = [int(n) for n in re.findall(r"^    # soak: pass (\d+) \(seed 0x[0-9a-f]+\) finds "
                                       r"what follows", b.log, re.M)]
    b.expect(said == list(range(2, 2 + min(failing, DETAILED))),
             "passes printed in full: %s" % said)
    found = re.findall(r"^    # ktest/test_cores\.c:\d+: FAIL: cores: pairs: kernel \w+: CPU %d "
                       r"\(APIC id %d\) found CPU %d's copy wrong .*; CPU 3 checked it again: "
                       r"wrong too; the writer is named: CPU %d " % (cpu, cpu, writer, writer),
                       b.log, re.M)
    b.expect(len(found) == min(failing, DETAILED) * COPY_KERNELS,
             "%d pair findings printed, want %d" % (len(found),
                                                    min(failing, DETAILED) * COPY_KERNELS))
    m = SOAK_LINE.search(b.log)
    b.expect(m is not None and m.groups()[3:8] == (
        str(failing), str(failing), str(min(failing, DETAILED)), "1", "FAIL"),
        "the soak's line: %s" % (m and m.group(0)))
    r = soak_record(b)
    b.expect((r.get("failing_passes"), r.get("soak_failing_passes"),
              r.get("first_failing_pass"), r.get("named")) ==
             (failing, failing, 2, [{"cpu": writer, "apic": writer, "passes": failing}]),
             "the total: %s" % r)
    b.has(r"^    # ktest/test_cores\.c:\d+: FAIL: cores: soak: %d of the \d+ passes here "
          r"failed, the first of all passes pass 2 " % failing)
    for c in range(SMP):
        b.has(r"^        %s %d cpu%d_apic%d$" % ("not ok" if c == writer else "ok", c + 1, c,
                                                  c))
    b.has(r"^    not ok \d+ soak$")
    b.has(r"^# copykernel-summary: result=FAIL suites=1 pass=\d+ fail=1 ")
