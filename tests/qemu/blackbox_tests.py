# SPDX-License-Identifier: GPL-2.0-only
"""blackbox_tests.py - the QEMU scenarios of the soak's black box and of the firmware's DIMM
map (issue 19): a run reset in mid-run by `system_reset` on the monitor (QEMU exits with
-no-reboot: REFERENCE.md section 9) leaves its last soak checkpoint in a writable OVMF
variable store; the next boot with the same store reports it, and tools/ck-results.py reads
the same from the file. The DIMM map: QEMU given type 17 and 20 structures made by
tools/mk-smbios-dimms.py prints each DIMM and says a type 20 map exists; plain QEMU (types 16,
17, 19 only) says there is none.

Two runs are reset. A real soak (tests=none soak=10m, 512 MiB, 2 CPUs) is reset on its first
checkpoint line, written by the soak engine through the run's sink: the next boot names its
run, its elapsed time and its counts (no error: no fault is injected; no whole pass: it is
reset long before one ends; the bytes per pass the soak's plan line gave). And a crafted
record (ktest/test_results.c, blackbox_test=unfinished, through the same sink), whose worst
bucket is a named DIMM: CRAFTED below is that record's content as the issue words it,
written out here, not read from the code.
"""
import re
import json
import os
import shutil
import subprocess
import sys
import tempfile

from qemu_boot import PASS, RESET, ROOT, check_ktap

VARS = "/usr/share/OVMF/OVMF_VARS_4M.fd"
CKPT_LINE = "# blackbox: soak checkpoint 1 of run "
COPY_BEGUN = "# Subtest: copy"
# What the next boot says of the crafted checkpoint, after "previous run RUNID".
CRAFTED = (" ended without a summary; its last checkpoint (1 written) was 3h02m05s into the "
           "soak: passes 2, bytes 1610612736, CE 3, UE 1, deferred 0, miscompares 0, stuck CPUs "
           "0, retired pages 1, failing so far; worst: DIMM P0_CH_A/DIMM_A0 (CE 2, UE 1, "
           "deferred 0, miscompares 0)")


def ck_results(*args):
    return subprocess.run([sys.executable, os.path.join(ROOT, "tools", "ck-results.py")] +
                          list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def stored_summary(b, vars_fd):
    """ck-results on the variable store: its process and parsed summary (None when it failed,
    noted on @b); its output joins the boot's streams for the schema check."""
    p = ck_results("--ovmf-vars", vars_fd)
    b.outputs.append(("ck-results --ovmf-vars", p.stdout))
    if not b.expect(p.returncode == 0, "ck-results: %d %s" % (p.returncode, p.stderr)):
        return p, None
    return p, json.loads(p.stdout)


def t_blackbox_reset_mid_run(b):
    """A run reset after its soak checkpoint: the next boot and ck-results report it."""
    with tempfile.TemporaryDirectory(prefix="ck-vars-") as tmp:
        vars_fd = os.path.join(tmp, "vars.fd")
        shutil.copy(VARS, vars_fd)
        # The reset is sent once the copy suite has begun (it runs for tens of seconds), not on
        # the checkpoint line: from that line the reset could land before the suite's header.
        b.run("exit=qemu tests=blackbox,copy blackbox_test=unfinished",
              runner_args=["--vars", vars_fd, "--reset-on", COPY_BEGUN])
        b.status_is(RESET)
        b.expect("ck-run: sent system_reset" in b.runner_err,
                 "ck-run did not send system_reset: %r" % b.runner_err[-300:])
        b.has(r"^blackbox: no soak checkpoint from an earlier run$")
        m = b.has(r"^# blackbox: soak checkpoint 1 of run ([0-9a-f]{8}) stored in "
                  r"CopykernelSoak \(3h02m05s into the soak\)$")
        b.has(r"^    # Subtest: copy$")
        b.lacks(r"^ok 2 copy", "the copy suite ended before the reset")
        b.lacks(r"^results: summary stored", "the run stored its summary before the reset")
        b.lacks(r"^# copykernel-summary:", "the run ended before the reset")
        if not m:
            return
        run = m.group(1)
        b.run("exit=qemu tests=cpu", runner_args=["--vars", vars_fd])
        b.status_is(PASS)
        want = "blackbox: previous run %s%s" % (run, CRAFTED)
        b.expect(want in b.log.splitlines(), "the second boot does not say %r" % want)
        b.has(r"^blackbox: run %s's checkpoint is in this run's summary: marked as reported$"
              % run)
        check_ktap(b)
        p, obj = stored_summary(b, vars_fd)
        if obj is None:
            return
        prev = obj.get("previous_soak", {})
        b.expect(prev.get("state") == "unfinished" and prev.get("run_id") == run and
                 prev.get("counts", {}).get("uncorrected") == 1,
                 "the stored summary's previous_soak: %r" % prev)
        said = "previous run %s (already reported by run %s)%s" % (run, obj.get("run_id"),
                                                                    CRAFTED)
        b.expect(obj.get("soak_checkpoint", {}).get("text") == said,
                 "ck-results' soak_checkpoint: %r" % obj.get("soak_checkpoint"))
        b.expect("the soak ended without a summary: " + said in p.stderr,
                 "ck-results' stderr: %r" % p.stderr)
        # A third boot says the checkpoint was reported before.
        b.run("exit=qemu tests=cpu", runner_args=["--vars", vars_fd])
        b.status_is(PASS)
        b.has(r"^blackbox: previous run %s \(already reported by run %s\) ended without a "
              r"summary; its last checkpoint \(1 written\) was 3h02m05s into the soak:"
              % (run, obj.get("run_id")))
        b.lacks(r"marked as reported", "a checkpoint reported before is marked again")


def t_blackbox_soak_reset(b):
    """A soak reset on its first checkpoint: the next boot and ck-results report that one.
    Its command line had an error (soak_chunk=48 is no power of two: the default 64 MiB
    soaks), so its box says the run's verdict was never PASS."""
    with tempfile.TemporaryDirectory(prefix="ck-vars-") as tmp:
        vars_fd = os.path.join(tmp, "vars.fd")
        shutil.copy(VARS, vars_fd)
        b.run("exit=qemu tests=none soak=10m soak_chunk=48",
              runner_args=["--smp", "2", "--vars", vars_fd, "--reset-on", CKPT_LINE])
        b.status_is(RESET)
        b.expect("ck-run: sent system_reset" in b.runner_err,
                 "ck-run did not send system_reset: %r" % b.runner_err[-300:])
        b.has(r"^blackbox: no soak checkpoint from an earlier run$")
        b.has(r"^soak: soak=10m on 2 CPUs, ")
        plan = b.has(r"^soak: free memory to soak: .*; covered by the plan: \d+ pages "
                     r"\((\d+) bytes\)$")
        m = b.has(r"^# blackbox: soak checkpoint 1 of run ([0-9a-f]{8}) stored in "
                  r"CopykernelSoak \(([0-9hms.]+) into the soak\)$")
        b.lacks(r"^# copykernel-soak:", "the soak ended before the reset")
        if not m or not plan:
            return
        run, took, per_pass = m.group(1), m.group(2), int(plan.group(1))
        b.run("exit=qemu tests=cpu", runner_args=["--vars", vars_fd])
        b.status_is(PASS)
        said = (r" ended without a summary; its last checkpoint \(1 written\) was %s into the "
                r"soak: passes 0, bytes (\d+), CE 0, UE 0, deferred 0, miscompares 0, stuck CPUs "
                r"0, retired pages 0, passing so far; worst: none \(no error so far\); its command "
                r"line had errors, so its verdict was never PASS$" % re.escape(took))
        line = b.has(r"^blackbox: previous run %s%s" % (run, said))
        b.has(r"^blackbox: run %s's checkpoint is in this run's summary: marked as reported$"
              % run)
        check_ktap(b)
        if not line:
            return
        done = int(line.group(1))
        # Pass 0 begins by writing (its first element reads nothing), and reads each byte 28
        # times in all (docs/user/soak.md): the first checkpoint's count is whole pages, 0 or
        # more, and less than a whole pass 0's.
        b.expect(done < 28 * per_pass and done % 4096 == 0,
                 "bytes verified %d: not whole pages of a first pass (28 reads of %d bytes)"
                 % (done, per_pass))
        p, obj = stored_summary(b, vars_fd)
        if obj is None:
            return
        prev = obj.get("previous_soak", {})
        want = {"state": "unfinished", "run_id": run, "checkpoints": 1, "final": False,
                "failing": False, "cmdline_errors": True, "cpus": 2, "passes": 0, "bytes_verified": done,
                "bytes_per_pass": per_pass, "first": None}
        b.expect(all(prev.get(k) == v for k, v in want.items()) and
                 set(prev.get("counts", {}).values()) == {0},
                 "the stored summary's previous_soak: %r" % prev)
        text = prev.get("text", "")
        b.expect(re.fullmatch(r"previous run %s%s" % (run, said), text) is not None,
                 "the stored summary's previous_soak text: %r" % text)
        # The variable itself, as ck-results reads it now: reported by the second boot.
        text = obj.get("soak_checkpoint", {}).get("text", "")
        b.expect(re.fullmatch(r"previous run %s \(already reported by run %s\)%s" %
                              (run, obj.get("run_id"), said), text) is not None,
                 "ck-results' soak_checkpoint text: %r" % text)
        b.expect(("the soak ended without a summary: " + text) in p.stderr,
                 "ck-results' stderr: %r" % p.stderr)


def t_blackbox_reset_on_summary(b):
    """A soak reset the moment its report is out: the store holds its final checkpoint."""
    # Whoever stops a machine on seeing the soak's verdict (a lab's job, a person) must find
    # the black box saying the soak ended with its summary: the final checkpoint is written
    # before the summary line and the lines after it, so a reset sent once the last of them
    # (its LAVA line) has arrived cannot come between. (Not on the summary line itself: the
    # reset would cut the JSON record that follows it.)
    with tempfile.TemporaryDirectory(prefix="ck-vars-") as tmp:
        vars_fd = os.path.join(tmp, "vars.fd")
        shutil.copy(VARS, vars_fd)
        b.run("exit=qemu tests=none soak=passes:1", mem="256M",
              runner_args=["--smp", "2", "--vars", vars_fd, "--reset-on", "# ck-lava <soak "])
        b.status_is(RESET)
        b.expect("ck-run: sent system_reset" in b.runner_err,
                 "ck-run did not send system_reset: %r" % b.runner_err[-300:])
        s = b.has(r"^# copykernel-soak: result=PASS duration=(\d+)\.(\d{3})s ")
        f = b.has(r"^# blackbox: soak checkpoint (\d+) of run ([0-9a-f]{8}) stored in "
                  r"CopykernelSoak \(([0-9hms.]+) into the soak, final\)$")
        if not s or not f:
            return
        b.expect(b.log.index(f.group(0)) < b.log.index(s.group(0)),
                 "the final checkpoint is stored after the summary line")
        # The run's own summary may not be stored (the reset can come first): the checkpoint.
        p = ck_results("--ovmf-vars", vars_fd, "--checkpoint")
        if not b.expect(p.returncode == 0, "ck-results: %d %s" % (p.returncode, p.stderr)):
            return
        ck = json.loads(p.stdout)
        b.expect(ck.get("state") == "finished" and ck.get("final") is True and
                 ck.get("run_id") == f.group(2) and ck.get("checkpoints") == int(f.group(1)) and
                 ck.get("passes") == 1 and ck.get("elapsed_ns") // 10**6 ==
                 int(s.group(1)) * 1000 + int(s.group(2)),
                 "the store's checkpoint: %r" % ck)
        b.expect(ck.get("text", "").startswith(
            "previous run %s ended with its soak summary after %s; " % (f.group(2), f.group(3))),
            "its text: %r" % ck.get("text"))
        b.expect("without a summary" not in p.stderr, "ck-results: %r" % p.stderr)


def t_blackbox_dimm_map(b):
    """SMBIOS types 17 and 20 from mk-smbios-dimms.py: one line per DIMM, a type 20 map."""
    with tempfile.TemporaryDirectory(prefix="ck-smbios-") as tmp:
        p = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "mk-smbios-dimms.py"),
                            "--map", "0:256M=DIMM_A0", "--map", "256M:256M=DIMM_B0",
                            "--out-dir", tmp], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        if not b.expect(p.returncode == 0, "mk-smbios-dimms: " + p.stderr.strip()):
            return
        files = sorted(f for f in os.listdir(tmp))
        b.run("exit=qemu tests=cpu", extra=["-smbios file=" + os.path.join(tmp, f)
                                            for f in files])
        b.status_is(PASS)
        b.has(r'^SMBIOS: DIMM "DIMM_A0": 256 MiB')
        b.has(r'^SMBIOS: DIMM "DIMM_B0": 256 MiB')
        b.has(r"^SMBIOS: DIMM map from firmware: 2 device mapped address ranges")
        b.lacks(r"^SMBIOS: no DIMM map from firmware")
        b.lacks(r"^warning: SMBIOS")
