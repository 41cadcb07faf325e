# SPDX-License-Identifier: GPL-2.0-only
"""cklib.soak - the bring-up soak seen from the host: the soak= value of a command line and
the monitor timeout a LAVA job needs for it (ck-lava.py), and the image's soak_summary record
read into one row (ck-report.py --fleet).

The soak= value follows docs/user/soak.md: off, one decimal number and one unit (s, m,
h) up to a week, or passes:N. A duration soak stops at the first piece boundary after its
time, so a job's monitor must cover the soak plus the boot, the suites and the report.
"""
import re

WEEK = 7 * 24 * 3600
MAX_PASSES = 100000
UNITS = {"s": 1, "m": 60, "h": 3600}
# Minutes a job's monitor allows beyond the soak's own time: booting and the soak's report
# with tests=none; with suites before the soak, the bring-up preset's 15 minutes more.
MARGIN_ALONE = 10
MARGIN_SUITES = 15
# Kinds of soak event, worst first: the order in which docs/user/soak.md "Thresholds" fails a soak
# (corrected errors fail only above a bucket's threshold, so they rank last).
KINDS = ("uncorrected", "deferred", "miscompares", "stuck_cpus", "corrected")


class SoakValue(ValueError):
    pass


def parse_limit(value):
    """("off"|"time"|"passes", seconds or passes) for a soak= value; SoakValue otherwise."""
    if value == "off":
        return ("off", 0)
    m = re.fullmatch(r"passes:([0-9]{1,9})", value)
    if m:
        n = int(m.group(1))
        if not 1 <= n <= MAX_PASSES:
            raise SoakValue(f"soak={value}: passes:N wants N from 1 to {MAX_PASSES}")
        return ("passes", n)
    m = re.fullmatch(r"([0-9]{1,9})([smh])", value)
    if not m:
        raise SoakValue(f"soak={value}: not off, a duration (30s, 10m, 2h) or passes:N")
    secs = int(m.group(1)) * UNITS[m.group(2)]
    if not 1 <= secs <= WEEK:
        raise SoakValue(f"soak={value}: a soak lasts from 1s to a week (168h)")
    return ("time", secs)


def soak_of(cmdline):
    """The soak= value the image takes from @cmdline (the last soak= word), or None."""
    vals = [w.split("=", 1)[1] for w in cmdline.split() if w.startswith("soak=")]
    return vals[-1] if vals else None


def monitor_minutes(cmdline, given, limit):
    """Minutes for the monitor of a job running @cmdline: @given (--test-minutes) or derived
    from the soak's duration. Raises SoakValue when the soak cannot fit in @limit minutes,
    when @given is shorter than the soak, or when a passes:N soak has no stated time.
    Returns None when @cmdline runs no soak (the caller's default applies)."""
    value = soak_of(cmdline)
    if value is None:
        return given
    kind, n = parse_limit(value)
    if kind == "off":
        return given
    if kind == "passes":
        if given is None:
            raise SoakValue(f"soak={value} has no duration to derive the monitor's timeout "
                            "from: give --test-minutes (how long those passes take here)")
        return given
    tests = [w for w in cmdline.split() if w.startswith("tests=")][-1:]
    margin = MARGIN_ALONE if tests == ["tests=none"] else MARGIN_SUITES
    need = -(-n // 60) + margin
    if need > limit:
        raise SoakValue(f"soak={value} needs a monitor of {need} minutes ({-(-n // 60)} for "
                        f"the soak, {margin} to boot and report), more than LAVA jobs from "
                        f"this tool allow ({limit} minutes = {limit // 60} h): soak shorter "
                        "or in several jobs")
    if given is not None and given < need:
        raise SoakValue(f"--test-minutes {given} is shorter than soak={value} needs "
                        f"({need} minutes with {margin} to boot and report)")
    return given if given is not None else need


def soak_row(rec):
    """One machine's soak from its soak_summary record: verdict, seconds, passes, counts by
    kind and the worst bucket of the ledger (its where text and counts), or None for a record
    that is not a soak summary. A malformed record raises ValueError with the reason."""
    if not isinstance(rec, dict) or rec.get("kind") != "soak_summary":
        return None
    res = rec.get("result")
    if res not in ("PASS", "FAIL"):
        raise ValueError(f"soak_summary result {res!r}, want PASS or FAIL")
    counts = rec.get("counts")
    if not isinstance(counts, dict):
        raise ValueError("soak_summary without its counts object")
    for k in KINDS + ("retired_pages",):
        if not _count(counts.get(k)):
            raise ValueError(f"soak_summary counts.{k} is not a count")
    for k in ("duration_ns", "passes", "bytes_verified"):
        if not _count(rec.get(k)):
            raise ValueError(f"soak_summary {k} is not a count")
    ledger = rec.get("ledger", [])
    if not isinstance(ledger, list) or not all(isinstance(b, dict) for b in ledger):
        raise ValueError("soak_summary ledger is not a list of buckets")
    return {"result": res, "reason": rec.get("reason"), "seconds": rec["duration_ns"] / 1e9,
            "passes": rec["passes"], "bytes_verified": rec["bytes_verified"],
            "counts": {k: counts[k] for k in KINDS + ("retired_pages",)},
            "not_stored": rec.get("not_stored", 0), "worst": worst_bucket(ledger),
            "buckets": buckets_with_events(ledger)}


def buckets_with_events(ledger):
    """Every bucket of the ledger that holds an event, in the ledger's order:
    [{"where": text, "dimm": name or None, "node": n or None, "counts": {kind: n}}]."""
    out = []
    for b in ledger:
        c = {k: b.get(k, 0) for k in KINDS + ("retired_pages",) if _count(b.get(k, 0))}
        if any(c.values()):
            out.append({"where": str(b.get("where", "?")), "dimm": b.get("dimm"),
                        "node": b.get("node"), "counts": c})
    return out


def _count(v):
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def worst_bucket(ledger):
    """The bucket with the worst events (KINDS order, then the most of them), or None when no
    bucket holds any event. {"where": text, "counts": {kind: n}}."""
    best, key = None, None
    for b in ledger:
        c = tuple(b.get(k, 0) if _count(b.get(k, 0)) else 0 for k in KINDS)
        if not any(c):
            continue
        if key is None or c > key:
            best, key = b, c
    if best is None:
        return None
    return {"where": str(best.get("where", "?")),
            "counts": {k: n for k, n in zip(KINDS, key) if n}}


SOAK_HEAD = ("machine", "soak", "duration", "passes", "verified", "uncorrected", "deferred",
             "miscompares", "stuck CPUs", "corrected", "retired pages", "worst bucket")


LEDGER_HEAD = ("machine", "where (DIMM, or node and range)") + KINDS + ("retired_pages",)


def soak_ledger_table(rows, out):
    """The fleet's soak ledger: one line per machine and bucket with events (per DIMM where
    the firmware's map named one, else per node and range), from the soak_summary records."""
    lines = [list(LEDGER_HEAD)]
    for name, s in rows:
        for b in s["buckets"]:
            lines.append([name, b["where"]] + [str(b["counts"].get(k, 0))
                                                for k in KINDS + ("retired_pages",)])
    if len(lines) == 1:
        out.write("soak ledger: no bucket of any machine holds an event\n")
        return
    widths = [max(len(r[i]) for r in lines) for i in range(len(LEDGER_HEAD))]
    for r in lines:
        out.write("  ".join(x.ljust(n) for x, n in zip(r, widths)).rstrip() + "\n")


def soak_table(rows, out):
    """The fleet's soak table: one line per (machine name, soak_row()) in @rows."""
    lines = [list(SOAK_HEAD)]
    for name, s in rows:
        c, w = s["counts"], s["worst"]
        verdict = s["result"] + (" (%s)" % s["reason"] if s["reason"] else "")
        worst = "-" if w is None else "%s: %s" % (w["where"], ", ".join(
            "%s %d" % (k, n) for k, n in w["counts"].items()))
        lines.append([name, verdict, "%.1f s" % s["seconds"], str(s["passes"]),
                      "%.1f MiB" % (s["bytes_verified"] / (1 << 20))] +
                     [str(c[k]) for k in KINDS + ("retired_pages",)] + [worst])
    widths = [max(len(r[i]) for r in lines) for i in range(len(SOAK_HEAD) - 1)]
    for r in lines:
        out.write("  ".join(x.ljust(n) for x, n in zip(r, widths)) + "  " + r[-1] + "\n")
    out.write("soak: the image's soak_summary records; verified: bytes checked against their "
              "pattern; worst bucket: the ledger bucket with the most uncorrected, then "
              "deferred, miscompares, stuck CPUs, corrected events\n")
