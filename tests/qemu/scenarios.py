#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""scenarios.py - the table of QEMU scenarios (tests/qemu/scenarios.cfg): its reader, its own
check, and the one runner that boots a row and applies what the row declares.

The table says how each scenario boots and what its boot must show; the topic files
(tests/qemu/*_tests.py) hold only what a table cannot say: named check functions (a row's
`check =`, run after the declared checks) and whole scenarios that boot more than once or
build their own input (a row's `code =`). tools/check.py runs the rows and, in make check,
self_check(): the table's own check and a scratch table that must fail it. Run as a program
this file checks a table (`--check [FILE]`) or prints it (`--list`).
"""
import argparse
import importlib
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import qemu_boot  # noqa: E402

TABLE = os.path.join(HERE, "scenarios.cfg")
STATUSES = {"PASS": qemu_boot.PASS, "FAIL": qemu_boot.FAIL, "PANIC": qemu_boot.PANIC,
            "CMDLINE": qemu_boot.CMDLINE, "RESET": qemu_boot.RESET,
            "STOPPED": qemu_boot.STOPPED, "TIMEOUT": qemu_boot.TIMEOUT}
# Every key a row may hold: (required, allowed in a `code =` row, what it is).
KEYS = {
    "description": (True, True, "one line: what the scenario shows (its result's name)"),
    "groups": (True, True, "words, each declared in [@groups]"),
    "timeout": (True, True, "seconds each boot may take (tools/ck-run.py --timeout)"),
    "code": (False, True, "module.function [ARG...]: a scenario that boots itself"),
    "cpu": (False, False, "the -cpu model (default max)"),
    "smp": (False, False, "CPUs (tools/ck-run.py --smp; default 1)"),
    "mem": (False, False, "memory (default 512M)"),
    "cmdline": (False, False, "the image's command line (default: empty)"),
    "runner": (False, False, "more tools/ck-run.py arguments, shell words"),
    "qemu": (False, False, "QEMU arguments, one --qemu-arg per line"),
    "status": (False, False, "the exit status: " + ", ".join(STATUSES)),
    "has": (False, False, "regular expressions the serial log must match, one a line"),
    "lacks": (False, False, "regular expressions it must not match, one a line"),
    "stderr": (False, False, "regular expressions tools/ck-run.py's own messages must match"),
    "ktap": (False, False, "yes (structure and summary), strict (and ktap-check --strict), "
                           "no (default)"),
    "failed": (False, False, "with ktap: the failed cases the summary must count (default 0)"),
    "check": (False, False, "module.function [ARG...], one a line: called with the Boot "
                            "and the ARGs after the declared checks"),
}
DEFAULTS = {"cpu": "max", "smp": "1", "mem": "512M", "cmdline": "", "ktap": "no", "failed": "0"}


class Row(dict):
    """One scenario: its keys as written (continuation lines joined by newlines)."""

    def __init__(self, name, line):
        super().__init__()
        self.name, self.line = name, line

    def get_value(self, key):
        return self.get(key, DEFAULTS.get(key, ""))

    def lines(self, key):
        return [v for v in self.get(key, "").split("\n") if v]

    def description(self):
        return " ".join(self.lines("description"))


def parse(path):
    """(rows, declared groups {name: text}, problems) of the table at @path.

    The format: '[name]' opens a row, 'key = value' sets a key, a line indented by
    whitespace continues the key before it (one regex or one QEMU argument a line), and a
    line starting with '#' in the first column is a comment. Nothing else is special:
    regexes are written as Python reads r"..." strings, '#' and ';' inside them included."""
    rows, groups, problems = [], {}, []
    row = key = None
    with open(path) as f:
        text = f.read().split("\n")
    for n, raw in enumerate(text, 1):
        if not raw.strip() or raw.startswith("#"):
            continue
        where = "%s:%d" % (os.path.basename(path), n)
        if raw[0] in " \t":
            if row is None or key is None:
                problems.append("%s: a continuation line with no key before it" % where)
            else:
                row[key] += "\n" + raw.strip()
            continue
        m = re.fullmatch(r"\[([@A-Za-z0-9_]+)\]\s*", raw)
        if m:
            row, key = Row(m.group(1), n), None
            rows.append(row)
            continue
        m = re.fullmatch(r"([a-z_]+)\s*=\s*(.*?)\s*", raw)
        if not m or row is None:
            problems.append("%s: neither '[name]', 'key = value' nor an indented "
                            "continuation: %r" % (where, raw))
            continue
        key = m.group(1)
        if key in row:
            problems.append("%s: [%s] sets %s twice" % (where, row.name, key))
        row[key] = m.group(2)
    found = []
    for r in rows:
        if r.name == "@groups":
            groups.update({k: " ".join(r.lines(k)) for k in r})
        else:
            found.append(r)
    return found, groups, problems


def resolve(spec):
    """The function a `check =` or `code =` value names, and its string arguments."""
    words = spec.split()
    module, _, fn = words[0].rpartition(".")
    return getattr(importlib.import_module(module), fn), words[1:]


def check_row(r, groups, problems):
    where = "[%s] (line %d)" % (r.name, r.line)
    for k in r:
        if k not in KEYS:
            problems.append("%s: unknown key %r (known: %s)" % (where, k, ", ".join(KEYS)))
        elif "code" in r and not KEYS[k][1]:
            problems.append("%s: %s does not go with code = (the function boots itself)"
                            % (where, k))
    for k, (required, _, _) in KEYS.items():
        if required and not r.get(k, "").strip():
            problems.append("%s: no %s" % (where, k))
    if "code" not in r and "status" not in r:
        problems.append("%s: no status (or code)" % where)
    if not re.fullmatch(r"[A-Za-z0-9_]+", r.name):
        problems.append("%s: a name is letters, digits and '_'" % where)
    if r.get("timeout") and not re.fullmatch(r"[1-9]\d*", r["timeout"]):
        problems.append("%s: timeout %r is not a whole number of seconds" % (where, r["timeout"]))
    if not re.fullmatch(r"[1-9]\d*", r.get_value("smp")):
        problems.append("%s: smp %r is not a CPU count" % (where, r["smp"]))
    if r.get_value("ktap") not in ("yes", "strict", "no"):
        problems.append("%s: ktap %r is not yes, strict or no" % (where, r["ktap"]))
    if not re.fullmatch(r"\d+", r.get_value("failed")):
        problems.append("%s: failed %r is not a count" % (where, r["failed"]))
    if "status" in r and r["status"] not in STATUSES:
        problems.append("%s: status %r is not one of %s" % (where, r["status"],
                                                              ", ".join(STATUSES)))
    for g in r.get("groups", "").split():
        if g not in groups:
            problems.append("%s: group %r is not declared in [@groups]" % (where, g))
    for k in ("has", "lacks", "stderr"):
        for pat in r.lines(k):
            try:
                re.compile(pat, re.M)
            except re.error as e:
                problems.append("%s: %s /%s/: %s" % (where, k, pat, e))
    if len(r.lines("code")) > 1:
        problems.append("%s: code names one function" % where)
    for k in ("check", "code"):
        for spec in r.lines(k):
            try:
                resolve(spec)
            except (ImportError, AttributeError, ValueError) as e:
                problems.append("%s: %s %r does not name a function: %s" % (where, k, spec, e))
    try:
        shlex.split(r.get("runner", ""))
    except ValueError as e:
        problems.append("%s: runner: %s" % (where, e))


def unlisted_functions(rows, folder):
    """t_* functions of folder/*_tests.py that no row's code = names: a scenario the table
    would never run (one added beside the others and not given its row)."""
    named = {r["code"].split()[0] for r in rows if r.get("code")}
    missing = []
    for path in sorted(os.listdir(folder)):
        if not path.endswith("_tests.py"):
            continue
        with open(os.path.join(folder, path)) as f:
            for n, line in enumerate(f, 1):
                m = re.match(r"def (t_\w+)\(", line)
                if m and "%s.%s" % (path[:-3], m.group(1)) not in named:
                    missing.append("%s:%d: %s has no row in the table (code = %s.%s)"
                                   % (path, n, m.group(1), path[:-3], m.group(1)))
    return missing


def check_table(path=TABLE, folder=HERE):
    """Every problem of the table at @path; empty when it is sound."""
    rows, groups, problems = parse(path)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    seen = {}
    for r in rows:
        if r.name in seen:
            problems.append("[%s] (line %d): a second row of that name (first at line %d)"
                            % (r.name, r.line, seen[r.name]))
        seen.setdefault(r.name, r.line)
        check_row(r, groups, problems)
    if not rows:
        problems.append("no scenarios")
    used = {g for r in rows for g in r.get("groups", "").split()}
    for g in groups:
        if g not in used:
            problems.append("[@groups]: group %r is declared but no row uses it" % g)
        elif not groups[g]:
            problems.append("[@groups]: group %r has no description" % g)
    problems += unlisted_functions(rows, folder)
    return problems


def load(path=TABLE):
    """The rows of the table, or SystemExit naming its problems."""
    problems = check_table(path)
    if problems:
        raise SystemExit("%s:\n  %s" % (path, "\n  ".join(problems)))
    return parse(path)[:2]


# Rows of this group wait for a change that has not landed: run only when asked for (by name,
# group or part of a name), never by make check.
PENDING = "pending"


def select(rows, names=(), groups=(), parts=()):
    """The rows named exactly by @names, in a group of @groups, or whose name holds one of
    @parts, in table order; every row but the PENDING ones when nothing is asked."""
    if not (names or groups or parts):
        return [r for r in rows if PENDING not in r["groups"].split()]
    return [r for r in rows if r.name in names or set(groups) & set(r["groups"].split()) or
            any(p in r.name for p in parts)]


def boot_row(b, r):
    """Boot the data row @r and apply its declared checks, then its check function."""
    runner = ["--smp", r.get_value("smp")] + shlex.split(r.get("runner", ""))
    b.run(r.get_value("cmdline"), cpu=r.get_value("cpu"), mem=r.get_value("mem"),
          extra=r.lines("qemu"), runner_args=runner)
    b.status_is(STATUSES[r["status"]])
    for pat in r.lines("has"):
        b.has(pat)
    for pat in r.lines("lacks"):
        b.lacks(pat)
    for pat in r.lines("stderr"):
        b.expect(re.search(pat, b.runner_err, re.M),
                 "tools/ck-run.py's messages lack /%s/: %r" % (pat, b.runner_err[-300:]))
    for spec in r.lines("check"):
        fn, args = resolve(spec)
        fn(b, *args)
    if r.get_value("ktap") != "no":
        qemu_boot.check_ktap(b, want_fail=int(r.get_value("failed")))
    if r.get_value("ktap") == "strict":
        qemu_boot.check_ktap_strict(b)


def run(image, r):
    """(Boot, seconds) of the scenario @r; a scenario that raises has failed."""
    b = qemu_boot.Boot(image, r.name, timeout=int(r["timeout"]))
    t0 = time.monotonic()
    try:
        if r.get("code"):
            fn, args = resolve(r["code"])
            fn(b, *args)
        else:
            boot_row(b, r)
    except Exception as e:  # a scenario that crashes is a failed scenario
        b.problems.append("scenario raised %r" % e)
    return b, time.monotonic() - t0


def listing(rows, groups):
    """The table as text: the groups, then one line per row and its command line."""
    out = ["groups:"] + ["  %-10s %d rows: %s" % (g, sum(g in r["groups"].split() for r in rows),
                                                  t) for g, t in groups.items()]
    out.append("%-32s %-18s %5s %-22s %4s %6s %-7s %s" % (
        "scenario", "groups", "secs", "cpu", "smp", "mem", "status",
        "command line  [more runner and QEMU arguments]"))
    for r in rows:
        if r.get("code"):
            how = ("in code", "", "", "", "", "code: " + r["code"])
        else:
            how = (r.get_value("cpu"), r.get_value("smp"), r.get_value("mem"), r["status"],
                   r.get_value("cmdline") or "(empty command line)",
                   " ".join([r.get("runner", "")] + r.lines("qemu")).strip())
        out.append("%-32s %-18s %5s %-22s %4s %6s %-7s %s" % (
            (r.name, ",".join(r["groups"].split()), r["timeout"]) + how[:5]) +
            ("  [%s]" % how[5] if how[5] else ""))
    out.append("%d scenarios" % len(rows))
    return "\n".join(out)


def self_check():
    """(name, ok, details, note) of two results for make check: `--check` on the table, and
    on a scratch table (SCRATCH_TABLE, beside a scratch x_tests.py) that breaks each rule
    once and must fail, naming each problem."""
    tool = [sys.executable, os.path.abspath(__file__), "--check"]
    p = subprocess.run(tool, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    out = [("tests/qemu/scenarios.cfg is sound (keys, names, groups, functions)",
            p.returncode == 0, [] if p.returncode == 0 else p.stdout.splitlines()[-15:],
            (p.stdout.splitlines() or ["?"])[-1].split(": ")[-1])]
    with tempfile.TemporaryDirectory(prefix="ck-scenarios-") as tmp:
        with open(os.path.join(tmp, "scenarios.cfg"), "w") as f:
            f.write(SCRATCH_TABLE)
        with open(os.path.join(tmp, "x_tests.py"), "w") as f:
            f.write("def t_listed(b):\n    pass\n\n\ndef t_forgotten(b):\n    pass\n")
        p = subprocess.run(tool + [os.path.join(tmp, "scenarios.cfg")], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
    want = ["[dup] (line 11): a second row of that name (first at line 5)",
            "[dup] (line 11): unknown key 'expect'", "[nodesc] (line 17): no description",
            "[nodesc] (line 17): no timeout", "[@groups]: group 'unused' is declared but no "
            "row uses it", "[nodesc] (line 17): group 'nogroup' is not declared",
            "[badcheck] (line 21): check 'dispatch_tests.no_such_check' does not name a "
            "function", "[badcheck] (line 21): status 'OK' is not one of",
            "x_tests.py:5: t_forgotten has no row in the table", "10 problems"]
    missing = [w for w in want if w not in p.stdout]
    ok = p.returncode == 1 and not missing
    out.append(("a table with an unknown key, a duplicate name, a row without description or "
                "timeout, an unused group, a missing check function fails", ok,
                [] if ok else ["missing: " + m for m in missing] + p.stdout.splitlines(), ""))
    return out


SCRATCH_TABLE = """[@groups]
used = a group
unused = a group no row names

[dup]
description = the first of two rows named dup
groups = used
timeout = 10
code = x_tests.t_listed

[dup]
description = the second
groups = used
timeout = 10
expect = PASS

[nodesc]
groups = nogroup
status = PASS

[badcheck]
description = a check function that does not exist
groups = used
timeout = 10
status = OK
check = dispatch_tests.no_such_check
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", nargs="?", const=TABLE, metavar="FILE",
                    help="check the table (default %(const)s); exit 1 naming each problem")
    ap.add_argument("--list", action="store_true", help="print the table")
    a = ap.parse_args()
    if a.check:
        problems = check_table(a.check, os.path.dirname(os.path.abspath(a.check)))
        for p in problems:
            print(p)
        print("%s: %d problem%s" % (a.check, len(problems), "" if len(problems) == 1 else "s"))
        return 1 if problems else 0
    rows, groups = load()
    print(listing(rows, groups))
    return 0


if __name__ == "__main__":
    sys.exit(main())
