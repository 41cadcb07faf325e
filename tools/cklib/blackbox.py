# SPDX-License-Identifier: GPL-2.0-only
"""cklib.blackbox - the soak's black box as the host reads it: the CopykernelSoak variable
(the wrapper of soak/blackbox.h around the soak's checkpoint record of
soak/checkpoint.h), decoded from the layouts those headers state, with every check the
image makes, and said in the words the image's next boot prints.

    decode(data)        -> Checkpoint, or raises Damaged(why)
    Checkpoint.state    "unfinished" (the soak ended without its summary) or "finished"
    Checkpoint.text()   "previous run 1a2b3c4d ended without a summary; its last checkpoint (19
                        written) was 3h02m05s into the soak: ..."
    Checkpoint.json()   the keys the image keeps as "previous_soak" in its summary
"""
import struct
import zlib

VAR_NAME = "CopykernelSoak"
HEADER = 44                     # the CKB1 wrapper
STARTED = 24
REC_HEADER = 104                # the CKSK record
BUCKET = 72
MAX_BUCKETS = 8
MISC = 40                       # version 2 on: each of the first miscompares
VERSION = 3                     # 3: buckets of type 4, a DRAM rank the UMC bank named
MAX_MISC = 4
NAME = 24
NONE = 0xff
FINAL, FAILING, NOT_STORED, CMDLINE = 1, 2, 4, 8
# The soak's event kinds in the record's order, by their JSON keys (soak/report.c).
KINDS = ("corrected", "deferred", "uncorrected", "miscompares", "stuck_cpus", "retired_pages")
# ... and as the first event names them (soak/ledger.c's soak_ev_name).
EVENT_NAMES = ("corrected", "deferred", "uncorrected", "miscompare", "stuck_cpu",
               "retired_page")
BUCKET_TYPES = ("dimm", "range", "no_address", "other", "umc")
# What a miscompared word should have held (soak/pattern.c's names, in enum soak_pat order).
PATTERNS = ("zeros", "ones", "address", "address-inverted",
            "checker-1", "checker-1-inverted", "checker-2", "checker-2-inverted",
            "checker-4", "checker-4-inverted", "checker-8", "checker-8-inverted",
            "checker-16", "checker-16-inverted", "checker-32", "checker-32-inverted",
            "random", "random-inverted", "walking-ones", "walking-zeros")
# How many verdict rules soak/ledger.c has (soak_rules[]): a stored rule index must be
# below it. tests/tools/test_ck_results_ckpt.py counts the table in the source.
NR_RULES = 6


class Damaged(ValueError):
    """The variable is there but cannot be read as a checkpoint (why in str())."""


def crc32(b):
    return zlib.crc32(b) & 0xffffffff


def zero(b):
    return not any(b)


def ascii_name(raw, what):
    """Printable ASCII, then only NULs."""
    text = raw.split(b"\0", 1)[0]
    if not zero(raw[len(text):]) or any(c < 0x20 or c >= 0x7f for c in text):
        raise Damaged(what)
    return text.decode("ascii")


def counts(b, at):
    return dict(zip(KINDS, struct.unpack_from("<6I", b, at)))


def decode_bucket(p, version):
    typ, node, dimm = p[0], p[1], struct.unpack_from("<H", p, 2)[0]
    umc = None
    if typ == 4:
        # A UMC bucket (version 3): the CPU's AMD node, the chip select, the UMC.
        if version < 3 or p[5] >= 8 or dimm:
            raise Damaged("soak checkpoint: a bucket field out of range")
        umc = {"node": None if p[4] == NONE else p[4], "umc": struct.unpack_from("<H", p, 6)[0],
               "dimm": p[5] // 2, "rank": p[5] % 2, "cs": p[5]}
    elif typ >= len(BUCKET_TYPES) or not zero(p[4:8]):
        raise Damaged("soak checkpoint: a bucket field out of range")
    name = ascii_name(p[48:48 + NAME], "soak checkpoint: a bucket field out of range")
    if umc:
        umc["label"] = name or None
    base, size = struct.unpack_from("<QQ", p, 8)
    return {"type": BUCKET_TYPES[typ], "node": node, "dimm_index": dimm,
            "dimm": name if typ == 0 else None, "name": name, "base": base, "size": size,
            "umc": umc, "counts": counts(p, 24)}


def decode_misc(p):
    phys, expected, actual, t_ns, cpu = struct.unpack_from("<QQQQH", p)
    if p[34] >= len(PATTERNS) or not zero(p[35:MISC]):
        raise Damaged("soak checkpoint: a miscompare field out of range")
    return {"phys": phys, "expected": expected, "actual": actual, "cpu": cpu, "t_ns": t_ns,
            "pattern": PATTERNS[p[34]]}


def decode_record(r):
    """The CKSK record (soak/checkpoint.h) as a dict; raises Damaged."""
    if len(r) < 8 or r[:4] != b"CKSK":
        raise Damaged("not a soak checkpoint (no CKSK magic)")
    if r[4] not in range(1, VERSION + 1):
        raise Damaged("a soak checkpoint of another version (this build reads versions 1 to "
                      "3)")
    n = r[46] if len(r) > 46 else 0
    m = r[81] if len(r) > 81 else 0
    if (struct.unpack_from("<H", r, 6)[0] != len(r) or len(r) < REC_HEADER + 4 or
            n > MAX_BUCKETS or m > MAX_MISC or (r[4] == 1 and m) or
            len(r) != REC_HEADER + BUCKET * n + (MISC * m if r[4] >= 2 else 0) + 4):
        raise Damaged("soak checkpoint: its length does not match its size, bucket or "
                      "miscompare count")
    if crc32(r[:-4]) != struct.unpack_from("<I", r, len(r) - 4)[0]:
        raise Damaged("soak checkpoint: bad CRC (a torn or corrupt write)")
    flags, rule, kind = r[5], r[47], r[80]
    if (flags & ~15 or (rule != NONE and rule >= NR_RULES) or not zero(r[76:80]) or
            not zero(r[84:88]) or (kind != NONE and kind >= len(KINDS)) or
            (kind == NONE and not zero(r[82:104]))):
        raise Damaged("soak checkpoint: a field out of range")
    seed, elapsed, verified, per_pass, passes, cpus = struct.unpack_from("<QQQQIH", r, 8)
    first = None
    if kind != NONE:
        cpu, phys, t_ns = struct.unpack_from("<H", r, 82)[0], *struct.unpack_from("<QQ", r, 88)
        first = {"event": EVENT_NAMES[kind], "cpu": cpu, "phys": phys, "t_ns": t_ns}
    return {"flags": flags, "rule": None if rule == NONE else rule, "seed": seed,
            "elapsed_ns": elapsed, "bytes_verified": verified, "bytes_per_pass": per_pass,
            "passes": passes, "cpus": cpus, "counts": counts(r, 48),
            "not_stored": struct.unpack_from("<I", r, 72)[0], "first": first,
            "buckets": [decode_bucket(r[REC_HEADER + BUCKET * i:REC_HEADER + BUCKET * (i + 1)],
                                      r[4]) for i in range(n)],
            "miscompares": [decode_misc(r[REC_HEADER + BUCKET * n + MISC * i:][:MISC])
                            for i in range(m)]}


class Checkpoint:
    def __init__(self, run_id, seq, reported_by, started, rec):
        self.run_id, self.seq, self.reported_by = run_id, seq, reported_by
        self.started, self.rec = started, rec
        self.state = "finished" if rec["flags"] & FINAL else "unfinished"

    def text(self):
        """The line the image's next boot prints after "blackbox: "."""
        r = self.rec
        c = r["counts"]
        out = "previous run %08x" % self.run_id
        if self.reported_by:
            out += " (already reported by run %08x)" % self.reported_by
        # Unfinished: the time is the last checkpoint's; the soak may have run on after it.
        if self.state == "finished":
            out += " ended with its soak summary after %s; its last checkpoint (%d written): " % (
                duration(r["elapsed_ns"]), self.seq)
        else:
            out += " ended without a summary; its last checkpoint (%d written) was %s into the " \
                   "soak: " % (self.seq, duration(r["elapsed_ns"]))
        out += "passes %d, bytes %d, " % (r["passes"], r["bytes_verified"])
        out += "%s, stuck CPUs %d, retired pages %d, %s so far; worst: %s" % (
            count_words(c), c["stuck_cpus"], c["retired_pages"],
            "failing" if r["flags"] & FAILING else "passing", worst(r["buckets"]))
        if r["flags"] & CMDLINE:
            out += "; its command line had errors, so its verdict was never PASS"
        for i, m in enumerate(r["miscompares"]):
            out += "%s%#x on CPU %d after %d.%03ds (expected %#x actual %#x, %s)" % (
                ", " if i else "; first miscompares: ", m["phys"], m["cpu"],
                m["t_ns"] // 10**9, m["t_ns"] // 10**6 % 1000, m["expected"], m["actual"],
                m["pattern"])
        return out

    def json(self):
        """As the image's summary keeps it ("previous_soak"), text included."""
        r = self.rec
        return {"state": self.state, "run_id": "%08x" % self.run_id,
                "reported_by": "%08x" % self.reported_by if self.reported_by else None,
                "started": self.started or None, "checkpoints": self.seq,
                "final": bool(r["flags"] & FINAL), "failing": bool(r["flags"] & FAILING),
                "cmdline_errors": bool(r["flags"] & CMDLINE), "rule": r["rule"], "elapsed_ns": r["elapsed_ns"], "passes": r["passes"],
                "cpus": r["cpus"], "bytes_verified": r["bytes_verified"],
                "bytes_per_pass": r["bytes_per_pass"], "seed": "%#x" % r["seed"],
                "counts": r["counts"], "not_stored": r["not_stored"],
                "first": None if r["first"] is None else dict(r["first"],
                                                              phys="%#x" % r["first"]["phys"]),
                "worst": [{"type": b["type"], "node": b["node"], "dimm": b["dimm"],
                           "base": "%#x" % b["base"], "size": "%#x" % b["size"],
                           "umc": b["umc"], "counts": b["counts"]} for b in r["buckets"]],
                "miscompares": [dict(m, phys="%#x" % m["phys"], expected="%#x" % m["expected"],
                                     actual="%#x" % m["actual"]) for m in r["miscompares"]],
                "text": self.text()}


def count_words(c):
    return "CE %d, UE %d, deferred %d, miscompares %d" % (
        c["corrected"], c["uncorrected"], c["deferred"], c["miscompares"])


def worst(buckets):
    if not buckets:
        return "none (no error so far)"
    b = buckets[0]
    if b["type"] == "dimm":
        where = "DIMM %s" % (b["name"] or "?")
    elif b["type"] == "umc":
        u = b["umc"]
        where = "%s UMC %d DIMM %d rank %d (%s)" % (
            "unknown node" if u["node"] is None else "node %d" % u["node"], u["umc"],
            u["dimm"], u["rank"], "label " + b["name"] if b["name"] else "no label")
    elif b["type"] == "range" and b["size"]:
        where = "node %d range %#x-%#x" % (b["node"], b["base"], b["base"] + b["size"] - 1)
    elif b["type"] == "range":
        where = "node %d outside the soak ranges" % b["node"]
    else:
        where = "no address" if b["type"] == "no_address" else "other places"
    return "%s (%s)" % (where, count_words(b["counts"]))


def duration(ns):
    """As the image says a time: 3h02m05s, 4m00s, 12.345s."""
    s = ns // 10**9
    if s >= 3600:
        return "%dh%02dm%02ds" % (s // 3600, s // 60 % 60, s % 60)
    if s >= 60:
        return "%dm%02ds" % (s // 60, s % 60)
    return "%d.%03ds" % (s, ns // 10**6 % 1000)


def decode(data):
    """The CopykernelSoak variable's data as a Checkpoint; raises Damaged."""
    if len(data) < 4 or data[:4] != b"CKB1":
        raise Damaged("not a copykernel soak checkpoint variable (no CKB1 magic)")
    if len(data) < HEADER:
        raise Damaged("shorter than its 44-byte header")
    if crc32(data[:40]) != struct.unpack_from("<I", data, 40)[0]:
        raise Damaged("bad header CRC (a torn or corrupt write)")
    started = ascii_name(data[16:16 + STARTED],
                         "its start time is not printable ASCII padded with NULs")
    run_id, seq, reported_by = struct.unpack_from("<III", data, 4)
    if not run_id or not seq:
        raise Damaged("run id or checkpoint count 0")
    return Checkpoint(run_id, seq, reported_by, started, decode_record(data[HEADER:]))
