# SPDX-License-Identifier: GPL-2.0-only
"""The records schema (docs/schema/copykernel-records-v1.json) and tools/ck-validate.py.

tests/data/records-v1.jsonl holds one real record of every kind the schema describes (and of
each shape of "machine"), cut from the image's serial logs, ck-results' summary and the
hosted tools' output of 2026-12-01 (tests/data/records-v1.md says how each was made). Each must
validate; and each must stop validating when one member is renamed, given the wrong type or
left out, when its kind is unknown or its schema is another. A record emitter that changes
a member changes this file and the schema together.
"""
import copy
import json
import os
import re

import jsonschema
import pytest

from conftest import ROOT, run_tool
from cklib import schema as ckschema

SAMPLES = os.path.join(ROOT, "tests", "data", "records-v1.jsonl")
SCHEMA = ckschema.Schema()
# Kinds without a real sample here (tests/data/records-v1.md says why).
NO_SAMPLE = {"soak-twin-event", "migrate-sweep", "migrate-not-measured"}


def samples():
    with open(SAMPLES) as f:
        return [json.loads(line) for line in f if line.strip()]


def sample_id(r):
    return r.get("kind", "summary")


SAMPLE = samples()


def test_every_kind_has_a_real_sample():
    kinds = {r.get("kind") for r in SAMPLE}
    assert kinds | NO_SAMPLE == set(SCHEMA.kinds), set(SCHEMA.kinds) ^ (kinds | NO_SAMPLE)
    shapes = [d["$ref"] for d in SCHEMA.root["$defs"]["machine"]["oneOf"]]
    machines = [r for r in SAMPLE if r.get("kind") == "machine"]
    assert len(machines) == len(shapes)


@pytest.mark.parametrize("rec", SAMPLE, ids=sample_id)
def test_real_records_validate(rec):
    assert SCHEMA.problems(rec) == []


def first_members(rec):
    """The record's own members (not schema or kind), and one nested member when it has an
    object inside."""
    top = [k for k in rec if k not in ("schema", "kind")]
    nested = [(k, sub) for k in top if isinstance(rec[k], dict)
              for sub in rec[k] if not isinstance(rec[k][sub], (dict, list))]
    return top, nested[:1]


@pytest.mark.parametrize("rec", SAMPLE, ids=sample_id)
def test_a_renamed_member_fails(rec):
    top, nested = first_members(rec)
    for key in top:
        r = {(k + "_renamed" if k == key else k): v for k, v in rec.items()}
        got = SCHEMA.problems(r)
        assert any(key + "_renamed" in p and "not in the schema" in p for p in got), (key, got)
    for outer, inner in nested:
        r = copy.deepcopy(rec)
        r[outer][inner + "x"] = r[outer].pop(inner)
        got = SCHEMA.problems(r)
        assert any(p.startswith(outer + ":") and inner + "x" in p for p in got), got


def wrong_type(v):
    if isinstance(v, bool):
        return "true"
    if isinstance(v, (int, float)):
        return str(v)
    if isinstance(v, str):
        return 12.5
    if v is None:
        return []
    return "x"


@pytest.mark.parametrize("rec", SAMPLE, ids=sample_id)
def test_a_member_of_the_wrong_type_fails(rec):
    for key in [k for k in rec if k not in ("schema", "kind")]:
        r = dict(rec, **{key: wrong_type(rec[key])})
        got = SCHEMA.problems(r)
        assert any(p.startswith(key + ":") or p.startswith(key + "[") or
                   p.startswith(key + ".") or ("record:" in p and key in p) or
                   p.startswith("record:") for p in got) and got, (key, r[key], got)


# The members each emitter writes only on some branch (read from the code: a member written
# under an if); every other member of a record is written every time, so it must be required.
CONDITIONAL = {
    "summary": {"soak_checkpoint"},                             # added by ck-results
    "comparison": {"ratio_ppm", "ci_lo_ppm", "ci_hi_ppm"},      # bench/table.c: ratio_ppm
    "poison-sweep": {"why", "first_unexplained"},               # not run; unexplained > 0
    "parallel": {"failed_cpus", "per_cpu_mbps", "aggregate_mbps", "aggregate_min_mbps",
                 "aggregate_max_mbps", "single_cpu_mbps", "scaling", "skew_ns",
                 "end_skew_ns", "rounds", "clock_hz", "method"},  # st->err or not
    "soak_event": {"bank", "status", "addr", "misc", "over", "ipid", "synd", "bank_dimm",
                   "bank_dimm_why", "expected", "actual", "bits",
                   "data_address",
                   "written_by", "pattern", "copy", "reread", "rip", "symbol", "cause",
                   "granularity", "node", "range", "dimm_map", "dimms"},
    "cores": {"known", "known_cpus", "groups", "slowest_us", "top", "top_cpus",  # ran or not;
              "why_skipped", "replay"},                    # a CPU could not; another digest
    "cores-twin": {"runs", "rounds", "alone_rps", "alone_lo", "alone_hi", "each_rps",  # measured
                   "each_lo", "each_hi", "all_rps", "shared_x1000", "shared_lo_x1000",  # or
                   "shared_hi_x1000", "wrong", "why_not"},                            # not
    "movepages": {"move_speedup_predicted", "move_speedup_predicted_lo",  # >= 3 rounds had
                  "move_speedup_predicted_hi"},                       # copy < move
}


def definition(rec):
    d = SCHEMA.root["$defs"][rec["kind"] if "kind" in rec else "summary"]
    if "oneOf" in d and "required" not in d:
        shapes = [SCHEMA.root["$defs"][b["$ref"].rsplit("/", 1)[1]] for b in d["oneOf"]]
        d = next(x for x in shapes if jsonschema.Draft202012Validator(
            x, resolver=jsonschema.RefResolver.from_schema(SCHEMA.root)).is_valid(rec))
    return d


@pytest.mark.parametrize("rec", SAMPLE, ids=sample_id)
def test_every_member_always_written_is_required(rec):
    d = definition(rec)
    extra = CONDITIONAL.get(rec.get("kind", "summary"), set())
    assert not extra - set(d["properties"]), extra - set(d["properties"])
    for key in rec:
        assert key in extra or key in d["required"], key


@pytest.mark.parametrize("rec", SAMPLE, ids=sample_id)
def test_a_missing_required_member_fails(rec):
    d = definition(rec)
    assert d["required"]
    for key in d["required"]:
        if key == "schema":
            continue
        r = {k: v for k, v in rec.items() if k != key}
        got = SCHEMA.problems(r)
        if key == "kind":
            assert got and got[0].startswith("kind: missing"), got
        else:
            assert "%s: missing (required)" % key in got, (key, got)


def test_the_schema_describes_the_writers_version():
    """The schema's "schema" const is kernel/lib/json.h's JSON_SCHEMA, and the file's name
    and $id say the same number."""
    with open(os.path.join(ROOT, "kernel", "lib", "json.h")) as f:
        m = re.search(r"^#define JSON_SCHEMA\s+(\d+)", f.read(), re.M)
    v = int(m.group(1))
    assert SCHEMA.version == v
    assert ckschema.SCHEMA_PATH.endswith("-v%d.json" % v)
    assert SCHEMA.root["$id"].endswith(":schema-%d" % v)


def test_an_unknown_kind_and_another_schema_fail():
    r = dict(SAMPLE[1], kind="resutl")
    assert SCHEMA.problems(r) and SCHEMA.problems(r)[0].startswith(
        'kind: unknown kind "resutl"')
    assert SCHEMA.problems(dict(SAMPLE[1], schema=2))[0].startswith("schema: 2")
    assert SCHEMA.problems(dict(SAMPLE[1], schema="1"))[0].startswith('schema: "1"')
    assert SCHEMA.problems(dict(SAMPLE[1], kind=7))[0].startswith("kind: 7")


def test_closed_enums_and_conditionals():
    """Fixed sets from the code, and members that go together, fail when broken."""
    by = {sample_id(r): r for r in SAMPLE}
    got = SCHEMA.problems(dict(by["result"], mode="cache-warm"))
    assert any(p.startswith("mode:") for p in got), got
    got = SCHEMA.problems(dict(by["summary"], status=5))
    assert any(p.startswith("status:") for p in got), got
    assert by["soak_summary"]["result"] == "FAIL"
    s = dict(by["soak_summary"], reason=None)   # a failed soak must say why
    assert any(p.startswith("reason:") for p in SCHEMA.problems(s))
    s = dict(by["soak_summary"], result="PASS")  # and a passed one has no reason
    assert any(p.startswith("reason:") for p in SCHEMA.problems(s))
    p = dict(by["parallel"], error=-12)      # a failed step carries failed_cpus, no figures
    assert SCHEMA.problems(p)


def write(tmp_path, name, lines):
    f = tmp_path / name
    f.write_text("".join(line + "\n" for line in lines))
    return str(f)


def test_cli_names_stream_line_and_member(tmp_path):
    good = [json.dumps(r, separators=(",", ":")) for r in SAMPLE]
    at = next(i for i, r in enumerate(SAMPLE) if r.get("kind") == "result")
    bad = dict(SAMPLE[at])
    bad["median_mbs"] = bad.pop("median_mbps")
    rest = good[:at] + good[at + 1:]
    log = write(tmp_path, "serial.log", ["KTAP version 1", "# a diagnostic"] +
                ["    # " + rest[0], json.dumps(bad)] + rest[1:])
    r = run_tool("ck-validate", log)
    assert r.status == 1, r
    out = r.out.decode()
    assert "%s:4: result record: member not in the schema ('median_mbs' was unexpected)" % \
        log in out, out
    assert "%s:4: result record: median_mbps: missing (required)" % log in out, out
    assert "2 problems" in out and "%d records in 1 file" % len(good) in out, out
    r = run_tool("ck-validate", write(tmp_path, "good.jsonl", good))
    assert r.status == 0 and b" 0 problems" in r.out, r
    r = run_tool("ck-validate", write(tmp_path, "none.log", ["no records here"]))
    assert r.status == 3, r
    r = run_tool("ck-validate", str(tmp_path / "missing.log"))
    assert r.status == 2 and b"cannot read" in r.err, r
    cut = write(tmp_path, "cut.log", [good[1][:40]])
    r = run_tool("ck-validate", cut)
    assert r.status == 1 and b"cut.log:1: not valid JSON" in r.out, r


def test_cli_takes_an_indented_summary(tmp_path):
    """ck-results prints the summary indented over many lines: the file is one record."""
    summary = next(r for r in SAMPLE if "kind" not in r)
    f = tmp_path / "result.json"
    f.write_text(json.dumps(summary, indent=2, sort_keys=True))
    r = run_tool("ck-validate", str(f))
    assert r.status == 0 and b"1 record in 1 file" in r.out, r
    broken = dict(summary, tests=dict(summary["tests"], passed=summary["tests"]["pass"]))
    f.write_text(json.dumps(broken, indent=2))
    r = run_tool("ck-validate", str(f))
    assert r.status == 1 and b"summary record: tests: member not in the schema ('passed'" in \
        r.out, r
