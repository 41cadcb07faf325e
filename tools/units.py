# SPDX-License-Identifier: GPL-2.0-only
"""units.py - `tools/layers.py units`: no two files of the tree include, call or import each
other, through any chain.

A unit is a file as a reader sees it: a source with its header and its NASM include
(bench/table.c with bench/table.h, copy/verify.asm with copy/verify.h and copy/verify.inc);
a header without a source of its own is a unit by itself, and so is a generated file
(build/gen/kernel/include/asm-consts.inc), apart from the generator it is made from. A Python
module is a unit. Unit X uses unit Y when:
  * a file of X includes a file of Y (#include/%include "..."), in every room, host tests
    and fuzzers too; a header's static inline function is no symbol of its object, so an
    include of it is the only trace of the use;
  * an object of X uses a global symbol that an object of Y defines: the image's objects
    (nm), and the host programs' (host/, compiled for the check by tools/rooms.py);
  * a Python file of tools/ or tests/ imports a module of the tree (import, from ... import,
    and a tool loaded by its file name: load_tool("ck-results"), spec_from_file_location with
    a literal "ktap-check.py").
Every strongly connected set of more than one unit fails, with each use inside it and what
makes it (the names called, the headers included, the modules imported). Where a low file
must reach up it offers a registration point (a callback it is given) instead, and a type two
files share lives in a header that owns it. tools/layers.py calls sees calls between the
image's objects alone: paging.c that used apic.h's inline apic_base_addr() while apic.c
calls pg_map() was no cycle there.

PENDING lists a cycle that work in flight breaks (by its units, joined with " <-> "):
reported, never failed; an entry that matches no cycle any more is reported too.
"""
import ast
import os
import sys

import rooms

PENDING = {}

PY_TOPS = ("tools", "tests")
# Where a Python file of the tree finds a bare `import NAME` besides its own folder: the
# folders the tools and the tests put on sys.path.
PY_PATH = ("tools", "tests/qemu", "tests/tools")
# Calls that load a Python file by its name (a tool's name holds '-': no import can).
PY_LOADERS = ("load_tool", "spec_from_file_location")


def unit_of(path, files):
    """The unit of @path: its name without the extension, for a file of the tree (@files);
    a file that is not there (generated) is a unit of its own."""
    if path not in files:
        return path
    return os.path.splitext(path)[0]


class Graph:
    def __init__(self):
        self.edges = {}         # unit -> {unit}
        self.why = {}           # (unit, unit) -> {"includes": set(), "calls": set(), ...}

    def add(self, a, b, kind, what):
        if a == b:
            return
        self.edges.setdefault(a, set()).add(b)
        self.why.setdefault((a, b), {}).setdefault(kind, set()).add(what)

    def reason(self, a, b):
        parts = []
        for kind, what in sorted(self.why[(a, b)].items()):
            names = sorted(what)
            more = "" if len(names) <= 4 else " and %d more" % (len(names) - 4)
            parts.append("%s %s%s" % (kind, ", ".join(names[:4]), more))
        return "; ".join(parts)


def add_includes(g, files):
    for f in sorted(files):
        if not f.endswith(rooms.SOURCE_EXT):
            continue
        for line, inc in rooms.includes_of(f):
            g.add(unit_of(f, files), unit_of(inc, files), "includes",
                  "%s (%s:%d)" % (inc, f, line))


def add_calls(g, files, defined, used):
    for src, syms in used.items():
        for s in syms:
            if s in defined:
                g.add(unit_of(src, files), unit_of(defined[s], files), "calls", s)


def py_files():
    out = []
    for top in PY_TOPS:
        for d, dirs, names in os.walk(top):
            dirs[:] = sorted(x for x in dirs if not x.startswith((".", "__")) and x != "data")
            out += [os.path.join(d, n) for n in sorted(names) if n.endswith(".py")]
    return out


def py_module(name, here, files):
    """The file of the tree that `import NAME` from folder @here finds, or None."""
    parts = name.split(".")
    for d in (here,) + PY_PATH:
        base = os.path.join(d, *parts)
        for cand in (base + ".py", os.path.join(base, "__init__.py")):
            if os.path.normpath(cand) in files:
                return os.path.normpath(cand)
    return None


def py_imports(path, files):
    """[(line, file of the tree it imports)] for @path."""
    with open(path, encoding="utf-8", errors="replace") as f:
        tree = ast.parse(f.read(), path)
    here, out = os.path.dirname(path), []
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                pkg = here
                for _ in range(node.level - 1):
                    pkg = os.path.dirname(pkg)
                base = ".".join(filter(None, [os.path.relpath(pkg, here).replace(
                    os.sep, ".").strip("."), base]))
            # `from pkg import mod` names a module when pkg/mod.py is one, else pkg itself.
            names = [base + "." + a.name if py_module(base + "." + a.name, here, files)
                     else base for a in node.names]
        elif isinstance(node, ast.Call):
            fn = node.func
            called = fn.attr if isinstance(fn, ast.Attribute) else getattr(fn, "id", "")
            if called in PY_LOADERS:
                for arg in ast.walk(node):
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                        name = arg.value[:-3] if arg.value.endswith(".py") else arg.value
                        if "/" not in name and py_module(name, here, files):
                            names.append(name)
        for name in names:
            target = py_module(name, here, files)
            if target and target != path:
                out.append((node.lineno, target))
    return out


def add_imports(g):
    files = set(py_files())
    for f in sorted(files):
        for line, target in py_imports(f, files):
            g.add(unit_of(f, files), unit_of(target, files), "imports",
                  "%s (%s:%d)" % (target, f, line))


def build_graph(build, host_objs):
    files = rooms.tree_files()
    g = Graph()
    add_includes(g, files)
    defined, used = rooms.nm_symbols(rooms.image_objects(build), build)
    add_calls(g, files, defined, used)
    defined, used = rooms.nm_of(host_objs.items())
    add_calls(g, files, defined, used)
    add_imports(g)
    return g


def check_units(build):
    if not rooms.image_objects(build):
        print("units: no object files under %s/: build the image first" % build,
              file=sys.stderr)
        return 2
    with rooms.host_objects(build) as host_objs:
        g = build_graph(build, host_objs)
    bad = pending = 0
    seen = set()
    for comp in rooms.find_cycles(g.edges):
        key = " <-> ".join(comp)
        late = PENDING.get(key)
        seen.add(key)
        if late:
            pending += 1
        else:
            bad += 1
        print("units: %s between %d files: %s%s" % (
            "pending cycle" if late else "cycle", len(comp), ", ".join(comp),
            " (pending: %s)" % late if late else ""))
        inside = set(comp)
        for a in comp:
            for b in sorted(g.edges.get(a, ()) & inside):
                print("units:   %s -> %s: %s" % (a, b, g.reason(a, b)))
    stale = [k for k in PENDING if k not in seen]
    for k in stale:
        print("units: note: PENDING entry '%s' matches no cycle any more: remove it from "
              "tools/units.py" % k)
    nedges = sum(len(v) for v in g.edges.values())
    print("units: %d units, %d uses between them, %d pending, %d cycle%s" % (
        len(set(g.edges) | {b for v in g.edges.values() for b in v}), nedges, pending, bad,
        "" if bad == 1 else "s"))
    return 1 if bad else 0
