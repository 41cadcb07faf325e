// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_soak_pattern.c - the soak's pass schedule and chunk descriptors (soak/pattern.c)
 * by the properties the schedule promises, checked on the data soak_fill writes for them:
 *
 * - pass 0 expects zeros: a memset(0) chunk verifies, any set bit does not;
 * - a random-inverted pass is, word for word, the complement of the random pass before it
 *   for the same chunk, and of nothing else;
 * - walking ones have exactly one bit set per word and it moves up one bit per word, walking
 *   zeros exactly one bit clear; both start at a different bit in the next cycle, and chunks
 *   do not all start at the same bit;
 * - random data differs between chunks, passes and run seeds (no two of 4096 chunk/pass pairs
 *   share a first word), and the same key gives the same data;
 * - the rows cycle after pass 0, which comes once; the copy primitive rotates through every
 *   available one within a pass and never picks an unavailable one.
 */
#define _GNU_SOURCE
#include <sys/mman.h>

#include "soak/pattern.h"
#include "tests/host/host_test.h"

#define WORDS	512

static u64 buf_a[WORDS] __aligned(64), buf_b[WORDS] __aligned(64);

static void fill(u64 seed, u32 pass, u64 key, u64 *buf)
{
	struct soak_desc d;

	soak_pattern_desc(seed, pass, key, &d);
	CHECK(soak_fill(buf, WORDS * 8, &d) == 0, "fill pass %u", pass);
}

static void test_pass_zero_expects_zeros(void)
{
	struct soak_desc d;
	struct soak_miss m;

	soak_pattern_desc(42, 0, 7, &d);
	memset(buf_a, 0, sizeof(buf_a));
	CHECK(soak_verify_mc(buf_a, sizeof(buf_a), &d, &m) == SOAK_OK, "zeros do not verify");
	buf_a[300] = 1ULL << 40;
	CHECK(soak_verify_mc(buf_a, sizeof(buf_a), &d, &m) == SOAK_MISCOMPARE &&
	      m.offset == 300 * 8 && m.expected == 0, "a set bit in pass 0 not found");
	CHECK(soak_pass_how(0) == SOAK_HOW_CLEAR && soak_pass_how(1) == SOAK_HOW_FILL,
	      "pass 0 is written by clears, the others by fills");
	CHECK(!strcmp(soak_pass_row(0, NULL)->name, "zeros"), "row 0 is %s",
	      soak_pass_row(0, NULL)->name);
}

static void test_inversion_complements_the_pass_before(void)
{
	unsigned int checked = 0;

	for (u32 pass = 1; pass < 40; pass++) {
		if (soak_pass_row(pass, NULL)->pat != SOAK_PAT_RANDOM_INV)
			continue;
		for (u64 key = 0x100; key < 0x108; key++) {
			bool all = true, other = false;

			fill(99, pass - 1, key, buf_a);
			fill(99, pass, key, buf_b);
			for (int i = 0; i < WORDS; i++)
				all &= buf_b[i] == ~buf_a[i];
			CHECK(all, "pass %u key 0x%llx is not pass %u inverted", pass,
			      (unsigned long long)key, pass - 1);
			fill(99, pass - 1, key + 1, buf_a);	/* another chunk's data */
			for (int i = 0; i < WORDS; i++)
				other |= buf_b[i] != ~buf_a[i];
			CHECK(other, "pass %u inverts another chunk's data", pass);
			checked++;
		}
	}
	CHECK(checked >= 8 * 7, "only %u inverted chunks checked", checked);
}

static void test_walking_bits(void)
{
	unsigned int first_bit[2] = { 64, 64 };

	for (u32 pass = 1; pass < 40; pass++) {
		enum soak_pat p = soak_pass_row(pass, NULL)->pat;
		u32 cycle;

		if (p != SOAK_PAT_WALK_ONES && p != SOAK_PAT_WALK_ZEROS)
			continue;
		soak_pass_row(pass, &cycle);
		fill(5, pass, 0x2000, buf_a);
		for (int i = 0; i < WORDS; i++) {
			u64 w = p == SOAK_PAT_WALK_ZEROS ? ~buf_a[i] : buf_a[i];
			u64 prev = p == SOAK_PAT_WALK_ZEROS ? ~buf_a[(i + WORDS - 1) % WORDS]
							    : buf_a[(i + WORDS - 1) % WORDS];

			CHECK(__builtin_popcountll(w) == 1, "pass %u word %d: 0x%llx", pass, i,
			      (unsigned long long)buf_a[i]);
			if (i)
				CHECK(w == (prev << 1 | prev >> 63),
				      "pass %u word %d does not walk", pass, i);
		}
		if (cycle < 2) {
			unsigned int bit = (unsigned int)__builtin_ctzll(p == SOAK_PAT_WALK_ZEROS ?
									 ~buf_a[0] : buf_a[0]);

			CHECK(first_bit[cycle] == 64 || first_bit[cycle] == bit,
			      "walking ones and zeros of one cycle start at different bits");
			first_bit[cycle] = bit;
		}
	}
	CHECK(first_bit[0] != first_bit[1], "walking starts at bit %u in both cycles",
	      first_bit[0]);
}

/*
 * Walking ones and zeros depend on the chunk: in each walking pass, the chunks of 64
 * consecutive keys do not all hold the same data (word 0's walking bit is not at one place
 * for all of them), so neighbouring chunks are not written alike.
 */
static void test_walking_depends_on_the_chunk(void)
{
	unsigned int passes = 0;

	for (u32 pass = 1; pass < 40; pass++) {
		enum soak_pat p = soak_pass_row(pass, NULL)->pat;
		u64 seen = 0;

		if (p != SOAK_PAT_WALK_ONES && p != SOAK_PAT_WALK_ZEROS)
			continue;
		for (u64 key = 0x2000; key < 0x2040; key++) {
			u64 w;

			fill(5, pass, key, buf_a);
			w = p == SOAK_PAT_WALK_ZEROS ? ~buf_a[0] : buf_a[0];
			seen |= w;
		}
		CHECK(__builtin_popcountll(seen) > 1, "pass %u: 64 chunks start walking at one bit "
		      "(0x%llx)", pass, (unsigned long long)seen);
		passes++;
	}
	CHECK(passes >= 2, "only %u walking passes in the first 40", passes);
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static void test_random_is_keyed(void)
{
	static u64 first[4096 + 2];
	unsigned int n = 0, dups = 0;
	struct soak_desc d1, d2;

	for (u32 pass = 1; pass < 40 && n < 4096; pass++) {
		if (soak_pass_row(pass, NULL)->pat != SOAK_PAT_RANDOM)
			continue;
		for (u64 key = 0; key < 512 && n < 4096; key++) {
			u64 w[8];
			struct soak_desc d;

			soak_pattern_desc(1, pass, key * 512, &d);
			soak_fill(w, sizeof(w), &d);
			first[n++] = w[0];
		}
	}
	fill(2, 1, 0, buf_a);			/* another run seed */
	first[n++] = buf_a[0];
	qsort(first, n, sizeof(u64), cmp_u64);
	for (unsigned int i = 1; i < n; i++)
		dups += first[i] == first[i - 1];
	CHECK(n == 4097 && dups == 0, "%u equal first words among %u chunks", dups, n);
	soak_pattern_desc(3, 5, 77, &d1);
	soak_pattern_desc(3, 5, 77, &d2);
	CHECK(!memcmp(&d1, &d2, sizeof(d1)), "the same key gives another descriptor");
}

static void test_schedule_cycles(void)
{
	u32 rep = soak_schedule_rows - 1, cycle;
	bool zero_again = false;

	CHECK(soak_schedule_rows >= 5, "%u rows", soak_schedule_rows);
	for (u32 pass = 1; pass < 5 * rep; pass++) {
		const struct soak_pass_row *r = soak_pass_row(pass, &cycle);

		zero_again |= r->pat == SOAK_PAT_ZERO;
		CHECK(r == soak_pass_row(pass + rep, NULL), "pass %u and %u differ", pass,
		      pass + rep);
		CHECK(cycle == (pass - 1) / rep, "pass %u cycle %u", pass, cycle);
		if (r->pat == SOAK_PAT_RANDOM_INV)
			CHECK(soak_pass_row(pass - 1, NULL)->pat == SOAK_PAT_RANDOM,
			      "pass %u inverts a pass that was not random", pass);
	}
	CHECK(!zero_again, "zeros repeat after pass 0");
	for (int p = 0; p < NR_SOAK_PAT; p++)
		CHECK(strcmp(soak_pat_name((enum soak_pat)p), "?"), "pattern %d unnamed", p);
}

static void test_copy_op_rotation(void)
{
	for (u32 avail = 0; avail <= SOAK_COPY_ALL; avail++)
		for (u32 pass = 0; pass < 7; pass++) {
			u32 seen = 0;

			for (u64 pair = 0; pair < NR_SOAK_COPY_OPS; pair++) {
				int op = soak_copy_op(pass, pair, avail);

				if (!avail) {
					CHECK(op == -1, "nothing available gave %d", op);
					continue;
				}
				CHECK(op >= 0 && (avail >> op) & 1,
				      "avail 0x%x pass %u pair %llu: %d", avail, pass,
				      (unsigned long long)pair, op);
				if (op >= 0)
					seen |= 1u << op;
			}
			CHECK(seen == avail, "avail 0x%x pass %u: only 0x%x used", avail, pass,
			      seen);
			if (avail && __builtin_popcount(avail) > 1) {
				int now = soak_copy_op(pass, 0, avail);

				CHECK(now != soak_copy_op(pass + 1, 0, avail),
				      "the first pair uses the same primitive in passes %u and %u",
				      pass, pass + 1);
			}
		}
	CHECK(!strcmp(soak_copy_op_name(SOAK_COPY_MC_BATCHED), "copy_mc_highpages") &&
	      !strcmp(soak_copy_op_name(-1), "?"), "names");
}

int main(void)
{
	return RUN_TESTS(test_pass_zero_expects_zeros, test_inversion_complements_the_pass_before,
			 test_walking_depends_on_the_chunk,
			 test_walking_bits, test_random_is_keyed, test_schedule_cycles,
			 test_copy_op_rotation);
}
