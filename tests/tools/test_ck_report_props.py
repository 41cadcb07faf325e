# SPDX-License-Identifier: GPL-2.0-only
"""tools/ck-report.py against generated, then damaged, benchmark output (issue 11).

The inputs are the two the tool reads: a serial log of the image (console text, KTAP, escape
sequences, CRLF line ends, with the JSON records among them) and the hosted build's JSON-lines
file. Every run must end with a documented status (0 tables, 1 no results, 3 bad input) and
never with a traceback; for undamaged input the tables hold what was put in.
"""
import json
import os
import tempfile
from decimal import ROUND_HALF_UP, Decimal

import pytest
from hypothesis import assume, given, note, strategies as st

from conftest import assert_clean, examples, run_tool

TOOL = "ck-report"
MARK = b'{"schema"'
SAMPLE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data",
                      "bench-sample.log")
STR, SIZE, NUM, BOOL = "str", "size", "num", "bool"
# The fields the tables need, by kind; the tool must refuse a record without them.
REQUIRED = {
    "result": {"api": STR, "primitive": STR, "size": SIZE, "mode": STR, "median_mbps": NUM,
               "stddev_mbps": NUM, "cycles_per_byte_x1000": NUM},
    "comparison": {"api": STR, "mode": STR, "baseline": STR, "candidate": STR, "size": SIZE,
                   "ratio_x1000": NUM, "ci_lo_x1000": NUM, "ci_hi_x1000": NUM,
                   "significant": BOOL},
    "perf-compare": {"primitive": STR, "perf_function": STR, "size": SIZE, "ours_gibps": NUM,
                     "perf_gibps": NUM},
}
OPTIONAL = {"result": {"src_node": STR, "dst_node": STR, "median_ns": NUM, "q1_ns": NUM,
                       "q3_ns": NUM}}


def size_name(n):
    for unit, shift in (("G", 30), ("M", 20), ("K", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return "%d%s" % (n >> shift, unit)
    return str(n)


# ---- strategies ------------------------------------------------------------------------

names = st.sampled_from(["folio_copy", "folio_mc_copy", "copy_mc_highpages",
                         "folio_zero_huge"]) | st.text(min_size=1, max_size=12)
prim_names = st.sampled_from(["per-page", "batched", "bulk", "memcpy_erms", "copy_page_rep",
                              "clear_pages_nt", "sequential"]) | st.text(min_size=1,
                                                                          max_size=12)
modes = st.sampled_from(["cache-cold", "cache-hot"])
sizes = st.sampled_from([4096, 16384, 65536, 262144, 2097152, 1 << 30, 3 << 20]) | \
    st.integers(0, 2 ** 64 - 1)
counts = st.integers(0, 10 ** 7) | st.floats(0, 1e7)
nodes = st.sampled_from(["node0", "node1", "node2"])


@st.composite
def result(draw, api, primitive, size, mode):
    r = {"schema": 1, "kind": "result", "machine": "GenuineIntel", "api": api,
         "primitive": primitive, "size": size, "mode": mode}
    if draw(st.booleans()):
        r.update(src_node=draw(nodes), dst_node=draw(nodes))
    r.update(runs=draw(st.integers(1, 30)), median_mbps=draw(counts),
             stddev_mbps=draw(counts), cycles_per_byte_x1000=draw(counts))
    if draw(st.integers(0, 4)):
        q1 = draw(st.integers(0, 10 ** 9))
        r.update(median_ns=q1 + draw(st.integers(0, 10 ** 6)), q1_ns=q1,
                 q3_ns=q1 + draw(st.integers(0, 10 ** 7)))
    return r


@st.composite
def bench(draw):
    """A benchmark run's records, in the order the image prints them."""
    recs = [{"schema": 1, "kind": "machine", "machine": "GenuineIntel", "family": 6,
             "model": 207, "runs": 3}]
    for _ in range(draw(st.integers(0, 3))):        # seed-style comparisons
        api, mode = draw(names), draw(modes)
        base, cand = draw(prim_names), draw(prim_names)
        for size in draw(st.lists(sizes, min_size=1, max_size=3)):
            recs.append(draw(result(api, base, size, mode)))
            recs.append(draw(result(api, cand, size, mode)))
            lo = draw(st.integers(0, 3000))
            recs.append({"schema": 1, "kind": "comparison", "api": api, "size": size,
                         "mode": mode, "baseline": base, "candidate": cand,
                         "ratio_x1000": lo + draw(st.integers(0, 500)), "ci_lo_x1000": lo,
                         "ci_hi_x1000": lo + draw(st.integers(0, 900)),
                         "significant": draw(st.booleans())})
    for _ in range(draw(st.integers(0, 4))):        # the primitives table
        recs.append(draw(result("primitive", draw(prim_names), draw(sizes), draw(modes))))
    for _ in range(draw(st.integers(0, 2))):        # hosted only: against perf bench mem
        recs.append({"schema": 1, "kind": "perf-compare", "machine": "GenuineIntel",
                     "primitive": draw(prim_names), "perf_function": "x86-64-movsb",
                     "size": draw(sizes), "ours_gibps": draw(st.floats(0, 100)),
                     "perf_gibps": draw(st.floats(0, 100))})
    for _ in range(draw(st.integers(0, 2))):        # read and ignored
        recs.insert(draw(st.integers(0, len(recs))),
                    {"schema": 1, "kind": "quick", "primitive": "memcpy_erms",
                     "bytes": 1048576, "runs": 5, "median_ns": 2408753, "mb_per_s": 435})
    return recs


NOISE = [b"\x1b[2J\x1b[01;01H\x1b[=3h", b"BdsDxe: loading Boot0001 \"UEFI QEMU HARDDISK\"",
         b"KTAP version 1", b"1..3", b"    KTAP version 1", b"    1..2",
         b"    ok 1 - pages_alloc", b"    not ok 2 - copy_mc # SKIP no MCE", b"ok 1 - cpu",
         b"not ok 2 - copy", b"# Totals: pass:1 fail:1 skip:0 total:2",
         b"# copykernel-summary: result=FAIL suites=2 pass=1 fail=1 skip=0",
         b"fn=folio_copy mode=cache-cold", b"direction      folio   baseline GB/s", b"",
         b"bench: running under a hypervisor", b"schema without a brace: \"schema\":1"]


@st.composite
def rendered(draw, recs=None):
    """(file bytes, [(offset of the record's JSON, its bytes)], records)."""
    recs = draw(bench()) if recs is None else recs
    serial = draw(st.booleans())
    end = b"\r\n" if serial and draw(st.booleans()) else b"\n"
    out, where = bytearray(), []
    if serial:
        for line in draw(st.lists(st.sampled_from(NOISE), max_size=6)):
            out += line + end
    for r in recs:
        if serial:
            for line in draw(st.lists(st.sampled_from(NOISE), max_size=2)):
                out += line + end
            if draw(st.integers(0, 5)) == 0:
                out += b"\x1b[0m"                  # an escape sequence before the record
        text = json.dumps(r, separators=(",", ":"),
                          ensure_ascii=draw(st.booleans())).encode("utf-8")
        where.append((len(out), text))
        out += text + end
    return bytes(out), where, recs


def renders(recs):
    """Does the tool make a table row from any of @recs? (status 0, else 1)"""
    return any(r["kind"] in ("comparison", "perf-compare") or
               (r["kind"] == "result" and r["api"] == "primitive") for r in recs)


def run_on(data, *extra):
    with tempfile.TemporaryDirectory(prefix="ck-report-") as d:
        path = os.path.join(d, "bench.log")
        with open(path, "wb") as f:
            f.write(data)
        return run_tool(TOOL, path, *extra)


def expected_rows(recs):
    """Text every table must show for @recs."""
    want = []
    for r in recs:
        if r["kind"] == "comparison":
            want.append("fn=%s mode=%s (%s vs %s)" % (r["api"], r["mode"], r["baseline"],
                                                      r["candidate"]))
            # rounded half away from zero (decimal's ROUND_HALF_UP), as the tables round
            want.append("%sx [%s, %s]" % tuple(
                str((Decimal(r[k]) / 1000).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))
                for k in ("ratio_x1000", "ci_lo_x1000", "ci_hi_x1000")))
        elif r["kind"] == "result" and r["api"] == "primitive":
            want.append("%-22s %-7s %-11s" % (r["primitive"], size_name(r["size"]),
                                              r["mode"]))
        elif r["kind"] == "perf-compare":
            want.append("%-18s %-17s %-6s" % (r["primitive"], r["perf_function"],
                                              size_name(r["size"])))
    return want


# ---- valid input -----------------------------------------------------------------------

@examples(100)
@given(rendered())
def test_valid_input_tables(x):
    data, _, recs = x
    r = run_on(data)
    assert_clean(r, TOOL)
    assert r.status == (0 if renders(recs) else 1), r
    out = r.out.decode("utf-8")
    for w in expected_rows(recs):
        assert w in out, (w, r)


@examples(50)
@given(st.data())
def test_compare_valid(data):
    a, _, a_recs = data.draw(rendered())
    b_recs = [dict(x) for x in a_recs]
    for x in b_recs:
        if x["kind"] == "result" and data.draw(st.booleans()):
            x["median_mbps"] = data.draw(counts)
    b, _, _ = data.draw(rendered(b_recs))
    with tempfile.TemporaryDirectory(prefix="ck-report-") as d:
        pa, pb = os.path.join(d, "a.log"), os.path.join(d, "b.log")
        for path, content in ((pa, a), (pb, b)):
            with open(path, "wb") as f:
                f.write(content)
        r = run_tool(TOOL, "--compare", pa, pb)
    assert_clean(r, TOOL)
    keys = {(x["api"], x["primitive"], x["size"], x["mode"]) for x in a_recs
            if x["kind"] == "result"}
    comps = any(x["kind"] == "comparison" for x in a_recs)
    assert r.status == (0 if keys or comps else 1), r
    out = r.out.decode("utf-8")
    for api, prim, size, mode in keys:
        assert "%-18s %-20s %-7s %-11s" % (api, prim, size_name(size), mode) in out, r


# ---- damaged input ---------------------------------------------------------------------

def wrong_type(draw, want):
    """A JSON value that is not of kind @want."""
    choices = [None, [], {}, [1], {"a": 1}]
    if want != STR:
        choices += ["12", ""]
    if want != BOOL:
        choices += [True, False]
    if want != NUM:
        choices += [1.5]
    if want in (STR, BOOL):
        choices += [0, 7, 2 ** 70]
    if want in (NUM, SIZE):
        choices += [10 ** 400]          # an integer no float holds
    if want == SIZE:
        choices += [-1, 2 ** 64]
    return draw(st.sampled_from(choices))


@examples(100)
@given(st.data())
def test_record_damage_exact_status(data):
    """Deleting a field, or giving it the wrong type, in one record: the status it must give."""
    recs = data.draw(bench())
    checked = [i for i, r in enumerate(recs) if r["kind"] in REQUIRED]
    assume(checked)
    i = data.draw(st.sampled_from(checked))
    r, others = recs[i], recs[:i] + recs[i + 1:]
    req, opt = REQUIRED[r["kind"]], OPTIONAL.get(r["kind"], {})
    key = data.draw(st.sampled_from(sorted(req) + sorted(k for k in opt if k in r) +
                                    ["kind", "schema"] + [k for k in ("runs", "machine")
                                                          if k in r]))
    free = key in opt or key in ("runs", "machine")     # the tool may do without it
    if data.draw(st.booleans()):
        del r[key]
        if key == "schema":             # no '{"schema"' left: an ordinary line now
            want = 0 if renders(others) else 1
        else:
            want = (0 if renders(recs) else 1) if free else 3
    else:
        if key in ("runs", "machine"):
            r[key] = data.draw(st.sampled_from([None, "x", [1], 2.5]))
            want = 0 if renders(recs) else 1
        elif key == "schema":
            r[key] = data.draw(st.sampled_from([2, 0, "1", None, 1.0, True]))
            want = 3
        elif key == "kind":
            r[key] = data.draw(st.sampled_from([None, 1, ["result"], {}]))
            want = 3
        else:
            r[key] = wrong_type(data.draw, dict(req, **opt)[key])
            want = 3
    note("record %d now %r" % (i, r))
    raw, _, _ = data.draw(rendered(recs))
    out = run_on(raw)
    assert_clean(out, TOOL)
    assert out.status == want, out


@examples(100)
@given(st.data())
def test_truncated_anywhere(data):
    raw, where, recs = data.draw(rendered())
    cut = data.draw(st.integers(0, len(raw)))
    kept, partial = [], False
    for (off, text), r in zip(where, recs):
        if off + len(text) <= cut:
            kept.append(r)
        elif off + len(MARK) <= cut:
            partial = True
    note("cut at %d of %d" % (cut, len(raw)))
    r = run_on(raw[:cut])
    assert_clean(r, TOOL)
    assert r.status == (3 if partial else 0 if renders(kept) else 1), r


@examples(60)
@given(st.data())
def test_non_utf8_inserted(data):
    raw, where, recs = data.draw(rendered())
    assume(where)
    bad = data.draw(st.sampled_from([b"\xff", b"\xfe\xff", b"\xc3(", b"\x80", b"\xed\xa0\x80",
                                     b"\xf8\x88\x80\x80\x80"]))
    in_record = data.draw(st.booleans())
    if in_record:
        off, text = data.draw(st.sampled_from(where))
        at = off + data.draw(st.integers(len(MARK), len(text)))
        want = 3
    else:                               # outside every record: console text is not read
        at = data.draw(st.integers(0, len(raw)))
        ok = all(not (o <= at <= o + len(t)) for o, t in where)  # "\xff{" is in one
        assume(ok)
        want = 0 if renders(recs) else 1
    note("%r at %d" % (bad, at))
    r = run_on(raw[:at] + bad + raw[at:])
    assert_clean(r, TOOL)
    assert r.status == want, r


@examples(60)
@given(st.data())
def test_bytes_flipped_and_lines_shuffled(data):
    raw, where, recs = data.draw(rendered())
    b = bytearray(raw)
    for _ in range(data.draw(st.integers(1, 6))):
        how = data.draw(st.sampled_from(["flip", "flip-in-record", "dup-line", "drop-line",
                                         "nan"]))
        if how == "flip" and b:
            at = data.draw(st.integers(0, len(b) - 1))
            b[at] ^= data.draw(st.integers(1, 255))
        elif how == "flip-in-record" and where:
            off, text = data.draw(st.sampled_from(where))
            at = min(off + data.draw(st.integers(0, len(text) - 1)), len(b) - 1)
            b[at] = data.draw(st.sampled_from(b'{}[]":,0123456789.-eE \\tfnu\x00'))
        elif how in ("dup-line", "drop-line"):
            lines = bytes(b).split(b"\n")
            i = data.draw(st.integers(0, len(lines) - 1))
            if how == "dup-line":
                lines.insert(i, lines[i])
            else:
                del lines[i]
            b = bytearray(b"\n".join(lines))
        elif how == "nan":
            b = bytearray(bytes(b).replace(b'"median_mbps":', b'"median_mbps":NaN,"x":', 1))
    r = run_on(bytes(b))
    assert_clean(r, TOOL)


@examples(40)
@given(st.data())
def test_compare_damaged(data):
    a, _, a_recs = data.draw(rendered())
    b = bytearray(a)
    for _ in range(data.draw(st.integers(1, 4))):
        if not b:
            break
        at = data.draw(st.integers(0, len(b) - 1))
        if data.draw(st.booleans()):
            del b[at:]
        else:
            b[at] ^= data.draw(st.integers(1, 255))
    with tempfile.TemporaryDirectory(prefix="ck-report-") as d:
        pa, pb = os.path.join(d, "a.log"), os.path.join(d, "b.log")
        for path, content in ((pa, a), (pb, bytes(b))):
            with open(path, "wb") as f:
                f.write(content)
        r = run_tool(TOOL, "--compare", pa, pb)
    assert_clean(r, TOOL)


# ---- examples: one for each traceback class of issue 11 --------------------------------

def line(**kw):
    r = {"schema": 1}
    r.update(kw)
    return json.dumps(r).encode() + b"\n"


GOOD_PRIM = dict(kind="result", api="primitive", primitive="memcpy_erms", size=4096,
                 mode="cache-hot", median_mbps=1000, stddev_mbps=10,
                 cycles_per_byte_x1000=500, median_ns=10, q1_ns=9, q3_ns=11)


def test_help_documents_exit_statuses():
    r = run_tool(TOOL, "--help")
    assert r.status == 0
    text = r.out.decode()
    assert "exit status" in text
    for status in ("0 ", "1 ", "2 ", "3 "):
        assert "  " + status in text


def test_usage_errors_are_2():
    assert run_tool(TOOL).status == 2
    assert run_tool(TOOL, "--compare", "only-one").status == 2


@pytest.mark.parametrize("noise", ["-5", "-0.1", "100.5", "1e9", "nan", "inf", "five"])
def test_run_noise_out_of_range_is_refused(noise):
    """--run-noise is a percentage: a negative, too large or non-finite value is a usage error
    that names the range, not a comparison under some other noise (defect 5 of issue 18)."""
    r = run_tool(TOOL, "--run-noise", noise, "--compare", SAMPLE, SAMPLE)
    assert r.status == 2 and r.out == b"", r
    assert "--run-noise" in r.err_text and "percentage" in r.err_text, r
    assert "Traceback" not in r.err_text, r


@pytest.mark.parametrize("noise", ["0", "2.5", "100"])
def test_run_noise_in_range_is_taken(noise):
    r = run_tool(TOOL, "--run-noise", noise, "--compare", SAMPLE, SAMPLE)
    assert_clean(r, TOOL)
    assert r.status == 0 and ("noise %.1f%% assumed" % float(noise)).encode() in r.out, r


def test_sample_log_still_renders():
    r = run_tool(TOOL, SAMPLE)
    assert r.status == 0 and r.err == b"", r
    assert "fn=folio_copy mode=cache-cold (per-page vs batched)" in r.out.decode()


def test_no_results_is_1():
    r = run_on(b"KTAP version 1\n1..0\n" + line(kind="machine", machine="x"))
    assert_clean(r, TOOL)
    assert r.status == 1


def test_compare_without_common_case_is_1():
    with tempfile.TemporaryDirectory() as d:
        pa, pb = os.path.join(d, "a"), os.path.join(d, "b")
        with open(pa, "wb") as f:
            f.write(line(**GOOD_PRIM))
        with open(pb, "wb") as f:
            f.write(line(**dict(GOOD_PRIM, size=8192)))
        r = run_tool(TOOL, "--compare", pa, pb)
    assert_clean(r, TOOL)
    assert r.status == 1


def test_key_error_missing_field():
    rec = dict(GOOD_PRIM)
    del rec["api"]
    r = run_on(line(**rec))
    assert_clean(r, TOOL)
    assert r.status == 3 and '"api"' in r.err_text and "line 1" in r.err_text


@pytest.mark.parametrize("field,value", [("size", "4096"), ("median_mbps", "fast"),
                                         ("api", ["primitive"]), ("size", 4096.0),
                                         ("cycles_per_byte_x1000", None)])
def test_type_error_wrong_type(field, value):
    r = run_on(line(**dict(GOOD_PRIM, **{field: value})))
    assert_clean(r, TOOL)
    assert r.status == 3 and field in r.err_text


def test_type_error_in_compare_noise():
    bad = dict(GOOD_PRIM, median_ns="x")
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "a")
        with open(p, "wb") as f:
            f.write(line(**bad))
        r = run_tool(TOOL, "--compare", p, p)
    assert_clean(r, TOOL)
    assert r.status == 3


def test_overflow_error_huge_integer():
    r = run_on(line(**dict(GOOD_PRIM, median_mbps=10 ** 400)))
    assert_clean(r, TOOL)
    assert r.status == 3


def test_value_error_nan_and_truncated_record():
    r = run_on(line(**GOOD_PRIM).replace(b"1000", b"NaN"))
    assert_clean(r, TOOL)
    assert r.status == 3
    full = line(**GOOD_PRIM)
    r = run_on(full + full[:40])
    assert_clean(r, TOOL)
    assert r.status == 3 and "line 2" in r.err_text


def test_unicode_decode_error_in_record():
    r = run_on(line(**GOOD_PRIM).replace(b"memcpy_erms", b"memcpy\xff"))
    assert_clean(r, TOOL)
    assert r.status == 3 and "UTF-8" in r.err_text


def test_non_utf8_console_text_is_ignored():
    r = run_on(b"\xff\xfe garbage from the firmware\n" + line(**GOOD_PRIM))
    assert r.status == 0, r


def test_unicode_encode_error_lone_surrogate():
    r = run_on(line(**GOOD_PRIM).replace(b"memcpy_erms", b"memcpy\\ud800"))
    assert_clean(r, TOOL, allowed=(0, 3))


def test_recursion_error_deep_record():
    r = run_on(b'{"schema":1,"kind":"x","deep":' + b"[" * 100000 + b"\n")
    assert_clean(r, TOOL)
    assert r.status == 3


def test_other_schema_is_bad_input():
    r = run_on(line(**GOOD_PRIM).replace(b'"schema": 1', b'"schema": 2'))
    assert_clean(r, TOOL)
    assert r.status == 3 and "schema" in r.err_text


def test_is_a_directory_error():
    with tempfile.TemporaryDirectory() as d:
        r = run_tool(TOOL, d)
        assert_clean(r, TOOL)
        assert r.status == 3
        r = run_tool(TOOL, "--compare", SAMPLE, d)
        assert_clean(r, TOOL)
        assert r.status == 3


def test_file_not_found_error():
    r = run_tool(TOOL, "/nonexistent/bench.log")
    assert_clean(r, TOOL)
    assert r.status == 3


def test_plot_directory_is_a_file():
    r = run_tool(TOOL, SAMPLE, "--plot", SAMPLE)
    assert_clean(r, TOOL)
    assert r.status == 3


def test_closed_pipe_is_not_an_error():
    import subprocess
    import sys
    from conftest import TOOLS
    p = subprocess.Popen([sys.executable, os.path.join(TOOLS, "ck-report.py"), SAMPLE],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.close()
    err = p.stderr.read()
    assert p.wait() == 0 and b"Traceback" not in err
