# SPDX-License-Identifier: GPL-2.0-only
"""The records schema's members that come and go together (its dependentRequired and its
if/then/else), and a "schema" member that is not the integer 1.

Two oracles, one for each thing under test:
  - the schema document, held to the code that writes the records: GROUPS says, read from
    each emitter for this test (not from the schema), which members it writes all or none of
    and on which branch. Real records of every branch (stored runs) and hand-written ones
    where no stored run has the branch (HAND, written from the same code) validate, and each
    must stop validating when one member of a group it holds is left out, or one member of a
    group its branch never writes is added;
  - cklib.schema, held to the schema document: every dependentRequired and every then/else
    of docs/schema/ is walked, each rule broken once on every record it applies to, and
    cklib.schema must report it (the members test_ck_validate.py walks are the required ones).
"""
import copy
import json
import os

import jsonschema
import pytest

from conftest import ROOT, run_tool
from cklib import schema as ckschema

SCHEMA = ckschema.Schema()
DEFS = SCHEMA.root["$defs"]
DATA = os.path.join(ROOT, "tests", "data")


def stored(path, kind):
    """The records of @kind in a stored file, in order."""
    out = []
    with open(os.path.join(DATA, path), encoding="utf-8") as f:
        for line in f:
            at = line.find('{"schema"')
            if at >= 0 and '"kind":"%s"' % kind in line.replace(" ", ""):
                out.append(json.loads(line[at:]))
    return out


def sample(kind):
    return next(r for r in stored("records-v1.jsonl", kind)
                if kind != "machine" or "nodes" in r)


SUMMARY = json.loads(open(os.path.join(DATA, "records-v1.jsonl")).readline())
assert "kind" not in SUMMARY

# Real records: tests/data/records-v1.jsonl, and the stored runs for the branches it lacks.
# A run whose command line had errors (verdict ERROR), as ck-results read it back.
ERROR_SUMMARY = json.load(open(os.path.join(DATA, "cmdline-error", "result.json")))

REAL = [json.loads(line) for line in open(os.path.join(DATA, "records-v1.jsonl"))] + \
    stored("soak-fleet/sky-512m-ce-flip/serial.log", "soak_event") + \
    stored("soak-fleet/qemu-512m-flip/serial.log", "soak_event") + \
    stored("soak-fleet/qemu-512m/serial.log", "soak_summary") + [ERROR_SUMMARY]


def without(rec, *keys):
    return {k: v for k, v in rec.items() if k not in keys}


FIGURES = ("per_cpu_mbps", "aggregate_mbps", "aggregate_min_mbps", "aggregate_max_mbps",
           "single_cpu_mbps", "scaling", "skew_ns", "end_skew_ns", "rounds", "clock_hz",
           "method")
PREDICTED = ("move_speedup_predicted", "move_speedup_predicted_lo",
             "move_speedup_predicted_hi")
RECORD_OF_CKPT = ("run_id", "reported_by", "started", "checkpoints", "final", "failing",
                  "cmdline_errors", "rule",
                  "elapsed_ns", "passes", "cpus", "bytes_verified", "bytes_per_pass", "seed",
                  "counts", "not_stored", "first", "worst")

# Hand-written records of the branches no stored run holds, each as its emitter writes it.
HAND = [
    # soak/report.c: a machine check with an address (MCA and where), a stuck CPU
    {"schema": 1, "kind": "soak_event", "t_ns": 2000000, "cpu": 2, "event": "uncorrected",
     "bank": 1, "status": "0xbd80000000100134", "addr": "0x10444000", "misc": "0x86",
     "over": True, "phys": "0x10444000", "granularity": 64, "node": 0,
     "range": {"base": "0x1200000", "size": "0x1ce5e000"},
     "dimm_map": "no DIMM map from firmware", "dimms": []},
    # soak/report.c: a corrected error from an SMCA UMC bank, no address, the rank it names
    # (printed by soak_event_json from tests/host/test_soak_umc.c's event, 2026-12-06)
    {"schema": 1, "kind": "soak_event", "t_ns": 6, "cpu": 4, "event": "corrected", "bank": 19,
     "status": "0x9c20400000000000", "addr": "0x0", "misc": "0x0", "over": False,
     "ipid": "0x9600350f00", "synd": "0x1c0001",
     "bank_dimm": {"node": 1, "umc": 3, "cs": 1, "dimm": 0, "rank": 1, "label": "P1_C"},
     "bank_dimm_why": "decoded from MCA_IPID and MCA_SYND", "phys": None},
    {"schema": 1, "kind": "soak_event", "t_ns": 9000000000, "cpu": 3, "event": "stuck_cpu",
     "rip": "0xffffffff81002a40", "symbol": "soak_fill+0x40", "phys": None},
    # bench/parallel_out.c record(): a step that failed
    dict(without(sample("parallel"), *FIGURES), failed_cpus=[0], error=-12),
    # ktest/lib/poison_judge.c psw_cell_json(): no unexplained point; a cell that did not run
    dict(without(sample("poison-sweep"), "first_unexplained"), agree=16, unexplained=0),
    dict(without(sample("poison-sweep"), "first_unexplained"), ran=False, points=0,
         unexplained=0, why="no early-return primitive on this CPU"),
    # bench/table.c: a ratio without its figure in millionths (q->ratio_ppm 0)
    without(sample("comparison"), "ratio_ppm", "ci_lo_ppm", "ci_hi_ppm"),
    # host/bench/movep.c record(): no round had copy < move, so no prediction
    without(sample("movepages"), *PREDICTED),
    # host/soak/twin_report.c detail_json(): a miscompare and an uncorrected error
    {"schema": 1, "kind": "soak-twin-event", "event": "miscompare", "worker": 0, "cpu": 1,
     "t_ns": 5000, "pass": 3, "buffer": "destination", "virtual": "0x7f3a00201000",
     "physical": None, "written_by": "copy_page", "pattern": "walking ones",
     "expected": "0x1", "actual": "0x3", "bits": 1,
     "reread": "stored error (the re-read stays wrong)"},
    {"schema": 1, "kind": "soak-twin-event", "event": "uncorrected", "worker": 1, "cpu": -1,
     "t_ns": 7000, "pass": 4, "buffer": "source", "virtual": "0x7f3a00202000",
     "physical": "0x1a2b3000", "written_by": "fill", "pattern": "zeros"},
    # soak/report.c: a miscompare of address data that names another soak word
    {"schema": 1, "kind": "soak_event", "t_ns": 7861320000, "cpu": 1, "event": "miscompare",
     "expected": "0x88e7000", "actual": "0x88e5000", "bits": "0x2000",
     "data_address": "0x88e5000", "written_by": "fill", "pattern": "address", "copy": None,
     "reread": "stored error (the re-read stays wrong)", "phys": "0x88e7000", "granularity": 8,
     "node": 0, "range": {"base": "0x1200000", "size": "0x1cdf3000"},
     "dimm_map": "no DIMM map from firmware", "dimms": []},
    # host/soak/twin_report.c: a failed twin says why
    dict(sample("soak-twin"), result="FAIL", reason="miscompare (1)", miscompares=1),
    # bench/copy_pages_answer.c: a form it could not measure is {"ratio_x1000": null}
    dict(sample("copy_pages_answer"), v3={"ratio_x1000": None}),
    # init/results.c results_json(): a run that passed (no command-line error), one that
    # panicked before its tests (kernel/include/status.h ck_status_result and _reason)
    dict(ERROR_SUMMARY, status=0, status_name="all tests passed", result="PASS", reason=None,
         cmdline_errors=0, cmdline_problems=[]),
    dict(ERROR_SUMMARY, status=2, status_name="panic", result="PANIC", reason=None,
         tests={"ran": False, "suites": 0, "pass": 0, "fail": 0, "skip": 0}),
    # tools/ck-results.py: a damaged checkpoint; soak/blackbox.c: an unfinished one
    dict(SUMMARY, soak_checkpoint={"state": "damaged", "why": "header checksum 0x1 != 0x2"}),
    dict(SUMMARY, soak_checkpoint=dict(SUMMARY["soak_checkpoint"], state="unfinished",
                                       final=False)),
    # host/cores/rate.c cores_twin_rate_json(): a kernel the CPUs here cannot run
    {"schema": 1, "kind": "cores-twin", "machine": "AMD EPYC, 2 CPUs, Linux 6.18.44-fc-v1272",
     "load": "4.67 5.89 5.24", "kernel": "vec_avx2", "family": "vector", "cpus": 2,
     "measured": False, "why_not": "no AVX2 (CPUID)"},
    # cores/record.c cores_record_json(): no CPU could run it (a Penryn's crc32c, 2026-12-06);
    # one CPU in the minority; every CPU against the known answer
    {"schema": 1, "kind": "cores", "kernel": "crc32c", "family": "integer",
     "seed": "0x636f726573", "rounds": 1, "cpus": 0, "skipped": 2,
     "why_skipped": "no SSE4.2 (CPUID): no crc32 instruction", "verdict": "none",
     "named_total": 0, "named": []},
    dict(sample("cores"), cpus=4, verdict="minority", known_cpus=3, groups=2,
         top="0x5bd1e995", top_cpus=1, named_total=1,
         named=[{"cpu": 2, "apic": 2, "digest": "0x5bd1e995"}],
         replay={"cpu": 2, "runs": 10, "wrong": 0, "other_cpu": 3, "other_wrong": 0,
                 "class": "not_reproduced"}),
    dict(sample("cores"), cpus=4, verdict="minority", known_cpus=3, groups=2,
         top="0x5bd1e995", top_cpus=1, named_total=1,
         named=[{"cpu": 0, "apic": 0, "digest": "0x5bd1e995"}],
         replay={"cpu": 0, "runs": 10, "wrong": 3, "first_wrong_us": 812, "other_cpu": 3,
                 "other_wrong": 0, "class": "one_cpu"}),
    # a replay that chose by topology: CPU 2's SMT sibling 3 wrong too, CPU 5 in the other
    # package right (-smp 8,sockets=2,cores=2,threads=2)
    dict(sample("cores"), cpus=8, verdict="minority", known_cpus=6, groups=2,
         top="0x5bd1e995", top_cpus=2, named_total=2,
         named=[{"cpu": 2, "apic": 2, "digest": "0x5bd1e995"},
                {"cpu": 3, "apic": 3, "digest": "0x5bd1e995"}],
         replay={"cpu": 2, "runs": 10, "wrong": 10, "first_wrong_us": 40, "other_cpu": 7,
                 "other_wrong": 0, "other_rel": "other_package", "sibling_cpu": 3,
                 "sibling_wrong": 10, "class": "smt_pair"}),
    # the same machine, the fault package-wide: CPU 1 (another core of package 0) wrong on
    # replay too, CPU 7 in package 1 right (ktest/test_cores.c replay(), cores_replay_class())
    dict(sample("cores"), cpus=8, verdict="minority", known_cpus=6, groups=2,
         top="0x5bd1e995", top_cpus=2, named_total=2,
         named=[{"cpu": 2, "apic": 2, "digest": "0x5bd1e995"},
                {"cpu": 3, "apic": 3, "digest": "0x5bd1e995"}],
         replay={"cpu": 2, "runs": 10, "wrong": 10, "first_wrong_us": 40, "other_cpu": 7,
                 "other_wrong": 0, "other_rel": "other_package", "sibling_cpu": 3,
                 "sibling_wrong": 10, "near_cpu": 1, "near_wrong": 9,
                 "near_rel": "same_complex", "class": "package"}),
    dict(sample("cores"), verdict="reference_or_code_wrong", known_cpus=0, groups=1,
         top="0x5bd1e995", top_cpus=2),
    # cores/record.c mca_json(): a corrected error QEMU's `mce` wrote into CPU 2's bank 3
    # during muldiv's slice (the cores_mca_corrected scenario), microcode and no PPIN; and an
    # uncorrected #MC between two replay slices on a CPU with a PPIN
    dict(sample("cores"), mca_total=2, mca=[
        {"slice": 10, "part": "run", "cpu": 2, "apic": 2, "bank": 3, "severity": "corrected",
         "when": "in_slice", "source": "poll", "status": "0x9c0000000000009f",
         "microcode": "0x1"},
        {"slice": 14, "part": "replay", "cpu": 0, "apic": 0, "bank": 1,
         "severity": "uncorrected", "when": "between", "source": "mc",
         "status": "0xbd80000000000134", "microcode": "0x2b000590", "ppin": "0x3c1f2a0b9d4e"}]),
    # cores/record.c: the soak mode's total with a failing pass, as the image printed it in
    # tests/data/cores/soak-flip/serial.log, and that pass's kernel record (its "pass")
    {"schema": 1, "kind": "cores_soak", "result": "FAIL", "seed": "0x636f726573", "seconds": 8,
     "elapsed_ms": 8004, "passes": 421, "failing_passes": 1, "soak_failing_passes": 1,
     "first_failing_pass": 5, "first_failing_seed": "0x622f4db6ae1f8985", "named_total": 1,
     "named": [{"cpu": 2, "apic": 2, "passes": 1}]},
    dict(sample("cores"), seed="0x622f4db6ae1f8985", cpus=4, verdict="minority", known_cpus=3,
         groups=2, top="0x24863c78cb7dd751", top_cpus=1, named_total=1, **{"pass": 5},
         named=[{"cpu": 2, "apic": 2, "digest": "0x24863c78cb7dd751"}],
         replay={"cpu": 2, "runs": 10, "wrong": 0, "other_cpu": 3, "other_wrong": 0,
                 "other_rel": "same_complex", "class": "not_reproduced"}),
    # soak/blackbox.c: a version 2 checkpoint keeps the first miscompares
    dict(SUMMARY, soak_checkpoint=dict(SUMMARY["soak_checkpoint"], miscompares=[
        {"phys": "0x88e7000", "expected": "0x88e7000", "actual": "0x88e5000", "cpu": 1,
         "t_ns": 7861320000, "pattern": "address"}])),
]


def cp_forms(rec):
    return [k for k, v in rec.items() if isinstance(v, dict) and "ratio_x1000" in v]


def is_miscompare(o):
    return o["event"] == "miscompare"


# What each emitter writes all or none of, read from its code: (kind, where the object is
# (None: the record; else a function giving the members that hold one), the members, when
# the group is written (None: on a flag the record does not show, so the group is all or
# none), the code).
GROUPS = [
    ("soak_event", None, ("bank", "status", "addr", "misc", "over"), None,
     "soak/report.c put_json_kind(): SOAK_EVF_MCA"),
    ("soak_event", None, ("expected", "actual", "bits", "written_by", "pattern", "copy",
                          "reread"), is_miscompare, "soak/report.c put_json_miscompare()"),
    ("soak_event", None, ("rip", "symbol"), lambda o: o["event"] == "stuck_cpu",
     "soak/report.c put_json_kind(): SOAK_EV_STUCK_CPU"),
    ("soak_event", None, ("cause",), lambda o: o["event"] == "retired_page",
     "soak/report.c put_json_kind(): SOAK_EV_RETIRED_PAGE"),
    ("soak_event", None, ("granularity", "node", "range", "dimm_map", "dimms"),
     lambda o: o["phys"] is not None, "soak/report.c put_json_where(): SOAK_EVF_PHYS"),
    ("parallel", None, FIGURES, lambda o: o["error"] is None,
     "bench/parallel_out.c record(): record_figures() unless st->err"),
    ("parallel", None, ("failed_cpus",), lambda o: o["error"] is not None,
     "bench/parallel_out.c record(): st->err"),
    ("poison-sweep", None, ("why",), lambda o: not o["ran"],
     "ktest/lib/poison_judge.c psw_cell_json(): missing && !c->points"),
    ("poison-sweep", None, ("first_unexplained",), lambda o: o["unexplained"] > 0,
     "ktest/lib/poison_judge.c psw_cell_json(): verdicts[PSW_UNEXPLAINED]"),
    ("comparison", None, ("ratio_ppm", "ci_lo_ppm", "ci_hi_ppm"), None,
     "bench/table.c: q->ratio_ppm"),
    ("movepages", None, PREDICTED, None, "host/bench/movep.c record(): f->have_predicted"),
    ("soak-twin-event", None, ("expected", "actual", "bits", "reread"), is_miscompare,
     "host/soak/twin_report.c detail_json()"),
    ("copy_pages_answer", cp_forms, ("ci_lo_x1000", "ci_hi_x1000", "body"),
     lambda o: o["ratio_x1000"] is not None, "bench/copy_pages_answer.c: row->have[f]"),
    ("summary", lambda r: ["soak_checkpoint", "previous_soak"], RECORD_OF_CKPT + ("text",),
     lambda o: o["state"] in ("unfinished", "finished"),
     "soak/blackbox.c bb_prev_json(), tools/cklib/blackbox.py Checkpoint.json()"),
    ("summary", lambda r: ["soak_checkpoint", "previous_soak"], ("why",),
     lambda o: o["state"] not in ("unfinished", "finished"),
     "soak/blackbox.c bb_prev_json(), tools/ck-results.py (damaged)"),
]
# The image's previous_soak keeps "text" on every branch; ck-results' damaged form has none.
ALSO_ELSEWHERE = {("summary", "text")}


def kind_of(rec):
    return rec.get("kind", "summary")


def objects(group, records=REAL + HAND):
    """(record, member or None, object) for every object @group describes."""
    kind, where = group[0], group[1]
    for rec in records:
        if kind_of(rec) != kind:
            continue
        if where is None:
            yield rec, None, rec
        else:
            for m in where(rec):
                if isinstance(rec.get(m), dict):
                    yield rec, m, rec[m]


def put(rec, member, obj):
    """@rec with @obj in place of the object it holds at @member (None: @obj is the record)."""
    if member is None:
        return obj
    return dict(rec, **{member: obj})


def holds(group, obj):
    return all(k in obj for k in group[2])


def donor(group, key):
    """A value of member @key as a real or hand-written record of the group's branch has it."""
    for _, _, o in objects(group):
        if key in o:
            return copy.deepcopy(o[key])
    raise AssertionError("no record holds %s.%s" % (group[0], key))


GROUP_IDS = ["%s:%s" % (g[0], g[2][0]) for g in GROUPS]


@pytest.mark.parametrize("rec", REAL + HAND, ids=kind_of)
def test_real_and_hand_written_records_validate(rec):
    assert SCHEMA.problems(rec) == []


@pytest.mark.parametrize("group", GROUPS, ids=GROUP_IDS)
def test_every_group_is_seen_written_and_not(group):
    """Each group has a record that holds it and one that does not, and the code's condition
    says which: the records above cover both branches of each."""
    seen = {holds(group, o) for _, _, o in objects(group)}
    assert seen == {True, False}, group
    when = group[3]
    for _, _, o in objects(group):
        if when is not None:
            assert when(o) == holds(group, o), (group[4], o)
        else:
            assert not any(k in o for k in group[2]) or holds(group, o), (group[4], o)


@pytest.mark.parametrize("group", GROUPS, ids=GROUP_IDS)
def test_a_member_of_a_group_cannot_be_left_out(group):
    tried = 0
    for rec, member, o in objects(group):
        if not holds(group, o):
            continue
        for key in group[2]:
            if (group[0], key) in ALSO_ELSEWHERE:
                continue
            broken = put(rec, member, without(o, key))
            got = SCHEMA.problems(broken)
            assert got, "%s without %s validates (%s writes it)" % (group[0], key, group[4])
            tried += 1
    assert tried


@pytest.mark.parametrize("group", GROUPS, ids=GROUP_IDS)
def test_a_member_of_a_group_its_branch_never_writes_cannot_appear(group):
    tried = 0
    for rec, member, o in objects(group):
        if any(k in o for k in group[2]):
            continue
        for key in group[2]:
            if (group[0], key) in ALSO_ELSEWHERE:
                continue
            broken = put(rec, member, dict(o, **{key: donor(group, key)}))
            got = SCHEMA.problems(broken)
            assert got, "%s with %s validates (%s never writes it there)" % (
                group[0], key, group[4])
            tried += 1
    assert tried


# -- cklib.schema, held to the schema document -----------------------------------------------

def definition_objects(name):
    """(record, member or None, object) for every object of REAL + HAND that the definition
    @name describes: a record of that kind, or a member whose schema is a $ref to it."""
    for rec in REAL + HAND:
        d = DEFS.get(kind_of(rec), {})
        if kind_of(rec) == name:
            yield rec, None, rec
        for m, s in d.get("properties", {}).items():
            if s.get("$ref") == "#/$defs/" + name and isinstance(rec.get(m), dict):
                yield rec, m, rec[m]


def rules():
    """(definition, its dependentRequired, its if/then/else) for each one with either."""
    for name, d in sorted(DEFS.items()):
        conds = ([d] if "if" in d else []) + [c for c in d.get("allOf", []) if "if" in c]
        if d.get("dependentRequired") or conds:
            yield name, d.get("dependentRequired", {}), conds


RULES = list(rules())


def test_the_schema_has_the_rules_this_file_walks():
    names = {n for n, _, _ in RULES}
    assert {"soak_event", "comparison", "movepages", "poison-sweep", "parallel",
            "soak_checkpoint", "cp_form", "soak_summary", "soak-twin",
            "soak-twin-event"} <= names, names


def other_type(t):
    return "x" if t == "null" else None


def other_than(value):
    """A value of the same type as @value (a const), but another."""
    if isinstance(value, str):
        return value + "x"
    if isinstance(value, int) and not isinstance(value, bool):
        return value + 1
    return "x"


BRANCH_RULES = {"required", "not", "properties", "maxProperties", "propertyNames"}


def breakings(name, branch, obj):
    """(what, the object broken) for each rule of @branch (a then or else) on @obj."""
    assert set(branch) <= BRANCH_RULES, "%s: a rule this walk cannot break: %s" % (
        name, set(branch) - BRANCH_RULES)
    assert set(branch.get("not", {})) <= {"required", "anyOf"}, (name, branch)
    for key in branch.get("required", []):
        if key in obj:
            yield "without " + key, without(obj, key)
    nots = branch.get("not", {})
    for alt in [nots] + nots.get("anyOf", []):
        for key in alt.get("required", []):
            if key not in obj:
                yield "with " + key, dict(obj, **{key: any_value(name, key)})
    for key, s in branch.get("properties", {}).items():
        if "type" in s:
            yield "%s not %s" % (key, s["type"]), dict(obj, **{key: other_type(s["type"])})
        if "const" in s:
            yield "%s not %r" % (key, s["const"]), dict(obj, **{key: other_than(s["const"])})
        if "enum" in s:
            yield "%s outside %s" % (key, s["enum"]), dict(obj, **{key: "not " + s["enum"][0]})
        if "minimum" in s:
            yield "%s below %d" % (key, s["minimum"]), dict(obj, **{key: s["minimum"] - 1})
        if "maxItems" in s:
            yield "%s over %d items" % (key, s["maxItems"]), dict(obj, **{
                key: ["x"] * (s["maxItems"] + 1)})
        if "minItems" in s:
            yield "%s under %d items" % (key, s["minItems"]), dict(obj, **{key: []})
    if "maxProperties" in branch:
        extra = dict(obj)
        for key in DEFS[name]["properties"]:
            if len(extra) > branch["maxProperties"]:
                break
            if key not in extra:
                extra[key] = any_value(name, key)
        yield "more than %d members" % branch["maxProperties"], extra
    for key in DEFS[name]["properties"]:
        if key not in branch.get("propertyNames", {}).get("enum", [key]) and key not in obj:
            yield "with " + key, dict(obj, **{key: any_value(name, key)})


def any_value(name, key):
    for _, _, o in definition_objects(name):
        if key in o:
            return copy.deepcopy(o[key])
    raise AssertionError("no record holds %s.%s" % (name, key))


@pytest.mark.parametrize("name,deps", [(n, d) for n, d, _ in RULES if d],
                         ids=[n for n, d, _ in RULES if d])
def test_every_dependent_member_of_the_schema_is_reported_missing(name, deps):
    for trigger, needs in deps.items():
        tried = 0
        for rec, member, o in definition_objects(name):
            if trigger not in o:
                continue
            for key in needs:
                got = SCHEMA.problems(put(rec, member, without(o, key)))
                assert any(key in p for p in got), (name, trigger, key, got)
                tried += 1
        assert tried, "no record holds %s.%s" % (name, trigger)


@pytest.mark.parametrize("name,conds", [(n, c) for n, _, c in RULES if c],
                         ids=[n for n, _, c in RULES if c])
def test_every_branch_of_the_schema_is_reported_broken(name, conds):
    for i, cond in enumerate(conds):
        broke = {True: 0, False: 0}     # rules broken on records taking then, else
        for rec, member, o in definition_objects(name):
            applies = jsonschema.Draft202012Validator(cond["if"]).is_valid(o)
            branch = cond["then"] if applies else cond.get("else", {})
            for what, broken in breakings(name, branch, o):
                got = SCHEMA.problems(put(rec, member, broken))
                assert got, "%s (condition %d, %s): %s validates" % (
                    name, i, "then" if applies else "else", what)
                broke[applies] += 1
        for applies, n in broke.items():
            assert n, "%s condition %d: no record of its %s branch to break" % (
                name, i, "then" if applies else "else")


# -- "schema": the integer 1 and nothing else --------------------------------------------------

NOT_ONE = [1.0, True, "1", 1.5, None, [1], {"version": 1}, 0, 2]


@pytest.mark.parametrize("value", NOT_ONE, ids=repr)
def test_a_schema_that_is_not_the_integer_1_fails(value):
    """JSON Schema's const (and its "integer") take 1.0 for 1, so cklib.schema checks the
    type itself: the image writes the integer (kernel/lib/json.c json_record())."""
    for rec in (SUMMARY, sample("result"), HAND[0]):
        got = SCHEMA.problems(dict(rec, schema=value))
        assert got and got[0].startswith("schema: %s," % json.dumps(value)), (value, got)


def test_ck_validate_refuses_a_float_schema_and_a_lost_member(tmp_path):
    mca = next(r for r in REAL if r.get("event") == "corrected")
    lines = [json.dumps(dict(mca, schema=1.0)), json.dumps(without(mca, "over")),
             json.dumps(mca)]
    log = tmp_path / "serial.log"
    log.write_text("".join("    # %s\n" % line for line in lines))
    r = run_tool("ck-validate", str(log))
    out = r.out.decode()
    assert r.status == 1, r
    assert "%s:1: soak_event record: schema: 1.0, this schema describes 1" % log in out, out
    assert "%s:2: soak_event record:" % log in out and "'over'" in out, out
    assert ":3:" not in out and "3 records in 1 file, 2 problems" in out, out
