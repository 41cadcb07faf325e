#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""link-check.py - every relative link in README.md and docs/ leads somewhere.

Usage: tools/link-check.py [--root DIR]

Read: README.md and every Markdown file under docs/. A link is an inline link or image,
[text](target) or ![alt](target), or a reference definition, "[name]: target" at a line's
start; links inside fenced code blocks and code spans are not links. A target with a scheme
(https:, mailto:) is someone else's and is not followed. Every other target must resolve,
relative to the file that holds it, to a file or folder inside the repository; a "#anchor"
(alone, or after a Markdown file) must name a heading of that file as GitHub makes anchors:
the heading's text in lower case, punctuation dropped but '-' and '_', each space a '-', and
"-1", "-2", ... after the second and later headings with the same anchor.
Output: "link-check: FILE:LINE: LINK: why" per broken link, then a summary.
Exit status: 0 every link resolves, 1 a link is broken, 2 usage error.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cklib import common  # noqa: E402

INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
REFDEF = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s.*)?$")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def documents(root):
    out = ["README.md"] if os.path.isfile(os.path.join(root, "README.md")) else []
    for top, dirs, names in os.walk(os.path.join(root, "docs")):
        dirs.sort()
        out += sorted(os.path.relpath(os.path.join(top, n), root) for n in names
                      if n.endswith(".md"))
    return out


def prose_lines(text, blank_code=True):
    """(line number, line) outside fenced code blocks, code spans blanked (@blank_code) or
    their backticks dropped."""
    fence = None
    for no, line in enumerate(text.split("\n"), 1):
        m = FENCE.match(line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            continue
        if m:
            fence = m.group(1)
            continue
        if blank_code:
            yield no, re.sub(r"(`+)(?:(?!\1).)+?\1", lambda s: " " * len(s.group(0)), line)
        else:
            yield no, line.replace("`", "")


def slug(heading):
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip())
    text = re.sub(r"[^\w\- ]", "", text.lower())
    return text.replace(" ", "-")


def anchors(text):
    seen, out = {}, set()
    for _, line in prose_lines(text, blank_code=False):
        m = re.match(r"^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        base = slug(m.group(1))
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else "%s-%d" % (base, n))
    return out


def links(text):
    for no, line in prose_lines(text):
        for m in INLINE.finditer(line):
            yield no, m.group(1)
        m = REFDEF.match(line)
        if m:
            yield no, m.group(1)


def broken(root, doc, target, cache):
    """Why @target, linked from @doc, leads nowhere; None when it resolves."""
    path, _, frag = target.partition("#")
    if path:
        full = os.path.normpath(os.path.join(root, os.path.dirname(doc), path))
        if os.path.relpath(full, root).startswith(".."):
            return "outside the repository"
        if not os.path.exists(full):
            return "no such file or folder"
    else:
        full = os.path.join(root, doc)
    if frag and full.endswith(".md") and os.path.isfile(full):
        if full not in cache:
            with open(full, encoding="utf-8", errors="replace") as f:
                cache[full] = anchors(f.read())
        if frag.lower() not in cache[full]:
            return "no heading with the anchor #%s in %s" % (frag, os.path.relpath(full, root))
    return None


def check(root):
    bad = seen = 0
    cache = {}
    for doc in documents(root):
        with open(os.path.join(root, doc), encoding="utf-8", errors="replace") as f:
            text = f.read()
        for no, target in links(text):
            if not target or SCHEME.match(target):
                continue
            seen += 1
            why = broken(root, doc, target, cache)
            if why:
                print("link-check: %s:%d: %s: %s" % (doc, no, target, why))
                bad += 1
    print("link-check: %d relative links in README.md and docs/, %d broken" % (seen, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(common.tree_check_main("link-check", __doc__, check))
