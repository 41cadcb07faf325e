# SPDX-License-Identifier: GPL-2.0-only
"""The soak's black box as the host reads it: tools/cklib/blackbox.py and ck-results.py over
the CopykernelSoak variable (issue 19).

Oracles: the variable is built here from the byte layouts written in soak/blackbox.h (the
CKB1 wrapper) and soak/checkpoint.h (the CKSK record) with struct and zlib, not with
the decoder; the next boot's line is the issue's wording written out whole (the same text
tests/host/test_blackbox.c holds the image to); the count of verdict rules is read from
soak/ledger.c's table. Properties: a well-formed variable decodes to what was built;
every single-bit flip and every truncation of one is refused as Damaged (never another
exception); ck-results.py ends with its documented statuses.
"""
import json
import os
import re
import struct
import tempfile
import uuid
import zlib

from hypothesis import given, strategies as st

from conftest import ROOT, examples, load_tool, run_tool

GUID = uuid.UUID("6c6b6b63-7970-4b65-8e72-6e656c727573")
NONE = 0xff
bb = load_tool("ck-results").blackbox


def crc(b):
    return zlib.crc32(b) & 0xffffffff


def bucket(typ=0, node=0, dimm=0, base=0, size=0, counts=(0,) * 6, name=b""):
    return struct.pack("<BBHIQQ6I24s", typ, node, dimm, 0, base, size, *counts, name)


def misc(phys, expected, actual, t_ns, cpu, pattern):
    """One of a version 2 record's first miscompares (soak/checkpoint.h's table)."""
    return struct.pack("<QQQQHB5s", phys, expected, actual, t_ns, cpu, pattern, b"")


def umc_bucket(node, amd_node, cs, umc, counts=(0,) * 6, label=b""):
    """A version 3 UMC bucket (type 4): the logging CPU's AMD node, chip select, UMC."""
    return struct.pack("<BBHBBHQQ6I24s", 4, node, 0, amd_node, cs, umc, 0, 0, *counts, label)


def record(flags=0, seed=0, elapsed=0, verified=0, per_pass=0, passes=0, cpus=1, rule=NONE,
           counts=(0,) * 6, not_stored=0, first=None, buckets=(), miscompares=None,
           version=None):
    """The CKSK record of soak/checkpoint.h, laid out from its table: version 1, or 2 with
    @miscompares (or @version)."""
    n, m = len(buckets), len(miscompares or ())
    length = 104 + 72 * n + 40 * m + 4
    version = version or (1 if miscompares is None else 2)
    head = b"CKSK" + struct.pack("<BBH", version, flags, length)
    head += struct.pack("<QQQQIHBB", seed, elapsed, verified, per_pass, passes, cpus, n, rule)
    head += struct.pack("<6IIi", *counts, not_stored, 0)
    kind, cpu, phys, t_ns = first if first else (NONE, 0, 0, 0)
    head += struct.pack("<BBHIQQ", kind, m, cpu, 0, phys, t_ns)
    assert len(head) == 104
    body = head + b"".join(buckets) + b"".join(miscompares or ())
    return body + struct.pack("<I", crc(body))


def wrapper(rec, run_id=0x1a2b3c4d, seq=19, reported_by=0, started=b"2026-12-01T10:00:00"):
    """The CKB1 variable of soak/blackbox.h around @rec."""
    head = b"CKB1" + struct.pack("<III24s", run_id, seq, reported_by, started)
    return head + struct.pack("<I", crc(head)) + rec


def sample(**kw):
    """The issue's example: a failing soak three hours in, its worst bucket a DIMM."""
    rec = record(flags=2, seed=0x5eed5eed, elapsed=10925250000000, verified=1610612736,
                 per_pass=805306368, passes=2, cpus=4, rule=0, counts=(3, 0, 1, 0, 0, 1),
                 first=(2, 2, 0x12345000, 9000 * 10**9),
                 buckets=[bucket(0, counts=(2, 0, 1, 0, 0, 0), name=b"P0_CH_A/DIMM_A0"),
                          bucket(1, 1, base=1 << 30, size=1 << 30, counts=(1, 0, 0, 0, 0, 0))])
    return wrapper(rec, **kw)


SAMPLE_TEXT = ("previous run 1a2b3c4d ended without a summary; its last checkpoint (19 "
               "written) was 3h02m05s into the soak: passes 2, bytes 1610612736, CE 3, UE 1, "
               "deferred 0, miscompares 0, stuck CPUs 0, retired pages 1, failing so far; "
               "worst: DIMM P0_CH_A/DIMM_A0 (CE 2, UE 1, deferred 0, miscompares 0)")


def test_the_issue_line():
    ck = bb.decode(sample())
    assert ck.state == "unfinished"
    assert ck.text() == SAMPLE_TEXT
    j = ck.json()
    assert j["run_id"] == "1a2b3c4d" and j["checkpoints"] == 19 and j["reported_by"] is None
    assert j["counts"]["uncorrected"] == 1 and j["worst"][0]["dimm"] == "P0_CH_A/DIMM_A0"
    assert j["first"] == {"event": "uncorrected", "cpu": 2, "phys": "0x12345000",
                          "t_ns": 9000 * 10**9}
    again = bb.decode(sample(reported_by=0x55667788)).text()
    assert again.startswith("previous run 1a2b3c4d (already reported by run 55667788) ended "
                            "without a summary; its last checkpoint (19 written) was 3h02m05s "
                            "into the soak: ")


def test_first_miscompares():
    """Version 2: the first miscompares, named in the line and the record; version 1 has
    none; more than four, or a pattern past the table, is damage."""
    rec = record(flags=2, elapsed=5 * 10**9, passes=1, rule=2, counts=(0, 0, 0, 2, 0, 2),
                 miscompares=[misc(0x40001000, 0x42000040, 0x40000040, 3214000000, 1, 2),
                              misc(0x2000, 0, 1 << 13, 4 * 10**9, 0, 0)])
    ck = bb.decode(wrapper(rec))
    assert ck.text().endswith("; first miscompares: 0x40001000 on CPU 1 after 3.214s "
                              "(expected 0x42000040 actual 0x40000040, address), 0x2000 on "
                              "CPU 0 after 4.000s (expected 0x0 actual 0x2000, zeros)")
    assert ck.json()["miscompares"][0] == {"phys": "0x40001000", "expected": "0x42000040",
                                           "actual": "0x40000040", "cpu": 1,
                                           "t_ns": 3214000000, "pattern": "address"}
    assert bb.decode(sample()).json()["miscompares"] == []
    for bad, why in ((record(miscompares=[misc(0, 0, 0, 0, 0, 20)]), "out of range"),
                     (record(miscompares=[misc(0, 0, 0, 0, 0, 0)] * 5), "its length")):
        try:
            bb.decode(wrapper(bad))
        except bb.Damaged as e:
            assert why in str(e), (why, str(e))
        else:
            raise AssertionError("decoded: " + why)


def test_umc_bucket_names_the_rank():
    """Version 3: a DRAM rank the UMC bank named, with its label, in the line and the record;
    the same bucket in a version 2 record, or a chip select past 7, is damage."""
    rec = record(flags=2, rule=4, counts=(11, 0, 0, 0, 0, 0), miscompares=[], version=3,
                 buckets=[umc_bucket(0xff, 1, 0, 3, (6, 0, 0, 0, 0, 0), b"P1_C"),
                          umc_bucket(0xff, 0xff, 5, 12, (5, 0, 0, 0, 0, 0))])
    ck = bb.decode(wrapper(rec))
    assert ck.text().endswith("worst: node 1 UMC 3 DIMM 0 rank 0 (label P1_C) (CE 6, UE 0, "
                              "deferred 0, miscompares 0)")
    w = ck.json()["worst"]
    assert w[0]["umc"] == {"node": 1, "umc": 3, "dimm": 0, "rank": 0, "cs": 0, "label": "P1_C"}
    assert w[1]["umc"] == {"node": None, "umc": 12, "dimm": 2, "rank": 1, "cs": 5,
                           "label": None}
    assert w[0]["type"] == "umc" and w[0]["dimm"] is None
    assert bb.decode(sample()).json()["worst"][0]["umc"] is None
    for bad in (record(version=2, miscompares=[], buckets=[umc_bucket(0, 0, 0, 3)]),
                record(version=3, miscompares=[], buckets=[umc_bucket(0, 0, 8, 3)]),
                record(version=4, miscompares=[])):
        try:
            bb.decode(wrapper(bad))
        except bb.Damaged:
            pass
        else:
            raise AssertionError("decoded")


def test_rule_count_is_ledgers():
    with open(os.path.join(ROOT, "soak", "ledger.c")) as f:
        text = f.read()
    table = re.search(r"soak_rules\[\] = \{(.*?)\n\};", text, re.S).group(1)
    assert bb.NR_RULES == len(re.findall(r"^\t\{ \"", table, re.M))


def test_final_and_empty():
    ck = bb.decode(wrapper(record(flags=1, elapsed=240 * 10**9, passes=5), seq=3))
    assert ck.state == "finished"
    assert ck.text() == ("previous run 1a2b3c4d ended with its soak summary after 4m00s; its "
                         "last checkpoint (3 written): passes 5, bytes 0, CE 0, UE 0, "
                         "deferred 0, miscompares 0, stuck CPUs 0, retired pages 0, passing "
                         "so far; worst: none (no error so far)")


def test_a_run_with_command_line_errors():
    """Flag 8 (soak/checkpoint.h): the run that wrote it had command-line errors, so its
    verdict was never PASS; the next boot's line and the JSON say so. Flag 16 is no flag."""
    ck = bb.decode(wrapper(record(flags=1 | 8, elapsed=240 * 10**9, passes=5), seq=3))
    assert ck.state == "finished" and ck.json()["cmdline_errors"] is True
    assert ck.text().endswith("passing so far; worst: none (no error so far); its command "
                              "line had errors, so its verdict was never PASS")
    assert bb.decode(sample()).json()["cmdline_errors"] is False
    try:
        bb.decode(wrapper(record(flags=16)))
    except bb.Damaged as e:
        assert "out of range" in str(e)
    else:
        raise AssertionError("flag 16 decoded")


def test_each_damage_named():
    good = sample()
    cases = [(b"XXXX" + good[4:], "no CKB1 magic"), (good[:43], "44-byte header"),
             (good[:40] + b"\0\0\0\0" + good[44:], "bad header CRC"),
             (wrapper(record(), run_id=0), "run id or checkpoint count 0"),
             (wrapper(record(), started=b"\x01"), "printable ASCII"),
             (wrapper(record()[:-1]), "its length"),
             (wrapper(record(rule=6)), "out of range"),
             (wrapper(record()[:-4] + b"\0\0\0\0"), "bad CRC")]
    for data, why in cases:
        try:
            bb.decode(data)
        except bb.Damaged as e:
            assert why in str(e), (why, str(e))
        else:
            raise AssertionError("decoded: " + why)


def test_every_flip_and_cut_refused():
    good = sample()
    for i in range(len(good)):
        for bit in range(8):
            bad = bytearray(good)
            bad[i] ^= 1 << bit
            try:
                bb.decode(bytes(bad))
            except bb.Damaged:
                continue
            raise AssertionError("a flip of bit %d of byte %d decoded" % (bit, i))
    for n in range(len(good)):
        try:
            bb.decode(good[:n])
        except bb.Damaged:
            continue
        raise AssertionError("a cut to %d bytes decoded" % n)


u32 = st.integers(0, 2**32 - 1)
u64 = st.integers(0, 2**64 - 1)
name = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7e), max_size=24)


@st.composite
def records(draw):
    bs = draw(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 255), u64, u64,
                                 st.lists(u32, min_size=6, max_size=6), name), max_size=8))
    first = draw(st.none() | st.tuples(st.integers(0, 5), st.integers(0, 65535), u64, u64))
    fields = dict(flags=draw(st.integers(0, 15)), seed=draw(u64), elapsed=draw(u64),
                  verified=draw(u64), per_pass=draw(u64), passes=draw(u32),
                  cpus=draw(st.integers(0, 65535)),
                  rule=draw(st.sampled_from([NONE, 0, 1, 2, 3, 4, 5])),
                  counts=tuple(draw(st.lists(u32, min_size=6, max_size=6))),
                  not_stored=draw(u32), first=first)
    rec = record(buckets=[bucket(t, nd, 0, b, s, c, n.encode()) for t, nd, b, s, c, n in bs],
                 **fields)
    return rec, fields, bs


@examples(200)
@given(records(), st.integers(1, 2**32 - 1), st.integers(1, 2**32 - 1), u32)
def test_what_is_built_decodes(built, run_id, seq, by):
    rec, f, bs = built
    ck = bb.decode(wrapper(rec, run_id, seq, by))
    r = ck.rec
    assert (ck.run_id, ck.seq, ck.reported_by) == (run_id, seq, by)
    assert ck.state == ("finished" if f["flags"] & 1 else "unfinished")
    assert ck.json()["cmdline_errors"] == bool(f["flags"] & 8)
    assert (r["passes"], r["elapsed_ns"], r["bytes_verified"], r["seed"]) == (
        f["passes"], f["elapsed"], f["verified"], f["seed"])
    assert tuple(r["counts"][k] for k in bb.KINDS) == f["counts"]
    assert r["rule"] == (None if f["rule"] == NONE else f["rule"])
    assert [(b["type"], b["node"], b["base"], b["size"], b["name"]) for b in r["buckets"]] == \
        [(bb.BUCKET_TYPES[t], nd, b, s, n) for t, nd, b, s, _, n in bs]
    json.dumps(ck.json())
    assert ck.text().startswith("previous run %08x" % run_id)


@examples(200)
@given(records(), st.integers(0, 10**4), st.integers(0, 7), st.binary(max_size=8))
def test_damage_never_crashes(built, at, bit, junk):
    data = bytearray(wrapper(built[0]))
    data[at % len(data)] ^= 1 << bit
    for d in (bytes(data), bytes(data[:at % len(data)]) + junk):
        try:
            bb.decode(d)
        except bb.Damaged:
            pass


# ---- ck-results.py over an efivarfs directory -------------------------------------------

def efivars(d, variables):
    for n, data in variables.items():
        with open(os.path.join(d, "%s-%s" % (n, GUID)), "wb") as f:
            f.write(struct.pack("<I", 7) + data)


def summary(text, run=7):
    return {"CopykernelResult0": b"CKR1" + struct.pack("<HHI", 0, 1, run) + text.encode()}


def test_tool_says_unfinished_soak():
    with tempfile.TemporaryDirectory() as d:
        efivars(d, dict(summary('{"status": 0}'), CopykernelSoak=sample()))
        r = run_tool("ck-results", "--efivars", d)
        assert r.status == 0, r
        assert json.loads(r.out)["soak_checkpoint"]["text"] == SAMPLE_TEXT
        assert "ck-results: %s: the soak ended without a summary: %s" % (d, SAMPLE_TEXT) \
            in r.err_text
        r = run_tool("ck-results", "--efivars", d, "--checkpoint")
        assert r.status == 0 and json.loads(r.out)["state"] == "unfinished", r


def test_tool_without_summary_still_says_checkpoint():
    with tempfile.TemporaryDirectory() as d:
        efivars(d, {"CopykernelSoak": sample()})
        r = run_tool("ck-results", "--efivars", d)
        assert r.status == 1 and "the soak ended without a summary" in r.err_text, r


def test_tool_damaged_checkpoint():
    bad = bytearray(sample())
    bad[60] ^= 4
    with tempfile.TemporaryDirectory() as d:
        efivars(d, dict(summary('{"status": 0}'), CopykernelSoak=bytes(bad)))
        r = run_tool("ck-results", "--efivars", d)
        assert r.status == 0 and json.loads(r.out)["soak_checkpoint"]["state"] == "damaged", r
        assert "damaged soak checkpoint" in r.err_text, r
        r = run_tool("ck-results", "--efivars", d, "--checkpoint")
        assert r.status == 3 and "damaged soak checkpoint: soak checkpoint: bad CRC" in \
            r.err_text and "Traceback" not in r.err_text, r


def test_tool_no_checkpoint():
    with tempfile.TemporaryDirectory() as d:
        efivars(d, summary('{"status": 0}'))
        r = run_tool("ck-results", "--efivars", d)
        assert r.status == 0 and "soak_checkpoint" not in json.loads(r.out), r
        assert r.err_text == "", r
        r = run_tool("ck-results", "--efivars", d, "--checkpoint")
        assert r.status == 1 and "no CopykernelSoak variable" in r.err_text, r
