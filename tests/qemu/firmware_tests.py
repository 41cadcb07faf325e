# SPDX-License-Identifier: GPL-2.0-only
"""firmware_tests.py - the QEMU scenarios of what the firmware hands over and keeps: PXE and disk
boots, crafted ACPI tables (SRAT, EINJ), results in UEFI variables, the GOP summary screen.
"""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

from qemu_boot import CMDLINE, INTEL, PANIC, PASS, ROOT, check_ktap, load_tool


def t_disk_image(b):
    """make img's GPT disk boots under QEMU and takes its default command-line file."""
    img = os.path.join(os.path.dirname(b.image), "copykernel.img")
    if not b.expect(os.path.exists(img), "%s missing: make img" % img):
        return
    b.run("", runner_args=["--disk", img, "--no-cmdline-file"])
    b.status_is(PASS)
    b.has(r"^cmdline: from copykernel.cmdline: 'tests=all console=ttyS0,115200 exit=auto'$")
    check_ktap(b)


def read_ppm(path):
    with open(path, "rb") as f:
        data = f.read()
    magic, dims, maxval, pixels = data.split(b"\n", 3)
    w, h = map(int, dims.split())
    if magic != b"P6" or maxval != b"255" or len(pixels) < w * h * 3:
        raise ValueError("not a 24-bit PPM")
    return w, h, pixels


def check_summary_screen(b, ppm, banner_rgb):
    """The screen is not blank, and the top 80 rows are the verdict banner (colour + text)."""
    if not b.expect(os.path.exists(ppm), "no screendump was taken"):
        return
    w, h, px = read_ppm(ppm)
    bg = bytes((0x10, 0x14, 0x1c))
    total = w * h
    not_bg = sum(1 for i in range(0, total * 3, 3 * 7) if px[i:i + 3] != bg) * 7
    b.expect(not_bg > total // 20, "screen nearly blank: %d of %d pixels drawn" % (not_bg, total))
    banner = white = 0
    for y in range(0, 80, 2):
        for x in range(0, w, 2):
            p = px[(y * w + x) * 3:(y * w + x) * 3 + 3]
            banner += p == bytes(banner_rgb)
            white += p == b"\xff\xff\xff"
    n = 40 * (w // 2)
    b.expect(banner > n * 6 // 10, "banner colour on %d of %d sampled pixels" % (banner, n))
    b.expect(white > n // 50, "no verdict text in the banner (%d white pixels)" % white)


# Where fbcon (kernel/console/fbcon.c) puts the summary's text: 5x7 glyphs scaled by two in
# 12x18 cells, the first line one cell below the 88-pixel banner, one cell in from the left.
CELL_W, CELL_H, TEXT_TOP, FG = 12, 18, 88 + 18, b"\xd8\xdc\xe0"


def font_glyphs():
    """{seven rows of '.#': character} from the font's own drawing (kernel/console/font.c)."""
    with open(os.path.join(ROOT, "kernel", "console", "font.c")) as f:
        text = f.read()
    return {tuple(re.findall(r'"([.#]{5})"', m.group(2))): m.group(1)
            for m in re.finditer(r"/\* '(.)' \*/ G\(([^)]*)\)", text)}


def screen_lines(ppm, count):
    """The first @count text lines of the summary as the screen shows them (unreadable
    cells as '\\0', trailing blanks dropped)."""
    glyphs = font_glyphs()
    w, h, px = read_ppm(ppm)

    def ink(x, y):
        return px[(y * w + x) * 3:(y * w + x) * 3 + 3] == FG

    lines = []
    for n in range(count):
        y, chars = TEXT_TOP + CELL_H * n, []
        for x in range(CELL_W, w - CELL_W + 1, CELL_W):
            rows = tuple("".join("#" if ink(x + 2 * i, y + 2 * (r + 1)) else "."
                                 for i in range(5)) for r in range(7))
            chars.append(glyphs.get(rows, "\0"))
        lines.append("".join(chars).rstrip())
    return lines


def check_summary_text(b, ppm):
    """Every line the summary screen is given is drawn, and says what the serial log says:
    the version and CPU, the totals, the CPUs started, and that the CPU runs under a
    hypervisor (QEMU sets CPUID's hypervisor bit under TCG too)."""
    if not os.path.exists(ppm):
        return
    lines = screen_lines(ppm, 12)
    title = lines.index("") if "" in lines else len(lines)
    text, rest = lines[:title], lines[title:]
    b.expect(len(text) >= 7 and rest[:1] == [""] and
             any(l.startswith("quick figures:") for l in rest[1:3]),
             "the summary's text lines, then one blank line and the chart: %r" % lines)
    v = b.has(r"^copykernel (\S+): the machine is ours")
    c = b.has(r"^CPU: (\S+) family (0x[0-9a-f]+) model (0x[0-9a-f]+) stepping (\d+)")
    if v and c:
        b.expect(text[:1] == ["copykernel %s on %s family %s model %s stepping %s" % (
            (v.group(1),) + c.groups())], "first line %r" % text[:1])
    s = b.has(r"^# copykernel-summary: result=\S+(?: reason=\S+)? suites=(\d+) pass=(\d+) fail=(\d+) "
              r"skip=(\d+)")
    if s:
        want = "tests: %s passed, %s failed, %s skipped in %s suites" % (
            s.group(2), s.group(3), s.group(4), s.group(1))
        b.expect(want in text, "no line %r on the screen: %r" % (want, text))
    m = b.has(r"^smp: (\d+) of \d+ CPUs? online")
    stale = b.has(r"^MCE: every CPU: .*stale errors on CPUs (\S+),")
    if m and stale:
        want = "CPUs: %s started, 0 failed, stale machine-check errors on %s" % (
            m.group(1), stale.group(1))
        b.expect(want in text, "no line %r on the screen: %r" % (want, text))
    if re.search(r"^CPU: .*, running under a hypervisor$", b.log, re.M):
        b.expect(any("under a hypervisor" in l and "mean nothing" in l for l in text),
                 "the screen does not say the CPU runs under a hypervisor: %r" % text)


def t_framebuffer_summary(b):
    """GOP console: the screendump shows the green PASS banner and every summary line."""
    with tempfile.TemporaryDirectory(prefix="ck-fb-") as tmp:
        ppm = os.path.join(tmp, "screen.ppm")
        b.run("exit=qemu exit_delay=2 tests=cpu,tsc", runner_args=["--screendump", ppm])
        b.status_is(PASS)
        b.has(r"^fbcon: 1280x800 framebuffer, 106x44 text, mirroring the serial console")
        b.has(r'^\{"schema":1,"kind":"quick","primitive":"copy_mc_fragile","bytes":1048576,')
        b.has(r"^fbcon: summary drawn")
        check_summary_screen(b, ppm, (0x1e, 0x8c, 0x3c))
        check_summary_text(b, ppm)


def t_framebuffer_bad_cmdline(b):
    """The summary banner turns red when the run did not pass (here: a bad command line)."""
    with tempfile.TemporaryDirectory(prefix="ck-fb-") as tmp:
        ppm = os.path.join(tmp, "screen.ppm")
        b.run("exit=qemu exit_delay=2 tests=cpu nonsense", runner_args=["--screendump", ppm])
        b.status_is(CMDLINE)
        check_summary_screen(b, ppm, (0xb4, 0x1e, 0x1e))


def acpi_table(sig, body, revision=1):
    """An ACPI table: the 36-byte header (OEM "CKTEST"), @body, a correct checksum."""
    t = bytearray(struct.pack("<4sIBB6s8sI4sI", sig, 36 + len(body), revision, 0, b"CKTEST",
                              b"CKFUZZ  ", 1, b"CKBT", 1)) + body
    t[9] = (-sum(t)) & 0xff
    return bytes(t)


def srat_mem(domain, base, size):
    """An enabled SRAT memory affinity entry (ACPI 6.x 5.2.16.2)."""
    return struct.pack("<BBIHQQIIQ", 1, 40, domain, 0, base, size, 0, 1, 0)


def srat(*entries):
    return acpi_table(b"SRAT", struct.pack("<IQ", 1, 0) + b"".join(entries), revision=3)


def boot_with_table(b, table, cmdline, **kw):
    """Boot with @table added to the firmware's ACPI tables (QEMU -acpitable)."""
    with tempfile.TemporaryDirectory(prefix="ck-acpi-") as tmp:
        path = os.path.join(tmp, "table.aml")
        with open(path, "wb") as f:
            f.write(table)
        return b.run(cmdline, extra=list(kw.pop("extra", [])) + ["-acpitable file=" + path],
                     **kw)


def t_srat_overlap(b):
    """An SRAT whose two domains claim the same memory: refused by name, one node, PASS."""
    boot_with_table(b, srat(srat_mem(0, 0, 256 << 20), srat_mem(1, 128 << 20, 384 << 20)),
                    "exit=qemu tests=cmdline")
    b.status_is(PASS)
    b.has(r"^warning: NUMA: SRAT rejected: SRAT memory affinity: ranges of two proximity domains "
          r"overlap at base 0x8000000$")
    b.has(r"^NUMA: no usable SRAT: one node holds everything$")


def t_srat_too_many_domains(b):
    """Nine proximity domains, one more than the kernel keeps: refused by name, one node."""
    boot_with_table(b, srat(*[srat_mem(d, d << 24, 1 << 24) for d in range(9)]),
                    "exit=qemu tests=cmdline")
    b.status_is(PASS)
    b.has(r"^warning: NUMA: SRAT rejected: SRAT: more proximity domains than the 8 nodes kept: "
          r"domain 0x8$")
    b.has(r"^NUMA: no usable SRAT: one node holds everything$")


def t_srat_node_without_ram(b):
    """A node whose SRAT range holds no RAM: bench=rfc names its directions, does not drop them."""
    boot_with_table(b, srat(srat_mem(0, 0, 512 << 20), srat_mem(1, 64 << 30, 256 << 20)),
                    "exit=qemu tests=pages bench=rfc bench_runs=3 bench_tiny=yes")
    b.status_is(PASS)
    # Its range is kept to the RAM of the memory map: none is left, and that is named.
    b.has(r"^warning: NUMA: SRAT memory affinity: a range holds no RAM of the memory map, "
          r"ignored: base 0x")
    b.has(r"^NUMA: node1 \(proximity domain 1\): 0 MiB, 0 CPUs \(no memory: tests cannot "
          r"place buffers here\)")
    b.has(r"^node0->node1 256K: no free memory for it on a node, skipped$")
    b.has(r"^node1->node0 256K: no free memory for it on a node, skipped$")


def t_einj_bogus(b):
    """inject=einj with an EINJ whose register is beyond 2^52: named and skipped, no #PF."""
    entry = struct.pack("<BBBBBBBBQQQ", 0, 3, 0, 0, 0, 64, 0, 4, 0xfffffffffffff000, 0xb,
                        (1 << 64) - 1)
    table = acpi_table(b"EINJ", struct.pack("<IBBBBI", 12, 0, 0, 0, 0, 1) + entry)
    boot_with_table(b, table, "exit=qemu tests=mce inject=einj", cpu=INTEL)
    b.status_is(PASS)
    b.has(r"^    # warning: EINJ: table rejected: entry 0: memory register beyond 2\^52: address "
          r"0xfffffffffffff000$")
    b.has(r"^    ok \d+ einj_table # SKIP EINJ table rejected")
    b.lacks(r"^PANIC: unexpected exception")


def t_results_variable(b):
    """The summary survives in UEFI variables: read back from the OVMF vars file and efivarfs."""
    res = load_tool("ck-results")
    with tempfile.TemporaryDirectory(prefix="ck-vars-") as tmp:
        vars_fd = os.path.join(tmp, "vars.fd")
        shutil.copy("/usr/share/OVMF/OVMF_VARS_4M.fd", vars_fd)
        b.run("exit=qemu tests=cpu crash=ud", runner_args=["--vars", vars_fd])
        b.status_is(PANIC)
        b.has(r"^results: summary stored in 1 UEFI variable CopykernelResult\* \(run id ")
        p = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "ck-results.py"),
                            "--ovmf-vars", vars_fd], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        b.outputs.append(("ck-results --ovmf-vars", p.stdout))
        if not b.expect(p.returncode == 0, "ck-results failed: " + p.stderr.strip()):
            return
        obj = json.loads(p.stdout)
        b.expect(obj["status"] == 2 and obj["status_name"] == "panic",
                 "stored status %s, want 2 (panic)" % obj.get("status"))
        b.expect(obj["cmdline"] == "exit=qemu tests=cpu crash=ud", "stored cmdline")
        b.expect(obj["tests"]["ran"] is False, "tests must not have run before the crash")
        # The same variables as Linux's efivarfs shows them: NAME-GUID, u32 attributes, data.
        efivars = os.path.join(tmp, "efivars")
        os.mkdir(efivars)
        for name, data in res.from_ovmf_vars(vars_fd).items():
            with open(os.path.join(efivars, "%s-%s" % (name, res.GUID)), "wb") as f:
                f.write(struct.pack("<I", 7) + data)
        p = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "ck-results.py"),
                            "--efivars", efivars], stdout=subprocess.PIPE, text=True)
        b.expect(p.returncode == 0 and json.loads(p.stdout) == obj, "efivarfs read differs")
    # Chunks: joined in order; a chunk left by an older, longer run is ignored.
    mk = lambda i, n, run, text: b"CKR1" + struct.pack("<HHI", i, n, run) + text
    text, why = res.assemble({"CopykernelResult0": mk(0, 3, 7, b'{"a":'),
                              "CopykernelResult1": mk(1, 3, 7, b'"xy'),
                              "CopykernelResult2": mk(2, 3, 7, b'z"}')})
    b.expect(text == '{"a":"xyz"}', "three chunks joined: %r (%s)" % (text, why))
    text, why = res.assemble({"CopykernelResult0": mk(0, 2, 9, b"{}"),
                              "CopykernelResult1": mk(1, 3, 7, b"old")})
    b.expect(text is None and "another run" in why, "stale chunk accepted: %r" % text)


def t_results_stale_chunks(b):
    """A shorter summary replaces a longer one whole: the older run's extra chunk is deleted."""
    res = load_tool("ck-results")
    with tempfile.TemporaryDirectory(prefix="ck-vars-") as tmp:
        vars_fd = os.path.join(tmp, "vars.fd")
        shutil.copy("/usr/share/OVMF/OVMF_VARS_4M.fd", vars_fd)
        long_line = "exit=qemu tests=cpu " + "fb=on " * 700      # JSON of two chunks
        b.run(long_line, runner_args=["--vars", vars_fd])
        b.has(r"^results: summary stored in 2 UEFI variables CopykernelResult\* \(run id ")
        first = res.from_ovmf_vars(vars_fd)
        b.expect("CopykernelResult1" in first, "the long summary did not take two chunks")
        b.run("exit=qemu tests=cpu", runner_args=["--vars", vars_fd])
        b.status_is(PASS)
        b.has(r"^results: summary stored in 1 UEFI variable CopykernelResult\* \(run id ")
        b.has(r"^# copykernel-summary: .* results=stored$")
        second = res.from_ovmf_vars(vars_fd)
        b.expect("CopykernelResult1" not in second,
                 "the first run's second chunk is still in the store")
        p = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "ck-results.py"),
                            "--ovmf-vars", vars_fd], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        b.outputs.append(("ck-results --ovmf-vars", p.stdout))
        if b.expect(p.returncode == 0 and "stale" not in p.stderr,
                    "ck-results: %d %s" % (p.returncode, p.stderr.strip())):
            obj = json.loads(p.stdout)
            b.expect(obj["cmdline"] == "exit=qemu tests=cpu" and
                     re.match(r"^[0-9a-f]{8}$", obj["run_id"]) is not None and
                     "started" in obj, "run id and start time in the JSON: %r" %
                     {k: obj.get(k) for k in ("run_id", "started")})
