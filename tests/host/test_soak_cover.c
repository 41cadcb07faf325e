// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_soak_cover.c - the soak's coverage rule and the pages it names (soak/cover.c), with
 * the plan (plan.c) and a pass's first element as the image walks it (march.c, its pages
 * counted through the seam with the memory stubbed out).
 *
 * Issue 31's false FAIL, replayed: four CPUs share one node's free memory of about 1 GiB in
 * the ranges OVMF leaves under QEMU; a page the self-tests left on the poison list
 * (0x12345000, the page their simulated machine checks named) is never touched, so the CPU
 * whose share holds it touches one page less than its share. Which CPU that is, and its share,
 * are worked out here from plan.h's rule (a node's pages split in address order into equal
 * counts, floor(pages * r / n) the first page of rank r), not read from the plan. The
 * coverage rule must then fail that CPU alone and name that page with its reason; a page
 * the soak itself retired must not fail it.
 */
#include "kernel/include/page_types.h"
#include "soak/cover.h"
#include "soak/march.h"
#include "tests/host/host_test.h"

#define MiB	(1ULL << 20)
#define BAD	0x12345000ULL
#define RETIRED	0x2000000ULL

/*
 * Free RAM above 1 MiB in a 1 GiB QEMU guest's map (usable and boot-services memory, as the
 * boot allocator holds it once the firmware is left), the kind of ranges the soak takes.
 */
static const struct soak_range ranges[] = {
	{ 0x100000, 0x706000, 0 },
	{ 0x808000, 0x8000, 0 },
	{ 0x900000, 0xbb6d000 - 0x900000, 0 },
	{ 0xbb8d000, 0xdc12000 - 0xbb8d000, 0 },
	{ 0xdd56000, 0xdea3000 - 0xdd56000, 0 },
	{ 0x10000000, 0x3fe00000 - 0x10000000, 0 },
};
static const u8 four_cpus[] = { 0, 0, 0, 0 };
static struct soak_plan plan;

static void make(void)
{
	struct soak_plan_in in = { ranges, ARRAY_SIZE(ranges), four_cpus, 4, 1, NULL, 0 };
	const char *why = NULL;

	if (soak_plan_make(&in, &plan, &why)) {
		printf("# plan refused: %s\n", why);
		exit(1);
	}
}

/* Pages of the ranges below @pa (its index in the node's address order), and all of them. */
static u64 index_of(u64 pa, u64 *total)
{
	u64 below = 0;

	*total = 0;
	for (unsigned int i = 0; i < ARRAY_SIZE(ranges); i++) {
		u64 n = ranges[i].size / PAGE_SIZE;

		if (pa >= ranges[i].base + ranges[i].size)
			below += n;
		else if (pa >= ranges[i].base)
			below += (pa - ranges[i].base) / PAGE_SIZE;
		*total += n;
	}
	return below;
}

static bool out_page(u64 pa, void *ctx)
{
	(void)ctx;
	return pa == BAD;
}

static enum soak_out why_out(u64 pa, void *ctx)
{
	(void)ctx;
	if (pa == BAD)
		return SOAK_OUT_POISON_BEFORE;
	return pa == RETIRED ? SOAK_OUT_RETIRED : SOAK_OUT_NONE;
}

/* The memory stubbed out: every word reads right, the copies and clears do nothing. */
static u64 no_march(void *ctx, u64 pa, u64 len, const struct soak_mv *mv,
		    struct soak_word_miss *m)
{
	(void)ctx, (void)pa, (void)len, (void)mv, (void)m;
	return SOAK_OK;
}

static int no_copy(void *ctx, int op, u64 dst, u64 src, u64 pages)
{
	(void)ctx, (void)op, (void)dst, (void)src, (void)pages;
	return 0;
}

static void no_clear(void *ctx, u64 pa, u64 pages)
{
	(void)ctx, (void)pa, (void)pages;
}

static bool out_ctx(void *ctx, u64 pa)
{
	return out_page(pa, ctx);
}

static void no_found(void *ctx, const struct soak_found *f)
{
	(void)ctx;
	CHECK(0, "a wrong word at 0x%llx from memory that reads right", (unsigned long long)f->pa);
}

static void no_written(void *ctx, u64 pa, u64 len, bool source)
{
	(void)ctx, (void)pa, (void)len, (void)source;
}

/*
 * Pages CPU @cpu touches in the first element of pass @pass with BAD out, counted as the
 * image's run_el does (its pass's page count is that element's).
 */
static u64 touched(unsigned int cpu, u32 pass)
{
	const struct soak_mem_ops ops = { NULL, no_march, no_copy, no_clear, out_ctx, no_found,
					  no_written };
	const struct soak_prog prog = { &plan, 1, 1 };
	struct soak_el_run r;
	struct soak_walk w;
	struct soak_piece pc;

	soak_el_begin(&r, &prog, &ops, pass, 0);
	soak_walk_init(&w, &plan, cpu, r.e, pass);
	while (soak_walk_next(&w, &pc))
		soak_el_piece(&r, &pc);
	return r.pages;
}

static void test_a_page_poisoned_before_fails_its_cpu_and_is_named(void)
{
	u64 total, at = index_of(BAD, &total);
	unsigned int owner = 4;

	for (unsigned int r = 0; r < 4; r++)
		if (at >= total * r / 4 && at < total * (r + 1) / 4)
			owner = r;
	CHECK(owner == 1, "0x12345000 is page %llu of %llu: CPU %u's (the issue's was CPU 1)",
	      (unsigned long long)at, (unsigned long long)total, owner);
	for (unsigned int cpu = 0; cpu < 4; cpu++) {
		u64 share = total * (cpu + 1) / 4 - total * cpu / 4;
		struct soak_cover_cpu c = { .want = soak_cover_want(&plan, cpu), .passes = 1 };

		CHECK(c.want == share, "CPU %u: %llu pages in its slices, its share is %llu", cpu,
		      (unsigned long long)c.want, (unsigned long long)share);
		for (u32 pass = 0; pass < 2; pass++) {
			c.touched = touched(cpu, pass);
			CHECK(c.touched == share - (cpu == owner), "CPU %u pass %u: touched %llu of %llu",
			      cpu, pass, (unsigned long long)c.touched, (unsigned long long)share);
			CHECK(soak_cover_judge(&c) == (cpu == owner ? SOAK_COVER_SHORT : SOAK_COVER_OK),
			      "CPU %u pass %u judged %d", cpu, pass, soak_cover_judge(&c));
		}
	}
}

static void test_the_pages_out_are_named_with_their_reason(void)
{
	struct soak_out_page pg[4];
	u64 n;

	n = soak_cover_out(&plan, 1, why_out, NULL, pg, 4);
	CHECK(n == 1 && pg[0].pa == BAD && pg[0].why == SOAK_OUT_POISON_BEFORE,
	      "CPU 1: %llu pages out, the first 0x%llx (%d)", (unsigned long long)n,
	      (unsigned long long)pg[0].pa, pg[0].why);
	CHECK(strstr(soak_out_text(pg[0].why), "poison list since before the soak began"),
	      "%s", soak_out_text(pg[0].why));
	n = soak_cover_out(&plan, 0, why_out, NULL, pg, 4);
	CHECK(n == 1 && pg[0].pa == RETIRED && pg[0].why == SOAK_OUT_RETIRED,
	      "CPU 0 (holding 0x2000000): %llu out", (unsigned long long)n);
	CHECK(soak_cover_out(&plan, 2, why_out, NULL, pg, 4) == 0, "CPU 2 has nothing out");
	CHECK(soak_cover_out(&plan, 1, why_out, NULL, pg, 0) == 1, "counted past @max");
	for (int w = SOAK_OUT_NONE; w < NR_SOAK_OUT; w++)
		CHECK(soak_out_text(w)[0] != '?', "reason %d has no words", w);
}

/* The rule's arithmetic: the soak's own retired pages are excused, nothing else is. */
static void test_the_rule(void)
{
	struct soak_cover_cpu c = { .want = 63533, .touched = 63532, .passes = 1 };

	CHECK(soak_cover_judge(&c) == SOAK_COVER_SHORT, "one page missing, none retired");
	c.retired = 1;
	CHECK(soak_cover_judge(&c) == SOAK_COVER_OK, "one page retired by the soak");
	c = (struct soak_cover_cpu){ .want = 63533, .touched = 63533, .passes = 3 };
	CHECK(soak_cover_judge(&c) == SOAK_COVER_OK, "every page");
	c.passes = 0;
	c.touched = 100;
	CHECK(soak_cover_judge(&c) == SOAK_COVER_UNFINISHED, "no whole pass");
	c.stuck = true;
	CHECK(soak_cover_judge(&c) == SOAK_COVER_STUCK, "stuck comes first");
	c = (struct soak_cover_cpu){ 0 };
	CHECK(soak_cover_judge(&c) == SOAK_COVER_OK, "a CPU with no memory to soak");
}

/* Which nodes a CPU's shortfall fails: node 1 without CPUs is worked by node 0's. */
static void test_nodes_of_a_shortfall(void)
{
	static const struct soak_range two[] = { { 16 * MiB, 16 * MiB, 0 },
						 { 64 * MiB, 8 * MiB, 1 } };
	static const u8 cpus[] = { 0, 0 };
	struct soak_plan_in in = { two, 2, cpus, 2, 2, NULL, 0 };
	static struct soak_plan p;
	const char *why;

	CHECK(!soak_plan_make(&in, &p, &why), "plan");
	CHECK(soak_cover_nodes(&p, 0) == 3 && soak_cover_nodes(&p, 1) == 3,
	      "node 0's CPUs work both nodes: %#x %#x", soak_cover_nodes(&p, 0),
	      soak_cover_nodes(&p, 1));
}

int main(void)
{
	make();
	return RUN_TESTS(test_a_page_poisoned_before_fails_its_cpu_and_is_named,
			 test_the_pages_out_are_named_with_their_reason, test_the_rule,
			 test_nodes_of_a_shortfall);
}
