// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_stats.c - the benchmark statistics against values worked out by hand, and the
 * bootstrap ratio on constructed samples whose answer is known.
 */
#include "bench/stats.h"
#include "tests/host/host_test.h"

static void test_summary(void)
{
	u64 s[] = { 9, 1, 5, 3, 7 };
	u64 e[] = { 10, 20, 30, 40 };
	struct stats st;

	stats_compute(s, 5, &st);
	CHECK(st.min == 1 && st.max == 9 && st.median == 5, "min/max/median");
	CHECK(st.q1 == 3 && st.q3 == 7, "quartiles %llu %llu", (unsigned long long)st.q1,
	      (unsigned long long)st.q3);
	CHECK(st.mean == 5 && st.stddev == 2, "mean %llu stddev %llu (sqrt 8)",
	      (unsigned long long)st.mean, (unsigned long long)st.stddev);
	CHECK(s[0] == 1 && s[4] == 9, "sorted in place");
	stats_compute(e, 4, &st);
	CHECK(st.median == 25 && st.q1 == 17 && st.q3 == 32, "even n interpolates: %llu %llu %llu",
	      (unsigned long long)st.median, (unsigned long long)st.q1, (unsigned long long)st.q3);
	stats_compute(e, 0, &st);
	CHECK(st.n == 0 && st.median == 0, "empty");
}

static void test_helpers(void)
{
	CHECK(stats_isqrt(0) == 0 && stats_isqrt(15) == 3 && stats_isqrt(16) == 4 &&
	      stats_isqrt(1ULL << 62) == 1ULL << 31, "isqrt");
	CHECK(stats_isqrt(~0ULL) == 0xffffffffULL, "isqrt of the largest u64");
	CHECK(stats_mbps(2097152, 1000000) == 2097, "2 MiB in 1 ms = 2097 MB/s");
	CHECK(stats_mbps(1ULL << 40, 1000000000ULL) == 1099511, "1 TiB/s does not overflow");
	CHECK(stats_mbps(1, 0) == 0, "zero time");
}

static void test_ratio(void)
{
	u64 a[21], b[21];
	struct ratio r;
	u64 x = 12345;

	for (int i = 0; i < 21; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		a[i] = 1000 + (x >> 59);		/* 1000..1031 ns */
		b[i] = 2 * a[i];			/* b takes twice as long */
	}
	CHECK(stats_ratio(a, b, 21, 1000, &r), "ratio computed");
	CHECK(r.ratio_pm == 500 && r.lo_pm <= 500 && r.hi_pm >= 500 && r.significant,
	      "b at half the speed: %u [%u, %u]", r.ratio_pm, r.lo_pm, r.hi_pm);
	for (int i = 0; i < 21; i++)
		b[i] = a[(i + 7) % 21];			/* same distribution, shuffled */
	stats_ratio(a, b, 21, 1000, &r);
	CHECK(!r.significant && r.lo_pm <= 1000 && r.hi_pm >= 1000,
	      "same distribution: not significant (%u [%u, %u])", r.ratio_pm, r.lo_pm, r.hi_pm);
	CHECK(r.hi_pm - r.lo_pm < 100, "interval narrow for 3%% noise: [%u, %u]", r.lo_pm,
	      r.hi_pm);
	CHECK(!stats_ratio(a, b, 2, 100, &r), "too few samples");
}

int main(void)
{
	return RUN_TESTS(test_summary, test_helpers, test_ratio);
}
