// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_soak_limit_share.c - host/soak/twin_limit.c: the all-core limit from its threads' bytes
 * and times, a limit's median over rounds with its interval, and a soak rate as a share of
 * the matching limit with its interval.
 *
 * Expected values are worked by hand: the limit is the sum of each thread's bytes over its
 * own time (as host/soak/twin_peer.h sums the soak's rates); the median of three rounds is
 * the middle one, and the percentile bootstrap of a median of three resampled rounds is
 * bounded by the smallest and the largest (each is the resample's median with probability
 * 7/27, far above 2.5%, so both percentiles land on them whatever the seed). Which limit a
 * share uses is the brief's rule (traffic against the copy limit).
 */
#include <math.h>

#include "host/soak/twin_limit.h"
#include "tests/host/host_test.h"

static bool near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fabs(b) + 1e-3;
}

/* 6 GB in 2 s and 4 GB in 1 s: 3 + 4 = 7 GB/s; a thread of no time adds nothing. */
static void test_limit_rate(void)
{
	const struct soak_limit_thread t[] = {
		{ 6000000000ULL, 2000000000ULL }, { 4000000000ULL, 1000000000ULL },
		{ 5000000000ULL, 0 },
	};

	CHECK(near(soak_limit_rate(t, 3), 7e9), "7 GB/s: %.0f", soak_limit_rate(t, 3));
	CHECK(near(soak_limit_rate(t, 1), 3e9), "one thread 3 GB/s: %.0f",
	      soak_limit_rate(t, 1));
	CHECK(soak_limit_rate(t, 0) == 0, "no threads: 0");
}

/* Rounds of 10, 30 and 20 GB/s (and a failed one): 20 [10, 30]. */
static void test_limit_median(void)
{
	const double v[] = { 10e9, 30e9, 0, 20e9 };
	double med, lo, hi;
	unsigned int used;

	CHECK(soak_limit_median(v, 4, &med, &lo, &hi, &used) && used == 3, "3 of 4 rounds: %u",
	      used);
	CHECK(near(med, 20e9) && near(lo, 10e9) && near(hi, 30e9), "%.0f [%.0f, %.0f]", med,
	      lo, hi);
	CHECK(!soak_limit_median(v, 3, &med, &lo, &hi, &used) && used == 2,
	      "two good rounds: no figure");
}

/* 5, 10, 15 GB/s against a limit of 20 in every round: 0.5 [0.25, 0.75]; against half, twice. */
static void test_share(void)
{
	const double rate[] = { 5e9, 10e9, 15e9, 7e9 }, limit[] = { 20e9, 20e9, 20e9, 0 };
	const double drift[] = { 10e9, 20e9, 40e9 }, lim2[] = { 20e9, 40e9, 80e9 };
	struct ratio q;
	unsigned int used;

	CHECK(soak_limit_share(rate, limit, 1, 4, &q, &used) && used == 3, "the round without a "
	      "limit left out: %u", used);
	CHECK(q.ratio_pm == 500 && q.lo_pm == 250 && q.hi_pm == 750, "0.5 [0.25, 0.75]: %u [%u, "
	      "%u]", q.ratio_pm, q.lo_pm, q.hi_pm);
	CHECK(soak_limit_share(rate, limit, 2, 3, &q, &used) && q.ratio_pm == 1000 &&
	      q.lo_pm == 500 && q.hi_pm == 1500, "over half the limit: %u [%u, %u]", q.ratio_pm,
	      q.lo_pm, q.hi_pm);
	/* the machine drifts by 4x over the rounds, the share does not: 0.5 [0.5, 0.5] */
	CHECK(soak_limit_share(drift, lim2, 1, 3, &q, &used) && q.ratio_pm == 500 &&
	      q.lo_pm == 500 && q.hi_pm == 500, "per-round shares: %u [%u, %u]", q.ratio_pm,
	      q.lo_pm, q.hi_pm);
	CHECK(!soak_limit_share(rate, limit, 1, 2, &q, &used), "two rounds: no figure");
}

/* The brief's rule: traffic against the copy limit whole; checked against read and copy/2. */
static void test_share_defs(void)
{
	bool traffic_copy = false, checked_half_copy = false, checked_read = false;

	for (int k = 0; k < NR_SOAK_SHARES; k++) {
		const struct soak_share_def *d = &soak_shares[k];

		traffic_copy |= d->rate == SOAK_RATE_TRAFFIC && d->limit == SOAK_LIMIT_COPY &&
				d->div == 1;
		checked_half_copy |= d->rate == SOAK_RATE_CHECKED && d->limit == SOAK_LIMIT_COPY &&
				     d->div == 2;
		checked_read |= d->rate == SOAK_RATE_CHECKED && d->limit == SOAK_LIMIT_READ &&
				d->div == 1;
		CHECK(d->why && d->why[0], "share %d says why", k);
	}
	CHECK(traffic_copy, "traffic / copy");
	CHECK(checked_half_copy, "checked / (copy / 2)");
	CHECK(checked_read, "checked / read");
	CHECK(!strcmp(soak_limit_names[SOAK_LIMIT_COPY], "copy") &&
	      !strcmp(soak_limit_names[SOAK_LIMIT_READ], "read") &&
	      !strcmp(soak_limit_names[SOAK_LIMIT_NT_WRITE], "nt-write"), "the names the schema "
	      "allows");
}

int main(void)
{
	return RUN_TESTS(test_limit_rate, test_limit_median, test_share, test_share_defs);
}
