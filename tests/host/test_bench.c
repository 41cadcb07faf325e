// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_bench.c - the benchmark harness with a fake clock: cases whose durations are known
 * exactly, so the summaries, the repetitions, the minimum of k, the AB/BA interleaving, the
 * disturbed and discarded rounds, the ratio and the JSON can be checked; the probe's own
 * stores; and a preset on a machine without memory for its cases, which must fail, not skip.
 */
#include "bench/harness.h"
#include "bench/presets.h"
#include "bench/probe.h"
#include "bench/stats.h"
#include "tests/host/host_test.h"
#include "tests/host/json_check.h"

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
	CHECK(evictions == 10 * BENCH_K_COLD + BENCH_WARMUP,
	      "eviction before every run, warm-ups too: %lu", evictions);
	CHECK(r.reps == 1 && r.k == BENCH_K_COLD && r.rounds == 10, "cold: one op per timing");
	evictions = 0;
	bench_run(&env, &c, BENCH_HOT, 5, &r);
	CHECK(evictions == 0, "cache-hot: no eviction");
	CHECK(r.reps == BENCH_MIN_SAMPLE_NS / 1000 && r.k == BENCH_K_HOT,
	      "a 1 us hot case is repeated to last 10 us: reps %u, k %u", r.reps, r.k);
	CHECK(r.ns.median == BENCH_MIN_SAMPLE_NS && r.mbps_median == 1048576,
	      "throughput counts every repetition: %llu MB/s", (unsigned long long)r.mbps_median);
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
	CHECK(evictions == 0 && flushes == 2 * (5 * BENCH_K_COLD + BENCH_WARMUP),
	      "flush both buffers before every run instead of evicting: %lu flushes, %lu evictions",
	      flushes, evictions);
	CHECK(flushed[0] == a && flushed[1] == b, "source, then destination");
	bench_json(&env, &c, BENCH_COLD, &r, buf, sizeof(buf));
	CHECK(strstr(buf, "\"cold_method\":\"clflushopt\"") != NULL, "JSON says how: %s", buf);
	c.flush_bytes = 0;
	flushes = 0;
	bench_run(&env, &c, BENCH_COLD, 3, &r);
	CHECK(flushes == 0 && evictions == 3 * BENCH_K_COLD + BENCH_WARMUP,
	      "a case without buffers to flush falls back to eviction");
	env.cold_flush = false;
}

static void test_compare_interleaved(void)
{
	static struct bench_result ra, rb;
	struct fake fa = { 20000, 'a' }, fb = { 10000, 'b' };
	struct bench_case a = { .api = "x", .primitive = "slow", .bytes = 4096, .fn = run,
				.ctx = &fa };
	struct bench_case b = { .api = "x", .primitive = "fast", .bytes = 4096, .fn = run,
				.ctx = &fb };
	struct ratio q;
	char buf[64];

	norder = 0;
	bench_compare(&env, &a, &b, BENCH_HOT, 3, &ra, &rb, &q);
	order[norder] = 0;
	/* warm-up, calibration (3 each), then rounds of k = 5: AB, BA, AB */
	CHECK(!strcmp(order, "abab" "aaabbb" "aaaaabbbbb" "bbbbbaaaaa" "aaaaabbbbb"),
	      "rounds alternate AB, BA: %s", order);
	CHECK(q.ratio_pm == 2000 && q.lo_pm == 2000 && q.hi_pm == 2000 && q.significant,
	      "b twice as fast: %u [%u, %u]", q.ratio_pm, q.lo_pm, q.hi_pm);
	bench_fmt_ratio(&q, buf, sizeof(buf));
	CHECK(!strcmp(buf, "2.00x [2.00, 2.00] w=0.0%"), "format: %s", buf);
	q = (struct ratio){ .ratio_pm = 1000, .lo_pm = 990, .hi_pm = 1010 };
	bench_fmt_ratio(&q, buf, sizeof(buf));
	CHECK(!strcmp(buf, "1.00x [0.99, 1.01] w=2.0% n.s."), "width beside the ratio: %s", buf);
	q.significant = false;
	bench_fmt_ratio(&q, buf, sizeof(buf));
	CHECK(strstr(buf, " n.s.") != NULL, "not significant is marked: %s", buf);
}

/*
 * Printed figures are rounded half away from zero, never truncated (issue 20: 0.987 printed
 * as 0.98x, [0.990, 1.019] as [0.99, 1.01]). The expected strings are the decimal values
 * rounded by hand.
 */
static void test_rounding(void)
{
	static const struct { u32 v, lo, hi; const char *want; } pm[] = {
		{ 987, 990, 1019, "0.99x [0.99, 1.02] w=2.9% n.s." },
		{ 985, 984, 995, "0.99x [0.98, 1.00] w=1.1% n.s." },
		{ 1994, 1995, 2005, "1.99x [2.00, 2.01] w=0.5%" },
		{ 999, 994, 1004, "1.00x [0.99, 1.00] w=1.0% n.s." },
	};
	static struct bench_result r;
	struct ratio q;
	char buf[80];

	for (unsigned int i = 0; i < ARRAY_SIZE(pm); i++) {
		q = (struct ratio){ .ratio_pm = pm[i].v, .lo_pm = pm[i].lo, .hi_pm = pm[i].hi,
				    .significant = pm[i].lo > 1000 };
		bench_fmt_ratio(&q, buf, sizeof(buf));
		CHECK(!strcmp(buf, pm[i].want), "%u [%u, %u]: %s, want %s", pm[i].v, pm[i].lo,
		      pm[i].hi, buf, pm[i].want);
	}
	/* From parts per million: 0.98449 is 0.98 (not 0.985 rounded again to 0.99). */
	q = (struct ratio){ .ratio_pm = 984, .lo_pm = 980, .hi_pm = 990, .ratio_ppm = 984490,
			    .lo_ppm = 979500, .hi_ppm = 989999 };
	bench_fmt_ratio(&q, buf, sizeof(buf));
	CHECK(!strcmp(buf, "0.98x [0.98, 0.99] w=1.1% n.s."), "from ppm: %s", buf);
	r.mbps_median = 12345;
	r.mbps_stddev = 4994;
	bench_fmt_gbps(&r, buf, sizeof(buf));
	CHECK(!strcmp(buf, "12.35 +- 4.99"), "GB/s rounded: %s", buf);
	bench_fmt_fixed(buf, sizeof(buf), 995, 1000, 2);
	CHECK(!strcmp(buf, "1.00"), "0.995 at 2 decimals: %s", buf);
	bench_fmt_fixed(buf, sizeof(buf), 49, 100, 0);
	CHECK(!strcmp(buf, "0"), "0.49 at no decimals: %s", buf);
	bench_fmt_fixed(buf, sizeof(buf), 150, 100, 0);
	CHECK(!strcmp(buf, "2"), "1.5 at no decimals: %s", buf);
	bench_fmt_fixed(buf, sizeof(buf), 7, 1000, 3);
	CHECK(!strcmp(buf, "0.007"), "leading zeros kept: %s", buf);
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

/* A case whose timings follow a script: ns per call, cycling. */
struct scripted {
	const u64 *ns;
	unsigned int n, i;
};

static void run_scripted(void *p)
{
	struct scripted *s = p;

	fake_now += s->ns[s->i++ % s->n];
}

/* Time off the CPU: @fake_lost ns are lost inside the call that starts round 2. */
static u64 fake_off_cpu = 1000, fake_lost;

static u64 off_cpu(void)
{
	return fake_off_cpu;
}

static void lose_on_call(void *p)
{
	struct scripted *s = p;

	if (s->i == 2 + 3 + 5 * 2)	/* during round 2 (after warm-up and calibration) */
		fake_off_cpu += fake_lost;
	run_scripted(p);
}

static void test_min_of_k_and_disturbed(void)
{
	static struct bench_result r;
	/* warm-up 2, calibration 3, then rounds of 5: one timing in round 1 is 5x longer */
	static const u64 spike[] = { 20000, 20000, 20000, 20000, 20000,
				     20000, 20000, 20000, 20000, 20000,
				     20000, 100000, 20000, 20000, 20000 };
	static const u64 zero[] = { 20000, 20000, 20000, 20000, 20000, 0 };
	struct scripted sc = { spike, ARRAY_SIZE(spike), 0 };
	struct bench_case c = { .api = "x", .primitive = "p", .bytes = 4096, .fn = run_scripted,
				.ctx = &sc };
	char buf[1024];

	bench_run(&env, &c, BENCH_HOT, 4, &r);
	CHECK(r.runs == 4 && r.ns.max == 20000, "the spike is not a sample: min of k (%llu)",
	      (unsigned long long)r.ns.max);
	CHECK(r.disturbed == 1 && r.discarded == 0, "one round disturbed: %u, %u discarded",
	      r.disturbed, r.discarded);
	bench_json(&env, &c, BENCH_HOT, &r, buf, sizeof(buf));
	CHECK(strstr(buf, "\"rounds\":4,\"k\":5,\"reps\":1,\"disturbed\":1,"
			  "\"discarded\":0") != NULL, "JSON counts them: %s", buf);
	sc = (struct scripted){ zero, ARRAY_SIZE(zero), 0 };
	bench_run(&env, &c, BENCH_HOT, 6, &r);
	CHECK(r.discarded == 5 && r.runs == 1, "a timing of 0 ns discards its round: %u kept, %u "
	      "discarded", r.runs, r.discarded);
	/*
	 * Off the CPU: what disturbs a round is the share of a 20 us timing lost, not that the
	 * thread was switched out at all (a 1 GiB timing always is, now and then).
	 */
	c.fn = lose_on_call;
	env.off_cpu_ns = off_cpu;
	sc = (struct scripted){ spike, 1, 0 };
	fake_lost = 100;	/* 0.5% */
	bench_run(&env, &c, BENCH_HOT, 4, &r);
	CHECK(r.disturbed == 0, "0.5%% of a timing off the CPU does not disturb it: %u",
	      r.disturbed);
	sc = (struct scripted){ spike, 1, 0 };
	fake_lost = -5ULL;	/* wall and CPU clocks skewed: 5 ns "back" */
	bench_run(&env, &c, BENCH_HOT, 4, &r);
	CHECK(r.disturbed == 0, "off-CPU time running back a little does not disturb: %u",
	      r.disturbed);
	sc = (struct scripted){ spike, 1, 0 };
	fake_lost = 400;	/* 2% */
	bench_run(&env, &c, BENCH_HOT, 4, &r);
	env.off_cpu_ns = NULL;
	CHECK(r.disturbed == 1, "2%% of a timing off the CPU disturbs its round: %u",
	      r.disturbed);
}

/* The result record is one valid JSON object; noise not measured is null, with the reason. */
static void test_result_record(void)
{
	static struct bench_result r;
	struct fake f = { 20000, 'a' };
	struct bench_case c = { .api = "api \"quoted\"", .primitive = "p", .bytes = 4096,
				.fn = run, .ctx = &f };
	char buf[1024];

	env.noise_why = "under a hypervisor";
	bench_run(&env, &c, BENCH_HOT, 3, &r);
	bench_json(&env, &c, BENCH_HOT, &r, buf, sizeof(buf));
	env.noise_why = NULL;
	CHECK(jc_valid(buf), "valid JSON: %s", buf);
	CHECK(strstr(buf, "\"api\":\"api \\\"quoted\\\"\"") != NULL, "quotes escaped: %s", buf);
	CHECK(strstr(buf, "\"smi\":null,\"eff_mhz_min\":null,\"eff_mhz_max\":null,"
			  "\"freq_changes\":null,\"not_c0\":null,"
			  "\"noise\":\"unavailable: under a hypervisor\"}") != NULL,
	      "noise unavailable: %s", buf);
	bench_json(&env, &c, BENCH_HOT, &r, buf, 100);
	CHECK(strstr(buf, "\"kind\":\"json-error\",\"error\":\"overflow\"") != NULL,
	      "a record too long for its line says so: %s", buf);
}

/*
 * probe_nt_write's contract (bench/probe_nt.asm): every 8-byte word of the range holds its
 * byte offset, a remainder below 8 bytes and everything outside are not written.
 */
static void test_nt_write(void)
{
	static u64 words[64];
	unsigned int bad = 0;

	for (u64 bytes = 0; bytes <= 8 * 60; bytes += 4) {
		memset(words, 0xa5, sizeof(words));
		probe_nt_write(&words[2], bytes);
		for (unsigned int i = 0; i < ARRAY_SIZE(words); i++) {
			u64 want = i >= 2 && (i - 2) * 8 + 8 <= bytes ? (i - 2) * 8 :
				   0xa5a5a5a5a5a5a5a5ULL;

			bad += words[i] != want;
		}
	}
	CHECK(bad == 0, "%u words wrong", bad);
}

static void test_patterns_in_json(void)
{
	static struct bench_result r;
	struct fake f = { 20000, 'a' };
	struct bench_case c = { .api = "x", .primitive = "p", .bytes = 4096, .fn = run,
				.ctx = &f, .src_pattern = "random", .dst_pattern = "zero" };
	char buf[1024];

	bench_run(&env, &c, BENCH_HOT, 3, &r);
	bench_json(&env, &c, BENCH_HOT, &r, buf, sizeof(buf));
	CHECK(strstr(buf, "\"src_pattern\":\"random\",\"dst_pattern\":\"zero\"") != NULL,
	      "patterns recorded: %s", buf);
}

static void test_stosb_write(void)
{
	static u8 bytes[300];
	unsigned int bad = 0;

	for (u64 n = 0; n <= 256; n += 7) {
		memset(bytes, 0xa5, sizeof(bytes));
		probe_stosb_write(&bytes[16], n, 0x15a);	/* only the low byte is stored */
		for (unsigned int i = 0; i < ARRAY_SIZE(bytes); i++)
			bad += bytes[i] != (i >= 16 && i < 16 + n ? 0x5a : 0xa5);
	}
	CHECK(bad == 0, "%u bytes wrong", bad);
}

static unsigned int failed_lines, quiet_skips;

/* A line that says a case was not measured is a failed line, never a remark. */
static void count_failed(const char *l)
{
	bool failed = !strncmp(l, "bench: FAILED: ", 15);

	failed_lines += failed;
	quiet_skips += !failed && (strstr(l, "no memory") || strstr(l, "no room") ||
				   strstr(l, "skipped") || strstr(l, "not run"));
}

static void *no_memory(size_t bytes)
{
	(void)bytes;
	return NULL;
}

/* Every preset that needs memory, on a machine that has none: a failed line each, no skip. */
static void test_no_memory_fails(void)
{
	static const enum bench_preset need[] = { PRESET_RFC, PRESET_V3, PRESET_CLEAR,
						  PRESET_PRIMITIVES, PRESET_PATTERNS, PRESET_BIG };
	struct bench_platform p = { .alloc = no_memory, .runs = 3, .max_bytes = 1ULL << 30 };
	struct bench_env e = env;

	e.out = count_failed;
	for (unsigned int i = 0; i < ARRAY_SIZE(need); i++) {
		unsigned int f0 = bench_failures(), l0 = failed_lines;
		unsigned int n = bench_preset_run(need[i], &e, &p);

		CHECK(n == 0, "%s ran %u cases without memory", bench_preset_names[need[i]], n);
		CHECK(bench_failures() > f0 && failed_lines - l0 == bench_failures() - f0,
		      "%s: %u failures counted, %u 'bench: FAILED' lines", bench_preset_names[need[i]],
		      bench_failures() - f0, failed_lines - l0);
	}
	CHECK(quiet_skips == 0, "%u lines say a case was not measured without failing it",
	      quiet_skips);
}

/*
 * The probe's clock: the s-th stream it runs (best of PROBE_BEST_OF) takes s + 1 ms a time,
 * in the order the probe runs them on a CPU without AVX2 or CLZERO: read, zeros by rep
 * stosb, rep stosq, mov, movnti, then 0x5a by rep stosb, non-zero movnti, rep movsb copy.
 */
static u64 tick_ns;
static unsigned int ticks;

static u64 probe_clock(void)
{
	unsigned int pair = ticks++ / 2;

	if (ticks & 1)
		return tick_ns;			/* a stream starts */
	tick_ns += (pair / PROBE_BEST_OF + 1) * 1000000ULL;
	return tick_ns;
}

static char bw_lines[2048];

static void keep_bw(const char *l)
{
	if (strstr(l, "\"bandwidth\"") && strlen(bw_lines) + strlen(l) < sizeof(bw_lines))
		strcat(bw_lines, l);
}

static void *page_alloc(size_t bytes)
{
	return aligned_alloc(4096, bytes);
}

/* Each clear against the zero write of its own store (copy/clear.asm, nt.asm), a copy the copy. */
static void test_like_for_like_limit(void)
{
	struct bench_platform p = { .alloc = page_alloc, .runs = 3, .max_bytes = 64ULL << 20,
				    .tiny = true };
	static const struct { unsigned int impl, ms; const char *store; } want[] = {
		{ CLEAR_PAGE_ERMS, 2, "rep stosb" }, { CLEAR_PAGE_REP, 3, "rep stosq" },
		{ CLEAR_PAGE_UNROLLED, 4, "mov" }, { CLEAR_PAGE_NT, 5, "movnti" } };
	struct bench_case copy = { .bytes = 4096, .src_pattern = "random" };
	struct bench_result r = { .mbps_median = 0 };
	struct bench_env e = env;
	const char *what;

	e.now_ns = probe_clock;
	e.out = keep_bw;
	CHECK(probe_ensure(&e, &p), "the probe ran");
	for (unsigned int i = 0; i < ARRAY_SIZE(want); i++) {
		struct bench_case c = { .bytes = 4096, .src_pattern = "none",
					.clear_store = (u8)(1 + want[i].impl) };
		u64 lim = probe_limit(&c, &what);

		CHECK(lim == stats_mbps(PROBE_TINY, want[i].ms * 1000000ULL) &&
		      !strcmp(what, want[i].store), "clear %u: limit %llu MB/s of %s", want[i].impl,
		      (unsigned long long)lim, what);
	}
	/* rep movsb: twice 4 MiB of traffic in 8 ms (no NT copy without AVX2). */
	CHECK(probe_limit(&copy, &what) == stats_mbps(2 * PROBE_TINY, 8000000) &&
	      !strcmp(what, "copy"), "copy limit %llu", (unsigned long long)probe_limit(&copy, &what));
	/* A copy at half the limit's data rate is 50% of it: its traffic is twice its MB/s. */
	r.mbps_median = stats_mbps(PROBE_TINY, 16000000);
	CHECK(probe_share(&copy, &r) == 50, "share %llu", (unsigned long long)probe_share(&copy, &r));
	CHECK(strstr(bw_lines, "\"probe\":\"movnti write, zeros\",\"store\":\"movnti\","
			       "\"data\":\"zero\"") != NULL, "records: %s", bw_lines);
}

int main(void)
{
	return RUN_TESTS(test_run_summary, test_cold_by_flush, test_compare_interleaved,
			 test_rounding, test_format, test_min_of_k_and_disturbed, test_patterns_in_json,
			 test_result_record, test_nt_write, test_stosb_write, test_no_memory_fails,
			 test_like_for_like_limit);
}
