// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_bench_placed.c - bench_compare over placements with a fake clock and a fake
 * re-placement: the rounds run in consecutive blocks, each buffer is moved once per block
 * after the first, the rounds are labelled with their block, and the interval is the
 * replication interval over the blocks; a move that fails keeps the rounds where they were
 * and the count says so; an environment that cannot move, or a case without buffers, runs
 * on one placement and says that.
 */
#include "bench/harness.h"
#include "tests/host/host_test.h"

static u64 fake_now;
static unsigned int placement, moves, moves_ok = ~0u;
static const void *moved[64];

static u64 now(void)
{
	return fake_now;
}

static u64 cyc(void)
{
	return fake_now * 3;
}

static void out(const char *line)
{
	(void)line;
}

/* The baseline takes 20 us, 5% longer on each placement; the candidate 10 us. */
static void run_base(void *ctx)
{
	(void)ctx;
	fake_now += 20000 + 1000 * placement;
}

static void run_cand(void *ctx)
{
	(void)ctx;
	fake_now += 10000;
}

static bool place(const void *addr, u64 bytes)
{
	(void)bytes;
	if (moves >= moves_ok)
		return false;
	if (moves < ARRAY_SIZE(moved))
		moved[moves] = addr;
	placement += !(moves++ & 1);	/* two buffers a placement */
	return true;
}

static struct bench_env env = { .now_ns = now, .cycles = cyc, .cycles_per_us = 3000,
				.out = out, .machine = "fake", .place = place, .placements = 4 };
static u8 src[4096], dst[4096];

static void compare(struct bench_case *a, struct bench_case *b, unsigned int rounds,
		    struct ratio *q, struct bench_result *ra)
{
	static struct bench_result rb;

	placement = moves = 0;
	bench_compare(&env, a, b, BENCH_HOT, rounds, ra, &rb, q);
}

static void test_blocks(void)
{
	static struct bench_result ra;
	struct bench_case a = { .api = "x", .primitive = "base", .bytes = 4096, .fn = run_base,
				.flush_a = src, .flush_b = dst, .flush_bytes = 4096 };
	struct bench_case b = a;
	struct ratio q;
	bool blocks = true;

	b.primitive = "cand";
	b.fn = run_cand;
	compare(&a, &b, 12, &q, &ra);
	CHECK(moves == 6, "3 moves of 2 buffers for 4 placements: %u", moves);
	CHECK(moved[0] == src && moved[1] == dst, "the source, then the destination");
	for (unsigned int i = 0; i < 12; i++)
		blocks &= ra.placed[i] == i / 3;
	CHECK(blocks && ra.runs == 12, "rounds 0-2 on placement 0, 3-5 on 1, ...");
	CHECK(q.placements == 4 && q.replication, "4 placements: %u", q.placements);
	/* per-placement ratios 2.0, 2.1, 2.2, 2.3: their mean (and the pooled median) 2.15 */
	CHECK(q.ratio_ppm == 2150000, "ratio %u", q.ratio_ppm);
	CHECK(q.lo_ppm < 2150000 && q.hi_ppm > 2150000, "[%u, %u]", q.lo_ppm, q.hi_ppm);
	CHECK(q.lo_round_ppm >= 2000000 && q.hi_round_ppm <= 2300000, "the rounds' CI kept");

	/* 4 asked, but 5 rounds hold only 2 (one placement per two rounds) */
	compare(&a, &b, 5, &q, &ra);
	CHECK(q.placements == 2 && moves == 2, "5 rounds: %u placements", q.placements);

	/* the third move fails (the second pair): the rest stay on the first moved placement */
	moves_ok = 3;
	compare(&a, &b, 12, &q, &ra);
	moves_ok = ~0u;
	CHECK(q.placements == 2 && ra.placed[11] == 1, "a failed move: %u placements",
	      q.placements);

	/* no buffers named: nothing to move */
	a.flush_a = b.flush_a = NULL;
	compare(&a, &b, 12, &q, &ra);
	CHECK(q.placements == 1 && !q.replication && moves == 0, "no buffers: one placement");
	a.flush_a = b.flush_a = src;

	/* an environment that cannot move */
	env.place = NULL;
	compare(&a, &b, 12, &q, &ra);
	env.place = place;
	CHECK(q.placements == 1 && !q.replication && q.lo_ppm == q.lo_round_ppm,
	      "cannot move: the rounds' CI, named so");
}

int main(void)
{
	return RUN_TESTS(test_blocks);
}
