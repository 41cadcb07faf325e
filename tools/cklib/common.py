# SPDX-License-Identifier: GPL-2.0-only
"""cklib.common - what every host tool of copykernel shares.

  - the exit statuses of the tools that read results (0 done, 1 no result, 2 usage, 3 bad
    input) and the one-line error contract: "TOOL: FILE: what is wrong (where)";
  - os_problem(), the words for an OSError;
  - strict JSON: NaN, Infinity and numbers out of a float's range are not JSON;
  - bounded(), an argparse type that refuses a number out of its range by name;
  - run_main(), which turns whatever escapes a tool's main() into one line and a status;
  - load_tool(), a tool (tools/NAME.py, a file name with '-') as a module.

A tool imports it as `from cklib import common` after putting tools/ on sys.path
(tools/cklib/__init__.py says how).
"""
import argparse
import importlib.util
import json
import math
import os
import sys

TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

EXIT_OK, EXIT_NO_RESULT, EXIT_USAGE, EXIT_BAD_INPUT = 0, 1, 2, 3

class BadInput(Exception):
    """The input cannot be read as what it claims to be (exit status 3)."""
    status = EXIT_BAD_INPUT

    def __init__(self, file, what, where=None):
        super().__init__(what)
        self.file, self.what, self.where = file, what, where

    def line(self, tool):
        return "%s: %s: %s%s" % (tool, self.file, self.what,
                                 " (%s)" % self.where if self.where else "")


class NoResult(BadInput):
    """Readable input that holds no result (exit status 1)."""
    status = EXIT_NO_RESULT


def os_problem(e):
    """An OSError in words, without the path (the caller names it)."""
    if isinstance(e, FileNotFoundError):
        return "no such file or directory"
    if isinstance(e, IsADirectoryError):
        return "is a directory, not a file"
    if isinstance(e, NotADirectoryError):
        return "not a directory (the path or a part of it)"
    return e.strerror or type(e).__name__


def reject_constant(name):
    raise ValueError("%s is not JSON" % name)


def finite_float(text):
    f = float(text)
    if not math.isfinite(f):
        raise ValueError("number %s is out of range" % text)
    return f


def loads_strict(text, finite=False):
    """json.loads without NaN and Infinity (and, with @finite, without numbers that overflow
    a float); raises ValueError (json.JSONDecodeError for syntax) or RecursionError."""
    return json.loads(text, parse_constant=reject_constant,
                      parse_float=finite_float if finite else None)


def bounded(kind, lo=None, hi=None, what="a number"):
    """An argparse type: @kind (int or float) of @text, refused unless lo <= value <= hi
    (either bound may be None), with a message that names the range."""
    def parse(text):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError("not %s: %r" % (what, text))
        if kind is float and not math.isfinite(value):
            raise argparse.ArgumentTypeError("not %s: %r" % (what, text))
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            if lo is not None and hi is not None:
                want = "from %s to %s" % (lo, hi)
            elif lo is not None:
                want = "at least %s" % lo
            else:
                want = "at most %s" % hi
            raise argparse.ArgumentTypeError("%s is out of range: want %s %s" % (
                text, what, want))
        return value
    parse.__name__ = what       # argparse names the type in its own messages
    return parse


def run_main(tool, main, argv=None, internal=EXIT_BAD_INPUT, pipe=EXIT_OK):
    """main(argv)'s status, with every failure as one line on stderr and never a traceback
    (CK_TRACEBACK=1 shows one). A reader that went away (head, less) gives @pipe; anything
    main() did not foresee gives @internal, naming main.source (the input it was reading)."""
    try:
        status = main(argv)
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return pipe
    except KeyboardInterrupt:
        print("%s: interrupted" % tool, file=sys.stderr)
        return internal
    except Exception as e:              # a case the tool does not know: still one line
        if os.environ.get("CK_TRACEBACK"):
            raise
        print("%s: %s: unexpected %s: %s (a bug in %s; CK_TRACEBACK=1 shows where)" % (
            tool, getattr(main, "source", "-"), type(e).__name__, e, tool), file=sys.stderr)
        return internal


def load_tool(name, tools=TOOLS):
    """tools/NAME.py (e.g. "ck-results") as a module, for the tests and for other tools."""
    spec = importlib.util.spec_from_file_location(name.replace("-", "_"),
                                                  os.path.join(tools, name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod
