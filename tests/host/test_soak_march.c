// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_soak_march.c - the memory test's kernel (copy/march.asm, the object the image links)
 * held to its plain C reference (tests/host/sim_mem.c's ref_march) on real memory, and the
 * soak's elements (soak/march.c) over memory and over the simulated memory.
 *
 * Oracles: the reference's patterns are checked first against published values (Vigna's
 * splitmix64 from state 0; walking and constant words by their definitions); the kernel is
 * then compared word for word and status for status with the reference over random runs,
 * directions, patterns and planted wrong words, so the simulated memory, which runs the
 * reference, stands for what the image does. The walk is held to the rules march.h states
 * (every page once per element, down the exact reverse of up, a copy's destination reached
 * through its source only, pieces inside one area); the passes over a fault-free simulated
 * memory (all pages words, and lazy) must find nothing, and what each area holds at the end
 * must be what soak/pattern.c says, word for word by the reference.
 */
#define _GNU_SOURCE
#include <sys/mman.h>

#include "kernel/include/extable.h"
#include "kernel/include/page_types.h"
#include "tests/host/fault_shim.h"
#include "tests/host/host_test.h"
#include "tests/host/sim_soak.h"

#define PG	4096UL

static u64 rng = 0x243f6a8885a308d3ULL;

static u64 next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* ---- the reference over real memory --------------------------------------------------- */

static u64 real_load(struct ref_mem *m, u64 addr)
{
	return *(volatile u64 *)(uintptr_t)addr;
}

static void real_store(struct ref_mem *m, u64 addr, u64 v)
{
	*(volatile u64 *)(uintptr_t)addr = v;
}

static void real_flush(struct ref_mem *m, u64 addr)
{
}

static struct ref_mem real = { real_load, real_store, real_flush, false };

static u8 *map_pages(size_t n)
{
	void *p = mmap(NULL, n * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	return p;
}

static void test_reference_patterns(void)
{
	static const u64 published[4] = { 0xe220a8397b1dcdafULL, 0x6e789e6aa1b965f4ULL,
					  0x06c45d188009454fULL, 0xf88bb8a8724c81ecULL };
	struct soak_desc d = { SOAK_GEN_RANDOM, 0, 0, 0 };

	/* seed 0, group g: the (g+1)-th output; lane k of group 0 is output 1 ^ output k+1 */
	CHECK(ref_word(&d, 0) == published[0], "group 0 word 0: 0x%llx",
	      (unsigned long long)ref_word(&d, 0));
	CHECK(ref_word(&d, 8) == published[1], "group 1 word 0");
	CHECK((ref_word(&d, 1) ^ ref_word(&d, 0)) == published[0] &&
	      (ref_word(&d, 3) ^ ref_word(&d, 0)) == published[2], "lanes 1 and 3");
	d = (struct soak_desc){ SOAK_GEN_ROTATE, 1ULL << 5, ~0ULL, 0 };
	for (u64 i = 0; i < 130; i++)
		CHECK(ref_word(&d, i) == ~(1ULL << ((i + 5) % 64)), "walking zero at %llu",
		      (unsigned long long)i);
	d = (struct soak_desc){ SOAK_GEN_ADDRESS, 0x1000, 0, 3 };
	CHECK(ref_word(&d, 3) == 0x1018 && ref_word(&d, 10) == 0x1050, "address");
	d = (struct soak_desc){ SOAK_GEN_CONST, 0x3333333333333333ULL, ~0ULL, 0 };
	CHECK(ref_word(&d, 77) == 0xccccccccccccccccULL, "constant");
}

static const u64 gens[] = { SOAK_GEN_RANDOM, SOAK_GEN_ROTATE, SOAK_GEN_ADDRESS, SOAK_GEN_CONST };

static struct soak_desc random_desc(u8 *area)
{
	struct soak_desc d = { gens[next() % 4], next(), next() & 1 ? ~0ULL : 0, 8 * (next() % 64) };

	if (d.gen == SOAK_GEN_ROTATE && next() % 3 == 0)
		d.seed = next() & 1 ? 0 : ~0ULL;	/* a rotation that is a constant */
	if (d.gen == SOAK_GEN_ROTATE && next() % 3 == 0)
		d.seed = 1ULL << (next() % 64);
	if (d.gen == SOAK_GEN_ADDRESS)
		d.seed = (u64)(uintptr_t)area + 8 * (next() % 4096);
	return d;
}

/*
 * Random runs inside a 6-page area, both sides filled first with what @rd says and up to three
 * planted wrong words: the kernel and the reference, each on its own copy, must return the
 * same status and miss and leave the same words.
 */
static void test_kernel_is_the_reference(void)
{
	u8 *a = map_pages(6), *b = map_pages(6);
	unsigned long bad = 0, trials = 3000, misses = 0;

	for (unsigned long t = 0; t < trials; t++) {
		struct soak_mv mv = { random_desc(a), random_desc(a), 0 };
		u64 off = 64 * (next() % 96), len = 64 * (next() % 160), sa, sb;
		struct soak_word_miss ma = { 0 }, mb = { 0 };
		u64 *wa = (u64 *)a;

		mv.flags = 1 + next() % 3 + (next() & 1 ? SOAK_MV_DOWN : 0);
		if (t % 4 == 0) {
			/*
			 * The random pass's shape: one sequence read and written under the other
			 * invert (or the same one), whose written words the kernel takes from the
			 * read ones; a seed or a first index one off is the same work unfolded.
			 */
			mv.rd.gen = SOAK_GEN_RANDOM;
			mv.wr = mv.rd;
			mv.wr.invert ^= t % 8 ? ~0ULL : 0;
			mv.wr.seed += t % 16 == 4;
			mv.wr.first += t % 16 == 12 ? 8 : 0;
			mv.flags = SOAK_MV_READ | SOAK_MV_WRITE | (next() & 1 ? SOAK_MV_DOWN : 0);
		}
		for (size_t i = 0; i < 6 * PG / 8; i++)
			wa[i] = next();
		for (u64 i = 0; i < len / 8; i++)
			wa[off / 8 + i] = ref_word(&mv.rd, mv.rd.first + i);
		for (int p = (int)(next() % 4); p > 0 && len; p--)
			wa[off / 8 + next() % (len / 8)] ^= 1ULL << (next() % 64);
		memcpy(b, a, 6 * PG);
		sa = soak_march_mc(a + off, len, &mv, &ma);
		sb = ref_march(&real, (u64)(uintptr_t)(b + off), len, &mv, &mb);
		misses += sa == SOAK_MISCOMPARE;
		if (sa != sb || memcmp(&ma, &mb, sizeof(ma)) || memcmp(a, b, 6 * PG)) {
			if (!bad)
				printf("# trial %lu: flags %llu gens %llu/%llu off %llu len %llu: "
				       "status %llu/%llu, miss at %llu/%llu more %llu/%llu, memory "
				       "%s\n", t, (unsigned long long)mv.flags,
				       (unsigned long long)mv.rd.gen, (unsigned long long)mv.wr.gen,
				       (unsigned long long)off, (unsigned long long)len,
				       (unsigned long long)sa, (unsigned long long)sb,
				       (unsigned long long)ma.offset, (unsigned long long)mb.offset,
				       (unsigned long long)ma.more, (unsigned long long)mb.more,
				       memcmp(a, b, 6 * PG) ? "differs" : "same");
			bad++;
		}
	}
	CHECK(bad == 0, "%lu of %lu runs differ from the reference", bad, trials);
	CHECK(misses > trials / 10, "only %lu runs found a planted word", misses);
	munmap(a, 6 * PG);
	munmap(b, 6 * PG);
}

/* A wrong word: the first in the element's order is named, its line done, the rest untouched. */
static void test_miss_stops_after_its_line(void)
{
	u8 *a = map_pages(1);
	u64 *w = (u64 *)a;
	struct soak_mv mv = { { SOAK_GEN_CONST, 0, 0, 0 }, { SOAK_GEN_CONST, 0, ~0ULL, 0 },
			      SOAK_MV_READ | SOAK_MV_WRITE };
	struct soak_word_miss m;
	u64 st;

	memset(a, 0, PG);
	w[20] = 4;		/* line 2, word 4 */
	w[22] = 1;		/* the same line, word 6 */
	w[40] = 8;		/* line 5 */
	st = soak_march_mc(a, PG, &mv, &m);
	CHECK(st == SOAK_MISCOMPARE && m.offset == 160 && m.expected == 0 && m.actual == 4 &&
	      m.reread == 4 && m.more == 1, "up: status %llu offset %llu more %llu",
	      (unsigned long long)st, (unsigned long long)m.offset, (unsigned long long)m.more);
	CHECK(w[0] == ~0ULL && w[23] == ~0ULL && w[20] == ~0ULL && w[24] == 0 && w[40] == 8,
	      "up: lines 0-2 written, line 3 on untouched");
	memset(a, 0, PG);
	w[20] = 4;
	w[22] = 1;
	w[40] = 8;
	mv.flags |= SOAK_MV_DOWN;
	st = soak_march_mc(a, PG, &mv, &m);
	CHECK(st == SOAK_MISCOMPARE && m.offset == 320 && m.actual == 8 && m.more == 0,
	      "down: status %llu offset %llu", (unsigned long long)st,
	      (unsigned long long)m.offset);
	CHECK(w[511] == ~0ULL && w[40] == ~0ULL && w[39] == 0 && w[20] == 4,
	      "down: lines 63-5 written, line 4 down untouched");
	munmap(a, PG);
}

extern struct exception_table_entry __start_ck_extable[], __stop_ck_extable[];

/* Words [lo, hi) of a run at @buf as @d says (word 0 of the run is index d->first). */
static void plant(const u8 *buf, u8 *lo, const u8 *hi, const struct soak_desc *d)
{
	for (; lo < hi; lo += 8)
		*(u64 *)lo = ref_word(d, d->first + (u64)(lo - buf) / 8);
}

/*
 * A run into a PROT_NONE page (or a read-only one, for stores) after @k lines: poisoned at
 * exactly that line, everything before it done; then every entry that shares the faulting
 * loads' fixup is machine-check safe and every one sharing the stores' is not. Twice: with
 * constant and address data, and with random data (read only, written only, and each word's
 * complement over it: the loops that keep the generator in registers).
 */
static void test_faults_name_the_line(void)
{
	u8 *area = map_pages(3);
	u8 *boundary = area + 2 * PG;
	unsigned long bad = 0, runs = 0;
	uintptr_t load_fixup = 0, store_fixup = 0;
	unsigned int loads = 0, stores = 0, wrong = 0;

	mprotect(boundary, PG, PROT_NONE);
	for (u64 k = 0; k <= 64; k += 1 + next() % 3)
		for (unsigned int f = 1; f < 16; f++) {	/* flags; 8: random data */
			struct soak_mv mv = { { SOAK_GEN_CONST, 0, 0, 0 },
					      { SOAK_GEN_ADDRESS, 0, 0, 0 }, f & 3 };
			struct soak_word_miss m = { 0 };
			bool down = f & SOAK_MV_DOWN;
			u8 *buf = boundary - 64 * k;
			u64 len = 64 * k + 256, st;

			if (!(f & 3))
				continue;
			mv.flags = f & 7;
			if (down) {
				/* down from the readable page above the hole: the first page */
				mprotect(boundary, PG, PROT_READ | PROT_WRITE);
				mprotect(area, PG, PROT_NONE);
				buf = area + PG - 64 * (k + 1);
				len = 64 * (k + 1) + PG;
				memset(area + PG, 0, PG);
			} else {
				memset(area, 0, 2 * PG);
			}
			if (f & 8) {
				mv.rd = (struct soak_desc){ SOAK_GEN_RANDOM, next(), 0, 0 };
				mv.wr = mv.rd;
				mv.wr.invert = ~0ULL;
				if (down)
					plant(buf, area + PG, area + 2 * PG, &mv.rd);
				else
					plant(buf, buf, boundary, &mv.rd);
			}
			st = soak_march_mc(buf, len, &mv, &m);
			runs++;
			if (st != SOAK_POISONED || m.offset != 64 * k ||
			    m.store != !(f & SOAK_MV_READ)) {
				if (!bad)
					printf("# k %llu flags %u: status %llu offset %llu store "
					       "%llu\n", (unsigned long long)k, f,
					       (unsigned long long)st, (unsigned long long)m.offset,
					       (unsigned long long)m.store);
				bad++;
			}
			if (f & SOAK_MV_READ)
				load_fixup = shim_last.fixup;
			else
				store_fixup = shim_last.fixup;
			if (down) {
				mprotect(area, PG, PROT_READ | PROT_WRITE);
				mprotect(boundary, PG, PROT_NONE);
			}
		}
	CHECK(bad == 0, "%lu of %lu faulting runs wrong", bad, runs);
	for (const struct exception_table_entry *e = __start_ck_extable; e < __stop_ck_extable;
	     e++) {
		uintptr_t fix = ex_fixup_addr(e);

		if (fix == load_fixup) {
			loads++;
			wrong += !ex_type_mce_safe(ex_type(e));
		} else if (fix == store_fixup) {
			stores++;
			wrong += ex_type_mce_safe(ex_type(e));
		}
	}
	/*
	 * 28 loops read 8 words each (24, and random data read only or folded, up and down);
	 * 28 write 8 words each (24, and random data written only or folded)
	 */
	CHECK(load_fixup && store_fixup && loads == 28 * 8 && stores == 28 * 8 && wrong == 0,
	      "%u load entries, %u store entries, %u mistyped", loads, stores, wrong);
	munmap(area, 3 * PG);
}

static void test_bad_arguments_are_refused(void)
{
	u8 *a = map_pages(1);
	struct soak_mv mv = { { SOAK_GEN_CONST, 0, 0, 0 }, { SOAK_GEN_CONST, 0, 0, 0 },
			      SOAK_MV_WRITE };
	struct soak_word_miss m;
	bool untouched = true;

	memset(a, 0x11, PG);
	CHECK(soak_march_mc(a + 8, 64, &mv, &m) == SOAK_BAD_ARGS, "a run at +8");
	CHECK(soak_march_mc(a, 72, &mv, &m) == SOAK_BAD_ARGS, "72 bytes");
	mv.wr.first = 3;
	CHECK(soak_march_mc(a, 64, &mv, &m) == SOAK_BAD_ARGS, "first 3");
	mv.wr.first = 0;
	mv.wr.gen = NR_SOAK_GEN;
	CHECK(soak_march_mc(a, 64, &mv, &m) == SOAK_BAD_ARGS, "an unknown generator");
	mv.wr.gen = SOAK_GEN_CONST;
	mv.flags = SOAK_MV_DOWN;
	CHECK(soak_march_mc(a, 64, &mv, &m) == SOAK_BAD_ARGS, "neither read nor write");
	for (size_t i = 0; i < PG; i++)
		untouched &= a[i] == 0x11;
	CHECK(untouched, "a refused run wrote");
	mv.flags = SOAK_MV_READ;
	CHECK(soak_march_mc(a, 0, &mv, &m) == SOAK_OK, "zero length");
	munmap(a, PG);
}

/* ---- the walk --------------------------------------------------------------------------- */

#define WALK_BASE	0x40000000ULL

static struct soak_plan plan;

/* Two CPUs over three ranges: an odd number of pages, a chunk cut at a range's end. */
static void make_plan(u64 chunk)
{
	static const struct soak_range r[3] = {
		{ WALK_BASE, (3ULL << 20) + 5 * PG, 0 },
		{ WALK_BASE + (8ULL << 20), 1ULL << 20, 0 },
		{ WALK_BASE + (16ULL << 20), (2ULL << 20) + PG, 0 },
	};
	static const u8 node[2] = { 0, 0 };
	struct soak_plan_in in = { r, 3, node, 2, 1, NULL, chunk };
	const char *why;

	why = "";
	CHECK(!soak_plan_make(&in, &plan, &why), "plan: %s", why);
}

/* Mark every page piece by piece, in the order the element takes them; @n counts them. */
static unsigned long walk_el(unsigned int cpu, const struct soak_el *e, u32 pass, u8 *seen,
			     u64 *order, unsigned long *n)
{
	struct soak_walk w;
	struct soak_piece pc;
	unsigned long bad = 0;

	soak_walk_init(&w, &plan, cpu, e, pass);
	while (soak_walk_next(&w, &pc)) {
		u64 end = pc.a.base + (pc.a.pages << PAGE_SHIFT);

		bad += pc.len == 0 || pc.len > SOAK_PIECE_MAX || pc.pa < pc.a.base ||
		       pc.pa + pc.len > end || pc.len % PG;
		for (u64 k = 0; k < pc.len / PG; k++) {
			u64 p = e->down ? pc.pa + pc.len - (k + 1) * PG : pc.pa + k * PG;

			seen[(p - WALK_BASE) / PG]++;
			if (order)
				order[(*n)++] = p;
		}
	}
	return bad;
}

static void test_walk_covers_each_page_once(void)
{
	static u8 seen[(32ULL << 20) / PG];
	static u64 up[8192], down[8192];
	const struct soak_el sweep_up = { SOAK_EL_SWEEP, false, true, SOAK_PAT_ZERO, false };
	const struct soak_el sweep_down = { SOAK_EL_SWEEP, true, true, SOAK_PAT_ZERO, false };
	const struct soak_el pairs = { SOAK_EL_PAIRS, false, true, SOAK_PAT_RANDOM, false };

	make_plan(1ULL << 20);
	for (unsigned int cpu = 0; cpu < 2; cpu++) {
		unsigned long nu = 0, nd = 0, bad = 0;

		memset(seen, 0, sizeof(seen));
		bad += walk_el(cpu, &sweep_up, 0, seen, up, &nu);
		bad += walk_el(cpu, &sweep_down, 0, seen, down, &nd);
		for (unsigned int s = 0; s < 2; s++) {
			struct soak_slice sl;

			for (unsigned int k = 0; soak_plan_slice(&plan, cpu, k, &sl); k++)
				for (u64 p = sl.base; p < sl.base + sl.size; p += PG)
					bad += seen[(p - WALK_BASE) / PG] != 2;
		}
		CHECK(bad == 0 && nu == nd, "CPU %u: %lu pages wrong (%lu up, %lu down)", cpu, bad,
		      nu, nd);
		/* down walks exactly the pages up walks, in the reverse order of pages */
		bad = 0;
		for (unsigned long i = 0; i < nu; i++)
			bad += up[i] != down[nu - 1 - i];
		CHECK(bad == 0, "CPU %u: down is not up reversed (%lu pages)", cpu, bad);
		/* pairs: the source halves and the lone pages, and no destination half */
		for (u32 pass = 0; pass < 2; pass++) {
			struct soak_walk w;
			struct soak_piece pc;
			unsigned long dst = 0, src = 0, lone = 0;

			soak_walk_init(&w, &plan, cpu, &pairs, pass);
			while (soak_walk_next(&w, &pc)) {
				dst += pc.a.kind == (u8)(soak_src_half(pass) ^ 1);
				src += pc.a.kind == (u8)soak_src_half(pass);
				lone += pc.a.kind == SOAK_AREA_LONE;
			}
			CHECK(dst == 0 && src > 0 && lone > 0, "pass %u: %lu dst, %lu src, %lu lone",
			      pass, dst, src, lone);
		}
	}
}

/* ---- the passes over a fault-free simulated memory -------------------------------------- */

/* Every word of every area as soak_contents says after @pass. */
static unsigned long check_contents(struct sim_soak *s, u32 pass)
{
	struct soak_content c[NR_SOAK_AREAS];
	unsigned long bad = 0;
	struct soak_walk w;
	struct soak_piece pc;
	const struct soak_el sweep = { SOAK_EL_SWEEP, false, true, SOAK_PAT_NONE, false };

	soak_contents(pass, soak_pass_row(pass, NULL)->nr_el, c);
	for (unsigned int cpu = 0; cpu < s->plan.nr_cpus; cpu++) {
		soak_walk_init(&w, &s->plan, cpu, &sweep, pass);
		while (soak_walk_next(&w, &pc))
			for (u64 p = pc.pa; p < pc.pa + pc.len; p += 8) {
				struct soak_desc d;
				u64 i = (p - pc.a.base) / 8;

				soak_content_desc(s->prog.seed, &c[pc.a.kind], &pc.a, i, &d);
				bad += sim_read_word(&s->mem, p) != ref_word(&d, d.first);
			}
	}
	return bad;
}

static void passes_clean(bool full, unsigned int cpus, bool interleave)
{
	static struct sim_soak s;
	u32 passes = 2 * soak_schedule_rows;

	sim_soak_init(&s, WALK_BASE, (3ULL << 20) + 3 * PG, cpus, 1ULL << 20, full);
	s.interleave = interleave;
	s.fade_ns = 1000;
	sim_soak_passes(&s, 0, passes);
	CHECK(s.found_count == 0, "%s, %u CPUs: %llu found in a fault-free memory, the first at "
	      "0x%llx pass %u element %u expected 0x%llx actual 0x%llx", full ? "full" : "lazy",
	      cpus, (unsigned long long)s.found_count,
	      (unsigned long long)(s.nr_found ? s.found[0].pa : 0), s.nr_found ? s.found[0].pass : 0,
	      s.nr_found ? s.found[0].el : 0,
	      (unsigned long long)(s.nr_found ? s.found[0].expected : 0),
	      (unsigned long long)(s.nr_found ? s.found[0].actual : 0));
	CHECK(check_contents(&s, passes - 1) == 0, "the words at the end are not what "
	      "soak_contents says");
	for (int op = 0; op < NR_SOAK_COPY_OPS; op++)
		CHECK(s.copies[op] > 0, "%s never copied", soak_copy_op_name(op));
	sim_soak_free(&s);
}

static void test_passes_find_nothing_in_good_memory(void)
{
	passes_clean(true, 1, true);
	passes_clean(false, 1, true);
	passes_clean(false, 3, true);
	passes_clean(false, 2, false);
}

int main(void)
{
	fault_shim_install();
	return RUN_TESTS(test_reference_patterns, test_kernel_is_the_reference,
			 test_miss_stops_after_its_line, test_faults_name_the_line,
			 test_bad_arguments_are_refused, test_walk_covers_each_page_once,
			 test_passes_find_nothing_in_good_memory);
}
