# SPDX-License-Identifier: GPL-2.0-only
"""The hosted benchmark (build/ck-bench, `make check` builds it) measures what its presets
say, or fails with a status (issue 20 item 0.1): `--preset big` alone printed "skipped (no
room for two buffers of 1024 MiB)" and exited 0, and `--preset v3` never measured its 1 GiB
extent because the bandwidth probe had taken the arena. Here v3 and big run at test sizes
and every promised row must be there, with its share of the probe's limit, and every
record valid under docs/schema/copykernel-records-v1.json; and a process whose address
space cannot hold the run's two 1 GiB buffers must exit 3 and say why.

CK_BUILD=DIR takes the binary from DIR instead of build/.
"""
import json
import os
import re
import resource
import subprocess

from conftest import ROOT
from cklib import schema as ckschema

BENCH = os.path.join(os.environ.get("CK_BUILD", os.path.join(ROOT, "build")), "ck-bench")


def run(args, limit_as=None, tmp=None):
    assert os.access(BENCH, os.X_OK), "%s is missing: make build/ck-bench" % BENCH

    def cap():
        if limit_as:
            resource.setrlimit(resource.RLIMIT_AS, (limit_as, limit_as))
    p = subprocess.run([BENCH] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=600, preexec_fn=cap)
    return p


def test_v3_and_big_measure_every_case(tmp_path):
    js = tmp_path / "b.jsonl"
    p = run(["--tiny", "--rounds", "3", "--preset", "v3", "--preset", "big", "--json",
             str(js)])
    text = p.stdout + p.stderr
    assert p.returncode == 0, text[-2000:]
    for bad in ("FAILED", "skipped", "no room", "no memory"):
        assert bad not in text, text[-2000:]
    recs = [json.loads(line) for line in js.read_text().splitlines()]
    n, problems = ckschema.check_text(ckschema.Schema(), js.read_text(), "b.jsonl")
    assert n == len(recs) and not problems, problems[:10]
    cmp = [r for r in recs if r.get("kind") == "comparison"]
    v3 = sorted(r["size"] for r in cmp if r["api"] == "copy_mc_highpages")
    big = [r for r in cmp if r["api"] == "copy big"]
    # v3: the 2 MiB extent and the large one (the probe's 4 MiB in test mode); big: one row
    # at the probe's size, unless this CPU has no non-temporal copy to compare with.
    assert v3 == [2 << 20, 4 << 20], v3
    has_nt = any(r.get("probe") == "NT copy" for r in recs if r.get("kind") == "bandwidth")
    assert len(big) == (1 if has_nt else 0) and all(r["size"] == 4 << 20 for r in big), big
    for r in cmp:
        assert r["limit"] == "copy" and r["limit_mbps"] > 0, r
        assert r["baseline_limit_pct"] >= 0 and r["candidate_limit_pct"] >= 0, r


def test_no_room_for_the_large_buffers_fails(tmp_path):
    """2 GiB of address space: the eviction buffer and the arena fit, two 1 GiB ones do not."""
    p = run(["--rounds", "3", "--replicas", "2", "--preset", "big"], limit_as=2 << 30)
    text = p.stdout + p.stderr
    if "cannot map" in p.stderr:
        # This machine's eviction buffer (3 x its largest cache) alone outgrows the limit.
        assert p.returncode == 1, text[-2000:]
        return
    assert p.returncode == 3, text[-2000:]
    assert "bench: FAILED: no room for the run's two large buffers of 1024 MiB" in p.stdout, \
        p.stdout[-2000:]
    assert "status 3" in p.stderr, p.stderr
    # Each replica failed the same way; a case it could not measure does not void the rest
    # of its records: the run says so and goes on with them.
    assert "# replica 1: status 3 (a case it could not measure" in p.stdout, p.stdout[:2000]
    assert "this process measures every comparison itself" not in p.stderr, p.stderr


def bench_args():
    """The Makefile's BENCH_ARGS (what `make bench` runs), continuation lines joined."""
    text = open(os.path.join(ROOT, "Makefile")).read().replace("\\\n", " ")
    line = next(l for l in text.splitlines() if l.startswith("BENCH_ARGS ?="))
    return line.split("?=", 1)[1].split()


def test_make_bench_command_line_is_accepted():
    """`make bench` passed nine presets to a parser that took eight and so exited 2 before
    measuring anything; --list parses a command line and says what it would run."""
    args = bench_args()
    p = run(args + ["--list"])
    assert p.returncode == 0, (p.stdout + p.stderr)[-2000:]
    names = [args[i + 1] for i, a in enumerate(args) if a == "--preset"]
    listed = [l.split()[1].rstrip(":") for l in p.stdout.splitlines()
              if l.startswith("preset ")]
    assert listed == names and len(names) >= 9, (listed, names)
    assert "replicas 6 (5 rounds each)" in p.stdout, p.stdout


def test_rounds_from_fresh_processes(tmp_path):
    """Issue 20 item 0.4: with --replicas N a comparison's rounds come from N fresh
    processes, one block each, and the interval is over them (R=N in a row, "replicas" in
    the record); the replicas print nothing and this process's own rows say where theirs
    came from."""
    js = tmp_path / "r.jsonl"
    p = run(["--tiny", "--rounds", "6", "--replicas", "2", "--preset", "rfc", "--json",
             str(js)])
    assert p.returncode == 0, (p.stdout + p.stderr)[-2000:]
    assert "# replica 1 of 2: 4 comparisons of 3 rounds" in p.stdout, p.stdout[:2000]
    assert "# replica 2 of 2: 4 comparisons of 3 rounds" in p.stdout, p.stdout[:2000]
    # each replica first held a random number of whole 2 MiB pages (its buffers then sit
    # elsewhere than the last replica's), which the line names
    held = [int(m) for m in re.findall(r"# replica \d of 2: .* after (\d+) MiB held", p.stdout)]
    assert len(held) == 2 and all(m % 2 == 0 and m <= 1024 for m in held), p.stdout[:2000]
    recs = [json.loads(line) for line in js.read_text().splitlines()]
    n, problems = ckschema.check_text(ckschema.Schema(), js.read_text(), "r.jsonl")
    assert n == len(recs) and not problems, problems[:10]
    machine = [r for r in recs if r.get("kind") == "machine"]
    assert len(machine) == 1 and machine[0]["replicas"] == 2, machine
    assert machine[0]["placements"] == 6, machine   # what a comparison no replica ran uses
    cmp = [r for r in recs if r.get("kind") == "comparison"]
    assert len(cmp) == 4, cmp
    for r in cmp:
        assert r["replicas"] == 2 and r["placements"] == 2, r
        assert r["interval"] == "replication" and r["rounds"] == 6, r
        assert r["method"] == "mean-of-block-medians", r
        assert r["ci_lo_ppm"] <= r["ratio_ppm"] <= r["ci_hi_ppm"], r
        assert r["ci_lo_round_ppm"] <= r["ratio_round_ppm"] <= r["ci_hi_round_ppm"], r
    rows = [l for l in p.stdout.splitlines() if l.startswith("node0->node0")]
    # R=2+: held to the run's pooled width (test_replicas_pool_widths)
    assert len(rows) == 4 and all(l.split()[-1] in ("R=2", "R=2+") for l in rows), rows
    assert machine[0]["widths"] == "pooled", machine


def test_replicas_pool_widths(tmp_path):
    """Pooled widths (ck_rep_pool): every replicated row's interval is held to at least its
    run's root-mean-square relative half-width of that mode, recomputed here from the rows'
    own intervals in the records; a widened row says R=N+; --widths own pools nothing."""
    js = tmp_path / "w.jsonl"
    p = run(["--tiny", "--rounds", "9", "--replicas", "3", "--preset", "rfc", "--preset",
             "clear", "--json", str(js)])
    assert p.returncode == 0, (p.stdout + p.stderr)[-2000:]
    assert "# widths: pooled:" in p.stdout, p.stdout[:3000]
    n, problems = ckschema.check_text(ckschema.Schema(), js.read_text(), "w.jsonl")
    assert not problems, problems[:10]
    cmp = [r for r in map(json.loads, js.read_text().splitlines())
           if r.get("kind") == "comparison"]
    widened = 0
    for mode in ("cache-hot", "cache-cold"):
        rows = [r for r in cmp if r["mode"] == mode and r.get("replicas")]
        assert rows, mode
        rel = [(r["ci_hi_own_ppm"] - r["ci_lo_own_ppm"]) / 2 / r["ratio_ppm"] for r in rows]
        rms = (sum(x * x for x in rel) / len(rel)) ** 0.5 * 1e6
        for r in rows:
            assert abs(r["width_floor_ppm"] - rms) <= 2, (r, rms)
            half = r["ratio_ppm"] * r["width_floor_ppm"] / 1e6
            assert r["ci_lo_ppm"] <= r["ci_lo_own_ppm"] <= r["ratio_ppm"], r
            assert r["ratio_ppm"] <= r["ci_hi_own_ppm"] <= r["ci_hi_ppm"], r
            # The low end stops at 0 when the floor is wider than the ratio (stats_ratio_widen).
            assert r["ratio_ppm"] - r["ci_lo_ppm"] >= half - 1 or r["ci_lo_ppm"] == 0, r
            assert r["ci_hi_ppm"] - r["ratio_ppm"] >= half - 1, r
            widened += r["ci_hi_ppm"] > r["ci_hi_own_ppm"]
    rows = [l for l in p.stdout.splitlines() if l.startswith("node0->node0")]
    assert sum(l.split()[-1] == "R=3+" for l in rows) == widened > 0, rows
    p = run(["--tiny", "--rounds", "9", "--replicas", "3", "--widths", "own", "--preset",
             "rfc", "--json", str(js)])
    assert p.returncode == 0, (p.stdout + p.stderr)[-2000:]
    assert "# widths: each row's own (--widths own)" in p.stdout, p.stdout[:3000]
    assert "width_floor_ppm" not in js.read_text()
    assert '"widths":"own"' in js.read_text()


def test_rounds_spread_over_placements(tmp_path):
    """Issue 20 item 0.4: a comparison's rounds run on fresh placements of its buffers and
    its interval says so; --placements 1 gives the rounds' CI, named as such."""
    for placements, want in (("6", 2), ("1", 1)):
        js = tmp_path / ("p%s.jsonl" % placements)
        p = run(["--tiny", "--rounds", "4", "--placements", placements, "--preset", "rfc",
                 "--json", str(js)])
        assert p.returncode == 0, (p.stdout + p.stderr)[-2000:]
        cmp = [r for r in map(json.loads, js.read_text().splitlines())
               if r.get("kind") == "comparison"]
        assert len(cmp) == 4, cmp
        for r in cmp:
            # 4 rounds hold at most 2 placements (two rounds each)
            assert r["placements"] == want, r
            assert r["interval"] == ("replication" if want > 1 else "rounds"), r
            assert r["method"] == ("mean-of-block-medians" if want > 1 else
                                   "median-of-round-ratios"), r
            assert r["ci_lo_ppm"] <= r["ratio_ppm"] <= r["ci_hi_ppm"], r
            # the rounds' CI is around the rounds' median; with one block that is the figure
            assert r["ci_lo_round_ppm"] <= r["ratio_round_ppm"] <= r["ci_hi_round_ppm"], r
            if want == 1:
                assert r["ratio_round_ppm"] == r["ratio_ppm"], r
                assert (r["ci_lo_ppm"], r["ci_hi_ppm"]) == (r["ci_lo_round_ppm"],
                                                            r["ci_hi_round_ppm"]), r
        rows = [l for l in p.stdout.splitlines() if l.startswith("node0->node0")]
        assert len(rows) == 4 and all(("P=%d" % want) in l for l in rows), rows
        if want == 1:
            assert all("rounds' CI only" in l for l in rows), rows


def test_counts_out_of_range_take_their_defaults():
    """--rounds, --placements and --replicas outside their bounds are named and replaced by
    the default, which --list then shows; a count that is not a number is a usage error."""
    p = run(["--rounds", "2", "--placements", "0", "--replicas", "99", "--list"])
    assert p.returncode == 0, p.stderr
    for line in ("--rounds 2: outside 3 .. 256, the default 30 is used",
                 "--placements 0: outside 1 .. 16, the default 6 is used",
                 "--replicas 99: outside 1 .. 16, the default 6 is used"):
        assert line in p.stderr, p.stderr
    assert "rounds 30, placements 6, replicas 6 (5 rounds each)" in p.stdout, p.stdout
    # said once by the run, not again by each replica parsing the same words
    p = run(["--tiny", "--rounds", "6", "--replicas", "2", "--placements", "0", "--preset",
             "rfc"])
    assert p.returncode == 0, (p.stdout + p.stderr)[-2000:]
    assert p.stderr.count("--placements 0: outside 1 .. 16") == 1, p.stderr
    p = run(["--replicas", "many", "--list"])
    assert p.returncode == 2 and "--replicas many: not a number" in p.stderr, p.stderr
