#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""memtest-compare.py - the soak and Debian's memtest86+ side by side on the same QEMU machine
with the same DRAM faults kept alive from outside (issue 31; `make memtest-compare`).

For each fault of tools/cklib/inject.py's FAULTS (and a fault-free run) it boots twice, each
time on q35 with the guest's RAM in a shared file and the host injector (build/ck-inject)
keeping the fault alive:
  - memtest86+ (/boot/memtest86+x64.efi, Debian 12's memtest86+ 6.10) from OVMF's UEFI shell
    with `console=ttyS0,115200 nopause keyboard=legacy`. Its serial console draws a screen
    (tools/cklib/vt100.py replays it into an 80x25 grid) whose error rows say pCPU, pass,
    test, address, expected and found. The run is stopped once a row names the fault's word
    (its bit, or both addresses of a decoder fault), after --bound seconds of testing, or
    when the console stays silent for --silent seconds (its clock redraws every second:
    REFERENCE.md section 10), which is reported as hung, never as "no error".
  - the image with `tests=none soak=passes:1` (a timed `soak=` for the transient flip, armed
    when the soak starts), to its end. Each miscompare is read from the `# soak-event:` line
    the finding CPU prints at once (its time is the report's), and from the soak_event JSON
    record the image prints with its ledger at the end (a record no line announced still
    counts, at the time it arrived).
Times to first report are from the start of the test (memtest86+'s first screen, the soak's
`soak: soak=` line; for the flip, from the moment the injector flipped the bit), as the lines
reached the host, under QEMU's TCG: they say how the two tools compare on one emulated
machine, nothing of either's speed on hardware.

Both tools run with the same -smp (default 1: memtest86+ 6.10 hangs under TCG with -smp 2,
REFERENCE.md section 10) and -m (default 1G). Exit status: 0 the table was made, 2 usage,
3 something needed is missing (memtest86+, QEMU, the image, the injector).
"""
import argparse
import datetime
import json
import os
import platform
import queue
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cklib import inject, vt100  # noqa: E402

TOOLS = os.path.dirname(os.path.abspath(__file__))
MEMTEST = "/boot/memtest86+x64.efi"
MEMTEST_ARGS = ["console=ttyS0,115200", "nopause", "keyboard=legacy"]
MASK = (1 << 64) - 1
# An error row of memtest86+ 6.x's screen (64-bit build, its "address" error mode):
#   pCPU  Pass  Test  Failing Address        Expected          Found
#     0      0    3   000004000a08 (64MB)    0000000000000000  0000000000000008
ERROR_ROW = re.compile(r"^\s*(\d+)\s+(\d+)\s+(\d+)\s+([0-9a-f]{12}) \([^)]*\)\s+([0-9a-f]{16})"
                       r"\s+([0-9a-f]{16})\s*$")
CLOCK = re.compile(r"Time:\s+(\d+):(\d\d):(\d\d)")
TEST = re.compile(r"Test #\s*(\d+)")
SOAK_START = re.compile(r"^soak: soak=")
SOAK_VERDICT = re.compile(r"^# copykernel-soak: result=(PASS|FAIL)")
# The line a soaking CPU prints when it finds a wrong word (soak/report.c soak_event_text).
SOAK_EVENT = re.compile(r"^# soak-event: [0-9.]+s CPU \d+ miscompare: expected 0x([0-9a-f]{16}) "
                        r"actual 0x([0-9a-f]{16}),.*, physical 0x([0-9a-f]+) ")
ORDER = ["stuck0", "stuck1", "zeros", "ones", "alias", "cell", "fade", "flip", "none"]


class Child:
    """tools/ck-run.py as a child process: its stdout in timestamped chunks (a reader thread),
    its stderr in a file; stop() sends SIGTERM, on which ck-run ends QEMU and the injector."""

    def __init__(self, argv):
        self.err = tempfile.TemporaryFile(mode="w+")
        self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=self.err,
                                     stdin=subprocess.DEVNULL)
        self.q = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        fd = self.proc.stdout.fileno()
        while True:
            data = os.read(fd, 65536)
            self.q.put((time.monotonic(), data))
            if not data:
                return

    def chunks(self, wait):
        """(time, bytes) chunks that came within @wait seconds; b"" once the output ended."""
        out = []
        try:
            out.append(self.q.get(timeout=wait))
            while True:
                out.append(self.q.get_nowait())
        except queue.Empty:
            pass
        return out

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.err.seek(0)
        text = self.err.read()
        self.err.close()
        return text


def runner(args, image, mem, smp, timeout, faults, arm=None, extra=()):
    argv = [sys.executable, os.path.join(TOOLS, "ck-run.py"), "--image", image,
            "--injector", args.injector, "--mem", mem, "--smp", str(smp),
            "--timeout", str(timeout)] + list(extra)
    for f in faults:
        argv += ["--inject", f]
    if arm:
        argv += ["--inject-arm", arm]
    return argv


def flip_time(err):
    """When the injector flipped its bit (its own line, passed on by ck-run), or None."""
    acts = [a for a in inject.acts("\n".join(l[len("ck-run: "):] for l in err.splitlines()))
            if a["what"] == "flipped"]
    return acts[0]["t"] if acts else None


def judge(name, reports):
    """The first report that names the fault @name rightly (its word and bit; a decoder
    fault's word and, there or in the value read, its second address), or None."""
    kind, addr, arg, _ = inject.FAULTS[name]
    for r in reports:
        if name in inject.DECODER:
            if r["addr"] != addr and (kind == "alias" or r["addr"] != arg):
                continue
            partner = arg if r["addr"] == addr else addr
            if any(x["addr"] == partner for x in reports) or \
                    partner in (r["actual"], r["actual"] ^ MASK):
                return r
        elif r["addr"] == addr and r["expected"] ^ r["actual"] == 1 << arg:
            return r
    return None


def memtest_reports(screen, t, reports, seen):
    for row in range(screen.rows):
        m = ERROR_ROW.match(screen.row_text(row))
        if m and m.groups() not in seen:
            seen.add(m.groups())
            reports.append({"t": t, "cpu": int(m.group(1)), "pass": int(m.group(2)),
                            "test": int(m.group(3)), "addr": int(m.group(4), 16),
                            "expected": int(m.group(5), 16), "actual": int(m.group(6), 16)})


def run_memtest(args, name):
    """memtest86+ with the fault @name: (result dict)."""
    faults = [inject.spec(name)] if name != "none" else ["none"]
    child = Child(runner(args, args.memtest, args.mem, args.smp,
                         args.bound + args.silent + 180, faults,
                         extra=["--raw", "--shell"]) + ["--"] + MEMTEST_ARGS)
    screen, reports, seen, tests = vt100.Screen(), [], set(), []
    t0 = last = time.monotonic()
    start, end, how = None, None, None
    try:
        while how is None:
            for t, data in child.chunks(1.0):
                if not data:
                    how = "ended"
                    break
                last = t
                screen.feed(data)
                text = screen.text()
                if start is None and "Memtest86+" in text and CLOCK.search(text):
                    start = t
                memtest_reports(screen, t, reports, seen)
                m = TEST.search(text)
                if m and (not tests or tests[-1][1] != int(m.group(1))):
                    tests.append((t, int(m.group(1))))
            now = time.monotonic()
            if how:
                break
            if name != "none" and judge(name, reports):
                how = "found"
            elif now - last > args.silent:
                how = "hung: the console was silent for %d s" % args.silent
            elif start is None and now - t0 > 180:
                how = "did not start in 180 s"
            elif start is not None and now - start > args.bound:
                how = "bound"
        end = time.monotonic()
    finally:
        err = child.stop()
    m = CLOCK.search(screen.text())
    return {"tool": "memtest86+", "fault": name, "start": start, "end": end, "how": how,
            "reports": reports, "flip_t": flip_time(err) if name == "flip" else None,
            "clock": m.group(0) if m else None, "screen": screen.text(), "tests": tests}


def run_soak(args, name):
    """The image's soak with the fault @name: (result dict)."""
    flip = name == "flip"
    faults = [inject.spec(name)] if name != "none" else ["none"]
    cmd = ["--", "exit=qemu", "tests=none", "soak=%s" % (args.flip_soak if flip else
                                                         "passes:1")]
    child = Child(runner(args, args.image, args.mem, args.image_smp, args.soak_timeout, faults,
                         arm=r"^soak: soak=" if flip else None) + cmd)
    reports, start, verdict, buf, text, ended = [], None, None, b"", [], False
    try:
        while not ended:
            for t, data in child.chunks(1.0):
                if not data:
                    ended = True
                    break
                *lines, buf = (buf + data).split(b"\n")
                for raw in lines:
                    line = raw.decode("ascii", "replace").rstrip("\r")
                    text.append(line)
                    if start is None and SOAK_START.match(line):
                        start = t
                    m = SOAK_VERDICT.match(line)
                    verdict = m.group(1) if m else verdict
                    soak_record(line, t, reports)
        end = time.monotonic()
    finally:
        err = child.stop()
    return {"tool": "soak", "fault": name, "start": start, "end": end, "verdict": verdict,
            "reports": reports, "flip_t": flip_time(err) if flip else None,
            "status": child.proc.returncode, "log": "\n".join(text)}


def soak_record(line, t, reports):
    """A miscompare from the soak's at-once line or its end-of-run JSON record, into
    @reports once: the record of an event its line already gave is the same report."""
    m = SOAK_EVENT.match(line)
    if m:
        r = {"t": t, "addr": int(m.group(3), 16), "expected": int(m.group(1), 16),
             "actual": int(m.group(2), 16)}
    elif line.startswith('{"schema"') and '"kind":"soak_event"' in line:
        try:
            j = json.loads(line)
        except ValueError:
            return
        if j.get("event") != "miscompare" or not j.get("phys"):
            return
        r = {"t": t, "addr": int(j["phys"], 16), "expected": int(j["expected"], 16),
             "actual": int(j["actual"], 16), "record": True}
        same = [x for x in reports if not x.get("record") and not x.get("matched") and
                (x["addr"], x["expected"], x["actual"]) == (r["addr"], r["expected"],
                                                            r["actual"])]
        if same:
            same[0]["matched"] = True
            return
    else:
        return
    reports.append(r)


def cell(res):
    """One tool's column for one fault: (text, seconds to first report or None, right)."""
    name, reports = res["fault"], res["reports"]
    origin = res["flip_t"] if name == "flip" else res["start"]
    if res["start"] is None:
        return "did not start (%s)" % (res.get("how") or "no test line"), None, False
    if name == "none":
        if res["tool"] == "soak":
            return ("%s, %d miscompares (%.0f s)" % (res["verdict"] or "no verdict",
                                                     len(reports), res["end"] - res["start"]),
                    None, res["verdict"] == "PASS" and not reports)
        if res["how"] and res["how"].startswith("hung"):
            return "HUNG after %.0f s (%s)" % (res["end"] - res["start"], res["clock"]), None, False
        return ("%d errors in %.0f s (%s)" % (len(reports), res["end"] - res["start"],
                                             res["clock"]), None, not reports)
    if name == "flip" and origin is None:
        return "the injector never flipped (the word was not written once armed)", None, False
    if name == "flip":
        during = [n for t, n in res.get("tests", []) if t <= origin]
        flipped = "flipped %.1f s in%s; " % (origin - res["start"], " (test %d)" % during[-1]
                                             if during else "")
    else:
        flipped = ""
    right = judge(name, reports)
    if not reports:
        what = "not found"
        if res["tool"] == "memtest86+":
            what += (" (hung %.0f s in, %s)" if res["how"].startswith("hung") else
                     " in %.0f s (%s)") % (res["end"] - res["start"], res["clock"])
        else:
            what += " (%s, %.0f s)" % (res["verdict"] or "no verdict", res["end"] - res["start"])
        return flipped + what, None, False
    first = reports[0]
    secs = first["t"] - origin
    where = " (test %d)" % first["test"] if "test" in first else ""
    if right:
        ok = "right" + (" (test %d)" % right["test"] if "test" in right and right is not first
                        else "")
    else:
        ok = "WRONG: 0x%x %016x -> %016x" % (first["addr"], first["expected"], first["actual"])
    return "%sfound %.1f s%s, %s" % (flipped, secs, where, ok), secs, bool(right)


def where(name):
    if name == "none":
        return "-"
    kind, addr, arg, extra = inject.FAULTS[name]
    if name in inject.DECODER:
        return "0x%x / 0x%x" % (addr, arg)
    return "0x%x bit %d" % (addr, arg) + (" %d ms" % extra if extra else "")


def machine_line():
    try:
        with open("/proc/cpuinfo") as f:
            m = re.search(r"^model name\s*:\s*(.*)$", f.read(), re.M)
            return m.group(1).strip() if m else platform.machine()
    except OSError:
        return platform.machine()


def table(args, results):
    out = ["memtest-compare: %s, %s (%d CPUs, load average %.1f at the start, %.1f at the "
           "end); QEMU q35 -cpu max -m %s, TCG: times are TCG times, from the start of each "
           "test (the flip: from the flip), not hardware's" % (
               args.began, machine_line(), os.cpu_count() or 0, args.load, os.getloadavg()[0],
               args.mem),
           "soak: tests=none soak=passes:1 (the flip: soak=%s), -smp %d; memtest86+: %s %s, "
           "-smp %d, stopped once it names the fault, after %d s of testing, or silent %d s" % (
               args.flip_soak, args.image_smp, args.memtest, " ".join(MEMTEST_ARGS), args.smp,
               args.bound, args.silent), "",
           "| fault | where | soak | memtest86+ |", "|---|---|---|---|"]
    sums = {"soak": 0.0, "memtest86+": 0.0}
    for name in [n for n in ORDER if n in results]:
        s_text, s_secs, s_ok = cell(results[name]["soak"])
        m_text, m_secs, m_ok = cell(results[name]["memtest86+"])
        out.append("| %s | %s | %s | %s |" % (name, where(name), s_text, m_text))
        if name not in ("none", "flip") and m_ok and m_secs is not None:
            sums["memtest86+"] += m_secs
            sums["soak"] += s_secs if s_ok and s_secs is not None else float("inf")
    out += ["", "sum of the times to first report over the persistent faults memtest86+ "
            "found: soak %s, memtest86+ %.1f s" % (
                "%.1f s" % sums["soak"] if sums["soak"] != float("inf") else
                "- (it missed one of them)", sums["memtest86+"])]
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build", help="the build folder (copykernel.efi, "
                    "ck-inject)")
    ap.add_argument("--memtest", default=MEMTEST)
    ap.add_argument("--mem", default="1G")
    ap.add_argument("--smp", type=int, default=1, help="memtest86+'s CPUs (default 1)")
    ap.add_argument("--image-smp", type=int, help="the soak's CPUs (default --smp)")
    ap.add_argument("--faults", default=",".join(ORDER),
                    help="a comma list of %s" % ", ".join(ORDER))
    ap.add_argument("--bound", type=int, default=120,
                    help="seconds of memtest86+ testing before it is stopped (default 120)")
    ap.add_argument("--silent", type=int, default=60,
                    help="seconds of a silent memtest86+ console that mean hung (default 60)")
    ap.add_argument("--soak-timeout", type=int, default=900)
    ap.add_argument("--flip-soak", default="4m", help="the timed soak of the flip (default "
                    "4m: at least three passes over 1 GiB with one CPU under TCG)")
    ap.add_argument("--json", metavar="FILE", help="every run's reports as JSON")
    args = ap.parse_args()
    args.image = os.path.join(args.build, "copykernel.efi")
    args.injector = os.path.join(args.build, "ck-inject")
    args.image_smp = args.image_smp or args.smp
    names = [n for n in args.faults.split(",") if n]
    bad = [n for n in names if n not in ORDER]
    if bad:
        ap.error("--faults: unknown %s (known: %s)" % (", ".join(bad), ", ".join(ORDER)))
    for path, what in ((args.memtest, "memtest86+ (tools/ensure-deps.sh memtest)"),
                       (args.image, "the image (make)"), (args.injector, "the injector "
                                                          "(make %s)" % args.injector)):
        if not os.path.exists(path):
            print("memtest-compare: %s is missing: %s" % (path, what), file=sys.stderr)
            return 3
    try:
        inject.check_layout(args.mem, [])
    except inject.Refused as e:
        ap.error(str(e))
    args.began = datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M UTC")
    args.load = os.getloadavg()[0]
    results = {}
    for name in names:
        results[name] = {}
        for tool, fn in (("memtest86+", run_memtest), ("soak", run_soak)):
            res = fn(args, name)
            results[name][tool] = res
            text, _, _ = cell(res)
            print("memtest-compare: %-6s %-10s %s" % (name, tool, text), flush=True)
    print()
    print(table(args, results))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({n: {t: {k: v for k, v in r.items() if k not in ("log",)}
                           for t, r in v.items()} for n, v in results.items()}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
