#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Build SMBIOS type 17 (memory device) and type 20 (memory device mapped address)
structures, so that QEMU can give the image a DIMM map (QEMU itself builds types 16, 17 and
19 but no 20: REFERENCE.md section 9).

  tools/mk-smbios-dimms.py --map 0:512M=DIMM_A0 --map 512M:512M=DIMM_B0 --out-dir DIR
  tools/mk-smbios-dimms.py --map 0:1G=DIMM_A0,DIMM_B0 --bank DIMM_A0=P0_CH_A --blob FILE

Each --map START:SIZE=LOCATOR[,LOCATOR...] is one physical range (K, M, G, T suffixes, or
0x numbers); several locators make it interleaved over them (one type 20 per device, with
interleave positions 1, 2, ... and data depth 1). Every distinct locator becomes one type 17
whose size is its share of its ranges. Type 17 handles are 0x1100 + i (QEMU's own type 17,
whose place these take, used 0x1100 on), type 20 handles 0x1400 + i; type 20 points at the
type 19 handle QEMU builds (0x1300, --array-mapped-handle) and type 17 at QEMU's type 16
(0x1000, --array-handle).

--out-dir writes one file per structure (QEMU's -smbios file= takes one structure per file;
a type 17 file makes QEMU leave out its own type 17) and prints the QEMU arguments. --blob
writes them all in one file followed by an end-of-table structure, for host tests and fuzz
seeds. Field offsets follow DSP0134 (SMBIOS 2.8/3.x layouts).
"""
import argparse
import os
import struct
import sys

UNITS = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def size_arg(text):
    text = text.strip()
    mult = 1
    if text and text[-1].upper() in UNITS:
        mult = UNITS[text[-1].upper()]
        text = text[:-1]
    try:
        return int(text, 0) * mult
    except ValueError:
        raise argparse.ArgumentTypeError("not a size: %r" % text)


def map_arg(text):
    try:
        rng, locs = text.split("=", 1)
        start, size = rng.split(":", 1)
    except ValueError:
        raise argparse.ArgumentTypeError("--map wants START:SIZE=LOCATOR[,LOCATOR...]")
    start, size = size_arg(start), size_arg(size)
    names = [n for n in locs.split(",") if n]
    if size <= 0 or start % 1024 or size % 1024 or not names:
        raise argparse.ArgumentTypeError("--map %s: a KiB-aligned, non-empty range and at "
                                         "least one locator" % text)
    return start, size, names


def strings(*texts):
    """The string set: each non-empty text NUL-terminated, then one more NUL."""
    body = b"".join(t.encode("ascii") + b"\0" for t in texts if t)
    return body + b"\0" if body else b"\0\0"


def type17(handle, array, size, locator, bank):
    mib = size >> 20
    if mib < 0x7fff:
        size_field, ext = mib, 0
    else:
        size_field, ext = 0x7fff, mib
    nstr = 1
    loc_idx = nstr
    bank_idx = 0
    if bank:
        nstr += 1
        bank_idx = nstr
    nstr += 1
    maker_idx = nstr
    body = struct.pack("<BBHHHHHHBBBBBHHBBBBBIHHHH",
                       17, 0x28, handle,
                       array, 0xfffe,          # array, no error information
                       72, 64,                 # total and data width (ECC)
                       size_field,
                       0x09, 0,                # form factor DIMM, no device set
                       loc_idx, bank_idx,
                       0x02, 0x0002,           # memory type and detail: unknown
                       0,                      # speed
                       maker_idx, 0, 0, 0,     # manufacturer, serial, asset, part
                       0,                      # attributes
                       ext, 0, 0, 0, 0)        # extended size, speed, voltages
    assert len(body) == 0x28
    return body + strings(locator, bank, "copykernel mk-smbios-dimms")


def type20(handle, device, array_mapped, start, end_incl, pos, depth):
    if (end_incl >> 10) < 0xffffffff:
        kstart, kend, xstart, xend = start >> 10, end_incl >> 10, 0, 0
    else:
        kstart, kend, xstart, xend = 0xffffffff, 0xffffffff, start, end_incl
    body = struct.pack("<BBHIIHHBBBQQ", 20, 0x23, handle, kstart, kend, device,
                       array_mapped, 0xff, pos, depth, xstart, xend)
    assert len(body) == 0x23
    return body + strings()


def build(maps, banks, array, array_mapped):
    devices = []             # locator -> handle, in first-seen order
    sizes = {}
    for start, size, names in maps:
        for n in names:
            if n not in sizes:
                devices.append(n)
                sizes[n] = 0
            sizes[n] += size // len(names)
    handle = {n: 0x1100 + i for i, n in enumerate(devices)}
    out = [("t17-%d.bin" % i, type17(handle[n], array, sizes[n], n, banks.get(n, "")))
           for i, n in enumerate(devices)]
    k = 0
    for start, size, names in maps:
        for pos, n in enumerate(names, 1):
            inter = len(names) > 1
            out.append(("t20-%d.bin" % k,
                        type20(0x1400 + k, handle[n], array_mapped, start, start + size - 1,
                               pos if inter else 0, 1 if inter else 0)))
            k += 1
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--map", type=map_arg, action="append", required=True)
    ap.add_argument("--bank", action="append", default=[], help="LOCATOR=BANK_LOCATOR")
    ap.add_argument("--array-handle", type=lambda t: int(t, 0), default=0x1000)
    ap.add_argument("--array-mapped-handle", type=lambda t: int(t, 0), default=0x1300)
    ap.add_argument("--out-dir")
    ap.add_argument("--blob")
    a = ap.parse_args()
    if not a.out_dir and not a.blob:
        ap.error("say where to write: --out-dir DIR and/or --blob FILE")
    banks = {}
    for b in a.bank:
        if "=" not in b:
            ap.error("--bank wants LOCATOR=BANK_LOCATOR")
        loc, bank = b.split("=", 1)
        banks[loc] = bank
    for text in [n for _s, _z, names in a.map for n in names] + list(banks.values()):
        if not text.isascii() or not text.isprintable() or len(text) > 64:
            ap.error("locators must be printable ASCII of at most 64 characters: %r" % text)
    ranges = sorted((s, s + z) for s, z, _n in a.map)
    for (s0, e0), (s1, _e1) in zip(ranges, ranges[1:]):
        if s1 < e0:
            ap.error("--map ranges overlap at 0x%x (list the locators of one range "
                     "together to interleave it)" % s1)
    out = build(a.map, banks, a.array_handle, a.array_mapped_handle)
    if a.out_dir:
        os.makedirs(a.out_dir, exist_ok=True)
        args = []
        for name, data in out:
            path = os.path.join(a.out_dir, name)
            with open(path, "wb") as f:
                f.write(data)
            args += ["-smbios", "file=" + path]
        print(" ".join(args))
    if a.blob:
        with open(a.blob, "wb") as f:
            f.write(b"".join(d for _n, d in out) + struct.pack("<BBH", 127, 4, 0xfeff) +
                    b"\0\0")
    return 0


if __name__ == "__main__":
    sys.exit(main())
