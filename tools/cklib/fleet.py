# SPDX-License-Identifier: GPL-2.0-only
"""cklib.fleet - ck-report.py --fleet: one row per machine from whatever files it left (the
image's serial log or lava-run's, ck-results.py's summary, the hosted build's JSON lines), with
outliers among the machines of the same CPU model, stale machine-check errors and failed
cases flagged; and a soak table, one row per machine whose logs hold a soak_summary record
(tools/cklib/soak.py), a failed soak flagged.
"""
import hashlib
import math
import os
import re
from collections import Counter, defaultdict

from cklib import lavaapi, lavajob, seriallog
from cklib.common import BadInput, loads_strict, os_problem
from cklib.records import NUM, SIZE, STR, fits, json_type, records, records_of_lines, size_name
from cklib.soak import soak_ledger_table, soak_row, soak_table

# DIR holds one entry per machine: a subdirectory named after it, or files named
# MACHINE.json (ck-results.py's summary), MACHINE.log (a serial log or lava-run's output) and
# MACHINE.jsonl (the hosted build's JSON lines). Every file of a machine adds what it holds.
# A subdirectory that `ck-lava.py fetch` wrote holds one LAVA job: lava-job.json (its record),
# lava-results.json (its results) and lava-log.yaml (its log, the serial lines in it).
LAVA_FILES = (lavaapi.JOB_FILE, lavaapi.RESULTS_FILE, lavaapi.LOG_FILE)

FLEET_Z = 3.5           # robust z-score (0.6745 (x - median) / MAD) beyond which a figure is off
FLEET_FACTOR = 2.0      # ... and only when it is also more than this factor off the median:
                        # runs under TCG on a loaded host scattered by up to 1.7x (tests/data/fleet)
KEY_FIGURES = ("quick/memcpy_erms", "quick/memcpy_orig", "quick/copy_page_rep",
               "quick/copy_mc_fragile", "quick/clear_pages_erms")


class Machine:
    def __init__(self, name):
        self.name = name
        self.sources = []
        self.vendor = self.family = self.model = self.stepping = self.ucode = None
        self.dispatch = {}
        self.mca = None
        self.verdict = None
        self.stale = 0
        self.failed = []
        self.result = None
        self.reason = None      # why the result is ERROR: "cmdline"
        self.cmdline_errors = 0
        self.summary = None     # ck-results.py's JSON summary, when one was given
        self.figures = {}
        self.flags = []
        self.hosted = False
        self.soak = None        # cklib.soak.soak_row() of its soak_summary record
        self.exit = None        # the image's "exit status N (name)" text, when it came
        self.started = False    # the image's first line came (its version line)
        self.lava = None        # cklib.lavajob.Job: the LAVA job that ran it, if one did
        self.lava_results = []  # [(suite, record)]: that job's results, as the API gave them
        self.log_results = []   # [record]: that job's results, as its log gave them
        self.serial = []        # its serial lines (a lava-run log's target lines), in order
        self.records = []       # its JSON-lines records, in the order read
        self.digest = hashlib.sha256()  # over its files' bytes (ids of its KCIDB objects)

    def cpu_key(self):
        """The CPU model peers are grouped by (a hosted run is its own group: figures of a
        Linux process and of the image are not comparable)."""
        if self.vendor is None:
            return "unknown"
        key = self.vendor
        if self.family is not None and self.model is not None:
            key += " %#x/%#x" % (self.family, self.model)
        return key + (" (hosted)" if self.hosted else "")


def fleet_serial(m, lines, path):
    suites = {}     # indent -> the subtest open there
    for _, kind, v in seriallog.read(lines):
        if kind == "cpu":
            m.vendor, m.family, m.model, m.stepping = v.vendor, v.family, v.model, v.stepping
        elif kind == "microcode":
            m.ucode = v
        elif kind == "stale":
            m.stale = v
        elif kind == "dispatch":
            m.dispatch.setdefault(v.name, v.primitive)
            m.dispatch.setdefault("bulk " + v.bulk_name, v.bulk)
        elif kind == "mce_verdict" and v.copy_mc is not None:
            m.verdict = v.copy_mc
        elif kind == "mce_verdict" and v.mca is not None and m.mca is None:
            m.mca = v.mca
        elif kind == "subtest":
            suites[v.indent] = v.name
        elif kind == "result" and not v.ok and v.indent >= 4:
            outer = suites.get(v.indent - 4)
            case = "%s.%s" % (suites.get(v.indent, "?"), v.name)
            m.failed.append("%s.%s" % (outer, case) if outer else case)
        elif kind == "summary":
            m.result = v.result
            m.reason = v.fields.get("reason")
            if v.fields.get("cmdline_errors", "").isdigit():
                m.cmdline_errors = int(v.fields["cmdline_errors"])
        elif kind == "exit":
            m.exit = v
        elif kind == "version":
            m.started = True
    m.serial += lines
    for r in records_of_lines(lines, path):
        fleet_record(m, r, path)


def fleet_record(m, r, path):
    m.records.append(r)
    kind = r.get("kind")
    if kind == "soak_summary":
        try:
            m.soak = soak_row(r)
        except ValueError as e:
            raise BadInput(path, str(e))
    if kind == "quick" and isinstance(r.get("primitive"), str) and \
            fits(r.get("mb_per_s"), NUM):
        m.figures["quick/" + r["primitive"]] = r["mb_per_s"]
    elif kind == "result":
        key = "%s/%s/%s/%s" % (r["api"], r["primitive"], size_name(r["size"]), r["mode"])
        m.figures[key] = r["median_mbps"]
    elif kind == "machine":
        # The image: "machine" is the vendor, with family, model and microcode as numbers;
        # the hosted build: "hosted VENDOR family 0x19 model 0x1", microcode a hex string.
        name = r.get("machine") if isinstance(r.get("machine"), str) else ""
        mt = re.match(r"^(?:hosted )?(\S+) family (0x[0-9a-f]+) model (0x[0-9a-f]+)", name)
        if mt and m.vendor is None:
            m.vendor, m.family, m.model = mt.group(1), int(mt.group(2), 16), int(mt.group(3), 16)
            m.hosted = name.startswith("hosted ")
        elif name and m.vendor is None:
            m.vendor = name
        for k, attr in (("family", "family"), ("model", "model"), ("microcode", "ucode")):
            v = r.get(k)
            if isinstance(v, str) and re.match(r"^0x[0-9a-f]+$", v):
                v = int(v, 16)
            if isinstance(v, int) and not isinstance(v, bool) and getattr(m, attr) is None:
                setattr(m, attr, v)


def fleet_summary(m, obj, path):
    """ck-results.py's JSON summary."""
    if not isinstance(obj, dict) or type(obj.get("schema")) is not int or obj["schema"] != 1 \
            or "status" not in obj:
        raise BadInput(path, "not a ck-results.py summary (schema 1 with a status)")
    cpu = obj.get("cpu") if isinstance(obj.get("cpu"), dict) else {}
    for k, attr, want in (("vendor", "vendor", STR), ("family", "family", SIZE),
                          ("model", "model", SIZE), ("stepping", "stepping", SIZE),
                          ("microcode", "ucode", SIZE)):
        if cpu.get(k) is None:
            continue
        if not fits(cpu[k], want):
            raise BadInput(path, "summary: cpu \"%s\" is %s, want %s" % (
                k, json_type(cpu[k]), want))
        setattr(m, attr, cpu[k])
    if isinstance(obj.get("dispatch"), dict):
        m.dispatch = {k: str(v) for k, v in obj["dispatch"].items()}
    mce = obj.get("mce") if isinstance(obj.get("mce"), dict) else {}
    if m.mca is None and "enabled" in mce:
        m.mca = "MCA %s, %s banks" % ("enabled" if mce["enabled"] else "off",
                                      mce.get("banks", "?"))
    tests = obj.get("tests") if isinstance(obj.get("tests"), dict) else {}
    if tests.get("fail") and not m.failed:
        m.failed.append("%s failed case(s) (summary JSON)" % tests["fail"])
    m.summary = obj
    if type(obj.get("cmdline_errors")) is int and obj["cmdline_errors"] > m.cmdline_errors:
        m.cmdline_errors = obj["cmdline_errors"]
    if m.result is None and isinstance(obj.get("result"), str):
        m.result = obj["result"]
        m.reason = obj.get("reason") if isinstance(obj.get("reason"), str) else None
    elif m.result is None:
        m.result = "PASS" if obj["status"] == 0 else str(obj.get("status_name", obj["status"]))


def fleet_machine(name, files):
    m = Machine(name)
    for path in sorted(files):
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as e:
            raise BadInput(path, "cannot read: %s" % os_problem(e))
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise BadInput(path, "not UTF-8 (byte %#04x at offset %d)" % (data[e.start],
                                                                          e.start))
        base = os.path.basename(path)
        m.sources.append(base)
        m.digest.update(data)
        if base in LAVA_FILES:
            fleet_lava_file(m, base, text, path)
        elif path.endswith(".json"):
            try:
                obj = loads_strict(text)
            except ValueError as e:
                raise BadInput(path, "not JSON: %s" % e)
            fleet_summary(m, obj, path)
        elif path.endswith(".jsonl"):
            for r in records(path):
                fleet_record(m, r, path)
        else:
            lines = text.splitlines()
            if lines and lines[0].startswith('{"dt"'):     # lava-run's output, offline
                fleet_lava_file(m, None, text, path)
            else:
                fleet_serial(m, lines, path)
    if m.lava:
        fleet_lava_job(m)
    return m


def fleet_lava_file(m, base, text, path):
    """One file of a LAVA job: fetch's record, results or log, or lava-run's output."""
    if m.lava is None:
        m.lava = lavajob.Job()
        m.lava.source = "lava-run" if base is None else "api"
    if base == lavaapi.JOB_FILE:
        job = lavajob.job_record(lavajob.read_json(text, path), path)
        m.lava.id, m.lava.state, m.lava.health = job["id"], job["state"], job["health"]
        m.lava.device = job.get("actual_device")
        m.lava.comment = job.get("failure_comment")
    elif base == lavaapi.RESULTS_FILE:
        m.lava_results = lavajob.results_record(lavajob.read_json(text, path), path)
    else:
        items = lavajob.log_lines(text, path)
        m.log_results = lavajob.log_results(items)
        m.lava.error = lavajob.job_error(m.log_results, items)
        fleet_serial(m, lavajob.serial(items), path)


def fleet_lava_job(m):
    """The job's results held to the run's serial lines: from the API's records when fetch
    wrote them, else from the log's result lines (lava-run). A LAVA failure that is no
    failed KTAP case joins the failed cases as "LAVA ID" (a failure counts once)."""
    j = m.lava
    if j.source == "api":
        recs = m.lava_results
    else:
        recs = [(str(r.get("definition", "")), {
            "name": str(r.get("case", "")), "result": str(r.get("result", "")),
            "measurement": r.get("measurement")}) for r in m.log_results]
    mine = [(suite, t) for suite, t in recs if suite.startswith(lavajob.SUITE_PREFIX)]
    j.results = Counter(t["result"] for _, t in mine)
    j.suites = Counter(suite for suite, _ in mine)
    j.problems = lavajob.agreement(m.serial, recs)
    try:
        ktap = lavajob.expected(m.serial)
    except ValueError:
        ktap = {}
    names = {lavajob.lava_name(cid): cid for cid in ktap}
    for _, t in mine:
        cid = names.get(t["name"])
        if t["result"] == "fail" and (cid is None or ktap[cid][0] != "fail"):
            m.failed.append("LAVA " + (cid or t["name"]))


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def fleet_flag(machines):
    """Outliers per CPU model and figure (median and MAD of the peers), stale machine-check
    errors and failed cases; each machine gets its flags."""
    groups = defaultdict(list)
    for m in machines:
        groups[m.cpu_key()].append(m)
    for key, peers in groups.items():
        names = sorted({f for m in peers for f in m.figures})
        for fig in names:
            vals = [(m, m.figures[fig]) for m in peers if fig in m.figures]
            if len(vals) < 3:
                continue
            med = median([v for _, v in vals])
            mad = median([abs(v - med) for _, v in vals])
            for m, v in vals:
                if v > 0 and med > 0:
                    factor = max(v / med, med / v)
                else:
                    factor = 1 if v == med else math.inf
                z = 0.6745 * abs(v - med) / mad if mad else (0 if v == med else math.inf)
                if z > FLEET_Z and factor > FLEET_FACTOR:
                    m.flags.append("outlier %s: %s MB/s, peers' median %s (%+.0f%%, robust z %s)"
                                   % (fig, v, med, 100 * (v - med) / med if med else 0,
                                      "inf" if z == math.inf else "%.1f" % z))
    for m in machines:
        if m.stale:
            m.flags.append("stale machine-check errors: %d bank(s) held errors at boot" %
                           m.stale)
        if m.failed:
            m.flags.append("failed: " + ", ".join(m.failed[:5]) +
                           (" and %d more" % (len(m.failed) - 5) if len(m.failed) > 5 else ""))
        elif m.result is not None and not seriallog.passed(m.result):
            m.flags.append("run result %s%s" % (m.result, " reason=" + m.reason if m.reason
                                                 else ""))
        if m.cmdline_errors:
            m.flags.append("command line: %d error%s (the run is not the one asked for)" % (
                m.cmdline_errors, "" if m.cmdline_errors == 1 else "s"))
        if m.started and m.result is None:
            m.flags.append(unfinished(m))
        if m.soak and m.soak["result"] != "PASS":
            m.flags.append("soak %s: %s" % (m.soak["result"], m.soak["reason"]))


def unfinished(m):
    """The flag of a run whose log has no summary line: it stopped (its exit status says how)
    or its log ends, with the last line the image printed."""
    if m.exit is not None:
        return "unfinished: exit status %s before the run's summary" % m.exit
    last = next((ln for ln in reversed(m.serial) if seriallog.clean(ln).strip()), "")
    return "unfinished: the log ends before the run's summary (last line: %r)" % \
        seriallog.clean(last).strip()[:72]


def fleet_dir(path):
    try:
        entries = sorted(os.listdir(path))
    except OSError as e:
        raise BadInput(path, "cannot read the fleet directory: %s" % os_problem(e))
    per = defaultdict(list)
    for e in entries:
        full = os.path.join(path, e)
        if e.startswith("."):
            continue
        if os.path.isdir(full):
            for f in sorted(os.listdir(full)):
                if f.endswith((".json", ".jsonl", ".log")) or f in LAVA_FILES:
                    per[e].append(os.path.join(full, f))
        elif e.endswith((".json", ".jsonl", ".log")):
            per[e.rsplit(".", 1)[0]].append(full)
    machines = [fleet_machine(name, files) for name, files in sorted(per.items())]
    fleet_flag(machines)
    return machines


def fleet_table(machines, out):
    cols = [f for f in KEY_FIGURES if any(f in m.figures for m in machines)]
    head = ["machine", "CPU", "microcode", "dispatch", "MCA verdict"] + \
        [c.split("/", 1)[1] for c in cols] + ["flags"]
    rows = []
    for m in machines:
        d = m.dispatch
        disp = " ".join("%s=%s" % (k, d[k]) for k in ("copy_page", "memcpy", "copy_mc",
                                                       "clear_page") if k in d) or "-"
        verdict = "; ".join(x for x in (m.mca, m.verdict) if x) or "-"
        flags = "; ".join(m.flags) or "-"
        rows.append([m.name, m.cpu_key(), "-" if m.ucode is None else "%#x" % m.ucode, disp,
                     verdict] + [str(m.figures.get(c, "-")) for c in cols] + [flags])
    widths = [max(len(r[i]) for r in rows + [head]) for i in range(len(head) - 1)]
    for r in [head] + rows:
        out.write("  ".join(c.ljust(w) for c, w in zip(r, widths)) + "  " + r[-1] + "\n")
    out.write("figures: MB/s (quick: 1 MiB cache-warm median of 5); outliers: robust z > %.1f "
              "and more than %gx off the median of the same CPU model (3 or more machines)\n"
              % (FLEET_Z, FLEET_FACTOR))
    soaked = [(m.name, m.soak) for m in machines if m.soak]
    if soaked:
        out.write("\n")
        soak_table(soaked, out)
        out.write("\n")
        soak_ledger_table(soaked, out)
    jobs = [m for m in machines if m.lava]
    if jobs:
        out.write("\n")
        lava_table(jobs, out)


# The LAVA table's heading: what the machine table above does not show (a directory of
# serial logs gives the same machine table without it).
LAVA_HEAD = "LAVA jobs:"


def lava_table(machines, out):
    """One row per machine a LAVA job ran: the job, its device, how it ended, the error LAVA
    gave, its copykernel results and whether they are the run's cases one each."""
    head = ["machine", "job", "device", "end", "results", "KTAP/LAVA", "LAVA's error"]
    rows = []
    for m in machines:
        j = m.lava
        res = " ".join("%s %d" % (k, j.results[k]) for k in ("pass", "fail", "skip", "unknown")
                       if j.results.get(k)) or "none"
        agree = "agree" if not j.problems else "%d problem%s: %s" % (
            len(j.problems), "" if len(j.problems) == 1 else "s", "; ".join(j.problems[:3]))
        rows.append([m.name, "-" if j.id is None else str(j.id), j.device or "-", j.end(), res,
                     agree, j.error or "-"])
    widths = [max(len(r[i]) for r in rows + [head]) for i in range(len(head) - 1)]
    out.write(LAVA_HEAD + "\n")
    for r in [head] + rows:
        out.write("  ".join(c.ljust(w) for c, w in zip(r, widths)) + "  " + r[-1] + "\n")
    out.write("results: the records of the copykernel monitors (the API's, or lava-run's log "
              "lines); KTAP/LAVA: each KTAP case, benchmark figure and soak verdict of the "
              "serial log is one such record with the same result\n")


def fleet_json(machines):
    return {"schema": 1, "kind": "fleet", "z_threshold": FLEET_Z, "factor_threshold": FLEET_FACTOR,
            "machines": [{"machine": m.name, "sources": m.sources, "cpu": m.cpu_key(),
                          "vendor": m.vendor, "family": m.family, "model": m.model,
                          "stepping": m.stepping, "microcode": m.ucode,
                          "dispatch": m.dispatch, "mca": m.mca, "mca_verdict": m.verdict,
                          "stale_mce_banks": m.stale, "failed": m.failed, "result": m.result,
                          "figures": m.figures, "soak": m.soak, "flags": m.flags,
                          "lava": m.lava.as_json() if m.lava else None}
                         for m in machines]}

