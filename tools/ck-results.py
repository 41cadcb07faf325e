#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""ck-results.py - read the run summary copykernel left in UEFI variables.

copykernel stores its summary (JSON) in CopykernelResult0, CopykernelResult1, ... under the
vendor GUID 6c6b6b63-7970-4b65-8e72-6e656c727573; each variable is a 12-byte header ("CKR1",
u16 chunk index, u16 chunk count, u32 run id) and a piece of the JSON. This tool joins the
pieces of the run that wrote chunk 0 and prints the JSON.

    ck-results.py                         # on Linux, from /sys/firmware/efi/efivars
    ck-results.py --efivars DIR           # another efivarfs (or a copy of one)
    ck-results.py --ovmf-vars vars.fd     # from an OVMF variable store file (QEMU pflash)

Exit status: 0 with the JSON on stdout, 1 when there is no (complete) summary.
"""
import argparse
import json
import os
import struct
import sys
import uuid

GUID = uuid.UUID("6c6b6b63-7970-4b65-8e72-6e656c727573")
PREFIX = "CopykernelResult"
AUTH_STORE = uuid.UUID("aaf32c78-947b-439a-a180-2e144ec37792")
PLAIN_STORE = uuid.UUID("ddcf3616-3275-4164-98b6-fe85707ffe7d")
VAR_ADDED = 0x3f


def from_efivars(path):
    """efivarfs files are named NAME-GUID and hold a u32 of attributes, then the data."""
    out = {}
    try:
        names = os.listdir(path)
    except OSError as e:
        raise SystemExit("ck-results: cannot read %s: %s" % (path, e))
    for n in names:
        if n.startswith(PREFIX) and n.endswith("-" + str(GUID)):
            with open(os.path.join(path, n), "rb") as f:
                out[n[:-len(str(GUID)) - 1]] = f.read()[4:]
    return out


def from_ovmf_vars(path):
    """Walk the variable store of an OVMF vars file; keep the live copy of each variable."""
    with open(path, "rb") as f:
        d = f.read()
    if d[40:44] != b"_FVH":
        raise SystemExit("ck-results: %s is not a firmware volume (no _FVH)" % path)
    store = struct.unpack_from("<H", d, 48)[0]
    sig = uuid.UUID(bytes_le=d[store:store + 16])
    if sig not in (AUTH_STORE, PLAIN_STORE):
        raise SystemExit("ck-results: unknown variable store %s in %s" % (sig, path))
    auth = sig == AUTH_STORE
    hdr_len = 60 if auth else 32
    size = struct.unpack_from("<I", d, store + 16)[0]
    pos, end, out = store + 28, store + size, {}
    while pos + hdr_len <= end:
        start_id, state, _, attrs = struct.unpack_from("<HBBI", d, pos)
        if start_id != 0x55aa:
            break
        off = pos + (36 if auth else 8)     # NameSize: after PubKeyIndex (auth) or Attributes
        name_size, data_size = struct.unpack_from("<II", d, off)
        guid = uuid.UUID(bytes_le=d[off + 8:off + 24])
        name_at = pos + hdr_len
        name = d[name_at:name_at + name_size].decode("utf-16-le").rstrip("\0")
        data = d[name_at + name_size:name_at + name_size + data_size]
        if state == VAR_ADDED and guid == GUID and name.startswith(PREFIX):
            out[name] = data
        pos = (name_at + name_size + data_size + 3) & ~3
    return out


def assemble(variables):
    first = variables.get(PREFIX + "0")
    if not first or first[:4] != b"CKR1":
        return None, "no %s0 variable with a CKR1 header" % PREFIX
    _, count, run = struct.unpack_from("<HHI", first, 4)
    parts = []
    for i in range(count):
        v = variables.get("%s%d" % (PREFIX, i))
        if not v or v[:4] != b"CKR1" or struct.unpack_from("<HHI", v, 4) != (i, count, run):
            return None, "chunk %d of %d (run %08x) missing or from another run" % (i, count,
                                                                                  run)
        parts.append(v[12:])
    return b"".join(parts).decode("utf-8"), None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--efivars", default="/sys/firmware/efi/efivars")
    ap.add_argument("--ovmf-vars", metavar="FILE")
    ap.add_argument("--raw", action="store_true", help="print the JSON as stored")
    args = ap.parse_args()
    variables = from_ovmf_vars(args.ovmf_vars) if args.ovmf_vars else from_efivars(args.efivars)
    text, why = assemble(variables)
    if text is None:
        print("ck-results: no copykernel summary: %s" % why, file=sys.stderr)
        return 1
    try:
        obj = json.loads(text)
    except ValueError as e:
        print("ck-results: the stored summary is not valid JSON: %s" % e, file=sys.stderr)
        return 1
    print(text if args.raw else json.dumps(obj, indent=2, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
