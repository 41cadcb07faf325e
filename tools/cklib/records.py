# SPDX-License-Identifier: GPL-2.0-only
"""cklib.records - the JSON-lines records of copykernel's benchmark output, as ck-report.py
reads them: which fields each kind needs, and the check that refuses a damaged input.

A line holding a JSON object that starts with "schema" is a record, every other line
(console text, KTAP) is ignored. A record line that is cut off, is not UTF-8 or not JSON, or
lacks a field its kind needs raises common.BadInput: a damaged file is not reported as if it
were complete.
"""
import json
import math

from cklib.common import BadInput, loads_strict, os_problem

MARK = b'{"schema"'
STR, SIZE, NUM, BOOL = "a string", "an integer size", "a number", "true or false"
# What each kind of record needs (kinds not listed are read and ignored).
FIELDS = {
    "result": {"api": STR, "primitive": STR, "size": SIZE, "mode": STR, "median_mbps": NUM,
               "stddev_mbps": NUM, "cycles_per_byte_x1000": NUM},
    "comparison": {"api": STR, "mode": STR, "baseline": STR, "candidate": STR, "size": SIZE,
                   "ratio_x1000": NUM, "ci_lo_x1000": NUM, "ci_hi_x1000": NUM,
                   "significant": BOOL},
    "perf-compare": {"primitive": STR, "perf_function": STR, "size": SIZE, "ours_gibps": NUM,
                     "perf_gibps": NUM},
    "perf-twin": {"primitive": STR, "perf_function": STR, "size": SIZE, "buffers": STR,
                  "twin_gibps": NUM, "perf_gibps": NUM, "ratio_x1000": NUM,
                  "ci_lo_x1000": NUM, "ci_hi_x1000": NUM, "significant": BOOL},
}
OPTIONAL = {"result": {"src_node": STR, "dst_node": STR, "median_ns": NUM, "q1_ns": NUM,
                       "q3_ns": NUM}}


def json_type(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    return {str: "a string", int: "an integer", float: "a number", list: "a list",
            dict: "an object", type(None): "null"}.get(type(v), type(v).__name__)


def fits(v, want):
    if want == STR:
        return isinstance(v, str)
    if want == BOOL:
        return isinstance(v, bool)
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return False
    if want == SIZE:
        return isinstance(v, int) and 0 <= v < 1 << 64
    try:
        return math.isfinite(float(v))
    except OverflowError:
        return False


def check_record(obj, path, where):
    """Raise BadInput unless @obj is a record this tool can use (or may ignore)."""
    schema = obj.get("schema")
    if type(schema) is not int or schema != 1:
        raise BadInput(path, "record of schema %s; this tool reads schema 1" %
                       json.dumps(schema), where)
    kind = obj.get("kind")
    if not isinstance(kind, str):
        raise BadInput(path, "record without a \"kind\" string (%s)" % json_type(kind), where)
    for table, required in ((FIELDS.get(kind, {}), True), (OPTIONAL.get(kind, {}), False)):
        for key, want in table.items():
            if key not in obj:
                if required:
                    raise BadInput(path, "%s record lacks \"%s\"" % (kind, key), where)
                continue
            if not fits(obj[key], want):
                raise BadInput(path, "%s record: \"%s\" is %s, want %s" % (
                    kind, key, json_type(obj[key]), want), where)


def records(path):
    """The records of one input, checked; BadInput when the file or a record is damaged."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise BadInput(path, "cannot read: %s" % os_problem(e))
    return parse_records(data, path)


def parse_records(data, path):
    """The records among the lines of @data (bytes), checked; @path names it in errors."""
    out = []
    for n, raw in enumerate(data.split(b"\n"), 1):
        start = raw.find(MARK)
        if start < 0:
            continue
        text = raw[start:].strip().replace(b"\r", b"")
        try:
            line = text.decode("utf-8")
        except UnicodeDecodeError as e:
            raise BadInput(path, "record is not UTF-8 (byte %#04x)" % text[e.start],
                           "line %d, column %d" % (n, start + e.start + 1))
        try:
            obj = loads_strict(line)
        except json.JSONDecodeError as e:
            raise BadInput(path, "record is not valid JSON: %s" % e.msg,
                           "line %d, column %d" % (n, start + e.pos + 1))
        except ValueError as e:
            raise BadInput(path, "record is not valid JSON: %s" % e, "line %d" % n)
        except RecursionError:
            raise BadInput(path, "record nested too deeply", "line %d" % n)
        check_record(obj, path, "line %d" % n)
        out.append(obj)
    return out


def candidate_source(c):
    """The source data a comparison's candidate read where it differs from the baseline's
    ("zero", "constant": the patterns preset's rows of one primitive), else ""."""
    cand = c.get("candidate_src_pattern", "")
    return cand if cand != c.get("src_pattern", cand) else ""


def size_name(n):
    for unit, shift in (("G", 30), ("M", 20), ("K", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return "%d%s" % (n >> shift, unit)
    return str(n)


def gbps(mbps):
    return mbps / 1000.0


def fixed(value, scale, decimals=2):
    """The integer @value / @scale at @decimals, rounded half away from zero, as text: the
    rounding of the image's and the hosted build's tables (bench_fmt_fixed), so a table made
    here from a record prints what theirs printed (a float's "%.2f" of 0.985 is "0.98")."""
    sign = "-" if value < 0 else ""
    q, r = divmod(abs(int(value)) * 10 ** decimals, scale)
    q += 2 * r >= scale
    if not decimals:
        return sign + str(q)
    return "%s%d.%0*d" % (sign, q // 10 ** decimals, decimals, q % 10 ** decimals)


def ratio_text(c, key="ratio", lo="ci_lo", hi="ci_hi"):
    """A comparison record's "1.23x [1.20, 1.26]": from its parts per million when it has
    them (the figures the tables round from), else from its parts per thousand."""
    if all(isinstance(c.get(k + "_ppm"), int) for k in (key, lo, hi)):
        v, low, high, scale = c[key + "_ppm"], c[lo + "_ppm"], c[hi + "_ppm"], 1000000
    else:
        v, low, high, scale = c[key + "_x1000"], c[lo + "_x1000"], c[hi + "_x1000"], 1000
    return "%sx [%s, %s]" % (fixed(v, scale), fixed(low, scale), fixed(high, scale))


def gbps_text(mbps):
    """MB/s as GB/s with two decimals, rounded as the tables round."""
    return fixed(mbps, 1000)



def records_of_lines(lines, path):
    """parse_records() over lines already read (a lava-run log's serial lines)."""
    return parse_records("\n".join(lines).encode("utf-8"), path)

