/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stats.h - robust summary statistics for benchmark samples, in integer and fixed-point
 * arithmetic only (the image is built without floating point). Plain C, host-tested.
 *
 * Samples are durations in nanoseconds (or any positive integers). Throughputs derived
 * from them are in MB/s (10^6 bytes per second) as integers.
 */
#ifndef CK_BENCH_STATS_H
#define CK_BENCH_STATS_H

#include "kernel/include/types.h"

#define STATS_MAX	256

struct stats {
	unsigned int n;
	u64 min, max, median, q1, q3;	/* of the samples */
	u64 mean;			/* rounded down */
	u64 stddev;			/* population standard deviation, rounded down */
};

/* Summarise @n samples (sorted in place). n = 0 gives all zeros. */
void stats_compute(u64 *samples, unsigned int n, struct stats *st);

/*
 * The median of @n samples as stats_compute() gives it (the two middle values interpolated,
 * rounded down), @v left as it is; n = 0 gives 0, and at most STATS_MAX samples are read.
 */
u64 stats_median(const u64 *v, unsigned int n);

/* Integer square root (floor). */
u64 stats_isqrt(u64 v);

/* bytes over ns as MB/s; 0 when ns is 0. */
u64 stats_mbps(u64 bytes, u64 ns);

/*
 * median(a) / median(b) with a bootstrap 95% confidence interval, in parts per thousand
 * (1000 = equal). With durations, that is the speed of b relative to a (2000: b twice as
 * fast). @a and @b are paired samples from interleaved runs (a[i] and b[i] taken back to
 * back); each of @iters resamples draws n indices with replacement, the same for both, with
 * a fixed seed so results are reproducible. Returns false with fewer than 3 samples.
 */
struct ratio {
	u32 ratio_pm, lo_pm, hi_pm;
	bool significant;		/* the interval excludes 1000 */
	/*
	 * The same in parts per million (0: not known), which the tables round from: with one
	 * block, the median of the per-round ratios; with several, the mean of the blocks'
	 * medians (stats_round_ratio_placed).
	 */
	u32 ratio_ppm, lo_ppm, hi_ppm;
	/*
	 * The blocks the rounds ran in (0 or 1: one) and which interval lo/hi are: with two or
	 * more, the replication interval (stats_round_ratio_placed); else the rounds' own
	 * bootstrap interval. lo_round/hi_round always hold that bootstrap interval, and
	 * ratio_round the rounds' median it is around (ppm; 0: not known).
	 */
	u32 lo_round_ppm, hi_round_ppm, ratio_round_ppm;
	u8 placements;
	bool replication;
	bool by_process;		/* the placements were fresh processes (replicas) */
	/*
	 * stats_ratio_widen(): the least relative half-width the interval was held to (ppm of
	 * the ratio; 0: none), and the comparison's own replication interval before (ppm).
	 */
	u32 min_half_ppm, lo_own_ppm, hi_own_ppm;
	bool widened;			/* holding it to min_half_ppm made it wider */
};

bool stats_ratio(const u64 *a, const u64 *b, unsigned int n, unsigned int iters,
		 struct ratio *r);
/* (It, stats_round_ratio and stats_round_ratio_placed first clear all of *r, placements 1.) */

/*
 * The comparison method (docs/design/benchmark-method.md): @a[i] and @b[i] are the durations of
 * round i (each the minimum of k back-to-back runs, A and B alternating AB, BA, ...). The ratio is
 * the median of the per-round ratios a[i] / b[i] (so drift between rounds cancels), with a
 * percentile bootstrap 95% interval over @iters resamples of the rounds (at most STATS_BOOT_MAX),
 * drawn from @seed (the same seed gives the same interval). Rounds where a duration is 0 must have
 * been left out by the caller. Parts per thousand as above, rounded, and parts per million; false
 * with fewer than 3 rounds.
 */
#define STATS_BOOT_MAX		2000
#define STATS_SEED		0x2545f4914f6cdd1dULL

bool stats_round_ratio(const u64 *a, const u64 *b, unsigned int n, unsigned int iters,
		       u64 seed, struct ratio *r);

/*
 * The median of @n samples (as stats_median() gives it) in *@median, with a percentile
 * bootstrap 95% interval (*@lo, *@hi: the 2.5th and 97.5th percentiles of the medians of
 * @iters resamples, at most STATS_BOOT_MAX, each n samples drawn with replacement from
 * @seed; 0: STATS_SEED). The same seed gives the same interval. False (all three 0) with
 * fewer than 3 samples or more than STATS_MAX.
 */
bool stats_median_ci(const u64 *samples, unsigned int n, unsigned int iters, u64 seed,
		     u64 *median, u64 *lo, u64 *hi);

/*
 * The ratio over rounds that ran in several blocks (placements of the buffers, or fresh
 * processes; @g[i]: round i's block, 0 .. @groups - 1, every one with a round), with the
 * interval a reader takes it for: where another run's estimate is expected to lie, 95% of
 * the time (a replication interval). The ratio is the mean of the P blocks' medians; the
 * interval is it +- t(0.975, P - 1) * s * sqrt(2 / P), s the medians' sample standard
 * deviation (stats.c says why): it holds the figure of another run with as many rounds and
 * blocks, 95% of the time, where the blocks are independent. The rounds' own median and
 * bootstrap interval are kept in ratio_round, lo_round and hi_round. Fewer than 2 blocks
 * (or more than STATS_MAX_GROUPS), or a block with no round: what stats_round_ratio gives,
 * placements 1, replication false. False with fewer than 3 rounds.
 */
#define STATS_MAX_GROUPS	16

bool stats_round_ratio_placed(const u64 *a, const u64 *b, const u8 *g, unsigned int n,
			      unsigned int groups, unsigned int iters, u64 seed,
			      struct ratio *r);

/*
 * The relative half-width of @r's interval: (hi - lo) / 2 over the ratio, in ppm (0 when it
 * has no ppm ratio). What stats_rms_ppm() pools and stats_ratio_widen() holds intervals to.
 */
u32 stats_rel_half_ppm(const struct ratio *r);

/* The root mean square of @n values (ppm, floor), 0 for n = 0. */
u32 stats_rms_ppm(const u32 *v, unsigned int n);

/*
 * Hold @r's replication interval to a half-width of at least @rel_ppm of its ratio (a run's
 * pooled width: host/bench/rep.c, docs/user/benchmarks.md says why). The interval stays
 * centred on the ratio; the one the blocks gave is kept in lo_own/hi_own, min_half_ppm says
 * what it was held to, widened whether that made it wider (not where stats_rel_half_ppm()
 * of it was @rel_ppm or more). An interval that is not a replication interval, or @rel_ppm
 * 0, is left as it is (min_half_ppm 0).
 */
void stats_ratio_widen(struct ratio *r, u32 rel_ppm);

#endif
