#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""path-check.py - every path of this repository that a comment or a document names exists.

Usage: tools/path-check.py [--root DIR]

Read: the comments of the sources (C, headers and the linker script: /* */ and //; NASM: ;
to the line's end; Python: # comments and triple-quoted strings; shell, make and YAML: #
comments) and the whole text of README.md and of every Markdown file under docs/.

A repository path is a word that starts with one of the repository's own top-level folders
(as the tree has them now, build/ aside: that is output) followed by "/part"s, and that looks
like a path: the last part has an extension, or it ends in '/', holds a '*' or is two levels
deep (kernel/arch/traps.h, tests/qemu/, copy/*.asm; not "copy/clear" in
prose). It must name a file or folder that exists, with these readings:
  * a '*' is a wildcard, a trailing '_' or an upper-case part (test_*.c, corpus_, NAME.py)
    stands for a family of names: at least one must exist;
  * X.inc also exists when X.c does: make generates it into build/gen/;
  * FOREIGN lists the prefixes that name another project's tree (Linux's tools/ folder).
Output: "path-check: FILE:LINE: names PATH, which does not exist" per miss, then a summary.
Exit status: 0 all found, 1 a path is missing, 2 usage error.
"""
import glob
import io
import os
import re
import sys
import tokenize

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cklib import common  # noqa: E402

# Paths inside another project's tree that share a top folder's name with ours.
FOREIGN = {
    "tools/testing/": "Linux's kselftest and kunit tools",
    "tools/perf/": "Linux's perf",
}
SKIP_DIRS = {"build", "data", "__pycache__"}
C_LIKE = (".c", ".h", ".ld")
HASH_LIKE = (".sh", ".yaml", ".yml", ".jinja2", ".cmdline")


def c_comments(text):
    """(line, text) of each /* */ and // comment, strings and characters skipped."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j
            out.append((text.count("\n", 0, i) + 1, text[i:j]))
            i = j + 2
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append((text.count("\n", 0, i) + 1, text[i:j]))
            i = j
        else:
            i += 1
    return out


def line_comments(text, mark):
    """(line, text) from @mark to the end of each line (@mark at a word's start)."""
    out = []
    for no, line in enumerate(text.split("\n"), 1):
        m = re.search(r"(?:^|\s)%s(.*)" % re.escape(mark), line)
        if m:
            out.append((no, m.group(1)))
    return out


def py_comments(text):
    out = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            triple = re.match(r"[rRbBuU]*('''|\"\"\")", tok.string)
            if tok.type == tokenize.COMMENT or (tok.type == tokenize.STRING and triple):
                out.append((tok.start[0], tok.string))
    except (tokenize.TokenError, SyntaxError):
        out = line_comments(text, "#")
    return out


def comments_of(path, text):
    name = os.path.basename(path)
    if name.endswith(".md"):
        return [(1, text)]
    if name.endswith(C_LIKE):
        return c_comments(text)
    if name.endswith((".asm", ".inc")):
        return line_comments(text, ";")
    if name.endswith(".py"):
        return py_comments(text)
    if name.endswith(HASH_LIKE) or name == "Makefile":
        return line_comments(text, "#")
    return []


def files_to_read(root):
    out = []
    for top, dirs, names in os.walk(root):
        rel = os.path.relpath(top, root)
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIP_DIRS and
                         not d.startswith("corpus_"))
        for n in sorted(names):
            path = os.path.normpath(os.path.join(rel, n))
            if n.endswith(".md") and path != "README.md" and not path.startswith("docs/"):
                continue
            if n.endswith(C_LIKE + HASH_LIKE + (".asm", ".inc", ".py", ".md")) or \
                    n == "Makefile":
                out.append(path)
    return out


def path_re(root):
    tops = sorted(d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d)) and
                  not d.startswith(".") and d not in SKIP_DIRS)
    if not tops:
        return None
    return re.compile(r"(?<![\w./~$-])((?:%s)(?:/[\w.*-]+)+/?)" %
                      "|".join(re.escape(t) for t in tops))


def looks_like_path(p):
    """A file (an extension), a folder (a trailing '/'), a pattern or two levels deep: words
    like "copy/clear" in prose are not taken for paths."""
    last = p.rstrip("/").rsplit("/", 1)[-1]
    return p.endswith("/") or "*" in p or "." in last or p.count("/") >= 2


def exists(root, p):
    if any(p.startswith(f) for f in FOREIGN):
        return True
    pattern = "/".join(re.sub(r"_$", "_*", part) if not re.fullmatch(r"[A-Z]+(\.\w+)?", part)
                       else re.sub(r"^[A-Z]+", "*", part) for part in p.rstrip("/").split("/"))
    if glob.glob(os.path.join(root, pattern)):
        return True
    return p.endswith(".inc") and os.path.exists(os.path.join(root, p[:-4] + ".c"))


def check(root):
    rx = path_re(root)
    missing = named = 0
    for path in files_to_read(root):
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            text = f.read()
        for line, comment in comments_of(path, text) if rx else []:
            for m in rx.finditer(comment):
                p = m.group(1).rstrip(".")
                if not looks_like_path(p):
                    continue
                named += 1
                if not exists(root, p):
                    at = line + comment.count("\n", 0, m.start())
                    print("path-check: %s:%d: names %s, which does not exist" %
                          (path, at, p))
                    missing += 1
    print("path-check: %d repository paths named in comments and documents, %d missing" %
          (named, missing))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(common.tree_check_main("path-check", __doc__, check))
