# SPDX-License-Identifier: GPL-2.0-only
"""bench_tests.py - the check functions of scenarios.cfg's bench rows (the image's benchmark
presets at test sizes: every preset and its JSON, the rfc preset over three NUMA nodes, one
without CPUs, the seed003 table) and two whole scenarios: the shapes of the copy_pages table
and bench=migrate on four CPUs.
"""
import json
import re

from qemu_boot import PASS


def bench_records(b, kind=None):
    """The JSON lines of the log (each must parse), of one kind when given."""
    objs = []
    for line in b.log.splitlines():
        if line.startswith('{"schema"'):
            try:
                objs.append(json.loads(line))
            except ValueError:
                b.expect(False, "not JSON: " + line[:120])
    return [o for o in objs if kind is None or o.get("kind") == kind]


def unique_ids(b):
    ids = re.findall(r"^# ck-lava <(bench\.\S+) pass", b.log, re.M)
    b.expect(ids and len(ids) == len(set(ids)), "benchmark ids unique: %d ids, %d distinct"
             % (len(ids), len(set(ids))))


def check_presets_records(b):
    """bench=all: every JSON line parses and every kind is there, no writer error; each seed
    comparison carries both sides as % of the limit; benchmark ids unique; every result
    has 3 runs, its cold method, data patterns, repetitions and k, and says the noise
    counters are unavailable under QEMU; the patterns preset compares a zero source."""
    objs = bench_records(b)
    kinds = {o.get("kind") for o in objs}
    b.expect({"machine", "result", "comparison", "bandwidth", "parallel", "quick"} <= kinds,
             "JSON kinds seen: %s" % kinds)
    b.expect("json-error" not in kinds, "JSON writer errors: %s" %
             [o for o in objs if o.get("kind") == "json-error"][:3])
    cmps = [o for o in objs if o.get("kind") == "comparison"]
    b.expect(cmps and all(o.get("limit_mbps", 0) > 0 and
                          isinstance(o.get("baseline_limit_pct"), int) and
                          isinstance(o.get("candidate_limit_pct"), int) for o in cmps),
             "every seed comparison carries both sides as %% of the limit: %s" %
             [o for o in cmps if not o.get("limit_mbps")][:2])
    unique_ids(b)
    results = [o for o in objs if o.get("kind") == "result"]
    b.expect(all(o["runs"] == 3 and o["median_mbps"] > 0 for o in results),
             "every result has 3 runs and a throughput")
    b.expect(all(o["cold_method"] == ("clflushopt" if o["mode"] == "cache-cold" else "none")
                 for o in results), "cache-cold results say cold_method clflushopt")
    b.expect(all(o.get("src_pattern") in ("zero", "constant", "random", "none") and
                 o.get("dst_pattern") in ("zero", "constant", "random", "none") and
                 o.get("reps", 0) >= 1 and o.get("k") in (3, 5) for o in results),
             "every result records its data patterns, repetitions and k")
    b.expect(all(o.get("smi", 0) is None and o.get("eff_mhz_min", 0) is None and
                 o.get("noise") == "unavailable: under a hypervisor" for o in results),
             "every result says SMI count and effective clock are unavailable under QEMU")
    b.expect(any(o.get("kind") == "comparison" and o.get("api") == "patterns" and
                 o.get("candidate_src_pattern") == "zero" for o in objs),
             "the patterns preset compares a zero source against a random one")


def check_numa_records(b):
    """bench=rfc over three nodes: the comparison records' CPUs by source node (node2 has
    none), and the node2 directions in the JSON results."""
    cmp_cpus = {(o["src_node"], o["cpu"]) for o in
                (json.loads(l) for l in b.log.splitlines() if l.startswith('{"schema"'))
                if o.get("kind") == "comparison" and o.get("api") == "folio_copy"}
    b.expect(cmp_cpus == {("node0", 0), ("node1", 1), ("node2", None)},
             "comparison records' CPUs by source node: %s" % sorted(cmp_cpus, key=str))
    dirs = {(o["src_node"], o["dst_node"]) for o in
            (json.loads(l) for l in b.log.splitlines() if l.startswith('{"schema"'))
            if o.get("kind") == "result"}
    b.expect(("node2", "node0") in dirs and ("node0", "node2") in dirs,
             "JSON results lack the node2 directions: %s" % sorted(dirs))


CP_RESOLUTIONS = ("zen3-rfc", "zen3", "fsrm", "own")
# The forms that are Linux's (the baselines, the RFC's memcpy, the v3 patch); all others
# are the project's copy_pages() candidates and must say so wherever they print.
CP_LINUX_FORMS = ("per-page", "bulk memcpy (RFC)", "v3 batched copy_mc")


def t_bench_copy_pages_tiny(b):
    """bench=copy_pages tiny: every resolution/form/mode, the answer table, candidates named."""
    b.run("exit=qemu tests=none bench=copy_pages bench_runs=3 bench_tiny=yes bench_cold=flush")
    b.status_is(PASS)
    b.has(r"^== preset copy_pages ==$")
    b.has(r"^copy_pages: CANDIDATES for a copy_pages\(\) Linux does not have")
    for res in CP_RESOLUTIONS:
        b.has(r"^== copy_pages resolution %s: .* candidates \(not Linux\): copy_pages=\w+ "
              r"copy_pages\(FSRM key\)=\w+ memcpy_pa=\w+ copy_mc_pages=\w+ ==$" % res)
    b.has(r"^== copy_pages resolution zen3-rfc: .*: copy_page=rep memcpy=orig copy_mc=memcpy;"
          r" candidates \(not Linux\): copy_pages=rep ")
    b.has(r"^== copy_pages resolution fsrm: .*: copy_page=rep memcpy=erms copy_mc=erms; "
          r"candidates \(not Linux\): copy_pages=erms copy_pages\(FSRM key\)=erms ")
    fns = re.findall(r"^fn=(folio_copy|folio_mc_copy) (.*) \([^()]*\) mode=(cache-cold|cache-hot)"
                     r" resolution=(\S+)$", b.log, re.M)
    b.expect(len(fns) == 4 * 6 * 2, "%d form headers, want 4 resolutions x 6 forms x 2 modes"
             % len(fns))
    b.expect(all(f[1] in CP_LINUX_FORMS or f[1].startswith("candidate ") for f in fns),
             "every form not Linux's is labelled a candidate: %s" % sorted({f[1] for f in fns}))
    b.has(r"^Q1: \"Should we introduce copy_pages\(\) infrastructure")
    b.has(r"^Q2: \"Should folio_copy\(\) and folio_mc_copy\(\) use symmetric primitive")
    b.has(r"^resolution folio mode  bulk     cand:cp  cand:cpF cand:pa  \| v3       cand:mcp \|")
    cell = r"\d+\.\d\dx[*-]? *"
    rows = re.findall(r"^(%s) +256K +(cold|hot) +(?:%s){4}\| (?:%s){2}\| [^|]+\| \S.*$"
                      % ("|".join(re.escape(r) for r in CP_RESOLUTIONS), cell, cell),
                      b.log, re.M)
    b.expect(sorted(rows) == sorted((r, m) for r in CP_RESOLUTIONS for m in ("cold", "hot")),
             "answer rows (resolution, mode): %s" % rows)
    answers = bench_records(b, "copy_pages_answer")
    b.expect(len(answers) == 8 and
             {(a["resolution"], a["mode"]) for a in answers} ==
             {(r, m) for r in CP_RESOLUTIONS for m in ("cache-cold", "cache-hot")},
             "copy_pages_answer records: %s" % [(a.get("resolution"), a.get("mode"))
                                                for a in answers])
    b.expect(all(a["size"] == 262144 and a["q1"] and a["q2"] and
                 all(a[k]["ratio_x1000"] > 0 for k in
                     ("bulk", "candidate_copy_pages", "candidate_copy_pages_fsrm",
                      "candidate_memcpy_pa", "v3", "candidate_copy_mc_pages"))
                 for a in answers), "every answer has every form's ratio and both answers")
    prims = {o["primitive"] for o in bench_records(b, "result") if o["api"] in
             ("folio_copy", "folio_mc_copy")}
    b.expect(prims and all(p in CP_LINUX_FORMS or p.rsplit(" (", 1)[0] in CP_LINUX_FORMS or
                           p.startswith("candidate ") for p in prims),
             "result primitives: %s" % sorted(prims))
    b.expect(not bench_records(b, "json-error"), "JSON writer errors")
    unique_ids(b)


def check_seed003(b):
    """bench=seed003: seed 003's block for N = 1, 4, 16 (five runs, avg, 95% CI), nine
    records, the order and batch rows against their baselines, upstream's five figures
    labelled as upstream's, no writer error, unique ids."""
    us = r" +\d+\.\d"
    for n in (1, 4, 16):
        m = re.search(r"^N=%d \(64K folios\), cache-cold, us\n +clear_highpage +"
                      r"folio_zero_range +folio_zero_user\n((?: +\d%s%s%s\n){5}) +avg%s%s%s\n"
                      r" +95%% CI +\[" % (n, us, us, us, us, us, us), b.log, re.M)
        b.expect(m is not None, "seed 003's block for N=%d: five runs, avg, 95%% CI" % n)
    recs = bench_records(b, "seed003")
    b.expect(len(recs) == 9 and all(len(r["runs_ns"]) == 5 and r["zeroed"] and
                                    r["ci_lo_ns"] <= r["avg_ns"] <= r["ci_hi_ns"] and
                                    r["seed_avg_us"] is None for r in recs),
             "nine seed003 records, five runs each, zeroed, no seed figure at test sizes")
    b.expect({(r["n_folios"], r["fn"]) for r in recs} ==
             {(n, f) for n in (1, 4, 16) for f in ("clear_highpage", "folio_zero_range",
                                                 "folio_zero_user")},
             "seed003 records: %s" % sorted((r["n_folios"], r["fn"]) for r in recs))
    # the tables without the records and LAVA lines the image puts between their rows
    text = "\n".join(l for l in b.log.splitlines()
                     if not l.startswith(('{"schema"', "# ck-lava <")))
    for what in (r"sequential \(9890ecab6ad9\)", r"as merged \(7.0 folio_zero_user\)"):
        for n, size in (("1 folio", "64K"), ("16 folios", "1M")):
            b.expect(re.search(r"^# %s: target-last \(v6.17 folio_zero_user\) against %s:\n"
                               r"(?:limit: .*\n)?node0->node0 +%s +\d+\.\d\d \+- "
                               % (n, what, size), text, re.M),
                     "the order row: %s, %s" % (n, what))
    for what in ("2M batches", "whole range, one extent"):
        b.expect(re.search(r"^# 4K batches against %s:\n(?:limit: .*\n)?node0->node0   4M "
                           % what, text, re.M), "the batch row: %s" % what)
    b.expect(len(re.findall(r"^  upstream \S+ .*\(AMD (Genoa|Milan); upstream's figure, not "
                            r"measured here\)", b.log, re.M)) == 5,
             "upstream's five figures, labelled as upstream's")
    b.expect(not bench_records(b, "json-error"), "JSON writer errors")
    unique_ids(b)


def t_bench_migrate(b):
    """bench=migrate tiny, -smp 4: all 4 CPUs verify every migration and ack every shootdown."""
    cpus, runs = 4, 3
    b.run("exit=qemu tests=none bench=migrate bench_runs=%d bench_tiny=yes" % runs,
          extra=["-smp %d" % cpus])
    b.status_is(PASS)
    b.has(r"^== preset migrate ==$")
    b.has(r"^bench: migrate: %d online CPUs read every folio" % cpus)
    b.has(r"^bench: migrate: not built: 1 GiB leaves, the sweep over 1\.\.N CPUs, the hosted")
    b.has(r"^bench: migrate: under a hypervisor .* the times say nothing about hardware")
    b.expect("bench: FAILED" not in b.log, "no preset failure: %s" %
             re.findall(r"^bench: FAILED.*$", b.log, re.M)[:4])
    for size in ("4K", "2M"):
        m = re.search(r"^bench: migrate: %s verified: (\d+) migrations, after each all (\d+) "
                      r"CPUs read the copied data" % size, b.log, re.M)
        b.expect(m and int(m.group(1)) == 2 * runs and int(m.group(2)) == cpus,
                 "%s: %d migrations verified by %d CPUs: %s" % (size, 2 * runs, cpus,
                                                               m and m.groups()))
        m = re.search(r"^bench: migrate: %s shootdowns: (\d+), acknowledgements (\d+) \((\d+) "
                      r"CPUs each\)" % size, b.log, re.M)
        b.expect(m and int(m.group(1)) == 2 * runs and int(m.group(2)) == cpus * 2 * runs
                 and int(m.group(3)) == cpus,
                 "%s: every shootdown acknowledged by the %d CPUs QEMU was given: %s"
                 % (size, cpus, m and m.groups()))
        b.has(r"^bench: migrate: %s Amdahl: copy share \d+\.\d%% x copy speed-up \d+\.\d{3}x "
              r"predicts \d+\.\d{3}x end to end; measured \d+\.\d{3}x$" % size)
    recs = bench_records(b, "migrate")
    b.expect(sorted((r["folio_bytes"], r["copy"]) for r in recs) ==
             sorted((sz, c) for sz in (4096, 2097152) for c in ("batched", "per_page")),
             "migrate records: %s" % [(r.get("folio_bytes"), r.get("copy")) for r in recs])
    b.expect(all(r["cpus"] == cpus and r["rounds"] == runs and r["copy_ns"] > 0 and
                 r["shootdown_ns"] > 0 and r["total_ns"] > 0 and 0 <= r["copy_share"] <= 1
                 for r in recs), "every record: %d CPUs, %d rounds, timed phases" % (cpus, runs))
    b.expect(not bench_records(b, "json-error"), "JSON writer errors")
    unique_ids(b)
