# SPDX-License-Identifier: GPL-2.0-only
"""cklib.lab - make lab-check's plan and its judgement, apart from the processes it runs
(tools/ck-lab.py): the devices, the jobs it queues together and what each must show, and the
checks that the fleet report and the KCIDB document made from the server's results are the
ones made from the same jobs' serial logs.

  DEVICES, FLEET, FAULT   the devices (name, dictionary in lava/devices, tag) and the jobs
  expect(plan, machine)   [problem]: how @machine (a ck-report.py --fleet --json machine)
                          differs from what its job's kind must show
  machine_table(text)     a fleet report without its LAVA table (what serial logs give too)
  same_machines(a, b)     [problem] between two --fleet --json documents, LAVA aside
  kcidb_key(doc)          a KCIDB document with each test id's file digest blanked: the
                          same runs read from other files give the same key
  kcidb_lava(doc, lava)   [problem]: each copykernel LAVA record of a KTAP case is one
                          KCIDB test with that case's status, and no KTAP case test is left
"""
import copy
import re
from collections import Counter, namedtuple

from cklib.fleet import LAVA_HEAD
from cklib.lavajob import SUITE_PREFIX, lava_name

# name on the server, dictionary (lava/devices/NAME.jinja2), the tag jobs can ask for
Device = namedtuple("Device", "name dictionary tag")
DEVICES = (Device("ck-penryn-01", "qemu-penryn", "penryn"),
           Device("ck-epyc-01", "qemu-epyc", "epyc"))

# label (a fleet row's name), command line, device tags, minutes of the monitor (None: from
# the soak's length), what it must show
Plan = namedtuple("Plan", "label cmdline tags minutes expect")
DEFAULT = "tests=cmdline,cpu,tsc,mce exit=auto"
FLEET = (
    Plan("default-penryn", DEFAULT, ("penryn",), 4, "pass"),
    Plan("default-epyc", DEFAULT, ("epyc",), 4, "pass"),
    Plan("soak", "tests=cmdline soak=20s exit=auto", (), None, "soak"),
    Plan("fail", "tests=cmdline,deliberate crash=fail exit=auto", (), 3, "fail"),
    Plan("hang", "tests=cmdline crash=hang exit=auto", (), 1, "hang"),
    Plan("refused", "tests=cmdline frobnicate=1 exit=auto", (), 3, "refused"),
    Plan("bench", "tests=cpu bench=clear bench_tiny=yes bench_runs=3 exit=auto", (), 6,
         "bench"),
)
# The job the worker is stopped under: long enough to be stopped in its soak.
FAULT = Plan("fault", "tests=cmdline soak=2m exit=auto", (), None, "fault")

EXPECT = {
    "pass": "Complete; every KTAP case passes or skips, each one LAVA result",
    "soak": "Complete; the soak's verdict PASS, also as LAVA's soak result",
    "fail": "Complete; deliberate.fails_on_purpose the one failure, in KTAP and in LAVA",
    "hang": "Incomplete by the monitor's timeout; the report says the run did not finish",
    "refused": "the bad word makes the run's verdict ERROR and a failing LAVA result",
    "bench": "Complete; every benchmark figure one copykernel-bench result with its value",
    "fault": "Incomplete by the server's rules once the worker is back; the report says the "
             "run did not finish",
}


def flags_like(m, prefix):
    return [f for f in m.get("flags", []) if f.startswith(prefix)]


def expect(plan, m):
    """[problem] of fleet machine @m (a dict of ck-report.py --fleet --json) against
    @plan.expect. Outlier flags are not judged: quick figures under TCG on a loaded host
    scatter (tests/data/fleet/README.md)."""
    j = m.get("lava")
    if not j:
        return ["no LAVA job"]
    bad = ["KTAP/LAVA: " + p for p in j["problems"]]
    res = Counter(j.get("results") or {})
    kind = plan.expect
    want_health = "Incomplete" if kind in ("hang", "fault") else "Complete"
    if j.get("state") != "Finished" or j.get("health") != want_health:
        bad.append("ended %s %s, want Finished %s" % (j.get("state"), j.get("health"),
                                                      want_health))
    unfinished = flags_like(m, "unfinished: ")
    if kind in ("hang", "fault"):
        if not unfinished:
            bad.append("no 'unfinished' flag: %s" % m.get("flags"))
        if kind == "hang" and "timed out" not in (j.get("error") or ""):
            bad.append("LAVA's error does not say the monitor timed out: %r" % j.get("error"))
        if kind == "fault" and not (j.get("error") or "").startswith("no job result"):
            bad.append("LAVA's error is not the missing job result: %r" % j.get("error"))
        return bad
    if unfinished:
        bad.append(unfinished[0])
    if kind == "bench" and not (j.get("suites") or {}).get(SUITE_PREFIX + "-bench"):
        bad.append("no copykernel-bench result: %s" % j.get("suites"))
    if kind in ("pass", "soak", "bench"):
        if res["fail"] or m.get("failed") or flags_like(m, "run result "):
            bad.append("a failure: %s" % "; ".join(m.get("flags", [])))
        if not res["pass"]:
            bad.append("no passing LAVA result")
    if kind == "soak" and (m.get("soak") or {}).get("result") != "PASS":
        bad.append("soak verdict %r" % (m.get("soak") or {}).get("result"))
    if kind == "fail":
        if m.get("failed") != ["deliberate.fails_on_purpose"] or res["fail"] != 1:
            bad.append("failed %s and %d LAVA failures, want deliberate.fails_on_purpose "
                       "once" % (m.get("failed"), res["fail"]))
    if kind == "refused":
        if not flags_like(m, "run result ERROR"):
            bad.append("no 'run result ERROR' flag: %s" % m.get("flags"))
        if not res["fail"]:
            bad.append("no failing LAVA result")
    return bad


def machine_table(text):
    """A --fleet report without the LAVA table at its end."""
    at = text.find("\n\n" + LAVA_HEAD + "\n")
    return text if at < 0 else text[:at + 1]


def same_machines(a, b):
    """[problem] between two --fleet --json documents, each machine compared on all it says
    but the files it came from and its LAVA job."""
    def rows(doc):
        return {m["machine"]: {k: v for k, v in m.items() if k not in ("sources", "lava")}
                for m in doc["machines"]}
    ra, rb = rows(a), rows(b)
    bad = ["%s: in one report only" % n for n in sorted(set(ra) ^ set(rb))]
    for n in sorted(set(ra) & set(rb)):
        for k in sorted(set(ra[n]) | set(rb[n])):
            if ra[n].get(k) != rb[n].get(k):
                bad.append("%s: %s %r against %r" % (n, k, ra[n].get(k), rb[n].get(k)))
    return bad


DIGEST_ID = re.compile(r"^([a-z0-9_]+):[0-9a-f]{16}\.")


def kcidb_key(doc):
    d = copy.deepcopy(doc)
    for t in d.get("tests", []):
        t["id"] = DIGEST_ID.sub(r"\1:*.", t["id"])
    return d


# A LAVA result and the KCIDB statuses that say the same (a KTAP ERROR is a LAVA fail).
KCIDB_OF = {"pass": ("PASS",), "fail": ("FAIL", "ERROR"), "skip": ("SKIP",)}
CUT_OFF = "the log ends inside this subtest"
# The monitors whose results are KTAP cases: the suites' and the soak's (its KTAP document
# and its verdict, which is the soak suite's own result line); copykernel-bench's are figures.
KTAP_SUITES = (SUITE_PREFIX, SUITE_PREFIX + "-soak")


def kcidb_lava(doc, lava):
    """[problem]: @lava maps machine -> [(suite, record)] (fetch's lava-results.json, read by
    cklib.lavajob.results_record). Every record of the KTAP monitors is exactly one
    KTAP test of its machine in @doc, with a status that says the same; every KTAP test of
    a case or parameter (two or more parts; not one the log ends inside of, which LAVA never
    saw the end of) is one record. A suite's own result is no LAVA result."""
    bad = []
    for machine, recs in sorted(lava.items()):
        tests = [t for t in doc["tests"] if t["environment"]["misc"]["machine"] == machine and
                 t["misc"]["source"] == "ktap" and CUT_OFF not in t.get("comment", "")]
        kcidb = Counter(lava_name(t["path"]) for t in tests)
        status = {lava_name(t["path"]): t["status"] for t in tests}
        cases = {lava_name(t["path"]) for t in tests if "." in t["path"]}
        mine = Counter()
        for suite, t in recs:
            if suite not in KTAP_SUITES:
                continue
            name = t["name"]
            mine[name] += 1
            if kcidb[name] != 1:
                bad.append("%s: LAVA %s is %d KCIDB tests" % (machine, name, kcidb[name]))
            elif status[name] not in KCIDB_OF.get(t["result"], ()):
                bad.append("%s: LAVA %s %s, KCIDB %s" % (machine, name, t["result"],
                                                          status[name]))
        for name in sorted(cases - set(mine)):
            bad.append("%s: KCIDB test %s has no LAVA result" % (machine, name))
        for name, n in sorted(mine.items()):
            if n > 1:
                bad.append("%s: LAVA %s %d times" % (machine, name, n))
    return bad
