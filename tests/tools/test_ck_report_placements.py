# SPDX-License-Identifier: GPL-2.0-only
"""ck-report's seed tables say which interval a comparison row carries (issue 20 item 0.4):
"P=6" for the replication interval over six placements, "P=1 (rounds' CI)" for one
placement's rounds, nothing for a record from before placements existed.
"""
import json
import os
import subprocess
import sys

from conftest import TOOLS


def record(size, **extra):
    c = {"schema": 1, "kind": "comparison", "machine": "t", "api": "folio_copy",
         "size": size, "mode": "cache-cold", "baseline": "per-page", "candidate": "batched",
         "ratio_x1000": 1010, "ci_lo_x1000": 990, "ci_hi_x1000": 1030, "significant": False}
    c.update(extra)
    return c


def test_rows_name_their_interval(tmp_path):
    f = tmp_path / "run.jsonl"
    recs = [record(256 << 10), record(1 << 20, interval="rounds", placements=1),
            record(2 << 20, interval="replication", placements=6)]
    f.write_text("".join(json.dumps(r) + "\n" for r in recs))
    p = subprocess.run([sys.executable, os.path.join(TOOLS, "ck-report.py"), str(f)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert p.returncode == 0, p.stderr
    rows = {l.split()[1]: l for l in p.stdout.splitlines() if l.startswith("node0->node0")}
    assert rows["256K"].endswith("[0.99, 1.03] n.s."), rows
    assert rows["1M"].endswith("n.s. P=1 (rounds' CI)"), rows
    assert rows["2M"].endswith("n.s. P=6"), rows
