# SPDX-License-Identifier: GPL-2.0-only
"""reference_tests.py - the command-line reference against the running image.

docs/reference/cmdline.md is generated on the host from the option table (host/ck-cmdline-doc.c;
make check holds the committed file to the table). Here the image answers for itself: one boot
gives every key the reference lists a bad value, and the keys the image says are valid, the
values it says each key takes and what it applies instead (the default, or what the default
cell says after "bad value", as for tests=) must be the reference's rows, in the reference's
order. So the table, the document and the image agree. And every one of those words is named,
key by key, by the run's failing command_line test: the verdict is ERROR (verdict_tests.py).
"""
import html
import os
import re

from qemu_boot import ROOT
import verdict_tests

REFERENCE = os.path.join(ROOT, "docs", "reference", "cmdline.md")
ROW = re.compile(r"^\| `([a-z0-9_]+)` \| (.*?) \| `([^`]*)`(?: \(bad value: ([^|]*)\))? \| ")
# What the reference says where the image names what it registered (init/cmdline_opts.h's
# CMDLINE_SUITES_WORDS and CMDLINE_CRASHES_WORDS), and what the image prints there instead.
REGISTERED = [("the registered suites", r"[a-z0-9_]+(?:, [a-z0-9_]+)*"),
              ("the registered crash kinds, none first", r"none(?:, [a-z0-9_]+)*")]


def reference_rows(path=REFERENCE, with_bad=False):
    """[(key, values, default)] of the reference's table, the cells as plain text; with
    @with_bad, (key, values, default, what a bad value takes instead or None)."""
    rows = []
    with open(path) as f:
        for line in f:
            m = ROW.match(line)
            if m:
                row = (m.group(1), html.unescape(m.group(2).replace("\\|", "|")), m.group(3))
                rows.append(row + (m.group(4),) if with_bad else row)
    return rows


def reference_keys():
    return [k for k, _, _ in reference_rows()]


def valid_keys_agree(b, unknown):
    """The image's list of valid keys, printed for the unknown key @unknown, is the
    reference's key column."""
    m = b.has(r"^cmdline: unknown key '%s' \(valid keys: (.*)\); ignored$" % unknown)
    if m:
        want = reference_keys()
        have = m.group(1).split(", ")
        b.expect(have == want, "the image's valid keys %s, the reference's %s (missing from "
                 "the image: %s; not in the reference: %s)" % (
                     have, want, sorted(set(want) - set(have)), sorted(set(have) - set(want))))


def values_pattern(values):
    pat = re.escape(values)
    for words, names in REGISTERED:
        pat = pat.replace(re.escape(words), names)
    return pat


def t_cmdline_reference(b):
    """Every key given a bad value: the image's keys, values and defaults are the reference's,
    and the run's command_line test names each word and what it took."""
    rows = reference_rows(with_bad=True)
    b.expect(len(rows) >= 20, "only %d rows read from %s" % (len(rows), REFERENCE))
    b.expect(any(bad for _, _, _, bad in rows), "no row says what a bad value takes instead")
    # The last word for a key counts: tests=none and exit=qemu keep the boot short.
    line = " ".join(["%s=?" % k for k, _, _, _ in rows] + ["frobnicate=1", "tests=none",
                                                           "exit=qemu"])
    b.run(line)
    valid_keys_agree(b, "frobnicate")
    briefs = []
    for key, values, default, bad in rows:
        # What the image takes instead: the default, or what the default cell says (tests=?
        # names no suite that exists: none of them runs).
        instead = "running %s: none" % bad if bad else "using the default '%s'" % default
        m = b.has(r"^cmdline: bad value '\?' for %s= \((.*?); valid: (.*)\); (.*)$" %
                  re.escape(key))
        briefs.append(r"'%s=\?': bad value \(.*\); %s" % (re.escape(key), re.escape(instead)))
        if not m:
            continue
        b.expect(re.fullmatch(values_pattern(values), m.group(2)) is not None,
                 "%s=: the image takes '%s', the reference says '%s'" % (key, m.group(2),
                                                                          values))
        b.expect(m.group(3) == instead, "%s=: the image takes '%s' instead, the reference "
                 "says '%s'" % (key, m.group(3), instead))
    briefs.append(r"'frobnicate=1': unknown key; ignored")
    verdict_tests.check_verdict(b, "ERROR", briefs, line)

