#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Check that the source tree's folders are layers and every dependency points down.

Two checks, both run by `make check` (tools/check.py) and runnable by hand:

  tools/layers.py includes [--build build]
      Every file the compiler or NASM read for the image (the -MMD/-MD dependency files under
      build/) and every host program's source is scanned for its direct #include/%include
      lines; each edge must be allowed by ALLOWED below, and no two files may include each
      other through any chain. A violation names the file, the line and both rooms.

  tools/layers.py calls [--build build]
      From the image's object files (nm), which file defines each symbol another file uses:
      the file-level and room-level call graphs must have no cycle, and no call may point up.

Exit status: 0 clean, 1 violations found, 2 usage or missing build output.
"""
import argparse
import os
import re
import subprocess
import sys

# Rooms, lowest first. A file belongs to the longest prefix that matches its path.
ROOMS = [
    "kernel/include", "kernel/lib", "kernel/console", "kernel/arch", "kernel/platform",
    "kernel/mm", "copy", "mce", "bench", "tests", "kernel", "boot",
    "tests/lib", "tests/soak", "tests/oracle", "tests/host", "tests/fuzz", "tools",
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
    "tests": LOW + ["copy", "mce", "bench", "tests/lib", "tests/soak"],
    "tests/lib": ["kernel/include", "kernel/lib", "copy", "mce"],
    # The soak's pure core (patterns, plan, ledger), shared by the image and the hosted twin.
    "tests/soak": LOW + ["copy", "mce", "bench", "tests/lib"],
    # The oracles are independent of the code they check: they may include nothing of ours.
    "tests/oracle": [],
    "kernel": LOW + ["copy", "mce", "bench", "tests", "tests/lib", "tests/soak"],
    # boot/ is the only UEFI-aware room; it hands over through boot_info.h and uses pure
    # helpers of kernel/lib (the command-line text rules).
    "boot": ["kernel/include", "kernel/lib"],
    # Host programs test or drive the pure logic of any layer.
    "tests/host": LOW + ["copy", "mce", "bench", "tests/lib", "tests/soak", "tests/oracle",
                         "kernel"],
    "tests/fuzz": LOW + ["copy", "mce", "bench", "tests/lib", "tests/soak", "tests/oracle",
                         "kernel", "tests/host"],
    "tools": LOW + ["copy", "mce", "bench", "tests/soak", "kernel"],
}

INCLUDE_RE = re.compile(r'^\s*[#%]\s*include\s+"([^"]+)"')


def room_of(path):
    best = None
    for r in ROOMS:
        if (path == r or path.startswith(r + "/")) and (best is None or len(r) > len(best)):
            best = r
    return best


def dep_files(build):
    """Every project file named in a dependency file under @build."""
    files = set()
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
                        os.path.normpath(word).startswith(os.path.normpath(build) + os.sep):
                    continue
                if word.endswith((".c", ".h", ".asm", ".inc")):
                    files.add(os.path.normpath(word))
    return files


def host_files():
    """Host programs and everything they include, followed by hand (they have no .d files)."""
    todo = []
    for top in ("tests/host", "tests/fuzz", "tests/oracle", "tools"):
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


def check_includes(build):
    files = dep_files(build) | host_files()
    if not any(f.startswith("kernel/") for f in files):
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
    for comp in find_cycles(graph):
        print("layers: include cycle between files: " + " -> ".join(comp))
        bad += 1
    print("layers: %d files, %d include edges checked, %d violation%s" %
          (len(files), edges, bad, "" if bad == 1 else "s"))
    return 1 if bad else 0


def image_objects(build):
    objs = []
    for top, _dirs, names in os.walk(build):
        if os.path.relpath(top, build).split(os.sep)[0] in ("host", "fuzz"):
            continue
        for n in names:
            if n.endswith(".o") and not n.startswith("ksyms") and \
                    os.path.exists(source_of(os.path.join(top, n), build)):
                objs.append(os.path.join(top, n))
    return sorted(objs)


def source_of(obj, build):
    rel = os.path.relpath(obj, build)
    if rel.endswith(".asm.o"):
        return rel[:-2]
    return rel[:-2] + ".c"


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


def check_calls(build):
    objs = image_objects(build)
    if not objs:
        print("layers: no object files under %s/: build the image first" % build,
              file=sys.stderr)
        return 2
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
    files, rooms = {}, {}
    bad = 0
    for src, syms in used.items():
        for s in syms:
            dst = defined.get(s)
            if dst is None or dst == src:
                continue
            files.setdefault(src, set()).add(dst)
            rs, rd = room_of(src), room_of(dst)
            if rs != rd:
                rooms.setdefault(rs, set()).add(rd)
                if rs != "boot" and rd not in ALLOWED.get(rs, []):
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
    ap.add_argument("what", choices=["includes", "calls"])
    ap.add_argument("--build", default="build")
    a = ap.parse_args()
    if a.what == "includes":
        return check_includes(a.build)
    return check_calls(a.build)


if __name__ == "__main__":
    sys.exit(main())
