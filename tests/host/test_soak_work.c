// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_soak_work.c - one worker of the hosted soak twin (host/soak/twin_work.c) over real
 * memory with the image's routines: the elements of the image's passes, what they leave, what
 * they count, and what they record when a word is wrong.
 *
 * Oracles: the words every area must hold come from the reference generator
 * (tests/host/sim_mem.c's ref_word, checked against published splitmix64 outputs in
 * test_soak_march.c) through soak/pattern.c's descriptors; the bytes a pass must read, write
 * and copy are counted here from the plan by pattern.h's rules (each element after the
 * soak's first reads every page once, a copy moves every source half); the miscompares are
 * planted by the test's own "copy" (the worker's non-temporal copy slot), so their address,
 * bit and values are known before the run.
 */
#include <sys/mman.h>

#include "copy/routines.h"
#include "host/soak/twin_work.h"
#include "kernel/include/page_types.h"
#include "tests/host/host_test.h"
#include "tests/host/sim_mem.h"

#define BYTES		((2ULL << 20) + 3 * 4096)	/* two chunks and a cut one */
#define FAKE_PHYS	0x100000000000ULL

static u8 *mem;
static struct soak_plan plan;
static struct soak_prog prog;
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

static void setup(void)
{
	static struct page frames[(BYTES + (2 << 20)) >> 12];
	static const u8 node[1];
	struct soak_range r;
	struct soak_plan_in in = { &r, 1, node, 1, 1, NULL, 1ULL << 20 };
	const char *why;
	u8 *q;

	if (mem)
		return;
	q = mmap(NULL, BYTES + (2 << 20), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	mem = (u8 *)(((uintptr_t)q + (2 << 20) - 1) & ~(uintptr_t)((2 << 20) - 1));
	pgmap_add((uintptr_t)mem >> 12, BYTES >> 12, frames, 0);
	r = (struct soak_range){ (u64)(uintptr_t)mem, BYTES, 0 };
	if (soak_plan_make(&in, &plan, &why)) {
		printf("# plan: %s\n", why);
		exit(2);
	}
}

static void run_passes(struct soak_twin_worker *w, u32 from, u32 to)
{
	for (u32 pass = from; pass < to; pass++)
		for (unsigned int el = 0; el < soak_pass_row(pass, NULL)->nr_el; el++)
			CHECK(soak_twin_el_run(w, &prog, pass, el, 0, 0), "pass %u element %u "
			      "stopped", pass, el);
}

/* Words of the memory that are not what soak_contents says after @pass. */
static unsigned long wrong_words(u32 pass)
{
	const struct soak_el all = { SOAK_EL_SWEEP, false, true, SOAK_PAT_NONE, false };
	struct soak_content c[NR_SOAK_AREAS];
	struct soak_walk w;
	struct soak_piece pc;
	unsigned long bad = 0;

	soak_contents(pass, soak_pass_row(pass, NULL)->nr_el, c);
	soak_walk_init(&w, &plan, 0, &all, pass);
	while (soak_walk_next(&w, &pc))
		for (u64 p = pc.pa; p < pc.pa + pc.len; p += 8) {
			struct soak_desc d;

			soak_content_desc(prog.seed, &c[pc.a.kind], &pc.a, (p - pc.a.base) / 8, &d);
			bad += *(u64 *)(uintptr_t)p != ref_word(&d, d.first);
		}
	return bad;
}

/* The bytes of every source half of the plan (what one copying element copies). */
static u64 half_bytes(void)
{
	const struct soak_el pairs = { SOAK_EL_PAIRS, false, true, SOAK_PAT_RANDOM, false };
	struct soak_walk w;
	struct soak_piece pc;
	u64 n = 0;

	soak_walk_init(&w, &plan, 0, &pairs, 0);
	while (soak_walk_next(&w, &pc))
		n += pc.a.kind == SOAK_AREA_LONE ? 0 : pc.len;
	return n;
}

/* Passes 0..5 with the four page/folio primitives: all clean, everything counted. */
static void test_clean_passes(void)
{
	static struct soak_twin_worker w;
	const u32 ops = SOAK_COPY_ALL & ~(1u << SOAK_COPY_NT);
	u64 reads = 0, copies = 0;

	setup();
	prog = (struct soak_prog){ &plan, 0x1234, ops };
	soak_twin_worker_init(&w, 0, ops, NULL, NULL, fake_now);
	run_passes(&w, 0, 6);
	CHECK(wrong_words(5) == 0, "the memory is not what pass 5 left");
	for (u32 pass = 0; pass < 6; pass++) {
		const struct soak_pass_row *row = soak_pass_row(pass, NULL);

		for (unsigned int el = 0; el < row->nr_el; el++) {
			reads += row->el[el].read && (pass || el);
			copies += row->el[el].kind == SOAK_EL_PAIRS;
		}
	}
	CHECK(w.count.checked == reads * BYTES && w.count.copied == copies * half_bytes(),
	      "checked %llu (want %llu), copied %llu (want %llu)",
	      (unsigned long long)w.count.checked, (unsigned long long)(reads * BYTES),
	      (unsigned long long)w.count.copied, (unsigned long long)(copies * half_bytes()));
	for (int op = 0; op < NR_SOAK_COPY_OPS; op++)
		CHECK((w.op_copies[op] > 0) == (op != SOAK_COPY_NT), "%s copied %llu times",
		      soak_copy_op_name(op), (unsigned long long)w.op_copies[op]);
	CHECK(w.ledger.count[SOAK_EV_MISCOMPARE] == 0 && w.nr_detail == 0, "nothing recorded");
}

/* The planted faults: which side, which word of the copy, which bit, how many (8 apart). */
static struct plant {
	bool in_src;
	unsigned int first_word, words, bit;
	bool done;
} plant;

static size_t copy_and_plant(void *dst, const void *src, size_t len)
{
	u64 *w = (u64 *)(plant.in_src ? (void *)src : dst);

	memcpy(dst, src, len);
	if (plant.done)
		return 0;
	plant.done = true;
	for (unsigned int i = 0; i < plant.words; i++)
		w[plant.first_word + 8 * i] ^= 1ULL << plant.bit;
	return 0;
}

static void nt_worker(struct soak_twin_worker *w)
{
	prog = (struct soak_prog){ &plan, 0x77, 1u << SOAK_COPY_NT };
	soak_twin_worker_init(w, 0, 1u << SOAK_COPY_NT, copy_and_plant, fake_phys, fake_now);
}

/* The first copy of pass 0 (the address data): its first destination page. */
static u64 first_copy_dst(u32 pass)
{
	const struct soak_el pairs = { SOAK_EL_PAIRS, false, true, SOAK_PAT_RANDOM, false };
	struct soak_walk w;
	struct soak_piece pc;

	soak_walk_init(&w, &plan, 0, &pairs, pass);
	while (soak_walk_next(&w, &pc))
		if (pc.a.kind != SOAK_AREA_LONE)
			return pc.a.other + (((pc.pa - pc.a.base) >> PAGE_SHIFT) +
					     soak_rotation(pass, pc.a.pages)) % pc.a.pages * 4096;
	return 0;
}

/* One bit flipped in the destination after the copy: a stored error, named exactly. */
static void test_destination_flip(void)
{
	static struct soak_twin_worker w;
	const struct soak_twin_detail *d = &w.detail[0];
	u64 at;

	setup();
	nt_worker(&w);
	plant = (struct plant){ false, 100, 1, 5, false };
	run_passes(&w, 0, 1);
	at = first_copy_dst(0) + 800;
	CHECK(w.ledger.count[SOAK_EV_MISCOMPARE] == 1 && w.nr_detail == 1, "one miscompare: %llu",
	      (unsigned long long)w.ledger.count[SOAK_EV_MISCOMPARE]);
	CHECK(d->virt == at && d->phys == fake_phys((void *)(uintptr_t)at),
	      "at the copy + 800: virt %llx phys %llx", (unsigned long long)d->virt,
	      (unsigned long long)d->phys);
	CHECK((d->expected ^ d->actual) == 32 && d->reread == d->actual &&
	      d->reread_class == SOAK_REREAD_STORED, "bit 5, a stored error: %s",
	      soak_reread_name(d->reread_class));
	CHECK(d->writer.how == SOAK_HOW_COPY && d->writer.copy_op == SOAK_COPY_NT &&
	      d->writer.pat == SOAK_PAT_ADDRESS && d->pass == 0 &&
	      d->el == soak_pass_row(0, NULL)->nr_el - 1 && d->kind == SOAK_EV_MISCOMPARE,
	      "written by the NT copy of address data, found by pass 0's last element");
	CHECK(w.ev[0].phys == fake_phys((void *)(uintptr_t)at) && w.ev[0].cpu == 0,
	      "the ledger entry: phys %llx cpu %u", (unsigned long long)w.ev[0].phys,
	      w.ev[0].cpu);
	CHECK(wrong_words(0) == 1, "the flipped word stays: the twin takes nothing out");
}

/* Bit 63 of a source word in the zeros pass (the clear wrote it), found going down. */
static void test_source_flip_zeros_pass(void)
{
	static struct soak_twin_worker w;
	const struct soak_twin_detail *d = &w.detail[0];
	u32 zeros = 0;

	while (strcmp(soak_pass_row(++zeros, NULL)->name, "zeros"))
		;
	setup();
	nt_worker(&w);
	plant = (struct plant){ true, 3, 1, 63, true };
	run_passes(&w, 0, zeros);
	plant.done = false;
	run_passes(&w, zeros, zeros + 1);
	CHECK(w.nr_detail == 1 && d->pass == zeros && d->el == 1, "%u details, pass %u el %u",
	      w.nr_detail, d->pass, d->el);
	CHECK(d->expected == 0 && d->actual == 1ULL << 63, "zeros expected, bit 63 read");
	CHECK(d->writer.how == SOAK_HOW_CLEAR && d->writer.copy_op == -1 &&
	      d->writer.pat == SOAK_PAT_ZERO, "written by the clear: %s",
	      soak_how_name(d->writer.how));
}

/* Forty bad words, one a line: each found, SOAK_TWIN_DETAILS kept, the rest counted. */
static void test_many_flips(void)
{
	static struct soak_twin_worker w;

	setup();
	nt_worker(&w);
	plant = (struct plant){ false, 10, 40, 0, false };
	run_passes(&w, 0, 1);
	CHECK(w.ledger.count[SOAK_EV_MISCOMPARE] == 40, "%llu recorded",
	      (unsigned long long)w.ledger.count[SOAK_EV_MISCOMPARE]);
	CHECK(w.nr_detail == SOAK_TWIN_DETAILS && w.details_dropped == 40 - SOAK_TWIN_DETAILS,
	      "%u details kept, %llu dropped", w.nr_detail,
	      (unsigned long long)w.details_dropped);
}

/* Without a non-temporal copy the rotation leaves it out. */
static void test_nt_left_out(void)
{
	static struct soak_twin_worker w;

	setup();
	soak_twin_worker_init(&w, 0, SOAK_COPY_ALL, NULL, NULL, fake_now);
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
	prog = (struct soak_prog){ &plan, 1, SOAK_COPY_ALL };
	soak_twin_worker_init(&w, 0, SOAK_COPY_ALL, copy_mc_avx2_nt, NULL, fake_now);
	CHECK(w.ops == SOAK_COPY_ALL, "with an NT copy: ops %x", w.ops);
	run_passes(&w, 0, 6);
	for (int op = 0; op < NR_SOAK_COPY_OPS; op++)
		CHECK(w.op_copies[op] > 0, "%s: %llu copies", soak_copy_op_name(op),
		      (unsigned long long)w.op_copies[op]);
	CHECK(w.ledger.count[SOAK_EV_MISCOMPARE] == 0 && wrong_words(5) == 0, "clean");
}

int main(void)
{
	return RUN_TESTS(test_clean_passes, test_destination_flip, test_source_flip_zeros_pass,
			 test_many_flips, test_nt_left_out, test_nt_rotation);
}
