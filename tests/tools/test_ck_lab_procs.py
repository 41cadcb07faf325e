# SPDX-License-Identifier: GPL-2.0-only
"""tools/ck-lab.py's process sweep (issue 32: make lab-check leaves no process behind): the
processes of a service are its descendants, the members of its session, and whatever names
the lab on its command line, because lava-worker starts lava-run in a process group of its
own, QEMU runs under a pty (a session) of its own, and a process whose parent died is
reparented away from the tree. Real processes here (sleep), each test killing its own.
"""
import os
import signal
import subprocess
import sys
import time
import uuid

from conftest import load_tool

lab = load_tool("ck-lab")


def alive(pid):
    return pid in lab.procs()


def wait_for(cond, seconds=10):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.05)
    return False


def children_of(pid):
    return {p for p, (pp, _, _) in lab.procs().items() if pp == pid}


def test_the_sweep_finds_a_tree_a_new_session_and_an_orphan_by_its_mark():
    mark = "ck-lab-test-%s" % uuid.uuid4().hex[:8]
    # A service (its own session) with a child, a grandchild in a session of its own (as
    # QEMU under pexpect), and an orphan: a child whose parent has left (as QEMU once
    # lava-run is killed), found only by the mark on its command line.
    # (The mark comes in the environment: the script's own text must not hold it.)
    script = ("sleep 300 & setsid sleep 301 & "
              "bash -c 'exec -a \"$M\" sleep 302' & "
              "bash -c \"setsid bash -c 'exec -a \\\"\\$M-orphan\\\" sleep 303' & exit 0\"; "
              "wait")
    svc = subprocess.Popen(["bash", "-c", script], start_new_session=True,
                           env=dict(os.environ, M=mark))
    try:
        assert wait_for(lambda: len([c for c in lab.procs().values() if mark in c[2]]) == 2)
        orphan = [p for p, c in lab.procs().items() if mark + "-orphan" in c[2]][0]
        assert lab.procs()[orphan][0] != svc.pid, "the orphan was reparented"
        tree = lab.family([svc.pid])
        assert orphan not in tree, "no parent leads to it"
        everything = lab.family([svc.pid], [mark])
        assert orphan in everything
        assert len(children_of(svc.pid) - everything) == 0
        sessions = {lab.procs()[p][1] for p in everything}
        assert len(sessions) >= 2, "the setsid child is in a session of its own"
        lab.kill_all(everything, signal.SIGKILL)
        svc.wait(timeout=10)
        assert wait_for(lambda: not (lab.family([], [mark]) | {svc.pid} & set(lab.procs())))
    finally:        # whatever the sweep under test missed, found here without it
        mine = [p for p, c in lab.procs().items() if mark in c[2]] + [svc.pid]
        lab.kill_all(lab.family([svc.pid]) | set(mine), signal.SIGKILL)
        svc.wait(timeout=10)


def test_a_process_that_ended_is_not_running():
    """A zombie (ended, not yet waited for) is not a process left running: the sweep must
    not wait for it, its parent reaps it."""
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    assert wait_for(lambda: open("/proc/%d/stat" % p.pid).read().split(") ")[1][0] == "Z")
    assert not alive(p.pid)
    p.wait()


def test_the_sweep_never_takes_itself():
    assert os.getpid() not in lab.family([os.getpid()], [sys.argv[0] or "python"])
