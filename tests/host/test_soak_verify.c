// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_soak_verify.c - the soak's fill, verify and compare routines (copy/verify.asm), the
 * objects the image links, against an oracle written here from the definition in
 * copy/verify.h: Vigna's splitmix64 run sequentially (checked first against its published
 * outputs for state 0), the lanes taken from that generator, rotations as shifts and masks.
 *
 * - every generator, inversion, start index and chunk alignment: what soak_fill writes is
 *   the oracle's pattern word for word, nothing outside the range is touched, and
 *   soak_verify_mc agrees;
 * - a single flipped bit at every bit of every word of a small buffer (head, SSE2 body and
 *   tail; aligned and unaligned chunks) is found at its offset with expected and actual;
 * - a buffer that runs into a PROT_NONE page after 0..4096 bytes (8-byte steps; chunks
 *   aligned and not): verify returns SOAK_POISONED at exactly the boundary, fill returns the
 *   bytes it could not write; the fault shim resumes at the routines' fixups;
 * - soak_compare_mc: flips, both sides faulting, both the SSE2 and the word-by-word paths;
 * - every load of verify and compare has a machine-check-safe exception-table entry and every
 *   store of fill a plain one (the host's #PF cannot tell them apart, a #MC would): the
 *   entries inside soak_verify_mc and soak_fill (laid out one after the other) are counted
 *   and typed, and every fault the sweeps take is checked at its RIP;
 * - arguments that are not whole words are refused before anything is read or written.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "copy/verify.h"
#include "kernel/include/extable.h"
#include "tests/host/fault_shim.h"
#include "tests/host/host_test.h"

#define PG	4096UL

/* ---- the oracle ---------------------------------------------------------------------- */

struct splitmix {
	u64 state;
};

static u64 splitmix_next(struct splitmix *g)
{
	u64 z = (g->state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static u64 lane[8];

static void oracle_init(void)
{
	struct splitmix g = { 0 };

	lane[0] = 0;
	for (int k = 1; k < 8; k++)
		lane[k] = splitmix_next(&g);
}

static u64 rotl(u64 x, unsigned int n)
{
	n &= 63;
	return n ? (x << n) | (x >> (64 - n)) : x;
}

/* Pattern words first .. first + n - 1 of @d into @out. */
static void oracle_words(const struct soak_desc *d, u64 first, size_t n, u64 *out)
{
	struct splitmix g = { d->seed };
	u64 h = 0, group = (u64)-1;

	for (size_t j = 0; j < n; j++) {
		u64 i = first + j;

		if (d->gen == SOAK_GEN_ROTATE) {
			out[j] = rotl(d->seed, (unsigned int)(i & 63)) ^ d->invert;
			continue;
		}
		while (group != i / 8) {
			h = splitmix_next(&g);
			group++;
		}
		out[j] = h ^ lane[i & 7] ^ d->invert;
	}
}

/* ---- exception-table types at the faulting RIP ---------------------------------------- */

extern struct exception_table_entry __start_ck_extable[], __stop_ck_extable[];

static unsigned long wrong_types;

/* The last fault's entry must be MCE-safe (a load of verify/compare) or not (a store). */
static void check_last_fault(bool mce_safe)
{
	const struct exception_table_entry *e;

	e = ex_search(__start_ck_extable, __stop_ck_extable, shim_last.rip);
	if (!e || ex_type_mce_safe(ex_type(e)) != mce_safe)
		wrong_types++;
}

/* ---- helpers ------------------------------------------------------------------------- */

static u8 *map_pages(size_t n)
{
	void *p = mmap(NULL, n * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	return p;
}

static const struct soak_desc descs[] = {
	{ SOAK_GEN_RANDOM, 0, 0, 0 },
	{ SOAK_GEN_RANDOM, 0x0123456789abcdefULL, 0, 0 },
	{ SOAK_GEN_RANDOM, 0x0123456789abcdefULL, ~0ULL, 0 },
	{ SOAK_GEN_ROTATE, 0, 0, 0 },			/* zeros */
	{ SOAK_GEN_ROTATE, 0, ~0ULL, 0 },		/* ones */
	{ SOAK_GEN_ROTATE, 1ULL << 5, 0, 0 },		/* walking ones */
	{ SOAK_GEN_ROTATE, 1ULL << 5, ~0ULL, 0 },	/* walking zeros */
	{ SOAK_GEN_ROTATE, 0x5555555555555555ULL, 0, 0 },
	{ SOAK_GEN_ROTATE, 0xf00dfacecafe0001ULL, 0x00ff00ff00ff00ffULL, 0 },
};

static void test_oracle_is_splitmix64(void)
{
	/* Vigna's splitmix64.c from state 0: the values its users publish. */
	static const u64 published[4] = { 0xe220a8397b1dcdafULL, 0x6e789e6aa1b965f4ULL,
					  0x06c45d188009454fULL, 0xf88bb8a8724c81ecULL };
	struct splitmix g = { 0 };

	for (int i = 0; i < 4; i++) {
		u64 v = splitmix_next(&g);

		CHECK(v == published[i], "output %d: 0x%llx, published 0x%llx", i + 1,
		      (unsigned long long)v, (unsigned long long)published[i]);
	}
	/* Walking ones and zeros as bits, not as rotations. */
	for (u64 i = 0; i < 200; i++) {
		u64 w;
		struct soak_desc d = descs[5];

		oracle_words(&d, i, 1, &w);
		CHECK(w == 1ULL << ((i + 5) % 64), "walking one at %llu", (unsigned long long)i);
		d = descs[6];
		oracle_words(&d, i, 1, &w);
		CHECK(w == ~(1ULL << ((i + 5) % 64)), "walking zero at %llu",
		      (unsigned long long)i);
		d = descs[7];
		oracle_words(&d, i, 1, &w);
		CHECK(w == ((i & 1) ? 0xaaaaaaaaaaaaaaaaULL : 0x5555555555555555ULL), "checker");
	}
}

/*
 * Fill @n words at word @at of a page-aligned area (so the chunk is 64-byte aligned when
 * @at - @first is a multiple of 8), check them and their guards, then verify.
 */
static unsigned long fill_check(u8 *area, const struct soak_desc *d0, u64 first, size_t at,
				size_t n, u64 *want)
{
	struct soak_desc d = *d0;
	struct soak_miss miss;
	u64 *w = (u64 *)area;
	unsigned long bad = 0;
	size_t left;
	u64 st;

	d.first = first;
	for (size_t i = 0; i < at + n + 16; i++)
		w[i] = 0xeeeeeeeeeeeeeeeeULL ^ i;
	oracle_words(&d, first, n, want);
	left = soak_fill(w + at, n * 8, &d);
	bad += left != 0;
	for (size_t i = 0; i < at + n + 16; i++) {
		u64 expect = (i >= at && i < at + n) ? want[i - at] : 0xeeeeeeeeeeeeeeeeULL ^ i;

		if (w[i] != expect) {
			if (!bad)
				printf("# gen %llu seed 0x%llx first %llu at %zu n %zu: "
				       "word %zu is 0x%llx, want 0x%llx\n",
				       (unsigned long long)d.gen, (unsigned long long)d.seed,
				       (unsigned long long)first, at, n, i,
				       (unsigned long long)w[i], (unsigned long long)expect);
			bad++;
			break;
		}
	}
	st = soak_verify_mc(w + at, n * 8, &d, &miss);
	if (st != SOAK_OK) {
		printf("# verify after fill: status %llu at +%llu\n", (unsigned long long)st,
		       (unsigned long long)miss.offset);
		bad++;
	}
	return bad;
}

static void test_fill_writes_the_pattern(void)
{
	static u64 want[3000];
	static const u64 firsts[] = { 0, 1, 7, 8, 13, 1000003 };
	static const size_t ats[] = { 0, 1, 3, 8, 9 };
	static const size_t lens[] = { 0, 1, 7, 8, 9, 15, 16, 17, 31, 64, 65, 129, 2999 };
	u8 *area = map_pages(8);
	unsigned long bad = 0, runs = 0;

	for (size_t di = 0; di < ARRAY_SIZE(descs); di++)
		for (size_t fi = 0; fi < ARRAY_SIZE(firsts); fi++)
			for (size_t ai = 0; ai < ARRAY_SIZE(ats); ai++)
				for (size_t li = 0; li < ARRAY_SIZE(lens); li++) {
					bad += fill_check(area, &descs[di], firsts[fi], ats[ai],
							  lens[li], want);
					runs++;
				}
	CHECK(bad == 0, "%lu of %lu fills wrong", bad, runs);
	printf("# %lu fills and verifies checked against the oracle\n", runs);
	munmap(area, 8 * PG);
}

/* Every bit of every word of @n words at word @at with index @first: flip, find, restore. */
static unsigned long flip_sweep(u8 *area, const struct soak_desc *d0, u64 first, size_t at,
				size_t n)
{
	struct soak_desc d = *d0;
	u64 *w = (u64 *)area + at, want[64];
	unsigned long bad = 0;

	d.first = first;
	oracle_words(&d, first, n, want);
	soak_fill(w, n * 8, &d);
	for (size_t i = 0; i < n; i++)
		for (int b = 0; b < 64; b++) {
			struct soak_miss m = { 0 };
			u64 st;

			w[i] ^= 1ULL << b;
			st = soak_verify_mc(w, n * 8, &d, &m);
			w[i] ^= 1ULL << b;
			if (st != SOAK_MISCOMPARE || m.offset != i * 8 || m.expected != want[i] ||
			    m.actual != (want[i] ^ (1ULL << b)) || m.side != 0) {
				if (!bad)
					printf("# word %zu bit %d (first %llu, at %zu): "
					       "status %llu offset %llu expected 0x%llx "
					       "actual 0x%llx\n", i, b,
					       (unsigned long long)first, at,
					       (unsigned long long)st,
					       (unsigned long long)m.offset,
					       (unsigned long long)m.expected,
					       (unsigned long long)m.actual);
				bad++;
			}
		}
	return bad;
}

static void test_verify_finds_every_flipped_bit(void)
{
	u8 *area = map_pages(2);
	unsigned long bad = 0;

	for (size_t di = 0; di < ARRAY_SIZE(descs); di++) {
		bad += flip_sweep(area, &descs[di], 3, 3, 29);	/* head 5, 3 groups, tail 0 */
		bad += flip_sweep(area, &descs[di], 5, 3, 30);	/* head, 2 groups, tail 9 */
		bad += flip_sweep(area, &descs[di], 0, 1, 20);	/* unaligned: word by word */
	}
	CHECK(bad == 0, "%lu flipped bits reported wrong", bad);
	munmap(area, 2 * PG);
}

static void test_verify_reports_the_first_and_resumes(void)
{
	u8 *area = map_pages(2);
	u64 *w = (u64 *)area, want[256];
	struct soak_desc d = descs[1];
	struct soak_miss m;
	u64 st;

	soak_fill(w, sizeof(want), &d);
	oracle_words(&d, 0, 256, want);
	w[100] ^= 0x10;
	w[40] ^= 0x8000000000000000ULL;
	st = soak_verify_mc(w, sizeof(want), &d, &m);
	CHECK(st == SOAK_MISCOMPARE && m.offset == 40 * 8, "first miss at %llu",
	      (unsigned long long)m.offset);
	/* Resume after it: the pattern is random access. */
	d.first = 41;
	st = soak_verify_mc(w + 41, (256 - 41) * 8, &d, &m);
	CHECK(st == SOAK_MISCOMPARE && m.offset == (100 - 41) * 8 && m.expected == want[100] &&
	      m.actual == (want[100] ^ 0x10), "second miss status %llu offset %llu",
	      (unsigned long long)st, (unsigned long long)m.offset);
	d.first = 101;
	st = soak_verify_mc(w + 101, (256 - 101) * 8, &d, &m);
	CHECK(st == SOAK_OK, "rest: status %llu", (unsigned long long)st);
	munmap(area, 2 * PG);
}

/*
 * An area of two readable pages and a PROT_NONE third: a buffer that starts @k bytes before
 * the boundary and runs 512 bytes past it.
 */
static void test_fault_at_every_offset(void)
{
	u8 *area = map_pages(3);
	u8 *boundary = area + 2 * PG;
	unsigned long bad = 0, runs = 0, faults0;

	mprotect(boundary, PG, PROT_NONE);
	faults0 = shim_last.count;
	for (size_t k = 0; k <= PG; k += 8)
		for (int aligned = 0; aligned < 2; aligned++)
			for (size_t di = 0; di < ARRAY_SIZE(descs); di += 4) {
				struct soak_desc d = descs[di];
				u8 *buf = boundary - k;
				struct soak_miss m = { 0 };
				size_t left;
				u64 st;

				/* aligned: the chunk starts at a 64-byte boundary before buf */
				d.first = aligned ? ((uintptr_t)buf & 63) / 8 : 0;
				left = soak_fill(buf, k + 512, &d);
				check_last_fault(false);
				st = soak_verify_mc(buf, k + 512, &d, &m);
				check_last_fault(true);
				runs++;
				if (left != 512 || st != SOAK_POISONED || m.offset != k) {
					if (!bad)
						printf("# k %zu aligned %d gen %llu: fill "
						       "left %zu, verify status %llu offset "
						       "%llu\n", k,
						       aligned, (unsigned long long)d.gen, left,
						       (unsigned long long)st,
						       (unsigned long long)m.offset);
					bad++;
				}
				if (k && soak_verify_mc(buf, k, &d, &m) != SOAK_OK) {
					if (!bad)
						printf("# k %zu: the part before the boundary does "
						       "not verify\n", k);
					bad++;
				}
			}
	CHECK(bad == 0, "%lu of %lu faulting fills/verifies wrong", bad, runs);
	CHECK(shim_last.count - faults0 == 2 * runs, "%lu faults fixed up for %lu runs",
	      shim_last.count - faults0, runs);
	munmap(area, 3 * PG);
}

static void test_verify_reads_nothing_past_the_end(void)
{
	u8 *area = map_pages(3);
	u8 *boundary = area + 2 * PG;
	struct soak_desc d = descs[1];
	struct soak_miss m;
	unsigned long faults0, bad = 0;

	mprotect(boundary, PG, PROT_NONE);
	faults0 = shim_last.count;
	for (size_t k = 8; k <= PG; k += 8) {
		d.first = 0;
		bad += soak_fill(boundary - k, k, &d) != 0;
		bad += soak_verify_mc(boundary - k, k, &d, &m) != SOAK_OK;
		bad += soak_compare_mc(boundary - k, boundary - k, k, &m) != SOAK_OK;
	}
	CHECK(bad == 0 && shim_last.count == faults0, "%lu wrong, %lu faults", bad,
	      shim_last.count - faults0);
	munmap(area, 3 * PG);
}

/* Compare @n words of dst = area + @da bytes against src = other + @sa bytes. */
static unsigned long compare_flips(u8 *area, u8 *other, size_t da, size_t sa, size_t n)
{
	u64 *dst = (u64 *)(area + da), *src = (u64 *)(other + sa);
	struct soak_desc d = descs[1];
	unsigned long bad = 0;

	soak_fill(src, n * 8, &d);
	memcpy(dst, src, n * 8);
	for (size_t i = 0; i < n; i++)
		for (int b = 0; b < 64; b += 7) {
			struct soak_miss m = { 0 };
			u64 st;

			dst[i] ^= 1ULL << b;
			st = soak_compare_mc(dst, src, n * 8, &m);
			dst[i] ^= 1ULL << b;
			if (st != SOAK_MISCOMPARE || m.offset != i * 8 || m.expected != src[i] ||
			    m.actual != (src[i] ^ (1ULL << b))) {
				if (!bad)
					printf("# compare da %zu sa %zu word %zu bit %d: "
					       "status %llu offset %llu\n", da, sa, i, b,
					       (unsigned long long)st,
					       (unsigned long long)m.offset);
				bad++;
			}
		}
	if (soak_compare_mc(dst, src, n * 8, &(struct soak_miss){ 0 }) != SOAK_OK)
		bad++;
	return bad;
}

static void test_compare_finds_flips(void)
{
	u8 *a = map_pages(2), *b = map_pages(2);
	unsigned long bad = 0;

	bad += compare_flips(a, b, 0, 0, 40);		/* SSE2 body */
	bad += compare_flips(a, b, 24, 40, 40);		/* head, then src 16-aligned: body */
	bad += compare_flips(a, b, 0, 8, 40);		/* src off by 8: word by word */
	bad += compare_flips(a, b, 8, 0, 3);		/* shorter than the head */
	CHECK(bad == 0, "%lu compare flips reported wrong", bad);
	munmap(a, 2 * PG);
	munmap(b, 2 * PG);
}

/* One side runs into a PROT_NONE page after @k bytes; the other is readable. */
static void test_compare_faults_name_the_side(void)
{
	u8 *fa = map_pages(3), *ok = map_pages(4);
	u8 *boundary = fa + 2 * PG;
	unsigned long bad = 0, runs = 0;

	mprotect(boundary, PG, PROT_NONE);
	memset(ok, 0x5a, 4 * PG);
	memset(fa, 0x5a, 2 * PG);
	for (size_t k = 0; k <= 1024; k += 8)
		for (size_t sh = 0; sh < 64; sh += 8)
			for (int side = 0; side < 2; side++) {
				u8 *f = boundary - k, *o = ok + 64 + ((uintptr_t)f & 63) + sh;
				struct soak_miss m = { 0 };
				u64 st;

				st = side ? soak_compare_mc(o, f, k + 256, &m)
					  : soak_compare_mc(f, o, k + 256, &m);
				check_last_fault(true);
				runs++;
				if (st != SOAK_POISONED || m.offset != k || m.side != (u64)side) {
					if (!bad)
						printf("# k %zu shift %zu side %d: status %llu "
						       "offset %llu side %llu\n", k, sh, side,
						       (unsigned long long)st,
						       (unsigned long long)m.offset,
						       (unsigned long long)m.side);
					bad++;
				}
			}
	CHECK(bad == 0, "%lu of %lu faulting compares wrong", bad, runs);
	munmap(fa, 3 * PG);
	munmap(ok, 4 * PG);
}

static void test_exception_table_types(void)
{
	uintptr_t v = (uintptr_t)soak_verify_mc, f = (uintptr_t)soak_fill;
	uintptr_t c = (uintptr_t)soak_compare_mc;
	unsigned int loads = 0, stores = 0, bad = 0;

	CHECK(v < f && f < c, "verify.asm's routines out of source order");
	for (const struct exception_table_entry *e = __start_ck_extable;
	     e < __stop_ck_extable; e++) {
		uintptr_t at = ex_insn_addr(e);
		bool safe = ex_type_mce_safe(ex_type(e));

		if (at >= v && at < f) {
			loads++;
			bad += !safe;
		} else if (at >= f && at < c) {
			stores++;
			bad += safe;
		}
	}
	/* verify: a head and a tail word load, four group loads; fill: the same in stores */
	CHECK(loads == 6 && stores == 6 && bad == 0, "verify %u entries, fill %u, %u mistyped",
	      loads, stores, bad);
	CHECK(wrong_types == 0, "%lu faults in the sweeps at an entry of the wrong type",
	      wrong_types);
}

static void test_bad_arguments_are_refused(void)
{
	u8 *area = map_pages(1);
	struct soak_desc d = descs[1];
	struct soak_miss m;
	bool untouched = true;

	memset(area, 0x11, PG);
	CHECK(soak_fill(area + 4, 64, &d) == 64, "fill at +4 not refused");
	CHECK(soak_fill(area, 60, &d) == 60, "fill of 60 bytes not refused");
	CHECK(soak_verify_mc(area + 4, 64, &d, &m) == SOAK_BAD_ARGS, "verify at +4");
	CHECK(soak_verify_mc(area, 12, &d, &m) == SOAK_BAD_ARGS, "verify of 12 bytes");
	CHECK(soak_compare_mc(area, area + 4, 64, &m) == SOAK_BAD_ARGS, "compare src +4");
	CHECK(soak_compare_mc(area, area, 63, &m) == SOAK_BAD_ARGS, "compare of 63 bytes");
	for (size_t i = 0; i < PG; i++)
		untouched &= area[i] == 0x11;
	CHECK(untouched, "a refused fill wrote");
	CHECK(soak_verify_mc(area, 0, &d, &m) == SOAK_OK && soak_fill(area, 0, &d) == 0,
	      "zero lengths");
	munmap(area, PG);
}

int main(void)
{
	oracle_init();
	fault_shim_install();
	return RUN_TESTS(test_oracle_is_splitmix64, test_fill_writes_the_pattern,
			 test_verify_finds_every_flipped_bit,
			 test_verify_reports_the_first_and_resumes, test_fault_at_every_offset,
			 test_verify_reads_nothing_past_the_end, test_compare_finds_flips,
			 test_compare_faults_name_the_side, test_exception_table_types,
			 test_bad_arguments_are_refused);
}
