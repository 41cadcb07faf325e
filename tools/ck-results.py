#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""ck-results.py - read the run summary copykernel left in UEFI variables.

copykernel stores its summary (JSON) in CopykernelResult0, CopykernelResult1, ... under the
vendor GUID 6c6b6b63-7970-4b65-8e72-6e656c727573; each variable is a 12-byte header ("CKR1",
u16 chunk index, u16 chunk count, u32 run id) and a piece of the JSON. This tool joins the
chunks 0..count-1 of the run that wrote chunk 0 and prints the JSON. Chunks of other runs (an
older, longer summary whose tail was never deleted) are ignored and named on stderr.

    ck-results.py                         # on Linux, from /sys/firmware/efi/efivars
    ck-results.py --efivars DIR           # another efivarfs (or a copy of one)
    ck-results.py --ovmf-vars vars.fd     # from an OVMF variable store file (QEMU pflash)
    ck-results.py --checkpoint ...        # only the soak's black box, decoded, as JSON

The run's verdict (the summary's "result": PASS, FAIL, PANIC, or ERROR with "reason": "cmdline"
for a command line the image could not take whole; from "status" for a summary stored before
"result" existed) is said on stderr when it is not PASS: "ck-results: SOURCE: run 1a2b3c4d:
result=ERROR reason=cmdline: 2 command-line errors, the first: 'soak=15q': bad value (...)".

The soak's black box is one more variable of that GUID, CopykernelSoak: the last checkpoint a
soak wrote (soak/blackbox.h, decoded by tools/cklib/blackbox.py). When one is there, the
summary printed gains "soak_checkpoint" (its decoded fields and the line the image's next
boot prints), and a soak that ended without its summary (a reset, a hang, a panic in hour
three) is said on stderr: "ck-results: SOURCE: the soak ended without a summary: previous run
1a2b3c4d ended without a summary; its last checkpoint (19 written) was 3h02m05s into the soak:
...". A
damaged checkpoint is named on stderr and does not hide the summary.

In an OVMF vars file a variable can be present more than once. As EDK2's variable driver
does, the copy in state VAR_ADDED (0x3f) is the live one; a copy in state VAR_ADDED &
VAR_IN_DELETED_TRANSITION (0x3e: the firmware began to replace it and did not finish, e.g.
because the store was full) is still the live one when no VAR_ADDED copy exists; every other
state (header only, deleted) is ignored.
"""
import argparse
import json
import os
import re
import struct
import sys
import uuid
from collections import namedtuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cklib import blackbox  # noqa: E402
from cklib.common import (EXIT_OK, BadInput, NoResult, loads_strict,  # noqa: E402
                          os_problem, run_main)

TOOL = "ck-results"
GUID = uuid.UUID("6c6b6b63-7970-4b65-8e72-6e656c727573")
PREFIX = "CopykernelResult"
NAMES = (PREFIX, blackbox.VAR_NAME)         # the variables read: the summary's, the soak's
CHUNK_NAME = re.compile(r"CopykernelResult(0|[1-9][0-9]{0,5})\Z")
HEADER = struct.Struct("<4sHHI")            # "CKR1", chunk index, chunk count, run id
AUTH_STORE = uuid.UUID("aaf32c78-947b-439a-a180-2e144ec37792")
PLAIN_STORE = uuid.UUID("ddcf3616-3275-4164-98b6-fe85707ffe7d")
FV_HEADER_MIN = 56                          # EFI_FIRMWARE_VOLUME_HEADER up to its block map
STORE_HEADER = 28                           # VARIABLE_STORE_HEADER
STORE_FORMATTED, STORE_HEALTHY = 0x5a, 0xfe
VARIABLE_DATA = 0x55aa                      # StartId of every variable header
VAR_IN_DELETED_TRANSITION = 0xfe
VAR_DELETED = 0xfd
VAR_ADDED = 0x3f
VAR_ADDED_IN_TRANSITION = VAR_ADDED & VAR_IN_DELETED_TRANSITION     # 0x3e

EPILOG = """exit status:
  0  the summary is on stdout (the run's verdict when it is not PASS, notes about ignored
     stale chunks and the soak's checkpoint on stderr); with --checkpoint: the decoded
     checkpoint is on stdout
  1  no summary: no CopykernelResult0 variable, or a chunk of its run is missing or belongs
     to another run (an incomplete store is not an error in the file); with --checkpoint:
     no CopykernelSoak variable
  2  usage error (bad options)
  3  bad input: the directory or file is missing or unreadable, the OVMF file is truncated
     or corrupt, a chunk the summary needs is damaged, or the joined text is not UTF-8 JSON;
     with --checkpoint: the CopykernelSoak variable is damaged
every failure is one line on stderr: "ck-results: FILE: what is wrong (where)"."""

# One variable as read: its data (None when unreadable), where it came from, and why it
# cannot be used (None when it can).
Var = namedtuple("Var", "data file where problem")


def read_efivars(path):
    """efivarfs files are named NAME-GUID and hold a u32 of attributes, then the data.

    Returns {name: Var} for the CopykernelResult* and CopykernelSoak variables."""
    try:
        names = sorted(os.listdir(path))
    except OSError as e:
        raise BadInput(path, "cannot list the efivarfs directory: %s" % os_problem(e))
    out = {}
    suffix = "-" + str(GUID)
    for n in names:
        if not (n.startswith(NAMES) and n.lower().endswith(suffix)):
            continue
        full = os.path.join(path, n)
        try:
            with open(full, "rb") as f:
                d = f.read()
        except OSError as e:
            raise BadInput(full, "cannot read the variable: %s" % os_problem(e),
                           "efivarfs file")
        name = n[:-len(suffix)]
        if len(d) < 4:
            out[name] = Var(None, full, "efivarfs file",
                            "%d bytes, shorter than the 4-byte attributes" % len(d))
        else:
            out[name] = Var(d[4:], full, "data after the 4-byte attributes", None)
    return out


def from_efivars(path):
    """{name: data} of the readable CopykernelResult* variables in an efivarfs directory."""
    return {n: v.data for n, v in read_efivars(path).items() if v.data is not None}


def u16(d, at):
    return struct.unpack_from("<H", d, at)[0]


def u32(d, at):
    return struct.unpack_from("<I", d, at)[0]


def align4(n):
    return (n + 3) & ~3


def fv_blocks(d, hdr_len):
    """The bytes the firmware volume's block map adds up to, or None without its {0, 0} end."""
    total = 0
    for at in range(FV_HEADER_MIN, hdr_len - 7, 8):
        blocks, length = struct.unpack_from("<II", d, at)
        if not blocks and not length:
            return total
        total += blocks * length
    return None


def fv_header(d, path):
    """The offset of the variable store in the firmware volume @d, after its header's checks.

    The header (PI spec, EFI_FIRMWARE_VOLUME_HEADER) holds FvLength, HeaderLength, a checksum
    (its 16-bit words add up to zero) and a block map that adds up to FvLength. When they
    disagree the header is corrupt; only a file shorter than what a sound header says is
    truncated."""
    if len(d) < 44 or d[40:44] != b"_FVH":
        raise BadInput(path, "not a firmware volume (no _FVH signature)",
                       "bytes 40..43 of %d" % len(d))
    if len(d) < FV_HEADER_MIN:
        raise BadInput(path, "firmware volume header truncated to %d bytes" % len(d),
                       "need %d" % FV_HEADER_MIN)
    fv_len, hdr_len = struct.unpack_from("<Q", d, 32)[0], u16(d, 48)
    if hdr_len < FV_HEADER_MIN or hdr_len % 2 or hdr_len > fv_len:
        raise BadInput(path, "firmware volume header corrupt: HeaderLength %d in a volume of "
                       "%d bytes (FvLength)" % (hdr_len, fv_len), "HeaderLength at byte 48")
    if hdr_len > len(d):
        raise BadInput(path, "file truncated in the firmware volume header: %d of its %d "
                       "bytes" % (len(d), hdr_len), "HeaderLength at byte 48")
    if sum(struct.unpack_from("<%dH" % (hdr_len // 2), d)) & 0xffff:
        raise BadInput(path, "firmware volume header corrupt: its checksum does not add up "
                       "(FvLength %d, HeaderLength %d)" % (fv_len, hdr_len),
                       "Checksum at byte 50")
    blocks = fv_blocks(d, hdr_len)
    if blocks != fv_len:
        raise BadInput(path, "firmware volume header corrupt: FvLength says %d bytes, the "
                       "block map %s" % (fv_len, "has no end" if blocks is None else
                                          "%d" % blocks), "FvLength at byte 32")
    if fv_len > len(d):
        raise BadInput(path, "file truncated: the firmware volume has %d bytes, the file %d"
                       % (fv_len, len(d)), "FvLength at byte 32")
    if hdr_len + STORE_HEADER > len(d):
        raise BadInput(path, "firmware volume header length %d does not leave room for a "
                       "variable store in %d bytes" % (hdr_len, len(d)),
                       "HeaderLength at byte 48")
    return hdr_len


def read_ovmf(path):
    """Walk the variable store of an OVMF vars file; keep the live copy of each variable.

    Returns ({name: Var}, [notes])."""
    try:
        with open(path, "rb") as f:
            d = f.read()
    except OSError as e:
        raise BadInput(path, "cannot read the OVMF vars file: %s" % os_problem(e))
    store = fv_header(d, path)
    raw_sig = d[store:store + 16]
    size = u32(d, store + 16)
    fmt, state = d[store + 20], d[store + 21]
    if raw_sig == b"\xff" * 16 and size == 0xffffffff and fmt == 0xff and state == 0xff:
        raise NoResult(path, "no copykernel summary: the variable store is blank (never "
                       "formatted by the firmware)", "store header at offset %#x" % store)
    sig = uuid.UUID(bytes_le=raw_sig)
    if sig not in (AUTH_STORE, PLAIN_STORE):
        raise BadInput(path, "unknown variable store signature %s" % sig,
                       "store header at offset %#x" % store)
    if fmt != STORE_FORMATTED or state != STORE_HEALTHY:
        raise BadInput(path, "variable store not formatted and healthy (format %#04x, state "
                       "%#04x; want %#04x, %#04x)" % (fmt, state, STORE_FORMATTED,
                                                     STORE_HEALTHY),
                       "store header at offset %#x" % store)
    end = store + size
    if size < STORE_HEADER or end > len(d):
        raise BadInput(path, "variable store size %d does not fit the file (%d bytes from "
                       "offset %#x)" % (size, len(d) - store, store),
                       "store header at offset %#x" % store)
    auth = sig == AUTH_STORE
    hdr_len = 60 if auth else 32
    sizes_at = 36 if auth else 8            # NameSize, DataSize: after PubKeyIndex or Attributes
    added, in_transition = {}, {}
    pos = align4(store + STORE_HEADER)
    while pos + 2 <= end and u16(d, pos) == VARIABLE_DATA:
        where = "variable header at offset %#x" % pos
        if pos + hdr_len > end:
            raise BadInput(path, "variable header cut off by the end of the store", where)
        state, attrs = d[pos + 2], u32(d, pos + 4)
        name_size, data_size = struct.unpack_from("<II", d, pos + sizes_at)
        if (state == 0xff or attrs == 0xffffffff or name_size == 0xffffffff or
                data_size == 0xffffffff):
            name_size = data_size = 0       # a header the firmware never finished writing
        name_at = pos + hdr_len
        data_at = name_at + name_size
        if data_at + data_size > end:
            raise BadInput(path, "variable of %d name and %d data bytes runs past the end of "
                           "the store" % (name_size, data_size), where)
        if state in (VAR_ADDED, VAR_ADDED_IN_TRANSITION):
            guid = uuid.UUID(bytes_le=d[pos + sizes_at + 8:pos + sizes_at + 24])
            raw_name = d[name_at:data_at]
            name = raw_name.decode("utf-16-le", "replace").rstrip("\0")
            if guid == GUID and name.startswith(NAMES):
                v = Var(d[data_at:data_at + data_size], path, "variable %s at offset %#x" %
                        (name, pos), None)
                if state == VAR_ADDED:
                    added.setdefault(name, v)           # EDK2 takes the first VAR_ADDED copy
                else:
                    in_transition[name] = v             # ... else the last one in transition
        pos = align4(data_at + data_size)
    out, notes = dict(added), []
    for name, v in sorted(in_transition.items()):
        if name not in out:
            out[name] = v
            notes.append("%s: %s: %s is in deleted transition (state %#04x) with no newer "
                         "copy: using it (%s)" % (TOOL, path, name, VAR_ADDED_IN_TRANSITION,
                                                  v.where))
    return out, notes


def from_ovmf_vars(path):
    """{name: data} of the live CopykernelResult* (and CopykernelSoak) variables in an OVMF
    vars file."""
    return {n: v.data for n, v in read_ovmf(path)[0].items()}


def chunk_header(v):
    """(index, count, run id) of a chunk, or a string saying why it has none."""
    if v.problem:
        return v.problem
    if len(v.data) < HEADER.size:
        return "%d bytes, shorter than the %d-byte CKR1 header" % (len(v.data), HEADER.size)
    magic, index, count, run = HEADER.unpack_from(v.data)
    if magic != b"CKR1":
        return "no CKR1 header (starts with %r)" % v.data[:4]
    if index >= count:
        return "header says chunk %d of %d" % (index, count)
    return index, count, run


Run = namedtuple("Run", "payload run count chunks stale")


def pick_run(variables, source):
    """The complete run in {name: Var}: chunks 0..count-1 of the run id chunk 0 names.

    Each chunk name exists once in a store, so the only run that can be complete is the one
    CopykernelResult0 belongs to; chunks of other runs are stale (an older, longer summary)
    and reported in Run.stale. Raises NoResult when the run is incomplete, BadInput when a
    chunk it needs is damaged."""
    chunks = {}
    for name, v in variables.items():
        m = CHUNK_NAME.match(name)
        if m:
            chunks[int(m.group(1))] = (name, v, chunk_header(v))
    if 0 not in chunks:
        others = ", ".join(chunks[i][0] for i in sorted(chunks))
        raise NoResult(source, "no copykernel summary: no %s0 variable" % PREFIX,
                       "stale chunks: " + others if others else "no %s* variables" % PREFIX)
    name0, v0, h0 = chunks[0]
    if isinstance(h0, str):
        raise BadInput(v0.file, "damaged chunk %s: %s" % (name0, h0), v0.where)
    if h0[0] != 0:
        raise BadInput(v0.file, "damaged chunk %s: header says chunk %d of %d" %
                       (name0, h0[0], h0[1]), v0.where)
    _, count, run = h0
    parts = []
    for i in range(count):
        if i not in chunks:
            raise NoResult(source, "no copykernel summary: chunk %d of %d (run %08x) is "
                           "missing" % (i, count, run), "no %s%d variable" % (PREFIX, i))
        name, v, h = chunks[i]
        if isinstance(h, str):
            raise BadInput(v.file, "damaged chunk %s of run %08x: %s" % (name, run, h),
                           v.where)
        if h[2] != run:
            raise NoResult(source, "no copykernel summary: chunk %d of %d (run %08x) is "
                           "missing or from another run" % (i, count, run),
                           "%s holds chunk %d of %d of run %08x" % (name, h[0], h[1], h[2]))
        if h != (i, count, run):
            raise BadInput(v.file, "damaged chunk %s of run %08x: header says chunk %d of %d, "
                           "chunk 0 says %d chunks" % (name, run, h[0], h[1], count), v.where)
        parts.append(v.data[HEADER.size:])
    stale = []
    for i in sorted(chunks):
        if i >= count:
            name, v, h = chunks[i]
            stale.append("%s (%s)" % (name, "run %08x, chunk %d of %d" % (h[2], h[0], h[1])
                                      if not isinstance(h, str) else h))
    return Run(b"".join(parts), run, count, [chunks[i][0] for i in range(count)], stale)


def assemble(variables):
    """(JSON text, None) of the complete run in {name: data}, or (None, why not)."""
    wrapped = {n: Var(d, "<variables>", n, None) for n, d in variables.items()}
    try:
        r = pick_run(wrapped, "<variables>")
        return r.payload.decode("utf-8"), None
    except BadInput as e:
        return None, e.what
    except UnicodeDecodeError as e:
        return None, "the joined chunks are not UTF-8: %s" % e.reason


def decode_summary(r, source):
    """The text and the object of a complete run's JSON; BadInput when it is not JSON."""
    where = "%s0..%d, run %08x" % (PREFIX, r.count - 1, r.run)
    try:
        text = r.payload.decode("utf-8")
    except UnicodeDecodeError as e:
        raise BadInput(source, "the stored summary is not UTF-8 (byte %#04x)" %
                       r.payload[e.start], "%s, byte %d of the JSON" % (where, e.start))
    try:
        obj = loads_strict(text, finite=True)
    except ValueError as e:
        what = e.msg if isinstance(e, json.JSONDecodeError) else str(e)
        at = ", char %d" % e.pos if isinstance(e, json.JSONDecodeError) else ""
        raise BadInput(source, "the stored summary is not valid JSON: %s" % what, where + at)
    except RecursionError:
        raise BadInput(source, "the stored summary is nested too deeply", where)
    if not isinstance(obj, dict):
        raise BadInput(source, "the stored summary is a JSON %s, not an object" %
                       type(obj).__name__, where)
    return text, obj


VERDICTS = ("PASS", "FAIL", "PANIC", "ERROR")     # by status, kernel/include/status.h


def verdict_of(obj):
    """The summary's verdict word: its "result", else what its integer "status" 0..3 means
    (a summary stored before "result" existed); None when neither says."""
    if isinstance(obj.get("result"), str):
        return obj["result"]
    s = obj.get("status")
    return VERDICTS[s] if type(s) is int and 0 <= s < len(VERDICTS) else None


def verdict_line(obj, run, source):
    """The stderr line for a verdict that is not PASS, or None."""
    v = verdict_of(obj)
    if v in (None, "PASS"):
        return None
    reason = obj.get("reason")
    if reason is None and v == "ERROR" and "result" not in obj:
        reason = "cmdline"
    out = "%s: %s: run %08x: result=%s" % (TOOL, source, run, v)
    if isinstance(reason, str):
        out += " reason=" + reason
    n, first = obj.get("cmdline_errors"), obj.get("cmdline_problems")
    if type(n) is int and n > 0:
        out += ": %d command-line error%s" % (n, "" if n == 1 else "s")
        if isinstance(first, list) and first and isinstance(first[0], str):
            out += ", the first: " + first[0]
    return out


def checkpoint_of(variables):
    """(Checkpoint, None) of the CopykernelSoak variable, (None, BadInput) when it is
    damaged, (None, None) when there is none."""
    v = variables.get(blackbox.VAR_NAME)
    if v is None:
        return None, None
    where = "%s (%s)" % (v.where, blackbox.VAR_NAME) if blackbox.VAR_NAME not in v.where \
        else v.where
    if v.problem:
        return None, BadInput(v.file, "damaged soak checkpoint: " + v.problem, where)
    try:
        return blackbox.decode(v.data), None
    except blackbox.Damaged as e:
        return None, BadInput(v.file, "damaged soak checkpoint: %s" % e, where)


def say_checkpoint(ck, damage, source):
    """The stderr line for what the soak's black box holds (nothing for a finished soak)."""
    if damage is not None:
        print(damage.line(TOOL), file=sys.stderr)
    elif ck is not None and ck.state == "unfinished":
        print("%s: %s: the soak ended without a summary: %s" % (TOOL, source, ck.text()),
              file=sys.stderr)


def main_checkpoint(variables, source):
    """--checkpoint: the decoded black box alone."""
    ck, damage = checkpoint_of(variables)
    if damage is not None:
        raise damage
    if ck is None:
        raise NoResult(source, "no soak checkpoint: no %s variable" % blackbox.VAR_NAME)
    say_checkpoint(ck, None, source)
    return json.dumps(ck.json(), indent=2, sort_keys=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0], epilog=EPILOG,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--efivars", default="/sys/firmware/efi/efivars", metavar="DIR",
                    help="efivarfs directory (default: %(default)s)")
    ap.add_argument("--ovmf-vars", metavar="FILE", help="OVMF variable store file instead")
    ap.add_argument("--raw", action="store_true", help="print the JSON as stored")
    ap.add_argument("--checkpoint", action="store_true",
                    help="print only the soak's last checkpoint (CopykernelSoak), decoded")
    args = ap.parse_args(argv)
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="backslashreplace")
    source = args.efivars if args.ovmf_vars is None else args.ovmf_vars
    main.source = source
    notes, variables = [], {}
    try:
        if args.ovmf_vars is not None:
            variables, notes = read_ovmf(args.ovmf_vars)
        else:
            variables = read_efivars(args.efivars)
        if args.checkpoint:
            out = main_checkpoint(variables, source)
            r = None
        else:
            r = pick_run(variables, source)
            text, obj = decode_summary(r, source)
            ck, damage = checkpoint_of(variables)
            if ck is not None or damage is not None:
                obj["soak_checkpoint"] = ck.json() if ck else {"state": "damaged",
                                                               "why": damage.what}
            try:
                out = text if args.raw else json.dumps(obj, indent=2, sort_keys=True)
            except RecursionError:
                raise BadInput(source, "the stored summary is nested too deeply to print",
                               "run %08x" % r.run)
            say_checkpoint(ck, damage, source)
    except BadInput as e:
        if isinstance(e, NoResult) and not args.checkpoint:
            say_checkpoint(*checkpoint_of(variables), source)
        print(e.line(TOOL), file=sys.stderr)
        return e.status
    for n in notes:
        print(n, file=sys.stderr)
    if r is not None and verdict_line(obj, r.run, source):
        print(verdict_line(obj, r.run, source), file=sys.stderr)
    if r is not None and r.stale:
        print("%s: %s: ignored stale chunks of another run: %s (run %08x is %s)" % (
            TOOL, source, ", ".join(r.stale), r.run, ", ".join(r.chunks)), file=sys.stderr)
    sys.stdout.write(out + "\n")
    sys.stdout.flush()
    return EXIT_OK


main.source = "-"


if __name__ == "__main__":
    sys.exit(run_main(TOOL, main))
