# SPDX-License-Identifier: GPL-2.0-only
"""The cores suite in KCIDB (tools/ck-report.py --kcidb) and in LAVA's monitor (cklib.lavaids),
on stored real runs (tests/data/cores: a clean soak, a flip in pass 1, a flip in soak pass
5): each per-kernel and per-CPU KTAP result is one KCIDB test with its status and one LAVA
result with the same word, and the KCIDB test's misc carries the CPU, APIC id, package, core
complex, core and thread and the replay, read here from the serial log's own lines (the
topology and replay text lines, not the records the tool reads)."""
import json
import os
import re

from conftest import ROOT, assert_clean, load_tool, needs_lava, run_tool, yaml
from cklib.kcidb import cores_replay_misc  # noqa: E402 (conftest puts tools/ on the path)

DATA = os.path.join(ROOT, "tests", "data", "cores")
RUNS = ["clean-soak", "kernel-flip", "soak-flip"]
ckl = load_tool("ck-lava")     # its monitors' pattern and monitor_results (cklib.lavaids)
def text(run):
    with open(os.path.join(DATA, run, "serial.log"), encoding="utf-8") as f:
        return f.read()


def doc(run):
    r = run_tool("ck-report", "--kcidb", os.path.join(DATA, run, "serial.log"))
    assert_clean(r, "ck-report", allowed=(0,))
    return {t["path"]: t for t in json.loads(r.out)["tests"]}


def ktap_results(s):
    """{path: PASS|FAIL|SKIP} of the cores suite's cases and parameters, from the KTAP lines."""
    out, case = {}, None
    for line in s.splitlines():
        m = re.match(r"^        # Subtest: (\S+)$", line)
        if m:
            case = m.group(1)
        m = re.match(r"^( {4}| {8})(not )?ok \d+ (\S+)( # SKIP.*)?$", line)
        if m:
            status = "SKIP" if m.group(4) else "FAIL" if m.group(2) else "PASS"
            if len(m.group(1)) == 8:
                out["cores.%s.%s" % (case, m.group(3))] = status
            else:
                out["cores.%s" % m.group(3)] = status
    return out


def test_every_cores_result_is_a_kcidb_test_and_a_lava_result_with_its_status():
    for run in RUNS:
        s = text(run)
        want = ktap_results(s)
        tests = doc(run)
        got = {p: tests[p]["status"] for p in want if p in tests}
        assert got == want, run
        mon = [{"name": "copykernel", "start": r"^KTAP version 1", "end": "copykernel-summary",
                "pattern": ckl.PATTERN}]
        lava = ckl.monitor_results(mon, s.splitlines())["copykernel"]
        assert {p: lava.get(p) for p in want} == {p: v.lower() for p, v in want.items()}, run


@needs_lava
def test_the_rendered_jobs_monitors_take_the_cores_results_as_ktap_says():
    """A job as tools/ck-lava.py renders it for a cores soak: its monitors, run over each
    stored log as lava-dispatcher runs them, record every cores case and CPU with KTAP's word."""
    r = run_tool("ck-lava", "job", "--template", "qemu-kernel", "--cmdline",
                 "tests=cores cores=time:20 exit=qemu", "--test-minutes", "10",
                 "--image-url", "http://lab/copykernel.efi")
    assert_clean(r, "ck-lava", allowed=(0,))
    job = yaml.safe_load(r.out)
    monitors = [a["test"]["monitors"] for a in job["actions"] if "test" in a][0]
    for run in RUNS:
        s = text(run)
        got = ckl.monitor_results(monitors, s.splitlines())["copykernel"]
        want = {p: v.lower() for p, v in ktap_results(s).items()}
        assert {p: got.get(p) for p in want} == want, run
        assert ckl.compare(ckl.ktap_cases(s.splitlines()), got) == [], run


def topology(s):
    """{cpu: (apic, package, complex, core)} from the image's topology lines (text, not JSON),
    and the thread from the APIC id and the SMT shift printed there."""
    out = {}
    for m in re.finditer(r"# topology: CPU (\d+) \(APIC id (\d+)\): package (\d+), complex "
                         r"(\d+), core (\d+) \(shifts (\d+)/", s):
        cpu, apic, pk, cx, co, smt = map(int, m.groups())
        out[cpu] = {"cpu": cpu, "apic": apic, "package": pk, "complex": cx, "core": co,
                    "thread": apic & ((1 << smt) - 1)}
    return out


def test_each_cpus_test_says_where_the_cpu_sits():
    for run in RUNS:
        s, tests = text(run), doc(run)
        where = topology(s)
        assert len(where) == 4, run
        for path, t in tests.items():
            m = re.match(r"^cores\.(\w+)\.cpu(\d+)_apic(\d+)$", path)
            if not m:
                continue
            cpu = int(m.group(2))
            misc = t["misc"]
            assert {k: misc.get(k) for k in where[cpu]} == where[cpu], (run, path, misc)
            if m.group(1) != "soak":
                seed = re.search(r"# %s \(\w+\): \d+ CPUs, seed (0x[0-9a-f]+)," % m.group(1), s)
                assert misc["seed"] == seed.group(1) and misc["kernel"] == m.group(1), path


def test_a_named_cpu_carries_its_replay_and_the_others_do_not():
    s, tests = text("kernel-flip"), doc("kernel-flip")
    m = re.search(r"# muldiv: replayed (\d+) times: CPU (\d+) wrong (\d+) times \(not "
                  r"reproduced\), CPU (\d+) \(it gave the known answer\) wrong (\d+) times: "
                  r"(\w+)$", s, re.M)
    runs, cpu, wrong, other, other_wrong, cls = m.groups()
    named = tests["cores.muldiv.cpu%s_apic%s" % (cpu, cpu)]
    assert named["status"] == "FAIL" and named["misc"]["named"] is True
    assert (named["misc"]["replay"]["role"], named["misc"]["replay"]["runs"],
            named["misc"]["replay"]["wrong"], named["misc"]["replay"]["class"]) == \
        ("named", int(runs), int(wrong), cls)
    far = tests["cores.muldiv.cpu%s_apic%s" % (other, other)]["misc"]
    assert far["replay"]["role"] == "distant" and far["replay"]["wrong"] == int(other_wrong)
    digest = re.search(r"CPU %s \(APIC id \d+\) in the minority: digest (0x[0-9a-f]+)" % cpu,
                       s).group(1)
    assert int(named["misc"]["digest"], 16) == int(digest, 16)
    for c in range(4):
        if str(c) not in (cpu, other):
            assert "replay" not in tests["cores.muldiv.cpu%d_apic%d" % (c, c)]["misc"]


def test_the_soak_case_carries_the_total_and_the_failing_pass():
    s, tests = text("soak-flip"), doc("soak-flip")
    line = re.search(r"# soak: (\d+) passes in .*, (\d+) failing \(", s)
    fail = re.search(r"# soak: pass (\d+) \(seed (0x[0-9a-f]+)\) finds what follows", s)
    soak = tests["cores.soak"]
    assert soak["status"] == "FAIL"
    assert (soak["misc"]["passes"], soak["misc"]["failing_passes"]) == \
        (int(line.group(1)), int(line.group(2)))
    assert soak["misc"]["failing"] == [{"pass": int(fail.group(1)), "seed": fail.group(2),
                                        "kernel": "crc32c", "verdict": "minority",
                                        "named": [2]}]
    cpu2 = tests["cores.soak.cpu2_apic2"]
    assert cpu2["status"] == "FAIL" and cpu2["misc"]["named_passes"] == 1
    assert cpu2["misc"]["failing"][0]["pass"] == int(fail.group(1))
    assert tests["cores.soak.cpu0_apic0"]["misc"]["named_passes"] == 0
    clean = doc("clean-soak")["cores.soak"]
    assert clean["status"] == "PASS" and clean["misc"]["failing"] == [] and \
        clean["misc"]["passes"] == int(re.search(r"# soak: (\d+) passes in",
                                                 text("clean-soak")).group(1))


def test_each_replayed_cpu_gets_its_own_role_and_count():
    """A replay record written by hand as the image writes one (ktest/test_cores.c replay()):
    each of the four CPUs that ran it again finds its own role, relation and wrong count in
    its misc, and a CPU that did not replay gets nothing."""
    r = {"kind": "cores", "replay": {
        "cpu": 2, "runs": 10, "wrong": 10, "first_wrong_us": 40, "other_cpu": 7,
        "other_wrong": 0, "other_rel": "other_package", "sibling_cpu": 3, "sibling_wrong": 10,
        "near_cpu": 1, "near_wrong": 9, "near_rel": "same_complex", "class": "package"}}
    assert cores_replay_misc(r, 2)["role"] == "named"
    assert cores_replay_misc(r, 2)["near_wrong"] == 9
    assert cores_replay_misc(r, 7) == {"role": "distant", "runs": 10, "wrong": 0,
                                       "relation": "other_package", "class": "package"}
    assert cores_replay_misc(r, 1) == {"role": "distant", "runs": 10, "wrong": 9,
                                       "relation": "same_complex", "class": "package"}
    assert cores_replay_misc(r, 3) == {"role": "smt_sibling", "runs": 10, "wrong": 10,
                                       "class": "package"}
    assert cores_replay_misc(r, 0) is None
