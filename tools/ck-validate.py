#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""ck-validate.py - hold copykernel's JSON records to their schema
(docs/schema/copykernel-records-v1.json; needs Debian's python3-jsonschema).

    ck-validate.py FILE...        every record line of each FILE (a serial or LAVA log, a
                                  bench.jsonl, a host test's output); a FILE that is one
                                  whole JSON object (ck-results.py's summary, ck-report
                                  --fleet --json) is one record
    ck-validate.py -              the same on standard input
    ck-validate.py --schema S ... another schema file

A record line is one holding '{"schema"': from there to the end of the line is the record.
Each problem is one line "FILE:LINE: KIND record: MEMBER: why"; the last line counts the
records and files. Exit status: 0 every record valid, 1 a record is not, 2 a FILE cannot be
read, 3 no record at all in the input.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cklib import schema as ckschema  # noqa: E402


def read(path):
    if path == "-":
        return sys.stdin.buffer.read().decode("utf-8", "replace")
    with open(path, "rb") as f:
        return f.read().decode("utf-8", "replace")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="+", metavar="FILE")
    ap.add_argument("--schema", default=ckschema.SCHEMA_PATH, help="default: %(default)s")
    ap.add_argument("--quiet", action="store_true", help="only the problems")
    args = ap.parse_args(argv)
    sch = ckschema.Schema(args.schema)
    total = bad = 0
    unread = False
    for path in args.files:
        try:
            text = read(path)
        except OSError as e:
            print("ck-validate: %s: cannot read: %s" % (path, e.strerror), file=sys.stderr)
            unread = True
            continue
        n, problems = ckschema.check_any(sch, text, path)
        total += n
        bad += len(problems)
        for p in problems:
            print(p)
    if not args.quiet:
        print("ck-validate: %d record%s in %d file%s, %d problem%s (schema %d)" % (
            total, "" if total == 1 else "s", len(args.files),
            "" if len(args.files) == 1 else "s", bad, "" if bad == 1 else "s", sch.version))
    if unread:
        return 2
    if bad:
        return 1
    return 0 if total else 3


if __name__ == "__main__":
    sys.exit(main())
