// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_stats.c - the benchmark statistics against values worked out by hand, the bootstrap
 * ratio on constructed samples whose answer is known, and the comparison method (median of
 * per-round ratios, bootstrap interval) on simulated measurements with a known ratio, drift
 * between rounds and outliers: its 95% interval must cover the truth 93-97% of the time.
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

/* stats_median(): by hand, the even case interpolated and rounded down; the input kept. */
static void test_median(void)
{
	u64 odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 }, two[] = { 10, 21 };

	CHECK(stats_median(odd, 3) == 3, "5 1 3: %llu", (unsigned long long)stats_median(odd, 3));
	CHECK(stats_median(even, 4) == 2, "4 1 3 2: 2.5 rounded down");
	CHECK(stats_median(two, 2) == 15, "10 21: 15.5 rounded down");
	CHECK(stats_median(odd, 0) == 0, "no samples");
	CHECK(odd[0] == 5 && odd[1] == 1 && even[0] == 4 && even[3] == 2, "input left as it is");
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

/* Deterministic simulation: xorshift64 from a fixed seed. */
static u64 sim_state;

static u64 sim_next(void)
{
	sim_state ^= sim_state << 13;
	sim_state ^= sim_state >> 7;
	sim_state ^= sim_state << 17;
	return sim_state;
}

/* Uniform in [0, 1) as parts per 2^20. */
static u64 sim_unit(void)
{
	return sim_next() >> 44;
}

/*
 * One timed run of a case whose true duration is @ns: skewed positive noise (up to +60%,
 * most runs within a few percent), and 3% of runs hit by an outlier (an interruption:
 * +50%..+250%).
 */
static u64 sim_run(u64 ns)
{
	u64 u = sim_unit(), noise = ns * 6 / 10 * u / (1 << 20) * u / (1 << 20);

	if (sim_unit() < (1 << 20) * 3 / 100)
		noise += ns / 2 + ns * 2 * sim_unit() / (1 << 20);
	return ns + noise;
}

/* The minimum of @k runs. */
static u64 sim_sample(u64 ns, unsigned int k)
{
	u64 best = ~0ULL;

	for (unsigned int i = 0; i < k; i++) {
		u64 t = sim_run(ns);

		best = t < best ? t : best;
	}
	return best;
}

/*
 * @rounds rounds, A and B alternating AB, BA; A takes @ratio_pm/1000 times as long as B.
 * The machine drifts: +40% over the experiment, plus a step halfway, and a slow run of
 * rounds in the middle third (a neighbour's load), all hitting whichever case runs then.
 */
static void simulate(u64 *a, u64 *b, unsigned int rounds, unsigned int k, u32 ratio_pm)
{
	u64 base = 100000;	/* 100 us for B */

	for (unsigned int i = 0; i < rounds; i++) {
		for (unsigned int half = 0; half < 2; half++) {
			u64 t = 2 * i + half;	/* position in time */
			u64 drift = 1000 + 400 * t / (2 * rounds) + (t >= rounds ? 50 : 0) +
				    (t > 2 * rounds / 3 && t < 4 * rounds / 3 ? 200 : 0);
			bool a_now = (i & 1) ? half == 1 : half == 0;
			u64 ns = base * drift / 1000;

			if (a_now)
				a[i] = sim_sample(ns * ratio_pm / 1000, k);
			else
				b[i] = sim_sample(ns, k);
		}
	}
}

static void test_round_ratio_known(void)
{
	u64 a[30], b[30];
	struct ratio r, r2;

	for (int i = 0; i < 30; i++) {
		b[i] = 1000 + 37 * (u64)i;
		a[i] = b[i] * 21 / 20;		/* every round: A 5% slower */
	}
	CHECK(stats_round_ratio(a, b, 30, 2000, STATS_SEED, &r), "computed");
	CHECK(r.ratio_pm == 1050 && r.lo_pm == 1050 && r.hi_pm == 1050 && r.significant,
	      "a constant 1.05 per round: %u [%u, %u]", r.ratio_pm, r.lo_pm, r.hi_pm);
	for (int i = 0; i < 30; i++)
		a[i] = b[i] * (i & 1 ? 1100 : 1000) / 1000;
	stats_round_ratio(a, b, 30, 2000, STATS_SEED, &r);
	stats_round_ratio(a, b, 30, 2000, STATS_SEED, &r2);
	CHECK(r.ratio_pm == 1050 && r.lo_pm == 1000 && r.hi_pm == 1100 && !r.significant,
	      "half 1.00, half 1.10: median 1.05, interval [1.00, 1.10]: %u [%u, %u]",
	      r.ratio_pm, r.lo_pm, r.hi_pm);
	CHECK(r.ratio_pm == r2.ratio_pm && r.lo_pm == r2.lo_pm && r.hi_pm == r2.hi_pm,
	      "the same seed gives the same interval");
	CHECK(!stats_round_ratio(a, b, 2, 2000, STATS_SEED, &r), "too few rounds");
}

/*
 * Coverage: over many simulated experiments with a known ratio, drift and outliers, the
 * 95% interval must contain the true ratio 93-97% of the time; with equal cases it may
 * call a difference significant only about 5% of the time, and a 5% difference must be
 * found nearly always with the default 30 rounds.
 */
static void test_round_ratio_coverage(void)
{
	static const u32 truth[] = { 1000, 1050, 800 };
	u64 a[30], b[30];

	for (unsigned int t = 0; t < ARRAY_SIZE(truth); t++) {
		unsigned int trials = 1000, covered = 0, signif = 0;
		u64 width = 0;

		sim_state = 0x9e3779b97f4a7c15ULL + t;
		for (unsigned int n = 0; n < trials; n++) {
			struct ratio r;

			simulate(a, b, 30, 5, truth[t]);
			stats_round_ratio(a, b, 30, 2000, STATS_SEED + n, &r);
			covered += r.lo_pm <= truth[t] && truth[t] <= r.hi_pm;
			signif += r.significant;
			width += r.hi_pm - r.lo_pm;
		}
		printf("# ratio %u/1000: interval covers the truth in %u of %u, significant in "
		       "%u, mean width %llu/1000\n", truth[t], covered, trials, signif,
		       (unsigned long long)width / trials);
		CHECK(covered >= trials * 93 / 100 && covered <= trials * 97 / 100,
		      "coverage of the true ratio %u: %u of %u", truth[t], covered, trials);
		if (truth[t] == 1000)
			CHECK(signif <= trials * 7 / 100, "equal cases: %u of %u significant",
			      signif, trials);
		else
			CHECK(signif >= trials * 95 / 100, "a real difference is found: %u of %u",
			      signif, trials);
	}
}

/*
 * stats_median_ci(): by hand (a constant sample; half one value, half another), the input
 * kept, the same seed the same interval; and coverage: for samples of a uniform
 * distribution on [0, 10^6) (true median 500000), the 95% interval must hold the true median
 * in 92-98% of 1000 experiments of 31 samples (the percentile bootstrap of a median is
 * discrete: a little off 95% at this n).
 */
static void test_median_ci(void)
{
	u64 v[31], med, lo, hi, med2, lo2, hi2;
	unsigned int covered = 0, trials = 1000;
	u64 x = 0x1234567;

	for (int i = 0; i < 30; i++)
		v[i] = 777;
	CHECK(stats_median_ci(v, 30, 2000, STATS_SEED, &med, &lo, &hi), "computed");
	CHECK(med == 777 && lo == 777 && hi == 777, "constant: %llu [%llu, %llu]",
	      (unsigned long long)med, (unsigned long long)lo, (unsigned long long)hi);
	for (int i = 0; i < 30; i++)
		v[i] = i & 1 ? 1100 : 1000;
	stats_median_ci(v, 30, 2000, STATS_SEED, &med, &lo, &hi);
	stats_median_ci(v, 30, 2000, STATS_SEED, &med2, &lo2, &hi2);
	CHECK(med == 1050 && lo == 1000 && hi == 1100, "half 1000, half 1100: %llu [%llu, %llu]",
	      (unsigned long long)med, (unsigned long long)lo, (unsigned long long)hi);
	CHECK(v[0] == 1000 && v[1] == 1100, "input left as it is");
	CHECK(med == med2 && lo == lo2 && hi == hi2, "the same seed gives the same interval");
	CHECK(!stats_median_ci(v, 2, 2000, STATS_SEED, &med, &lo, &hi) && !med && !lo && !hi,
	      "too few samples");
	for (unsigned int t = 0; t < trials; t++) {
		for (int i = 0; i < 31; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			v[i] = x % 1000000;
		}
		stats_median_ci(v, 31, 2000, STATS_SEED + t, &med, &lo, &hi);
		CHECK(lo <= med && med <= hi, "the median inside its interval");
		covered += lo <= 500000 && 500000 <= hi;
	}
	printf("# median of 31 uniform samples: the interval covers 500000 in %u of %u\n",
	       covered, trials);
	CHECK(covered >= trials * 92 / 100 && covered <= trials * 98 / 100,
	      "coverage of the true median: %u of %u", covered, trials);
}

int main(void)
{
	return RUN_TESTS(test_summary, test_helpers, test_median, test_ratio, test_round_ratio_known,
			 test_round_ratio_coverage, test_median_ci);
}
