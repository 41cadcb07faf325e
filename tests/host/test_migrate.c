// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_migrate.c - the migrate preset's arithmetic (bench/migrate_calc.c) against figures
 * worked by hand: Amdahl's law forward (T / (T - C + C')) and inverted (the copy share that
 * the seeds' 2x copy gain and 1.07-1.18x move_pages gain imply), phase medians against the
 * median of the totals, shares rounded to the nearest thousandth, the sweep's CPU counts
 * listed by hand from the rule "powers of two below N, then N", and the forms' order.
 */
#include "bench/migrate_calc.h"
#include "tests/host/host_test.h"

static void test_share(void)
{
	u64 ns[MIG_NR_PHASES] = { 1, 1, 1, 0 }, none[MIG_NR_PHASES] = { 0 };

	CHECK(mig_total(ns) == 3, "total %llu", (unsigned long long)mig_total(ns));
	/* 1/3 = 0.3333: 333 thousandths; 2/3 would round to 667. */
	CHECK(mig_share_pm(ns, MIG_COPY) == 333, "share %u", mig_share_pm(ns, MIG_COPY));
	ns[MIG_COPY] = 2;
	CHECK(mig_share_pm(ns, MIG_COPY) == 500, "share %u", mig_share_pm(ns, MIG_COPY));
	CHECK(mig_share_pm(none, MIG_COPY) == 0, "an empty round has no share");
}

static void test_medians(void)
{
	struct mig_round r[3] = { { { 1, 2, 3, 4 } }, { { 5, 6, 7, 8 } }, { { 3, 1, 2, 9 } } };
	u64 med[MIG_NR_PHASES], total, scratch[3];

	mig_medians(r, 3, scratch, med, &total);
	/* By hand: unmap {1,5,3} 3, shootdown {2,6,1} 2, copy {3,7,2} 3, remap {4,8,9} 8. */
	CHECK(med[MIG_UNMAP] == 3 && med[MIG_SHOOTDOWN] == 2 && med[MIG_COPY] == 3 &&
	      med[MIG_REMAP] == 8, "medians %llu %llu %llu %llu", (unsigned long long)med[0],
	      (unsigned long long)med[1], (unsigned long long)med[2], (unsigned long long)med[3]);
	/* Totals 10, 26, 15 -> 15, not the medians' sum 16. */
	CHECK(total == 15, "median total %llu", (unsigned long long)total);
	CHECK(r[0].ns[MIG_COPY] == 3, "the rounds are left as they were");
}

static void test_amdahl(void)
{
	u64 pp[MIG_NR_PHASES] = { 10, 20, 70, 0 }, b1[MIG_NR_PHASES] = { 10, 20, 35, 0 };
	u64 b2[MIG_NR_PHASES] = { 5, 5, 35, 5 };
	struct mig_amdahl a;

	/* Only the copy halves: 100 / (100 - 70 + 35) = 1.538; measured 100 / 65 the same. */
	mig_amdahl(pp, 100, b1, 65, &a);
	CHECK(a.copy_share_pm == 700 && a.copy_speedup_pm == 2000, "share %u speed-up %u",
	      a.copy_share_pm, a.copy_speedup_pm);
	CHECK(a.predicted_pm == 1538 && a.measured_pm == 1538, "predicted %u measured %u",
	      a.predicted_pm, a.measured_pm);
	/* The other phases shrink too: measured 100 / 50 = 2.000, Amdahl still 1.538. */
	mig_amdahl(pp, 100, b2, 50, &a);
	CHECK(a.predicted_pm == 1538 && a.measured_pm == 2000, "predicted %u measured %u",
	      a.predicted_pm, a.measured_pm);
	mig_amdahl(pp, 0, b1, 0, &a);
	CHECK(a.measured_pm == 0 && a.copy_share_pm == 0, "no time: no ratios");
}

static void test_inverse(void)
{
	/*
	 * Seed 000/002: the copy 2x faster, move_pages 1.07x and 1.18x. s = (1 - 1/r)/(1 - 1/k):
	 * 0.0654 / 0.5 = 0.1308 and 0.1525 / 0.5 = 0.3051. Forward check by hand:
	 * 1 / (1 - 0.131 + 0.0655) = 1.070.
	 */
	CHECK(mig_share_for_pm(2000, 1070) == 131, "share %u", mig_share_for_pm(2000, 1070));
	CHECK(mig_share_for_pm(2000, 1180) == 305, "share %u", mig_share_for_pm(2000, 1180));
	/* The whole gain equal to the copy's: the copy is all of it. */
	CHECK(mig_share_for_pm(2000, 2000) == 1000, "share %u", mig_share_for_pm(2000, 2000));
	CHECK(mig_share_for_pm(2000, 3000) == 1000, "capped");
	CHECK(mig_share_for_pm(1000, 1100) == 0 && mig_share_for_pm(2000, 900) == 0,
	      "no copy gain or a loss: no share");
}

static bool counts_are(unsigned int n, const unsigned int *want, unsigned int nr)
{
	unsigned int got[16], k = mig_cpu_counts(n, got, 16);

	for (unsigned int i = 0; i < k && k == nr; i++)
		if (got[i] != want[i])
			return false;
	return k == nr;
}

static void test_counts(void)
{
	static const unsigned int c1[] = { 1 }, c2[] = { 1, 2 }, c3[] = { 1, 2, 3 };
	static const unsigned int c4[] = { 1, 2, 4 }, c6[] = { 1, 2, 4, 6 };
	static const unsigned int c64[] = { 1, 2, 4, 8, 16, 32, 64 };
	static const unsigned int c96[] = { 1, 2, 4, 8, 16, 32, 64, 96 };
	unsigned int out[2];

	CHECK(counts_are(1, c1, 1) && counts_are(2, c2, 2) && counts_are(3, c3, 3),
	      "1, 2 and 3 CPUs");
	CHECK(counts_are(4, c4, 3) && counts_are(6, c6, 4), "4 and 6 CPUs");
	CHECK(counts_are(64, c64, 7) && counts_are(96, c96, 8), "64 and 96 CPUs");
	CHECK(mig_cpu_counts(0, out, 2) == 0, "no CPU, no count");
	CHECK(mig_cpu_counts(96, out, 2) == 2 && out[0] == 1 && out[1] == 2, "bounded by max");
}

static void test_forms(void)
{
	unsigned int seen[MIG_NR_COPIES][MIG_NR_COPIES] = { { 0 } };

	/* Four forms; over two rounds each takes positions k and 3 - k once. */
	for (unsigned int i = 0; i < 2; i++)
		for (unsigned int k = 0; k < MIG_NR_COPIES; k++)
			seen[mig_round_form(i, k)][k]++;
	for (unsigned int f = 0; f < MIG_NR_COPIES; f++)
		for (unsigned int k = 0; k < MIG_NR_COPIES; k++)
			CHECK(seen[f][k] == (k == f || k == MIG_NR_COPIES - 1 - f),
			      "form %u at position %u: %u times", f, k, seen[f][k]);
	CHECK(!MIG_IS_MC(MIG_FC_BATCHED) && MIG_IS_MC(MIG_MC_PER_PAGE) &&
	      MIG_IS_BATCHED(MIG_MC_BATCHED) && !MIG_IS_BATCHED(MIG_MC_PER_PAGE),
	      "the forms' two bits");
}

/* The list format of Documentation/admin-guide/cputopology.rst ("0-3,8"), as sysfs writes it. */
static void test_list(void)
{
	unsigned int out[8], n;

	n = mig_parse_list("0-1\n", out, 8);
	CHECK(n == 2 && out[0] == 0 && out[1] == 1, "0-1: %u numbers", n);
	n = mig_parse_list("1,3-5,7\n", out, 8);
	CHECK(n == 5 && out[0] == 1 && out[1] == 3 && out[3] == 5 && out[4] == 7, "1,3-5,7: %u", n);
	n = mig_parse_list("0\n", out, 8);
	CHECK(n == 1 && out[0] == 0, "one node: %u", n);
	CHECK(mig_parse_list("\n", out, 8) == 0 && mig_parse_list("", out, 8) == 0, "empty");
	CHECK(mig_parse_list("0-63", out, 8) == 8 && out[7] == 7, "bounded by max");
	n = mig_parse_list("2,5-3,9", out, 8);
	CHECK(n == 1 && out[0] == 2, "a backwards range ends the list: %u", n);
	n = mig_parse_list("4,x", out, 8);
	CHECK(n == 1 && out[0] == 4, "junk ends the list: %u", n);
	CHECK(mig_parse_list("99999999999", out, 8) == 0, "a number too large");
}

int main(void)
{
	return RUN_TESTS(test_share, test_medians, test_amdahl, test_inverse, test_counts,
			 test_forms, test_list);
}
