#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""ck-guest.py - run the hosted benchmark in a Linux guest with two NUMA nodes, under QEMU.

The build machines have one NUMA node, so ck-bench's move_pages(2) part (the migrate preset,
host/bench/movep.c) has nowhere to move pages to. This boots Debian's cloud kernel
(linux-image-cloud-amd64, downloaded with apt-get and unpacked, not installed) with an
initramfs of two static programs, host/ck-guest-init.c as /init and ck-bench, on a machine
of two NUMA nodes, one CPU and 3.5 GiB each, with two 1 GiB hugetlb pages reserved at boot
(Linux spreads them over the nodes, one each):

    tools/ck-guest.py --build build [--json OUT] -- --tiny --rounds 3 --preset migrate

Under TCG (the build machines' KVM cannot run a guest) the guest's timings say nothing about
hardware: the guest proves the code (every page moved, every word kept), not its speed. The
serial console is echoed as it comes; the records ck-bench wrote go to --json OUT. The kernel
is whatever version Debian's metapackage names that day (6.1 in Debian 12); the first line
says which package it came from.

Exit status: ck-bench's own (0, 3 ...); 124 the guest did not finish in --timeout seconds;
125 QEMU, the kernel or the initramfs could not be had; 2 a usage error.
"""
import argparse
import glob
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import threading

STATUS_TIMEOUT, STATUS_SETUP = 124, 125
META = "linux-image-cloud-amd64"
EXIT = re.compile(r"ck-guest: ck-bench exit (\d+)")
JSON = "ck-guest-json: "


class SetupError(Exception):
    pass


def run(cmd, **kw):
    """A command's status and output; SetupError when it cannot start or takes 5 minutes."""
    try:
        return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              timeout=300, **kw)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise SetupError("%s: %s" % (cmd[0], e))


def kernel_package():
    """The versioned package the cloud-kernel metapackage depends on (lists updated once)."""
    for attempt in range(2):
        p = run(["apt-cache", "depends", META])
        m = re.search(r"Depends: (linux-image-\S+-cloud-amd64)", p.stdout)
        if m:
            return m.group(1)
        if attempt == 0 and os.geteuid() == 0:
            run(["apt-get", "update", "-qq"])
    raise SetupError("apt-cache knows no %s (apt-get update as root, or give --kernel)" % META)


def fetch_kernel(guest):
    """build/guest/vmlinuz from the Debian package, unpacked here; its package name."""
    vmlinuz, name = os.path.join(guest, "vmlinuz"), os.path.join(guest, "vmlinuz.package")
    if os.path.exists(vmlinuz) and os.path.exists(name):
        return vmlinuz, open(name).read().strip()
    pkg = kernel_package()
    if os.path.exists(vmlinuz + ".tmp"):
        os.remove(vmlinuz + ".tmp")         # an earlier fetch that did not finish
    with tempfile.TemporaryDirectory(prefix="ck-guest-") as tmp:
        p = run(["apt-get", "download", "-o", "APT::Sandbox::User=root", pkg], cwd=tmp)
        debs = glob.glob(os.path.join(tmp, "*.deb"))
        if p.returncode or not debs:
            raise SetupError("apt-get download %s failed: %s" % (pkg, p.stdout.strip()[-400:]))
        try:
            tar = subprocess.Popen(["dpkg-deb", "--fsys-tarfile", debs[0]],
                                   stdout=subprocess.PIPE)
        except OSError as e:
            raise SetupError("dpkg-deb: %s" % e)
        with tarfile.open(fileobj=tar.stdout, mode="r|") as t:
            for m in t:
                if re.fullmatch(r"\./boot/vmlinuz-.*", m.name) and m.isfile():
                    with open(vmlinuz + ".tmp", "wb") as out:
                        out.write(t.extractfile(m).read())
        if tar.wait():
            raise SetupError("dpkg-deb --fsys-tarfile %s: status %d" % (debs[0], tar.returncode))
    if not os.path.exists(vmlinuz + ".tmp"):
        raise SetupError("%s holds no /boot/vmlinuz-*" % os.path.basename(debs[0]))
    os.replace(vmlinuz + ".tmp", vmlinuz)
    with open(name, "w") as f:
        f.write(os.path.basename(debs[0]) + "\n")
    return vmlinuz, os.path.basename(debs[0])


def cpio_entry(name, mode, data=b""):
    """One entry of the kernel's initramfs format ("newc", Documentation/driver-api/
    early-userspace/buffer-format.rst): a 110-byte ASCII header, the name, the data, each
    padded to 4 bytes."""
    raw = name.encode() + b"\0"
    head = b"070701" + b"".join(b"%08X" % v for v in (
        0, mode, 0, 0, 2 if mode & 0o040000 else 1, 0, len(data), 0, 0, 0, 0, len(raw), 0))
    pad = lambda n: b"\0" * (-n % 4)  # noqa: E731
    return head + raw + pad(len(head) + len(raw)) + data + pad(len(data))


def initramfs(path, init, bench):
    with open(path, "wb") as out:
        for d in ("proc", "sys", "dev", "tmp"):
            out.write(cpio_entry(d, 0o040755))
        for name, src in (("init", init), ("ck-bench", bench)):
            with open(src, "rb") as f:
                out.write(cpio_entry(name, 0o100755, f.read()))
        out.write(cpio_entry("TRAILER!!!", 0))


def qemu_command(kernel, initrd, args, smp):
    mem = 3584
    cmd = ["qemu-system-x86_64", "-accel", "tcg", "-cpu", "max", "-smp", str(smp),
           "-m", "%dM" % (2 * mem), "-nographic", "-no-reboot", "-kernel", kernel,
           "-initrd", initrd]
    for n in range(2):
        cpus = ",cpus=%d" % n if n < smp else ""
        cmd += ["-object", "memory-backend-ram,id=m%d,size=%dM" % (n, mem),
                "-numa", "node,nodeid=%d%s,memdev=m%d" % (n, cpus, n)]
    # no_timer_check: under TCG on a loaded host the timer IRQ can miss Linux's IO-APIC check
    # ("IO-APIC + timer doesn't work!"), which panics the guest for want of host CPU time.
    cmd += ["-append", "console=ttyS0 quiet panic=-1 no_timer_check hugepagesz=1G hugepages=2 -- "
            + " ".join(args)]
    return cmd


def boot(a, bench_args):
    guest = os.path.join(a.build, "guest")
    os.makedirs(guest, exist_ok=True)
    if a.kernel:
        kernel, pkg = a.kernel, a.kernel
    else:
        kernel, pkg = fetch_kernel(guest)
    for f, how in ((a.init, "make guest"), (a.bench, "make guest"), (kernel, "--kernel")):
        if not os.path.exists(f):
            raise SetupError("%s is missing (%s)" % (f, how))
    initrd = os.path.join(guest, "initramfs.cpio")
    initramfs(initrd, a.init, a.bench)
    print("ck-guest: kernel %s; 2 NUMA nodes, %d CPUs, TCG" % (pkg, a.smp), flush=True)
    try:
        q = subprocess.Popen(qemu_command(kernel, initrd, bench_args, a.smp),
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT)
    except OSError as e:
        raise SetupError("qemu-system-x86_64: %s" % e)
    timer = threading.Timer(a.timeout, q.kill)
    timer.start()
    records, lines = [], []
    for raw in q.stdout:                    # the console echoed as it comes
        line = raw.decode(errors="replace").rstrip("\r\n")
        lines.append(line)
        if line.startswith(JSON):
            records.append(line[len(JSON):])
        else:
            print(line, flush=True)
    q.wait()
    timed_out = not timer.is_alive() and q.returncode < 0
    timer.cancel()
    if a.json:
        with open(a.json, "w") as f:
            f.write("".join(r + "\n" for r in records))
    if timed_out:
        print("ck-guest: the guest did not finish in %d s" % a.timeout)
        return STATUS_TIMEOUT
    m = EXIT.search("\n".join(lines))
    if not m:
        print("ck-guest: the guest ended without ck-bench's exit status (a panic or a "
              "failed boot: the console is above)")
        return STATUS_SETUP
    return int(m.group(1))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--kernel", help="a bzImage to boot instead of Debian's cloud kernel")
    ap.add_argument("--init", help="the guest's /init (default BUILD/guest/init)")
    ap.add_argument("--bench", help="static ck-bench (default BUILD/guest/ck-bench)")
    ap.add_argument("--smp", type=int, default=2, choices=(1, 2))
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--json", help="write the guest's records here")
    ap.add_argument("args", nargs="*", help="ck-bench's arguments (after --)")
    a = ap.parse_args(argv)
    a.init = a.init or os.path.join(a.build, "guest", "init")
    a.bench = a.bench or os.path.join(a.build, "guest", "ck-bench")
    args = list(a.args)
    if a.json and "--json" not in args:
        args += ["--json", "/tmp/ck.jsonl"]
    try:
        return boot(a, args)
    except SetupError as e:
        print("ck-guest: %s" % e, file=sys.stderr)
        return STATUS_SETUP


if __name__ == "__main__":
    sys.exit(main())
