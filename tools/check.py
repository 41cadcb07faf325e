#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""check.py - everything `make check` runs, with one summary line at the end.

Groups: host unit tests (build/host/test_*, KTAP), fuzzing (build/fuzz/*, libFuzzer for a
bounded time), build checks (PE32+ header, V=1, CROSS_COMPILE, clean) and the QEMU boot
scenarios, the rows of tests/qemu/scenarios.cfg (two at a time: the CI machine has two cores;
--scenario NAME runs one, --group NAME a group, --list prints the table).
Every test prints "ok"/"not ok" as it finishes; the last line is "N passed, N failed" and
the exit status is 1 when anything failed. Every host test's output and every serial log is
also held to tools/ktap-check.py: its errors fail the stream's own test, and what only
--strict adds (unknown lines inside a KTAP document) fails one result of its own at the end.
"""
import argparse
import concurrent.futures
import glob
import importlib.util
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "qemu"))
import scenarios  # noqa: E402


def load_ktap_check():
    spec = importlib.util.spec_from_file_location(
        "ktap_check", os.path.join(ROOT, "tools", "ktap-check.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


KTAP_CHECK = load_ktap_check()
sys.path.insert(0, os.path.join(ROOT, "tools"))
from cklib import schema as ckschema  # noqa: E402
from cklib import seriallog  # noqa: E402

RECORDS = ckschema.Schema()
# JSON records held to docs/schema/: streams and records seen per group.
schema_seen = {"host": [0, 0], "qemu": [0, 0], "tools": [0, 0]}
ktap_streams = {"host": 0, "qemu": 0}
# Streams whose only problems are those --strict adds (lines inside the document that are
# neither KTAP nor '#' diagnostics): one result for all of them at the end.
ktap_strict_problems = []


def ktap_documents(lines):
    """The KTAP documents of one stream, each to be checked whole: a run that soaks after its
    suites prints two, the suites' and then the soak's (soak/report.h), each starting with a
    version line at column 0. Each is the stream with the lines before its start blanked, so
    its problems keep their line numbers."""
    starts = [i for i, line in enumerate(lines) if seriallog.START.match(line)]
    if len(starts) < 2:
        return [lines]
    return [[""] * s + lines[s:e] for s, e in zip(starts, starts[1:] + [len(lines)])]


def ktap_errors(text, name):
    """tools/ktap-check.py's errors for one stream (names, nesting, plans, directives), each
    KTAP document in it checked; the problems only --strict reports go to
    ktap_strict_problems.

    A run that panicked stops mid-document by design: there, only the lines it printed
    before the panic report are judged, not the report, nor the results and plans it never
    reached."""
    lines = [line.rstrip("\r") for line in text.split("\n")]
    cut = re.search(r"^copykernel: exit status 2 \(panic\)", text, re.M) is not None
    if cut:
        # The document ends where the panic report starts: the report is not KTAP.
        end = next((i for i, line in enumerate(lines) if line.startswith("PANIC:")),
                   len(lines))
        while end and not lines[end - 1].strip():
            end -= 1
        lines = lines[:end]
    found = {}
    for strict in (False, True):
        found[strict] = []
        for doc in ktap_documents(lines):
            checker = KTAP_CHECK.check(doc, strict=strict)
            found[strict] += ["ktap-check: %s:%s: %s" % (name, line, msg)
                              for line, is_error, msg in checker.problems if is_error and
                              not (cut and re.search(r"end of the input|reached the end|"
                                                     r"ended after", msg))]
    strict_only = [e + (": %r" % lines[int(e.split(":")[2]) - 1][:90]
                        if e.split(":")[2].isdigit() else "")
                   for e in found[True] if e not in found[False]]
    if strict_only:
        ktap_strict_problems.append((name, strict_only))
    return found[False]


def schema_errors(text, name, group):
    """Every JSON record of one stream held to docs/schema/: "NAME:LINE: KIND record:
    MEMBER: why" for each one that does not validate."""
    n, problems = ckschema.check_any(RECORDS, text, name)
    schema_seen[group][0] += 1
    schema_seen[group][1] += n
    return problems


class Results:
    def __init__(self):
        self.passed = self.failed = self.skipped = 0
        self.failures, self.skips = [], []

    def count(self):
        return self.passed + self.failed + self.skipped

    def add(self, name, ok, details=(), note=""):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            self.failures.append(name)
        print("%s %d %s%s" % ("ok" if ok else "not ok", self.count(), name,
                              (" # " + note) if note else ""))
        for d in details:
            print("    # " + d)
        sys.stdout.flush()

    def skip(self, name, reason):
        """A test that could not run here, and why (KTAP's "# SKIP"): neither passed nor
        failed, and named again at the end."""
        self.skipped += 1
        self.skips.append("%s: %s" % (name, reason))
        print("ok %d %s # SKIP %s" % (self.count(), name, reason))
        sys.stdout.flush()


def host_tests(build, res):
    bins = sorted(glob.glob(os.path.join(build, "host", "test_*")))
    if not bins:
        res.add("host: test binaries built", False, ["no build/host/test_* found"])
    for b in bins:
        p = subprocess.run([b], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=300)
        name = os.path.basename(b)
        diags = []
        cases = 0
        failed_before = res.failed
        for line in p.stdout.splitlines():
            m = re.match(r"(not ok|ok) \d+ (\S+)(?: # (SKIP\b.*))?", line)
            if m:
                cases += 1
                res.add("host/%s/%s" % (name, m.group(2)), m.group(1) == "ok", diags,
                        note=m.group(3) or "")
                diags = []
            elif line.startswith("# ") and ":" in line and "CHECK(" in line:
                diags.append(line[2:])
        # A binary that died (sanitizer, signal) after its last reported case still fails,
        # whatever earlier binaries did.
        if p.returncode != 0 and res.failed == failed_before:
            res.add("host/%s exit status" % name, False, p.stdout.splitlines()[-20:])
        if cases == 0:
            res.add("host/%s ran cases" % name, False, p.stdout.splitlines()[-20:])
        errs = ktap_errors(p.stdout, "host/" + name)
        ktap_streams["host"] += 1
        if errs:
            res.add("host/%s: its output is valid KTAP" % name, False, errs[:10])
        errs = schema_errors(p.stdout, "host/" + name, "host")
        if errs:
            res.add("host/%s: its JSON records match the schema" % name, False, errs[:10])


def fuzz_one(f, seconds):
    """One fuzzer for @seconds over a scratch copy of its seed corpus: (ok, tail, runs)."""
    name = os.path.basename(f)
    seed = os.path.join(ROOT, "tests", "fuzz", "corpus_" + name.replace("fuzz_", ""))
    with tempfile.TemporaryDirectory(prefix="ck-fuzz-") as corpus:
        if os.path.isdir(seed):
            for s in os.listdir(seed):
                shutil.copy(os.path.join(seed, s), corpus)
        p = subprocess.run([f, "-max_total_time=%d" % seconds, "-timeout=10",
                            "-artifact_prefix=" + corpus + "/", corpus],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=seconds + 120)
    runs = re.findall(r"Done (\d+) runs", p.stdout)
    return p.returncode == 0, p.stdout.splitlines()[-25:], runs[-1] if runs else "?"


def fuzz(build, seconds, res):
    """Every fuzzer, two at a time (each a single-threaded libFuzzer; two cores)."""
    fuzzers = sorted(glob.glob(os.path.join(build, "fuzz", "*")))
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as ex:
        runs = [ex.submit(fuzz_one, f, seconds) for f in fuzzers]
        for f, r in zip(fuzzers, runs):
            ok, tail, n = r.result()
            res.add("fuzz/%s (%ds)" % (os.path.basename(f), seconds), ok, [] if ok else tail,
                    note="%s runs" % n)


def pe_layout_problems(d, pe, nsect, opt_size):
    """What an Authenticode signer (sbsign) would find uncovered in the PE image @d: a COFF
    symbol table (the PE/COFF spec says an image's PointerToSymbolTable should be zero), or
    file bytes that neither the headers nor any section's raw data hold (its warning "gaps
    between PE/COFF sections"). The signer hashes the headers, then each section's raw data in
    file order; whatever lies beyond is "data remaining"."""
    problems = []
    symtab, nsyms = struct.unpack_from("<II", d, pe + 12)
    if symtab or nsyms:
        problems.append("COFF symbol table at 0x%x (%d symbols): strip it" % (symtab, nsyms))
    size_of_headers = struct.unpack_from("<I", d, pe + 24 + 60)[0]
    spans = []
    for i in range(nsect):
        raw_size, raw_ptr = struct.unpack_from("<II", d, pe + 24 + opt_size + 40 * i + 16)
        if raw_size:
            spans.append((raw_ptr, raw_ptr + raw_size))
    end = size_of_headers
    for start, stop in sorted(spans):
        if start != end:
            problems.append("file bytes 0x%x-0x%x belong to no section" % (end, start))
        end = max(end, stop)
    if end != len(d):
        problems.append("%d bytes after the last section (file %d, sections end at %d)"
                        % (len(d) - end, len(d), end))
    return problems


def pe_header_ok(path):
    with open(path, "rb") as f:
        d = f.read()
    problems = []
    if d[:2] != b"MZ":
        return ["no MZ header"]
    pe = struct.unpack_from("<I", d, 0x3c)[0]
    if d[pe:pe + 4] != b"PE\0\0":
        return ["no PE signature"]
    machine, nsect = struct.unpack_from("<HH", d, pe + 4)
    opt_size = struct.unpack_from("<H", d, pe + 20)[0]
    magic = struct.unpack_from("<H", d, pe + 24)[0]
    subsystem = struct.unpack_from("<H", d, pe + 24 + 68)[0]
    if machine != 0x8664:
        problems.append("machine 0x%x, want 0x8664 (x86-64)" % machine)
    if magic != 0x20b:
        problems.append("optional header magic 0x%x, want 0x20b (PE32+)" % magic)
    if subsystem != 10:
        problems.append("subsystem %d, want 10 (EFI application)" % subsystem)
    names = [d[pe + 24 + opt_size + 40 * i:][:8].rstrip(b"\0").decode() for i in range(nsect)]
    for want in (".text", ".data", ".reloc", ".ksyms"):
        if want not in names:
            problems.append("section %s missing (have %s)" % (want, names))
    return problems + pe_layout_problems(d, pe, nsect, opt_size)


def build_checks(build, res):
    efi = os.path.join(build, "copykernel.efi")
    res.add("build: copykernel.efi is an x86-64 PE32+ EFI application, every byte in a section",
            os.path.exists(efi) and not pe_header_ok(efi),
            pe_header_ok(efi) if os.path.exists(efi) else ["missing"])
    with tempfile.TemporaryDirectory(prefix="ck-build-") as tmp:
        out = os.path.join(tmp, "b")
        p = subprocess.run(["make", "-C", ROOT, "B=" + out, "V=1",
                            "CROSS_COMPILE=x86_64-linux-gnu-", out + "/copykernel.efi"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=600)
        log = p.stdout
        probs = []
        if p.returncode != 0:
            probs.append("build failed: " + " | ".join(log.splitlines()[-5:]))
        if not re.search(r"^x86_64-linux-gnu-gcc .*-Wall -Wextra -Werror", log, re.M):
            probs.append("V=1 did not show x86_64-linux-gnu-gcc with -Wall -Wextra -Werror")
        if not re.search(r"^x86_64-linux-gnu-ld .*-T linker.ld", log, re.M):
            probs.append("no x86_64-linux-gnu-ld -T linker.ld link")
        if not re.search(r"^x86_64-linux-gnu-objcopy .*--target efi-app-x86_64", log, re.M):
            probs.append("no objcopy to efi-app-x86_64")
        res.add("build: V=1 and CROSS_COMPILE are honoured", not probs, probs)
        p = subprocess.run(["make", "-C", ROOT, "B=" + out, "clean"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        res.add("build: make clean removes the build directory",
                p.returncode == 0 and not os.path.exists(out))
    img = os.path.join(build, "copykernel.img")
    p = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "mkimg.py"), "--check", img],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    res.add("build: make img's disk has a valid GPT and a FAT32 EFI system partition",
            p.returncode == 0, p.stdout.splitlines())


def scratch_tree(files):
    """A temporary tree holding @files ({path: text}); the caller removes it."""
    tmp = tempfile.mkdtemp(prefix="ck-layers-")
    for path, text in files.items():
        os.makedirs(os.path.join(tmp, os.path.dirname(path)), exist_ok=True)
        with open(os.path.join(tmp, path), "w") as f:
            f.write(text)
    return tmp


def run_on_scratch(tool, files):
    """@tool (an argv) with --root on a scratch tree of @files, removed after: its process."""
    tmp = scratch_tree(files)
    try:
        return subprocess.run(tool + ["--root", tmp], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def scratch_objects(tmp, sources):
    """Compile @sources of the scratch tree @tmp to tmp/build/<source>.o, as the image does."""
    for src in sources:
        obj = os.path.join(tmp, "build", src[:-2] + ".o")
        os.makedirs(os.path.dirname(obj), exist_ok=True)
        subprocess.run(["gcc", "-c", "-O0", "-fpic", "-fno-asynchronous-unwind-tables",
                        "-I" + tmp, os.path.join(tmp, src), "-o", obj], check=True)


def scratch_check(res, tool, what, files, objects, want, name):
    """Run `tool what` on a scratch tree; it must exit 1 and print every line of @want."""
    tmp = scratch_tree(files)
    try:
        scratch_objects(tmp, objects)
        p = subprocess.run(tool + [what], cwd=tmp, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    missing = [w for w in want if w not in p.stdout]
    ok = p.returncode == 1 and not missing
    res.add(name, ok, [] if ok else ["exit %d; missing: %s" % (p.returncode, m)
                                     for m in missing] + p.stdout.splitlines()[-10:])


def layer_checks(build, res):
    """tools/layers.py on the tree, and on scratch trees that each break one rule once."""
    tool = [sys.executable, os.path.join(ROOT, "tools", "layers.py")]
    for what in ("includes", "calls"):
        p = subprocess.run(tool + [what, "--build", build], cwd=ROOT, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        res.add("layers: %s point down, no cycles" % what, p.returncode == 0,
                [] if p.returncode == 0 else p.stdout.splitlines()[-15:],
                note=(p.stdout.splitlines() or ["?"])[-1])
    dep = {"build/format.d": "build/format.o: kernel/lib/format.c kernel/console/printk.h\n"}
    scratch_check(res, tool, "includes", dict(dep, **{
        "kernel/console/printk.h": "/* console */\n",
        "kernel/lib/format.c": "/* lib */\n#include \"kernel/console/printk.h\"\n"}), [],
        ["kernel/lib/format.c:2:", "may not include kernel/console/printk.h"],
        "layers: an upward include (lib -> console) fails the check with file and line")
    scratch_check(res, tool, "includes", dict(dep, **{
        "kernel/console/printk.h": "/* console */\n",
        "kernel/lib/format.c": "#include <stdint.h>\n#ifdef CK_HOST\n#include <stdio.h>\n"
                               "#else\n#include <string.h>\n#endif\n",
        "kernel/arch/paging.c": "#include <stddef.h>\n#include <efi/efi.h>\n",
        "boot/efi_main.c": "#include <efi.h>\n#include <stdlib.h>\n",
        "tests/host/test_x.c": "#include <stdio.h>\n"}), [],
        ["kernel/arch/paging.c:2: kernel/arch/paging.c (kernel/arch) may not include "
         "<efi/efi.h>: GNU-EFI", "kernel/lib/format.c:5: kernel/lib/format.c (kernel/lib) "
         "may not include <string.h>", "boot/efi_main.c:2:", "3 violations"],
        "layers: angle-bracket includes: GNU-EFI outside boot/ and the C library in the "
        "image fail (freestanding headers, CK_HOST branches and host programs pass)")
    scratch_check(res, tool, "calls", {
        "init/run.c": "void run_tests(void) {}\n",
        "kernel/lib/fmt.c": "void Print(const char *s);\nvoid fmt(void) { Print(\"x\"); }\n",
        "boot/efi_main.c": "void run_tests(void);\nvoid fmt(void);\n"
                           "void efi_main(void) { fmt(); run_tests(); }\n"},
        ["init/run.c", "kernel/lib/fmt.c", "boot/efi_main.c"],
        ["boot/efi_main.c calls run_tests in init/run.c (boot may not reach init)",
         "kernel/lib/fmt.c uses Print: no object of the image defines it, and only boot/",
         "2 violations"],
        "layers: calls: boot/ beyond its allowlist and a firmware call outside boot/ fail")
    p = subprocess.run(tool + ["symbols", "--build", build], cwd=ROOT, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    res.add("layers: no production symbol only tests use, no global nothing uses",
            p.returncode == 0, [] if p.returncode == 0 else p.stdout.splitlines()[-15:],
            note=(p.stdout.splitlines() or ["?"])[-1])
    scratch_check(res, tool, "symbols", {
        "kernel/arch/hooks.c": "void (*after_step)(void);\n"
                               "void step(void) { if (after_step) after_step(); }\n"
                               "int lonely(void) { return 1; }\n",
        "init/run.c": "void step(void);\nvoid run(void) { step(); }\n"
                        "int only_tested(int x) { return x + 1; }\n",
        "ktest/test_run.c": "void run(void);\n",
        "tests/host/test_run.c": "int only_tested(int x);\nint main(void) "
                                 "{ return only_tested(-1); }\n",
        "ktest/test_hooks.c": "extern void (*after_step)(void);\nstatic void seen(void) {}\n"
                              "__attribute__((used)) static void arm(void) "
                              "{ after_step = seen; }\n"},
        ["kernel/arch/hooks.c", "init/run.c", "ktest/test_run.c", "ktest/test_hooks.c"],
        ["after_step in kernel/arch/hooks.c: test-only", "lonely in kernel/arch/hooks.c: "
         "unused", "only_tested in init/run.c: test-only", "run in init/run.c: unused",
         "4 violations"],
        "layers: a hook only tests set, a function only tests call and unused globals fail")
    scratch_check(res, tool, "symbols", {
        "soak/run.c": "void soak_run(void) {}\n",
        "boot/efi_main.c": "void soak_run(void);\nvoid efi_main(void) { soak_run(); }\n",
        "host/soak/twin.c": "int soak_run(int n) { return n; }\n"
                            "int main(void) { return soak_run(0); }\n"},
        ["soak/run.c", "boot/efi_main.c"],
        ["symbols: soak_run is defined both in the image (soak/run.c) and in a host program "
         "(host/soak/twin.c)", "2 globals of the host programs, 1 also defined in the image",
         "1 violation"],
        "layers: a name defined both in the image and in a host program (host/) fails")
    p = subprocess.run(tool + ["units", "--build", build], cwd=ROOT, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    res.add("layers: no two files (a source with its header) include, call or import each "
            "other, in the image, host/ and the Python tools", p.returncode == 0,
            [] if p.returncode == 0 else p.stdout.splitlines()[-25:],
            note=(p.stdout.splitlines() or ["?"])[-1])
    scratch_check(res, tool, "units", {
        "kernel/arch/apic.h": "static inline int apic_base(int msr) { return msr & ~0xfff; }\n"
                              "int apic_init(int msr);\n",
        "kernel/arch/apic.c": "#include \"kernel/arch/apic.h\"\n#include \"kernel/arch/paging.h\"\n"
                              "int apic_init(int msr) { return pg_map(apic_base(msr)); }\n",
        "kernel/arch/paging.h": "int pg_map(int pa);\n",
        "kernel/arch/paging.c": "#include \"kernel/arch/apic.h\"\n"
                                "#include \"kernel/arch/paging.h\"\n"
                                "int pg_map(int pa) { return apic_base(pa); }\n",
        "kernel/arch/tidy.c": "#include \"kernel/arch/paging.h\"\n"
                              "int tidy(void) { return pg_map(0); }\n",
        "host/soak/one.c": "int two(int n);\nint one(int n) { return n ? two(n - 1) : 0; }\n",
        "host/soak/two.c": "int one(int n);\nint two(int n) { return n ? one(n - 1) : 0; }\n",
        "tools/first.py": "import second\n",
        "tools/second.py": "from cklib import common\nimport first\n",
        "tools/cklib/__init__.py": "",
        "tools/cklib/common.py": "import os\n"},
        ["kernel/arch/apic.c", "kernel/arch/paging.c", "kernel/arch/tidy.c"],
        ["units: cycle between 2 files: kernel/arch/apic, kernel/arch/paging",
         "kernel/arch/apic -> kernel/arch/paging: calls pg_map; includes kernel/arch/paging.h",
         "kernel/arch/paging -> kernel/arch/apic: includes kernel/arch/apic.h "
         "(kernel/arch/paging.c:1)", "units: cycle between 2 files: host/soak/one, host/soak/two",
         "host/soak/one -> host/soak/two: calls two", "units: cycle between 2 files: "
         "tools/first, tools/second", "tools/second -> tools/first: imports tools/first.py "
         "(tools/second.py:2)", "3 cycles"],
        "layers: units: a header's inline and a call back (apic <-> paging), host programs "
        "that call each other and Python tools that import each other fail")
    tool = [sys.executable, os.path.join(ROOT, "tools", "path-check.py")]
    p = subprocess.run(tool, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    res.add("paths: every repository path a comment, README.md or docs/ names exists",
            p.returncode == 0, [] if p.returncode == 0 else p.stdout.splitlines()[-15:],
            note=(p.stdout.splitlines() or ["?"])[-1])
    p = run_on_scratch(tool, {
        "kernel/arch/entry.asm": "; pt_regs: kernel/traps.h, frame in kernel/arch/traps.h\n",
        "kernel/arch/traps.h": "/* see kernel/arch/entry.asm and tests/host/test_*.c */\n",
        "tests/host/test_traps.c": "// copy/clear in prose; kernel/gone/ is gone\n",
        "tools/run.py": "# tools/testing/kunit/kunit.py is Linux's\n\"\"\"tools/NAME.py\"\"\"\n",
        "README.md": "Run `tools/run.py`; see `tools/missing.sh`.\n",
        "docs/user/run.md": "Back to `docs/user/`; `tools/gone.py` is gone.\n"})
    want = ["kernel/arch/entry.asm:1: names kernel/traps.h,", "tests/host/test_traps.c:1: "
            "names kernel/gone/,", "README.md:1: names tools/missing.sh,",
            "docs/user/run.md:1: names tools/gone.py,", "4 missing"]
    ok = p.returncode == 1 and all(w in p.stdout for w in want)
    res.add("paths: a comment, README.md or docs/ naming a file that does not exist fails "
            "the check",
            ok, [] if ok else p.stdout.splitlines())
    link_checks(res)


def link_checks(res):
    """tools/link-check.py on README.md and docs/, and on a scratch tree with broken links."""
    tool = [sys.executable, os.path.join(ROOT, "tools", "link-check.py")]
    p = subprocess.run(tool, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    res.add("links: every relative link in README.md and docs/ resolves", p.returncode == 0,
            [] if p.returncode == 0 else p.stdout.splitlines()[-15:],
            note=(p.stdout.splitlines() or ["?"])[-1])
    p = run_on_scratch(tool, {
        "README.md": "# Top\n[a](docs/a.md#the-runner-ck-runpy), [b](docs/b.md), "
                     "[c](https://example.org/c.md)\n`[d](d.md)`\n```\n[e](e.md)\n```\n",
        "docs/a.md": "## The runner, `ck-run.py`\n[up](../README.md#top) [x](#nowhere)\n"})
    want = ["README.md:2: docs/b.md: no such file", "docs/a.md:2: #nowhere: no heading",
            "4 relative links in README.md and docs/, 2 broken"]
    ok = p.returncode == 1 and all(w in p.stdout for w in want)
    res.add("links: a link to a missing file or heading fails the check (code and URLs aside)",
            ok, [] if ok else p.stdout.splitlines())


def tools_checks(res):
    """The report tool on the stored sample log (tests/data/bench-sample.log)."""
    tool = [sys.executable, os.path.join(ROOT, "tools", "ck-report.py")]
    sample = os.path.join(ROOT, "tests", "data", "bench-sample.log")
    p = subprocess.run(tool + [sample], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    want = ["fn=folio_copy mode=cache-cold (per-page vs batched)",
            "direction      folio   baseline GB/s      optimized GB/s     speedup [95% CI]",
            # 3505 MB/s: 3.51 rounded half away from zero, as the tables round
            "node0->node0   256K    2.78 +- 0.12       3.51 +- 0.34       1.26x [1.10, 1.26]",
            "fn=copy_mc_highpages mode=cache-cold (per-page vs bulk)",
            "clear_pages_nt         64K     cache-hot   9.03"]
    missing = [w for w in want if w not in p.stdout]
    res.add("tools: ck-report renders the seed tables from the sample log",
            p.returncode == 0 and not missing, missing + p.stdout.splitlines()[-5:])
    p = subprocess.run(tool + ["--compare", sample, sample], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    rows = [l for l in p.stdout.splitlines() if re.search(r"\d\.\d{3}x  ", l)]
    res.add("tools: ck-report --compare of a run with itself: no comparison changed",
            p.returncode == 0 and len(rows) >= 7 and all("no change" in l for l in rows) and
            "CHANGED" not in p.stdout, p.stdout.splitlines()[:5])
    with tempfile.TemporaryDirectory(prefix="ck-plots-") as tmp:
        p = subprocess.run(["/usr/bin/python3"] + tool[1:] + [sample, "--plot", tmp],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        files = os.listdir(tmp)
        res.add("tools: ck-report --plot writes PNG and SVG bandwidth plots",
                any(f.endswith(".png") for f in files) and
                any(f.endswith(".svg") for f in files) and
                all(os.path.getsize(os.path.join(tmp, f)) > 1000 for f in files),
                p.stdout.splitlines()[-3:])


def cmdline_reference(build, res):
    """docs/reference/cmdline.md is what host/ck-cmdline-doc.c writes from the option table
    now, and every key of the table is documented (the tool refuses a row that is not)."""
    tool = os.path.join(build, "ck-cmdline-doc")
    doc = os.path.join(ROOT, "docs", "reference", "cmdline.md")
    if not os.path.exists(tool):
        out = "%s is not built (make %s)" % (tool, tool)
    else:
        p = subprocess.run([tool, "--check", doc], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        out = "" if p.returncode == 0 else p.stdout or "exit status %d" % p.returncode
    res.add("docs: docs/reference/cmdline.md is the option table's reference, every key "
            "documented (make cmdline-doc)", not out, out.splitlines()[-12:])


def tools_records(build, res):
    """The hosted tools' JSON output held to docs/schema/ (cklib.schema.hosted_records)."""
    for name, status, n, errs, tail in ckschema.hosted_records(RECORDS, build):
        schema_seen["tools"][0] += 1
        schema_seen["tools"][1] += n
        ok = status == 0 and n > 0 and not errs
        res.add("tools: %s: its JSON records match the schema" % name, ok,
                [] if ok else errs[:10] or ["exit %d, %d records" % (status, n)] + tail,
                note="%d record%s" % (n, "" if n == 1 else "s"))


def pytest_file(path):
    """One file of tests/tools under pytest: (exit status, output); a file that runs past
    the bound is a failure of that file (status 124), not of the whole check."""
    with tempfile.TemporaryDirectory(prefix="ck-pytest-") as tmp:
        try:
            p = subprocess.run(["/usr/bin/python3", "-m", "pytest", "-q", "-rA", "-p",
                                "no:cacheprovider", "--basetemp", tmp, path], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               timeout=900)
        except subprocess.TimeoutExpired as e:
            out = e.output.decode(errors="replace") if isinstance(e.output, bytes) else \
                (e.output or "")
            return 124, out + "\npytest %s: still running after 900 s: stopped" % path
    return p.returncode, p.stdout


def pytools_checks(res):
    """The host tools' own tests (tests/tools: pytest with hypothesis, and unittest), one
    pytest per file, two files at a time (two cores)."""
    files = sorted(glob.glob(os.path.join(ROOT, "tests", "tools", "test_*.py")))
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as ex:
        runs = [ex.submit(pytest_file, os.path.relpath(f, ROOT)) for f in files]
        for f, r in zip(files, runs):
            status, out = r.result()
            seen = 0
            for line in out.splitlines():
                m = re.match(r"(PASSED|FAILED|ERROR) (\S+)", line)
                if m:
                    seen += 1
                    res.add("tools/" + m.group(2).split("/")[-1], m.group(1) == "PASSED",
                            [] if m.group(1) == "PASSED" else [line])
                # pytest -rA: "SKIPPED [1] tests/tools/FILE.py:LINE: reason"
                m = re.match(r"SKIPPED \[\d+\] (\S+?):\d+: (.*)", line)
                if m:
                    seen += 1
                    res.skip("tools/" + m.group(1).split("/")[-1], m.group(2))
            if status != 0 or not seen:
                res.add("tools: pytest %s ran and passed" % os.path.relpath(f, ROOT), False,
                        out.splitlines()[-20:])


def keep_failure_log(build, b):
    """Write a failed scenario's whole serial log where a person can read it after the run."""
    where = os.path.join(build, "check-failures")
    os.makedirs(where, exist_ok=True)
    path = os.path.join(where, b.name + ".log")
    with open(path, "w") as f:
        f.write(b.log)
    return path


def qemu_tests(build, res, todo):
    image = os.path.join(build, "copykernel.efi")
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as ex:
        futs = [ex.submit(scenarios.run, image, r) for r in todo]
        for fut, r in zip(futs, todo):
            b, secs = fut.result()
            if "KTAP version 1" in b.log:
                ktap_streams["qemu"] += 1
                b.problems += ktap_errors(b.log, b.name)[:10]
            logs = getattr(b, "logs", [b.log])
            for name, text in [("%s (boot %d)" % (b.name, i + 1) if len(logs) > 1 else b.name,
                                log) for i, log in enumerate(logs)] + b.outputs:
                b.problems += schema_errors(text, name, "qemu")[:10]
            details = list(b.problems)
            if b.problems:
                details.append("whole serial log: " + keep_failure_log(build, b))
                details.append("serial log tail:")
                details += ["  " + l for l in b.log.splitlines()[-25:]]
            res.add("qemu/%s: %s" % (b.name, r.description()), not b.problems,
                    details, note="%.1f s" % secs + ("; " + b.note if getattr(b, "note", "")
                                                     else ""))


def scenario_table_checks(res):
    """The table of QEMU scenarios is sound, and a scratch table breaking each rule fails."""
    for name, ok, details, note in scenarios.self_check():
        res.add("scenarios: " + name, ok, details, note=note)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--fuzz-seconds", type=int, default=10)
    ap.add_argument("--groups", default="host,fuzz,build,layers,tools,pytools,qemu")
    ap.add_argument("--only", action="append", default=[],
                    help="QEMU scenarios whose name holds this (implies --groups qemu)")
    ap.add_argument("--scenario", action="append", default=[], metavar="NAME",
                    help="the QEMU scenario of this exact name (implies --groups qemu)")
    ap.add_argument("--group", action="append", default=[], metavar="NAME",
                    help="the QEMU scenarios of this group of scenarios.cfg (implies --groups "
                         "qemu)")
    ap.add_argument("--list", action="store_true", help="print the table of QEMU scenarios")
    ap.add_argument("--table", default=scenarios.TABLE, help="the table of QEMU scenarios "
                    "(default tests/qemu/scenarios.cfg)")
    args = ap.parse_args()
    rows, declared = scenarios.load(args.table)
    if args.list:
        print(scenarios.listing(rows, declared))
        return 0
    picked = args.only or args.scenario or args.group
    unknown = [n for n in args.scenario if n not in {r.name for r in rows}] + \
        [g for g in args.group if g not in declared]
    if unknown:
        print("check.py: no scenario or group %s (see --list)" % ", ".join(unknown))
        return 2
    todo = scenarios.select(rows, args.scenario, args.group, args.only)
    if picked and not todo:
        print("check.py: no scenario's name holds %s (see --list)" % ", ".join(args.only))
        return 2
    groups = ["qemu"] if picked and "--groups" not in sys.argv else args.groups.split(",")
    res = Results()
    t0 = time.monotonic()
    print("KTAP version 1")
    if "host" in groups:
        host_tests(args.build, res)
    if "fuzz" in groups:
        fuzz(args.build, args.fuzz_seconds, res)
    if "build" in groups:
        build_checks(args.build, res)
    if "layers" in groups:
        layer_checks(args.build, res)
    if "tools" in groups:
        tools_records(args.build, res)
        tools_checks(res)
        cmdline_reference(args.build, res)
        scenario_table_checks(res)
    if "pytools" in groups:
        pytools_checks(res)
    if "qemu" in groups:
        qemu_tests(args.build, res, todo)
    if ("host" in groups or "qemu" in groups) and not picked:
        res.add("ktap: tools/ktap-check.py validated %d host and %d QEMU serial streams "
                "(a failure is reported on the stream's own test)"
                % (ktap_streams["host"], ktap_streams["qemu"]),
                ktap_streams["host"] + ktap_streams["qemu"] > 0)
    if ktap_streams["host"] + ktap_streams["qemu"]:
        details = []
        for name, errs in ktap_strict_problems:
            details += ["%s: %d line%s" % (name, len(errs), "" if len(errs) == 1 else "s")]
            details += ["  " + e for e in errs[:3]]
        res.add("ktap: every host and QEMU stream passes tools/ktap-check.py --strict "
                "(no unknown line inside a KTAP document)", not ktap_strict_problems,
                details, note="%d of %d streams fail only --strict" % (
                    len(ktap_strict_problems), ktap_streams["host"] + ktap_streams["qemu"]))
    streams = sum(n for n, _ in schema_seen.values())
    if streams and not args.only:
        recs = sum(r for _, r in schema_seen.values())
        res.add("schema: %d JSON records of %d host, %d QEMU and %d tool streams validated "
                "against docs/schema/copykernel-records-v1.json (a failure is reported on "
                "the stream's own test)" % (recs, schema_seen["host"][0],
                                            schema_seen["qemu"][0], schema_seen["tools"][0]),
                recs > 0 or not {"qemu", "tools"} & set(groups))
    print("1..%d" % res.count())
    print("# make check took %.0f s" % (time.monotonic() - t0))
    for f in res.skips:
        print("# SKIPPED: " + f)
    for f in res.failures:
        print("# FAILED: " + f)
    print("%d passed, %d failed" % (res.passed, res.failed))
    return 1 if res.failed else 0


if __name__ == "__main__":
    sys.exit(main())
