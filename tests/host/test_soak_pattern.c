// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_soak_pattern.c - the soak's pass schedule, what each area holds and its descriptors
 * (soak/pattern.c) by the properties pattern.h promises, checked on the words the
 * descriptors give through the reference generator (tests/host/sim_mem.c's ref_word, itself
 * checked against published splitmix64 values in test_soak_march.c):
 *
 * - pass 0 writes its own address first, and holds March C- ({any(w0); up(r0,w1);
 *   up(r1,w0); down(r0,w1); down(r1,w0); any(r0)}, the literature's) over zeros and ones
 *   (with only reads and writes of the value held between its elements),
 *   and each checkerboard of 1..32 bits written, inverted and written again, each after a
 *   read; a checkerboard's bit i is bit k of i;
 * - a pass starts with what the one before ended with, and every element after the soak's
 *   first reads first;
 * - the random and walking passes' inversion leaves every word (a copied one too) the
 *   complement of what it held: every cell holds both values;
 * - a copy's destination word j is its source's word (j - r) mod half, 0 < r < half, and the
 *   rotation moves from pass to pass; address data names its own address, a copy its source;
 * - walking ones have one bit set per word, moving up one bit per word, from a bit that
 *   depends on the area and the cycle; random data differs between areas, passes and seeds;
 * - row 0 comes once, the others cycle; the copy primitive rotates through every available
 *   one over consecutive pieces and never picks an unavailable one.
 */
#include "kernel/include/page_types.h"
#include "tests/host/host_test.h"
#include "tests/host/sim_mem.h"
#include "soak/pattern.h"

#define SEED	0x1234567890abcdefULL
#define HALF	16		/* pages of a test half */

static const struct soak_area h0 = { SOAK_AREA_H0, 0x100000000ULL, HALF, 0x100000000ULL + HALF * 4096 };
static const struct soak_area h1 = { SOAK_AREA_H1, 0x100000000ULL + HALF * 4096, HALF, 0x100000000ULL };
static const struct soak_area lone = { SOAK_AREA_LONE, 0x100000000ULL + 2 * HALF * 4096, 1, 0 };

static const struct soak_area *area(int k)
{
	return k == SOAK_AREA_H0 ? &h0 : k == SOAK_AREA_H1 ? &h1 : &lone;
}

/* Word @i of area @a holding @c. */
static u64 word(const struct soak_content *c, const struct soak_area *a, u64 i)
{
	struct soak_desc d;

	soak_content_desc(SEED, c, a, i, &d);
	return ref_word(&d, d.first);
}

static u64 words(const struct soak_area *a)
{
	return a->pages * 512;
}

/* The constant an area holds (all words one value), or false. */
static bool constant(const struct soak_content *c, const struct soak_area *a, u64 *v)
{
	*v = word(c, a, 0);
	for (u64 i = 1; i < words(a); i += 37)
		if (word(c, a, i) != *v)
			return false;
	return true;
}

static void test_pass_zero_is_a_march_test(void)
{
	const struct soak_pass_row *row = soak_pass_row(0, NULL);
	/*
	 * March C- as (direction: 0 up, 1 down, 2 either; value read; value written; 0 zeros,
	 * 1 ones, -2 anything, -1 nothing), matched in order; between two of its elements only
	 * read-only ones, or ones that write what each word holds, may come.
	 */
	static const int march[6][3] = { { 2, -2, 0 }, { 0, 0, 1 }, { 0, 1, 0 }, { 1, 0, 1 },
					 { 1, 1, 0 }, { 2, 0, -2 } };
	unsigned int step = 0, checks[SOAK_NR_CHECK] = { 0 };
	struct soak_content b[NR_SOAK_AREAS], a[NR_SOAK_AREAS];
	bool broken = false;
	u64 v;

	soak_contents(0, 0, b);
	CHECK(b[0].pat == SOAK_PAT_NONE && !row->el[0].read && row->el[0].write ==
	      SOAK_PAT_ADDRESS, "pass 0 writes own addresses first, reading nothing");
	for (unsigned int e = 0; e < row->nr_el; e++) {
		const struct soak_el *el = &row->el[e];
		int rd = -1, wr = -1;

		soak_contents(0, e, b);
		soak_contents(0, e + 1, a);
		if (el->kind != SOAK_EL_SWEEP)
			continue;
		if (el->read && b[0].pat != SOAK_PAT_NONE)
			rd = constant(&b[0], &h0, &v) && (v == 0 || v == ~0ULL) ? v != 0 : 2;
		if (el->write != SOAK_PAT_NONE)
			wr = constant(&a[0], &h0, &v) && (v == 0 || v == ~0ULL) ? v != 0 : 2;
		if (step < 6 && (march[step][0] == 2 || march[step][0] == el->down) &&
		    (march[step][1] == -2 || march[step][1] == rd) &&
		    (march[step][2] == -2 || march[step][2] == wr))
			step++;
		else if (step > 0 && step < 6 && wr != -1 && wr != rd)
			broken = true;	/* only reads, or writes of what is held, may come between */
		/* the checkerboards: each written after a read */
		for (unsigned int k = 0; k < SOAK_NR_CHECK; k++)
			if (wr == 2 && el->read && constant(&a[0], &h0, &v) &&
			    (v == soak_check_word(k) || v == ~soak_check_word(k)))
				checks[k]++;
	}
	CHECK(step == 6 && !broken, "March C- found up to its element %u%s", step,
	      broken ? ", with a write between two of its elements" : "");
	for (unsigned int k = 0; k < SOAK_NR_CHECK; k++)
		CHECK(checks[k] >= 3, "checkerboard %u written %u times", 1u << k, checks[k]);
	/* by definition: bit i of checkerboard k is bit k of i */
	CHECK(soak_check_word(0) == 0xaaaaaaaaaaaaaaaaULL &&
	      soak_check_word(1) == 0xccccccccccccccccULL &&
	      soak_check_word(2) == 0xf0f0f0f0f0f0f0f0ULL &&
	      soak_check_word(3) == 0xff00ff00ff00ff00ULL &&
	      soak_check_word(4) == 0xffff0000ffff0000ULL &&
	      soak_check_word(5) == 0xffffffff00000000ULL, "checkerboard words");
}

static void test_passes_continue_and_read_first(void)
{
	for (u32 pass = 1; pass < 4 * soak_schedule_rows; pass++) {
		const struct soak_pass_row *prev = soak_pass_row(pass - 1, NULL);
		const struct soak_pass_row *row = soak_pass_row(pass, NULL);
		struct soak_content end[NR_SOAK_AREAS], start[NR_SOAK_AREAS];

		soak_contents(pass - 1, prev->nr_el, end);
		soak_contents(pass, 0, start);
		for (int k = 0; k < NR_SOAK_AREAS; k++)
			CHECK(end[k].pat == start[k].pat && end[k].how == start[k].how &&
			      end[k].copied == start[k].copied && end[k].pass == start[k].pass &&
			      end[k].pat != SOAK_PAT_NONE, "pass %u area %d does not start where %u "
			      "ended", pass, k, pass - 1);
		for (unsigned int e = 0; e < row->nr_el; e++)
			CHECK(row->el[e].kind == SOAK_EL_IDLE || row->el[e].read, "pass %u element %u "
			      "does not read first", pass, e);
		CHECK(row->el[row->nr_el - 1].write == SOAK_PAT_NONE, "pass %u ends writing", pass);
	}
}

/* In the random and walking rows, the inverting element leaves each word's complement. */
static void test_inversion_gives_every_cell_both_values(void)
{
	unsigned int rows = 0;

	for (u32 pass = 1; pass < 1 + 2 * (soak_schedule_rows - 1); pass++) {
		const struct soak_pass_row *row = soak_pass_row(pass, NULL);

		for (unsigned int e = 0; e < row->nr_el; e++) {
			struct soak_content b[NR_SOAK_AREAS], a[NR_SOAK_AREAS];
			unsigned long bad = 0;

			if (row->el[e].write != SOAK_PAT_HELD_INV)
				continue;
			rows++;
			soak_contents(pass, e, b);
			soak_contents(pass, e + 1, a);
			for (int k = 0; k < NR_SOAK_AREAS; k++)
				for (u64 i = 0; i < words(area(k)); i++)
					bad += word(&a[k], area(k), i) != ~word(&b[k], area(k), i);
			CHECK(bad == 0 && b[soak_src_half(pass) ^ 1].copied, "pass %u (%s): %lu words "
			      "not inverted", pass, row->name, bad);
		}
	}
	CHECK(rows >= 2, "only %u inverting elements", rows);
}

static void test_copies_rotate_the_half(void)
{
	u64 seen[HALF] = { 0 };

	for (u32 pass = 1; pass < 1 + 4 * (soak_schedule_rows - 1); pass++) {
		const struct soak_pass_row *row = soak_pass_row(pass, NULL);
		struct soak_content a[NR_SOAK_AREAS];
		int src = soak_src_half(pass), dst = src ^ 1;
		u64 r = soak_rotation(pass, HALF), w = words(&h0);
		unsigned long bad = 0;

		if (row->el[0].kind != SOAK_EL_PAIRS)
			continue;
		soak_contents(pass, 1, a);
		CHECK(r > 0 && r < HALF, "pass %u rotates by %llu", pass, (unsigned long long)r);
		seen[r]++;
		for (u64 j = 0; j < w; j++)
			bad += word(&a[dst], area(dst), j) !=
			       word(&a[src], area(src), (j + w - r * 512) % w);
		CHECK(bad == 0 && a[dst].how == SOAK_HOW_COPY, "pass %u: %lu copied words wrong",
		      pass, bad);
	}
	CHECK(soak_rotation(7, 1) == 0 && soak_rotation(8, 0) == 0, "a half of one page");
	{
		unsigned int distinct = 0;

		for (u64 r = 1; r < HALF; r++)
			distinct += seen[r] != 0;
		CHECK(distinct >= 3, "the rotation takes only %u values", distinct);
	}
}

static void test_address_data(void)
{
	struct soak_content own = { SOAK_PAT_ADDRESS, SOAK_HOW_FILL, false, 0 };
	struct soak_content copy = { SOAK_PAT_ADDRESS_INV, SOAK_HOW_COPY, true, 0 };
	u64 r = soak_rotation(0, HALF) * 512;

	for (u64 i = 0; i < words(&h1); i += 111) {
		CHECK(word(&own, &h1, i) == h1.base + 8 * i, "own address at %llu",
		      (unsigned long long)i);
		CHECK(~word(&copy, &h1, i) == h0.base + 8 * ((i + words(&h1) - r) % words(&h1)),
		      "a copy holds its source's address at %llu", (unsigned long long)i);
	}
}

static void test_walking_and_random(void)
{
	struct soak_content walk = { SOAK_PAT_WALK_ONES, SOAK_HOW_FILL, false, 2 };
	struct soak_content walk2 = walk, rnd = { SOAK_PAT_RANDOM, SOAK_HOW_FILL, false, 1 };
	struct soak_content rnd2 = rnd;
	struct soak_area other = h0;

	for (u64 i = 0; i < 200; i++) {
		u64 w = word(&walk, &h0, i), z = word(&(struct soak_content){ SOAK_PAT_WALK_ZEROS,
				 SOAK_HOW_FILL, false, 2 }, &h0, i);

		CHECK(__builtin_popcountll(w) == 1 && ~z == w, "walking at %llu: 0x%llx",
		      (unsigned long long)i, (unsigned long long)w);
		CHECK(word(&walk, &h0, i + 1) == (w << 1 | w >> 63), "walks up one bit");
	}
	/* the start bit moves with the area and with the cycle */
	other.base += 4096;
	walk2.pass = walk.pass + (u32)(soak_schedule_rows - 1);
	CHECK(word(&walk, &h0, 0) != word(&walk, &other, 0), "the same start in two areas");
	CHECK(word(&walk, &h0, 0) != word(&walk2, &h0, 0), "the same start in the next cycle");
	rnd2.pass = 2;
	CHECK(word(&rnd, &h0, 0) != word(&rnd, &other, 0) && word(&rnd, &h0, 0) !=
	      word(&rnd2, &h0, 0), "random data repeats between areas or passes");
}

static void test_rows_and_copy_rotation(void)
{
	u32 cycle;

	CHECK(soak_pass_row(0, &cycle) == &soak_schedule[0] && cycle == 0, "row 0");
	for (u32 pass = 1; pass < 30; pass++)
		CHECK(soak_pass_row(pass, NULL) != &soak_schedule[0] &&
		      soak_pass_row(pass, NULL) == soak_pass_row(pass + soak_schedule_rows - 1, NULL),
		      "pass %u", pass);
	for (u32 mask = 0; mask <= SOAK_COPY_ALL; mask++) {
		unsigned int n = (unsigned int)__builtin_popcount(mask), used = 0;

		for (u64 piece = 0; piece < n; piece++) {
			int op = soak_copy_op(3, 0x40000000ULL + (piece << 21), mask);

			CHECK(op >= 0 && (mask >> op & 1) && !(used & 1u << op), "mask 0x%x piece "
			      "%llu: %d", mask, (unsigned long long)piece, op);
			if (op >= 0)
				used |= 1u << op;
		}
		CHECK(used == mask, "mask 0x%x: used 0x%x", mask, used);
	}
	CHECK(soak_copy_op(0, 0, 0) == -1, "no primitive");
}

int main(void)
{
	return RUN_TESTS(test_pass_zero_is_a_march_test, test_passes_continue_and_read_first,
			 test_inversion_gives_every_cell_both_values, test_copies_rotate_the_half,
			 test_address_data, test_walking_and_random, test_rows_and_copy_rotation);
}
