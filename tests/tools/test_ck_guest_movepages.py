# SPDX-License-Identifier: GPL-2.0-only
"""move_pages(2) end to end where a second NUMA node exists: tools/ck-guest.py boots Debian's
cloud kernel under QEMU (TCG) on two NUMA nodes with a 1 GiB hugetlb page on each, and runs
the static ck-bench's migrate preset there (host/bench/movep.c).

What is checked comes from the guest's kernel, not from ck-bench's own arithmetic: the kernel
lists two nodes with memory and a free 1 GiB page on each, and its own counters
(/proc/vmstat: pgmigrate_success, thp_migration_success, before and after the run) must have
grown by every page of every mapping moved every round, give or take less than one round of
4 KiB moves, with no failure and no THP split (the guest's /init prints them). ck-bench's
own checks (the kernel asked where each 4 KiB page is after each round, every word read
back) must pass too: a failed one prints `bench: FAILED` and exits 3. The
timings under TCG say nothing about hardware and are not asserted.

The guest needs BUILD/guest/ck-bench and BUILD/guest/init (make guest) and the kernel package
(downloaded by ck-guest.py with apt-get into BUILD/guest/, or CK_GUEST_KERNEL=bzImage).
CK_BUILD=DIR takes the build from DIR instead of build/.
"""
import json
import os
import re
import subprocess

from conftest import ROOT

BUILD = os.environ.get("CK_BUILD", os.path.join(ROOT, "build"))
SIZES = {4096: 1024, 2 << 20: 4, 1 << 30: 1}  # folios with --tiny: 4 MiB, 8 MiB, 1 GiB
TINY_BYTES = (4 << 20, 8 << 20, 1 << 30)
SLACK = 512


def boot(tmp_path, args):
    js = tmp_path / "guest.jsonl"
    cmd = ["/usr/bin/python3", os.path.join(ROOT, "tools", "ck-guest.py"), "--build", BUILD,
           "--json", str(js), "--timeout", "500"]
    if os.environ.get("CK_GUEST_KERNEL"):
        cmd += ["--kernel", os.environ["CK_GUEST_KERNEL"]]
    p = subprocess.run(cmd + ["--"] + args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=600)
    recs = [json.loads(line) for line in js.read_text().splitlines()] if js.exists() else []
    return p, recs


def test_move_pages_between_two_nodes(tmp_path):
    p, recs = boot(tmp_path, ["--tiny", "--rounds", "3", "--preset", "migrate"])
    text = p.stdout
    assert p.returncode == 0, text[-3000:]
    assert "bench: FAILED" not in text, text[-3000:]
    # The guest's kernel, read by /init before ck-bench ran.
    assert "node/has_memory: 0-1" in text, text[-3000:]
    for n in (0, 1):
        assert ("node%d/hugepages/hugepages-1048576kB/free_hugepages: 1" % n) in text, text
    mp = [r for r in recs if r["kind"] == "movepages"]
    assert not [r for r in recs if r["kind"] == "movepages-not-measured"], text[-3000:]
    got = sorted((r["folio_bytes"], r["fn"]) for r in mp)
    assert got == sorted((b, fn) for b in SIZES for fn in ("folio_copy", "folio_mc_copy")), got
    for r in mp:
        assert (r["node_a"], r["node_b"]) == (0, 1), r
        assert r["folios"] == SIZES[r["folio_bytes"]], r
        assert r["rounds"] == 3 and r["verified"] == 3, r
        assert r["move_ns"] > 0 and r["copy_per_page_ns"] > 0 and r["copy_batched_ns"] > 0, r
        huge = 0 if r["folio_bytes"] == 4096 else r["folios"]
        assert r["huge_before"] == huge and r["huge_after"] == huge, r
        assert r["copy_share_lo"] <= r["copy_share"] <= r["copy_share_hi"], r
    # The kernel's own count of base pages migrated during the run (/proc/vmstat, printed by
    # /init before and after ck-bench): every page of each mapping, every round, and at most
    # SLACK more (other pages NUMA balancing may move: fewer than one round of 4 KiB moves);
    # the THPs moved whole, none split, nothing failed.
    got = {(w, k): int(v) for w, k, v in re.findall(r"ck-guest: vmstat (\w+) (\w+) (\d+)", text)}
    moved = {k: got[("after", k)] - got[("before", k)] for w, k in got if w == "after"}
    want = sum(3 * b // 4096 for b in TINY_BYTES)
    assert want <= moved["pgmigrate_success"] <= want + SLACK, (want, moved)
    assert moved["thp_migration_success"] == 3 * SIZES[2 << 20], moved
    assert moved["pgmigrate_fail"] == 0 and moved["thp_migration_split"] == 0, moved
    # The memfd sweep ran too, at 1 and 2 CPUs, every migration read back by every thread.
    assert "cpus=2: verified: 12 migrations, after each all 2 threads" in text, text[-3000:]
