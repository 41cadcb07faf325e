# SPDX-License-Identifier: GPL-2.0-only
"""tools/ck-report.py --kcidb (issue 21): the KernelCI KCIDB document of a stored run and of
the stored fleets (tests/data/fleet, tests/data/soak-fleet), held to KCIDB's own rules and to
the image's other accounts of the same run.

kcidb_problems() is written here from the facts of KCIDB's I/O schema v5.3 (kernelci/kcidb-io,
kcidb_io/schema/v05_03.py, read for this test, not imported): the top-level "version" object
(major 5, minor 0..3), the five object lists, each object's required and allowed fields, ids
"ORIGIN:..." with an origin of [a-z0-9_]+, the six status values, the dotted test path, the
test's number object {value, unit, prefix} and its environment {compatible, comment, misc},
no null anywhere, log excerpts of at most 16384 characters. The tool's own tables are not used.
"""
import copy
import json
import os
import re
import shutil
import tempfile

import pytest

from conftest import ROOT, assert_clean, run_tool

TOOL = "ck-report"
DATA = os.path.join(ROOT, "tests", "data")
RUN = os.path.join(DATA, "fleet", "sky-2g", "serial.log")

# KCIDB v5.3, from its schema: what each object may hold and must hold.
ORIGIN = re.compile(r"^[a-z0-9_]+$")
OBJ_ID = re.compile(r"^([a-z0-9_]+):[^\0]*$")
PATH = re.compile(r"^([a-zA-Z0-9_-]+(\.[a-zA-Z0-9_-]+)*)?$")
STATUSES = {"FAIL", "ERROR", "MISS", "PASS", "DONE", "SKIP"}
TOP = {"version", "checkouts", "builds", "tests", "issues", "incidents"}
ALLOWED = {
    "checkouts": {"_timestamp", "id", "origin", "tree_name", "git_repository_url",
                  "git_commit_hash", "git_commit_name", "git_commit_tags",
                  "git_commit_message", "git_repository_branch", "git_repository_branch_tip",
                  "patchset_files", "patchset_hash", "message_id", "comment", "start_time",
                  "origin_builds_finish_time", "origin_tests_finish_time", "log_url",
                  "log_excerpt", "valid", "misc"},
    "builds": {"_timestamp", "checkout_id", "id", "origin", "comment", "start_time", "duration",
               "architecture", "command", "compiler", "input_files", "output_files",
               "config_name", "config_url", "log_url", "log_excerpt", "status", "misc"},
    "tests": {"_timestamp", "build_id", "id", "origin", "environment", "path", "comment",
              "log_url", "log_excerpt", "status", "number", "start_time", "duration",
              "input_files", "output_files", "misc"},
    "issues": {"_timestamp", "id", "version", "origin", "categories", "report_url",
               "report_subject", "culprit", "comment", "misc"},
    "incidents": {"_timestamp", "id", "origin", "issue_id", "issue_version", "build_id",
                  "test_id", "present", "comment", "misc"},
}
REQUIRED = {"checkouts": {"id", "origin"}, "builds": {"checkout_id", "id", "origin"},
            "tests": {"build_id", "id", "origin"}, "issues": {"id", "version", "origin"},
            "incidents": {"id", "origin", "issue_id", "issue_version"}}
TEXT = {"tree_name", "comment", "git_commit_name", "command", "compiler", "config_name",
        "log_excerpt", "report_subject"}


def nulls(v, where):
    if v is None:
        return [where + ": null (KCIDB allows no null property)"]
    if isinstance(v, dict):
        return [p for k, x in v.items() for p in nulls(x, "%s.%s" % (where, k))]
    if isinstance(v, list):
        return [p for i, x in enumerate(v) for p in nulls(x, "%s[%d]" % (where, i))]
    return []


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def object_problems(kind, o, where):
    if not isinstance(o, dict):
        return [where + ": not an object"]
    bad = ["%s: no %s" % (where, k) for k in sorted(REQUIRED[kind] - set(o))]
    bad += ["%s: %s is not a %s field" % (where, k, kind) for k in sorted(set(o) - ALLOWED[kind])]
    if not (isinstance(o.get("origin"), str) and ORIGIN.match(o["origin"])):
        bad.append("%s: origin %r" % (where, o.get("origin")))
    for k in ("id", "checkout_id", "build_id", "test_id", "issue_id"):
        if k in o:
            m = OBJ_ID.match(o[k]) if isinstance(o[k], str) else None
            if not m:
                bad.append("%s: %s %r is not ORIGIN:..." % (where, k, o[k]))
            elif k == "id" and m.group(1) != o.get("origin"):
                bad.append("%s: id %r does not start with its origin" % (where, o[k]))
    for k in TEXT & set(o):
        if not isinstance(o[k], str) or "\0" in o[k]:
            bad.append("%s: %s is not text" % (where, k))
    if "status" in o and o["status"] not in STATUSES:
        bad.append("%s: status %r" % (where, o["status"]))
    if "duration" in o and not is_num(o["duration"]):
        bad.append("%s: duration %r" % (where, o["duration"]))
    if "misc" in o and not isinstance(o["misc"], dict):
        bad.append(where + ": misc is not an object")
    if len(o.get("log_excerpt", "")) > 16384:
        bad.append(where + ": log_excerpt longer than 16384")
    return bad + kind_problems(kind, o, where)


def kind_problems(kind, o, where):
    bad = []
    if kind == "checkouts":
        if "valid" in o and not isinstance(o["valid"], bool):
            bad.append(where + ": valid is not a boolean")
        if "git_commit_hash" in o and not re.match(r"^[0-9a-f]{40}$", str(o["git_commit_hash"])):
            bad.append(where + ": git_commit_hash")
        if "git_repository_url" in o and not str(o["git_repository_url"]).startswith("https://"):
            bad.append(where + ": git_repository_url")
    elif kind == "builds":
        if "architecture" in o and not re.match(r"^[a-z0-9_]*$", str(o["architecture"])):
            bad.append(where + ": architecture %r" % o["architecture"])
    elif kind == "tests":
        if "path" in o and not (isinstance(o["path"], str) and PATH.match(o["path"])):
            bad.append(where + ": path %r" % o.get("path"))
        env = o.get("environment", {})
        if not isinstance(env, dict) or set(env) - {"compatible", "comment", "misc"}:
            bad.append(where + ": environment %r" % env)
        elif "misc" in env and not isinstance(env["misc"], dict):
            bad.append(where + ": environment.misc is not an object")
        if "number" in o:
            n = o["number"]
            if not isinstance(n, dict) or not is_num(n.get("value")) or \
                    set(n) - {"value", "unit", "prefix"} or \
                    ("unit" in n and not isinstance(n["unit"], str)) or \
                    n.get("prefix", "metric") not in ("metric", "binary"):
                bad.append(where + ": number %r" % n)
            elif o.get("status") not in ("FAIL", "ERROR", "PASS", "DONE"):
                bad.append(where + ": a number on a test that did not run (%s)" % o.get("status"))
    return bad


def kcidb_problems(doc):
    """Every way @doc breaks KCIDB v5.3's rules, one line each ([] when it keeps them)."""
    if not isinstance(doc, dict):
        return ["the document is not an object"]
    bad = ["%s is not a top-level field" % k for k in sorted(set(doc) - TOP)]
    v = doc.get("version")
    if not isinstance(v, dict) or set(v) - {"major", "minor"} or v.get("major") != 5 or \
            isinstance(v.get("major"), bool) or ("minor" in v and not (
                type(v["minor"]) is int and 0 <= v["minor"] <= 3)):
        bad.append("version %r is not {major: 5, minor: 0..3}" % (v,))
    bad += nulls(doc, "$")
    ids = {}
    for kind in sorted(TOP - {"version"}):
        objs = doc.get(kind, [])
        if not isinstance(objs, list):
            bad.append(kind + " is not a list")
            continue
        for i, o in enumerate(objs):
            bad += object_problems(kind, o, "%s[%d]" % (kind, i))
        got = [o.get("id") for o in objs if isinstance(o, dict)]
        ids[kind] = set(got)
        bad += ["%s: id %r twice" % (kind, x) for x in sorted(set(g for g in got
                                                                 if got.count(g) > 1))]
    for kind, ref, to in (("builds", "checkout_id", "checkouts"), ("tests", "build_id", "builds")):
        for o in doc.get(kind, []):
            if isinstance(o, dict) and o.get(ref) not in ids.get(to, set()):
                bad.append("%s %r: %s %r is not in the document" % (kind, o.get("id"), ref,
                                                                    o.get(ref)))
    return bad


def subset_schema():
    """A JSON Schema of our own for the part of KCIDB v5.3 the tool writes (Draft 7)."""
    ident = {"type": "string", "pattern": OBJ_ID.pattern}
    text = {"type": "string", "pattern": "^[^\\0]*$"}
    status = {"enum": sorted(STATUSES)}

    def obj(props, required):
        return {"type": "object", "properties": props, "required": sorted(required),
                "additionalProperties": False}
    checkout = obj({"id": ident, "origin": {"type": "string", "pattern": ORIGIN.pattern},
                    "tree_name": text, "comment": text, "valid": {"type": "boolean"},
                    "git_commit_hash": {"type": "string", "pattern": "^[0-9a-f]{40}$"},
                    "git_repository_url": {"type": "string", "pattern": "^https://"}},
                   REQUIRED["checkouts"])
    build = obj({"id": ident, "origin": {"type": "string", "pattern": ORIGIN.pattern},
                 "checkout_id": ident, "architecture": {"type": "string",
                                                        "pattern": "^[a-z0-9_]*$"},
                 "status": status, "config_name": text, "comment": text},
                REQUIRED["builds"])
    number = obj({"value": {"type": "number"}, "unit": text,
                  "prefix": {"enum": ["metric", "binary"]}}, {"value"})
    env = obj({"comment": text, "misc": {"type": "object"}}, set())
    test = obj({"id": ident, "origin": {"type": "string", "pattern": ORIGIN.pattern},
                "build_id": ident, "path": {"type": "string", "pattern": PATH.pattern},
                "status": status, "comment": text, "number": number, "environment": env,
                "log_excerpt": dict(text, maxLength=16384), "duration": {"type": "number"},
                "misc": {"type": "object"}}, REQUIRED["tests"])
    return obj({"version": obj({"major": {"const": 5},
                                "minor": {"type": "integer", "minimum": 0, "maximum": 3}},
                               {"major"}),
                "checkouts": {"type": "array", "items": checkout},
                "builds": {"type": "array", "items": build},
                "tests": {"type": "array", "items": test}}, {"version"})


def schema_errors(doc):
    jsonschema = pytest.importorskip("jsonschema")
    v = jsonschema.Draft7Validator(subset_schema())
    return [e.message for e in v.iter_errors(doc)]


def kcidb(*args):
    r = run_tool(TOOL, "--kcidb", *args)
    assert_clean(r, TOOL, allowed=(0,))
    return json.loads(r.out)


def run_doc():
    return kcidb(RUN, "--machine", "sky-2g")


# The stored runs as KCIDB documents: a run, both fleets, a benchmark run.
STORED = {"run": lambda: run_doc(),
          "fleet": lambda: kcidb("--fleet", os.path.join(DATA, "fleet")),
          "soak-fleet": lambda: kcidb("--fleet", os.path.join(DATA, "soak-fleet")),
          "bench": lambda: kcidb(os.path.join(DATA, "bench-sample.log"))}


def test_a_stored_run_keeps_kcidb_rules():
    doc = run_doc()
    assert kcidb_problems(doc) == []
    assert len(doc["checkouts"]) == 1 and len(doc["builds"]) == 1 and doc["tests"]
    assert all(t["id"].startswith("copykernel:") for t in doc["tests"])


@pytest.mark.parametrize("fleet", ["fleet", "soak-fleet"])
def test_a_stored_fleet_keeps_kcidb_rules_and_names_every_machine(fleet):
    d = os.path.join(DATA, fleet)
    doc = STORED[fleet]()
    assert kcidb_problems(doc) == []
    machines = {e for e in os.listdir(d) if os.path.isdir(os.path.join(d, e))}
    assert {t["environment"]["misc"]["machine"] for t in doc["tests"]} == machines


def test_a_stored_benchmark_run_keeps_kcidb_rules():
    doc = STORED["bench"]()
    assert kcidb_problems(doc) == []
    ratios = [t for t in doc["tests"] if "_vs_" in t["path"]]
    assert ratios and all("unit" not in t["number"] for t in ratios)


@pytest.mark.parametrize("name", sorted(STORED))
def test_a_stored_document_keeps_the_json_schema(name):
    """The same documents held to our JSON Schema of KCIDB's rules (needs python3-jsonschema:
    only this part skips without it)."""
    assert schema_errors(STORED[name]()) == []


def test_a_run_printed_twice_gets_distinct_ids():
    with open(RUN, encoding="utf-8") as f:
        lines = ktap_lines(f.read())
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "twice.log")
        with open(path, "w") as f:       # a machine that reset and ran its suites again
            f.write("\n".join(lines + lines) + "\n")
        doc = kcidb(path)
    assert kcidb_problems(doc) == []
    paths = [t["path"] for t in doc["tests"] if t["misc"]["source"] == "ktap"]
    # KCIDB: a path may repeat (the same test run again), an id may not
    assert len(paths) == 2 * 57 and len(set(paths)) == 57


def set_status(d):
    d["tests"][0]["status"] = "OK"


def drop_origin(d):
    del d["tests"][-1]["origin"]


def foreign_id(d):
    d["builds"][0]["id"] = "other:" + d["builds"][0]["id"].split(":", 1)[1]


@pytest.mark.parametrize("break_it", [
    set_status, drop_origin, foreign_id,
    lambda d: d["checkouts"][0].pop("origin"),
    lambda d: d["tests"][0].update(id="no-colon-here"),
    lambda d: d.update(version={"major": 4, "minor": 3}),
    lambda d: d.update(version={"major": 5, "minor": 4}),
    lambda d: d["tests"][0].update(path="tsc..x"),
    lambda d: d["tests"][0].update(number={"value": "1", "unit": "B/s"}),
    lambda d: d["tests"][0].update(number={"value": 1, "prefix": "kilo"}),
    lambda d: d["tests"][0].update(status="SKIP", number={"value": 1}),
    lambda d: d["tests"][0]["environment"].update(machine="x"),
    lambda d: d["tests"][0].update(comment=None),
    lambda d: d["tests"].append(dict(d["tests"][0])),
    lambda d: d["tests"][0].update(build_id="copykernel:nothing"),
])
def test_the_check_refuses_a_broken_document(break_it):
    doc = run_doc()
    broken = copy.deepcopy(doc)
    break_it(broken)
    assert kcidb_problems(doc) == [] and kcidb_problems(broken) != []


@pytest.mark.parametrize("break_it", [set_status, drop_origin,
                                      lambda d: d.update(version={"major": 5, "minor": 9})])
def test_the_json_schema_refuses_a_broken_document(break_it):
    doc = run_doc()
    break_it(doc)
    assert schema_errors(doc) != []


def ktap_lines(text):
    lines = text.splitlines()
    start = lines.index("KTAP version 1")
    return lines[start:]


def test_every_ktap_result_is_one_test_with_the_ids_and_results_the_image_printed():
    with open(RUN, encoding="utf-8") as f:
        text = f.read()
    results = [ln for ln in ktap_lines(text) if re.match(r"^ *(not )?ok \d+ ", ln)]
    tests = [t for t in run_doc()["tests"] if t["misc"]["source"] == "ktap"]
    assert len(tests) == len(results) == 57
    # The image's own ids and results for LAVA, one line after each case: the cases.
    lava = dict(re.findall(r"# ck-lava <([a-z0-9_.-]+) (pass|fail|skip)>", text))
    suites = set(re.findall(r"^    # Subtest: (\S+)$", text, re.M))
    got = {t["path"]: t["status"] for t in tests}
    assert {p: s for p, s in got.items() if p not in suites} == \
        {k: v.upper() for k, v in lava.items()}
    assert {p for p in got if p in suites} == suites == {"tsc", "cpu", "mce"}


def test_ktap_results_take_kcidbs_statuses():
    log = "\n".join([
        "KTAP version 1", "1..2",
        "    KTAP version 1", "    # Subtest: demo", "    1..6",
        "    ok 1 passes", "    # the copy was wrong at byte 7", "    not ok 2 fails",
        "    ok 3 skipped # SKIP not here", "    not ok 4 slow # TIMEOUT after 10 s",
        "    not ok 5 broke # ERROR the harness", "    not ok 6 skipped too # SKIP no",
        "not ok 1 demo",
        "    KTAP version 1", "    # Subtest: cut", "    1..3", "    ok 1 first",
        "    # reading the bank", ""])
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "demo.log")
        with open(path, "w") as f:
            f.write(log)
        doc = kcidb(path)
    assert kcidb_problems(doc) == []
    got = {t["path"]: t for t in doc["tests"]}
    # KCIDB: FAIL reported the code faulty; ERROR did not complete; SKIP did not run.
    assert {p: t["status"] for p, t in got.items()} == {
        "demo.passes": "PASS", "demo.fails": "FAIL", "demo.skipped": "SKIP",
        "demo.slow": "ERROR", "demo.broke": "ERROR", "demo.skipped_too": "SKIP",
        "demo": "FAIL", "cut.first": "PASS", "cut": "ERROR"}
    assert "the copy was wrong at byte 7" in got["demo.fails"]["log_excerpt"]
    assert "reading the bank" in got["cut"]["log_excerpt"]
    assert "log_excerpt" not in got["demo.passes"]


def test_benchmark_figures_are_bytes_a_second_from_the_records_own_times():
    doc = kcidb("--fleet", os.path.join(DATA, "fleet"))
    quick = [t for t in doc["tests"] if t["path"].startswith("bench.quick.")]
    rates = [t for t in doc["tests"] if t["path"].startswith("bench.primitive.")]
    assert len(quick) >= 8 * 9 and len(rates) >= 20
    # The figure tests/data/fleet/README.md says was set by hand: its time is the original's.
    with open(os.path.join(DATA, "fleet", "README.md")) as f:
        machine, figure = re.search(r"^injected outlier: (\S+) quick/(\S+)$", f.read(),
                                    re.M).groups()
    for t in quick:
        n, m = t["number"], t["misc"]
        if t["environment"]["misc"]["machine"] == machine and t["path"].endswith(figure):
            assert n["value"] == 800 * 10 ** 6     # the README's 800 MB/s
            continue
        assert t["status"] == "DONE" and n["unit"] == "B/s" and n["prefix"] == "metric"
        # bytes in median_ns: the figure in B/s, within the record's rounding to 1 MB/s
        assert abs(n["value"] - m["bytes"] * 1e9 / m["median_ns"]) <= 1e6, t
    size = {"4k": 4096, "64k": 65536, "2m": 2 << 20, "1m": 1 << 20}
    for t in rates:
        nbytes = size[t["path"].split(".")[4]]
        exact = nbytes * 1e9 / t["misc"]["median_ns"]
        assert abs(t["number"]["value"] - exact) <= 0.05 * exact + 1e6, t


def log_records(path, kind):
    """The records of @kind in a stored log, in order, read here from its JSON lines."""
    with open(path, encoding="utf-8") as f:
        return [json.loads(ln[ln.index('{"schema"'):]) for ln in f
                if '{"schema"' in ln and '"kind":"%s"' % kind in ln]


def test_a_comparison_is_its_records_ratio_and_interval():
    log = os.path.join(DATA, "bench-sample.log")
    recs = log_records(log, "comparison")
    tests = [t for t in kcidb(log)["tests"] if "_vs_" in t["path"]]
    assert len(tests) == len(recs) >= 5
    assert any(r["ci_lo_x1000"] != r["ci_hi_x1000"] for r in recs)
    for t, r in zip(tests, recs):
        # the records' figures are thousandths (docs/schema: ratio_x1000, ci_*_x1000)
        assert (t["number"]["value"], t["misc"]["ci_lo"], t["misc"]["ci_hi"],
                t["misc"]["significant"]) == (r["ratio_x1000"] / 1000, r["ci_lo_x1000"] / 1000,
                                              r["ci_hi_x1000"] / 1000, r["significant"]), t
        assert t["misc"]["ci_lo"] <= t["number"]["value"] <= t["misc"]["ci_hi"], t


def test_a_long_excerpt_keeps_the_lines_next_to_the_failure():
    """KCIDB holds 16384 characters of a log excerpt: those right before the failing result,
    where the reason is, not the subtest's first lines."""
    head = ["KTAP version 1", "1..1", "    KTAP version 1", "    # Subtest: demo", "    1..1"]
    said = ["    # step %04d of the copy: the bytes still agree" % i for i in range(600)]
    tail = ["    # the copy was wrong at byte 7", "    not ok 1 fails"]
    lines = head + said + tail + ["not ok 1 demo"]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "long.log")
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        doc = kcidb(path)
    assert kcidb_problems(doc) == []
    [t] = [t for t in doc["tests"] if t["path"] == "demo.fails"]
    text = "\n".join(head + said + tail)
    assert len(text) > 16384 + 1000
    assert len(t["log_excerpt"]) == 16384 and text.endswith(t["log_excerpt"])
    assert "the copy was wrong at byte 7" in t["log_excerpt"]
    assert said[0] not in t["log_excerpt"]


SOAK_LEDGER = re.compile(r"^# soak-ledger: (.+?): corrected (\d+), deferred (\d+), uncorrected "
                         r"(\d+), miscompares (\d+), stuck CPUs (\d+), retired pages (\d+)$")
SOAK_LINE = re.compile(r"# copykernel-soak: result=(PASS|FAIL) duration=([0-9.]+)s")


def test_the_soak_summary_and_ledger_agree_with_the_images_text_lines():
    fleet = os.path.join(DATA, "soak-fleet")
    doc = kcidb("--fleet", fleet)
    kinds = ("corrected", "deferred", "uncorrected", "miscompares", "stuck_cpus",
             "retired_pages")
    events = 0
    for name in sorted(e for e in os.listdir(fleet) if os.path.isdir(os.path.join(fleet, e))):
        [f] = os.listdir(os.path.join(fleet, name))
        with open(os.path.join(fleet, name, f), encoding="utf-8") as fh:
            text = fh.read().replace('\\"', '"')
        mine = [t for t in doc["tests"] if t["environment"]["misc"]["machine"] == name]
        [summary] = [t for t in mine if t["path"] == "soak.summary"]
        [m] = SOAK_LINE.findall(text)
        assert summary["status"] == m[0] and abs(summary["duration"] - float(m[1])) < 0.001
        want = {}
        for ln in text.splitlines():
            mt = SOAK_LEDGER.search(ln)
            if mt:
                for k, n in zip(kinds, mt.groups()[1:]):
                    if int(n):
                        want[(mt.group(1), k)] = int(n)
        got = {(t["misc"]["where"], t["path"].rsplit(".", 1)[1]): t["number"]["value"]
               for t in mine if t["path"].startswith("soak.ledger.")}
        assert got == want, name
        events += len(got)
    assert events == 5      # one miscompare and its page twice, three corrected once


def test_the_environment_is_the_machine_the_uefi_variables_name():
    doc = kcidb("--fleet", os.path.join(DATA, "fleet"))
    seen = 0
    for t in doc["tests"]:
        env = t["environment"]["misc"]
        summary = os.path.join(DATA, "fleet", env["machine"], "result.json")
        if not os.path.exists(summary):
            continue
        with open(summary) as f:
            cpu = json.load(f)["cpu"]
        assert (env["vendor"], env["family"], env["model"], env["stepping"],
                int(env["microcode"], 16)) == (cpu["vendor"], cpu["family"], cpu["model"],
                                               cpu["stepping"], cpu["microcode"]), env
        assert env["firmware"].startswith("EDK II rev ") and env["cpu_name"]
        seen += 1
    assert seen > 100


def test_options_name_the_checkout_and_the_origin():
    commit = "0123456789abcdef0123456789abcdef01234567"
    doc = kcidb(RUN, "--origin", "lab_7", "--git-commit", commit, "--git-url",
                "https://example.org/copykernel.git")
    assert kcidb_problems(doc) == []
    assert doc["checkouts"][0]["id"] == "lab_7:" + commit
    assert doc["checkouts"][0]["git_commit_hash"] == commit
    assert doc == kcidb(RUN, "--origin", "lab_7", "--git-commit", commit, "--git-url",
                        "https://example.org/copykernel.git")
    for bad in (["--origin", "Lab-7"], ["--git-commit", "0123abc"], ["--git-url", "git://x"]):
        r = run_tool(TOOL, "--kcidb", RUN, *bad)
        assert r.status == 2 and "Traceback" not in r.err_text, r


def test_a_damaged_machine_is_bad_input_and_an_empty_log_no_result():
    with tempfile.TemporaryDirectory() as tmp:
        dst = os.path.join(tmp, "fleet")
        shutil.copytree(os.path.join(DATA, "soak-fleet"), dst)
        log = os.path.join(dst, "qemu-512m", "serial.log")
        with open(log, "a") as f:
            f.write('{"schema":1,"kind":"soak_summary","result":"PA\n')
        r = run_tool(TOOL, "--kcidb", "--fleet", dst)
        assert_clean(r, TOOL, allowed=(3,))
        empty = os.path.join(tmp, "empty.log")
        with open(empty, "w") as f:
            f.write("nothing here\n")
        r = run_tool(TOOL, "--kcidb", empty)
        assert_clean(r, TOOL, allowed=(1,))


def test_a_nul_in_a_record_does_not_reach_a_text_field():
    src = os.path.join(DATA, "soak-fleet", "qemu-512m-flip", "serial.log")
    with open(src, encoding="utf-8") as f:
        text = f.read()
    assert '"reason":"miscompare (1)"' in text
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "nul.log")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text.replace('"reason":"miscompare (1)"', '"reason":"mis\\u0000compare"'))
        doc = kcidb(path)
    assert kcidb_problems(doc) == []
    [s] = [t for t in doc["tests"] if t["path"] == "soak.summary"]
    assert s["comment"] == "miscompare"


def test_a_run_that_did_not_finish_is_one_error_test_and_a_finished_one_none():
    """The run's log ends inside the tsc suite (a hang): its cases so far, the cut-off
    subtest, and one "run" ERROR test that quotes how the log ends; a whole run has no
    "run" test."""
    assert [t for t in run_doc()["tests"] if t["path"] == "run"] == []
    with open(RUN, encoding="utf-8") as f:
        lines = f.read().splitlines()
    cut = next(i for i, ln in enumerate(lines) if ln == "    ok 2 agrees_with_pm_timer") + 1
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "hung.log")
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines[:cut]) + "\n")
        doc = kcidb(path)
    assert kcidb_problems(doc) == []
    [run] = [t for t in doc["tests"] if t["path"] == "run"]
    assert run["status"] == "ERROR" and run["misc"]["source"] == "run"
    assert run["comment"] == ("unfinished: the log ends before the run's summary (last line: "
                              "'ok 2 agrees_with_pm_timer')")
    assert run["log_excerpt"].endswith("    ok 2 agrees_with_pm_timer")
    assert len(run["log_excerpt"].splitlines()) == 20


def test_the_environment_says_whether_secure_boot_was_on():
    """The header line init/main.c prints after the firmware line ("Secure Boot: on
    (enforcing); UEFI variables SecureBoot 1, SetupMode 0") is the environment's
    misc.secure_boot, in every test of the run; a log of an older image, without the line,
    gives no such member (never a guess)."""
    with open(RUN, encoding="utf-8") as f:
        lines = f.read().split("\n")
    assert not any(ln.startswith("Secure Boot:") for ln in lines)
    at = next(i for i, ln in enumerate(lines) if ln.startswith("firmware: ")) + 1
    assert all("secure_boot" not in t["environment"]["misc"] for t in run_doc()["tests"])
    for words, sb, setup in (("on (enforcing)", 1, 0), ("off", 0, 0),
                             ("off (setup mode: no platform key enrolled)", 0, 1)):
        with tempfile.TemporaryDirectory() as tmp:
            log = os.path.join(tmp, "serial.log")
            with open(log, "w", encoding="utf-8") as f:
                f.write("\n".join(lines[:at] + [
                    "Secure Boot: %s; UEFI variables SecureBoot %d, SetupMode %d"
                    % (words, sb, setup)] + lines[at:]))
            doc = kcidb(log, "--machine", "sky-2g")
        assert kcidb_problems(doc) == []
        assert doc["tests"] and {t["environment"]["misc"]["secure_boot"]
                                 for t in doc["tests"]} == {words}
