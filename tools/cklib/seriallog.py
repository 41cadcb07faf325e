# SPDX-License-Identifier: GPL-2.0-only
"""cklib.seriallog - the image's serial log as every tool reads it: ck-report's fleet table
and KCIDB document (cklib.fleet, cklib.kcidb), the LAVA ids (cklib.lavaids) and
tools/ktap-check.py. Each line a tool takes from the log has its pattern here, once.

  clean(raw)      a line as the tools read it: without its line end, leading ESC
                  characters and NULs
  KTAP            the grammar of a KTAP line's content (the line after its indentation):
                  START ... RESULT, DIRECTIVES, ktap_kind() and description(); ktap-check.py
                  says what is wrong with a line, the readers take what a line says
  read(lines)     a Log: every line cleaned, with what it is (LINES: the image's own lines;
                  ktap_start, subtest and result: KTAP)
  VERDICTS        the verdicts of the run's summary line, and which one is a clean run

A reader takes every line ktap-check.py reads as a subtest or result line, well formed or
not (ktap-check says what is wrong with it; make check holds the image's KTAP to --strict):
a "not ok" is never lost to a stray '#'.
"""
import re
from collections import namedtuple

# -- KTAP (Linux's Documentation/dev-tools/ktap.rst; kunit_parser.py reads the same) --------

# Where a document starts: a version line at column 0.
START = re.compile(r"(K?TAP) version (\d+)$")
# The same text anywhere on a line, to explain a miss (console timestamps and the like).
PREFIXED_START = re.compile(r"K?TAP version \d+$")
# Lines after which kunit_parser stops reading a kernel log.
END_MARKERS = re.compile(r"List of all partitions:|Kernel panic - not syncing: VFS:|"
                         r"reboot: System halted")
VERSION = re.compile(r"(K?TAP) version (.*)$")
SUBTEST = re.compile(r"# Subtest:(.*)$")
PLAN_LIKE = re.compile(r"\d+\.\.")
PLAN = re.compile(r"1\.\.(\d+)(?: # .*)?$")
RESULT_LIKE = re.compile(r"(?:not\s+)?ok(?:\s|$)")
RESULT = re.compile(r"(ok|not ok) (\d+)(?: (.*))?$")
DIRECTIVES = ("SKIP", "TODO", "XFAIL", "TIMEOUT", "ERROR")


def ktap_kind(content):
    """What a line inside a KTAP document is, from its content (the line after its
    indentation, without trailing blanks): "diagnostic", "version", "subtest", "plan",
    "result", or None (an unknown line)."""
    if content.startswith("#") and not SUBTEST.match(content):
        return "diagnostic"
    if VERSION.match(content):
        return "version"
    if SUBTEST.match(content):
        return "subtest"
    if PLAN_LIKE.match(content):
        return "plan"
    if RESULT_LIKE.match(content):
        return "result"
    return None


# text: the description without KTAP's optional "- "; name; directive: the text after " # "
# (None without one); fault: None when well formed, else "hash in name" (a '#' that does not
# stand as " # "), "bare hash" (a " #" followed by nothing) or "no name".
Description = namedtuple("Description", "text name directive fault")


def description(rest):
    """A result line's text after its number, "[- ]NAME[ # DIRECTIVE OR DIAGNOSTIC]"."""
    if rest.startswith("- "):
        rest = rest[2:]
    elif rest == "-":
        rest = ""
    at = rest.find("#")
    if at < 0:
        name, directive, fault = rest.strip(), None, None
    else:
        name, after = rest[:at].strip(), rest[at:]
        if name and not rest[:at].endswith(" "):
            return Description(rest, name, None, "hash in name")
        directive = after[2:].strip() if after.startswith("# ") else ""
        fault = "bare hash" if not directive and name else None
        directive = directive or None
    if not name:
        fault = "no name"
    return Description(rest, name, directive, fault)


# A reader's KTAP lines: indent in spaces; ok a bool; directive None or its text.
Subtest = namedtuple("Subtest", "indent name")
Result = namedtuple("Result", "indent ok number name directive")


def ktap_item(line):
    """("ktap_start", version line), ("subtest", Subtest), ("result", Result) or None for
    one cleaned line."""
    content = line.lstrip(" ")
    indent = len(line) - len(content)
    content = content.rstrip()
    if not indent and START.match(content):
        return "ktap_start", content
    kind = ktap_kind(content)
    if kind == "subtest":
        return "subtest", Subtest(indent, SUBTEST.match(content).group(1).strip())
    if kind == "result" and (m := RESULT.match(content)):
        d = description(m.group(3) or "")
        return "result", Result(indent, m.group(1) == "ok", int(m.group(2)), d.name,
                                d.directive)
    return None


# -- The run's summary line ---------------------------------------------------------------

# "# copykernel-summary: result=WORD KEY=VALUE ..." (init/main.c, run_summary()): each
# verdict WORD, and whether it is a clean run (ERROR, reason=cmdline: the command line had
# errors; kernel/include/status.h). A verdict the image learns is one row here; a word not
# here is still read, as a run that is not clean.
VERDICTS = {"PASS": True, "FAIL": False, "ERROR": False}

# result: the verdict word; fields: every KEY=VALUE of the line, result too.
Summary = namedtuple("Summary", "result fields")


def passed(verdict):
    """Whether a run with this verdict is clean (None: no verdict, not clean)."""
    return VERDICTS.get(verdict, False)


def summary_of(m):
    fields = dict(w.split("=", 1) for w in m.group(2).split() if "=" in w)
    return Summary(m.group(1), dict(fields, result=m.group(1)))


# -- The image's own lines ------------------------------------------------------------------

Cpu = namedtuple("Cpu", "vendor family model stepping signature hypervisor")
Dispatch = namedtuple("Dispatch", "api name primitive bulk_name bulk")
# text: all of it; mca: the text when it is the "MCA ..." line; copy_mc: the verdict on
# copy_mc_to_kernel, when it is that line.
MceVerdict = namedtuple("MceVerdict", "text mca copy_mc")

COPY_MC_VERDICT = re.compile(r"^copy_mc_to_kernel here is .*?: (.*)$")


def cpu_of(m):
    sig, rest = m.group(5), m.group(6)
    return Cpu(m.group(1), int(m.group(2), 16), int(m.group(3), 16), int(m.group(4)), sig,
               None if sig is None else "hypervisor" in rest)


def verdict_of(m):
    text = m.group(1)
    cm = COPY_MC_VERDICT.match(text)
    return MceVerdict(text, text if text.startswith("MCA ") else None,
                      cm.group(1) if cm else None)


def first_group(m):
    return m.group(1)


def int_of(m):
    return int(m.group(1))


# kind: (pattern matched at the start of a cleaned line, what the line yields)
LINES = {
    "version": (re.compile(r"^copykernel (\S+): the machine is ours"), first_group),
    "uefi": (re.compile(r"^copykernel: boot: UEFI .* rev (\S+)$"), first_group),
    "firmware": (re.compile(r"^firmware: (.+?); image at "), first_group),
    # init/main.c secure_boot_report(): "on (enforcing)", "off", ... (secureboot.h).
    "secure_boot": (re.compile(r"^Secure Boot: (.+?); UEFI variables "), first_group),
    "cmdline": (re.compile(r"^cmdline: in effect: (.*)$"), first_group),
    "ram_mib": (re.compile(r"^memory map: (\d+) MiB of RAM"), int_of),
    "stale": (re.compile(r"^MCE: .*?(\d+) stale banks? cleared"), int_of),
    "cpu": (re.compile(r"^CPU: (\S+) family (0x[0-9a-f]+) model (0x[0-9a-f]+) stepping (\d+)"
                       r"(?: \(signature (0x[0-9a-f]+)\)(.*))?"), cpu_of),
    "microcode": (re.compile(r"^CPU: microcode revision (0x[0-9a-f]+)"),
                  lambda m: int(m.group(1), 16)),
    "dispatch": (re.compile(r"^dispatch: (copy_highpage|copy_mc_highpage|clear_highpage)\(s\)"
                            r"\s+(\w+): (.+?)\s{2,}(\w+): (.+?)\s{2,}"),
                 lambda m: Dispatch(*m.groups())),
    "mce_verdict": (re.compile(r"^\s*# mce-verdict: (.*)$"), verdict_of),
    "summary": (re.compile(r"^# copykernel-summary: result=(\S+)(.*)$"), summary_of),
    "soak": (re.compile(r"^# copykernel-soak: result=(PASS|FAIL) "), first_group),
    # The run's last line (kernel/arch/exit.c): "N (what it means)", as printed.
    "exit": (re.compile(r"^copykernel: exit status (\d+ \(.*\))$"), first_group),
}
# cpu_name (no pattern): the "CPU: " line right after a cpu line with its signature, the
# processor's brand string.


def clean(raw):
    return raw.rstrip("\r\n").lstrip("\x1b").replace("\0", "")


def line_item(line, prev):
    """(kind, value) of one cleaned line, or None; @prev: the item of the line before."""
    for kind, (pattern, value) in LINES.items():
        if (m := pattern.match(line)):
            return kind, value(m)
    if prev and prev[0] == "cpu" and prev[1].signature is not None and \
            line.startswith("CPU: ") and not line.startswith("CPU: microcode"):
        return "cpu_name", line[5:]
    return ktap_item(line)


class Log:
    """One serial log: its lines, cleaned, and what each one is ((kind, value) or None)."""

    def __init__(self, lines):
        self.lines, self.items = [], []
        prev = None
        for raw in lines:
            line = clean(raw)
            prev = line_item(line, prev)
            self.lines.append(line)
            self.items.append(prev)

    def __iter__(self):
        """(line, kind, value) for every line (kind and value None for a line of no kind)."""
        for line, item in zip(self.lines, self.items):
            yield (line,) + (item or (None, None))

    def all(self, kind):
        return [it[1] for it in self.items if it and it[0] == kind]

    def first(self, kind):
        return next((it[1] for it in self.items if it and it[0] == kind), None)

    def last(self, kind):
        found = self.all(kind)
        return found[-1] if found else None


def read(lines):
    """The Log of @lines (a serial log's lines, with or without their line ends)."""
    return Log(lines)
