# SPDX-License-Identifier: GPL-2.0-only
"""bench_tests.py - the check functions of scenarios.cfg's bench rows (the image's benchmark
presets at test sizes: every preset and its JSON, the rfc preset over three NUMA nodes, one
without CPUs, the seed003 table) and two whole scenarios: the shapes of the copy_pages table
and bench=migrate on four CPUs.
"""
import json
import re

from qemu_boot import FAIL, PASS


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


def migrate_counts(n):
    """The sweep's CPU counts, from the issue's rule (powers of two, then all), not the code."""
    return sorted({1 << k for k in range(n.bit_length()) if 1 << k < n} | {n})


def t_bench_migrate(b):
    """bench=migrate tiny, -smp 4: at 1, 2, 4 CPUs all acknowledge and read the copied data."""
    cpus, runs = 4, 3
    counts = migrate_counts(cpus)
    forms = [(fn, c) for fn in ("folio_copy", "folio_mc_copy") for c in ("per_page", "batched")]
    b.run("exit=qemu tests=none bench=migrate bench_runs=%d bench_tiny=yes" % runs,
          extra=["-smp %d" % cpus])
    b.status_is(PASS)
    b.has(r"^== preset migrate ==$")
    b.has(r"^bench: migrate: %d online CPUs; at each count of %s they read every folio"
          % (cpus, ", ".join(str(c) for c in counts)))
    b.has(r"^bench: migrate: hosted \(the kernel's munmap and mmap, not these phases\): "
          r"ck-bench --preset migrate$")
    b.has(r"^bench: migrate: under a hypervisor .* the times say nothing about hardware")
    b.expect("bench: FAILED" not in b.log, "no preset failure: %s" %
             re.findall(r"^bench: FAILED.*$", b.log, re.M)[:4])
    text = "\n".join(l for l in b.log.splitlines()
                     if not l.startswith(('{"schema"', "# ck-lava <"))) + "\n"
    for size in ("4K", "2M"):
        for c in counts:
            m = re.search(r"^bench: migrate: %s cpus=%d: verified: (\d+) migrations, after each "
                          r"all (\d+) CPUs? read the copied data" % (size, c), b.log, re.M)
            b.expect(m and int(m.group(1)) == 4 * runs and int(m.group(2)) == c,
                     "%s at %d CPUs: %d migrations verified by %d CPUs: %s"
                     % (size, c, 4 * runs, c, m and m.groups()))
            m = re.search(r"^bench: migrate: %s cpus=%d: shootdowns: (\d+), acknowledgements "
                          r"(\d+) \((\d+) CPUs? each\)" % (size, c), b.log, re.M)
            b.expect(m and int(m.group(1)) == 4 * runs and int(m.group(2)) == c * 4 * runs
                     and int(m.group(3)) == c,
                     "%s at %d CPUs: every shootdown acknowledged by all %d: %s"
                     % (size, c, c, m and m.groups()))
            for fn in ("folio_copy", "folio_mc_copy"):
                b.has(r"^bench: migrate: %s cpus=%d: %s Amdahl: copy share \d+\.\d%% x copy "
                      r"speed-up \d+\.\d{3}x predicts \d+\.\d{3}x end to end; measured "
                      r"\d+\.\d{3}x$" % (size, c, fn))
        m = re.search(r"^bench: migrate: %s over CPU counts, one row each.*\n.*\n((?:.*\n){%d})"
                      % (size, len(counts)), text, re.M)
        b.expect(m and [int(l.split()[0]) for l in m.group(1).splitlines()] == counts,
                 "%s: the summary has one row per CPU count %s" % (size, counts))
    recs = bench_records(b, "migrate")
    b.expect(sorted((r["folio_bytes"], r["cpus"], r["fn"], r["copy"]) for r in recs) ==
             sorted((sz, c, fn, f) for sz in (4096, 2097152) for c in counts
                    for fn, f in forms),
             "a migrate record per size, CPU count and form: %s"
             % [(r.get("folio_bytes"), r.get("cpus"), r.get("copy")) for r in recs])
    b.expect(all(r["rounds"] == runs and r["shootdowns"] == runs and r["verified"] == runs and
                 r["acks"] == r["cpus"] * runs and r["copy_ns"] > 0 and r["total_ns"] > 0 and
                 0 <= r["copy_share"] <= 1 for r in recs),
             "every record: %d rounds, each shootdown acknowledged by all its CPUs, each "
             "migration verified" % runs)
    sweep = bench_records(b, "migrate-sweep")
    b.expect(sorted((r["folio_bytes"], r["cpus"]) for r in sweep) ==
             sorted((sz, c) for sz in (4096, 2097152) for c in counts),
             "a migrate-sweep record per size and CPU count")
    skip = bench_records(b, "migrate-not-measured")
    b.expect(len(skip) == 1 and skip[0]["folio_bytes"] == 1 << 30 and not skip[0]["failed"]
             and "test sizes" in skip[0]["why"],
             "1G not measured at test sizes, said and recorded: %s" % skip)
    b.expect(not bench_records(b, "json-error"), "JSON writer errors")
    unique_ids(b)


def t_bench_migrate_1g_promised(b):
    """bench_migrate_size=1g in 512 MiB (no room for two 1 GiB areas): the failure status."""
    # The other reason, a CPU without 1 GiB pages (cpu="Penryn": "the CPU has no 1 GiB pages
    # (CPUID X86_FEATURE_GBPAGES"), takes the same path; one boot is kept for time.
    b.run("exit=qemu tests=none bench=migrate bench_migrate_size=1g bench_tiny=yes",
          extra=["-smp 2"])
    b.status_is(FAIL)
    b.has(r"^bench: FAILED: migrate: 1G folios not measured: no memory for two areas of 1024 "
          r"MiB \(1 folio each\)")
    b.lacks(r"^bench: migrate: (4K|2M) folios", "only the size asked for")
    skip = bench_records(b, "migrate-not-measured")
    b.expect(len(skip) == 1 and skip[0]["failed"] and skip[0]["folio_bytes"] == 1 << 30,
             "recorded as failed: %s" % skip)

