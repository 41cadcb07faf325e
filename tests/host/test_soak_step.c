// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_soak_step.c - a CPU's pieces of a pass (soak/step.c): a small plan whose pieces
 * are listed by hand from the rules in step.h (halves, the lone page of an odd chunk, the
 * swap on odd passes, 2 MiB pieces, the keys), every page of a three-CPU, two-node plan in
 * exactly one piece per pass with its pattern index consistent, and the runs of a piece
 * around retired pages.
 */
#include "soak/step.h"
#include "tests/host/host_test.h"

#define MiB	(1ULL << 20)
#define PG	4096ULL

static struct soak_plan plan;

static void make(const struct soak_range *r, unsigned int nr, const u8 *cpus, unsigned int ncpu,
		 unsigned int nodes, u64 chunk)
{
	struct soak_plan_in in = { r, nr, cpus, ncpu, nodes, NULL, chunk };
	const char *why = NULL;

	CHECK(soak_plan_make(&in, &plan, &why) == 0, "plan: %s", why ? why : "?");
}

struct want {
	u64 src, dst, len, key, first, pair;
	bool lone;
};

static void expect(u32 pass, const struct want *w, unsigned int n)
{
	struct soak_cursor c;
	struct soak_piece pc;
	unsigned int i = 0;

	soak_cursor_init(&c);
	while (soak_step_next(&plan, 0, pass, &c, &pc)) {
		CHECK(i < n, "pass %u: piece %u too many (src %#llx)", pass, i,
		      (unsigned long long)pc.src);
		if (i < n)
			CHECK(pc.src == w[i].src && pc.dst == w[i].dst && pc.len == w[i].len &&
			      pc.key == w[i].key && pc.first == w[i].first && pc.lone == w[i].lone &&
			      (pc.lone || pc.pair == w[i].pair),
			      "pass %u piece %u: src %#llx dst %#llx len %#llx key %#llx first %#llx "
			      "pair %llu lone %d", pass, i, (unsigned long long)pc.src,
			      (unsigned long long)pc.dst, (unsigned long long)pc.len,
			      (unsigned long long)pc.key, (unsigned long long)pc.first,
			      (unsigned long long)pc.pair, pc.lone);
		i++;
	}
	CHECK(i == n, "pass %u: %u pieces, want %u", pass, i, n);
	CHECK(!soak_step_next(&plan, 0, pass, &c, &pc), "a finished pass stays finished");
}

/*
 * One CPU. [1 MiB, 2 MiB + 3 pages) in 1 MiB chunks: a chunk of 256 pages (halves of 128)
 * and one of 3 pages (halves of one page, and a lone third). [16 MiB, 24 MiB) in 8 MiB
 * chunks: one chunk of two 4 MiB halves, walked in two 2 MiB pieces.
 */
static void test_by_hand(void)
{
	static const struct soak_range r[] = { { MiB, MiB + 3 * PG, 0 } };
	static const struct soak_range big[] = { { 16 * MiB, 8 * MiB, 0 } };
	static const u8 cpu0[] = { 0 };
	static const struct want even[] = {
		{ MiB, MiB + 128 * PG, 128 * PG, 0x100, 0, 0, false },
		{ 2 * MiB, 2 * MiB + PG, PG, 0x200, 0, 1, false },
		{ 2 * MiB + 2 * PG, 2 * MiB + 2 * PG, PG, 0x202, 0, 0, true },
	};
	static const struct want odd[] = {
		{ MiB + 128 * PG, MiB, 128 * PG, 0x180, 0, 0, false },
		{ 2 * MiB + PG, 2 * MiB, PG, 0x201, 0, 1, false },
		{ 2 * MiB + 2 * PG, 2 * MiB + 2 * PG, PG, 0x202, 0, 0, true },
	};
	static const struct want pieces[] = {
		{ 16 * MiB, 20 * MiB, 2 * MiB, 0x1000, 0, 0, false },
		{ 18 * MiB, 22 * MiB, 2 * MiB, 0x1000, 2 * MiB / 8, 1, false },
	};
	static const struct want pieces_odd[] = {
		{ 20 * MiB, 16 * MiB, 2 * MiB, 0x1400, 0, 0, false },
		{ 22 * MiB, 18 * MiB, 2 * MiB, 0x1400, 2 * MiB / 8, 1, false },
	};

	make(r, 1, cpu0, 1, 1, MiB);
	expect(0, even, 3);
	expect(1, odd, 3);
	expect(2, even, 3);
	make(big, 1, cpu0, 1, 1, 8 * MiB);
	expect(0, pieces, 2);
	expect(7, pieces_odd, 2);
}

static u8 touched[4096];	/* pages of the plan below, from 64 MiB */

static void coverage(u32 pass)
{
	u64 base = 64 * MiB;

	memset(touched, 0, sizeof(touched));
	for (unsigned int cpu = 0; cpu < plan.nr_cpus; cpu++) {
		struct soak_cursor c;
		struct soak_piece pc;

		soak_cursor_init(&c);
		while (soak_step_next(&plan, cpu, pass, &c, &pc)) {
			u64 n = pc.len / PG;

			CHECK(pc.key * PG + pc.first * 8 == pc.src && !(pc.len % PG) && pc.len &&
			      pc.len <= SOAK_PIECE_MAX, "CPU %u: piece at %#llx key %#llx first %#llx",
			      cpu, (unsigned long long)pc.src, (unsigned long long)pc.key,
			      (unsigned long long)pc.first);
			CHECK(plan.node[pc.node].worker == plan.cpu_node[cpu], "CPU %u: node %u",
			      cpu, pc.node);
			for (u64 i = 0; i < n; i++) {
				touched[(pc.src - base) / PG + i]++;
				if (!pc.lone)
					touched[(pc.dst - base) / PG + i]++;
			}
		}
	}
	for (unsigned int i = 0; i < 4096; i++) {
		bool in = (i < 1536) || (i >= 2048 && i < 2048 + 1001);

		CHECK(touched[i] == in, "pass %u: page %u touched %u times", pass, i, touched[i]);
	}
}

/* Three CPUs (two on node 0), node 1 CPU-less; odd sizes so halves, lones and cuts occur. */
static void test_every_page_once(void)
{
	static const struct soak_range r[] = {
		{ 64 * MiB, 6 * MiB, 0 }, { 72 * MiB, 1001 * PG, 1 },
	};
	static const u8 cpus[] = { 0, 0, 0 };

	make(r, 2, cpus, 3, 2, MiB);
	for (u32 pass = 0; pass < 3; pass++)
		coverage(pass);
}

static u64 bad[4];
static unsigned int nr_bad;

static bool is_bad(u64 pa, void *ctx)
{
	for (unsigned int i = 0; i < nr_bad; i++)
		if (bad[i] == pa)
			return true;
	return false;
}

static void test_runs_around_retired_pages(void)
{
	struct soak_piece pc = { .src = 0x10000, .dst = 0x20000, .len = 6 * PG, .key = 0x10 };
	static const struct soak_seg want[] = {
		{ SOAK_SEG_PAIR, 0, 2 }, { SOAK_SEG_NONE, 2, 1 }, { SOAK_SEG_SRC, 3, 1 },
		{ SOAK_SEG_DST, 4, 1 }, { SOAK_SEG_PAIR, 5, 1 },
	};
	struct soak_seg s;
	unsigned int n = 0;
	u64 at = 0;

	nr_bad = 0;
	bad[nr_bad++] = 0x10000 + 2 * PG;	/* source page 2 */
	bad[nr_bad++] = 0x20000 + 2 * PG;	/* destination pages 2 and 3 */
	bad[nr_bad++] = 0x20000 + 3 * PG;
	bad[nr_bad++] = 0x10000 + 4 * PG;	/* source page 4 */
	while (soak_piece_seg(&pc, at, is_bad, NULL, &s)) {
		CHECK(n < 5 && s.kind == want[n].kind && s.page == want[n].page &&
		      s.nr == want[n].nr, "run %u: kind %d pages %llu+%llu", n, s.kind,
		      (unsigned long long)s.page, (unsigned long long)s.nr);
		at = s.page + s.nr;
		n++;
	}
	CHECK(n == 5, "%u runs, want 5", n);
	pc.first = 0x200;
	pc.dst = 0x20000 + 0x1000;
	CHECK(soak_piece_dst_key(&pc) == 0x20, "destination half's key %#llx",
	      (unsigned long long)soak_piece_dst_key(&pc));
	pc = (struct soak_piece){ .src = 0x10000 + 2 * PG, .dst = 0x10000 + 2 * PG, .len = PG,
				  .lone = true };
	CHECK(soak_piece_seg(&pc, 0, is_bad, NULL, &s) && s.kind == SOAK_SEG_NONE,
	      "a retired lone page is skipped");
	pc.src = pc.dst = 0x10000;
	CHECK(soak_piece_seg(&pc, 0, is_bad, NULL, &s) && s.kind == SOAK_SEG_SRC && s.nr == 1,
	      "a lone page is written alone");
}

int main(void)
{
	return RUN_TESTS(test_by_hand, test_every_page_once, test_runs_around_retired_pages);
}
