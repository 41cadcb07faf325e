#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Check that the source tree's folders are layers and every dependency points down.

Four checks, all run by `make check` (tools/check.py) and runnable by hand, over the rooms
and the rules of tools/rooms.py (the Layout table of docs/design/architecture.md):

  tools/layers.py includes [--build build]
      Every source file under the rooms' folders, every file the compiler or NASM read for
      the image (the -MMD/-MD dependency files under build/) and everything the host
      programs include is scanned for its direct #include/%include lines; each edge must be
      allowed by ALLOWED, and no two files may include each other through any chain.
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
      tools/symbols.py: production symbols that only tests use, symbols nothing uses, and
      names defined both in the image and in a host program (host/).

  tools/layers.py units [--build build]
      tools/units.py: no two files (a source with its header) include, call or import each
      other through any chain, in the image, the host programs and the Python tools.

Exit status: 0 clean, 1 violations found, 2 usage or missing build output.
"""
import argparse
import functools
import os
import re
import sys

import symbols
import units
from rooms import (ALLOWED, HOST_ROOMS, SOURCE_EXT, find_cycles, image_objects, includes_of,
                   nm_symbols, room_of, tree_files)

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

ANGLE_RE = re.compile(r'^\s*#\s*include\s*<([^>]+)>')
COND_RE = re.compile(r'^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)')


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
            print("layers: %s: not in any room (add it to tools/rooms.py)" % f)
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


@functools.lru_cache(maxsize=None)
def linker_symbols(script="linker.ld"):
    """Symbols the linker script assigns (NAME = ...;)."""
    if not os.path.exists(script):
        return set()
    with open(script, encoding="utf-8", errors="replace") as f:
        text = re.sub(r"/\*.*?\*/", " ", f.read(), flags=re.S)
    return set(re.findall(r"(?:^|[;{\s])(?:PROVIDE\s*\(\s*)?([A-Za-z_]\w*)\s*=[^=]", text))


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


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["includes", "calls", "symbols", "units"])
    ap.add_argument("--build", default="build")
    a = ap.parse_args()
    if a.what == "includes":
        return check_includes(a.build)
    if a.what == "symbols":
        return symbols.check_symbols(a.build)
    if a.what == "units":
        return units.check_units(a.build)
    return check_calls(a.build)


if __name__ == "__main__":
    sys.exit(main())
