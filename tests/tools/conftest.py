# SPDX-License-Identifier: GPL-2.0-only
"""Shared set-up of the host tool tests: how to run a tool, and hypothesis's settings.

Run with Debian's python3-pytest and python3-hypothesis:
    cd /work/main && /usr/bin/python3 -m pytest -q tests/tools/
CK_TOOLS_DIR=DIR runs the tests against the tools in DIR (e.g. a copy of an older version).
CK_HYPOTHESIS_SCALE=N runs N times as many examples a property.
"""
import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis.configuration import set_hypothesis_home_dir

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOLS = os.environ.get("CK_TOOLS_DIR", os.path.join(ROOT, "tools"))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from cklib import common  # noqa: E402


def load_tool(name):
    """tools/NAME.py (of CK_TOOLS_DIR when set) as a module."""
    return common.load_tool(name, TOOLS)


# Hypothesis's and pytest's own files (a Unicode table, the last failures) go to a scratch
# directory, not into the source tree.
SCRATCH = os.path.join(tempfile.gettempdir(), "ck-tools-tests")
set_hypothesis_home_dir(os.path.join(SCRATCH, "hypothesis"))


def pytest_configure(config):
    cache = getattr(config, "cache", None)
    if cache is not None and hasattr(cache, "_cachedir"):
        cache._cachedir = Path(SCRATCH, "pytest-cache")


# Every example starts a Python process (60-150 ms, as loaded as the machine is): about 500
# runs a file keep each file under a minute on two cores. CK_HYPOTHESIS_SCALE=10 searches ten
# times longer. No example database: nothing is written to the source tree.
SCALE = float(os.environ.get("CK_HYPOTHESIS_SCALE", "1"))
# make check draws the same examples every run (derandomize), so CI is repeatable;
# CK_HYPOTHESIS_RANDOM=1 searches fresh examples each time (do that when changing a tool).
RANDOM = os.environ.get("CK_HYPOTHESIS_RANDOM", "") not in ("", "0")
settings.register_profile("ck", max_examples=100, deadline=None, database=None,
                          derandomize=not RANDOM,
                          suppress_health_check=[HealthCheck.too_slow,
                                                 HealthCheck.data_too_large,
                                                 HealthCheck.filter_too_much])
settings.load_profile("ck")


def examples(n):
    """Settings for a property: @n examples (times CK_HYPOTHESIS_SCALE)."""
    return settings(max_examples=max(1, int(n * SCALE)))


class Ran:
    """The outcome of one run of a tool."""

    def __init__(self, p):
        self.status, self.out, self.err = p.returncode, p.stdout, p.stderr
        self.err_text = p.stderr.decode("utf-8", "replace")

    def __repr__(self):
        return "<exit %d, stdout %r..., stderr %r>" % (self.status, self.out[:200],
                                                        self.err_text[:600])


def run_tool(name, *args, env=None):
    """Run tools/NAME.py ARGS as a subprocess; never raises on the tool's failure."""
    e = dict(os.environ, PYTHONIOENCODING="utf-8")
    e.pop("CK_TRACEBACK", None)
    if env:
        e.update(env)
    p = subprocess.run([sys.executable, os.path.join(TOOLS, name + ".py")] + list(args),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=e, timeout=60)
    return Ran(p)


def assert_clean(r, tool, allowed=(0, 1, 3)):
    """The contract every run keeps: a documented status, never a traceback, and a failure
    is exactly one line on stderr naming the tool."""
    assert r.status in allowed, r
    assert "Traceback" not in r.err_text, r
    if r.status != 0:
        lines = r.err_text.splitlines()
        assert len(lines) == 1, r
        assert lines[0].startswith(tool + ": "), r
        assert "(a bug in %s;" % tool not in lines[0], r     # a case the tool did not foresee


# LAVA's job and device schemas, for the ck-lava tests: yaml (None without it) and the mark
# that skips a test, naming the packages, where they are missing.
try:
    import jinja2  # noqa: F401
    import yaml
    import lava_common.schemas  # noqa: F401
    HAVE_LAVA = True
except ImportError:
    yaml = None
    HAVE_LAVA = False
needs_lava = pytest.mark.skipif(not HAVE_LAVA, reason="python3-jinja2, python3-yaml or "
                                "lava-common missing (apt-get install lava-dispatcher)")


def fleet_machines(path):
    """ck-report --fleet PATH --json, clean: its machines by name."""
    r = run_tool("ck-report", "--fleet", path, "--json")
    assert_clean(r, "ck-report", allowed=(0,))
    return {m["machine"]: m for m in json.loads(r.out)["machines"]}


@contextlib.contextmanager
def fleet_copy(src):
    """A scratch copy of the stored fleet @src without its README.md, removed after."""
    with tempfile.TemporaryDirectory() as tmp:
        dst = os.path.join(tmp, "fleet")
        shutil.copytree(src, dst)
        os.remove(os.path.join(dst, "README.md"))
        yield dst
