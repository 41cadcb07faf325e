# SPDX-License-Identifier: GPL-2.0-only
"""ck-report's seed tables print each comparison's own two sides. A make bench run holds
several cases that share an api, primitive name, size and mode (the rfc preset's per-page
loop and the copy_pages preset's, the patterns preset's one primitive from two sources);
a lookup by those four gave every such row the speed of whichever case came last (found on
2026-12-02: the rfc table showed copy_pages' per-page speeds, and every patterns row the
same GB/s on both sides). The expected speeds are the ones this test writes.
"""
import json
import os
import subprocess
import sys

from conftest import TOOLS


def result(api, prim, size, mbps, pattern="random"):
    return {"schema": 1, "kind": "result", "machine": "t", "api": api, "primitive": prim,
            "size": size, "mode": "cache-cold", "median_mbps": mbps, "stddev_mbps": 100,
            "cycles_per_byte_x1000": 100,
            "src_pattern": pattern}


def comparison(api, base, cand, size, **extra):
    c = {"schema": 1, "kind": "comparison", "machine": "t", "api": api, "size": size,
         "mode": "cache-cold", "baseline": base, "candidate": cand, "ratio_x1000": 2000,
         "ci_lo_x1000": 1900, "ci_hi_x1000": 2100, "significant": True}
    c.update(extra)
    return c


def report(tmp_path, recs):
    f = tmp_path / "run.jsonl"
    f.write_text("".join(json.dumps(r) + "\n" for r in recs))
    p = subprocess.run([sys.executable, os.path.join(TOOLS, "ck-report.py"), str(f)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert p.returncode == 0, p.stderr
    tables, name = {}, None
    for line in p.stdout.splitlines():
        if line.startswith("fn="):
            name = line
        elif line.startswith("node0->node0"):
            tables.setdefault(name, []).append([line.split()[i] for i in (2, 5)])
    return tables


def test_each_row_shows_its_own_cases(tmp_path):
    mb = 2 << 20
    tables = report(tmp_path, [
        result("folio_copy", "per-page", mb, 10000), result("folio_copy", "batched", mb, 20000),
        comparison("folio_copy", "per-page", "batched", mb),
        result("folio_copy", "per-page", mb, 15000), result("folio_copy", "bulk", mb, 30000),
        comparison("folio_copy", "per-page", "bulk", mb),
    ])
    assert tables["fn=folio_copy mode=cache-cold (per-page vs batched)"] == [["10.00", "20.00"]]
    assert tables["fn=folio_copy mode=cache-cold (per-page vs bulk)"] == [["15.00", "30.00"]]


def test_one_primitive_from_two_sources(tmp_path):
    mb = 2 << 20
    tables = report(tmp_path, [
        result("patterns", "memcpy_erms", mb, 50000),
        result("patterns", "memcpy_erms", mb, 60000, "zero"),
        comparison("patterns", "memcpy_erms", "memcpy_erms", mb, src_pattern="random",
                   candidate_src_pattern="zero"),
        result("patterns", "memcpy_erms", mb, 51000),
        result("patterns", "memcpy_erms", mb, 52000, "constant"),
        comparison("patterns", "memcpy_erms", "memcpy_erms", mb, src_pattern="random",
                   candidate_src_pattern="constant"),
    ])
    head = "fn=patterns mode=cache-cold (memcpy_erms vs memcpy_erms (source %s))"
    assert tables[head % "zero"] == [["50.00", "60.00"]]
    assert tables[head % "constant"] == [["51.00", "52.00"]]


def test_a_comparison_without_its_results_looks_them_up(tmp_path):
    """Records from elsewhere (a hand-made file, an older writer): the lookup still works."""
    mb = 2 << 20
    tables = report(tmp_path, [
        result("folio_copy", "per-page", mb, 10000), result("folio_copy", "batched", mb, 20000),
        {"schema": 1, "kind": "machine", "machine": "t"},
        comparison("folio_copy", "per-page", "batched", mb),
    ])
    assert tables["fn=folio_copy mode=cache-cold (per-page vs batched)"] == [["10.00", "20.00"]]
