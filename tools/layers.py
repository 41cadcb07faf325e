#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Check that the source tree's folders are layers and every dependency points down.

Three checks, all run by `make check` (tools/check.py) and runnable by hand:

  tools/layers.py includes [--build build]
      Every source file under the rooms' folders, every file the compiler or NASM read for
      the image (the -MMD/-MD dependency files under build/) and everything the host
      programs include is scanned for its direct #include/%include lines; each edge must be
      allowed by ALLOWED below, and no two files may include each other through any chain.
      Angle brackets name what comes from outside the tree: a file built into the image may
      take only the headers of FREESTANDING (the C library only inside a CK_HOST branch),
      boot/ GNU-EFI's too (BOOT_HEADERS); host programs may take the C library.
      A violation names the file, the line and both rooms.

  tools/layers.py calls [--build build]
      From the image's object files (nm), which file defines each symbol another file uses:
      the file-level and room-level call graphs must have no cycle, and no call may point up.
      boot/ is held to the rooms it may include from plus BOOT_CALLS; only boot/ may use the
      firmware libraries (BOOT_FIRMWARE), everyone the symbols the linker script defines and
      the C functions the compiler calls by itself (COMPILER_CALLS).

  tools/layers.py symbols [--build build]
      tools/symbols.py: production symbols that only tests use, and symbols nothing uses.

Exit status: 0 clean, 1 violations found, 2 usage or missing build output.
"""
import argparse
import functools
import os
import re
import subprocess
import sys

# Rooms, lowest first. A file belongs to the longest prefix that matches its path.
ROOMS = [
    "kernel/include", "kernel/lib", "kernel/console", "kernel/arch", "kernel/platform",
    "kernel/mm", "copy", "mce", "bench", "soak", "ktest/oracle", "ktest/lib", "init", "ktest",
    "boot", "tests/host", "tests/fuzz", "host", "host/lib", "host/bench", "host/soak",
    "host/inject", "tools",
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
    # The oracles are independent of the code they check: they may include nothing of ours.
    "ktest/oracle": [],
    # The in-image test framework (KTAP, crash kinds, the case context) and the sweeps and
    # vectors that host tests share.
    "ktest/lib": LOW + ["copy", "mce", "ktest/oracle"],
    # The run, as Linux's init/: it runs the registered suites through ktest/lib, never a suite.
    "init": LOW + ["copy", "mce", "bench", "soak", "ktest/lib"],
    # The in-image suites, registered in the ck_suites section: the top, since some test the
    # run's own parts (the command line, the results store).
    "ktest": LOW + ["copy", "mce", "bench", "soak", "ktest/oracle", "ktest/lib", "init"],
    # boot/ is the only UEFI-aware room; it hands over through boot_info.h and uses pure
    # helpers of kernel/lib (the command-line text rules).
    "boot": ["kernel/include", "kernel/lib"],
    # Host programs test or drive the pure logic of any layer (the hosted tools' too).
    "tests/host": LOW + ["copy", "mce", "bench", "soak", "ktest/oracle", "ktest/lib", "init",
                         "host/lib", "host/bench", "host/soak", "host/inject"],
    "tests/fuzz": LOW + ["copy", "mce", "bench", "soak", "ktest/oracle", "ktest/lib", "init",
                         "tests/host"],
    # The hosted programs: what the hosted benchmark and soak twin share (the Linux machine),
    # then each of them, then the small programs at host/ itself.
    "host/lib": LOW + ["copy", "init"],
    "host/bench": LOW + ["copy", "bench", "host/lib"],
    "host/soak": LOW + ["copy", "mce", "bench", "soak", "host/lib"],
    "host": LOW + ["copy", "mce", "bench", "soak", "init"],
    # The host injector (DRAM faults in a QEMU guest's RAM file): the C library alone.
    "host/inject": [],
    "tools": [],
}

# Rooms built only for Linux processes (host tests, fuzzers, oracles, hosted programs): the C
# library is theirs. Every other room is built into the image, where no C library exists
# (ktest/oracle: the models of Linux, plain C; linux_folio_mc.c is also linked into the image).
HOST_ROOMS = ["tests/host", "tests/fuzz", "ktest/oracle", "host", "host/lib", "host/bench",
              "host/soak", "host/inject", "tools"]
# Headers the compiler itself provides (C11 freestanding): the only angle-bracket includes
# of a file built into the image, outside a CK_HOST branch.
FREESTANDING = ["stdarg.h", "stdbool.h", "stddef.h", "stdint.h"]
# GNU-EFI's headers (-I/usr/include/efi): boot/ only.
BOOT_HEADERS = ["efi.h", "efilib.h"]

# What boot/ may call in rooms it may not include from: the hand-over alone.
BOOT_CALLS = {
    "kernel_start": "the hand-over: init/head.asm moves to the kernel's stack, calls "
                    "kernel_main",
}
# The firmware libraries (libefi, libgnuefi) boot/ uses; nobody else may.
BOOT_FIRMWARE = ["BS", "ST", "InitializeLib", "Print", "CompareGuid", "CompareMem", "SetMem",
                 "LibOpenRoot", "gEfiLoadedImageProtocolGuid"]
# What every room may take from outside its objects: the calls the compiler emits by itself
# (libefi defines them; kernel/lib/string.c says why it does not) and the GOT.
COMPILER_CALLS = ["memcpy", "memset", "_GLOBAL_OFFSET_TABLE_"]

INCLUDE_RE = re.compile(r'^\s*[#%]\s*include\s+"([^"]+)"')
ANGLE_RE = re.compile(r'^\s*#\s*include\s*<([^>]+)>')
COND_RE = re.compile(r'^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)')
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


def dep_files(build):
    """Every project file named in a dependency file under @build."""
    files = set()
    out = os.path.relpath(os.path.abspath(build)) + os.sep
    for top, _dirs, names in os.walk(build):
        for n in names:
            if not n.endswith(".d"):
                continue
            with open(os.path.join(top, n), encoding="utf-8", errors="replace") as f:
                text = f.read().replace("\\\n", " ")
            for word in text.split():
                word = word.rstrip(":")
                # Generated files (build/gen/...) stand for their generator source, which
                # its own dependency file lists; an include of one names the source's room.
                if word.startswith("/") or not os.path.isfile(word) or \
                        os.path.normpath(word).startswith(out):
                    continue
                if word.endswith(SOURCE_EXT):
                    files.add(os.path.normpath(word))
    return files


def host_files():
    """Host programs and everything they include, followed by hand (they have no .d files)."""
    todo = []
    for top in HOST_ROOMS:
        if os.path.isdir(top):
            for n in sorted(os.listdir(top)):
                if n.endswith((".c", ".h")):
                    todo.append(os.path.join(top, n))
    seen = set()
    while todo:
        f = todo.pop()
        if f in seen or not os.path.isfile(f):
            continue
        seen.add(f)
        for _line, inc in includes_of(f):
            todo.append(inc)
    return seen


def includes_of(path):
    out = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for i, line in enumerate(f, 1):
            m = INCLUDE_RE.match(line)
            if m:
                out.append((i, os.path.normpath(m.group(1))))
    return out


def host_branch(kind, cond):
    """True/False when a conditional opens a branch built only on / never on the host."""
    name = re.sub(r"\s|defined|\(|\)", "", cond)
    host = {"CK_HOST": True, "CK_KERNEL": False}.get(name.lstrip("!"))
    if host is None or kind not in ("ifdef", "ifndef", "if"):
        return None
    return host != (kind == "ifndef" or name.startswith("!"))


def angle_includes_of(path):
    """(line, header, host_only) for each #include <...>; host_only inside a CK_HOST branch."""
    out, stack = [], []
    with open(path, encoding="utf-8", errors="replace") as f:
        for i, line in enumerate(f, 1):
            m = COND_RE.match(line)
            if m:
                kind = m.group(1)
                if kind in ("if", "ifdef", "ifndef"):
                    stack.append(host_branch(kind, m.group(2)))
                elif kind == "endif" and stack:
                    stack.pop()
                elif stack and stack[-1] is not None:
                    # #else flips a CK_HOST/CK_KERNEL branch; an #elif ends what we know.
                    stack[-1] = (not stack[-1]) if kind == "else" else None
                continue
            m = ANGLE_RE.match(line)
            if m:
                out.append((i, m.group(1).strip(), True in stack))
    return out


def angle_violation(f, room, header, host_only):
    """Why @f (in @room) may not include <@header>, or None when it may."""
    if room in HOST_ROOMS or header in FREESTANDING or host_only:
        return None
    if room == "boot":
        if header in BOOT_HEADERS:
            return None
        return "boot/ takes from outside the tree only %s" % ", ".join(
            FREESTANDING + BOOT_HEADERS)
    if header in BOOT_HEADERS or header.split("/")[0] == "efi":
        return "GNU-EFI's headers are boot/'s alone (the only UEFI room)"
    return ("there is no C library in the image: only the freestanding headers (%s), or the "
            "C library inside an #ifdef CK_HOST branch" % ", ".join(FREESTANDING))


def check_includes(build):
    deps = dep_files(build)
    files = deps | host_files() | tree_files()
    if not any(f.startswith("kernel/") for f in deps):
        print("layers: no dependency files under %s/: build the image first" % build,
              file=sys.stderr)
        return 2
    bad = 0
    edges = 0
    graph = {}
    for f in sorted(files):
        src = room_of(f)
        if src is None:
            print("layers: %s: not in any room (add it to tools/layers.py)" % f)
            bad += 1
            continue
        for line, inc in includes_of(f):
            dst = room_of(inc)
            edges += 1
            graph.setdefault(f, set()).add(inc)
            if dst is None:
                print("layers: %s:%d: includes %s, which is in no room" % (f, line, inc))
                bad += 1
            elif dst != src and dst not in ALLOWED[src]:
                print("layers: %s:%d: %s (%s) may not include %s (%s): dependencies point "
                      "down only (allowed from %s: %s)" % (f, line, f, src, inc, dst, src,
                                                          ", ".join(ALLOWED[src]) or "nothing"))
                bad += 1
        for line, header, host_only in angle_includes_of(f):
            edges += 1
            why = angle_violation(f, src, header, host_only)
            if why:
                print("layers: %s:%d: %s (%s) may not include <%s>: %s" %
                      (f, line, f, src, header, why))
                bad += 1
    for comp in find_cycles(graph):
        print("layers: include cycle between files: " + " -> ".join(comp))
        bad += 1
    print("layers: %d files, %d include edges checked, %d violation%s" %
          (len(files), edges, bad, "" if bad == 1 else "s"))
    return 1 if bad else 0


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


@functools.lru_cache(maxsize=None)
def linker_symbols(script="linker.ld"):
    """Symbols the linker script assigns (NAME = ...;)."""
    if not os.path.exists(script):
        return set()
    with open(script, encoding="utf-8", errors="replace") as f:
        text = re.sub(r"/\*.*?\*/", " ", f.read(), flags=re.S)
    return set(re.findall(r"(?:^|[;{\s])(?:PROVIDE\s*\(\s*)?([A-Za-z_]\w*)\s*=[^=]", text))


def nm_symbols(objs, build):
    """{symbol: defining source} and {source: symbols it uses}, from nm."""
    defined, used = {}, {}
    for o in objs:
        src = source_of(o, build)
        res = subprocess.run(["nm", o], capture_output=True, text=True, check=True)
        for line in res.stdout.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in "TDRBCVW" and parts[1].isupper():
                defined.setdefault(parts[2], src)
            elif len(parts) == 2 and parts[0] == "U":
                used.setdefault(src, set()).add(parts[1])
    return defined, used


def outside_call_violation(src, sym, made):
    """Why @src may not use @sym, which no object of the tree defines; None if it may."""
    if sym in made or sym in COMPILER_CALLS or (room_of(src) == "boot" and sym in BOOT_FIRMWARE):
        return None
    if re.match(r"__(start|stop)_[A-Za-z_]\w*$", sym) or sym in linker_symbols():
        return None
    if room_of(src) == "boot":
        return "not a firmware-library call boot/ is allowed (BOOT_FIRMWARE)"
    return "no object of the image defines it, and only boot/ may use the firmware libraries"


def check_calls(build):
    objs = image_objects(build)
    if not objs:
        print("layers: no object files under %s/: build the image first" % build,
              file=sys.stderr)
        return 2
    defined, used = nm_symbols(objs, build)
    made = nm_symbols(image_objects(build, generated=True), build)[0]
    files, rooms = {}, {}
    bad = 0
    for src, syms in sorted(used.items()):
        for s in sorted(syms):
            dst = defined.get(s)
            if dst is None:
                why = outside_call_violation(src, s, made)
                if why:
                    print("layers: %s uses %s: %s" % (src, s, why))
                    bad += 1
                continue
            if dst == src:
                continue
            files.setdefault(src, set()).add(dst)
            rs, rd = room_of(src), room_of(dst)
            if rs != rd:
                rooms.setdefault(rs, set()).add(rd)
                if rd not in ALLOWED.get(rs, []) and not (rs == "boot" and s in BOOT_CALLS):
                    print("layers: %s calls %s in %s (%s may not reach %s)" %
                          (src, s, dst, rs, rd))
                    bad += 1
    for comp in find_cycles(files):
        print("layers: call cycle between files: " + " -> ".join(comp))
        bad += 1
    for comp in find_cycles(rooms):
        print("layers: call cycle between rooms: " + " -> ".join(comp))
        bad += 1
    nedges = sum(len(v) for v in files.values())
    print("layers: %d objects, %d file-to-file call edges, %d violation%s" %
          (len(objs), nedges, bad, "" if bad == 1 else "s"))
    return 1 if bad else 0


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


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["includes", "calls", "symbols"])
    ap.add_argument("--build", default="build")
    a = ap.parse_args()
    if a.what == "includes":
        return check_includes(a.build)
    if a.what == "symbols":
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import symbols
        return symbols.check_symbols(a.build)
    return check_calls(a.build)


if __name__ == "__main__":
    sys.exit(main())
