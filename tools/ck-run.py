#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""ck-run.py - boot copykernel.efi under QEMU+OVMF and report how the run ended.

It lays out an EFI system partition (EFI/BOOT/BOOTX64.EFI plus copykernel.cmdline holding the
command line), boots it on a q35 machine, echoes the serial console as it arrives, enforces a
timeout, and maps QEMU's exit status (isa-debug-exit) to the image's outcome:

    0 all tests passed      1 some tests failed     2 panic
    3 bad command line      4 reset or triple fault (QEMU exited by itself)
    5 stopped: a serial line matched --stop-on (the firmware's or the image's)
    124 timeout (the image hung)                    125 QEMU could not run

With --secure-boot the machine is the one UEFI Secure Boot needs (q35 with SMM, secure
pflash) running Debian's test firmware, whose variables enrol its snakeoil key as PK, KEK and
db (a fresh copy of them each run, unless --vars names one): `make sign`'s image boots, any
other is refused by the firmware. --stop-on REGEX ends the run as soon as a whole serial line
matches, e.g. the firmware's refusal, which otherwise waits for a key forever.

With --inject FAULT (host/inject/ck-inject.c's faults: stuck0:ADDR:BIT, ..., none) the guest's
RAM is a shared file under /dev/shm and the host injector keeps the faults alive in it for the
whole run (tools/cklib/inject.py; only on q35 with at most 1 GiB, where a file offset is the
guest physical address); --inject-arm REGEX arms its flips once a serial line matches. The
injector, QEMU and the file are ended and removed on every way out (a timeout, SIGTERM, an
error), and the injector's lines close the runner's own messages.

KVM is used only when asked for or with --accel auto, when the host CPU shows vmx or svm and a
boot under KVM really starts; otherwise (and always on the CI machines, whose paravirtual KVM
cannot run OVMF) the run uses TCG.
"""
import argparse
import ctypes
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cklib.common import bounded  # noqa: E402
from cklib import inject  # noqa: E402

EXIT_MAP = {1: (0, "all tests passed"), 3: (1, "some tests failed"), 5: (2, "panic"),
            7: (3, "bad command line")}
STATUS_RESET, STATUS_STOPPED, STATUS_TIMEOUT, STATUS_QEMU = 4, 5, 124, 125
PR_SET_PDEATHSIG = 1    # <linux/prctl.h>
ANSI = re.compile(rb"\x1b\[[0-9;?=]*[A-Za-z]|\x1b[()][A-Za-z0-9]|\x1bc")
OVMF_BIOS = ["/usr/share/qemu/OVMF.fd", "/usr/share/ovmf/OVMF.fd"]
OVMF_CODE = "/usr/share/OVMF/OVMF_CODE_4M.fd"
OVMF_VARS = "/usr/share/OVMF/OVMF_VARS_4M.fd"
# Debian's Secure Boot test firmware and the variables enrolling its snakeoil key (package ovmf).
OVMF_CODE_SECURE = "/usr/share/OVMF/OVMF_CODE_4M.snakeoil.fd"
OVMF_VARS_SECURE = "/usr/share/OVMF/OVMF_VARS_4M.snakeoil.fd"
STARTED = b"copykernel: boot:"
SUMMARY_DRAWN = b"fbcon: summary drawn"
# --nmi starts sending once the self-tests run.
TESTS_START = b"KTAP version 1"
# The image asks for a machine check with this line; --inject-mce relays it to the monitor.
# With several CPUs it may name QEMU's cpu index and ask for a broadcast ("mce -b"); only a
# whole line is acted on, so a line still arriving is never taken for a shorter request.
MCE_REQUEST = re.compile(rb"mce-inject: request bank=(\d+) status=(0x[0-9a-f]+) mcg=(0x[0-9a-f]+) "
                         rb"addr=(0x[0-9a-f]+) misc=(0x[0-9a-f]+)"
                         rb"(?: cpu=(\d+) broadcast=(yes|no))?\r*\n")


def find_bios():
    for p in OVMF_BIOS:
        if os.path.exists(p):
            return p
    sys.exit("ck-run: OVMF not found; install the Debian package 'ovmf'")


def host_has_virt():
    try:
        with open("/proc/cpuinfo") as f:
            flags = f.read()
    except OSError:
        return False
    return bool(re.search(r"^flags\s*:.*\b(vmx|svm)\b", flags, re.M)) and \
        os.access("/dev/kvm", os.R_OK | os.W_OK)


def make_esp(image, cmdline, workdir, shell=False):
    """The FAT tree QEMU serves as a disk. With @shell, no removable-media loader: OVMF falls
    through to its built-in UEFI shell, whose startup.nsh starts the image with @cmdline as
    LoadOptions (the way a person at the shell or a boot entry passes arguments)."""
    esp = os.path.join(workdir, "esp")
    if shell:
        d = os.path.join(esp, "EFI", "copykernel")
        os.makedirs(d)
        shutil.copy(image, os.path.join(d, "copykernel.efi"))
        with open(os.path.join(esp, "startup.nsh"), "w") as f:
            f.write("fs0:\r\n\\EFI\\copykernel\\copykernel.efi %s\r\n" % (cmdline or ""))
        return esp
    boot = os.path.join(esp, "EFI", "BOOT")
    os.makedirs(boot)
    shutil.copy(image, os.path.join(boot, "BOOTX64.EFI"))
    if cmdline is not None:
        with open(os.path.join(boot, "copykernel.cmdline"), "w") as f:
            f.write(cmdline + "\n")
    return esp


def qemu_argv(args, accel, esp, log, workdir):
    machine = "q35,smm=on" if args.secure_boot else "q35"
    argv = ["qemu-system-x86_64", "-machine", machine, "-accel", accel,
            "-cpu", args.cpu, "-m", args.mem, "-smp", str(args.smp),
            "-chardev", "file,id=ser0,path=" + log, "-serial", "chardev:ser0",
            "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04",
            "-display", "none", "-no-reboot", "-nodefaults"]
    argv += ["-vga", "none"] if args.no_vga else ["-vga", "std"]
    if args.secure_boot:
        # SMM guards the variable store: the firmware takes writes to it only from SMM.
        argv += ["-global", "driver=cfi.pflash01,property=secure,value=on",
                 "-drive", "if=pflash,format=raw,unit=0,readonly=on,file=" + OVMF_CODE_SECURE,
                 "-drive", "if=pflash,format=raw,unit=1,file=" + args.vars]
    elif args.vars:
        argv += ["-drive", "if=pflash,format=raw,unit=0,readonly=on,file=" + OVMF_CODE,
                 "-drive", "if=pflash,format=raw,unit=1,file=" + args.vars]
    else:
        argv += ["-bios", find_bios()]
    if args.pxe:
        bootfile = "boot.ipxe" if args.ipxe_args is not None else "EFI/BOOT/BOOTX64.EFI"
        argv += ["-netdev", "user,id=n0,tftp=%s,bootfile=%s" % (esp, bootfile),
                 "-device", "virtio-net-pci,netdev=n0" + (",romfile=" if args.pxe == "ovmf"
                                                            else "")]
    elif args.disk:
        # snapshot=on: the run never writes to the image file.
        argv += ["-drive", "file=%s,format=raw,snapshot=on" % args.disk, "-nic", "none"]
    else:
        argv += ["-drive", "file=fat:rw:%s,format=raw" % esp, "-nic", "none"]
    if args.monitor:
        argv += ["-monitor", "unix:%s,server,nowait" % args.monitor]
    elif args.inject_mce or args.screendump or args.nmi or args.hmp_when or args.reset_on:
        argv += ["-monitor", "unix:%s,server,nowait" % os.path.join(workdir, "monitor.sock")]
    for extra in args.qemu_arg:
        argv += extra.split()
    if args.injector_proc:
        argv += args.injector_proc.qemu_args()
    return argv


def hmp(sock_path, command):
    """Send one human-monitor command and return what the monitor printed."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(5)
        s.connect(sock_path)
        out = b""
        s.sendall(command.encode() + b"\n")
        try:
            while True:
                chunk = s.recv(4096)
                if not chunk:
                    break
                out += chunk
                if out.count(b"(qemu)") >= 2:
                    break
        except socket.timeout:
            pass
    return out.decode("ascii", "replace")


def relay_mce_requests(args, data, done, workdir):
    """Send QEMU's 'mce' command for each new request line; returns the new count done."""
    sock = args.monitor or os.path.join(workdir, "monitor.sock")
    found = MCE_REQUEST.findall(data)
    for bank, status, mcg, addr, misc, cpu, bcast in found[done:]:
        cmd = "mce %s%s %s %s %s %s %s" % ("-b " if bcast == b"yes" else "",
                                          cpu.decode() if cpu else "0", bank.decode(),
                                          status.decode(), mcg.decode(), addr.decode(),
                                          misc.decode())
        print("ck-run: injecting: %s" % cmd, file=sys.stderr)
        hmp(sock, cmd)
    return len(found)


class LineCommands:
    """--hmp-when REGEX CMD: once REGEX matches within the serial lines received whole (a line
    still being written is not looked at), send CMD to the monitor; consecutive pairs with the
    same REGEX go out together in the order given, each group once."""

    def __init__(self, args, workdir):
        self.sock = args.monitor or os.path.join(workdir, "monitor.sock")
        self.pending = []
        for pattern, cmd in args.hmp_when:
            if not self.pending or self.pending[-1][0] != pattern:
                self.pending.append((pattern, []))
            self.pending[-1][1].append(cmd)

    def poll(self, data):
        for entry in list(self.pending):
            pattern, cmds = entry
            text = data.decode("ascii", "replace").replace("\r", "")
            if not re.search(pattern, "\n".join(text.split("\n")[:-1]), re.M):
                continue
            for cmd in cmds:
                print("ck-run: sending: %s" % cmd, file=sys.stderr)
                hmp(self.sock, cmd)
            self.pending.remove(entry)

    def report_unsent(self):
        for pattern, cmds in self.pending:
            print("ck-run: --hmp-when %r never matched: not sent: %s" % (pattern, "; ".join(cmds)),
                  file=sys.stderr)


class NmiSender:
    """--nmi: `nmi` on the monitor (QEMU delivers it to every vCPU) @count times, one every
    @interval seconds, from the moment the image starts its self-tests."""

    def __init__(self, args, workdir):
        self.sock = args.monitor or os.path.join(workdir, "monitor.sock")
        self.count, self.left = args.nmi, args.nmi
        self.interval, self.next_at = args.nmi_interval, None

    def poll(self, data):
        if not self.left or (self.next_at is None and TESTS_START not in data):
            return
        now = time.monotonic()
        if self.next_at is None:
            self.next_at = now
        if now >= self.next_at:
            hmp(self.sock, "nmi")
            self.left -= 1
            self.next_at = now + self.interval
            if not self.left:
                print("ck-run: sent %d NMIs (nmi on the monitor)" % self.count,
                      file=sys.stderr)


def watch(args, proc, log, workdir, t0, start_timeout):
    """Follow the serial log while QEMU runs, doing what the options ask on the way.
    Returns (qemu_rc or None when it is still running, log bytes, started)."""
    data, rc, started, injected, dumped = b"", None, False, 0, False
    args.stopped = False
    reset, armed = False, not args.inject_arm
    nmis = NmiSender(args, workdir)
    sends = LineCommands(args, workdir)
    with open(log, "rb") as f:
        while True:
            chunk = f.read()
            if chunk:
                data += chunk
                if args.raw:
                    sys.stdout.buffer.write(chunk)
                    sys.stdout.flush()
                elif not args.quiet:
                    sys.stdout.buffer.write(ANSI.sub(b"", chunk).replace(b"\r", b""))
                    sys.stdout.flush()
            started = started or STARTED in data
            if args.injector_proc and args.injector_proc.linked and maps(proc.pid,
                                                                      args.injector_proc.path):
                # QEMU has mapped its RAM: the file's name can go now, so that no way out,
                # a SIGKILL included, leaves it in /dev/shm.
                args.injector_proc.unlink()
            if args.inject_mce and chunk:
                injected = relay_mce_requests(args, data, injected, workdir)
            nmis.poll(data)
            if chunk:
                sends.poll(data)
            if not armed and chunk and whole_line_matches(args.inject_arm, data):
                args.injector_proc.arm()
                armed = True
                print("ck-run: armed the injector's flips (%r is on the console)" %
                      args.inject_arm, file=sys.stderr)
            if args.reset_on and not reset and args.reset_on.encode() in data:
                hmp(args.monitor or os.path.join(workdir, "monitor.sock"), "system_reset")
                reset = True
                print("ck-run: sent system_reset (%r is on the console)" % args.reset_on,
                      file=sys.stderr)
            if args.screendump and not dumped and SUMMARY_DRAWN in data:
                hmp(args.monitor or os.path.join(workdir, "monitor.sock"),
                    "screendump " + os.path.abspath(args.screendump))
                dumped = True
                print("ck-run: screen saved to %s" % args.screendump, file=sys.stderr)
            if args.stop_on and chunk and whole_line_matches(args.stop_on, data):
                args.stopped = True
                print("ck-run: stopped: a serial line matches %r" % args.stop_on,
                      file=sys.stderr)
                break
            rc = proc.poll()
            if rc is not None:
                data += f.read()
                break
            elapsed = time.monotonic() - t0
            if start_timeout and not started and elapsed > start_timeout:
                break
            if elapsed > args.timeout:
                break
            time.sleep(0.05)
    if started:
        sends.report_unsent()
    return rc, data, started


def maps(pid, path):
    """Process @pid has @path mapped."""
    try:
        with open("/proc/%d/maps" % pid) as f:
            return path in f.read()
    except OSError:
        return False


def whole_line_matches(pattern, data):
    """@pattern matches within the serial lines received whole (ANSI sequences dropped)."""
    text = ANSI.sub(b"", data).decode("ascii", "replace").replace("\r", "")
    return re.search(pattern, "\n".join(text.split("\n")[:-1]), re.M) is not None


def die_with_parent():
    """In the child before exec: SIGKILL when the runner goes, however it goes (PR_SET_PDEATHSIG),
    so that no QEMU outlives a runner killed by its caller's timeout."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass


def run_once(args, accel, esp, workdir, start_timeout=None):
    """Boot once. Returns (qemu_rc or None on timeout, log bytes, stderr text, started)."""
    log = os.path.join(workdir, "serial-%s.log" % accel)
    open(log, "wb").close()
    argv = qemu_argv(args, accel, esp, log, workdir)
    if args.verbose:
        print("ck-run: " + " ".join(argv), file=sys.stderr)
    errf = open(os.path.join(workdir, "qemu-%s.err" % accel), "w+")
    try:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=errf, stderr=errf,
                                start_new_session=True, preexec_fn=die_with_parent)
    except FileNotFoundError:
        sys.exit("ck-run: qemu-system-x86_64 not found; install 'qemu-system-x86'")
    t0 = time.monotonic()
    data, rc, started = b"", None, False
    try:
        rc, data, started = watch(args, proc, log, workdir, t0, start_timeout)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    errf.seek(0)
    err = errf.read()
    errf.close()
    return rc, data, err, started


def stop_injector(args):
    """End the injector, remove the RAM file and pass its lines on (once)."""
    if args.injector_proc:
        text = args.injector_proc.stop()
        args.injector_proc = None
        for line in text.splitlines():
            print("ck-run: " + line, file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--image", default="build/copykernel.efi")
    ap.add_argument("--cpu", default="max")
    ap.add_argument("--mem", default="512M")
    ap.add_argument("--smp", type=bounded(int, 1, 1024, "a CPU count"), default=1)
    ap.add_argument("--timeout", type=bounded(float, 1, 86400, "a number of seconds"),
                    default=180.0, help="seconds before a hang")
    ap.add_argument("--accel", choices=["auto", "tcg", "kvm"], default="auto")
    ap.add_argument("--vars", help="writable OVMF_VARS copy: use split pflash firmware (with "
                    "--secure-boot, a copy of OVMF_VARS_4M.snakeoil.fd)")
    ap.add_argument("--secure-boot", action="store_true",
                    help="Debian's Secure Boot test firmware (snakeoil key enrolled, enforcing) "
                    "on q35 with SMM and secure pflash")
    ap.add_argument("--stop-on", metavar="REGEX",
                    help="end the run (status 5) once a whole serial line matches REGEX")
    ap.add_argument("--pxe", choices=["ovmf", "ipxe"], help="boot over the network, no disk")
    ap.add_argument("--ipxe-args", metavar="WORDS",
                    help="with --pxe ipxe: boot through an iPXE script that chains the image "
                    "with these command-line words")
    ap.add_argument("--no-vga", action="store_true", help="no display device (no GOP)")
    ap.add_argument("--screendump", metavar="PPM",
                    help="save the screen (PPM) when the image says its summary is drawn; "
                    "give the image exit_delay=N so it is still there")
    ap.add_argument("--monitor", help="unix socket path for the HMP monitor")
    ap.add_argument("--reset-on", metavar="TEXT",
                    help="send system_reset on the monitor once TEXT is on the console "
                         "(with -no-reboot QEMU then exits: a reset in mid-run)")
    ap.add_argument("--inject-mce", action="store_true",
                    help="relay the image's 'mce-inject: request' lines to QEMU's mce command")
    ap.add_argument("--nmi", type=int, default=0, metavar="N",
                    help="send N 'nmi' monitor commands (an NMI to every vCPU) once the "
                    "self-tests start, one every --nmi-interval seconds")
    ap.add_argument("--nmi-interval", type=float, default=0.25, metavar="S",
                    help="seconds between two --nmi commands (default 0.25)")
    ap.add_argument("--hmp-when", nargs=2, action="append", default=[],
                    metavar=("REGEX", "CMD"),
                    help="send monitor command CMD once a whole serial line matches REGEX "
                    "(repeat it: the commands of one REGEX go out in order)")
    ap.add_argument("--qemu-arg", action="append", default=[], help="extra QEMU arguments")
    ap.add_argument("--log", help="write the raw serial log here")
    ap.add_argument("--disk", metavar="IMG",
                    help="boot this disk image (make img) instead of a directory of files")
    ap.add_argument("--shell", action="store_true",
                    help="start the image from OVMF's UEFI shell, command line as LoadOptions")
    ap.add_argument("--no-cmdline-file", action="store_true",
                    help="write no copykernel.cmdline (the image gets no command line)")
    ap.add_argument("--cmdline-file", metavar="FILE",
                    help="use FILE's bytes, as they are, as copykernel.cmdline")
    ap.add_argument("--labels-file", metavar="FILE",
                    help="put FILE beside the image as copykernel.labels (rasdaemon's DIMM "
                    "labels format, matched by the SMBIOS baseboard)")
    ap.add_argument("--inject", action="append", default=[], metavar="FAULT",
                    help="keep this DRAM fault alive in the guest's RAM, held in a shared file "
                    "(host/inject/fault.h: stuck0:ADDR:BIT, stuck1:ADDR:BIT, zeros:ADDR:BIT, "
                    "ones:ADDR:BIT, alias:ADDR:FROM, cell:ADDR:OTHER, fade:ADDR:BIT:MS, "
                    "flip:ADDR:BIT[:MS], none; ADDR a guest physical address); repeat it")
    ap.add_argument("--inject-arm", metavar="REGEX",
                    help="arm the injector's flips once a whole serial line matches REGEX "
                    "(default: at once)")
    ap.add_argument("--injector", metavar="PATH",
                    help="the host injector (default: ck-inject beside --image)")
    ap.add_argument("--raw", action="store_true",
                    help="echo the console's bytes as they come (escape sequences kept)")
    ap.add_argument("-q", "--quiet", action="store_true", help="do not echo the console")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("cmdline", nargs="*", help="kernel command line words")
    args = ap.parse_args()

    if args.nmi < 0 or args.nmi_interval < 0:
        ap.error("--nmi and --nmi-interval take a count and seconds, not negative values")
    for pattern, _ in args.hmp_when:
        try:
            re.compile(pattern)
        except re.error as e:
            ap.error("--hmp-when: bad regular expression %r: %s" % (pattern, e))
    if args.stop_on:
        try:
            re.compile(args.stop_on)
        except re.error as e:
            ap.error("--stop-on: bad regular expression %r: %s" % (args.stop_on, e))
    if args.secure_boot and args.shell:
        ap.error("--secure-boot with --shell: that firmware refuses its own unsigned shell")
    if args.secure_boot:
        for f in (OVMF_CODE_SECURE, OVMF_VARS_SECURE):
            if not os.path.exists(f):
                sys.exit("ck-run: --secure-boot: %s missing; install Debian's 'ovmf'" % f)
    if args.inject_arm:
        try:
            re.compile(args.inject_arm)
        except re.error as e:
            ap.error("--inject-arm: bad regular expression %r: %s" % (args.inject_arm, e))
        if not args.inject:
            ap.error("--inject-arm without --inject: no injector to arm")
    if not os.path.exists(args.image):
        sys.exit("ck-run: %s does not exist; run 'make' first" % args.image)
    cmdline = None if args.no_cmdline_file else " ".join(args.cmdline)
    # SIGTERM ends the run the way a timeout does: QEMU and the injector go, files removed.
    signal.signal(signal.SIGTERM, lambda sig, frame: sys.exit("ck-run: ended by SIGTERM"))
    args.injector_proc = None
    if args.inject:
        try:
            size = inject.check_layout(args.mem, args.qemu_arg)
            args.injector_proc = inject.Injector(
                args.injector or os.path.join(os.path.dirname(os.path.abspath(args.image)),
                                              "ck-inject"),
                args.inject, size, max_seconds=args.timeout + 120,
                armed=not args.inject_arm)
        except inject.Refused as e:
            sys.exit("ck-run: --inject: %s" % e)
    workdir = tempfile.mkdtemp(prefix="ck-run-")
    try:
        if args.injector_proc:
            try:
                args.injector_proc.start()
            except inject.Refused as e:
                sys.exit("ck-run: --inject: %s" % e)
        if args.secure_boot and not args.vars:
            args.vars = os.path.join(workdir, "OVMF_VARS_4M.snakeoil.fd")
            shutil.copy(OVMF_VARS_SECURE, args.vars)
        esp = make_esp(args.image, cmdline, workdir, shell=args.shell)
        if args.cmdline_file:
            shutil.copy(args.cmdline_file, os.path.join(esp, "EFI", "BOOT", "copykernel.cmdline"))
        if args.labels_file:
            shutil.copy(args.labels_file, os.path.join(esp, "EFI", "BOOT", "copykernel.labels"))
        if args.ipxe_args is not None:
            # The iPXE ROM runs a script given as the DHCP boot file: the way a boot server
            # passes a command line over the network.
            with open(os.path.join(esp, "boot.ipxe"), "w") as f:
                f.write("#!ipxe\nchain EFI/BOOT/BOOTX64.EFI %s\n" % args.ipxe_args)
        accel = args.accel
        if accel == "auto":
            accel = "kvm" if host_has_virt() else "tcg"
        rc, data, err, started = None, b"", "", False
        if accel == "kvm":
            rc, data, err, started = run_once(args, "kvm", esp, workdir, start_timeout=30)
            if not started and not args.stopped:
                print("ck-run: KVM did not start a boot (%s); falling back to TCG" %
                      (err.strip().splitlines() or ["no output"])[0], file=sys.stderr)
                accel = "tcg"
        if accel == "tcg":
            rc, data, err, started = run_once(args, "tcg", esp, workdir)
        if args.log:
            with open(args.log, "wb") as f:
                f.write(data)
        if args.stopped:
            status, what = STATUS_STOPPED, "stopped on a --stop-on line"
        elif rc is None:
            status, what = STATUS_TIMEOUT, "timeout after %.0f s: the image hung" % args.timeout
        elif rc in EXIT_MAP:
            status, what = EXIT_MAP[rc]
        elif rc == 0:
            status, what = STATUS_RESET, "QEMU exited on its own: reset, shutdown or triple fault"
        else:
            status, what = STATUS_QEMU, "QEMU failed (exit %d): %s" % (rc, err.strip()[-500:])
        stop_injector(args)
        print("ck-run: result: %s (status %d, accel %s)" % (what, status, accel),
              file=sys.stderr)
        return status
    finally:
        stop_injector(args)
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
