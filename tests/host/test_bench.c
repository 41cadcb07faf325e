// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_bench.c - the benchmark harness with a fake clock: cases whose durations are known
 * exactly, so the summaries, the interleaving, the ratio and the JSON can be checked.
 */
#include "bench/harness.h"
#include "tests/host/host_test.h"

static u64 fake_now;
static unsigned long evictions;
static char order[64];
static int norder;

static u64 now(void)
{
	return fake_now;
}

static u64 cyc(void)
{
	return fake_now * 3;	/* a 3 GHz clock */
}

static void evict(void *ctx)
{
	(void)ctx;
	evictions++;
}

static unsigned long flushes;
static const void *flushed[64];

static void flush(const void *p, u64 bytes)
{
	(void)bytes;
	if (flushes < 64)
		flushed[flushes] = p;
	flushes++;
}

static void out(const char *l)
{
	(void)l;
}

struct fake {
	u64 ns;
	char tag;
};

static void run(void *p)
{
	struct fake *f = p;

	fake_now += f->ns;
	if (norder < 63)
		order[norder++] = f->tag;
}

static struct bench_env env = { .now_ns = now, .cycles = cyc, .cycles_per_us = 3000,
				 .evict = evict, .out = out, .machine = "test", .flush = flush };

static void test_run_summary(void)
{
	static struct bench_result r;
	struct fake f = { 1000, 'a' };
	struct bench_case c = { .api = "api", .primitive = "prim", .bytes = 1 << 20, .fn = run,
				.ctx = &f };

	evictions = 0;
	bench_run(&env, &c, BENCH_COLD, 10, &r);
	CHECK(r.runs == 10 && r.ns.median == 1000 && r.ns.min == 1000, "durations");
	CHECK(r.mbps_median == 1048576, "1 MiB in 1 us = %llu MB/s",
	      (unsigned long long)r.mbps_median);
	CHECK(r.mcyc_per_byte == 1000 * 3000 / 1048576, "cycles/byte x1000: %llu",
	      (unsigned long long)r.mcyc_per_byte);
	CHECK(evictions == 10 + BENCH_WARMUP, "eviction before every run, warm-ups too: %lu",
	      evictions);
	evictions = 0;
	bench_run(&env, &c, BENCH_HOT, 5, &r);
	CHECK(evictions == 0, "cache-hot: no eviction");
}

static void test_cold_by_flush(void)
{
	static struct bench_result r;
	static char a[4096], b[4096];
	struct fake f = { 1000, 'a' };
	struct bench_case c = { .api = "api", .primitive = "prim", .bytes = 4096, .fn = run,
				.ctx = &f, .flush_a = a, .flush_b = b, .flush_bytes = 4096 };
	char buf[600];

	evictions = flushes = 0;
	env.cold_flush = true;
	bench_run(&env, &c, BENCH_COLD, 5, &r);
	CHECK(evictions == 0 && flushes == 2 * (5 + BENCH_WARMUP),
	      "flush both buffers before every run instead of evicting: %lu flushes, %lu evictions",
	      flushes, evictions);
	CHECK(flushed[0] == a && flushed[1] == b, "source, then destination");
	bench_json(&env, &c, BENCH_COLD, &r, buf, sizeof(buf));
	CHECK(strstr(buf, "\"cold_method\":\"clflushopt\"") != NULL, "JSON says how: %s", buf);
	c.flush_bytes = 0;
	flushes = 0;
	bench_run(&env, &c, BENCH_COLD, 3, &r);
	CHECK(flushes == 0 && evictions == 3 + BENCH_WARMUP,
	      "a case without buffers to flush falls back to eviction");
	env.cold_flush = false;
}

static void test_compare_interleaved(void)
{
	static struct bench_result ra, rb;
	struct fake fa = { 2000, 'a' }, fb = { 1000, 'b' };
	struct bench_case a = { .api = "x", .primitive = "slow", .bytes = 4096, .fn = run,
				.ctx = &fa };
	struct bench_case b = { .api = "x", .primitive = "fast", .bytes = 4096, .fn = run,
				.ctx = &fb };
	struct ratio q;
	char buf[64];

	norder = 0;
	bench_compare(&env, &a, &b, BENCH_HOT, 6, &ra, &rb, &q);
	order[norder] = 0;
	CHECK(!strcmp(order, "abababababababab"), "interleaved A B A B: %s", order);
	CHECK(q.ratio_pm == 2000 && q.lo_pm == 2000 && q.hi_pm == 2000 && q.significant,
	      "b twice as fast: %u [%u, %u]", q.ratio_pm, q.lo_pm, q.hi_pm);
	bench_fmt_ratio(&q, buf, sizeof(buf));
	CHECK(!strcmp(buf, "2.00x [2.00, 2.00]"), "format: %s", buf);
	q.significant = false;
	bench_fmt_ratio(&q, buf, sizeof(buf));
	CHECK(strstr(buf, " n.s.") != NULL, "not significant is marked: %s", buf);
}

static void test_format(void)
{
	static struct bench_result r;
	struct fake f = { 1000, 'a' };
	struct bench_case c = { .api = "folio_copy", .primitive = "batched", .bytes = 2 << 20,
				.fn = run, .ctx = &f };
	char buf[600];

	bench_run(&env, &c, BENCH_HOT, 4, &r);
	bench_json(&env, &c, BENCH_HOT, &r, buf, sizeof(buf));
	CHECK(!strncmp(buf, "{\"schema\":1,\"kind\":\"result\",", 28) &&
	      strstr(buf, "\"api\":\"folio_copy\"") && strstr(buf, "\"size\":2097152") &&
	      strstr(buf, "\"mode\":\"cache-hot\"") && buf[strlen(buf) - 1] == '}',
	      "JSON line: %s", buf);
	bench_fmt_gbps(&r, buf, sizeof(buf));
	CHECK(!strcmp(buf, "2097.15 +- 0.00"), "GB/s: %s", buf);
	bench_fmt_size(256 << 10, buf, sizeof(buf));
	CHECK(!strcmp(buf, "256K"), "size %s", buf);
	bench_fmt_size(1ULL << 30, buf, sizeof(buf));
	CHECK(!strcmp(buf, "1G"), "size %s", buf);
}

int main(void)
{
	return RUN_TESTS(test_run_summary, test_cold_by_flush, test_compare_interleaved,
			 test_format);
}
