// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_soak_work.c - one chunk pair of the hosted soak twin (host/soak/twin_work.c) over real
 * memory with the image's routines: what it writes, which primitive copies each pair, what
 * it counts, and what it records when a word is wrong.
 *
 * Oracles: the words every buffer must hold come from a splitmix64 written here from its
 * published definition (Steele, Lea, Flood 2014; Vigna's splitmix64.c), the lanes included,
 * following copy/verify.h's description of the generators, never from verify.asm; which
 * primitive a pair gets follows pattern.h's stated rotation (every pass uses each of the
 * available primitives once over as many pairs); the miscompares are planted by the test's
 * own "copy" (the worker's non-temporal copy slot), so their address, bit and values are
 * known before the run.
 */
#include <sys/mman.h>

#include "copy/routines.h"
#include "host/soak/twin_work.h"
#include "tests/host/host_test.h"

#define PAIR_BYTES	(512u << 10)
#define NR_PAIRS	4
#define FAKE_PHYS	0x100000000000ULL

static u8 *mem;
static struct soak_twin_pair pairs[NR_PAIRS];
static u64 clock_now;

static u64 fake_now(void)
{
	return clock_now += 1000;
}

/* A physical address for @virt the test can predict. */
static u64 fake_phys(const void *virt)
{
	return FAKE_PHYS + ((u64)(uintptr_t)virt - (u64)(uintptr_t)mem);
}

static u64 sm_next(u64 *state)
{
	u64 z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Word @i of the pattern @d describes, by the definitions in copy/verify.h's comment. */
static u64 expect(const struct soak_desc *d, u64 i)
{
	u64 idx = d->first + i, lane[8] = { 0 }, st = 0, g;

	if (d->gen == SOAK_GEN_ROTATE) {
		unsigned int r = (unsigned int)(idx % 64);

		return (r ? d->seed << r | d->seed >> (64 - r) : d->seed) ^ d->invert;
	}
	for (int k = 1; k < 8; k++)
		lane[k] = sm_next(&st);
	st = d->seed + (idx / 8) * 0x9e3779b97f4a7c15ULL;	/* the (g+1)-th output */
	g = sm_next(&st);
	return g ^ lane[idx % 8] ^ d->invert;
}

/* Does @buf hold @d's pattern? The first bad word's index, or -1. */
static long first_bad(const u8 *buf, size_t len, const struct soak_desc *d)
{
	const u64 *w = (const u64 *)buf;

	for (size_t i = 0; i < len / 8; i++)
		if (w[i] != expect(d, i))
			return (long)i;
	return -1;
}

static void setup(void)
{
	static struct page frames[(2 * NR_PAIRS * PAIR_BYTES) >> 12];
	size_t bytes = 2 * NR_PAIRS * PAIR_BYTES;
	u8 *q;

	if (mem)
		return;
	q = mmap(NULL, bytes + (2 << 20), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	mem = (u8 *)(((uintptr_t)q + (2 << 20) - 1) & ~(uintptr_t)((2 << 20) - 1));
	pgmap_add((uintptr_t)mem >> 12, bytes >> 12, frames, 0);
	for (int k = 0; k < NR_PAIRS; k++) {
		struct soak_twin_pair *p = &pairs[k];

		p->src = mem + 2 * k * PAIR_BYTES;
		p->dst = p->src + PAIR_BYTES;
		p->bytes = PAIR_BYTES;
		p->fsrc = (struct folio){ pfn_to_page((uintptr_t)p->src >> 12), PAIR_BYTES >> 12 };
		p->fdst = (struct folio){ pfn_to_page((uintptr_t)p->dst >> 12), PAIR_BYTES >> 12 };
	}
}

/* Passes 0..5 over four pairs with the four page/folio primitives: all clean. */
static void test_clean_passes(void)
{
	static struct soak_twin_worker w;
	const u32 ops = SOAK_COPY_ALL & ~(1u << SOAK_COPY_NT);

	setup();
	soak_twin_worker_init(&w, 0, 0x1234, ops, NULL, NULL, fake_now);
	for (u32 pass = 0; pass < 6; pass++)
		for (int k = 0; k < NR_PAIRS; k++) {
			struct soak_desc d;
			long bad_dst, bad_src;
			u64 got = soak_twin_pair_run(&w, pass, (u64)k, &pairs[k]);

			soak_pattern_desc(0x1234, pass, (uintptr_t)pairs[k].src >> 12, &d);
			bad_dst = first_bad(pairs[k].dst, PAIR_BYTES, &d);
			bad_src = first_bad(pairs[k].src, PAIR_BYTES, &d);
			CHECK(got == 2 * PAIR_BYTES, "pass %u pair %d checked %llu", pass, k,
			      (unsigned long long)got);
			CHECK(bad_dst < 0 && bad_src < 0, "pass %u pair %d: the pattern is there "
			      "(first bad word dst %ld src %ld)", pass, k, bad_dst, bad_src);
		}
	CHECK(w.count.pairs == 24 && w.count.copied == 24ULL * PAIR_BYTES &&
	      w.count.checked == 48ULL * PAIR_BYTES, "counts %llu %llu %llu",
	      (unsigned long long)w.count.pairs, (unsigned long long)w.count.copied,
	      (unsigned long long)w.count.checked);
	for (int op = 0; op < NR_SOAK_COPY_OPS; op++)
		CHECK(w.op_pairs[op] == (op == SOAK_COPY_NT ? 0u : 6u),
		      "%s copied %llu pairs", soak_copy_op_name(op),
		      (unsigned long long)w.op_pairs[op]);
	CHECK(w.ledger.count[SOAK_EV_MISCOMPARE] == 0 && w.nr_detail == 0, "nothing recorded");
}

/* The planted faults: which buffer, which word, which bit, how many. */
static struct plant {
	bool in_src;
	unsigned int first_word, words, bit;
} plant;

static size_t copy_and_plant(void *dst, const void *src, size_t len)
{
	u64 *w = (u64 *)(plant.in_src ? (void *)src : dst);

	memcpy(dst, src, len);
	for (unsigned int i = 0; i < plant.words; i++)
		w[plant.first_word + 2 * i] ^= 1ULL << plant.bit;
	return 0;
}

static void nt_worker(struct soak_twin_worker *w)
{
	soak_twin_worker_init(w, 3, 0x77, 1u << SOAK_COPY_NT, copy_and_plant, fake_phys,
			      fake_now);
}

/* One bit flipped in the destination after the copy: a stored error, named exactly. */
static void test_destination_flip(void)
{
	static struct soak_twin_worker w;
	const struct soak_twin_pair *p = &pairs[1];
	const struct soak_twin_detail *d = &w.detail[0];
	struct soak_desc desc;
	u64 got;

	setup();
	nt_worker(&w);
	plant = (struct plant){ false, 100, 1, 5 };
	got = soak_twin_pair_run(&w, 1, 0, p);
	soak_pattern_desc(0x77, 1, (uintptr_t)p->src >> 12, &desc);
	CHECK(got == 2 * PAIR_BYTES, "the rest checked too: %llu", (unsigned long long)got);
	CHECK(w.ledger.count[SOAK_EV_MISCOMPARE] == 1 && w.nr_detail == 1, "one miscompare");
	CHECK(d->virt == (uintptr_t)p->dst + 800 && d->phys == fake_phys(p->dst + 800),
	      "at dst + 800: virt %llx phys %llx", (unsigned long long)d->virt,
	      (unsigned long long)d->phys);
	CHECK(d->expected == expect(&desc, 100) && d->actual == (expect(&desc, 100) ^ 32),
	      "expected %llx actual %llx", (unsigned long long)d->expected,
	      (unsigned long long)d->actual);
	CHECK(d->reread == d->actual && d->reread_class == SOAK_REREAD_STORED,
	      "a stored error: %s", soak_reread_name(d->reread_class));
	CHECK(d->side == 0 && d->writer.how == SOAK_HOW_COPY && d->writer.copy_op == SOAK_COPY_NT
	      && d->writer.pat == SOAK_PAT_RANDOM && d->pass == 1 && d->kind == SOAK_EV_MISCOMPARE,
	      "destination, written by the NT copy of pass 1's random data");
	CHECK(w.ev[0].phys == (fake_phys(p->dst + 800)) && w.ev[0].cpu == 3,
	      "the ledger entry: phys %llx cpu %u", (unsigned long long)w.ev[0].phys,
	      w.ev[0].cpu);
}

/* Bit 63 of the source's word 3, on the zero pass: the clear wrote it. */
static void test_source_flip_zero_pass(void)
{
	static struct soak_twin_worker w;
	const struct soak_twin_detail *d = &w.detail[0];

	setup();
	nt_worker(&w);
	plant = (struct plant){ true, 3, 1, 63 };
	soak_twin_pair_run(&w, 0, 0, &pairs[2]);
	CHECK(w.nr_detail == 1 && d->side == 1 && d->virt == (uintptr_t)pairs[2].src + 24,
	      "source word 3: %u details, side %u", w.nr_detail, d->side);
	CHECK(d->expected == 0 && d->actual == 1ULL << 63, "zeros expected, bit 63 read");
	CHECK(d->writer.how == SOAK_HOW_CLEAR && d->writer.copy_op == -1 &&
	      d->writer.pat == SOAK_PAT_ZERO, "written by the clear: %s",
	      soak_how_name(d->writer.how));
}

/* Forty bad words: SOAK_TWIN_MISS_MAX recorded, the rest of that buffer not counted. */
static void test_many_flips(void)
{
	static struct soak_twin_worker w;
	u64 got, last;

	setup();
	nt_worker(&w);
	plant = (struct plant){ false, 10, 40, 0 };
	got = soak_twin_pair_run(&w, 2, 0, &pairs[3]);
	last = 10 + 2 * (SOAK_TWIN_MISS_MAX - 1);	/* the 16th planted word */
	CHECK(w.ledger.count[SOAK_EV_MISCOMPARE] == SOAK_TWIN_MISS_MAX, "%llu recorded",
	      (unsigned long long)w.ledger.count[SOAK_EV_MISCOMPARE]);
	CHECK(got == PAIR_BYTES + 8 * (last + 1), "checked %llu: the source and the "
	      "destination up to its 16th bad word", (unsigned long long)got);
	CHECK(w.count.checked == got && w.count.copied == PAIR_BYTES, "counted as checked");
	soak_twin_pair_run(&w, 3, 0, &pairs[3]);
	CHECK(w.nr_detail == SOAK_TWIN_DETAILS &&
	      w.details_dropped == 2 * SOAK_TWIN_MISS_MAX - SOAK_TWIN_DETAILS,
	      "%u details kept, %llu dropped", w.nr_detail,
	      (unsigned long long)w.details_dropped);
	CHECK(w.ledger.count[SOAK_EV_MISCOMPARE] == 2 * SOAK_TWIN_MISS_MAX, "all counted");
}

/* Without a non-temporal copy the rotation leaves it out. */
static void test_nt_left_out(void)
{
	static struct soak_twin_worker w;

	setup();
	soak_twin_worker_init(&w, 0, 1, SOAK_COPY_ALL, NULL, NULL, fake_now);
	CHECK(w.ops == (SOAK_COPY_ALL & ~(1u << SOAK_COPY_NT)), "no NT copy: ops %x", w.ops);
}

/* With one (copy_mc_avx2_nt: AVX2), it takes its turn. */
static void test_nt_rotation(void)
{
	static struct soak_twin_worker w;

	if (!__builtin_cpu_supports("avx2")) {
		SKIP("no AVX2 here: the NT copy cannot run");
		return;
	}
	setup();
	soak_twin_worker_init(&w, 0, 1, SOAK_COPY_ALL, copy_mc_avx2_nt, NULL, fake_now);
	CHECK(w.ops == SOAK_COPY_ALL, "with an NT copy: ops %x", w.ops);
	for (u32 pass = 1; pass <= 5; pass++)
		for (int k = 0; k < 2; k++)
			soak_twin_pair_run(&w, pass, (u64)k, &pairs[k]);
	/* 2 pairs a pass over 5 primitives, each pass starting one further: 5 passes, twice each */
	for (int op = 0; op < NR_SOAK_COPY_OPS; op++)
		CHECK(w.op_pairs[op] == 2, "%s: %llu pairs", soak_copy_op_name(op),
		      (unsigned long long)w.op_pairs[op]);
	CHECK(w.ledger.count[SOAK_EV_MISCOMPARE] == 0, "clean");
}

int main(void)
{
	return RUN_TESTS(test_clean_passes, test_destination_flip, test_source_flip_zero_pass,
			 test_many_flips, test_nt_left_out, test_nt_rotation);
}
