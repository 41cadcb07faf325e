# SPDX-License-Identifier: GPL-2.0-only
"""cklib.kcidb - ck-report.py --kcidb: one KernelCI KCIDB I/O document (schema v5.3, the
newest in kernelci/kcidb-io) for a run or a fleet directory, from the machines that
cklib.fleet read.

What maps to what (the user documentation's KCIDB section has the reader's account):
  - one checkout (copykernel's source: the commit given with --git-commit, else the version
    the image printed) and one build per kind of run: the UEFI image, and the hosted
    ck-bench when a machine's files are its JSON lines;
  - a test per KTAP result line (suites, cases, parameters), its path the dotted id the image
    prints for LAVA (suite.case.param, cklib.lavaids.slug per part), its status PASS, FAIL,
    SKIP (a SKIP directive), ERROR (a TIMEOUT or ERROR directive, or a subtest the log ends
    inside of): the run's tests as they ran, and, when its command line had errors, the
    failing command_line test the image prints after them (ERROR); from a ck-results.py
    summary without the serial log, command_line from its cmdline_errors and problems;
  - benchmark figures (quick, result and comparison records) as DONE tests with a number:
    bandwidths in B/s with the metric prefix (the records' MB/s are 10^6 bytes a second),
    ratios without a unit;
  - the cores suite's tests (cores.KERNEL, cores.KERNEL.cpuN_apicM, cores.soak and
    cores.soak.cpuN_apicM, paths and statuses from KTAP as every suite's) carry its records in
    their misc (cores_misc): where each CPU sits (cpu, apic, package, complex, core, thread),
    the kernel's seed, rounds and verdict, a named CPU's digest and its replay (runs, wrong,
    first_wrong_us, class); the soak case its total and each failing pass (pass, seed);
  - the machine-check verdict lines and the stale banks cleared at boot as DONE tests under
    mce., the soak's summary as soak.summary (PASS or FAIL, its duration) and every ledger
    bucket's count of each kind of event as a DONE test soak.ledger.BUCKET.KIND;
  - a run whose log ends before its summary line (it hung, panicked, or its console was cut)
    as one ERROR test "run", saying how it ended, its log's last lines as the excerpt;
  - the machine (name, CPU, brand, microcode, firmware, Secure Boot, memory) as each test's
    environment.
Ids: ORIGIN:COMMIT (or ORIGIN:vVERSION-DIGEST without --git-commit) for the checkout, that
and .image or .hosted for a build, ORIGIN:DIGEST.MACHINE.PATH for a test, DIGEST the sha256 of
the machine's files: the same files give the same ids, so a document sent twice merges; a
path seen again on one machine (it reset and ran its suites twice) gets "#2" in its id.
No issues or incidents: a KCIDB issue is a triage object whose culprit is the tested code,
the tool or the harness, and a failing DIMM is none of those.
"""
import hashlib
import re

from cklib import seriallog
from cklib.fleet import unfinished
from cklib.lavaids import slug
from cklib.records import size_name
from cklib.soak import KINDS

MAJOR, MINOR = 5, 3
ORIGIN_RE = re.compile(r"^[a-z0-9_]+$")
COMMIT_RE = re.compile(r"^[0-9a-f]{40}$")
URL_RE = re.compile(r"^https://[^\0]+$")
EXCERPT_MAX = 16384     # KCIDB's longest log_excerpt
EXCERPT_LINES = 20      # the lines an unfinished run's "run" test quotes from its log's end
ID_DIGITS = 16          # hex digits of a machine's file digest in its tests' ids


class Paths:
    """The ids of one machine's tests: a path seen again (a machine that reset and ran its
    suites twice) keeps its path, its id gets "#2", "#3" (a path holds no '#')."""

    def __init__(self):
        self.seen = {}

    def id_of(self, path):
        n = self.seen.get(path, 0) + 1
        self.seen[path] = n
        return path if n == 1 else "%s#%d" % (path, n)


def ktap_status(ok, directive):
    d = directive.strip().upper()
    if d.startswith("SKIP"):
        return "SKIP"
    if d.startswith(("TIMEOUT", "ERROR")):
        return "ERROR"
    return "PASS" if ok else "FAIL"


def ktap_tests(log):
    """[(path parts, status, name, excerpt lines, directive)] for every KTAP result of
    @log (a cklib.seriallog.Log), and an ERROR for every subtest whose result line never came
    (the log ends, or a new KTAP document starts, inside it). A result's excerpt is the lines
    since the previous result at its indentation (or since its subtest began)."""
    out, open_, since = [], {}, {0: []}     # open_: indent -> name of the subtest open there
    params = {}                             # param -> times seen in the open case

    def cut_off():
        for ind in sorted(open_):
            parts = [slug(open_[i]) for i in sorted(open_) if i <= ind]
            out.append((parts, "ERROR", open_[ind], since.get(ind, []),
                        "the log ends inside this subtest: no result line"))
        open_.clear()

    for line, kind, v in log:
        for buf in since.values():
            buf.append(line)
        if kind == "ktap_start":
            cut_off()
            since, params = {0: [line]}, {}
            continue
        if kind == "subtest":
            open_[v.indent], since[v.indent] = v.name, []
            if v.indent == 8:
                params = {}     # a case's parameters: each name once (the image's rule)
            continue
        if kind != "result":
            continue
        ind = v.indent
        if ind % 4 or ind > 8 or not all(i in open_ for i in range(4, ind + 1, 4)):
            continue
        parts = [slug(open_[i]) for i in range(4, ind + 1, 4)] + [slug(v.name)]
        if ind == 8:
            params[parts[2]] = params.get(parts[2], 0) + 1
            if params[parts[2]] > 1:
                parts[2] += "_%d" % params[parts[2]]
        excerpt, since[ind] = since.get(ind, []), []
        for i in [i for i in open_ if i > ind]:
            del open_[i]
            since.pop(i, None)
        directive = v.directive or ""
        out.append((parts, ktap_status(v.ok, directive), v.name, excerpt, directive))
    cut_off()
    return out


def environment(m, log):
    """The KCIDB environment of machine @m (a cklib.fleet.Machine), @log its serial log."""
    misc = {"machine": m.name, "hosted": m.hosted}
    for k, v in (("vendor", m.vendor), ("family", m.family), ("model", m.model),
                 ("stepping", m.stepping)):
        if v is not None:
            misc[k] = v
    if m.ucode is not None:
        misc["microcode"] = "%#x" % m.ucode
    for _, kind, v in log:
        if kind == "cpu" and v.signature is not None:
            misc["signature"] = v.signature
            misc["hypervisor"] = v.hypervisor
        elif kind in ("firmware", "cmdline", "ram_mib", "cpu_name", "secure_boot"):
            misc[kind] = v
        elif kind == "uefi":
            misc["uefi_revision"] = v
    words = ["%s: %s" % (m.name, m.cpu_key())]
    if m.stepping is not None:
        words.append("stepping %d" % m.stepping)
    for k, what in (("cpu_name", ""), ("microcode", "microcode "), ("firmware", "firmware ")):
        if k in misc:
            words.append(what + misc[k])
    return {"comment": ", ".join(words), "misc": misc}


def number(value, unit=None, prefix=None):
    n = {"value": value}
    if unit:
        n["unit"] = unit
    if prefix:
        n["prefix"] = prefix
    return n


def bench_tests(records):
    """[(path parts, number, misc)] for the quick, result and comparison records."""
    out = []
    for r in records:
        kind = r.get("kind")
        if kind == "quick" and isinstance(r.get("mb_per_s"), (int, float)):
            out.append((["bench", "quick", slug(str(r.get("primitive")))],
                        number(r["mb_per_s"] * 1000000, "B/s", "metric"),
                        {k: r[k] for k in ("bytes", "runs", "median_ns") if k in r}))
        elif kind == "result":
            nodes = "%s-%s" % (r.get("src_node", "node0"), r.get("dst_node", "node0"))
            out.append((["bench", slug(r["api"]), slug(r["primitive"]), slug(nodes),
                         slug(size_name(r["size"])), slug(r["mode"])],
                        number(r["median_mbps"] * 1000000, "B/s", "metric"),
                        {k: r[k] for k in ("runs", "stddev_mbps", "median_ns", "q1_ns",
                                           "q3_ns", "cycles_per_byte_x1000") if k in r}))
        elif kind == "comparison":
            out.append((["bench", slug(r["api"]), "%s_vs_%s" % (slug(r["candidate"]),
                                                                slug(r["baseline"])),
                         slug(size_name(r["size"])), slug(r["mode"])],
                        number(r["ratio_x1000"] / 1000),
                        {"ci_lo": r["ci_lo_x1000"] / 1000, "ci_hi": r["ci_hi_x1000"] / 1000,
                         "significant": r["significant"]}))
    return out


def bucket_slug(where):
    return slug(re.sub(r"\s*\(.*\)\s*$", "", where))


def soak_tests(records):
    """[(path parts, fields)] for the soak_summary records: the summary and the ledger."""
    out = []
    for r in records:
        if r.get("kind") != "soak_summary":
            continue
        misc = {k: r[k] for k in ("passes", "cpus", "bytes_verified", "ce_threshold",
                                  "not_stored", "counts") if r.get(k) is not None}
        summary = {"status": r["result"], "duration": r["duration_ns"] / 1e9, "misc": misc}
        if r.get("reason"):
            summary["comment"] = str(r["reason"])
        out.append((["soak", "summary"], summary))
        for b in r.get("ledger", []):
            where = str(b.get("where", "?"))
            info = {k: b[k] for k in ("type", "where", "dimm", "node", "umc")
                    if b.get(k) is not None}
            for k in KINDS + ("retired_pages",):
                n = b.get(k, 0)
                if isinstance(n, int) and not isinstance(n, bool) and n > 0:
                    out.append((["soak", "ledger", bucket_slug(where), k], {
                        "status": "DONE", "comment": "%s: %s %d" % (where, k, n),
                        "number": number(n, "pages" if k == "retired_pages" else "events"),
                        "misc": info}))
    return out


CORES_KERNEL_KEYS = ("kernel", "family", "seed", "rounds", "verdict", "known", "cpus",
                     "named_total", "mca_total")
CORES_SOAK_KEYS = ("result", "seed", "seconds", "elapsed_ms", "passes", "failing_passes",
                   "soak_failing_passes", "first_failing_pass", "first_failing_seed",
                   "named_total")


def cores_cpu_misc(cpu, apic, where):
    """A CPU's misc: its number and APIC id, and where it sits when a cores_cpu record said."""
    misc = {"cpu": cpu, "apic": apic}
    misc.update({k: where[k] for k in ("package", "complex", "core", "thread") if k in where})
    return misc


def cores_replay_misc(r, cpu):
    """What the replay of kernel record @r says of CPU @cpu, or None."""
    p = r.get("replay")
    if not isinstance(p, dict):
        return None
    if p.get("cpu") == cpu:
        out = {"role": "named"}
        out.update({k: p[k] for k in ("runs", "wrong", "first_wrong_us", "class",
                                      "other_cpu", "other_wrong", "other_rel",
                                      "sibling_cpu", "sibling_wrong", "near_cpu",
                                      "near_wrong", "near_rel") if k in p})
        return out
    if p.get("other_cpu") == cpu:
        return {"role": "distant", "runs": p.get("runs"), "wrong": p.get("other_wrong"),
                "relation": p.get("other_rel"), "class": p.get("class")}
    if p.get("near_cpu") == cpu:
        return {"role": "distant", "runs": p.get("runs"), "wrong": p.get("near_wrong"),
                "relation": p.get("near_rel"), "class": p.get("class")}
    if p.get("sibling_cpu") == cpu:
        return {"role": "smt_sibling", "runs": p.get("runs"), "wrong": p.get("sibling_wrong"),
                "class": p.get("class")}
    return None


def cores_misc(records):
    """{test path: misc} for the cores suite's KTAP tests, from its records: a kernel's case
    and each CPU's parameter of it (pass 1: the records without a soak pass, or pass 1), the
    soak case and each CPU's parameter of it (the cores_soak total, the failing passes'
    records). Values are the records' own; nothing null."""
    def clean(d):
        return {k: v for k, v in d.items() if v is not None}

    where = {r["cpu"]: r for r in records
             if r.get("kind") == "cores_cpu" and isinstance(r.get("cpu"), int)}
    out, failing = {}, []
    for r in records:
        kind = r.get("kind")
        if kind == "cores" and isinstance(r.get("kernel"), str):
            if r.get("pass", 1) != 1:
                failing.append(r)
                continue
            case = "cores." + slug(r["kernel"])
            out[case] = {k: r[k] for k in CORES_KERNEL_KEYS if k in r}
            if isinstance(r.get("replay"), dict):
                out[case]["replay"] = r["replay"]
            named = {n.get("cpu"): n for n in r.get("named", []) if isinstance(n, dict)}
            for cpu, w in where.items():
                misc = cores_cpu_misc(cpu, w.get("apic"), w)
                misc.update({k: r[k] for k in ("kernel", "seed", "rounds", "verdict", "known")
                             if k in r})
                if cpu in named:
                    misc["named"] = True
                    misc["digest"] = named[cpu].get("digest")
                replay = cores_replay_misc(r, cpu)
                if replay:
                    misc["replay"] = clean(replay)
                out["%s.cpu%d_apic%s" % (case, cpu, w.get("apic"))] = clean(misc)
        elif kind == "cores_soak":
            out["cores.soak"] = {k: r[k] for k in CORES_SOAK_KEYS if k in r}
            passes = {n.get("cpu"): n.get("passes") for n in r.get("named", [])
                      if isinstance(n, dict)}
            for cpu, w in where.items():
                misc = cores_cpu_misc(cpu, w.get("apic"), w)
                misc["named_passes"] = passes.get(cpu, 0)
                misc["soak_passes"] = r.get("passes")
                out["cores.soak.cpu%d_apic%s" % (cpu, w.get("apic"))] = clean(misc)
    if "cores.soak" in out:
        out["cores.soak"]["failing"] = [clean({"pass": f.get("pass"), "seed": f.get("seed"),
                                               "kernel": f.get("kernel"),
                                               "verdict": f.get("verdict"),
                                               "named": [n.get("cpu") for n in f.get("named", [])
                                                         if isinstance(n, dict)]})
                                        for f in failing]
        for f in failing:
            for n in [n for n in f.get("named", []) if isinstance(n, dict)]:
                cpu = n.get("cpu")
                key = "cores.soak.cpu%s_apic%s" % (cpu, n.get("apic"))
                if key in out:
                    out[key].setdefault("failing", []).append(clean({
                        "pass": f.get("pass"), "seed": f.get("seed"), "kernel": f.get("kernel"),
                        "digest": n.get("digest"),
                        "replay": clean(cores_replay_misc(f, cpu) or {}) or None}))
    return out


def mce_tests(log):
    """[(path parts, fields)]: the verdict lines as one test, the stale banks as another."""
    verdict, stale = [v.text for v in log.all("mce_verdict")], log.first("stale")
    out = []
    if verdict:
        copy_mc = [v for v in verdict if v.startswith("copy_mc_to_kernel")]
        out.append((["mce", "verdict"], {"status": "DONE", "comment": (copy_mc or verdict)[-1],
                                         "misc": {"lines": verdict}}))
    if stale is not None:
        out.append((["mce", "stale_banks"], {
            "status": "DONE", "number": number(stale, "banks"),
            "comment": "%d bank(s) held errors at boot, cleared" % stale}))
    return out


def summary_cmdline(obj):
    """The command line's ERROR test from ck-results.py's summary @obj (a machine whose serial
    log, with its failing command_line KTAP test, is not among its files), or None."""
    n = obj.get("cmdline_errors") if isinstance(obj, dict) else None
    if type(n) is not int or n <= 0:
        return None
    problems = [p for p in obj.get("cmdline_problems") or [] if isinstance(p, str)]
    return {"status": "ERROR",
            "comment": "%d command-line error%s: not the run that was asked for" % (
                n, "" if n == 1 else "s"),
            "misc": {"problems": problems, "result": obj.get("result")}}


def machine_tests(m, log, origin, build_id):
    """Every KCIDB test of machine @m, @log its serial log."""
    key = m.digest.hexdigest()[:ID_DIGITS]
    env, paths, out = environment(m, log), Paths(), []

    def add(parts, source, fields):
        path = ".".join(parts)
        t = {"id": "%s:%s.%s.%s" % (origin, key, m.name, paths.id_of(path)), "origin": origin,
             "build_id": build_id, "path": path, "environment": env}
        t.update(fields)
        t["misc"] = dict(fields.get("misc", {}), source=source)
        for k in ("comment", "log_excerpt"):    # KCIDB's text fields hold no NUL
            if k in t:
                t[k] = t[k].replace("\0", "")
        out.append(t)

    cores = cores_misc(m.records)
    for parts, status, name, excerpt, directive in ktap_tests(log):
        fields = {"status": status, "comment": name + (" # " + directive if directive else "")}
        if status in ("FAIL", "ERROR") and excerpt:
            fields["log_excerpt"] = "\n".join(excerpt)[-EXCERPT_MAX:]
        if ".".join(parts) in cores:
            fields["misc"] = cores[".".join(parts)]
        add(parts, "ktap", fields)
    if "command_line" not in paths.seen and (fields := summary_cmdline(m.summary)):
        add(["command_line"], "summary", fields)
    for parts, num, misc in bench_tests(m.records):
        add(parts, "bench", {"status": "DONE", "number": num, "misc": misc})
    for parts, fields in mce_tests(log):
        add(parts, "mce", fields)
    for parts, fields in soak_tests(m.records):
        add(parts, "soak", fields)
    if m.started and m.result is None:
        # The image began and its log ends before the run's summary (a hang, a panic, a
        # console cut off): one ERROR test says so, whatever else the log held.
        tail = [ln for ln in log.lines if ln.strip()][-EXCERPT_LINES:]
        add(["run"], "run", {"status": "ERROR", "comment": unfinished(m),
                             "log_excerpt": "\n".join(tail)[-EXCERPT_MAX:]})
    return out


def document(machines, origin="copykernel", commit=None, url=None):
    """The KCIDB I/O document (a dict) for @machines (cklib.fleet.Machine, one or more)."""
    logs = [seriallog.read(m.serial) for m in machines]
    versions = sorted({v for log in logs for v in log.all("version")})
    if commit:
        key = commit
    else:
        h = hashlib.sha256()
        for m in machines:
            h.update(m.digest.digest())
        key = "%s-%s" % ("v" + "+".join(versions) if versions else "unversioned",
                         h.hexdigest()[:ID_DIGITS])
    checkout = {"id": "%s:%s" % (origin, key), "origin": origin, "tree_name": "copykernel",
                "valid": True,
                "comment": "copykernel %s%s" % ("+".join(versions) or "(version not printed)",
                                                "" if commit else " (no commit given)")}
    if commit:
        checkout["git_commit_hash"] = commit
    if url:
        checkout["git_repository_url"] = url
    builds, tests = {}, []
    for m, log in zip(machines, logs):
        kind = "hosted" if m.hosted else "image"
        if kind not in builds:
            builds[kind] = {
                "id": "%s:%s.%s" % (origin, key, kind), "origin": origin,
                "checkout_id": checkout["id"], "architecture": "x86_64", "status": "PASS",
                "config_name": kind,
                "comment": "the UEFI image (copykernel.efi)" if kind == "image" else
                           "the hosted benchmark (build/ck-bench, a Linux process)"}
        tests += machine_tests(m, log, origin, builds[kind]["id"])
    return {"version": {"major": MAJOR, "minor": MINOR}, "checkouts": [checkout],
            "builds": list(builds.values()), "tests": tests}
