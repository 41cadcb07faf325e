#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""cores-x87-ref.py - the known answers of the cores suite's x87 kernel (cores/k_x87.c), from
mpmath at 60 decimal digits, never from the code under test: for inputs x = i/1024 (i = 1 to
767: below pi/4, so no argument reduction), F2XM1 (2^x - 1), FSIN, FCOS, FPTAN (tan x) and
FYL2X with y = 1 (log2 x), each rounded to the nearest double; the first 12 inputs that
qualify. An input is kept only when every one of its five values lies within a quarter
of a unit in the last place of a double (so at least a quarter from a halfway point): any x87
result, extended precision rounded to double, or an emulator's double libm within 3/4 ulp,
rounds to the stored double. Writes cores/x87_ref.c (--out FILE; --check compares instead).

Needs Debian's python3-mpmath. Run: /usr/bin/python3 tools/cores-x87-ref.py
"""
import argparse
import struct
import sys

import mpmath

mpmath.mp.dps = 60
WANT = 12
FUNCS = [("f2xm1", lambda x: mpmath.power(2, x) - 1), ("fsin", mpmath.sin),
         ("fcos", mpmath.cos), ("fptan", mpmath.tan), ("fyl2x", lambda x: mpmath.log(x, 2))]


def nearest(v):
    """(the nearest double to @v, @v's distance from it in units of its last place)."""
    d = float(v)
    ulp = abs(float(mpmath.mpf(d)) - struct.unpack("<d", struct.pack(
        "<q", struct.unpack("<q", struct.pack("<d", d))[0] + 1))[0])
    return d, abs(mpmath.mpf(d) - v) / ulp


def bits(d):
    return struct.unpack("<Q", struct.pack("<d", d))[0]


def table():
    rows = []
    for i in range(1, 768):
        x = mpmath.mpf(i) / 1024
        vals = [nearest(f(x)) for _, f in FUNCS]
        if all(off <= 0.25 for _, off in vals):
            rows.append((i, [d for d, _ in vals]))
        if len(rows) == WANT:
            break
    return rows


def text(rows):
    out = ["// SPDX-License-Identifier: GPL-2.0-only",
           "/*",
           " * x87_ref.c - the x87 kernel's known answers, written by tools/cores-x87-ref.py from",
           " * mpmath %s at %d digits (never by this code): for x = i/1024, the doubles nearest" % (
               mpmath.__version__, mpmath.mp.dps),
           " * to 2^x - 1, sin x, cos x, tan x and log2 x, each within 1/4 ulp of its true value.",
           " */",
           '#include "cores/x87_ref.h"',
           "",
           "const struct cores_x87_ref cores_x87_ref[CORES_X87_INPUTS] = {"]
    for i, ds in rows:
        words = ["0x%016xULL" % bits(d) for d in ds]
        out.append("\t{ %d, { %s," % (i, ", ".join(words[:3])))
        out.append("\t\t%s } }," % ", ".join(words[3:]))
    out += ["};", ""]
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="cores/x87_ref.c")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    rows = table()
    if len(rows) != WANT:
        sys.exit("cores-x87-ref: only %d inputs qualify" % len(rows))
    t = text(rows)
    if a.check:
        same = open(a.out).read() == t
        print("cores-x87-ref: %s %s" % (a.out, "matches" if same else "DIFFERS"))
        sys.exit(0 if same else 1)
    with open(a.out, "w") as f:
        f.write(t)


if __name__ == "__main__":
    main()
