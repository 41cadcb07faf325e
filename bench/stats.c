// SPDX-License-Identifier: GPL-2.0-only
/*
 * stats.c - sort, quantiles, mean and standard deviation, a bootstrap interval for the
 * ratio of two medians, and the comparison method's median of per-round ratios with its
 * bootstrap interval over rounds and its replication interval over placements (a two-level
 * bootstrap). Quantiles use the "nearest rank on (n-1)" rule with linear
 * interpolation in integers.
 */
#include "bench/stats.h"

static void sort_u64(u64 *v, unsigned int n)
{
	/* Shell sort (Ciura's gaps, extended): no recursion, no allocation. */
	static const unsigned int gaps[] = { 1750, 701, 301, 132, 57, 23, 10, 4, 1 };

	for (unsigned int g = 0; g < ARRAY_SIZE(gaps); g++) {
		unsigned int gap = gaps[g];

		for (unsigned int i = gap; i < n; i++) {
			u64 t = v[i];
			unsigned int j = i;

			for (; j >= gap && v[j - gap] > t; j -= gap)
				v[j] = v[j - gap];
			v[j] = t;
		}
	}
}

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

bool stats_ratio(const u64 *a, const u64 *b, unsigned int n, unsigned int iters,
		 struct ratio *r)
{
	static u32 boot[1000];
	u64 ta[STATS_MAX], tb[STATS_MAX], seed = 0x2545f4914f6cdd1dULL, ma, mb;

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

bool stats_round_ratio(const u64 *a, const u64 *b, unsigned int n, unsigned int iters,
		       u64 seed, struct ratio *r)
{
	static u64 boot[STATS_BOOT_MAX];
	u64 v[STATS_MAX];
	unsigned int cnt[STATS_MAX];

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
	/*
	 * A resample is n rounds drawn with replacement; its median is found from how often
	 * each (sorted) round was drawn, so no resample needs sorting.
	 */
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
	r->lo_ppm = ppm32(boot[iters * 25 / 1000]);
	r->hi_ppm = ppm32(boot[(iters * 975 + 999) / 1000 - 1]);
	r->lo_pm = ppm_to_pm(r->lo_ppm);
	r->hi_pm = ppm_to_pm(r->hi_ppm);
	r->significant = r->lo_pm > 1000 || r->hi_pm < 1000;
	r->lo_round_ppm = r->lo_ppm;
	r->hi_round_ppm = r->hi_ppm;
	r->placements = 1;
	r->replication = false;
	return true;
}

/* The rounds by placement: @rank[@start[p] ..] are placement p's rounds' ranks in v. */
struct placed {
	unsigned int start[STATS_MAX_GROUPS + 1], rank[STATS_MAX];
	u64 v[STATS_MAX];		/* every round's ratio in ppm, sorted */
};

/* False when a placement has no round or a round names none of the @groups. */
static bool placed_build(const u64 *a, const u64 *b, const u8 *g, unsigned int n,
			 unsigned int groups, struct placed *pl)
{
	u64 key[STATS_MAX];
	unsigned int fill[STATS_MAX_GROUPS];

	/* ratio (held below 2^32) above, placement below: sorting the keys sorts both */
	for (unsigned int i = 0; i < n; i++) {
		if (g[i] >= groups)
			return false;
		key[i] = (u64)ppm32(b[i] ? ratio_ppm(a[i], b[i]) : 0) << 8 | g[i];
	}
	sort_u64(key, n);
	for (unsigned int p = 0; p <= groups; p++)
		pl->start[p] = 0;
	for (unsigned int i = 0; i < n; i++)
		pl->start[(key[i] & 0xff) + 1]++;
	for (unsigned int p = 0; p < groups; p++) {
		if (!pl->start[p + 1])
			return false;
		pl->start[p + 1] += pl->start[p];
		fill[p] = pl->start[p];
	}
	for (unsigned int i = 0; i < n; i++) {
		pl->v[i] = key[i] >> 8;
		pl->rank[fill[key[i] & 0xff]++] = i;
	}
	return true;
}

/*
 * One two-level resample: @groups placements drawn with replacement, then as many rounds
 * of each drawn one as it has, drawn with replacement from it; the median of all drawn
 * rounds' ratios (found from how often each sorted round was drawn, as above).
 */
static u64 placed_resample(const struct placed *pl, unsigned int n, unsigned int groups,
			   u64 *seed)
{
	unsigned int cnt[STATS_MAX], total = 0, seen = 0, lo_rank, hi_rank, i;
	u64 lo = 0;

	for (i = 0; i < n; i++)
		cnt[i] = 0;
	for (unsigned int k = 0; k < groups; k++) {
		unsigned int p = (unsigned int)(rng_next(seed) % groups);
		unsigned int first = pl->start[p], size = pl->start[p + 1] - first;

		for (unsigned int j = 0; j < size; j++)
			cnt[pl->rank[first + rng_next(seed) % size]]++;
		total += size;
	}
	lo_rank = (total - 1) / 2;
	hi_rank = total / 2;
	for (i = 0; i < n; i++) {
		if (seen <= lo_rank && lo_rank < seen + cnt[i])
			lo = pl->v[i];
		if (seen <= hi_rank && hi_rank < seen + cnt[i])
			break;
		seen += cnt[i];
	}
	return (lo + pl->v[i]) / 2;
}

/*
 * Why this interval. A reader takes an interval for where the next run's figure will be.
 * That run has its own placements and rounds: its estimate and ours differ by the
 * difference of two independent estimates, whose spread the two-level bootstrap stands in
 * for, so the half-width is the 95th percentile of |theta*_k - theta*_k+1| over independent
 * resamples k, k+1 (no normality assumed, unlike widening a percentile interval by
 * sqrt(2)). Drawing placements with replacement from P of them gives (P - 1) / P of the
 * between-placement variance a new run sees (the plug-in bias of a variance over P
 * values), a real shortfall for a few placements: the half-width is widened by
 * sqrt(P / (P - 1)). What remains is that P values tell a spread only roughly: on a model
 * where placements dominate (tests/host/test_stats_placed.c), another run's estimate falls
 * inside 93% of the time with P = 6 (the harness's default), 90% with P = 4. Drawing rounds
 * again inside drawn placements counts the rounds' spread a second time, so where the
 * placements agree the interval errs wide (98%), not narrow.
 */
bool stats_round_ratio_placed(const u64 *a, const u64 *b, const u8 *g, unsigned int n,
			      unsigned int groups, unsigned int iters, u64 seed,
			      struct ratio *r)
{
	static u64 boot[STATS_BOOT_MAX], diff[STATS_BOOT_MAX];
	static struct placed pl;
	u64 q, widen_ppm, half, mid;

	if (!stats_round_ratio(a, b, n, iters, seed, r))
		return false;
	if (groups < 2 || groups > STATS_MAX_GROUPS || !placed_build(a, b, g, n, groups, &pl))
		return true;
	if (iters > STATS_BOOT_MAX)
		iters = STATS_BOOT_MAX;
	seed = (seed ? seed : STATS_SEED) ^ 0x9e3779b97f4a7c15ULL;
	for (unsigned int k = 0; k < iters; k++)
		boot[k] = placed_resample(&pl, n, groups, &seed);
	for (unsigned int k = 0; k < iters; k++) {
		u64 x = boot[k], y = boot[(k + 1) % iters];

		diff[k] = x > y ? x - y : y - x;
	}
	sort_u64(diff, iters);
	q = diff[(iters * 95 + 99) / 100 - 1];
	widen_ppm = stats_isqrt((u64)groups * 1000000000000ULL / (groups - 1));
	half = q * widen_ppm / 1000000;
	mid = r->ratio_ppm;
	r->lo_ppm = ppm32(mid > half ? mid - half : 0);
	r->hi_ppm = ppm32(mid + half);
	r->lo_pm = ppm_to_pm(r->lo_ppm);
	r->hi_pm = ppm_to_pm(r->hi_ppm);
	r->significant = r->lo_pm > 1000 || r->hi_pm < 1000;
	r->placements = (u8)groups;
	r->replication = true;
	return true;
}
