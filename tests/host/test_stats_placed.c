// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_stats_placed.c - the replication interval of stats_round_ratio_placed() against a
 * simulated two-level model whose spreads are known: each run places its buffers P times,
 * each placement shifts the true ratio by its own normal offset (sigma_b), each round adds
 * its own normal noise (sigma_w). The model is written here from that description alone
 * (floating point, near-normal offsets as a sum of twelve uniforms less six: mean 0,
 * variance 1), not from the code under test. A run's interval must hold an
 * independent run's estimate 95% of the time, whichever spread dominates; the rounds' own
 * interval, far less when the placements' spread dominates. Also the cases worked out by
 * hand, with Student's t read from a printed table, and every t point the code holds for
 * 1 .. 15 degrees of freedom against t worked out here: closed forms for 1 and 2, the
 * density integrated numerically for the rest.
 */
#include <math.h>

#include "bench/harness.h"
#include "tests/host/host_test.h"
#include "tests/host/sim_rng.h"

#define ROUNDS		30
#define PLACES		BENCH_DEFAULT_PLACEMENTS	/* 6 */
#define ITERS		1000
#define TRIALS		1000

static u64 sim = 0x243f6a8885a308d3ULL;

/*
 * One run of @ROUNDS rounds in @PLACES consecutive blocks of five: durations a (the
 * baseline) and b with a / b = 1.2 * (1 + offset of the block + noise of the round), on a
 * drifting clock both share.
 */
static void sim_run(double sb, double sw, u64 *a, u64 *b, u8 *g)
{
	double off = 0;

	for (unsigned int i = 0, p = PLACES; i < ROUNDS; i++) {
		unsigned int blk = i * PLACES / ROUNDS;
		double drift = 1.0 + 0.001 * i;

		if (blk != p) {
			p = blk;
			off = sb * sim_rng_normal(&sim);
		}
		g[i] = (u8)blk;
		b[i] = (u64)(1000000.0 * drift);
		a[i] = (u64)(1000000.0 * drift * 1.2 * (1.0 + off + sw * sim_rng_normal(&sim)));
	}
}

struct cover {
	unsigned int repl, round;
};

/* @TRIALS pairs of independent runs: how often the first's intervals hold the second's. */
static struct cover sim_cover(double sb, double sw, unsigned int groups)
{
	struct cover c = { 0, 0 };
	u64 a[ROUNDS], b[ROUNDS], a2[ROUNDS], b2[ROUNDS];
	u8 g[ROUNDS], g2[ROUNDS];

	for (unsigned int t = 0; t < TRIALS; t++) {
		struct ratio r, other;

		sim_run(sb, sw, a, b, g);
		sim_run(sb, sw, a2, b2, g2);
		stats_round_ratio_placed(a, b, g, ROUNDS, groups, ITERS, STATS_SEED + t, &r);
		stats_round_ratio_placed(a2, b2, g2, ROUNDS, groups, ITERS, STATS_SEED + t,
					 &other);
		c.repl += r.lo_ppm <= other.ratio_ppm && other.ratio_ppm <= r.hi_ppm;
		c.round += r.lo_round_ppm <= other.ratio_ppm && other.ratio_ppm <= r.hi_round_ppm;
	}
	printf("# sigma_b %.3f sigma_w %.3f: another run's estimate inside the replication "
	       "interval %u of %u, inside the rounds' interval %u\n", sb, sw, c.repl, TRIALS,
	       c.round);
	return c;
}

/*
 * The stated rate is 95%. Over 1000 independent pairs the count of hits has a binomial
 * standard deviation of sqrt(1000 * 0.95 * 0.05) = 6.9: three of them are +-21, so
 * 929..971 hits. With 1.96 in place of Student's t for 5 degrees of freedom the first model
 * gives 895 (tried); the pooled median of all rounds with this half-width 928, just below,
 * which the cases worked out by hand catch for certain.
 */
static void test_coverage_between_dominates(void)
{
	struct cover c = sim_cover(0.02, 0.005, PLACES);

	CHECK(c.repl >= 929 && c.repl <= 971, "replication interval holds another run's "
	      "estimate %u of %u (929..971)", c.repl, TRIALS);
	CHECK(c.round < 700, "the rounds' own interval holds it far less often: %u of %u",
	      c.round, TRIALS);
}

/* With no placement effect at all, the blocks' medians differ by the rounds' noise alone. */
static void test_coverage_no_placement_effect(void)
{
	struct cover c = sim_cover(0.0, 0.02, PLACES);

	CHECK(c.repl >= 929 && c.repl <= 971, "no placement effect: %u of %u (929..971)",
	      c.repl, TRIALS);
}

/* Cases worked out by hand. */
static void test_placed_known(void)
{
	u64 a[20], b[20];
	u8 g[20];
	struct ratio r, one;

	/* four placements at 1.00, 1.02, 1.04, 1.06, five rounds each, no noise inside */
	for (unsigned int i = 0; i < 20; i++) {
		g[i] = (u8)(i / 5);
		b[i] = 1000000;
		a[i] = 1000000 + 20000 * (i / 5);
	}
	CHECK(stats_round_ratio_placed(a, b, g, 20, 4, 2000, STATS_SEED, &r), "computed");
	CHECK(r.ratio_ppm == 1030000, "mean of the medians 1.03: %u", r.ratio_ppm);
	CHECK(r.placements == 4 && r.replication, "4 placements, replication interval");
	/*
	 * the mean of the four medians is 1.03, their standard deviation
	 * sqrt((0.03^2 + 0.01^2 + 0.01^2 + 0.03^2) / 3) = 0.025820, t(0.975, 3) = 3.182446:
	 * the half-width is 3.182446 * 0.025820 * sqrt(2 / 4) = 0.058104 (to 10 ppm: the code
	 * works in whole ppm)
	 */
	CHECK(r.lo_ppm >= 1030000 - 58104 - 10 && r.lo_ppm <= 1030000 - 58104 + 10,
	      "[%u, %u] is 1.03 +- 0.0581", r.lo_ppm, r.hi_ppm);
	CHECK(r.hi_ppm - 1030000 == 1030000 - r.lo_ppm, "symmetric about the estimate");
	stats_round_ratio(a, b, 20, 2000, STATS_SEED, &one);
	CHECK(r.lo_round_ppm == one.lo_ppm && r.hi_round_ppm == one.hi_ppm,
	      "the rounds' interval is kept");
	/*
	 * the figure is the mean of the blocks' medians, not the pooled median: placements at
	 * 1.00, 1.02, 1.04 and 1.10 give 1.04 (pooled median 1.03); deviations -0.04, -0.02, 0,
	 * 0.06, standard deviation sqrt(0.0056 / 3) = 0.043205, half-width
	 * 3.182446 * 0.043205 * 0.707107 = 0.097225
	 */
	for (unsigned int i = 15; i < 20; i++)
		a[i] = 1100000;
	stats_round_ratio_placed(a, b, g, 20, 4, 2000, STATS_SEED, &r);
	CHECK(r.ratio_ppm >= 1039999 && r.ratio_ppm <= 1040001, "mean of medians 1.04: %u",
	      r.ratio_ppm);
	CHECK(r.hi_ppm >= 1040000 + 97225 - 10 && r.hi_ppm <= 1040000 + 97225 + 10,
	      "[%u, %u] is 1.04 +- 0.0972", r.lo_ppm, r.hi_ppm);
	/* every placement alike: nothing varies, the interval is the point */
	for (unsigned int i = 0; i < 20; i++)
		a[i] = 1100000;
	stats_round_ratio_placed(a, b, g, 20, 4, 2000, STATS_SEED, &r);
	CHECK(r.lo_ppm == 1100000 && r.hi_ppm == 1100000, "no spread: [%u, %u]", r.lo_ppm,
	      r.hi_ppm);
	/* one placement, a placement with no round, a round of no placement: the rounds' own */
	stats_round_ratio_placed(a, b, g, 20, 1, 2000, STATS_SEED, &r);
	CHECK(r.placements == 1 && !r.replication, "one placement: the rounds' interval");
	stats_round_ratio_placed(a, b, g, 20, 5, 2000, STATS_SEED, &r);
	CHECK(r.placements == 1 && !r.replication, "placement 4 has no round");
	g[3] = 7;
	stats_round_ratio_placed(a, b, g, 20, 4, 2000, STATS_SEED, &r);
	CHECK(r.placements == 1 && !r.replication, "a round names placement 7 of 4");
	CHECK(!stats_round_ratio_placed(a, b, g, 2, 2, 2000, STATS_SEED, &r), "too few rounds");
}

/* ---- Student's t, worked out here ---- */

/*
 * The density of t with @df degrees of freedom is c * (1 + x^2 / df)^(-(df + 1) / 2), with
 * c = G((df + 1) / 2) / (sqrt(df pi) G(df / 2)). The ratio G((df + 1) / 2) / G(df / 2) needs
 * no gamma function: it is 1 / sqrt(pi) for df = 1, sqrt(pi) / 2 for df = 2, and
 * G(x + 1) = x G(x) takes it from df to df + 2 times (df + 1) / df.
 */
static double t_density_c(unsigned int df)
{
	double r = df % 2 ? 1.0 / sqrt(M_PI) : sqrt(M_PI) / 2.0;

	for (unsigned int k = df % 2 ? 1 : 2; k < df; k += 2)
		r *= (k + 1.0) / k;
	return r / sqrt(df * M_PI);
}

static double t_density(unsigned int df, double x)
{
	return t_density_c(df) * pow(1.0 + x * x / df, -(df + 1.0) / 2.0);
}

/* P(T <= t) for t >= 0: 1/2 and the density's integral over [0, t] (Simpson, 20000 steps). */
static double t_cdf(unsigned int df, double t)
{
	const unsigned int n = 20000;
	double h = t / n, sum = t_density(df, 0) + t_density(df, t);

	for (unsigned int i = 1; i < n; i++)
		sum += (i % 2 ? 4.0 : 2.0) * t_density(df, i * h);
	return 0.5 + sum * h / 3.0;
}

/*
 * The @p quantile (p > 1/2) by Newton's method from t = 1: the CDF is concave for t > 0, so
 * each step lands below the root and the steps shrink to it.
 */
static double t_quantile(unsigned int df, double p)
{
	double t = 1.0;

	for (int i = 0; i < 100; i++) {
		double step = (t_cdf(df, t) - p) / t_density(df, t);

		t -= step;
		if (fabs(step) < 1e-12)
			break;
	}
	return t;
}

/*
 * The t points stats_round_ratio_placed() uses, one per number of blocks P = 2 .. 16, read
 * back from its half-width t * s * sqrt(2 / P) (stats.h) over blocks whose medians are known:
 * P / 2 blocks at 1450 and the others at 1550 (one at 1500 when P is odd), two rounds each.
 * Their mean is 1500 and s is worked out here. Against t: tan(0.475 pi) for df = 1 (the Cauchy
 * distribution's quantile), (2p - 1) / sqrt(2p(1 - p)) for df = 2 (its CDF is
 * 1/2 + t / (2 sqrt(2 + t^2))), and t_quantile() for all; the closed forms check the
 * integration too. The code works in whole ppm: t rounded, sqrt(2 / P) as q = that in ppm
 * rounded down, t * q and the half-width each rounded down; read back, that is at most
 * 1 + (t + 10^6) / q ppm of t off (a few ppm; none for P = 2, where q is 10^6 exactly).
 */
static void test_t_points(void)
{
	const double p = 0.975, spread = 5e7;	/* ppm: the medians 50 from their mean */
	double cauchy = tan(0.475 * M_PI), df2 = (2 * p - 1) / sqrt(2 * p * (1 - p));

	CHECK(fabs(t_quantile(1, p) - cauchy) < 1e-8 && fabs(t_quantile(2, p) - df2) < 1e-8,
	      "the integration: df 1 %.9f (tan 0.475 pi %.9f), df 2 %.9f (closed form %.9f)",
	      t_quantile(1, p), cauchy, t_quantile(2, p), df2);
	for (unsigned int groups = 2; groups <= STATS_MAX_GROUPS; groups++) {
		unsigned int df = groups - 1, n = 2 * groups;
		double t = df == 1 ? cauchy : df == 2 ? df2 : t_quantile(df, p);
		double ss = 0, s, q = sqrt(2.0 / groups) * 1e6, got, tol;
		u64 a[2 * STATS_MAX_GROUPS], b[2 * STATS_MAX_GROUPS];
		u8 g[2 * STATS_MAX_GROUPS];
		struct ratio r;

		for (unsigned int i = 0; i < n; i++) {
			unsigned int blk = i / 2;
			double dev = blk % 2 ? spread : -spread;

			if (groups % 2 && blk == groups - 1)
				dev = 0;	/* the odd one out, at the mean */

			g[i] = (u8)blk;
			b[i] = 1000000;
			a[i] = (u64)(1500e6 + dev);
			if (i % 2)
				ss += dev * dev;
		}
		s = sqrt(ss / df);
		CHECK(stats_round_ratio_placed(a, b, g, n, groups, 20, STATS_SEED, &r) &&
		      r.replication && r.placements == groups && r.ratio_ppm == 1500000000,
		      "P %u: a replication interval around 1500: %u", groups, r.ratio_ppm);
		got = (r.hi_ppm - (double)r.ratio_ppm) / (s * q / 1e12);
		tol = 1 + (t * 1e6 + 1e6) / q;
		CHECK(fabs(got - t * 1e6) <= tol &&
		      r.ratio_ppm - r.lo_ppm == r.hi_ppm - r.ratio_ppm,
		      "df %u: t read back %.1f ppm, worked out %.1f (+- %.1f)", df, got, t * 1e6,
		      tol);
	}
}

int main(void)
{
	return RUN_TESTS(test_placed_known, test_t_points, test_coverage_between_dominates,
			 test_coverage_no_placement_effect);
}
