# SPDX-License-Identifier: GPL-2.0-only
"""tools/mk-smbios-dimms.py: the structures it writes are the ones QEMU 7.2 and OVMF took
(the tables dumped from OVMF's shell, tests/fuzz/corpus_smbios/qemu72-*, start with them
byte for byte), and the fields DSP0134 gives for large sizes and addresses."""
import os
import struct
import tempfile

from conftest import ROOT, run_tool

CORPUS = os.path.join(ROOT, "tests", "fuzz", "corpus_smbios")
TOOL = "mk-smbios-dimms"


def blob_for(*args):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "blob")
        r = run_tool(TOOL, *args, "--blob", path)
        assert r.status == 0, r
        with open(path, "rb") as f:
            return f.read()


def structures(data):
    """(type, formatted bytes, strings) of each structure, up to the end structure."""
    out, off = [], 0
    while off < len(data):
        t, n = data[off], data[off + 1]
        end = data.index(b"\0\0", off + n) + 2
        out.append((t, data[off:off + n], data[off + n:end]))
        off = end
        if t == 127:
            break
    return out


def test_qemu_took_the_structures_unchanged():
    for name, args in [
            ("qemu72-q35-1g-two-dimms",
             ["--map", "0:512M=DIMM_A0", "--map", "512M:512M=DIMM_B0",
              "--bank", "DIMM_A0=P0_CHANNEL_A", "--bank", "DIMM_B0=P0_CHANNEL_B"]),
            ("qemu72-q35-4g-interleaved",
             ["--map", "0:2G=DIMM_A0,DIMM_B0", "--map", "4G:2G=DIMM_A1"])]:
        ours = blob_for(*args)
        ours = ours[:-6]                      # without the end structure
        with open(os.path.join(CORPUS, name), "rb") as f:
            qemu = f.read()
        assert qemu.startswith(ours), name


def test_large_sizes_and_addresses_use_the_extended_fields():
    s = structures(blob_for("--map", "5T:64G=BIG"))
    t17 = [x for x in s if x[0] == 17][0][1]
    t20 = [x for x in s if x[0] == 20][0][1]
    assert struct.unpack_from("<H", t17, 0x0c)[0] == 0x7fff
    assert struct.unpack_from("<I", t17, 0x1c)[0] == 64 * 1024          # MiB
    assert struct.unpack_from("<II", t20, 4) == (0xffffffff, 0xffffffff)
    assert struct.unpack_from("<QQ", t20, 0x13) == (5 << 40, (5 << 40) + (64 << 30) - 1)
    assert s[-1][0] == 127


def test_interleaved_positions():
    s = structures(blob_for("--map", "0:1G=A,B,C"))
    t20 = [x[1] for x in s if x[0] == 20]
    assert [x[0x11] for x in t20] == [1, 2, 3] and all(x[0x12] == 1 for x in t20)
    assert [struct.unpack_from("<H", x, 0x0c)[0] for x in t20] == [0x1100, 0x1101, 0x1102]
    t17 = [x[1] for x in s if x[0] == 17]
    assert all(struct.unpack_from("<H", x, 0x0c)[0] == 1024 // 3 for x in t17)


def test_bad_arguments():
    out = ["--blob", os.devnull]
    for args in (["--map", "0:1G=A", "--map", "512M:1G=B"] + out,   # overlapping ranges
                 ["--map", "0:0=A"] + out,                          # empty range
                 ["--map", "0:1G="] + out,                          # no locator
                 ["--map", "1:1G=A"] + out,                         # not KiB-aligned
                 ["--map", "0:1G=A"]):                              # nowhere to write
        r = run_tool(TOOL, *args)
        assert r.status == 2 and "Traceback" not in r.err_text, (args, r)
