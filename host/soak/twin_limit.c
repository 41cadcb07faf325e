// SPDX-License-Identifier: GPL-2.0-only
/*
 * host/soak/twin_limit.c - the all-core limits from their threads' bytes and times, their
 * medians over rounds and the soak rates as shares of them (host/soak/twin_limit.h).
 */
#include "host/soak/twin_limit.h"

#define GBPS	1e9

const char *const soak_limit_names[NR_SOAK_LIMITS] = { "copy", "read", "nt-write" };

const struct soak_share_def soak_shares[NR_SOAK_SHARES] = {
	{ SOAK_RATE_CHECKED, SOAK_LIMIT_READ, 1,
	  "a checked byte is a byte read: against reading alone (the probe's scalar half-line "
	  "loads, which wider loads may pass)" },
	{ SOAK_RATE_CHECKED, SOAK_LIMIT_COPY, 2,
	  "a copy checked once on its source moves limit/2 of data: issue 38's target is 0.8" },
	{ SOAK_RATE_TRAFFIC, SOAK_LIMIT_COPY, 1,
	  "the soak reads and writes, as a copy does: traffic against a copy's traffic" },
};

double soak_limit_rate(const struct soak_limit_thread *t, unsigned int n)
{
	double sum = 0;

	for (unsigned int i = 0; i < n; i++)
		if (t[i].ns)
			sum += (double)t[i].bytes * 1e9 / (double)t[i].ns;
	return sum;
}

bool soak_limit_median(const double *v, unsigned int n, double *median, double *lo,
		       double *hi, unsigned int *used)
{
	double one[STATS_MAX];
	struct ratio q;

	for (unsigned int i = 0; i < n && i < STATS_MAX; i++)
		one[i] = GBPS;
	*median = *lo = *hi = 0;
	if (!soak_rate_ratio(v, one, MIN(n, (unsigned int)STATS_MAX), &q, used))
		return false;
	*median = q.ratio_ppm * (GBPS / 1e6);
	*lo = q.lo_ppm * (GBPS / 1e6);
	*hi = q.hi_ppm * (GBPS / 1e6);
	return true;
}

bool soak_limit_share(const double *rate, const double *limit, unsigned int div,
		      unsigned int n, struct ratio *q, unsigned int *used)
{
	double scaled[STATS_MAX];

	n = MIN(n, (unsigned int)STATS_MAX);
	for (unsigned int i = 0; i < n; i++)
		scaled[i] = div ? limit[i] / div : 0;
	return soak_rate_ratio(rate, scaled, n, q, used);
}
