# SPDX-License-Identifier: GPL-2.0-only
"""cklib.schema - copykernel's records held to their JSON Schema
(docs/schema/copykernel-records-v1.json, draft 2020-12, Debian's python3-jsonschema).

A stream (a serial log, a host test's output, a .jsonl file) holds records among other lines:
every line holding '{"schema"' is one, from there to the end of the line (a KTAP diagnostic
prefix such as "    # " is allowed before it). A record is checked against the definition its
"kind" names (the run summary has no kind), so a problem is said as the kind's own: which
member is missing, unexpected, or of the wrong type. A whole file that is one JSON object
(tools/ck-results.py's indented summary, ck-report --fleet --json) is one record.
"""
import json
import os
import subprocess
import sys
import tempfile

import jsonschema

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCHEMA_PATH = os.path.join(ROOT, "docs", "schema", "copykernel-records-v1.json")
MARK = '{"schema"'


class Schema:
    """The schema file, with one validator per record kind."""

    def __init__(self, path=SCHEMA_PATH):
        with open(path) as f:
            self.root = json.load(f)
        jsonschema.Draft202012Validator.check_schema(self.root)
        self.version = self.root["properties"]["schema"]["const"]
        resolver = jsonschema.RefResolver.from_schema(self.root)
        self.kinds = {}
        for ref in self.root["oneOf"]:
            name = ref["$ref"].rsplit("/", 1)[1]
            kind = self.kind_of(self.root["$defs"][name])
            self.kinds[kind] = jsonschema.Draft202012Validator(self.root["$defs"][name],
                                                                resolver=resolver)

    def kind_of(self, d):
        """The "kind" a definition holds (None: the summary, which has none)."""
        if "oneOf" in d and "properties" not in d:
            d = self.root["$defs"][d["oneOf"][0]["$ref"].rsplit("/", 1)[1]]
        k = d["properties"].get("kind")
        return k["const"] if k else None

    def problems(self, obj):
        """What is wrong with one record: a list of "member: why" strings, [] when valid."""
        if not isinstance(obj, dict):
            return ["the record is not a JSON object"]
        if obj.get("schema") != self.version or type(obj.get("schema")) is not int:
            return ["schema: %s, this schema describes %d" % (json.dumps(obj.get("schema")),
                                                               self.version)]
        kind = obj.get("kind")
        if kind is not None and not isinstance(kind, str):
            return ["kind: %s is not a string" % json.dumps(kind)]
        v = self.kinds.get(kind)
        if v is None:
            return ["kind: unknown kind %s (the schema has %s)" % (
                json.dumps(kind), ", ".join(sorted(k for k in self.kinds if k)))]
        found = [say(e) for e in fewest(v, obj)]
        if kind is None and found:
            want = self.root["$defs"]["summary"]["required"]
            lacks = sum(k not in obj for k in want)
            if 2 * lacks > len(want):
                return ["kind: missing (only the run summary has none, and this record lacks "
                        "%d of its %d members)" % (lacks, len(want))]
        return found


def fewest(v, obj):
    """The errors of @obj under @v; where the definition is a oneOf of shapes (machine),
    those of the shape it comes nearest to."""
    errs = sorted(v.iter_errors(obj), key=lambda e: list(e.absolute_path))
    out = []
    for e in errs:
        if e.validator == "oneOf" and not e.absolute_path and e.context:
            by = {}
            for sub in e.context:
                by.setdefault(sub.relative_schema_path[0], []).append(sub)
            out += min(by.values(), key=len)
        else:
            out.append(e)
    return out


def member_name(path):
    name = ""
    for p in path:
        name += "[%d]" % p if isinstance(p, int) else ("." if name else "") + str(p)
    return name


def say(e):
    where = member_name(e.absolute_path)
    if e.validator == "required":
        missing = e.message.split("'")[1] if "'" in e.message else e.message
        return "%s: missing (required)" % member_name(list(e.absolute_path) + [missing])
    if e.validator == "additionalProperties":
        return "%s%s" % (where + ": " if where else "", e.message.replace(
            "Additional properties are not allowed", "member not in the schema"))
    if e.validator in ("oneOf", "anyOf") and e.context:
        kinds = sorted({c.message for c in e.context if not c.absolute_path})
        return "%s: %s matches none of: %s" % (where or "record", short(e.instance),
                                              "; ".join(kinds))
    return "%s: %s" % (where or "record", e.message[:300])


def short(v):
    t = json.dumps(v)
    return t if len(t) <= 60 else t[:57] + "..."


def records_of_text(text):
    """(line number, the record's text) for every record line of @text."""
    out = []
    for n, line in enumerate(text.split("\n"), 1):
        at = line.find(MARK)
        if at >= 0:
            out.append((n, line[at:].rstrip("\r").strip()))
    return out


def check_text(schema, text, name):
    """(records seen, ["NAME:LINE: problem"]) for the record lines of one stream."""
    found = []
    recs = records_of_text(text)
    for n, rec in recs:
        try:
            obj = json.loads(rec)
        except ValueError as e:
            found.append("%s:%d: not valid JSON: %s" % (name, n, e))
            continue
        kind = obj.get("kind", "summary") if isinstance(obj, dict) else "?"
        for p in schema.problems(obj):
            found.append("%s:%d: %s record: %s" % (name, n, kind, p))
    return len(recs), found


def check_document(schema, obj, name):
    """The problems of one whole JSON document (a single record)."""
    kind = obj.get("kind", "summary") if isinstance(obj, dict) else "?"
    return ["%s: %s record: %s" % (name, kind, p) for p in schema.problems(obj)]


def check_any(schema, text, name):
    """(records, problems) of one input: one whole JSON object (an indented document) is one
    record, else every record line."""
    stripped = text.strip()
    if stripped.startswith("{") and "\n" in stripped:
        try:
            obj = json.loads(stripped)
        except ValueError:
            obj = None
        if isinstance(obj, dict):
            return 1, check_document(schema, obj, name)
    return check_text(schema, text, name)


def hosted_records(schema, build):
    """make check's runs of the hosted tools, each held to the schema: the soak twin for a
    second, the hosted benchmark's parallel preset at test sizes, the cores twin's verdicts
    and three short rate runs, ck-report --fleet --json of the stored fleets (ck-results'
    summaries are held in the QEMU scenarios that read them).
    Yields (name, exit status, records, problems, the output's last lines)."""
    with tempfile.TemporaryDirectory(prefix="ck-records-") as tmp:
        out = os.path.join(tmp, "out.json")
        runs = [("ck-soak --json", [os.path.join(build, "ck-soak"), "--mib", "16",
                                    "--seconds", "1", "--quiet", "--json", out]),
                ("ck-bench --preset parallel --json", [os.path.join(build, "ck-bench"),
                 "--tiny", "--rounds", "3", "--preset", "parallel", "--json", out]),
                ("ck-cores --json", [os.path.join(build, "ck-cores"), "--runs", "3", "--ms",
                                     "2", "--json", out])]
        for fleet in ("fleet", "soak-fleet"):
            runs.append(("ck-report --fleet tests/data/%s --json" % fleet,
                         [sys.executable, os.path.join(ROOT, "tools", "ck-report.py"),
                          "--fleet", os.path.join(ROOT, "tests", "data", fleet), "--json"]))
        for name, argv in runs:
            if os.path.exists(out):
                os.unlink(out)
            p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, timeout=600)
            text = p.stdout
            if out in argv:
                text = ""
                if os.path.exists(out):
                    with open(out) as f:
                        text = f.read()
            n, problems = check_any(schema, text, name)
            yield name, p.returncode, n, problems, p.stdout.splitlines()[-5:]
