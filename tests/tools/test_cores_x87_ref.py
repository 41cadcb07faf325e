# SPDX-License-Identifier: GPL-2.0-only
"""test_cores_x87_ref.py - the x87 kernel's stored known answers (cores/x87_ref.c) are what
tools/cores-x87-ref.py computes with mpmath today, and the generator's own rule holds: every
stored double is within a quarter ulp of mpmath's value of its function."""
import os
import re
import struct
import subprocess
import sys

import mpmath

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(ROOT, "tools", "cores-x87-ref.py")
REF = os.path.join(ROOT, "cores", "x87_ref.c")


def test_stored_table_is_the_generators():
    p = subprocess.run([sys.executable, TOOL, "--check", "--out", REF],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert p.returncode == 0, p.stdout


def stored():
    """(num, [five words]) of each row of cores/x87_ref.c."""
    return [(int(m.group(1)), [int(w, 16) for w in re.findall(r"0x([0-9a-f]{16})ULL",
                                                              m.group(2))])
            for m in re.finditer(r"\{ (\d+), \{([^}]*)\} \}", open(REF).read())]


def test_each_value_within_a_quarter_ulp():
    mpmath.mp.dps = 60
    funcs = [lambda x: mpmath.power(2, x) - 1, mpmath.sin, mpmath.cos, mpmath.tan,
             lambda x: mpmath.log(x, 2)]
    rows = stored()
    assert len(rows) == 12
    for num, words in rows:
        assert len(words) == 5 and 0 < num < 804      # x < pi/4
        x = mpmath.mpf(num) / 1024
        for f, w in zip(funcs, words):
            d = struct.unpack("<d", struct.pack("<Q", w))[0]
            nxt = struct.unpack("<d", struct.pack("<Q", w + 1))[0]
            assert abs(mpmath.mpf(d) - f(x)) <= abs(nxt - d) / 4, (num, hex(w))
