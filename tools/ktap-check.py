# SPDX-License-Identifier: GPL-2.0-only
"""ktap-check.py - a strict validator for KTAP version 1 test output.

Usage: python3 tools/ktap-check.py [--strict] [--expect-tests N] [--indent {2,4}] FILE|-

The input may be a whole serial log: everything before the first line that reads
"KTAP version 1" (or "TAP version 13" / "TAP version 14") starting at column 0 is ignored,
and so is everything after the top-level plan has been satisfied. Line endings may be
LF, CRLF or the CR CR LF that some serial consoles produce.

What is checked (Documentation/dev-tools/ktap.rst, and what tools/testing/kunit/
kunit_parser.py accepts):

  * the version line, and that its version is KTAP 1 or TAP 13/14;
  * a plan "1..N" at every level, right after the version line (and the optional
    "# Subtest: <name>" line); a plan after the results, or none at all, is an error;
  * result lines "ok|not ok <number> [- ]<name>[ # <directive or diagnostic>]", numbered
    1, 2, ... at each level, as many as the plan says;
  * names: not empty, and no '#' in them (a '#' can only start the directive part, and
    only as " # "); directives in upper case (SKIP, TODO, XFAIL, TIMEOUT, ERROR);
  * nesting: a subtest is indented one step (2 or 4 spaces, the same step all through
    the document) deeper than its parent, starts with its own "KTAP version 1" line and
    plan, and ends with its result line back at the parent's indentation; when the
    subtest has a "# Subtest: <name>" line, its result line must carry that name.

Diagnostic lines ("# ...") may appear anywhere, at any indentation. Other lines inside
the document ("unknown lines" in the spec) are allowed by KTAP; they are reported as
warnings, or as errors with --strict (which turns every warning into an error).

Output: one line per problem, "ktap-check: FILE:LINE: message", then a summary:
"ktap-check: FILE: OK (N tests, M subtests, depth D)" where N counts the top-level
results, M the results nested below them and D the deepest nesting level (1 = flat), or
"ktap-check: FILE: INVALID (E errors, W warnings)".
Exit status: 0 valid, 1 invalid, 2 usage or I/O error.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cklib.common import bounded, run_main  # noqa: E402
# KTAP's line grammar, which the reports' readers share (tools/cklib/seriallog.py).
from cklib.seriallog import (DIRECTIVES, END_MARKERS, PLAN, PREFIXED_START, RESULT,  # noqa: E402
                             START, SUBTEST, description, ktap_kind)

PROG = "ktap-check"

SUPPORTED_VERSIONS = {("KTAP", 1), ("TAP", 13), ("TAP", 14)}


class Level:
    """One open level of the document: the top level, or a subtest being read."""

    def __init__(self, line, indent, depth, has_version, number=None, name=None):
        self.line = line            # line that opened it
        self.indent = indent        # indentation of its version, plan and result lines
        self.depth = depth          # 1 for the top level
        self.has_version = has_version
        self.number = number        # the number its result line should carry (subtests)
        self.name = name            # from "# Subtest: <name>", if any
        self.in_header = True       # still before the plan, the first result or a child
        self.plan = None
        self.plan_line = None
        self.no_plan_reported = False
        self.next_num = 1
        self.results = 0
        self.failed = False         # one of its results is "not ok" without SKIP/TODO/XFAIL

    def describe(self):
        if self.depth == 1:
            return "the top level"
        what = "subtest '%s'" % self.name if self.name else "subtest"
        return "%s (opened at line %d)" % (what, self.line)


class Checker:
    def __init__(self, strict=False, indent_step=None):
        self.strict = strict
        self.step = indent_step
        self.step_line = None
        self.problems = []          # (line or None, is_error, message)
        self.started = False
        self.done = False
        self.done_line = None
        self.ktap = True            # False for a "TAP version 13/14" document
        self.stack = []
        self.tests = 0
        self.subtests = 0
        self.depth = 0
        self.prefixed_start = None  # (line, column) of a version line not at column 0
        self.post_end_reported = False

    # -- reporting ---------------------------------------------------------------------

    def error(self, line, msg):
        self.problems.append((line, True, msg))

    def warn(self, line, msg):
        self.problems.append((line, self.strict, msg))

    # -- input -------------------------------------------------------------------------

    def feed(self, n, text):
        """Take line number n (1-based) whose text has its line ending removed."""
        text = text.rstrip()
        if not self.started:
            m = START.match(text)
            if m:
                self.start(n, m)
            elif self.prefixed_start is None:
                p = PREFIXED_START.search(text)
                if p:
                    self.prefixed_start = (n, p.start())
            return
        if self.done:
            self.after_end(n, text)
            return
        if END_MARKERS.search(text):
            self.finish(n, "the kernel log's end marker")
            return
        self.line(n, text)

    def start(self, n, m):
        self.started = True
        kind, version = m.group(1), int(m.group(2))
        self.ktap = kind == "KTAP"
        if (kind, version) not in SUPPORTED_VERSIONS:
            self.error(n, "unsupported version line '%s version %d' (KTAP 1, TAP 13 or TAP 14 "
                       "expected)" % (kind, version))
        self.stack = [Level(n, 0, 1, True)]
        self.depth = 1

    def after_end(self, n, text):
        if self.post_end_reported:
            return
        if START.match(text):
            self.warn(n, "another KTAP document starts here; only the first one (complete at "
                      "line %d) is checked" % self.done_line)
            self.post_end_reported = True
        elif RESULT.match(text) or PLAN.match(text):
            self.warn(n, "a top-level KTAP line after the document ended (its plan was "
                      "complete at line %d): does the plan count all the tests?" % self.done_line)
            self.post_end_reported = True

    def line(self, n, text):
        content = text.lstrip(" \t")
        lead = text[:len(text) - len(content)]
        indent = len(lead)
        if not content:
            self.unknown(n, "an empty line")
            return
        kind = ktap_kind(content)
        if kind == "diagnostic":
            return      # diagnostic line: allowed anywhere
        if kind is None:
            self.unknown(n, "an unknown line")
            return
        if "\t" in lead:
            self.error(n, "%s line indented with a tab: KTAP indents with spaces" % kind)
            return
        getattr(self, "on_" + kind)(n, indent, content)

    def unknown(self, n, what):
        self.warn(n, "%s inside the KTAP document (neither a version, plan, result nor '#' "
                  "diagnostic line)" % what)

    # -- indentation -------------------------------------------------------------------

    def child_indent_ok(self, n, indent, parent):
        """A line at `indent` opens a child of `parent`; check the step. True if deeper."""
        if indent <= parent.indent:
            return False
        delta = indent - parent.indent
        if self.step is None:
            if delta in (2, 4):
                self.step, self.step_line = delta, n
            else:
                self.error(n, "subtest indented by %d spaces under %s; KTAP indents each level "
                           "by 2 spaces (KUnit by 4)" % (delta, parent.describe()))
        elif delta != self.step:
            where = " (set at line %d)" % self.step_line if self.step_line else ""
            self.error(n, "subtest indented by %d spaces under %s; this document indents each "
                       "level by %d%s" % (delta, parent.describe(), self.step, where))
        return True

    def open_child(self, n, indent, has_version, name=None):
        parent = self.stack[-1]
        if parent.plan is None and not parent.no_plan_reported:
            self.error(n, "subtest starts before any plan line of %s (the plan '1..N' comes "
                       "right after the version line)" % parent.describe())
            parent.no_plan_reported = True
        parent.in_header = False
        child = Level(n, indent, parent.depth + 1, has_version, parent.next_num, name)
        self.stack.append(child)
        self.depth = max(self.depth, child.depth)
        return child

    # -- line kinds --------------------------------------------------------------------

    def on_version(self, n, indent, content):
        top = self.stack[-1]
        m = START.match(content)
        if not m or (m.group(1), int(m.group(2))) not in SUPPORTED_VERSIONS:
            self.error(n, "unsupported version line '%s' (KTAP 1 or TAP 13/14 expected)"
                       % content)
        elif m.group(1) == "TAP" and self.ktap:
            self.warn(n, "'%s' inside a KTAP document: subtests start with 'KTAP version 1'"
                      % content)
        if indent == top.indent and top.in_header:
            self.error(n, "second version line for %s" % top.describe())
        elif self.child_indent_ok(n, indent, top):
            self.open_child(n, indent, True)
        else:
            self.error(n, "version line at indentation %d: a subtest's version line must be "
                       "indented deeper than %s (indentation %d)" % (indent, top.describe(),
                                                                    top.indent))

    def on_subtest(self, n, indent, content):
        name = SUBTEST.match(content).group(1).strip()
        top = self.stack[-1]
        if not name:
            self.error(n, "'# Subtest:' line without a name")
        if (indent == top.indent and top.in_header and top.depth > 1 and top.has_version
                and top.name is None):
            top.name = name or None
        elif self.child_indent_ok(n, indent, top):
            self.open_child(n, indent, False, name or None)
            if self.ktap:
                self.error(n, "subtest '%s' has no 'KTAP version 1' line before its "
                           "'# Subtest:' line" % name)
        else:
            self.error(n, "'# Subtest:' line out of place (it belongs right after a subtest's "
                       "version line)")

    def on_plan(self, n, indent, content):
        m = PLAN.match(content)
        if not m:
            self.error(n, "malformed plan line '%s' (expected '1..N')" % content)
            return
        top = self.stack[-1]
        if indent != top.indent:
            self.error(n, "plan line at indentation %d, but %s is at indentation %d"
                       % (indent, top.describe(), top.indent))
            return
        count = int(m.group(1))
        if top.plan is not None:
            self.error(n, "second plan line for %s (the first is at line %d)"
                       % (top.describe(), top.plan_line))
            return
        if not top.in_header:
            if not top.no_plan_reported:
                self.error(n, "plan after the results of %s: KTAP puts '1..N' right after the "
                           "version line (kunit_parser does not read a trailing plan)"
                           % top.describe())
                top.no_plan_reported = True
        elif count == 0:
            self.warn(n, "plan 1..0: %s runs no tests (kunit_parser reports '0 tests run!')"
                      % top.describe())
        top.plan, top.plan_line = count, n
        top.in_header = False
        if top.results > count:
            self.error(n, "%s has %d results but its plan says %d"
                       % (top.describe(), top.results, count))
        self.check_complete(n)

    def on_result(self, n, indent, content):
        m = RESULT.match(content)
        if not m:
            self.error(n, "malformed result line '%s' (expected 'ok|not ok <number> <name>')"
                       % content)
            return
        top = self.stack[-1]
        closing = None
        if indent != top.indent:
            k = len(self.stack) - 2
            while k >= 0 and self.stack[k].indent != indent:
                k -= 1
            if k < 0:
                self.bad_result_indent(n, indent, top)
                return
            # stack[k + 1] is the subtest this line ends; anything deeper lacks its result.
            for lost in reversed(self.stack[k + 2:]):
                self.error(n, "%s has no result line before this line" % lost.describe())
                self.check_count(n, lost)
            closing = self.stack[k + 1]
            self.check_count(n, closing)
            del self.stack[k + 1:]
        level = self.stack[-1]
        self.count_result(n, level, m, closing)
        self.check_complete(n)

    def bad_result_indent(self, n, indent, top):
        if indent > top.indent:
            self.error(n, "result line at indentation %d, deeper than %s (indentation %d): a "
                       "subtest needs its own version line and plan" % (indent, top.describe(),
                                                                      top.indent))
        else:
            levels = ", ".join(str(lv.indent) for lv in self.stack)
            self.error(n, "result line at indentation %d matches no open level (indentations "
                       "in use: %s)" % (indent, levels))

    def check_count(self, n, level):
        if level.plan is None:
            if not level.no_plan_reported:
                self.error(level.line, "%s has no plan line" % level.describe())
                level.no_plan_reported = True
        elif level.results < level.plan:
            self.error(n, "%s ended after %d of the %d results its plan (line %d) announces"
                       % (level.describe(), level.results, level.plan, level.plan_line))

    def count_result(self, n, level, m, closing):
        status, num, rest = m.group(1), int(m.group(2)), m.group(3) or ""
        if level.plan is None and level.in_header and not level.no_plan_reported:
            self.error(n, "result line before any plan line of %s (the plan '1..N' comes right "
                       "after the version line)" % level.describe())
            level.no_plan_reported = True
        level.in_header = False
        if num != level.next_num:
            self.error(n, "expected test number %d, found %d" % (level.next_num, num))
        level.next_num = num + 1
        level.results += 1
        if level.plan is not None and level.results > level.plan:
            self.error(n, "result %d of %s goes beyond its plan 1..%d (line %d)"
                       % (level.results, level.describe(), level.plan, level.plan_line))
        if level.depth == 1:
            self.tests += 1
        else:
            self.subtests += 1

        name, directive = self.parse_description(n, rest)
        if status == "not ok" and directive not in ("SKIP", "TODO", "XFAIL"):
            level.failed = True
        if directive in ("TIMEOUT", "ERROR") and status == "ok":
            self.warn(n, "'ok' with the %s directive: that result should be 'not ok'" % directive)
        if closing is not None:
            if closing.name is not None and name is not None and name != closing.name:
                self.error(n, "result name '%s' does not match '# Subtest: %s' (line %d)"
                           % (name, closing.name, closing.line))
            if closing.failed and status == "ok" and directive is None:
                self.warn(n, "'%s' is reported ok but one of its subtests failed" % name)

    def parse_description(self, n, rest):
        """Split "[- ]name[ # directive ...]"; report what is wrong. Returns (name, directive)."""
        d = description(rest)
        if d.fault == "hash in name":
            self.error(n, "'#' inside the test name '%s' (a '#' starts the directive and "
                       "must stand as ' # ')" % d.text.split(" # ")[0])
            return d.name, None
        if d.fault == "bare hash":
            self.error(n, "'#' after the name must be followed by a space and a directive "
                       "or diagnostic text ('%s')" % d.text[d.text.find("#"):])
        directive = self.parse_directive(n, d.directive) if d.directive else None
        if not d.name:
            self.error(n, "empty test name (a result line needs a name before any ' # ')")
            return None, directive
        return d.name, directive

    def parse_directive(self, n, text):
        word = text.split()[0]
        if word in DIRECTIVES:
            if word == "TODO":
                self.warn(n, "TODO directive: KTAP discourages it (kunit_parser ignores it)")
            return word
        if word.upper() in DIRECTIVES:
            self.error(n, "directive '%s' must be written '%s' (kunit_parser only recognises "
                       "' # SKIP' exactly)" % (word, word.upper()))
        elif word.startswith("SKIP"):
            self.warn(n, "'%s' is not the SKIP keyword, yet kunit_parser reads ' # SKIP...' as "
                      "a skip" % word)
        return None     # diagnostic data, e.g. "ok 5 check return code # rcode=0"

    # -- the end -----------------------------------------------------------------------

    def check_complete(self, n):
        top = self.stack[0]
        if len(self.stack) == 1 and top.plan is not None and top.results >= top.plan:
            self.done, self.done_line = True, n

    def finish(self, n, why="the end of the input"):
        """The input ended (or an end marker came) at line n."""
        if self.done:
            return
        if not self.started:
            msg = ("no KTAP document: no line 'KTAP version 1' (or 'TAP version 13/14') "
                   "starting at column 0")
            if self.prefixed_start:
                line, col = self.prefixed_start
                msg += "; line %d has one at column %d (strip the console prefix first)" % (
                    line, col)
            self.error(None, msg)
            return
        self.done, self.done_line = True, n
        for level in reversed(self.stack[1:]):
            self.error(n, "%s has no result line before %s" % (level.describe(), why))
            self.check_count(n, level)
        top = self.stack[0]
        if top.plan is None:
            if not top.no_plan_reported:
                self.error(top.line, "the top level has no plan line")
        elif top.results < top.plan:
            self.error(n, "the document reached %s after %d of the %d top-level results its "
                       "plan (line %d) announces" % (why, top.results, top.plan, top.plan_line))

    def expect_tests(self, count):
        if self.started and self.tests != count:
            top = self.stack[0] if self.stack else None
            self.error(top.plan_line if top else None,
                       "%d top-level tests, but --expect-tests says %d" % (self.tests, count))


def read_lines(path):
    """The input's lines without line endings (LF, CRLF, CR CR LF)."""
    if path == "-":
        data = sys.stdin.buffer.read()
    else:
        with open(path, "rb") as f:
            data = f.read()
    text = data.decode("utf-8", errors="replace")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.rstrip("\r") for line in lines]


def check(lines, strict=False, expect=None, indent=None):
    checker = Checker(strict=strict, indent_step=indent)
    n = 0
    for n, text in enumerate(lines, 1):
        checker.feed(n, text)
        if checker.done and checker.post_end_reported:
            break
    checker.finish(n)
    if expect is not None:
        checker.expect_tests(expect)
    return checker


def report(checker, name, out):
    problems = sorted(checker.problems, key=lambda p: (p[0] is not None, p[0] or 0))
    errors = warnings = 0
    for line, is_error, msg in problems:
        where = "%s:%d" % (name, line) if line is not None else name
        if is_error:
            errors += 1
            out.write("%s: %s: %s\n" % (PROG, where, msg))
        else:
            warnings += 1
            out.write("%s: %s: warning: %s\n" % (PROG, where, msg))
    if errors:
        out.write("%s: %s: INVALID (%d error%s, %d warning%s)\n"
                  % (PROG, name, errors, "" if errors == 1 else "s",
                     warnings, "" if warnings == 1 else "s"))
        return 1
    out.write("%s: %s: OK (%d tests, %d subtests, depth %d)\n"
              % (PROG, name, checker.tests, checker.subtests, checker.depth))
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog=PROG, description="Validate KTAP version 1 output, strictly.",
        epilog="Exit status: 0 valid, 1 invalid, 2 usage or I/O error.")
    ap.add_argument("file", help="the log to check, or - for standard input")
    ap.add_argument("--strict", action="store_true",
                    help="treat warnings (unknown lines, TODO, ...) as errors")
    ap.add_argument("--expect-tests", type=bounded(int, 0, None, "a count"), metavar="N",
                    help="also require exactly N top-level test results")
    ap.add_argument("--indent", type=int, choices=(2, 4),
                    help="the indentation step of one nesting level (default: the first "
                         "subtest sets it; 2 or 4)")
    args = ap.parse_args(argv)
    name = "<stdin>" if args.file == "-" else args.file
    try:
        lines = read_lines(args.file)
    except OSError as e:
        sys.stderr.write("%s: %s: cannot read: %s\n" % (PROG, name, e.strerror or e))
        return 2
    checker = check(lines, args.strict, args.expect_tests, args.indent)
    return report(checker, name, sys.stdout)


if __name__ == "__main__":
    # Status 2 for a usage or I/O error, a reader that went away, or a bug in this tool.
    sys.exit(run_main(PROG, main, internal=2, pipe=2))
