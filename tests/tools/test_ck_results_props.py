# SPDX-License-Identifier: GPL-2.0-only
"""tools/ck-results.py against generated, then damaged, UEFI variable stores (issue 11).

Both formats the tool reads are built here from scratch: an efivarfs directory (NAME-GUID
files, u32 attributes then the data) and an OVMF vars file (firmware volume header, variable
store header, variable headers as EDK2's MdeModulePkg lays them out). Every run must end with
a documented status (0 summary, 1 none, 3 bad input) and never with a traceback.
"""
import json
import math
import os
import struct
import tempfile
import uuid

import pytest
from hypothesis import assume, given, note, strategies as st

from conftest import assert_clean, examples, load_tool, run_tool

GUID = uuid.UUID("6c6b6b63-7970-4b65-8e72-6e656c727573")
GLOBAL_GUID = uuid.UUID("8be4df61-93ca-11d2-aa0d-00e098032b8c")    # EFI_GLOBAL_VARIABLE
AUTH_STORE = uuid.UUID("aaf32c78-947b-439a-a180-2e144ec37792")
PLAIN_STORE = uuid.UUID("ddcf3616-3275-4164-98b6-fe85707ffe7d")
NV_FV_GUID = uuid.UUID("fff12b8d-7696-4c8b-a985-2747075b4f50")     # EFI_SYSTEM_NV_DATA_FV
ADDED, IN_TRANSITION, HEADER_ONLY = 0x3f, 0x3e, 0x7f
DELETED_STATES = (0x3d, 0x3c)       # VAR_DELETED & VAR_ADDED (& VAR_IN_DELETED_TRANSITION)
NV_BS_RT = 7
REAL_VARS = "/usr/share/OVMF/OVMF_VARS_4M.fd"
TOOL = "ck-results"


# ---- building inputs -------------------------------------------------------------------

def chunk(index, count, run, payload):
    return b"CKR1" + struct.pack("<HHI", index, count, run) + payload


def chunks_of(text, run, size):
    """{name: data} of @text stored as the kernel does, @size bytes of JSON a chunk."""
    pieces = [text[i:i + size] for i in range(0, len(text), size)]
    return {"CopykernelResult%d" % i: chunk(i, len(pieces), run, p)
            for i, p in enumerate(pieces)}


def write_efivars(d, variables, attrs=NV_BS_RT):
    for name, data in variables.items():
        with open(os.path.join(d, "%s-%s" % (name, GUID)), "wb") as f:
            f.write(struct.pack("<I", attrs) + data)


def efivar_path(d, name):
    return os.path.join(d, "%s-%s" % (name, GUID))


def variable(name, data, guid=GUID, state=ADDED, auth=True, attrs=NV_BS_RT, name_raw=None):
    """One variable as EDK2 stores it: header, UTF-16 name with its NUL, data, padding to 4."""
    nm = name_raw if name_raw is not None else (name + "\0").encode("utf-16-le")
    if auth:
        hdr = struct.pack("<HBBIQ16sIII16s", 0x55aa, state, 0, attrs, 0, b"\0" * 16, 0,
                          len(nm), len(data), guid.bytes_le)
    else:
        hdr = struct.pack("<HBBIII16s", 0x55aa, state, 0, attrs, len(nm), len(data),
                          guid.bytes_le)
    v = hdr + nm + data
    return v + b"\xff" * (-len(v) % 4)


def fv_image(body, auth=True, slack=16):
    """A firmware volume holding one variable store with the variables in @body."""
    store_size = 28 + len(body) + slack
    store = ((AUTH_STORE if auth else PLAIN_STORE).bytes_le +
             struct.pack("<IBBHI", store_size, 0x5a, 0xfe, 0, 0) + body + b"\xff" * slack)
    hdr_len = 72
    total = hdr_len + len(store)
    hdr = bytearray(b"\0" * 16 + NV_FV_GUID.bytes_le + struct.pack("<Q", total) + b"_FVH" +
                    struct.pack("<IHHHBB", 0x4feff, hdr_len, 0, 0, 0, 2) +
                    struct.pack("<IIII", 1, total, 0, 0))
    struct.pack_into("<H", hdr, 50, -sum(struct.unpack("<36H", bytes(hdr))) & 0xffff)
    return bytes(hdr) + store


def inject_into_real(real, body):
    """The real OVMF vars file with @body appended after its last variable."""
    d = bytearray(real)
    store = struct.unpack_from("<H", d, 48)[0]
    pos = store + 28
    while struct.unpack_from("<H", d, pos)[0] == 0x55aa:
        name_size, data_size = struct.unpack_from("<II", d, pos + 36)
        pos = (pos + 60 + name_size + data_size + 3) & ~3
    d[pos:pos + len(body)] = body
    return bytes(d)


def reference_status(payload):
    """What the tool must say about a complete run whose joined chunks are @payload."""
    try:
        obj = json.loads(payload.decode("utf-8"), parse_constant=lambda c: 1 / 0)
    except (ValueError, ZeroDivisionError, RecursionError):
        return 3, None
    if not isinstance(obj, dict) or not finite(obj):
        return 3, None
    return 0, obj


def verdict_said(obj):
    """Whether the tool must say the run's verdict on stderr (tools/ck-results.py's
    docstring): its "result" when that is a string, else status 0..3 read as PASS, FAIL,
    PANIC, ERROR (kernel/include/status.h); said unless it is PASS or unknown."""
    if isinstance(obj.get("result"), str):
        return obj["result"] != "PASS"
    return type(obj.get("status")) is int and 1 <= obj["status"] <= 3


def finite(v):
    if isinstance(v, float):
        return math.isfinite(v)
    if isinstance(v, list):
        return all(finite(x) for x in v)
    if isinstance(v, dict):
        return all(finite(x) for x in v.values())
    return True


def run_efivars(variables, *extra, setup=None):
    with tempfile.TemporaryDirectory(prefix="ck-efivars-") as d:
        write_efivars(d, variables)
        if setup:
            setup(d)
        return run_tool(TOOL, "--efivars", d, *extra)


def run_ovmf(image, *extra):
    with tempfile.TemporaryDirectory(prefix="ck-ovmf-") as d:
        path = os.path.join(d, "vars.fd")
        with open(path, "wb") as f:
            f.write(image)
        return run_tool(TOOL, "--ovmf-vars", path, *extra)


# ---- strategies ------------------------------------------------------------------------

scalars = (st.none() | st.booleans() | st.integers(-2 ** 64, 2 ** 64) |
           st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) |
                      st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)
summaries = st.builds(
    lambda base, extra: dict(extra, **base),
    st.fixed_dictionaries({
        "status": st.integers(0, 5),
        "status_name": st.sampled_from(["pass", "fail", "panic", "mce", "error"]),
        "cmdline": st.text(max_size=40),
        "tests": st.fixed_dictionaries({"ran": st.booleans(), "pass": st.integers(0, 999),
                                        "fail": st.integers(0, 99)}),
        "mce": st.fixed_dictionaries({"poisoned_pfns": st.lists(st.integers(0, 2 ** 40),
                                                                max_size=5)}),
    }),
    st.dictionaries(st.text(max_size=10), values, max_size=4))
run_ids = st.integers(0, 2 ** 32 - 1)


def encode(obj, ascii_only):
    return json.dumps(obj, ensure_ascii=ascii_only, separators=(",", ":")).encode("utf-8")


def chunk_size(text, size):
    return max(size, len(text) // 40 + 1)       # at most 40 chunks: keeps a run short


@st.composite
def stored(draw):
    """(object, JSON bytes, {name: chunk data}, run id) of one valid summary."""
    obj = draw(summaries)
    text = encode(obj, draw(st.booleans()))
    run = draw(run_ids)
    return obj, text, chunks_of(text, run, chunk_size(text, draw(st.integers(1, 300)))), run


# ---- valid input: status 0 and the summary comes back ----------------------------------

@examples(90)
@given(stored(), st.integers(0, 3), st.booleans())
def test_efivars_valid_round_trip(s, n_stale, raw):
    obj, text, variables, run = s
    count = len(variables)
    old = (run + 1) & 0xffffffff
    for i in range(count, count + n_stale):        # tail of an older, longer run
        variables["CopykernelResult%d" % i] = chunk(i, count + n_stale, old, b"old text")

    def unrelated(d):
        with open(os.path.join(d, "Boot0000-%s" % GLOBAL_GUID), "wb") as f:
            f.write(b"\x07\0\0\0boot")
        with open(os.path.join(d, "CopykernelResult0-%s" % GLOBAL_GUID), "wb") as f:
            f.write(b"\x07\0\0\0not ours")

    r = run_efivars(variables, *(["--raw"] if raw else []), setup=unrelated)
    assert_clean(r, TOOL)
    assert r.status == 0, r
    assert json.loads(r.out) == obj
    if raw:
        assert r.out == text + b"\n"
    said = ": run %08x: result=" % run in r.err_text
    assert said == verdict_said(obj), r
    if n_stale:
        assert "stale" in r.err_text and "CopykernelResult%d" % count in r.err_text, r
    elif not said:
        assert r.err == b"", r


@st.composite
def ovmf_store(draw, s):
    """Variable store body for the chunks of @s, with the history a real store carries:
    older copies (deleted, in deleted transition, header only) and unrelated variables."""
    obj, text, variables, run = s
    auth = draw(st.booleans())
    body = []
    for name, data in variables.items():
        old = chunk(0, 9, (run + 7) & 0xffffffff, b"an older run's text")
        for state in draw(st.lists(st.sampled_from(DELETED_STATES + (HEADER_ONLY,)),
                                   max_size=2)):
            body.append(variable(name, old, state=state, auth=auth))
        if draw(st.integers(0, 5)) == 0:
            # the firmware began to replace the variable and could not write the new copy
            # (a full store): the copy in deleted transition is the live one
            body.append(variable(name, data, state=IN_TRANSITION, auth=auth))
        else:
            if draw(st.booleans()):     # a replacement interrupted after the new copy
                body.append(variable(name, old, state=IN_TRANSITION, auth=auth))
            body.append(variable(name, data, state=ADDED, auth=auth))
        if draw(st.booleans()):
            body.append(variable(draw(st.sampled_from(["Boot0000", "Lang", name])),
                                 b"other vendor", guid=GLOBAL_GUID, auth=auth))
    order = draw(st.permutations(range(len(body)))) if draw(st.booleans()) else None
    if order is not None:
        # the order of copies of one name matters (first VAR_ADDED wins), so only
        # unrelated variables move: keep ours in place, shuffle the rest
        ours = [b for b in body if GUID.bytes_le in b]
        others = [body[i] for i in order if GUID.bytes_le not in body[i]]
        body = ours + others
    return b"".join(body), auth


@examples(90)
@given(st.data())
def test_ovmf_valid_round_trip(data):
    s = data.draw(stored())
    body, auth = data.draw(ovmf_store(s))
    r = run_ovmf(fv_image(body, auth))
    assert_clean(r, TOOL)
    assert r.status == 0, r
    assert json.loads(r.out) == s[0]


# ---- damaged input: a documented status, one line, never a traceback -------------------

@examples(100)
@given(st.data())
def test_ovmf_truncated_or_flipped(data):
    s = data.draw(stored())
    body, auth = data.draw(ovmf_store(s))
    image = bytearray(fv_image(body, auth))
    how = data.draw(st.sampled_from(["truncate", "flip", "both"]))
    cut = len(image)
    if how in ("flip", "both"):
        for _ in range(data.draw(st.integers(1, 8))):
            at = data.draw(st.integers(0, len(image) - 1))
            image[at] ^= data.draw(st.integers(1, 255))
    if how in ("truncate", "both"):
        cut = data.draw(st.integers(0, len(image) - 1))
        del image[cut:]
    note("%s, %d of %d bytes" % (how, len(image), len(fv_image(body, auth))))
    r = run_ovmf(bytes(image))
    assert_clean(r, TOOL)
    if how == "truncate":
        assert r.status == 3, r     # the volume's length says the file is cut
    if r.status == 0:
        assert isinstance(json.loads(r.out), dict)


def damage(draw, variables, run):
    """One or more damages to a stored run; returns a description for the log."""
    names = sorted(variables, key=lambda n: int(n[len("CopykernelResult"):]))
    done = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["truncate", "flip", "bad-utf8", "drop", "foreign",
                                     "stale", "shorten-count", "not-ckr1"]))
        if not names:
            break
        name = draw(st.sampled_from(names))
        d = variables.get(name)
        if not d:
            continue
        if kind == "truncate":
            variables[name] = d[:draw(st.integers(0, len(d)))]
        elif kind == "flip":
            at = draw(st.integers(0, len(d) - 1))
            variables[name] = d[:at] + bytes([d[at] ^ draw(st.integers(1, 255))]) + d[at + 1:]
        elif kind == "bad-utf8":
            at = draw(st.integers(min(12, len(d)), len(d)))
            variables[name] = d[:at] + draw(st.sampled_from([b"\xff", b"\xc3(", b"\xed\xa0\x80",
                                                             b"\x80"])) + d[at:]
        elif kind == "drop":
            del variables[name]
        elif kind == "foreign":     # the same chunk index from another run id
            i, n, _ = struct.unpack_from("<HHI", d, 4) if len(d) >= 12 else (0, 1, 0)
            variables[name] = chunk(i, n, (run ^ 0x5a5a) & 0xffffffff, d[12:])
        elif kind == "stale":       # a longer older run left its tail
            n = len(names) + draw(st.integers(1, 3))
            for i in range(len(names), n):
                variables["CopykernelResult%d" % i] = chunk(i, n, run ^ 1, b"tail")
        elif kind == "shorten-count":
            if len(d) >= 12:
                variables[name] = d[:6] + struct.pack("<H", draw(st.integers(0, 4))) + d[8:]
        elif kind == "not-ckr1":
            variables[name] = b"CKR2" + d[4:]
        done.append((kind, name))
    return done


@examples(100)
@given(st.data())
def test_efivars_damaged(data):
    obj, text, variables, run = data.draw(stored())
    note(repr(damage(data.draw, variables, run)))
    r = run_efivars(variables)
    assert_clean(r, TOOL)
    if r.status == 0:
        assert isinstance(json.loads(r.out), dict)


@examples(100)
@given(st.data())
def test_efivars_one_damage_exact_status(data):
    """One damage at a time, with the status it must give."""
    obj, text, variables, run = data.draw(stored())
    names = sorted(variables, key=lambda n: int(n[len("CopykernelResult"):]))
    count = len(names)
    i = data.draw(st.integers(0, count - 1))
    name = names[i]
    kind = data.draw(st.sampled_from(["drop", "foreign", "short-header", "dir", "bad-utf8",
                                      "cut-payload", "edit-json", "retype-json",
                                      "older-tail"]))
    setup = None
    if kind == "drop":
        del variables[name]
        want = 1
    elif kind == "foreign":
        assume(i > 0)
        variables[name] = chunk(i, count + 1, run ^ 0x80000000, b"x")
        want = 1
    elif kind == "short-header":            # fewer than the 4 + 12 header bytes
        k = data.draw(st.integers(0, 15))
        setup = lambda d: open(efivar_path(d, name), "wb").write(
            (struct.pack("<I", NV_BS_RT) + variables[name])[:k])
        want = 3
    elif kind == "dir":
        def setup(d):
            os.unlink(efivar_path(d, name))
            os.mkdir(efivar_path(d, name))
        want = 3
    elif kind == "bad-utf8":
        d = variables[name]
        at = data.draw(st.integers(12, len(d)))
        variables[name] = d[:at] + b"\xff" + d[at:]
        want = 3
    elif kind == "cut-payload":
        d = variables[name]
        variables[name] = d[:data.draw(st.integers(12, len(d) - 1))]
        payload = b"".join(variables[n][12:] for n in names)
        want, obj = reference_status(payload)
    elif kind in ("edit-json", "retype-json"):
        # still a JSON object: the tool does not judge the summary's fields
        key = data.draw(st.sampled_from(sorted(obj)))
        if kind == "edit-json":
            del obj[key]
        else:
            obj[key] = data.draw(st.sampled_from([None, "text", [1, 2], {"k": 1}, 1.5,
                                                  True, 2 ** 70]))
        variables = chunks_of(encode(obj, True), run, 50)
        want = 0
    else:                                   # an older, longer run's tail stays
        for j in range(count, count + 3):
            variables["CopykernelResult%d" % j] = chunk(j, count + 3, run ^ 1, b"old")
        want = 0
    note("%s of %s" % (kind, name))
    r = run_efivars(variables, setup=setup)
    assert_clean(r, TOOL)
    assert r.status == want, r
    if want == 0:
        assert json.loads(r.out) == obj
    if kind == "older-tail":
        assert "stale" in r.err_text and "CopykernelResult%d" % count in r.err_text


# ---- examples: one for each traceback of issue 11, and the cases it names --------------

def test_help_documents_exit_statuses():
    r = run_tool(TOOL, "--help")
    assert r.status == 0
    text = r.out.decode()
    assert "exit status" in text
    for status in ("0 ", "1 ", "2 ", "3 "):
        assert "  " + status in text


def test_usage_error_is_2():
    r = run_tool(TOOL, "--no-such-option")
    assert r.status == 2 and "Traceback" not in r.err_text


def test_no_summary_is_1():
    with tempfile.TemporaryDirectory() as d:
        r = run_tool(TOOL, "--efivars", d)
    assert_clean(r, TOOL)
    assert r.status == 1 and "no copykernel summary" in r.err_text


def test_real_pristine_ovmf_store_has_no_summary():
    if not os.path.exists(REAL_VARS):
        pytest.skip("no " + REAL_VARS)
    r = run_tool(TOOL, "--ovmf-vars", REAL_VARS)
    assert_clean(r, TOOL)
    assert r.status == 1


def test_real_ovmf_store_with_a_summary():
    if not os.path.exists(REAL_VARS):
        pytest.skip("no " + REAL_VARS)
    with open(REAL_VARS, "rb") as f:
        real = f.read()
    text = b'{"status":0,"status_name":"pass"}'
    body = b"".join(variable(n, d) for n, d in chunks_of(text, 0x1234abcd, 10).items())
    r = run_ovmf(inject_into_real(real, body))
    assert r.status == 0, r
    assert json.loads(r.out) == json.loads(text)


def test_the_verdict_is_said():
    """A run with command-line errors and no failure: ERROR with its reason and first word;
    a summary stored before "result" existed says it by its status 3."""
    obj = {"status": 3, "status_name": "bad command line", "result": "ERROR",
           "reason": "cmdline", "cmdline_errors": 2,
           "cmdline_problems": ["'soak=15q': bad value (x); using the default 'off'", "b"]}
    r = run_efivars(chunks_of(encode(obj, True), 0x1234abcd, 4000))
    assert r.status == 0 and json.loads(r.out) == obj, r
    assert r.err_text.endswith(": run 1234abcd: result=ERROR reason=cmdline: 2 command-line "
                               "errors, the first: 'soak=15q': bad value (x); using the "
                               "default 'off'\n"), r
    old = {"status": 3, "status_name": "bad command line", "cmdline_errors": 1}
    r = run_efivars(chunks_of(encode(old, True), 7, 4000))
    assert r.err_text.endswith(": run 00000007: result=ERROR reason=cmdline: 1 command-line "
                               "error\n"), r
    r = run_efivars(chunks_of(encode({"status": 0, "result": "PASS"}, True), 7, 4000))
    assert r.status == 0 and r.err == b"", r


def test_struct_error_short_firmware_volume():
    # was struct.error: the header length at byte 48 read from a 46-byte file
    r = run_ovmf(b"\0" * 40 + b"_FVH" + b"\0\0")
    assert_clean(r, TOOL)
    assert r.status == 3


def fv_checksum(image, hdr_len=72):
    """The firmware volume header's checksum made right again (its words sum to zero)."""
    struct.pack_into("<H", image, 50, 0)
    words = struct.unpack_from("<%dH" % (hdr_len // 2), image)
    struct.pack_into("<H", image, 50, -sum(words) & 0xffff)


def one_summary_image():
    return bytearray(fv_image(variable("CopykernelResult0", chunk(0, 1, 1, b"{}"))))


def test_corrupt_fvlength_in_a_whole_file_is_corrupt():
    """A flipped FvLength in a file of full length: the header's checksum fails, so the
    header is corrupt, not the file truncated (defect 5 of issue 18)."""
    image = one_summary_image()
    struct.pack_into("<Q", image, 32, len(image) << 4)
    r = run_ovmf(bytes(image))
    assert_clean(r, TOOL)
    assert r.status == 3 and "corrupt" in r.err_text and "truncated" not in r.err_text, r


def test_fvlength_against_the_block_map_is_corrupt():
    """FvLength rewritten with a right checksum, but the block map still says otherwise."""
    image = one_summary_image()
    struct.pack_into("<Q", image, 32, len(image) + 4096)
    fv_checksum(image)
    r = run_ovmf(bytes(image))
    assert_clean(r, TOOL)
    assert r.status == 3 and "corrupt" in r.err_text and "block map" in r.err_text, r


def test_truncated_file_is_truncated():
    """A file cut short after an intact header: FvLength, checksum and block map agree."""
    image = one_summary_image()
    r = run_ovmf(bytes(image[:len(image) - 8]))
    assert_clean(r, TOOL)
    assert r.status == 3 and "truncated" in r.err_text and "corrupt" not in r.err_text, r


def test_real_ovmf_store_with_a_flipped_fvlength():
    if not os.path.exists(REAL_VARS):
        pytest.skip("no " + REAL_VARS)
    with open(REAL_VARS, "rb") as f:
        real = bytearray(f.read())
    real[38] ^= 0x01         # a high byte of FvLength: the file stays whole
    r = run_ovmf(bytes(real))
    assert_clean(r, TOOL)
    assert r.status == 3 and "corrupt" in r.err_text and "truncated" not in r.err_text, r


def test_struct_error_short_chunk_header():
    r = run_efivars({"CopykernelResult0": b"CKR1\0\0\1\0"})
    assert_clean(r, TOOL)
    assert r.status == 3 and "CopykernelResult0" in r.err_text


def test_struct_error_store_size_past_the_end():
    image = bytearray(fv_image(variable("CopykernelResult0", chunk(0, 1, 1, b"{}")), slack=0))
    struct.pack_into("<I", image, 72 + 16, 0x100000)
    struct.pack_into("<Q", image, 32, len(image))
    r = run_ovmf(bytes(image))
    assert_clean(r, TOOL)
    assert r.status == 3


def test_struct_error_variable_header_past_the_end():
    image = fv_image(variable("CopykernelResult0", chunk(0, 1, 1, b"{}")), slack=16)
    image = image[:-16] + b"\xaa\x55" + b"\xff" * 14     # a header start with no room left
    r = run_ovmf(image)
    assert_clean(r, TOOL)
    assert r.status == 3


def test_unicode_decode_error_payload():
    r = run_efivars(chunks_of(b'{"a":"\xff"}', 5, 100))
    assert_clean(r, TOOL)
    assert r.status == 3 and "UTF-8" in r.err_text


def test_unicode_decode_error_odd_name_size():
    # was UnicodeDecodeError: a name of an odd number of bytes under our GUID
    body = variable("", b"x", name_raw=b"C\0o\0p")
    r = run_ovmf(fv_image(body))
    assert_clean(r, TOOL)
    assert r.status == 1


def test_value_error_store_signature_cut():
    image = fv_image(variable("CopykernelResult0", chunk(0, 1, 1, b"{}")))
    cut = image[:72 + 10]
    cut = cut[:32] + struct.pack("<Q", len(cut)) + cut[40:]
    r = run_ovmf(cut)
    assert_clean(r, TOOL)
    assert r.status == 3


def test_value_error_invalid_json_is_bad_input():
    # was status 1, the same as "no summary"
    r = run_efivars(chunks_of(b'{"a":', 5, 100))
    assert_clean(r, TOOL)
    assert r.status == 3 and "not valid JSON" in r.err_text


def test_json_that_is_not_an_object():
    r = run_efivars(chunks_of(b"[1,2]", 5, 100))
    assert_clean(r, TOOL)
    assert r.status == 3


@pytest.mark.parametrize("text", [b"NaN", b"1e999", b"-Infinity"])
def test_numbers_that_are_not_json(text):
    r = run_efivars(chunks_of(b'{"x":' + text + b"}", 5, 100))
    assert_clean(r, TOOL)
    assert r.status == 3


def test_recursion_error_deep_json():
    r = run_efivars(chunks_of(b"[" * 200000, 5, 3968))
    assert_clean(r, TOOL)
    assert r.status == 3


def test_is_a_directory_error_ovmf():
    with tempfile.TemporaryDirectory() as d:
        r = run_tool(TOOL, "--ovmf-vars", d)
    assert_clean(r, TOOL)
    assert r.status == 3 and "directory" in r.err_text


def test_is_a_directory_error_efivars_entry():
    def setup(d):
        os.mkdir(efivar_path(d, "CopykernelResult0"))
    r = run_efivars({}, setup=setup)
    assert_clean(r, TOOL)
    assert r.status == 3


def test_file_not_found_error():
    r = run_tool(TOOL, "--ovmf-vars", "/nonexistent/vars.fd")
    assert_clean(r, TOOL)
    assert r.status == 3
    r = run_tool(TOOL, "--efivars", "/nonexistent/efivars")
    assert_clean(r, TOOL)
    assert r.status == 3      # was 1, the same as "no summary"


def test_not_a_directory_efivars():
    with tempfile.NamedTemporaryFile() as f:
        r = run_tool(TOOL, "--efivars", f.name)
    assert_clean(r, TOOL)
    assert r.status == 3


def test_efivars_file_shorter_than_attributes():
    def setup(d):
        with open(efivar_path(d, "CopykernelResult0"), "wb") as f:
            f.write(b"\x07\0")
    r = run_efivars({}, setup=setup)
    assert_clean(r, TOOL)
    assert r.status == 3


def test_in_transition_copy_is_live_when_no_newer_copy():
    # issue 11: a full store left the old chunk in state 0x3e; it is the valid copy
    text = b'{"status":2,"status_name":"panic"}'
    c = chunks_of(text, 0xfeed, 20)
    body = (variable("CopykernelResult0", c["CopykernelResult0"], state=IN_TRANSITION) +
            variable("CopykernelResult1", c["CopykernelResult1"]))
    r = run_ovmf(fv_image(body))
    assert r.status == 0, r
    assert json.loads(r.out) == json.loads(text)


def test_added_copy_wins_over_in_transition_copy():
    new = chunks_of(b'{"new":1}', 2, 100)["CopykernelResult0"]
    old = chunks_of(b'{"old":1}', 1, 100)["CopykernelResult0"]
    for body in (variable("CopykernelResult0", old, state=IN_TRANSITION) +
                 variable("CopykernelResult0", new),
                 variable("CopykernelResult0", new) +
                 variable("CopykernelResult0", old, state=IN_TRANSITION)):
        r = run_ovmf(fv_image(body))
        assert r.status == 0 and json.loads(r.out) == {"new": 1}, r


def test_deleted_copies_are_ignored():
    body = b"".join(variable("CopykernelResult0", chunk(0, 1, 1, b'{"gone":1}'), state=s)
                    for s in DELETED_STATES + (HEADER_ONLY,))
    r = run_ovmf(fv_image(body))
    assert_clean(r, TOOL)
    assert r.status == 1


def test_stale_tail_of_an_older_run_is_named():
    c = chunks_of(b'{"a":1}', 9, 100)
    c["CopykernelResult1"] = chunk(1, 3, 7, b"old")
    c["CopykernelResult2"] = chunk(2, 3, 7, b"old")
    r = run_efivars(c)
    assert r.status == 0 and json.loads(r.out) == {"a": 1}, r
    assert "stale" in r.err_text and "CopykernelResult1" in r.err_text
    assert "CopykernelResult2" in r.err_text


def test_chunk_of_another_run_is_no_summary():
    c = {"CopykernelResult0": chunk(0, 2, 9, b"{}"), "CopykernelResult1": chunk(1, 3, 7, b"x")}
    r = run_efivars(c)
    assert_clean(r, TOOL)
    assert r.status == 1 and "another run" in r.err_text


def test_module_interface_used_by_boot_tests():
    """tests/qemu/boot_tests.py imports the tool: assemble(), from_ovmf_vars() and GUID."""
    res = load_tool(TOOL)
    text, why = res.assemble({"CopykernelResult0": chunk(0, 3, 7, b'{"a":'),
                              "CopykernelResult1": chunk(1, 3, 7, b'"xy'),
                              "CopykernelResult2": chunk(2, 3, 7, b'z"}')})
    assert text == '{"a":"xyz"}', why
    text, why = res.assemble({"CopykernelResult0": chunk(0, 2, 9, b"{}"),
                              "CopykernelResult1": chunk(1, 3, 7, b"old")})
    assert text is None and "another run" in why
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "vars.fd")
        with open(path, "wb") as f:
            f.write(fv_image(variable("CopykernelResult0", chunk(0, 1, 3, b"{}"))))
        assert res.from_ovmf_vars(path) == {"CopykernelResult0": chunk(0, 1, 3, b"{}")}
    assert str(res.GUID) == str(GUID)
