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
};

bool stats_ratio(const u64 *a, const u64 *b, unsigned int n, unsigned int iters,
		 struct ratio *r);

#endif
