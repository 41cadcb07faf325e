# SPDX-License-Identifier: GPL-2.0-only
"""tools/ck-run.py --hmp-when: a command goes to the monitor only once its pattern matches a
serial line received whole, the commands of one pattern go out in the order given and only
once, and a pattern that never matched is named with what it did not send."""
import argparse

from conftest import load_tool

ck_run = load_tool("ck-run")


def sender(monkeypatch, pairs):
    sent = []
    monkeypatch.setattr(ck_run, "hmp", lambda sock, cmd: sent.append(cmd))
    args = argparse.Namespace(monitor="/nonexistent.sock", hmp_when=[list(p) for p in pairs])
    return ck_run.LineCommands(args, "/nonexistent"), sent


def test_waits_for_the_whole_line(monkeypatch):
    lc, sent = sender(monkeypatch, [("^go now$", "nmi")])
    lc.poll(b"boot\r\ngo no")
    assert sent == []
    lc.poll(b"boot\r\ngo now")
    assert sent == [], "a line still being written was matched"
    lc.poll(b"boot\r\ngo now\r\n")
    assert sent == ["nmi"]


def test_one_pattern_sends_in_order_once(monkeypatch):
    lc, sent = sender(monkeypatch, [("wait", "mce 0 2 0x9c 0 0x40 0x86"),
                                    ("wait", "mce 2 3 0x9c 0 0x80 0x86"), ("wait", "nmi")])
    lc.poll(b"a\nwaiting\n")
    lc.poll(b"a\nwaiting\nmore\nwaiting again\n")
    assert sent == ["mce 0 2 0x9c 0 0x40 0x86", "mce 2 3 0x9c 0 0x80 0x86", "nmi"]


def test_patterns_independent_and_unsent_named(monkeypatch, capsys):
    lc, sent = sender(monkeypatch, [("first", "a"), ("never", "b"), ("first", "c")])
    lc.poll(b"the first line\n")
    assert sent == ["a", "c"]
    lc.report_unsent()
    err = capsys.readouterr().err
    assert "'never' never matched: not sent: b" in err and "first" not in err
