#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""rooms.py - the layer table and how the checks read the tree and the build, for
tools/layers.py (includes, calls) and the checks it runs from tools/symbols.py and
tools/units.py:

  * ROOMS, lowest first, and ALLOWED, the rooms each may use: the Layout table of
    docs/design/architecture.md, enforced; room_of() names a file's room;
  * the tree's source files and the quoted includes of each;
  * the image's objects under the build folder and their symbols (nm);
  * the host programs' objects (host/): the Makefile links each program from its sources
    in one step, so host_objects() compiles them apart, for the checks alone;
  * find_cycles(): the strongly connected parts of a graph.

A module of definitions, no command of its own.
"""
import contextlib
import os
import re
import shutil
import subprocess
import tempfile

# Rooms, lowest first. A file belongs to the longest prefix that matches its path.
ROOMS = [
    "kernel/include", "kernel/lib", "kernel/console", "kernel/arch", "kernel/platform",
    "kernel/mm", "copy", "mce", "bench", "soak", "cores", "ktest/oracle", "ktest/lib", "init",
    "ktest", "boot", "tests/host", "tests/fuzz", "host", "host/lib", "host/bench", "host/soak",
    "host/cores", "host/inject", "host/decode", "tools",
]

LOW = ["kernel/include", "kernel/lib", "kernel/console", "kernel/arch", "kernel/platform",
       "kernel/mm"]

# Which rooms each room may include from (itself always).
ALLOWED = {
    "kernel/include": [],
    "kernel/lib": LOW[:1],
    "kernel/console": LOW[:2],
    "kernel/arch": LOW[:3],
    "kernel/platform": LOW[:4],
    "kernel/mm": LOW[:5],
    # copy/ knows nothing of the console, the CPU's setup or the run: only the format of
    # the exception table (include), string helpers (lib) and the page frames (mm).
    "copy": ["kernel/include", "kernel/lib", "kernel/mm"],
    "mce": LOW,
    "bench": LOW + ["copy"],
    # The soak and its black box: the pure core (shared by the image and the hosted twin) and
    # the engine that runs it on every CPU.
    "soak": LOW + ["copy", "mce"],
    # The cores suite's kernels (each beside its known answer by another method) and its
    # vote: plain C and NASM the host tests run too; the suite itself is ktest/test_cores.c.
    "cores": LOW + ["copy"],
    # The oracles are independent of the code they check: they may include nothing of ours.
    "ktest/oracle": [],
    # The in-image test framework (KTAP, crash kinds, the case context) and the sweeps and
    # vectors that host tests share.
    "ktest/lib": LOW + ["copy", "mce", "cores", "ktest/oracle"],
    # The run, as Linux's init/: it runs the registered suites through ktest/lib, never a suite.
    "init": LOW + ["copy", "mce", "bench", "soak", "cores", "ktest/lib"],
    # The in-image suites, registered in the ck_suites section: the top, since some test the
    # run's own parts (the command line, the results store).
    "ktest": LOW + ["copy", "mce", "bench", "soak", "cores", "ktest/oracle", "ktest/lib",
                    "init"],
    # boot/ is the only UEFI-aware room; it hands over through boot_info.h and uses pure
    # helpers of kernel/lib (the command-line text rules).
    "boot": ["kernel/include", "kernel/lib"],
    # Host programs test or drive the pure logic of any layer (the hosted tools' too).
    "tests/host": LOW + ["copy", "mce", "bench", "soak", "cores", "ktest/oracle", "ktest/lib",
                         "init", "host/lib", "host/bench", "host/soak", "host/cores",
                         "host/inject", "host/decode"],
    "tests/fuzz": LOW + ["copy", "mce", "bench", "soak", "cores", "ktest/oracle", "ktest/lib",
                         "init", "tests/host"],
    # The hosted programs: what the hosted benchmark and soak twin share (the Linux machine),
    # then each of them, then the small programs at host/ itself.
    "host/lib": LOW + ["copy", "cores", "init"],
    "host/bench": LOW + ["copy", "bench", "host/lib"],
    "host/soak": LOW + ["copy", "mce", "bench", "soak", "host/lib"],
    # The hosted twin of the cores suite (ck-cores): cores/'s kernels and vote on pinned
    # threads, bench/'s statistics for the rates.
    "host/cores": LOW + ["copy", "bench", "cores"],
    # The host injector (DRAM faults in a QEMU guest's RAM file): the C library alone.
    "host/inject": [],
    # The offline decoder of DRAM errors (ck-decode): mce/'s pure decoder and labels parser.
    "host/decode": LOW + ["mce"],
    "host": LOW + ["copy", "mce", "bench", "soak", "cores", "init"],
    "tools": [],
}

# Rooms built only for Linux processes (host tests, fuzzers, oracles, hosted programs): the C
# library is theirs. Every other room is built into the image, where no C library exists
# (ktest/oracle: the models of Linux, plain C; linux_folio_mc.c is also linked into the image).
HOST_ROOMS = ["tests/host", "tests/fuzz", "ktest/oracle", "host", "host/lib", "host/bench",
              "host/soak", "host/cores", "host/inject", "host/decode", "tools"]

INCLUDE_RE = re.compile(r'^\s*[#%]\s*include\s+"([^"]+)"')
SOURCE_EXT = (".c", ".h", ".asm", ".inc")


def room_of(path):
    best = None
    for r in ROOMS:
        if (path == r or path.startswith(r + "/")) and (best is None or len(r) > len(best)):
            best = r
    return best


def tree_files():
    """Every source file under the rooms' top folders (build output and dot folders aside)."""
    out = set()
    for top in sorted({r.split("/")[0] for r in ROOMS}):
        for d, dirs, names in os.walk(top):
            dirs[:] = sorted(x for x in dirs if not x.startswith("."))
            out.update(os.path.normpath(os.path.join(d, n)) for n in names
                       if n.endswith(SOURCE_EXT))
    return out


def includes_of(path):
    out = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for i, line in enumerate(f, 1):
            m = INCLUDE_RE.match(line)
            if m:
                out.append((i, os.path.normpath(m.group(1))))
    return out


def image_objects(build, generated=False):
    """The image's objects whose source is in the tree, or (@generated) those made from
    build output (the symbol table, build/ksyms.asm)."""
    objs = []
    for top, _dirs, names in os.walk(build):
        if os.path.relpath(top, build).split(os.sep)[0] in ("host", "fuzz"):
            continue
        for n in names:
            if n.endswith(".o") and \
                    os.path.exists(source_of(os.path.join(top, n), build)) != generated:
                objs.append(os.path.join(top, n))
    return sorted(objs)


def source_of(obj, build):
    rel = os.path.relpath(obj, build)
    if rel.endswith(".asm.o"):
        return rel[:-2]
    return rel[:-2] + ".c"


def nm_symbols(objs, build):
    """{symbol: defining source} and {source: symbols it uses}, from nm."""
    return nm_of((source_of(o, build), o) for o in objs)


def nm_of(pairs):
    """nm_symbols() for (source, object) pairs (one nm for all of them)."""
    defined, used = {}, {}
    src_of = {o: src for src, o in pairs}
    if not src_of:
        return defined, used
    res = subprocess.run(["nm", "-A"] + sorted(src_of), capture_output=True, text=True,
                         check=True)
    for line in res.stdout.splitlines():
        obj, _, rest = line.partition(":")
        src, parts = src_of[obj], rest.split()
        if len(parts) == 3 and parts[1] in "TDRBCVW" and parts[1].isupper():
            defined.setdefault(parts[2], src)
        elif len(parts) == 2 and parts[0] == "U":
            used.setdefault(src, set()).add(parts[1])
    return defined, used


def find_cycles(graph):
    """Strongly connected components of more than one node (Tarjan, iterative)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            node, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                elif nxt in on:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def host_sources():
    """The C sources of the host programs: every .c under host/."""
    return sorted(p for p in tree_files() if p.startswith("host/") and p.endswith(".c"))


@contextlib.contextmanager
def host_objects(build):
    """{source: object} for every host program source, compiled as the Makefile builds the
    programs (-DCK_HOST, -I. and the build's generated headers) but unoptimized and into a
    scratch folder, removed when the caller is done."""
    tmp = tempfile.mkdtemp(prefix="ck-host-objects-")
    try:
        out = {}
        for src in host_sources():
            obj = os.path.join(tmp, src.replace("/", "__") + ".o")
            subprocess.run(["gcc", "-std=gnu11", "-O0", "-w", "-DCK_HOST", "-pthread", "-I.",
                            "-I" + os.path.join(build, "gen"), "-c", src, "-o", obj],
                           check=True)
            out[src] = obj
        yield out
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
