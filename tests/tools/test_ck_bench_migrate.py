# SPDX-License-Identifier: GPL-2.0-only
"""The hosted migrate preset (build/ck-bench --preset migrate, host/bench/mig.c): at each
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
    # move_pages(2): with one node with memory (the kernel's list, read here) it says why not;
    # with two, tests/tools/test_ck_guest_movepages.py checks what it measures.
    nodes = memory_nodes()
    nm = [r for r in recs if r.get("kind") == "movepages-not-measured"]
    if len(nodes) < 2:
        assert [r["folio_bytes"] for r in nm] == [0], nm
        assert "one NUMA node has memory here" in nm[0]["why"], nm
        assert not [r for r in recs if r.get("kind") == "movepages"]
    else:
        assert {r["folio_bytes"] for r in recs if r.get("kind") == "movepages"} >= {4096}


def memory_nodes():
    """The nodes of /sys/devices/system/node/has_memory ("0-1,3")."""
    try:
        text = open("/sys/devices/system/node/has_memory").read().strip()
    except OSError:
        return []
    out = []
    for part in filter(None, text.split(",")):
        lo, _, hi = part.partition("-")
        out += range(int(lo), int(hi or lo) + 1)
    return out
