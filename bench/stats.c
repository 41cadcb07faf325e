// SPDX-License-Identifier: GPL-2.0-only
/*
 * stats.c - sort, quantiles, mean and standard deviation, a bootstrap interval for a
 * median and for the ratio of two medians, and the comparison method's median of per-round ratios with its
 * bootstrap interval over rounds, and over blocks (placements or processes) the mean of the
 * blocks' medians with its replication interval (Student's t). Quantiles use the "nearest
 * rank on (n-1)" rule with linear interpolation in integers.
 */
#include "bench/stats.h"
#include "kernel/lib/sort.h"

/* Quantile q/4 of sorted v: position q * (n - 1) / 4, interpolated. */
static u64 quartile(const u64 *v, unsigned int n, unsigned int q)
{
	u64 pos4 = (u64)q * (n - 1);		/* position times 4 */
	u64 lo = pos4 / 4, frac = pos4 % 4;

	if (lo + 1 >= n || !frac)
		return v[lo];
	return v[lo] + (v[lo + 1] - v[lo]) * frac / 4;
}

u64 stats_isqrt(u64 v)
{
	u64 r = 0, bit = 1ULL << 62;

	while (bit > v)
		bit >>= 2;
	while (bit) {
		if (v >= r + bit) {
			v -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return r;
}

u64 stats_mbps(u64 bytes, u64 ns)
{
	if (!ns)
		return 0;
	/* bytes * 1000 / ns = MB/s; split to avoid overflow for large byte counts. */
	return bytes / ns * 1000 + bytes % ns * 1000 / ns;
}

void stats_compute(u64 *s, unsigned int n, struct stats *st)
{
	u64 sum = 0, var = 0;

	*st = (struct stats){ .n = n };
	if (!n)
		return;
	sort_u64(s, n);
	st->min = s[0];
	st->max = s[n - 1];
	st->median = quartile(s, n, 2);
	st->q1 = quartile(s, n, 1);
	st->q3 = quartile(s, n, 3);
	for (unsigned int i = 0; i < n; i++)
		sum += s[i];
	st->mean = sum / n;
	for (unsigned int i = 0; i < n; i++) {
		u64 d = s[i] > st->mean ? s[i] - st->mean : st->mean - s[i];

		var += d * d / n;
	}
	st->stddev = stats_isqrt(var);
}

static u64 rng_next(u64 *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static u64 median_of(u64 *tmp, unsigned int n)
{
	sort_u64(tmp, n);
	return quartile(tmp, n, 2);
}

u64 stats_median(const u64 *v, unsigned int n)
{
	u64 tmp[STATS_MAX];

	n = MIN(n, (unsigned int)STATS_MAX);
	if (!n)
		return 0;
	for (unsigned int i = 0; i < n; i++)
		tmp[i] = v[i];
	return median_of(tmp, n);
}

bool stats_ratio(const u64 *a, const u64 *b, unsigned int n, unsigned int iters,
		 struct ratio *r)
{
	static u32 boot[1000];
	u64 ta[STATS_MAX], tb[STATS_MAX], seed = 0x2545f4914f6cdd1dULL, ma, mb;

	*r = (struct ratio){ .placements = 1 };
	if (n < 3 || n > STATS_MAX)
		return false;
	if (iters > ARRAY_SIZE(boot))
		iters = ARRAY_SIZE(boot);
	for (unsigned int i = 0; i < n; i++) {
		ta[i] = a[i];
		tb[i] = b[i];
	}
	ma = median_of(ta, n);
	mb = median_of(tb, n);
	/* Durations: b taking longer than a means b is slower; report throughput ratio b/a. */
	r->ratio_pm = mb ? (u32)(ma * 1000 / mb) : 0;
	for (unsigned int k = 0; k < iters; k++) {
		for (unsigned int i = 0; i < n; i++) {
			unsigned int j = (unsigned int)(rng_next(&seed) % n);

			ta[i] = a[j];
			tb[i] = b[j];	/* paired: the same index for both */
		}
		ma = median_of(ta, n);
		mb = median_of(tb, n);
		boot[k] = mb ? (u32)(ma * 1000 / mb) : 0;
	}
	/* 2.5th and 97.5th percentiles of the bootstrap distribution. */
	for (unsigned int i = 1; i < iters; i++)
		for (unsigned int j = i; j > 0 && boot[j] < boot[j - 1]; j--) {
			u32 t = boot[j];

			boot[j] = boot[j - 1];
			boot[j - 1] = t;
		}
	r->lo_pm = boot[iters * 25 / 1000];
	r->hi_pm = boot[(iters * 975 + 999) / 1000 - 1];
	r->significant = r->lo_pm > 1000 || r->hi_pm < 1000;
	return true;
}

/* a / b in parts per million, without overflow for any a below 2^64 / 10^6 * b. */
static u64 ratio_ppm(u64 a, u64 b)
{
	return a / b * 1000000 + a % b * 1000000 / b;
}

/* The median of sorted @v (n >= 1), the two middle values averaged. */
static u64 median_sorted(const u64 *v, unsigned int n)
{
	return (v[(n - 1) / 2] + v[n / 2]) / 2;
}

static u32 ppm_to_pm(u64 ppm)
{
	return (u32)((ppm + 500) / 1000);
}

/* A ratio in ppm as a u32: no real ratio is 4294x, a degenerate one is held there. */
static u32 ppm32(u64 ppm)
{
	return ppm > 0xffffffffULL ? 0xffffffffU : (u32)ppm;
}

/*
 * @iters medians of resamples of the sorted @v (n drawn with replacement, from @seed), sorted
 * into @boot. A resample's median is found from how often each (sorted) value was drawn, so no
 * resample needs sorting.
 */
static void boot_medians(const u64 *v, unsigned int n, unsigned int iters, u64 seed, u64 *boot)
{
	unsigned int cnt[STATS_MAX];

	for (unsigned int k = 0; k < iters; k++) {
		unsigned int seen = 0, lo_rank = (n - 1) / 2, hi_rank = n / 2, i;
		u64 lo = 0;

		for (i = 0; i < n; i++)
			cnt[i] = 0;
		for (i = 0; i < n; i++)
			cnt[rng_next(&seed) % n]++;
		for (i = 0; i < n; i++) {
			if (seen <= lo_rank && lo_rank < seen + cnt[i])
				lo = v[i];
			if (seen <= hi_rank && hi_rank < seen + cnt[i])
				break;
			seen += cnt[i];
		}
		boot[k] = (lo + v[i]) / 2;
	}
	sort_u64(boot, iters);
}

bool stats_median_ci(const u64 *samples, unsigned int n, unsigned int iters, u64 seed,
		     u64 *median, u64 *lo, u64 *hi)
{
	static u64 boot[STATS_BOOT_MAX];
	u64 v[STATS_MAX];

	*median = *lo = *hi = 0;
	if (n < 3 || n > STATS_MAX || !iters)
		return false;
	iters = MIN(iters, (unsigned int)STATS_BOOT_MAX);
	for (unsigned int i = 0; i < n; i++)
		v[i] = samples[i];
	sort_u64(v, n);
	*median = median_sorted(v, n);
	boot_medians(v, n, iters, seed ? seed : STATS_SEED, boot);
	*lo = boot[iters * 25 / 1000];
	*hi = boot[(iters * 975 + 999) / 1000 - 1];
	return true;
}

bool stats_round_ratio(const u64 *a, const u64 *b, unsigned int n, unsigned int iters,
		       u64 seed, struct ratio *r)
{
	static u64 boot[STATS_BOOT_MAX];
	u64 v[STATS_MAX];

	*r = (struct ratio){ .placements = 1 };
	if (n < 3 || n > STATS_MAX || !iters)
		return false;
	if (iters > STATS_BOOT_MAX)
		iters = STATS_BOOT_MAX;
	if (!seed)
		seed = STATS_SEED;	/* xorshift never leaves 0 */
	for (unsigned int i = 0; i < n; i++)
		v[i] = b[i] ? ratio_ppm(a[i], b[i]) : 0;
	sort_u64(v, n);
	r->ratio_ppm = ppm32(median_sorted(v, n));
	r->ratio_pm = ppm_to_pm(r->ratio_ppm);
	boot_medians(v, n, iters, seed, boot);
	r->lo_ppm = ppm32(boot[iters * 25 / 1000]);
	r->hi_ppm = ppm32(boot[(iters * 975 + 999) / 1000 - 1]);
	r->lo_pm = ppm_to_pm(r->lo_ppm);
	r->hi_pm = ppm_to_pm(r->hi_ppm);
	r->significant = r->lo_pm > 1000 || r->hi_pm < 1000;
	r->lo_round_ppm = r->lo_ppm;
	r->hi_round_ppm = r->hi_ppm;
	r->ratio_round_ppm = r->ratio_ppm;
	r->placements = 1;
	r->replication = false;
	return true;
}

/*
 * t(0.975, df) for df = 1 .. STATS_MAX_GROUPS - 1, in parts per million: the two-sided 95%
 * points of Student's t distribution, as printed in any statistics table.
 */
static const u32 t975_ppm[] = {
	12706205, 4302653, 3182446, 2776445, 2570582, 2446912, 2364624, 2306004,
	2262157, 2228139, 2200985, 2178813, 2160369, 2144787, 2131450,
};
_Static_assert(ARRAY_SIZE(t975_ppm) == STATS_MAX_GROUPS - 1, "a t point for every B");

/*
 * The blocks' medians: block_med[p] is the median of the per-round ratios (ppm) of the rounds
 * with @g[i] == p. False when a round names none of the @groups or a block has no round.
 */
static bool block_medians(const u64 *a, const u64 *b, const u8 *g, unsigned int n,
			  unsigned int groups, u64 *block_med)
{
	u64 v[STATS_MAX];

	for (unsigned int i = 0; i < n; i++)
		if (g[i] >= groups)
			return false;
	for (unsigned int p = 0; p < groups; p++) {
		unsigned int m = 0;

		for (unsigned int i = 0; i < n; i++)
			if (g[i] == p)
				v[m++] = b[i] ? ratio_ppm(a[i], b[i]) : 0;
		if (!m)
			return false;
		sort_u64(v, m);
		block_med[p] = ppm32(median_sorted(v, m));
	}
	return true;
}

/*
 * Why this interval. A reader takes an interval for where the next run's figure will be.
 * That run has its own blocks (fresh processes, or placements of the buffers) and rounds,
 * as many as ours. The blocks are the independent units, so the figure is the mean of the
 * P blocks' medians (batch means), and the next run's mean differs from ours by the
 * difference of two independent means of P: standard deviation s * sqrt(2 / P), from the
 * sample standard deviation s of our P medians. With s estimated from P values, the 95%
 * point is Student's t with P - 1 degrees of freedom, not 1.96 (12.7 for P = 2: two blocks
 * say little about a spread). A block's median already carries its rounds' noise, so
 * nothing is counted twice. What the blocks share (anything that lasts the whole run) is
 * in no s, and no interval built inside a run can see it. On the simulated model of
 * tests/host/test_stats_placed.c, 1.96 in place of t holds another run's figure 895 times
 * in 1000, the pooled median of all rounds with this half-width 928, this 952.
 */
bool stats_round_ratio_placed(const u64 *a, const u64 *b, const u8 *g, unsigned int n,
			      unsigned int groups, unsigned int iters, u64 seed,
			      struct ratio *r)
{
	u64 med[STATS_MAX_GROUPS], sum = 0, ss = 0, mean, sd, half, root2p;

	if (!stats_round_ratio(a, b, n, iters, seed, r))
		return false;
	if (groups < 2 || groups > STATS_MAX_GROUPS || !block_medians(a, b, g, n, groups, med))
		return true;
	for (unsigned int p = 0; p < groups; p++)
		sum += med[p];
	mean = sum / groups;
	for (unsigned int p = 0; p < groups; p++) {
		u64 d = med[p] > mean ? med[p] - mean : mean - med[p];

		/* held below 2^30 ppm (a 1073x spread): 16 squares stay below 2^64 */
		d = MIN(d, (1ULL << 30) - 1);
		ss += d * d;
	}
	sd = stats_isqrt(ss / (groups - 1));
	root2p = stats_isqrt(2000000000000ULL / groups);		/* sqrt(2 / P), ppm */
	half = sd * ((u64)t975_ppm[groups - 2] * root2p / 1000000) / 1000000;
	r->ratio_ppm = ppm32(mean);
	r->ratio_pm = ppm_to_pm(r->ratio_ppm);
	r->lo_ppm = ppm32(mean > half ? mean - half : 0);
	r->hi_ppm = ppm32(mean + half);
	r->lo_pm = ppm_to_pm(r->lo_ppm);
	r->hi_pm = ppm_to_pm(r->hi_ppm);
	r->significant = r->lo_pm > 1000 || r->hi_pm < 1000;
	r->placements = (u8)groups;
	r->replication = true;
	return true;
}

u32 stats_rel_half_ppm(const struct ratio *r)
{
	if (!r->ratio_ppm || r->hi_ppm < r->lo_ppm)
		return 0;
	/* (hi - lo) / 2 * 10^6 / ratio, rounded: ratios below 2^32 ppm keep this in 64 bits */
	return ppm32(((u64)(r->hi_ppm - r->lo_ppm) * 500000 + r->ratio_ppm / 2) / r->ratio_ppm);
}

u32 stats_rms_ppm(const u32 *v, unsigned int n)
{
	u64 ss = 0;

	if (!n)
		return 0;
	for (unsigned int i = 0; i < n; i++) {
		u64 x = MIN(v[i], 1u << 28);	/* a 268x half-width at most: squares below 2^56 */

		ss += x * x / n;
	}
	return ppm32(stats_isqrt(ss));
}

void stats_ratio_widen(struct ratio *r, u32 rel_ppm)
{
	u64 half;

	r->widened = false;
	r->min_half_ppm = 0;
	if (!r->replication || !rel_ppm || !r->ratio_ppm)
		return;
	r->min_half_ppm = rel_ppm;
	r->lo_own_ppm = r->lo_ppm;
	r->hi_own_ppm = r->hi_ppm;
	/* compared as stats_rel_half_ppm() gave it, so a row at the floor is not widened */
	if (stats_rel_half_ppm(r) >= rel_ppm)
		return;
	half = ((u64)r->ratio_ppm * rel_ppm + 500000) / 1000000;
	half = MAX(half, MAX((u64)r->ratio_ppm - r->lo_ppm, (u64)r->hi_ppm - r->ratio_ppm));
	r->lo_ppm = ppm32(r->ratio_ppm > half ? r->ratio_ppm - half : 0);
	r->hi_ppm = ppm32(r->ratio_ppm + half);
	r->lo_pm = ppm_to_pm(r->lo_ppm);
	r->hi_pm = ppm_to_pm(r->hi_ppm);
	r->significant = r->lo_pm > 1000 || r->hi_pm < 1000;
	r->widened = true;
}
