# SPDX-License-Identifier: GPL-2.0-only
"""symbols.py - `tools/layers.py symbols`: what the image exports that only tests use, or
that nothing uses at all.

Who uses a global symbol, from the build (run it after `make` and `make host-tests`):
  * in the image: every relocation against the symbol in an image object (readelf -r; debug
    and unwind sections aside), the defining object's own included, and for NASM objects
    (which resolve their own labels without a relocation) the names in the source's
    instructions and data;
  * on the host: the identifiers of the host programs' sources (tests/host, tests/fuzz,
    host/ and the oracles' self-tests, comments and strings removed), which link the same
    pure objects.

Files are tests when they are in ktest/ (the in-image framework, suites and oracles), in
tests/host or tests/fuzz, or named test_*.c; every other file of the image is production. Then:
  * a production function that no production code calls while a test does, or a production
    variable that tests touch and no production file but its own does, is "used only by
    tests": a hook or an accessor kept for them. It fails unless TEST_API says why it
    stays.
  * a global function or variable, in any room, that nothing uses is "unused": it fails
    unless UNUSED_OK says who uses it beyond what this check sees.
PENDING_REMOVAL names what work in flight removes or wires up: reported, never failed. An entry
of a list that no longer matches anything is reported too, so the lists shrink with the code.

No name twice: a global the host programs (host/, compiled for the check by
tools/rooms.py) define must not also be defined by an image object. They never link
together, but a reader, a grep, a debugger or a symbol table would take one for the other
(the hosted soak twin's one run is twin_run(), the image's soak is soak_run()).
"""
import fnmatch
import os
import re
import subprocess
import sys

import rooms

# cores/ is the cores suite's kernels and vote: in-image test code kept below ktest/ so the
# host tests run the same objects.
TEST_ROOMS = ["ktest", "ktest/lib", "ktest/oracle", "cores", "tests/host", "tests/fuzz"]
HOST_PROGRAM_ROOMS = ["tests/host", "tests/fuzz", "host", "host/lib", "host/bench", "host/soak",
                      "host/cores"]
# The oracles' self-tests are host programs too (make host-tests: build/host/test_oracle_*).
HOST_PROGRAM_FILES = ["ktest/oracle/selftest_*.c"]

# Production symbols that only tests use, each kept on purpose. Patterns (fnmatch) allowed.
TEST_API = {
    # What a test reads back from the machine's own records: the run keeps them for tests.
    "ex_last": "the last fixed-up exception: the probes' answer (kernel/include/probe.h)",
    "trap_last_mc_frame": "where the #MC frame was: the traps suite checks the IST stack",
    "ist_stack_top": "the IST stacks' layout, for the suites that check a frame is on one",
    "extable_size": "the exception table's size, for the extable suite's sort check",
    "poison_naming": "how the return value and the bank named a poisoned page, for the test",
    "pg_max_phys": "MAXPHYADDR as paging took it, for the paging suite's top-of-space check",
    "smp_is_guard_page": "the AP blocks' guard pages, which the paging suite skips",
    "ptr_sort": "sorts the suites and crash kinds (ktest/lib/ktap.c, ktest/lib/crash.c)",
    # The page APIs of the seeds: what the suites and the host tests exercise.
    "clear_highpages*": "Linux's per-page clear loop, under test (ktest/test_pages.c)",
    "folio_copy_huge": "process_huge_page's copy order, under test",
    "stats_ratio": "the ratio-of-medians interval, tested ahead of its bench users",
    "clear_quoted*": "the upstream figures seed003 prints, held to the oracle's by a host test",
    "seed003_avg_x10": "seed 003's averages, recomputed from the seed's runs by a host test",
    # Machine checks: the injection backends are driven by the mce suite (tests/).
    "einj_*": "the EINJ backend (inject=einj) lives in ktest/mce_inject.c",
    "mce_emulate_*": "the emulated-poison backend (inject=emulate) of the mce suite",
    "mce_last": "the mce suite reads the record its injection left",
    "mce_report_skip": "the mce suite drops the records it checked itself",
    "mce_cpus_table": "the mce suite prints the per-CPU table at its end",
    "mce_rules_*": "the rule tables, walked by the host tests of the grading",
    "mce_nr_rules_*": "the rule tables' sizes, for the same host tests",
    "mce_rule_no_ripv": "a named rule the host tests compare verdicts with",
    "mce_rule_uc_no_ser": "a named rule the host tests compare verdicts with",
    "mce_sim_route": "inject=simulate: the mce suite routes its CPU's MSRs to its own file",
    "mce_sim_this": "inject=simulate: the mce suite fills its CPU's simulated register file",
    # The soak and the poller: pure parts whose users in the image are still to come.
    "soak_ckpt_text": "a checkpoint as the next boot's words; the fuzzer holds it to the decoder",
    "mce_poll_due": "Linux's poll-timer interval (mce/poll_core.h), host-tested; the image "
                    "polls on the soak's soak_poll= schedule and has no poll timer yet",
    "mce_poll_rearm": "the same interval's halving after a find and doubling after none",
}

# Globals nothing in the build uses, each with who does.
UNUSED_OK = {
    "efi_main": "GNU-EFI's crt0 (crt0-efi-x86_64.o) calls it",
    "exc_stub_*": "kernel/arch/idt.c reaches each stub from exc_stubs_start and the stride",
    "boot_stack_bottom": "the boot stack's lower end, a name for the symbol table",
}

# Work in flight: what it removes or wires up (emptied when that work lands).
PENDING_REMOVAL = {
}

TOKEN_RE = re.compile(r"[A-Za-z_]\w*")


def is_test(path):
    return rooms.room_of(path) in TEST_ROOMS or os.path.basename(path).startswith("test_")


def strip_c(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    return re.sub(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', '""', text)


def asm_names(path):
    """Names a NASM source uses in instructions or data (not where it defines them)."""
    names = set()
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.split(";", 1)[0]
            line = re.sub(r"^\s*[A-Za-z_.][\w.]*:", " ", line)
            if re.match(r"\s*(global|extern|%macro|%define|%assign)\b", line):
                continue
            names.update(TOKEN_RE.findall(line))
    return names


def relocation_users(objs, build):
    """{symbol: {source file}} from every relocation that code or data makes."""
    users = {}
    for o in objs:
        src = rooms.source_of(o, build)
        res = subprocess.run(["readelf", "-rW", o], capture_output=True, text=True, check=True)
        section = ""
        for line in res.stdout.splitlines():
            m = re.match(r"Relocation section '([^']+)'", line)
            if m:
                section = m.group(1)
                continue
            if section.startswith((".rela.debug", ".rel.debug", ".rela.eh_frame")):
                continue
            parts = line.split()
            if len(parts) >= 5 and re.fullmatch(r"[0-9a-f]{16}", parts[0]):
                users.setdefault(parts[4], set()).add(src)
        if src.endswith(".asm"):
            for name in asm_names(src):
                users.setdefault(name, set()).add(src)
    return users


def host_users():
    """{identifier: {host program source}} for the C sources of the host programs."""
    users = {}
    paths = []
    for top in HOST_PROGRAM_ROOMS:
        if os.path.isdir(top):
            paths += [os.path.join(top, n) for n in sorted(os.listdir(top))
                      if n.endswith((".c", ".h"))]
    for pattern in HOST_PROGRAM_FILES:
        top = os.path.dirname(pattern)
        if os.path.isdir(top):
            paths += [os.path.join(top, n) for n in sorted(os.listdir(top))
                      if fnmatch.fnmatch(n, os.path.basename(pattern))]
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            for t in set(TOKEN_RE.findall(strip_c(f.read()))):
                users.setdefault(t, set()).add(path)
    return users


def defined_globals(objs, build):
    """{symbol: (source, is_function)} for the global symbols the image's objects define."""
    out = {}
    for o in objs:
        src = rooms.source_of(o, build)
        res = subprocess.run(["nm", o], capture_output=True, text=True, check=True)
        for line in res.stdout.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in "TDRBCVW":
                out.setdefault(parts[2], (src, parts[1] in "TW"))
    return out


def matches(table, sym):
    return next((k for k in table if fnmatch.fnmatchcase(sym, k)), None)


def classify(defined, users):
    """[(symbol, source, what, detail)] for every symbol used only by tests or not at all."""
    out = []
    for sym, (src, is_fn) in sorted(defined.items(), key=lambda x: (x[1][0], x[0])):
        who = users.get(sym, set())
        if not who:
            out.append((sym, src, "unused", "defined, global, used nowhere in the image or "
                        "the host programs"))
            continue
        if is_test(src):
            continue
        outside = who - {src}
        if is_fn and all(is_test(u) for u in who):
            out.append((sym, src, "test-only", "called only by tests: " +
                        ", ".join(sorted(who))))
        elif not is_fn and outside and all(is_test(u) for u in outside):
            out.append((sym, src, "test-only", "used outside its file only by tests: " +
                        ", ".join(sorted(outside))))
    return out


def host_definitions(build):
    """{symbol: host program source} for the globals the host programs define."""
    out = {}
    with rooms.host_objects(build) as objs:
        for src, o in sorted(objs.items()):
            res = subprocess.run(["nm", o], capture_output=True, text=True, check=True)
            for line in res.stdout.splitlines():
                parts = line.split()
                if len(parts) == 3 and parts[1] in "TDRBCVW":
                    out.setdefault(parts[2], src)
    return out


def check_twice(build, image):
    """Names that an image object (@image: {symbol: (source, is_function)}) and a host
    program both define; the number found."""
    host = host_definitions(build)
    twice = sorted(s for s in host if s in image)
    for s in twice:
        print("symbols: %s is defined both in the image (%s) and in a host program (%s): "
              "rename the host program's" % (s, image[s][0], host[s]))
    print("symbols: %d globals of the host programs, %d also defined in the image" %
          (len(host), len(twice)))
    return len(twice)


def check_symbols(build):
    objs = rooms.image_objects(build)
    if not objs:
        print("symbols: no object files under %s/: build the image first" % build,
              file=sys.stderr)
        return 2
    defined = defined_globals(objs, build)
    users = relocation_users(objs, build)
    for sym, files in host_users().items():
        users.setdefault(sym, set()).update(files)
    bad = pending = 0
    used_keys = set()
    for sym, src, what, detail in classify(defined, users):
        key = matches(PENDING_REMOVAL, sym)
        table = TEST_API if what == "test-only" else UNUSED_OK
        ok = matches(table, sym)
        if key:
            used_keys.add(key)
            pending += 1
            print("symbols: %s in %s: %s: %s (pending: %s)" %
                  (sym, src, what, detail, PENDING_REMOVAL[key]))
        elif ok:
            used_keys.add(ok)
        else:
            bad += 1
            print("symbols: %s in %s: %s: %s; remove it, make it static, or list it with a "
                  "reason in tools/symbols.py %s" %
                  (sym, src, what, detail, "TEST_API" if what == "test-only" else "UNUSED_OK"))
    stale = [k for k in list(TEST_API) + list(UNUSED_OK) + list(PENDING_REMOVAL)
             if k not in used_keys]
    for k in stale:
        print("symbols: note: list entry '%s' matches nothing used only by tests or unused "
              "any more: remove it from tools/symbols.py" % k)
    bad += check_twice(build, defined)
    print("symbols: %d global symbols, %d pending, %d stale list entries, %d "
          "violation%s" % (len(defined), pending, len(stale), bad, "" if bad == 1 else "s"))
    return 1 if bad else 0
