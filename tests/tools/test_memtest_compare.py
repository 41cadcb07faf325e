# SPDX-License-Identifier: GPL-2.0-only
"""tools/memtest-compare.py and tools/cklib/vt100.py: a screen-drawing console replayed into
its grid (hand-written VT100 streams, and memtest86+ 6.10's real serial output with a stuck
bit injected, tests/data/memtest86plus/), its error rows read, and which reports name a fault
rightly; tools/cklib/inject.py's layout rule and fault specs."""
import os

import pytest

from conftest import ROOT, load_tool

mc = load_tool("memtest-compare")
vt100, inject = mc.vt100, mc.inject
CAPTURE = os.path.join(ROOT, "tests", "data", "memtest86plus", "stuck1-512M.serial")
ONES = (1 << 64) - 1


def screen_of(*chunks, cols=80, rows=25):
    s = vt100.Screen(cols, rows)
    for c in chunks:
        s.feed(c)
    return s


def test_cursor_positions_are_one_based_and_clamped():
    s = screen_of("\x1b[2J\x1b[3;5Habc\x1b[1;1HX\x1b[99;99HZ\x1b[HY")
    assert s.row_text(2) == "    abc"
    assert s.row_text(0) == "Y"
    assert s.row_text(24) == " " * 79 + "Z"


def test_sequence_cut_between_chunks_and_ignored_modes():
    s = screen_of("\x1b[=3h\x1b[0mhi\x1b[", "2;", "3Hyo\x1b[7m!\x1b[0m")
    assert s.row_text(0) == "hi"
    assert s.row_text(1) == "  yo!"


def test_erase_and_newlines_and_wrap():
    s = screen_of("one\r\ntwo\x1b[1;2H\x1b[K", cols=10, rows=3)
    assert s.text().split("\n") == ["o", "two", ""]
    s = screen_of("0123456789ab\n\nz", cols=10, rows=3)
    # Wrapped past the last column, then scrolled up by one; LF alone keeps the column.
    assert s.text().split("\n") == ["ab", "", "  z"]
    s = screen_of("aaaa\r\nbbbb\x1b[1;3H\x1b[J", cols=4, rows=2)
    assert s.text().split("\n") == ["aa", ""]


def test_memtest_capture_error_row():
    """The real capture: the error row says what the injector did (bit 3 of 0x4000a08 forced
    to 1 in a word memtest86+ filled with zeros), in test 3 of pass 0 on CPU 0."""
    with open(CAPTURE, "rb") as f:
        data = f.read()
    s, reports, seen = vt100.Screen(), [], set()
    for i in range(0, len(data), 512):         # as it came: in pieces, sequences cut anywhere
        s.feed(data[i:i + 512])
        mc.memtest_reports(s, i, reports, seen)
    assert "Memtest86+ v6.10" in s.text() and mc.CLOCK.search(s.text())
    assert [(r["cpu"], r["pass"], r["test"], r["addr"], r["expected"], r["actual"])
            for r in reports] == [(0, 0, 3, 0x4000a08, 0, 8)]
    assert mc.judge("stuck1", reports) is reports[0]
    assert mc.judge("stuck0", reports) is None


def rep(addr, expected, actual):
    return {"addr": addr, "expected": expected, "actual": actual, "t": 0}


@pytest.mark.parametrize("name,reports,right", [
    ("stuck0", [rep(0x06000010, ONES, ONES ^ 1 << 40)], True),
    ("stuck0", [rep(0x06000018, ONES, ONES ^ 1 << 40)], False),      # the next word
    ("stuck0", [rep(0x06000010, ONES, ONES ^ 1 << 41)], False),      # another bit
    ("ones", [rep(0x14000018, ONES, ONES ^ 1 << 63)], True),
    ("zeros", [rep(0x12345670, 0, 1 << 17), rep(0x12345670, 0, 3 << 17)], True),
    # The alias: its own address read back as the word 1 MiB below.
    ("alias", [rep(0x0a100020, 0x0a100020, 0x0a000020)], True),
    ("alias", [rep(0x0a100020, ONES ^ 0x0a100020, ONES ^ 0x0a000020)], True),
    ("alias", [rep(0x0a100020, 0, 1 << 20)], False),          # the address alone
    ("alias", [rep(0x0a000020, 0x0a000020, 0x0a100020)], False),  # the wrong word
    # One cell: either address, with the other one shown.
    ("cell", [rep(0x0e000028, 0x0e000028, 0x0c000028)], True),
    ("cell", [rep(0x0c000028, 5, 6), rep(0x0e000028, 6, 5)], True),
    ("cell", [rep(0x0c000028, 5, 6)], False),
    ("flip", [rep(0x18000038, 0x1234, 0x1234 ^ 1 << 9)], True),
    ("fade", [], False),
])
def test_judge(name, reports, right):
    assert (mc.judge(name, reports) is not None) == right


def test_specs_and_layout():
    assert inject.spec("stuck1") == "stuck1:0x4000a08:3"
    assert inject.spec("cell") == "cell:0xc000028:0xe000028"
    assert inject.spec("fade") == "fade:0x16000030:5:4000"
    assert inject.check_layout("1G", []) == 1 << 30
    assert inject.check_layout("512", ["-vga std"]) == 512 << 20
    for mem, extra in (("2G", []), ("1025M", []), ("1G", ["-numa node,memdev=m0"]),
                       ("1G", ["-machine pc"]), ("lots", [])):
        with pytest.raises(inject.Refused):
            inject.check_layout(mem, extra)
    # No two faults share a 32 MiB, all inside 512 MiB, past the first 32 MiB.
    regions = [{a >> 25, (arg if n in inject.DECODER else a) >> 25}
               for n, (k, a, arg, _) in inject.FAULTS.items()]
    assert all(not (r & q) for i, r in enumerate(regions) for q in regions[i + 1:])
    addrs = [a for n, (k, a, arg, _) in inject.FAULTS.items()] + \
        [arg for n, (k, a, arg, _) in inject.FAULTS.items() if n in inject.DECODER]
    assert all(32 << 20 <= a < 512 << 20 and a % 8 == 0 for a in addrs)


LINE = ("# soak-event: 4.295975000s CPU 0 miscompare: expected 0xfffffffff9ffffef actual "
        "0xfffffefff9ffffef, differing bit 40, written by soak_march_mc (address-inverted), "
        "stored error (the re-read stays wrong), physical 0x6000010 (8 bytes), node 0, soak "
        "range 0x1200000+0x3ce0b000, no DIMM map from firmware")
RECORD = ('{"schema":1,"kind":"soak_event","t_ns":4295975000,"cpu":0,"event":"miscompare",'
          '"expected":"0xfffffffff9ffffef","actual":"0xfffffefff9ffffef","phys":"0x6000010"}')


def test_soak_report_taken_from_its_line_once():
    """The first report is the line printed when the word was found (a real line from a
    run, 2026-12-06), not the ledger's record at the end; that record is not a second one."""
    reports = []
    mc.soak_record(LINE, 4.3, reports)
    mc.soak_record("soak: progress: 10s elapsed", 10.0, reports)
    mc.soak_record(RECORD, 14.7, reports)
    assert [(r["t"], r["addr"]) for r in reports] == [(4.3, 0x6000010)]
    assert mc.judge("stuck0", reports) is reports[0]


def test_soak_record_without_a_line_still_counts():
    reports = []
    mc.soak_record(RECORD, 14.7, reports)
    mc.soak_record(RECORD.replace("0x6000010", "0x6000018"), 14.7, reports)
    assert [r["addr"] for r in reports] == [0x6000010, 0x6000018]
    # two equal events, two lines then two records: two reports
    reports = []
    for text, t in ((LINE, 1.0), (LINE, 2.0), (RECORD, 9.0), (RECORD, 9.0)):
        mc.soak_record(text, t, reports)
    assert [r["t"] for r in reports] == [1.0, 2.0]
