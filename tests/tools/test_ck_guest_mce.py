# SPDX-License-Identifier: GPL-2.0-only
"""Which machine-check banks the #MC handler takes and which it leaves for the poller, with
a real Linux as the expected value: the same sequence goes to Debian's kernel under QEMU
(tools/ck-guest.py --mce), to the image (tools/ck-run.py) and to the model of Linux
(build/host/test_mce_scan prints the model's answer), and all three must agree.

The sequence, on an Intel CPU model with two CPUs, sent through QEMU's monitor:
  mce 1 2 CE     a corrected error written into CPU 1's bank 2 (UC clear: no #MC)
  mce 0 3 CE     and into CPU 0's bank 3
  mce -b 0 1 SRAO ...  an action-optional memory-scrubbing error broadcast to every CPU:
                 CPU 0 gets it in bank 1, QEMU puts VAL|UC in CPU 1's bank 1
Linux's __mc_scan_banks() logs the SRAO in the #MC handler and leaves the three others (not
signalled) for machine_check_poll(), which logs each once. Linux prints a record from the
handler as "CPU c: Machine Check Exception: MCG Bank b: STATUS" (MCIP set) and one from the
poller without "Exception"; the guest boots with mce=print_all so records a consumer
handled (the CE-collector, memory_failure()) are printed too, and /init sets the poll
interval to one second. The image prints its #MC record (each bank "logged and cleared by
the handler" or "left in the bank for the poller") and its final poll's findings.

Under TCG this takes about a minute (the guest ~15 s, the image ~30 s on an idle host). It
skips, saying why, when Debian's kernel package (linux-image-amd64) cannot be had; it needs
BUILD/guest/init (make guest), BUILD/copykernel.efi and BUILD/host/test_mce_scan.
CK_GUEST_KERNEL=bzImage boots another kernel; CK_BUILD=DIR takes the build from DIR.
"""
import os
import re
import subprocess

import pytest

from conftest import ROOT

BUILD = os.environ.get("CK_BUILD", os.path.join(ROOT, "build"))
CE = 0x9c0000000000009f            # VAL EN MISCV ADDRV, memory read error: corrected
SRAO = 0xbd000000000000c3          # VAL UC EN MISCV ADDRV S, memory scrubbing: action optional
QEMU_FILLER = 0xa000000000000000   # what "mce -b" writes into bank 1 of the other CPUs
SEQUENCE = ["mce 1 2 0x%x 0 0x10000040 0x86" % CE, "mce 0 3 0x%x 0 0x10001080 0x86" % CE,
            "mce -b 0 1 0x%x 0x5 0x30000000 0x86" % SRAO]
# Every (CPU, bank) that holds an error, with the STATUS it holds.
INJECTED = {(1, 2): CE, (0, 3): CE, (0, 1): SRAO, (1, 1): QEMU_FILLER}
SETUP_FAILED = ("apt-cache knows no", "apt-get download", "dpkg-deb", "holds no /boot")


def pairs(text):
    return {(int(c), int(b)) for c, b in re.findall(r"(\d+):(\d+)", text)}


def model():
    """The model's answer, from the host test that also holds the image's pure code to it."""
    p = subprocess.run([os.path.join(BUILD, "host", "test_mce_scan")], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=120)
    assert p.returncode == 0, p.stdout[-2000:]
    m = re.search(r"^# sequence ce_then_srao_broadcast: handler ([\d: ]*); poller ([\d: ]*)$",
                  p.stdout, re.M)
    assert m, p.stdout[-2000:]
    return pairs(m.group(1)), pairs(m.group(2))


def linux():
    """Linux's records: (handler, poller), each a list of (CPU, bank, STATUS) as printed."""
    cmd = ["/usr/bin/python3", os.path.join(ROOT, "tools", "ck-guest.py"), "--build", BUILD,
           "--mce", "--smp", "2", "--timeout", "240"]
    if os.environ.get("CK_GUEST_KERNEL"):
        cmd += ["--kernel", os.environ["CK_GUEST_KERNEL"]]
    for c in SEQUENCE:
        cmd += ["--hmp-when", "mce-wait: ready", c]
    p = subprocess.run(cmd + ["--", "mce-wait", "90", "4"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=300)
    if p.returncode == 125 and any(s in p.stdout for s in SETUP_FAILED):
        pytest.skip("Debian's kernel cannot be had here: %s" % p.stdout.strip()[-300:])
    assert p.returncode == 0, p.stdout[-4000:]
    rec = re.findall(r"^ck-guest-dmesg: <\d>\[[ \d.]+\] mce: \[Hardware Error\]: CPU (\d+): "
                     r"Machine Check( Exception)?: [0-9a-f]+ Bank (\d+): ([0-9a-f]{16})$",
                     p.stdout, re.M)
    handler = [(int(c), int(b), int(st, 16)) for c, exc, b, st in rec if exc]
    poller = [(int(c), int(b), int(st, 16)) for c, exc, b, st in rec if not exc]
    return handler, poller, p.stdout


def image(tmp_path):
    """The image's: the banks its #MC records logged, and its final poll's findings."""
    wait = r"mce-poll: waiting up to \d+ s for an NMI before the final poll"
    serial = tmp_path / "serial.log"
    cmd = ["/usr/bin/python3", os.path.join(ROOT, "tools", "ck-run.py"), "--image",
           os.path.join(BUILD, "copykernel.efi"), "--cpu", "max,vendor=GenuineIntel",
           "--smp", "2", "--timeout", "200", "-q", "--log", str(serial)]
    for c in SEQUENCE + ["nmi"]:
        cmd += ["--hmp-when", wait, c]
    p = subprocess.run(cmd + ["exit=qemu", "tests=cpu", "mce_poll_wait=60"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       timeout=260)
    assert p.returncode == 0, p.stdout[-4000:]
    log = serial.read_text(errors="replace")
    handler, cpu, bank = [], None, None
    for line in log.splitlines():
        m = re.match(r"^#   on CPU (\d+) ", line)
        if m:
            cpu = int(m.group(1))
        m = re.match(r"^#   bank (\d+): STATUS (0x[0-9a-f]+) ", line)
        if m:
            bank = (int(m.group(1)), int(m.group(2), 16))
        if re.match(r"^#     grade: .*; logged (and cleared )?by the handler", line):
            handler.append((cpu, bank[0], bank[1]))
    poller = [(int(c), int(b), int(st, 16)) for c, b, st in re.findall(
        r"^# mce-poll: CPU (\d+) \(APIC id \d+, node \d+\) bank (\d+): \w+, STATUS "
        r"(0x[0-9a-f]+) ", log, re.M)]
    return handler, poller, log


def test_linux_the_image_and_the_model_leave_the_same_banks(tmp_path):
    want_handler, want_poller = model()
    # The model, read from Linux: the SRAO is the handler's, the rest the poller's.
    assert want_handler == {(0, 1)} and want_poller == {(0, 3), (1, 1), (1, 2)}, \
        (want_handler, want_poller)
    for who, (handler, poller, log) in (("Linux", linux()), ("the image", image(tmp_path))):
        # Each record once, from the side the model says, with the STATUS injected.
        got = sorted(handler + poller)
        assert len(got) == len(set((c, b) for c, b, _ in got)), (who, got, log[-3000:])
        assert {(c, b) for c, b, _ in handler} == want_handler, (who, handler, log[-3000:])
        assert {(c, b) for c, b, _ in poller} == want_poller, (who, poller, log[-3000:])
        for c, b, st in got:
            assert st == INJECTED[(c, b)], (who, c, b, hex(st))
