#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""model_tests.py - a default run (exit=qemu, 1 vCPU, 512M) on QEMU's CPU models.

`make models` (this file run as a program) boots the image once on every CPU model that
`qemu-system-x86_64 -cpu help` lists by the name people type (the unversioned names and max;
MODELS=all adds every versioned name and alias), two at a time, and prints one table row per
model: the model, the vendor/family/model the image printed, the exit status, the verdict
and the seconds the boot took. QEMU's own expansion of each model (QMP
query-cpu-model-expansion) decides what is not run and what needs a workaround:
  * no long mode (lm): the 64-bit OVMF cannot start: "n/a";
  * "host" passes the host CPU through and needs KVM, which cannot run OVMF here: "n/a";
  * XSAVE without XSAVEOPT (Opteron_G4, Opteron_G5): QEMU 7.2's TCG livelocks on the
    mov to CR4 that sets OSXSAVE; other kernels hit it too, and the model runs with
    ",+xsaveopt", marked so in its row.
`make check` runs a representative subset (old and new Intel and AMD, Hygon, max: the
model_* rows of scenarios.cfg): each must pass, print its vendor, and choose Linux's
primitives for its features.
"""
import argparse
import concurrent.futures
import datetime
import json
import os
import platform
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from qemu_boot import PASS, ROOT, Boot, check_ktap  # noqa: E402

STATUS_WORDS = {0: "passed", 1: "tests failed", 2: "panic", 3: "bad cmdline", 4: "reset",
                124: "timeout", 125: "QEMU failed"}
QUIRK_XSAVEOPT = ("+xsaveopt: QEMU TCG livelocks setting CR4.OSXSAVE on a model with XSAVE "
                  "but no XSAVEOPT")


def listed_models(every=False):
    """The names `-cpu help` lists: unversioned ones (and max), or @every name."""
    out = subprocess.run(["qemu-system-x86_64", "-cpu", "help"], capture_output=True,
                         text=True, check=True).stdout
    names = []
    for line in out.splitlines():
        m = re.match(r"x86 (\S+)\s*(.*)$", line)
        if not m:
            continue
        name, what = m.groups()
        if every or "configured by machine type" in what or name in ("max", "host", "base"):
            names.append(name)
    return names


def expand(names):
    """{name: {feature: bool}} from QEMU's full expansion of each model under TCG."""
    cmds = [{"execute": "qmp_capabilities"}]
    cmds += [{"execute": "query-cpu-model-expansion", "id": n,
              "arguments": {"type": "full", "model": {"name": n}}} for n in names]
    cmds.append({"execute": "quit"})
    p = subprocess.run(["qemu-system-x86_64", "-machine", "none", "-accel", "tcg",
                        "-nodefaults", "-display", "none", "-qmp", "stdio"],
                       input="\n".join(json.dumps(c) for c in cmds) + "\n",
                       capture_output=True, text=True, timeout=120)
    out = {}
    for line in p.stdout.splitlines():
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if msg.get("id") in names and "return" in msg:
            out[msg["id"]] = msg["return"]["model"].get("props", {})
    return out


def plan(name, props):
    """(the -cpu argument or None, why not run / workaround note)."""
    if name == "host":
        return None, "n/a: passes the host CPU through, needs KVM (cannot run OVMF here)"
    if props is None:
        return None, "n/a: QEMU gave no expansion of this model"
    if not props.get("lm"):
        return None, "n/a: no long mode: the 64-bit OVMF cannot run"
    if props.get("xsave") and not props.get("xsaveopt"):
        return name + ",+xsaveopt", "workaround " + QUIRK_XSAVEOPT
    return name, ""


def cpu_seen(log):
    m = re.search(r"^CPU: (\S+) family (0x[0-9a-f]+) model (0x[0-9a-f]+)", log, re.M)
    return "%s %s/%s" % m.groups() if m else "-"


def boot(image, name, cpu_arg):
    b = Boot(image, "model_" + name, timeout=240)
    t0 = time.monotonic()
    b.run("exit=qemu", cpu=cpu_arg, mem="512M")
    if b.status == PASS:
        check_ktap(b)
    return b, time.monotonic() - t0


def run_all(image, names, jobs, keep):
    props = expand(names)
    print("# copykernel CPU models, %s" % datetime.datetime.now().strftime("%Y-%m-%d %H:%M"))
    print("# host: %s, %s, %s" % (platform.node(), host_cpu(), qemu_version()))
    print("%-28s %-26s %-16s %-8s %s" % ("model", "vendor family/model", "status", "seconds",
                                         "verdict"))
    todo, failed = [], 0
    for n in names:
        todo.append((n,) + plan(n, props.get(n)))
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        futs = [ex.submit(boot, image, n, arg) if arg else None for n, arg, _ in todo]
        for (n, arg, note), fut in zip(todo, futs):
            if fut is None:
                print("%-28s %-26s %-16s %-8s %s" % (n, "-", "-", "-", note))
                continue
            b, secs = fut.result()
            ok = b.status == PASS and not b.problems
            failed += not ok
            verdict = ("pass" if ok else "FAIL") + ("; " + note if note else "")
            if not ok:
                os.makedirs(keep, exist_ok=True)
                with open(os.path.join(keep, n + ".log"), "w") as f:
                    f.write(b.log)
                verdict += "; log in %s" % os.path.join(keep, n + ".log")
            print("%-28s %-26s %-16s %-8.1f %s" % (n, cpu_seen(b.log), "%s %s" % (
                b.status, STATUS_WORDS.get(b.status, "?")), secs, verdict))
            sys.stdout.flush()
    print("# %d models listed, %d booted, %d failed" % (
        len(todo), sum(1 for f in futs if f), failed))
    return 1 if failed else 0


def host_cpu():
    try:
        with open("/proc/cpuinfo") as f:
            m = re.search(r"^model name\s*:\s*(.*)$", f.read(), re.M)
        return "%s, %d CPUs" % (m.group(1).strip() if m else "?", os.cpu_count() or 0)
    except OSError:
        return "?"


def qemu_version():
    out = subprocess.run(["qemu-system-x86_64", "--version"], capture_output=True, text=True)
    return (out.stdout.splitlines() or ["QEMU ?"])[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--image", default=os.path.join(ROOT, "build", "copykernel.efi"))
    ap.add_argument("--models", default="",
                    help="'all' for every listed name, or a comma-separated list")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--keep", default=os.path.join(ROOT, "build", "models"),
                    help="where the serial logs of failed models go")
    a = ap.parse_args()
    if not os.path.exists(a.image):
        sys.exit("model_tests: %s does not exist; run 'make' first" % a.image)
    if a.models in ("", "all"):
        names = listed_models(every=a.models == "all")
    else:
        names = a.models.split(",")
    return run_all(a.image, names, a.jobs, a.keep)


if __name__ == "__main__":
    sys.exit(main())
