# SPDX-License-Identifier: GPL-2.0-only
"""build/ck-decode (host/decode/ck-decode.c, `make` builds it) end to end: the JSON it prints
for records in Linux's and the image's words, the labels of a board whose UMCs are not in
slot order, and how it refuses: a bad input line named with its number (exit 1), a labels
file that breaks a rule named with its line (exit 2), --board without --labels (exit 2).

Expected values are worked out by hand from the register values (see each test), not from
the decoder: IPID 0x9600750f00 has HardwareID 0x096, McaType 0 and instance 0x00750f00, whose
bits 31..20 are 7 (UMC 7); SYND 0x1c0005 has chip select 5 (bits 2..0): DIMM 2, its odd
chip select (rank 1). CK_BUILD=DIR takes the binary from DIR instead of build/.
"""
import json
import os
import subprocess

from conftest import ROOT

DECODE = os.path.join(os.environ.get("CK_BUILD", os.path.join(ROOT, "build")), "ck-decode")

LINUX = """\
[  101.5] mce: [Hardware Error]: Machine check events logged
[  101.5] mce: [Hardware Error]: CPU 12: Machine Check: 0 Bank 18: dc2040000000011b
[  101.5] mce: [Hardware Error]: TSC 0 ADDR 3fdf6c0 MISC d01a0fff01000000 SYND 1c0005 IPID 9600750f00
[  101.5] mce: [Hardware Error]: PROCESSOR 2:a10f11 TIME 1764979200 SOCKET 1 APIC 18 microcode a10113e
"""

# Slots A-H on UMCs 0 1 3 2 6 7 5 4 of node 1 (one DIMM per channel: chip selects 0 and 1).
LABELS = """\
Vendor: Example Server Co.
  Model: H13SSL-N
    A: 1.0.0, 1.1.0;  B: 1.0.1, 1.1.1;  C: 1.0.3, 1.1.3;  D: 1.0.2, 1.1.2;
    E: 1.0.6, 1.1.6;  F: 1.0.7, 1.1.7;  G: 1.0.5, 1.1.5;  H: 1.0.4, 1.1.4;
"""


def run(args, stdin):
    assert os.access(DECODE, os.X_OK), "%s is missing: make" % DECODE
    return subprocess.run([DECODE] + args, input=stdin, capture_output=True, text=True,
                          timeout=30)


def records(out):
    return [json.loads(line) for line in out.splitlines()]


def test_linux_record():
    r = run([], LINUX)
    assert r.returncode == 0, r.stderr
    (rec,) = records(r.stdout)
    assert (rec["source"], rec["cpu"], rec["bank"]) == ("linux", 12, 18)
    assert (rec["node"], rec["umc"], rec["cs"], rec["dimm"], rec["rank"]) == (1, 7, 5, 2, 1)
    assert rec["severity"] == "corrected" and rec["label"] is None


def test_labels_out_of_slot_order(tmp_path):
    db = tmp_path / "labels"
    db.write_text(LABELS)
    # Chip select 1 of each UMC: the slot letter follows the board, not the UMC number.
    for umc, slot in zip((0, 1, 3, 2, 6, 7, 5, 4), "ABCDEFGH"):
        log = LINUX.replace("IPID 9600750f00", "IPID 96%03x50f00" % umc).replace(
            "SYND 1c0005", "SYND 1c0001")
        r = run(["--labels", str(db), "--board", "Example Server Co./H13SSL-N"], log)
        assert r.returncode == 0, r.stderr
        (rec,) = records(r.stdout)
        assert (rec["umc"], rec["cs"], rec["label"]) == (umc, 1, slot)
    # Chip select 5 of UMC 7 (DIMM 2) is not in the file: no label, and the reason says so.
    r = run(["--labels", str(db), "--board", "example server co./h13ssl-n"], LINUX)
    (rec,) = records(r.stdout)
    assert rec["label"] is None and "no label" in rec["reason"]


def test_image_lines_and_unknown():
    log = ("mce-poll: CPU 3 (APIC id 6, node 0) bank 17: corrected, STATUS 0x9c00400000000000 "
           "[VAL EN MISCV ADDRV], MCACOD 0x011b: x\n"
           "mce-poll:   no usable address (ADDR 0x3fdf6c0 MISC 0x0)\n"
           "mce-poll:   IPID 0x9600750f00 SYND 0x1c0005 AMD node 0\n")
    r = run([], log)
    assert r.returncode == 0, r.stderr
    (rec,) = records(r.stdout)
    # STATUS bit 53 (SyndV) is clear in 0x9c00...: no chip select, nothing guessed.
    assert rec["source"] == "image" and rec["node"] == 0
    assert rec["umc"] is None and rec["dimm"] is None and "SyndV" in rec["reason"]


def test_bad_line_named():
    r = run([], "noise\nCPU 2: Machine Check: 0 Bank zz: 1\n" + LINUX)
    assert r.returncode == 1
    assert ":2:" in r.stderr and len(records(r.stdout)) == 1


def test_bad_labels_file_refused(tmp_path):
    db = tmp_path / "labels"
    db.write_text("Vendor: V\n  Model: M\n    A 1.0.0;\n")
    r = run(["--labels", str(db), "--board", "V/M"], LINUX)
    assert r.returncode == 2 and (str(db) + ":3:") in r.stderr and r.stdout == ""
    assert run(["--board", "V/M"], LINUX).returncode == 2
