// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_parallel.c - the parallel preset (bench/parallel.c) over a fake par_ops: fake CPUs
 * on fake nodes with known bandwidth (each CPU alone, and a cap per node shared by the CPUs
 * running there), a fake clock that advances by exactly bytes / bandwidth, release skew,
 * one slow round, and CPUs that fail to answer (from the start, or from some run on).
 * Checks the per-CPU and aggregate figures, the spread, the scaling curve, which CPUs each
 * group uses, the JSON and LAVA lines and how failures are reported. No wall clock.
 */
#include <stdarg.h>

#include "bench/parallel.h"
#include "tests/host/host_test.h"
#include "tests/host/json_check.h"

#define NCPU	6
#define BYTES	1024000ULL	/* 250 pages: 10000 MB/s is exactly 102400 ns */

struct fake {
	unsigned int nr_cpus;
	int node[NCPU];
	u64 bw[NCPU];			/* MB/s alone */
	u64 node_cap[2];		/* MB/s of a node, shared (0: none) */
	u64 skew_ns[NCPU];		/* a CPU's start after the release */
	int dead;			/* this CPU never answers ... */
	unsigned int dead_from;		/* ... from this run on (counted over all runs) */
	bool dead_says_ok;		/* run returns 0 anyway (the harness must notice) */
	int no_mem_node;		/* alloc fails on this node (-1: never) */
	unsigned int slow_run;		/* this run takes twice as long on every CPU (0: none) */
	/* state */
	u64 now, start[NCPU], stop[NCPU];
	unsigned int reads[NCPU], cur, runs, last_n, last_cpus[NCPU];
	void *mem[4 * NCPU + 4];
	unsigned int nmem;
};

static struct fake fk;

static int f_node(void *ctx, unsigned int cpu)
{
	return ((struct fake *)ctx)->node[cpu];
}

static unsigned int f_id(void *ctx, unsigned int cpu)
{
	(void)ctx;
	return 100 + cpu;
}

static void *f_alloc(void *ctx, unsigned int node, u64 bytes)
{
	struct fake *f = ctx;
	void *p;

	if ((int)node == f->no_mem_node || f->nmem >= ARRAY_SIZE(f->mem))
		return NULL;
	p = aligned_alloc(4096, ALIGN_UP(bytes, 4096));
	f->mem[f->nmem++] = p;
	return p;
}

/* The clock: a CPU's first read is its release time, the second its finish time. */
static u64 f_clock(void *ctx)
{
	struct fake *f = ctx;
	unsigned int c = f->cur;

	return f->reads[c]++ == 0 ? f->start[c] : f->stop[c];
}

static int f_run(void *ctx, const unsigned int *cpus, unsigned int n,
		 void (*fn)(void *arg, unsigned int i), void *arg)
{
	struct fake *f = ctx;
	unsigned int on_node[2] = { 0, 0 };
	bool missed = false;
	u64 end = f->now;

	f->runs++;
	f->last_n = n;
	for (unsigned int i = 0; i < n; i++) {
		on_node[f->node[cpus[i]]]++;
		f->last_cpus[i] = cpus[i];
	}
	for (unsigned int i = 0; i < n; i++) {
		unsigned int c = cpus[i], nd = f->node[c];
		u64 rate = f->bw[c];

		if (f->node_cap[nd] && f->node_cap[nd] / on_node[nd] < rate)
			rate = f->node_cap[nd] / on_node[nd];
		f->start[c] = f->now + f->skew_ns[c];
		f->stop[c] = f->start[c] + BYTES * 1000 / rate * (f->runs == f->slow_run ? 2 : 1);
		f->reads[c] = 0;
		end = MAX(end, f->stop[c]);
		if ((int)c == f->dead && f->runs >= f->dead_from) {
			missed = true;
			continue;
		}
		f->cur = c;
		fn(arg, i);
	}
	f->now = end + 1000;
	return missed && !f->dead_says_ok ? -PAR_ETIMEDOUT : 0;
}

static struct par_ops ops = { .cpu_node = f_node, .cpu_id = f_id, .alloc = f_alloc,
			      .run = f_run, .clock = f_clock, .clock_hz = 1000000000ULL,
			      .ctx = &fk };

/* Captured output. */
static char lines[400][1024];
static unsigned int nlines;

static void out(const char *l)
{
	if (nlines < ARRAY_SIZE(lines))
		snprintf(lines[nlines++], sizeof(lines[0]), "%s", l);
}

/* How many lines hold every one of the NULL-terminated strings. */
static unsigned int count(const char *s, ...)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < nlines; i++) {
		va_list ap;
		const char *t = s;
		bool all = true;

		va_start(ap, s);
		for (; t; t = va_arg(ap, const char *))
			all = all && strstr(lines[i], t);
		va_end(ap);
		n += all;
	}
	return n;
}

/* Every captured line that starts a JSON record is one whole, valid JSON object. */
static unsigned int bad_records(void)
{
	unsigned int bad = 0;

	for (unsigned int i = 0; i < nlines; i++)
		if (lines[i][0] == '{' && !jc_valid(lines[i]) && bad++ < 3)
			printf("# not JSON: %s\n", lines[i]);
	return bad;
}

/* The text lines (not the JSON), after a failed check. */
static void dump(void)
{
	for (unsigned int i = 0; i < nlines; i++)
		if (lines[i][0] != '{')
			printf("# | %s\n", lines[i]);
}

static struct par_config cfg = { .ops = &ops, .out = out, .machine = "fake", .bytes = BYTES,
				 .rounds = 5, .lava = true };

/* Six CPUs, three a node, 10000 MB/s each alone; node caps as given. */
static void reset(u64 cap0, u64 cap1)
{
	for (unsigned int i = 0; i < fk.nmem; i++)
		free(fk.mem[i]);
	fk = (struct fake){ .nr_cpus = NCPU, .node = { 0, 0, 0, 1, 1, 1 },
			    .node_cap = { cap0, cap1 }, .dead = -1, .no_mem_node = -1 };
	for (unsigned int c = 0; c < NCPU; c++)
		fk.bw[c] = 10000;
	ops.nr_cpus = NCPU;
	nlines = 0;
}

static void test_counts(void)
{
	unsigned int c[16], n;

	n = par_counts(1, c, 16);
	CHECK(n == 1 && c[0] == 1, "1 CPU: %u steps", n);
	n = par_counts(2, c, 16);
	CHECK(n == 2 && c[1] == 2, "2 CPUs: %u steps", n);
	n = par_counts(6, c, 16);
	CHECK(n == 4 && c[0] == 1 && c[1] == 2 && c[2] == 4 && c[3] == 6, "6: %u steps", n);
	n = par_counts(8, c, 16);
	CHECK(n == 4 && c[3] == 8, "8: a power of two is not repeated (%u steps)", n);
	CHECK(par_counts(0, c, 16) == 0, "no CPUs, no steps");
	CHECK(par_counts(5, c, 0) == 0, "no room, no steps");
	CHECK(par_counts(384, c, 16) == 10 && c[8] == 256 && c[9] == 384, "384 CPUs");
}

static void test_measure(void)
{
	static struct par_step st;
	unsigned int cpus[2] = { 0, 1 };

	reset(0, 0);
	fk.bw[1] = 8000;
	fk.skew_ns[1] = 200;
	CHECK(par_setup(&cfg) == NCPU, "every CPU ready");
	fk.slow_run = fk.runs + 4;	/* warm-up, then the third timed round is slow */
	par_measure(&cfg, PAR_MEMCPY, cpus, 2, &st);
	CHECK(st.err == 0 && st.nr_failed == 0, "no error: %d", st.err);
	CHECK(st.rounds == 5 && st.n == 2 && st.bytes == BYTES, "rounds %u", st.rounds);
	CHECK(fk.last_n == 2 && fk.last_cpus[0] == 0 && fk.last_cpus[1] == 1, "ran on 0 and 1");
	CHECK(st.per_cpu_mbps[0] == 10000 && st.per_cpu_mbps[1] == 8000,
	      "per CPU: %llu %llu", (unsigned long long)st.per_cpu_mbps[0],
	      (unsigned long long)st.per_cpu_mbps[1]);
	/* The union: 2 x BYTES from CPU 0's start to CPU 1's stop, 200 + 128000 ns. */
	CHECK(st.agg_mbps == 2 * BYTES * 1000 / 128200, "aggregate %llu (the union, not the sum"
	      " 18000)", (unsigned long long)st.agg_mbps);
	CHECK(st.agg_max_mbps == st.agg_mbps, "max: %llu", (unsigned long long)st.agg_max_mbps);
	CHECK(st.agg_min_mbps == 2 * BYTES * 1000 / 256200, "the slow round is the min: %llu",
	      (unsigned long long)st.agg_min_mbps);
	CHECK(st.skew_ns == 200, "skew %llu", (unsigned long long)st.skew_ns);
	/* CPU 0 stops at 102400, CPU 1 at 200 + 128000. */
	CHECK(st.end_skew_ns == 25800, "end skew %llu", (unsigned long long)st.end_skew_ns);
	reset(0, 0);
}

static void test_curves_and_nodes(void)
{
	int good;

	reset(24000, 24000);	/* a node moves 24000 MB/s at most: 3 CPUs get 8000 each */
	good = (int)bench_parallel(&cfg);
	/* Per primitive: machine-wide 1, 2, 4, 6 and per node 1, 2, 3. */
	CHECK(good == NR_PAR_PRIMS * 10, "steps %d", good);
	CHECK(count("\"kind\":\"parallel\"", NULL) == NR_PAR_PRIMS * 10, "JSON lines: %u",
	      count("\"kind\":\"parallel\"", NULL));
	/* Machine-wide: round-robin over the nodes, ids through cpu_id. */
	CHECK(count("\"primitive\":\"copy_page\"", "\"nr_cpus\":2,\"node\":\"all\","
		    "\"cpus\":[100,103]", "\"aggregate_mbps\":20000,", "\"scaling\":1.000", NULL)
	      == 1, "2 CPUs machine-wide: one per node, no contention");
	CHECK(count("\"primitive\":\"memcpy\"", "\"nr_cpus\":4,\"node\":\"all\","
		    "\"cpus\":[100,103,101,104]", "\"aggregate_mbps\":40000,", "\"scaling\":1.000",
		    NULL) == 1, "4 machine-wide");
	CHECK(count("\"primitive\":\"clear_pages\"", "\"nr_cpus\":6,\"node\":\"all\","
		    "\"cpus\":[100,103,101,104,102,105]",
		    "\"per_cpu_mbps\":[8000,8000,8000,8000,8000,8000]",
		    "\"aggregate_mbps\":48000,", "\"single_cpu_mbps\":10000,", "\"scaling\":0.800",
		    "\"error\":null", NULL) == 1, "6 machine-wide: the node caps");
	/* Per node: that node's CPUs in order. */
	CHECK(count("\"primitive\":\"clear_page\"", "\"nr_cpus\":3,\"node\":1,",
		    "\"cpus\":[103,104,105]", "\"aggregate_mbps\":24000,", "\"scaling\":0.800",
		    NULL) == 1, "node 1, 3 CPUs");
	CHECK(count("\"nr_cpus\":2,\"node\":0,", "\"cpus\":[100,101]", "\"scaling\":1.000",
		    "\"aggregate_mbps\":20000,", NULL) == NR_PAR_PRIMS,
	      "node 0, 2 CPUs: 12000 each allowed, 10000 each run");
	CHECK(count("# ck-lava <bench.parallel.copy_mc_to_kernel.node1.n3 pass 24000 MB/s>",
		    NULL) == 1, "a LAVA figure per step");
	CHECK(count("# ck-lava <", NULL) == NR_PAR_PRIMS * 10, "LAVA lines %u",
	      count("# ck-lava <", NULL));
	CHECK(count("parallel: 6 CPUs on 2 nodes", NULL) == 1, "the header");
	CHECK(count("all    6     48.00 [48.00, 48.00]        0.800    0.0/0.0            ",
		    "8.00 8.00 8.00 8.00 8.00 8.00", NULL) == NR_PAR_PRIMS, "table rows");
	if (ht_case_failed)
		dump();
}

static void test_one_node(void)
{
	reset(0, 0);
	for (unsigned int c = 0; c < NCPU; c++)
		fk.node[c] = 0;
	ops.nr_cpus = 3;
	CHECK(bench_parallel(&cfg) == NR_PAR_PRIMS * 3, "1, 2, 3 CPUs machine-wide only");
	CHECK(count("\"node\":0", NULL) == 0, "no per-node curve with one node");
	CHECK(count("one node: the machine-wide curve is the node's", NULL) == 1, "said so");
}

static void test_cpu_never_answers(void)
{
	reset(0, 0);
	fk.dead = 4;
	fk.dead_from = 1;		/* not even the fill */
	CHECK(bench_parallel(&cfg) == NR_PAR_PRIMS * (4 + 3 + 2), "5 CPUs: 1 2 4 5; 1 2 3; 1 2");
	CHECK(count("CPU 104 (node 1) did not run its part when filling", "-110", "timed out",
		    NULL) == 1, "named once, with the error");
	CHECK(count("parallel: 5 CPUs on 2 nodes", NULL) == 1, "five left");
	CHECK(count("\"cpus\":[", "104", NULL) == 0, "never used");
	if (ht_case_failed)
		dump();
}

static void test_cpu_stops_answering(void)
{
	unsigned int good;

	reset(0, 0);
	fk.dead = 4;
	fk.dead_from = 1 + 6 * 2 + 1;	/* the fill; copy_page's steps 1, 2 (6 runs each); 4 */
	good = bench_parallel(&cfg);
	CHECK(count("\"primitive\":\"copy_page\"", "\"nr_cpus\":4,\"node\":\"all\"",
		    "\"cpus\":[100,103,101,104]", "\"failed_cpus\":[104]", "\"error\":-110}",
		    NULL) == 1, "the failed step's JSON");
	CHECK(count("# ck-lava <bench.parallel.copy_page.all.n4 fail>", NULL) == 1, "LAVA fail");
	CHECK(count("all    4     failed: error -110 (timed out), 1 CPU did not run", NULL) == 1,
	      "table row");
	CHECK(count("CPU 104 (node 1) did not run its part in a step", NULL) == 1, "named");
	/* From there on the five left: the curve ends with all of them, node 1 has two. */
	CHECK(count("\"primitive\":\"copy_page\"", "\"nr_cpus\":5,\"node\":\"all\"",
		    "\"cpus\":[100,103,101,105,102]", "\"scaling\":", NULL) == 1,
	      "copy_page goes on with the CPUs left");
	CHECK(count("\"node\":1,", "104", NULL) == 0, "node 1 without it");
	CHECK(count("\"nr_cpus\":3,\"node\":1,", NULL) == 0, "node 1 has two CPUs left");
	CHECK(good == 3 + 3 + 2 + (NR_PAR_PRIMS - 1) * (4 + 3 + 2), "good steps %u", good);
	CHECK(bad_records() == 0, "every record, failed steps' too, is valid JSON");
	if (ht_case_failed)
		dump();
}

static void test_silent_failure(void)
{
	static struct par_step st;
	unsigned int cpus[3] = { 3, 4, 5 };

	reset(0, 0);
	CHECK(par_setup(&cfg) == NCPU, "ready");
	fk.dead = 4;
	fk.dead_from = 0;
	fk.dead_says_ok = true;		/* run says 0 but CPU 4 never ran fn */
	par_measure(&cfg, PAR_CLEAR_PAGE, cpus, 3, &st);
	CHECK(st.err == -PAR_EIO && st.nr_failed == 1 && st.failed[0] == 4,
	      "err %d, %u failed", st.err, st.nr_failed);
}

static void test_no_memory(void)
{
	reset(0, 0);
	fk.no_mem_node = 1;
	CHECK(bench_parallel(&cfg) == NR_PAR_PRIMS * 3, "node 0's three CPUs only");
	CHECK(count("no memory for 2 x 1000 KiB on node 1: left out", NULL) == 3, "named");
	reset(0, 0);
	fk.no_mem_node = 0;
	fk.node[3] = fk.node[4] = fk.node[5] = 0;
	CHECK(bench_parallel(&cfg) == 0, "nothing ready");
	CHECK(count("no CPU could run", NULL) == 1, "said so");
	reset(0, 0);
}

int main(void)
{
	return RUN_TESTS(test_counts, test_measure, test_curves_and_nodes, test_one_node,
			 test_cpu_never_answers, test_cpu_stops_answering, test_silent_failure,
			 test_no_memory);
}
