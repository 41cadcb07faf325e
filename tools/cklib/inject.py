# SPDX-License-Identifier: GPL-2.0-only
"""cklib.inject - a QEMU guest's RAM in a shared file and the host injector beside it
(host/inject/ck-inject.c, built as build/ck-inject), for tools/ck-run.py --inject and
tools/memtest-compare.py.

QEMU keeps the guest's RAM in a file under /dev/shm (`-object memory-backend-file,...,
share=on -machine memory-backend=...`, REFERENCE.md section 10) and the injector maps the same
file and keeps its faults alive in it while the guest runs. A fault's address is an offset
in that file, and it is the guest physical address only while all of the RAM lies below 4 GiB
in one piece: on q35 (the machine tools/ck-run.py boots) with at most 1 GiB. So RAM over
1 GiB, and QEMU arguments that give the machine another memory layout (-numa nodes, a memory
backend of their own, another -machine), are refused here with the reason.

The injector's lines (ck-inject's own words; times are CLOCK_MONOTONIC seconds, the clock of
Python's time.monotonic() on Linux):
    ck-inject: ready: t=T N faults in PATH (BYTES bytes), every P us
    ck-inject: fault I: DESCRIPTION
    ck-inject: t=T armed
    ck-inject: t=T fault I KIND: first change|flipped word 0xADDR 0xOLD -> 0xNEW
    ck-inject: end: fault I DESCRIPTION: changed a word N times[, first at t=T, last at t=T]
"""
import os
import re
import signal
import subprocess
import tempfile
import time

MAX_RAM = 1 << 30
SIZE = re.compile(r"^(\d+)([KMGT]?)(?:i?B)?$", re.I)
UNITS = {"": 1 << 20, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
# QEMU arguments that would give the guest's RAM another layout than one file from 0.
OTHER_LAYOUT = re.compile(r"(^|\s)-numa\b|memory-backend|(^|\s)-machine\b|(^|\s)-M\b")
ACT = re.compile(r"^ck-inject: t=(\d+\.\d+) fault (\d+) (\w+): (first change|flipped) word "
                 r"0x([0-9a-f]+) 0x([0-9a-f]+) -> 0x([0-9a-f]+)$", re.M)


# The faults of the QEMU scenarios (tests/qemu/inject_tests.py) and of memtest-compare, each
# at its own address in the free RAM of a 512 MiB or 1 GiB q35 guest (the soak's range runs
# from about 18 MiB up), each in its own 32 MiB:
# name: (kind, address, bit or the second address, the fault's extra number or None)
FAULTS = {
    "stuck0": ("stuck0", 0x06000010, 40, None),
    "stuck1": ("stuck1", 0x04000a08, 3, None),
    "zeros": ("zeros", 0x12345670, 17, None),
    "ones": ("ones", 0x14000018, 63, None),
    # The word at A reads as the word 1 MiB below (A has bit 20 set: the addresses differ
    # in that bit alone).
    "alias": ("alias", 0x0a100020, 0x0a000020, None),
    # Address bit 25: A and A + 32 MiB are one cell.
    "cell": ("cell", 0x0c000028, 0x0e000028, None),
    # Retention: the bit decays 4 s after the word last changed.
    "fade": ("fade", 0x16000030, 5, 4000),
    # Once, 2 s after the guest first changes the word once armed.
    "flip": ("flip", 0x18000038, 9, 2000),
}
DECODER = ("alias", "cell")


def spec(name):
    """The injector's argument for the fault @name of FAULTS."""
    kind, addr, arg, extra = FAULTS[name]
    return ":".join([kind, "0x%x" % addr, ("0x%x" % arg) if name in DECODER else str(arg)] +
                    ([str(extra)] if extra is not None else []))


class Refused(Exception):
    """An injection this machine cannot have, with the reason."""


def ram_bytes(mem):
    """QEMU's -m size (a number of MiB, or with a K, M, G or T suffix) in bytes."""
    m = SIZE.match(mem.strip())
    if not m:
        raise Refused("-m %r: not a size QEMU's -m takes (512M, 1G)" % mem)
    return int(m.group(1)) * UNITS[m.group(2).upper()]


def check_layout(mem, qemu_args):
    """Refused unless a file offset is the guest physical address (the module's rule)."""
    size = ram_bytes(mem)
    if size > MAX_RAM:
        raise Refused("-m %s: injected faults need RAM of at most 1 GiB (on q35 with more, "
                      "RAM is split at the PCI hole and a file offset is no longer the guest "
                      "physical address)" % mem)
    for a in qemu_args:
        if OTHER_LAYOUT.search(a):
            raise Refused("QEMU argument %r gives the RAM another layout than one file at "
                          "physical address 0: injected faults need q35's own" % a)
    return size


class Injector:
    """The RAM file and ck-inject over it: start() before QEMU, stop() on every way out."""

    def __init__(self, binary, faults, mem_bytes, period_us=100, max_seconds=None,
                 armed=True):
        self.binary, self.faults, self.size = binary, list(faults) or ["none"], mem_bytes
        self.period_us, self.max_seconds, self.armed_at_start = period_us, max_seconds, armed
        self.path, self.proc, self.tmp, self.text, self.linked = None, None, None, "", False

    def qemu_args(self):
        return ["-object", "memory-backend-file,id=ck-ram,size=%d,mem-path=%s,share=on" %
                (self.size, self.path), "-machine", "memory-backend=ck-ram"]

    def start(self):
        if not os.access(self.binary, os.X_OK):
            raise Refused("%s is not built (make %s)" % (self.binary, self.binary))
        fd, self.path = tempfile.mkstemp(prefix="ck-ram-", dir="/dev/shm")
        self.linked = True
        try:
            os.ftruncate(fd, self.size)
        finally:
            os.close(fd)
        self.tmp = tempfile.TemporaryFile(mode="w+")
        argv = [self.binary, "--file", self.path, "--period-us", str(self.period_us)]
        if self.max_seconds:
            argv += ["--max-seconds", str(int(self.max_seconds))]
        self.proc = subprocess.Popen(argv + self.faults, stdout=self.tmp,
                                     stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        t0 = time.monotonic()
        while "ck-inject: ready:" not in self.read():
            if self.proc.poll() is not None or time.monotonic() - t0 > 10:
                self.stop()
                raise Refused("ck-inject did not start: %s" % (self.text.strip() or
                                                              "no output in 10 s"))
            time.sleep(0.01)
        if self.armed_at_start:
            self.arm()

    def read(self):
        self.tmp.seek(0)
        self.text = self.tmp.read()
        return self.text

    def arm(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGUSR1)

    def unlink(self):
        """Remove the file's name once QEMU and the injector have it open (their mappings
        stay); stop() then has nothing left to remove."""
        if self.path and self.linked:
            try:
                os.unlink(self.path)
            except FileNotFoundError:
                pass
            self.linked = False

    def stop(self):
        """End the injector (its summary lines come on SIGTERM) and remove the RAM file;
        returns its whole output. Safe to call twice."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.tmp:
            self.read()
            self.tmp.close()
            self.tmp = None
        self.unlink()
        return self.text


def acts(text):
    """What the injector did, from its lines: [{t, fault, kind, what, addr, old, new}]."""
    return [{"t": float(m.group(1)), "fault": int(m.group(2)), "kind": m.group(3),
             "what": m.group(4), "addr": int(m.group(5), 16), "old": int(m.group(6), 16),
             "new": int(m.group(7), 16)} for m in ACT.finditer(text)]
