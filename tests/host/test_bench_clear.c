// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_bench_clear.c - the figures the seed003 preset quotes, held to their sources: the
 * upstream clear figures to ktest/oracle/linux_dispatch_facts.h's lx_clear_figures, and the
 * seed's average rows to the five runs seed 003 itself lists (copied below from the seed's
 * text, so the averages are recomputed here, not read back from bench/seed003.c).
 */
#include "bench/clear_order.h"
#include "ktest/oracle/linux_dispatch_facts.h"
#include "tests/host/host_test.h"

/* Seed 003 (Kefeng Wang, 25 Oct 2024): N = 1, 100, 512; clear_highpage, zero_range, zero_user. */
static const u32 seed_runs_us[3][3][5] = {
	{ { 69, 57, 54, 54, 56 }, { 74, 62, 58, 58, 62 }, { 177, 168, 234, 157, 148 } },
	{ { 11015, 10385, 10369, 10332, 10483 }, { 11309, 11110, 11056, 11017, 11000 },
	  { 32833, 49751, 33095, 33106, 49032 } },
	{ { 55560, 55485, 55474, 55555, 55528 }, { 60055, 60024, 60129, 59867, 59932 },
	  { 156876, 157132, 156658, 157259, 157108 } },
};

static void test_seed_averages(void)
{
	for (int n = 0; n < 3; n++)
		for (int f = 0; f < 3; f++) {
			u32 sum = 0;

			for (int r = 0; r < 5; r++)
				sum += seed_runs_us[n][f][r];
			/* the mean x10 is sum * 10 / 5: exact, the seed's runs are integers */
			CHECK(seed003_avg_x10[n][f] == sum * 2, "row %d fn %d: %u, the runs give %u",
			      n, f, seed003_avg_x10[n][f], sum * 2);
		}
}

static u32 x100(double v)
{
	return (u32)(v * 100 + 0.5);
}

static void test_upstream_quotes(void)
{
	CHECK(clear_quoted_count == LX_CLEAR_FIGURES_COUNT, "%u quotes, the oracle has %zu",
	      clear_quoted_count, (size_t)LX_CLEAR_FIGURES_COUNT);
	for (unsigned int i = 0; i < clear_quoted_count && i < LX_CLEAR_FIGURES_COUNT; i++) {
		const struct bench_quoted *q = &clear_quoted[i];
		const struct lx_upstream_figure *o = &lx_clear_figures[i];

		CHECK(!strcmp(q->what, o->what) && !strcmp(q->machine, o->machine) &&
		      !strcmp(q->unit, o->unit) && !strcmp(q->source, o->source),
		      "quote %u: \"%s\" (%s, %s, %s)", i, q->what, q->machine, q->unit, q->source);
		CHECK(q->before_x100 == x100(o->before) && q->after_x100 == x100(o->after),
		      "quote %u: %u -> %u, the oracle %.2f -> %.2f", i, q->before_x100,
		      q->after_x100, o->before, o->after);
	}
}

int main(void)
{
	return RUN_TESTS(test_seed_averages, test_upstream_quotes);
}
