# SPDX-License-Identifier: GPL-2.0-only
"""make lab-check's judgement (issue 32), on a stored run of it (tests/data/lab, the files a
real LAVA server gave on 2026-12-05, see its README) and, when CK_LAB_DIR names the lab
directory of a run that just happened (tools/ck-lab.py runs `pytest -k live` with it), on that
run too:

  - each job shows what its kind must (cklib.lab.expect): passes, the deliberate failure,
    the soak, the hang Incomplete by its timeout, the refused command line, the worker
    stopped under a job;
  - the scheduler spread the fleet over at least two devices, at least five jobs;
  - the fleet report and its JSON from the server's results (ck-lava.py fetch's files) are
    those from the same jobs' serial logs (QEMU's own copy of each console);
  - the KCIDB documents of both keep KCIDB's rules (kcidb_problems() and the JSON Schema of
    test_ck_report_kcidb.py), are the same document but for the file digests in their ids,
    and every LAVA result of a KTAP case is one KCIDB test, none left over.
"""
import json
import os
import shutil
import tempfile

import pytest

from conftest import ROOT, assert_clean, run_tool
from test_ck_report_kcidb import kcidb_problems, schema_errors

from cklib import lab, lavajob

TOOL = "ck-report"
STORED = os.path.join(ROOT, "tests", "data", "lab")
DIRS = [pytest.param(STORED, id="stored")]
if os.environ.get("CK_LAB_DIR"):
    DIRS.append(pytest.param(os.environ["CK_LAB_DIR"], id="live"))



def report(*args):
    r = run_tool(TOOL, *args)
    assert_clean(r, TOOL, allowed=(0,))
    return r.out.decode()


def plan(d):
    with open(os.path.join(d, "plan.json")) as f:
        return json.load(f)


def fleet(d, where="fetched"):
    return {m["machine"]: m for m in json.loads(report("--fleet", os.path.join(d, where),
                                                       "--json"))["machines"]}


@pytest.fixture(params=DIRS)
def d(request):
    return request.param


def test_every_job_shows_what_its_kind_must(d):
    ms = dict(fleet(d), **fleet(d, os.path.join("fault", "fetched")))
    bad = []
    for label, p in sorted(plan(d).items()):
        want = lab.Plan(**dict(p["plan"], tags=tuple(p["plan"]["tags"])))
        bad += ["%s (%s): %s" % (label, want.expect, x)
                for x in lab.expect(want, ms.get(label, {}))]
    assert bad == []


def test_the_scheduler_spread_the_fleet(d):
    ms = fleet(d)
    fleet_jobs = [lb for lb, p in plan(d).items() if p["where"] == "serial"]
    assert len(fleet_jobs) >= 5 and set(fleet_jobs) == set(ms)
    devices = {ms[lb]["lava"]["device"] for lb in fleet_jobs}
    assert len(devices) >= 2, devices
    assert len({ms[lb]["lava"]["id"] for lb in fleet_jobs}) == len(fleet_jobs)


def test_the_report_from_the_server_is_the_one_from_the_serial_logs(d):
    api = report("--fleet", os.path.join(d, "fetched"))
    ser = report("--fleet", os.path.join(d, "serial"))
    assert lab.LAVA_HEAD in api and lab.LAVA_HEAD not in ser
    assert lab.machine_table(api) == ser
    a = json.loads(report("--fleet", os.path.join(d, "fetched"), "--json"))
    s = json.loads(report("--fleet", os.path.join(d, "serial"), "--json"))
    assert lab.same_machines(a, s) == []


def kcidb(path):
    return json.loads(report("--fleet", path, "--kcidb", "--git-commit", "0" * 40))


def lava_results(d):
    out = {}
    for label in os.listdir(os.path.join(d, "fetched")):
        path = os.path.join(d, "fetched", label, "lava-results.json")
        with open(path) as f:
            out[label] = lavajob.results_record(json.load(f), path)
    return out


def test_kcidb_from_the_server_keeps_kcidbs_rules_and_is_the_serial_logs_document(d):
    api, ser = kcidb(os.path.join(d, "fetched")), kcidb(os.path.join(d, "serial"))
    assert kcidb_problems(api) == [] and kcidb_problems(ser) == []
    assert lab.kcidb_key(api) == lab.kcidb_key(ser)
    machines = {t["environment"]["misc"]["machine"] for t in api["tests"]}
    assert machines == set(fleet(d)), "every job is in the document"


def test_kcidb_from_the_server_keeps_the_json_schema(d):
    assert schema_errors(kcidb(os.path.join(d, "fetched"))) == []


def test_each_lava_result_is_one_kcidb_test(d):
    assert lab.kcidb_lava(kcidb(os.path.join(d, "fetched")), lava_results(d)) == []


# -- the checks bite: each one broken once on a copy of the stored run --------------------

@pytest.fixture
def copy():
    with tempfile.TemporaryDirectory() as tmp:
        dst = os.path.join(tmp, "lab")
        shutil.copytree(STORED, dst)
        yield dst


def edit(path, old, new, count=1):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    assert old in text, (path, old)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text.replace(old, new, count))


def drop_result(d, label, name):
    path = os.path.join(d, "fetched", label, "lava-results.json")
    with open(path) as f:
        doc = json.load(f)
    before = len(doc["tests"])
    doc["tests"] = [t for t in doc["tests"] if t["name"] != name]
    assert len(doc["tests"]) == before - 1
    with open(path, "w") as f:
        json.dump(doc, f)
    return doc


def test_a_lost_lava_result_is_caught(copy):
    drop_result(copy, "default-epyc", "cpu_identity")
    assert lab.kcidb_lava(kcidb(os.path.join(copy, "fetched")), lava_results(copy)) == \
        ["default-epyc: KCIDB test cpu_identity has no LAVA result"]
    ms = fleet(copy)
    assert ms["default-epyc"]["lava"]["problems"] == \
        ["cpu.identity: KTAP pass, no LAVA result"]


def test_a_lava_result_counted_twice_is_caught(copy):
    path = os.path.join(copy, "fetched", "fail", "lava-results.json")
    with open(path) as f:
        doc = json.load(f)
    twice = [t for t in doc["tests"] if t["name"] == "deliberate_fails_on_purpose"]
    doc["tests"] += twice
    with open(path, "w") as f:
        json.dump(doc, f)
    bad = lab.kcidb_lava(kcidb(os.path.join(copy, "fetched")), lava_results(copy))
    assert bad == ["fail: LAVA deliberate_fails_on_purpose 2 times"]
    m = fleet(copy)["fail"]
    assert m["lava"]["problems"] == ["deliberate.fails_on_purpose: 2 LAVA results"]
    assert m["failed"] == ["deliberate.fails_on_purpose"], "one failure, counted once"


def test_a_serial_log_that_differs_from_the_servers_is_caught(copy):
    edit(os.path.join(copy, "serial", "fail", "serial.log"), "    ok 1 parses_in_image",
         "    not ok 1 parses_in_image")
    a = json.loads(report("--fleet", os.path.join(copy, "fetched"), "--json"))
    s = json.loads(report("--fleet", os.path.join(copy, "serial"), "--json"))
    assert any(p.startswith("fail: failed ") for p in lab.same_machines(a, s))
    assert lab.kcidb_key(kcidb(os.path.join(copy, "fetched"))) != \
        lab.kcidb_key(kcidb(os.path.join(copy, "serial")))


def test_a_hang_that_completed_would_be_caught(copy):
    edit(os.path.join(copy, "fetched", "hang", "lava-job.json"), '"health": "Incomplete"',
         '"health": "Complete"')
    m = fleet(copy)["hang"]
    p = plan(copy)["hang"]["plan"]
    assert lab.expect(lab.Plan(**dict(p, tags=tuple(p["tags"]))), m) == \
        ["ended Finished Complete, want Finished Incomplete"]
