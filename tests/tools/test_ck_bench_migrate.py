# SPDX-License-Identifier: GPL-2.0-only
"""The hosted migrate preset (build/ck-bench --preset migrate, tools/ck-bench-mig.c): at each
CPU count of the process's CPUs (powers of two, then all: the issue's rule, written here
again) a record for each of folio_copy and folio_mc_copy, per page and batched, every
migration verified by every thread, and no failure.

CK_BUILD=DIR takes the binary from DIR instead of build/.
"""
import json
import os

from test_ck_bench_presets import run


def counts(n):
    return sorted({1 << k for k in range(n.bit_length()) if 1 << k < n} | {n})


def test_migrate_every_count_and_form(tmp_path):
    js = tmp_path / "m.jsonl"
    p = run(["--tiny", "--rounds", "3", "--preset", "migrate", "--json", str(js)])
    text = p.stdout + p.stderr
    assert p.returncode == 0, text[-2000:]
    assert "FAILED" not in text, text[-2000:]
    recs = [json.loads(line) for line in js.read_text().splitlines()]
    mig = [r for r in recs if r.get("kind") == "migrate-hosted"]
    want = counts(len(os.sched_getaffinity(0)))
    assert sorted((r["cpus"], r["fn"], r["copy"]) for r in mig) == sorted(
        (c, fn, f) for c in want for fn in ("folio_copy", "folio_mc_copy")
        for f in ("per_page", "batched")), [(r["cpus"], r["fn"], r["copy"]) for r in mig]
    for r in mig:
        assert r["rounds"] == 3 and r["verified"] == 3, r
        assert r["copy_ns"] > 0 and r["munmap_ns"] > 0 and r["mmap_touch_ns"] > 0, r
        assert 0 <= r["copy_share"] <= 1, r
    for c in want:
        assert ("cpus=%d: verified: 12 migrations, after each all %d thread" % (c, c)) in text
