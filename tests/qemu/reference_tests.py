# SPDX-License-Identifier: GPL-2.0-only
"""reference_tests.py - the command-line reference against the running image.

docs/reference/cmdline.md is generated on the host from the option table (host/ck-cmdline-doc.c;
make check holds the committed file to the table). Here the image answers for itself: one boot
gives every key the reference lists a bad value, and the keys the image says are valid, the
values it says each key takes and the default it applies instead must be the reference's rows,
in the reference's order. So the table, the document and the image agree.
"""
import html
import os
import re

from qemu_boot import CMDLINE, ROOT

REFERENCE = os.path.join(ROOT, "docs", "reference", "cmdline.md")
ROW = re.compile(r"^\| `([a-z0-9_]+)` \| (.*?) \| `([^`]*)` \| ")
# What the reference says where the image names what it registered (init/cmdline_opts.h's
# CMDLINE_SUITES_WORDS and CMDLINE_CRASHES_WORDS), and what the image prints there instead.
REGISTERED = [("the registered suites", r"[a-z0-9_]+(?:, [a-z0-9_]+)*"),
              ("the registered crash kinds, none first", r"none(?:, [a-z0-9_]+)*")]


def reference_rows(path=REFERENCE):
    """[(key, values, default)] of the reference's table, the cells as plain text."""
    rows = []
    with open(path) as f:
        for line in f:
            m = ROW.match(line)
            if m:
                rows.append((m.group(1), html.unescape(m.group(2).replace("\\|", "|")),
                             m.group(3)))
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
    """Every key given a bad value: the image's keys, values and defaults are the reference's."""
    rows = reference_rows()
    b.expect(len(rows) >= 20, "only %d rows read from %s" % (len(rows), REFERENCE))
    # The last word for a key counts: tests=none and exit=qemu keep the boot short.
    b.run(" ".join(["%s=?" % k for k, _, _ in rows] + ["frobnicate=1", "tests=none",
                                                        "exit=qemu"]))
    b.status_is(CMDLINE)
    valid_keys_agree(b, "frobnicate")
    for key, values, default in rows:
        m = b.has(r"^cmdline: bad value '\?' for %s= \((.*?); valid: (.*)\); using the "
                  r"default '([^']*)'$" % re.escape(key))
        if not m:
            continue
        b.expect(re.fullmatch(values_pattern(values), m.group(2)) is not None,
                 "%s=: the image takes '%s', the reference says '%s'" % (key, m.group(2),
                                                                          values))
        b.expect(m.group(3) == default, "%s=: the image's default '%s', the reference's '%s'"
                 % (key, m.group(3), default))
    b.has(r"^# copykernel-summary: .*cmdline_errors=%d " % (len(rows) + 1))

