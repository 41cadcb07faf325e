# SPDX-License-Identifier: GPL-2.0-only
"""cklib.lavajob - one LAVA job as the tools read it: its log (a LAVA server's, as ck-lava.py
fetch wrote it, or lava-run's offline output), its record and its results from the server's
API (cklib.lavaapi's files), and whether those results are the run's own cases, one each.

  log_lines(text, path)   a job log's lines: (lvl, msg) each, from "- {...}" (a server's
                          log) or "{...}" (lava-run's output) lines
  serial(items)           the DUT's serial lines, target and feedback alike (after a monitor
                          ends, LAVA logs what the DUT still prints as feedback)
  log_results(items)      the log's result lines: {definition, case, result, ...}
  job_record(obj, path), results_record(obj, path)
                          lava-job.json and lava-results.json, checked
  lava_name(id)           the case name LAVA stores for a monitor's test_case_id
  agreement(lines, recs)  [problem] between the run's KTAP cases, benchmark figures and soak
                          verdict (from its serial lines) and the server's copykernel* records
  Job                     what a fleet row says of its job: id, device, state, health, the
                          error LAVA gave, the counts of its copykernel results, problems

LAVA keeps a monitor's test_case_id only in a file beside its database: the API's record
holds the case name, test_case_id lower-cased with every run of non-word characters made
"_" (lava_dispatcher/actions/test/monitor.py), so "cpu.identity" is "cpu_identity" there.
A run's ids are matched to those names through that rule, and two ids of one run that give
the same name are reported, not guessed between.
"""
import json
import re
from collections import Counter

from cklib.common import BadInput, loads_strict
from cklib.lavaids import bench_figures, ktap_cases, soak_verdict

# One log line: "- " (a server's log is a YAML list) then a flow mapping that is JSON.
LOG_LINE = re.compile(r"^(?:- )?(\{.*\})\s*$")
# A target or feedback line whose JSON does not load (lava-run writes '"' as '\"' inside a
# target string, which the JSON keeps): the message read as a JSON string alone.
SERIAL_LINE = re.compile(r'^(?:- )?\{"dt": "[^"]*", "lvl": "(target|feedback)", '
                         r'"msg": (".*?")(?:, "ns": "[^"]*")?\}\s*$')
SERIAL_LVLS = ("target", "feedback")
SUITE_PREFIX = "copykernel"
JOB_FIELDS = {"id": int, "state": str, "health": str}


def log_lines(text, path):
    """[(lvl, msg)] of a job log's lines; a line that is no log record is skipped, one that
    looks like a serial line but does not read is bad input."""
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        m = LOG_LINE.match(line)
        if not m:
            continue
        try:
            rec = json.loads(m.group(1))
        except ValueError:
            rec = None
        if isinstance(rec, dict) and isinstance(rec.get("lvl"), str):
            msg = rec.get("msg")
            if rec["lvl"] in SERIAL_LVLS:
                if not isinstance(msg, str):
                    raise BadInput(path, "a %s line whose msg is no text" % rec["lvl"],
                                   "line %d" % n)
                msg = msg.replace('\\"', '"')   # lava-run writes '"' as '\"'
            out.append((rec["lvl"], msg))
            continue
        s = SERIAL_LINE.match(line)
        if s:
            try:
                out.append((s.group(1), json.loads(s.group(2)).replace('\\"', '"')))
            except ValueError:
                raise BadInput(path, "a %s line that is not JSON" % s.group(1), "line %d" % n)
    return out


def serial(items):
    """The serial lines of @items, without LAVA's own input echoed back: a line that repeats
    what LAVA had just written to the console ("poweroff" at the end of a job, the pty's
    echo) is LAVA's, not the machine's."""
    out, sent = [], None
    for lvl, msg in items:
        if lvl == "input" and isinstance(msg, str):
            sent = msg.rstrip("\r\n")
        elif lvl in SERIAL_LVLS:
            if sent is not None and msg.rstrip("\r\n") == sent:
                sent = None
                continue
            sent = None
            out.append(msg)
    return out


def log_results(items):
    return [msg for lvl, msg in items if lvl == "results" and isinstance(msg, dict)]


def lava_name(test_case_id):
    return re.sub(r"\W+", "_", test_case_id.strip().lower())


def job_record(obj, path):
    if not isinstance(obj, dict):
        raise BadInput(path, "not a LAVA job record (an object)")
    for k, t in JOB_FIELDS.items():
        if not isinstance(obj.get(k), t) or isinstance(obj.get(k), bool):
            raise BadInput(path, "not a LAVA job record: %s is not %s" % (
                k, "a number" if t is int else "text"))
    return obj


def results_record(obj, path):
    """lava-results.json: {"job": N, "suites": [...], "tests": [...]} as fetch wrote it;
    returns [(suite name, test record)]."""
    if not isinstance(obj, dict) or not isinstance(obj.get("suites"), list) or \
            not isinstance(obj.get("tests"), list):
        raise BadInput(path, "not ck-lava.py fetch's results (job, suites, tests)")
    names = {}
    for s in obj["suites"]:
        if not isinstance(s, dict) or not isinstance(s.get("id"), int) or \
                not isinstance(s.get("name"), str):
            raise BadInput(path, "a suite without its id and name")
        names[s["id"]] = s["name"]
    out = []
    for t in obj["tests"]:
        if not isinstance(t, dict) or not isinstance(t.get("name"), str) or \
                not isinstance(t.get("result"), str) or t.get("suite") not in names:
            raise BadInput(path, "a test record without its name, result or a known suite")
        out.append((names[t["suite"]], t))
    return out


def expected(lines):
    """{LAVA case id: (result, measurement or None)} the run's serial lines ask for: KTAP
    cases and parameters, benchmark figures, the soak's verdict. Raises ValueError for a
    log whose ids repeat (ktap_cases)."""
    out = {cid: (res, None) for cid, res in ktap_cases(lines).items()}
    for cid, text in bench_figures(lines).items():
        res, value, _ = text.split(" ", 2)
        out[cid] = (res, float(value))
    for cid, res in soak_verdict(lines).items():
        out[cid] = (res, None)
    return out


def agreement(lines, records):
    """[problem]: every id of @lines (the run's serial) must be one record of the copykernel
    suites of @records ([(suite, record)]) with its result (and figure), and no record may be
    left over; [] when they agree."""
    try:
        want = expected(lines)
    except ValueError as e:
        return ["the serial log's KTAP cannot be matched: %s" % e]
    by_name = {}
    bad = []
    for cid in sorted(want):
        name = lava_name(cid)
        if name in by_name:
            bad.append("ids %s and %s are one LAVA case name, %s" % (by_name[name], cid, name))
        by_name[name] = cid
    got = [(t["name"], t) for suite, t in records if suite.startswith(SUITE_PREFIX)]
    count = Counter(name for name, _ in got)
    for name, t in got:
        cid = by_name.get(name)
        if cid is None:
            bad.append("LAVA %s %s: no such case in the serial log" % (name, t["result"]))
            continue
        res, value = want[cid]
        if t["result"] != res:
            bad.append("%s: KTAP %s, LAVA %s" % (cid, res, t["result"]))
        elif value is not None and (t.get("measurement") is None or
                                    float(t["measurement"]) != value):
            bad.append("%s: figure %s, LAVA %s" % (cid, value, t.get("measurement")))
    for name, n in sorted(count.items()):
        if n > 1 and name in by_name:
            bad.append("%s: %d LAVA results" % (by_name[name], n))
    for name in sorted(set(by_name) - set(count)):
        bad.append("%s: KTAP %s, no LAVA result" % (by_name[name], want[by_name[name]][0]))
    return bad


class Job:
    """A LAVA job as a fleet row shows it (ck-report.py --fleet)."""

    def __init__(self):
        self.id = self.device = self.state = self.health = None
        self.error = None           # what LAVA said went wrong, when it did
        self.comment = None         # the job record's failure_comment
        self.results = None         # Counter of the copykernel* records' results
        self.suites = None          # Counter of those records by suite (monitor)
        self.problems = []          # agreement()
        self.source = None          # "api" (fetch's files) or "lava-run" (an offline log)

    def end(self):
        if self.state is None:
            return "-"
        return self.state if self.state != "Finished" else (self.health or "?")

    def as_json(self):
        return {"id": self.id, "device": self.device, "state": self.state,
                "health": self.health, "error": self.error, "comment": self.comment,
                "source": self.source,
                "results": dict(self.results) if self.results is not None else None,
                "suites": dict(self.suites) if self.suites is not None else None,
                "problems": self.problems}


def job_error(results, items):
    """The job's error in words: the lava suite's "job" result (error_type: error_msg) from
    the log, else a note that the dispatcher never wrote one (its log ends without it)."""
    for r in results:
        if r.get("definition") == "lava" and r.get("case") == "job":
            if r.get("result") == "pass":
                return None
            kind, msg = r.get("error_type"), r.get("error_msg")
            return "%s: %s" % (kind or "error", msg or "(no message)")
    last = next((printable(m) for lvl, m in reversed(items)
                 if isinstance(m, str) and printable(m)), None)
    return "no job result in the log: the dispatcher did not finish%s" % (
        " (the log ends at %r)" % last[:80] if last else " (the log is empty)")


def printable(text):
    """@text without terminal escape sequences (the firmware's screen clearing) and other
    control characters, its ends stripped."""
    return re.sub(r"[\x00-\x1f\x7f]", "", re.sub(r"\x1b\[[0-9;=?]*[A-Za-z]", "", text)).strip()


def read_json(data, path):
    try:
        return loads_strict(data)
    except ValueError as e:
        raise BadInput(path, "not JSON: %s" % e)
