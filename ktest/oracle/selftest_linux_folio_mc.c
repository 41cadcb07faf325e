// SPDX-License-Identifier: GPL-2.0-only
/*
 * Self-test of the folio-copy oracle (linux_folio_mc.c), the huge-page clear order oracle
 * (linux_zero_order.c) and the clear_pages() column of linux_dispatch_facts.h. Every
 * expected number was worked out by hand from the rules in NOTES.md, not by running the
 * models. Prints KTAP, so make check runs it as the host test build/host/test_oracle_models.
 *
 * Host build: gcc -std=gnu11 -Wall -Wextra -Werror -I. ktest/oracle/linux_folio_mc.c \
 *	ktest/oracle/linux_zero_order.c ktest/oracle/selftest_linux_folio_mc.c -o /tmp/x && /tmp/x
 */
#include "ktest/oracle/linux_dispatch_facts.h"
#include "ktest/oracle/linux_folio_mc.h"
#include "ktest/oracle/linux_zero_order.h"

#include <stdio.h>
#include <string.h>

#define PFN0	0x100000ULL
#define LEN2M	(512ULL * 4096)

static int case_failed;
static unsigned long checks;

static void check(int good, const char *what)
{
	checks++;
	if (!good) {
		case_failed = 1;
		printf("# check failed: %s\n", what);
	}
}

/* The outputs a case pins; the rest of lx_fmc_out is checked where a case names it. */
struct want {
	enum lx_fmc_end end;
	uint64_t ret, pfn, dst, resched, calls;
	int queued, consistent;
};

static void expect(const char *name, const struct lx_fmc_in *in, const struct want *w)
{
	struct lx_fmc_out o;
	int good;

	lx_folio_mc_copy_model(in, &o);
	good = o.end == w->end && o.ret == w->ret && o.dst_equal == w->dst &&
	       o.resched == w->resched && o.calls == w->calls && o.queued == !!w->queued &&
	       o.consistent == !!w->consistent && (!w->queued || o.queued_pfn == w->pfn) &&
	       o.retval == (w->end == LX_FMC_HWPOISON ? -LX_EHWPOISON : 0);
	check(good, name);
	if (!good)
		printf("#   got %s ret %llu pfn %#llx dst %llu resched %llu calls %llu q %d c %d"
		       " (%s)\n",
		       lx_fmc_end_name(o.end), (unsigned long long)o.ret,
		       (unsigned long long)o.queued_pfn, (unsigned long long)o.dst_equal,
		       (unsigned long long)o.resched, (unsigned long long)o.calls, o.queued,
		       o.consistent, o.why ? o.why : "-");
}

static struct lx_fmc_in mc(enum lx_fmc_form f, enum lx_fmc_prim p, bool preempt,
			   uint64_t page, uint32_t off)
{
	return (struct lx_fmc_in){ .form = f, .prim = p, .poison = LX_FMC_MC,
				   .preemptible = preempt, .npages = 512, .src_pfn = PFN0,
				   .poison_page = page, .poison_off = off };
}

static void per_page_cases(void)
{
	struct lx_fmc_in in;

	in = mc(LX_FMC_V617_PER_PAGE, LX_FMC_FRAGILE, false, 0, 0);
	expect("per-page, first line of page 0", &in,
	       &(struct want){ LX_FMC_HWPOISON, 4096, PFN0, 0, 0, 1, 1, 1 });
	in = mc(LX_FMC_V617_PER_PAGE, LX_FMC_FRAGILE, false, 5, 2048);
	expect("per-page, middle line of page 5", &in,
	       &(struct want){ LX_FMC_HWPOISON, 2048, PFN0 + 5, 22528, 5, 6, 1, 1 });
	in.preemptible = true;
	expect("per-page: preemption changes nothing", &in,
	       &(struct want){ LX_FMC_HWPOISON, 2048, PFN0 + 5, 22528, 5, 6, 1, 1 });
	in = mc(LX_FMC_V617_PER_PAGE, LX_FMC_FRAGILE, false, 511, 4032);
	expect("per-page, last line of the last page", &in,
	       &(struct want){ LX_FMC_HWPOISON, 64, PFN0 + 511, 2097088, 511, 512, 1, 1 });
	in = mc(LX_FMC_V617_PER_PAGE, LX_FMC_REP_MOVSB, false, 5, 2048);
	expect("per-page rep movsb, exact stop assumed", &in,
	       &(struct want){ LX_FMC_HWPOISON, 2048, PFN0 + 5, 22528, 5, 6, 1, 1 });
	in.observed = true;
	in.observed_ret = 4096;
	expect("per-page rep movsb stopped at the page start: still its own page", &in,
	       &(struct want){ LX_FMC_HWPOISON, 4096, PFN0 + 5, 20480, 5, 6, 1, 1 });
	in.observed_ret = 2048;
	expect("per-page rep movsb stopped exactly at the line: consistent", &in,
	       &(struct want){ LX_FMC_HWPOISON, 2048, PFN0 + 5, 22528, 5, 6, 1, 1 });
	in.observed_ret = 2047;
	expect("per-page rep movsb claiming a poisoned byte copied: inconsistent", &in,
	       &(struct want){ LX_FMC_HWPOISON, 2047, PFN0 + 5, 22528, 5, 6, 1, 0 });
}

static void batched_cases(void)
{
	struct lx_fmc_in in;

	in = mc(LX_FMC_V3_BATCHED, LX_FMC_FRAGILE, true, 5, 2048);
	expect("v3 one call, page 5 middle: pfn + (len - ret) >> 12", &in,
	       &(struct want){ LX_FMC_HWPOISON, LEN2M - 22528, PFN0 + 5, 22528, 0, 1, 1, 1 });
	in = mc(LX_FMC_V3_BATCHED, LX_FMC_FRAGILE, true, 0, 0);
	expect("v3 one call, first byte poisoned", &in,
	       &(struct want){ LX_FMC_HWPOISON, LEN2M, PFN0, 0, 0, 1, 1, 1 });
	in = mc(LX_FMC_V3_BATCHED, LX_FMC_FRAGILE, true, 511, 4032);
	expect("v3 one call, last line", &in,
	       &(struct want){ LX_FMC_HWPOISON, 64, PFN0 + 511, 2097088, 0, 1, 1, 1 });
	in = mc(LX_FMC_V3_BATCHED, LX_FMC_REP_MOVSB, true, 5, 0);
	in.observed = true;
	in.observed_ret = LEN2M - 20416;	/* stopped one line early, in page 4 */
	expect("v3 rep movsb stopping in the page before names that page", &in,
	       &(struct want){ LX_FMC_HWPOISON, LEN2M - 20416, PFN0 + 4, 20416, 0, 1, 1, 1 });
	in.observed_ret = 0;
	expect("v3 rep movsb returning 0: success, nothing queued, inconsistent", &in,
	       &(struct want){ LX_FMC_OK, 0, 0, 20480, 0, 1, 0, 0 });
	in = mc(LX_FMC_V3_BATCHED, LX_FMC_FRAGILE, false, 5, 2048);
	expect("v3 not preemptible: per page, cond_resched before each", &in,
	       &(struct want){ LX_FMC_HWPOISON, 2048, PFN0 + 5, 22528, 6, 6, 1, 1 });
	in = mc(LX_FMC_COPY_PAGES, LX_FMC_REP_MOVSQ, true, 5, 2048);
	in.observed = true;
	in.observed_ret = LEN2M - 22520;
	expect("candidate rep movsq stopping a quadword early", &in,
	       &(struct want){ LX_FMC_HWPOISON, LEN2M - 22520, PFN0 + 5, 22520, 0, 1, 1, 1 });
	in.observed_ret = LEN2M - 22524;
	expect("candidate rep movsq remainder off the quadword grid: inconsistent", &in,
	       &(struct want){ LX_FMC_HWPOISON, LEN2M - 22524, PFN0 + 5, 22524, 0, 1, 1, 0 });
}

static void no_mc_cases(void)
{
	struct lx_fmc_in in;
	struct lx_fmc_out o;

	in = mc(LX_FMC_V617_PER_PAGE, LX_FMC_MEMCPY, false, 5, 0);
	expect("memcpy, per-page: panic in page 5", &in,
	       &(struct want){ LX_FMC_PANIC, 0, 0, 0, 5, 6, 0, 1 });
	in.form = LX_FMC_V3_BATCHED;
	expect("memcpy, v3 not preemptible: panic", &in,
	       &(struct want){ LX_FMC_PANIC, 0, 0, 0, 6, 6, 0, 1 });
	in.preemptible = true;
	expect("memcpy, v3 one call: panic", &in,
	       &(struct want){ LX_FMC_PANIC, 0, 0, 0, 0, 1, 0, 1 });
	in = mc(LX_FMC_V617_PER_PAGE, LX_FMC_MEMCPY, false, 5, 0);
	in.poison = LX_FMC_SW_POISON;
	expect("PG_hwpoison without #MC, per-page memcpy: copied", &in,
	       &(struct want){ LX_FMC_OK, 0, 0, LEN2M, 511, 512, 0, 1 });
	lx_folio_mc_copy_model(&in, &o);
	check(o.silent, "PG_hwpoison copy is reported silent");
	in = mc(LX_FMC_V3_BATCHED, LX_FMC_FRAGILE, true, 5, 0);
	in.poison = LX_FMC_SW_POISON;
	expect("PG_hwpoison without #MC, v3 one call: copied", &in,
	       &(struct want){ LX_FMC_OK, 0, 0, LEN2M, 0, 1, 0, 1 });
	in = mc(LX_FMC_V3_BATCHED, LX_FMC_REP_MOVSB, false, 5, 0);
	in.poison = LX_FMC_SW_POISON;
	expect("PG_hwpoison without #MC, v3 per page: copied", &in,
	       &(struct want){ LX_FMC_OK, 0, 0, LEN2M, 512, 512, 0, 1 });
	in = mc(LX_FMC_V617_PER_PAGE, LX_FMC_FRAGILE, false, 0, 0);
	in.poison = LX_FMC_CLEAN;
	expect("clean 2 MiB, per-page", &in,
	       &(struct want){ LX_FMC_OK, 0, 0, LEN2M, 511, 512, 0, 1 });
	lx_folio_mc_copy_model(&in, &o);
	check(!o.silent, "a clean copy is not silent");
	in.npages = 1;
	expect("clean single page, per-page: no cond_resched", &in,
	       &(struct want){ LX_FMC_OK, 0, 0, 4096, 0, 1, 0, 1 });
	in.form = LX_FMC_V3_BATCHED;
	expect("clean single page, v3 fallback: one cond_resched", &in,
	       &(struct want){ LX_FMC_OK, 0, 0, 4096, 1, 1, 0, 1 });
}

static void length_cases(void)
{
	struct lx_fmc_in in = mc(LX_FMC_V3_BATCHED, LX_FMC_FRAGILE, true, 3, 0);
	struct lx_fmc_out o;

	in.npages = 1ULL << 20;			/* 4 GiB: the 32-bit length becomes 0 */
	expect("v3 4 GiB: copy_mc_to_kernel gets 0 bytes and returns 0", &in,
	       &(struct want){ LX_FMC_OK, 0, 0, 0, 0, 1, 0, 1 });
	lx_folio_mc_copy_model(&in, &o);
	check(o.len_truncated && o.silent, "the 4 GiB case is truncated and silent");
	in.form = LX_FMC_COPY_PAGES;
	expect("candidate 4 GiB: no truncation", &in,
	       &(struct want){ LX_FMC_HWPOISON, (1ULL << 32) - 12288, PFN0 + 3, 12288, 0, 1, 1,
			       1 });
	in = mc(LX_FMC_V3_BATCHED, LX_FMC_FRAGILE, true, 0, 64);
	in.npages = (1ULL << 20) + 1;		/* 4 GiB + 4 KiB: the call covers one page */
	expect("v3 4 GiB + 4 KiB: the 64-bit len names page 2^20", &in,
	       &(struct want){ LX_FMC_HWPOISON, 4032, PFN0 + (1ULL << 20), 64, 0, 1, 1, 1 });
	lx_folio_mc_copy_model(&in, &o);
	check(!o.queued_right, "that pfn is not the poisoned page");
}

static void invalid_cases(void)
{
	struct lx_fmc_in in;
	struct lx_fmc_out o;

	in = mc(LX_FMC_V3_BATCHED, LX_FMC_REP_MOVSQ, true, 0, 0);
	lx_folio_mc_copy_model(&in, &o);
	check(o.end == LX_FMC_INVALID, "rep movsq is refused for a Linux form");
	in = mc(LX_FMC_V617_PER_PAGE, LX_FMC_FRAGILE, true, 512, 0);
	lx_folio_mc_copy_model(&in, &o);
	check(o.end == LX_FMC_INVALID, "poison_page == npages is refused");
	in = mc(LX_FMC_V617_PER_PAGE, LX_FMC_FRAGILE, true, 0, 100);
	lx_folio_mc_copy_model(&in, &o);
	check(o.end == LX_FMC_INVALID, "an unaligned line offset is refused");
	in = mc(LX_FMC_V617_PER_PAGE, LX_FMC_FRAGILE, true, 0, 0);
	in.npages = 0;
	lx_folio_mc_copy_model(&in, &o);
	check(o.end == LX_FMC_INVALID && o.why, "npages 0 is refused with a reason");
	in = mc(LX_FMC_V617_PER_PAGE, LX_FMC_FRAGILE, true, 0, 0);
	in.observed = true;
	lx_folio_mc_copy_model(&in, &o);
	check(o.end == LX_FMC_INVALID, "an observed remainder with fragile is refused");
}

/* Compares extents with a list of (first, npages) pairs. */
static int same(const struct lx_zero_extent *e, unsigned long n, const unsigned long *w,
		unsigned long wn)
{
	if (n != wn)
		return 0;
	for (unsigned long i = 0; i < n; i++)
		if (e[i].first != w[2 * i] || e[i].npages != w[2 * i + 1])
			return 0;
	return 1;
}

static void zero_order_cases(void)
{
	static struct lx_zero_extent e[600];
	unsigned long n, r;

	n = lx_folio_zero_user_v617(8, 0, e, 600, &r);
	check(same(e, n, (unsigned long[]){ 7, 1, 6, 1, 5, 1, 4, 1, 3, 1, 2, 1, 1, 1, 0, 1 }, 8) &&
	      r == 8, "v6.17, 8 pages, fault at 0: from the end down");
	n = lx_folio_zero_user_v617(8, 5, e, 600, &r);
	check(same(e, n, (unsigned long[]){ 0, 1, 1, 1, 2, 1, 7, 1, 3, 1, 6, 1, 4, 1, 5, 1 }, 8),
	      "v6.17, 8 pages, fault at 5: 0 1 then pairs 2/7 3/6 4/5");
	n = lx_folio_zero_user_v617(8, 2, e, 600, &r);
	check(same(e, n, (unsigned long[]){ 7, 1, 6, 1, 5, 1, 4, 1, 0, 1, 3, 1, 1, 1, 2, 1 }, 8),
	      "v6.17, 8 pages, fault at 2: 7..4 then pairs 0/3 1/2");
	n = lx_folio_zero_user_v617(512, 0, e, 600, &r);
	check(n == 512 && e[0].first == 511 && e[511].first == 0 && r == 512,
	      "v6.17, 2 MiB, fault at 0: page 0 last");
	n = lx_folio_zero_user_v70(512, 0, true, e, 600, &r);
	check(same(e, n, (unsigned long[]){ 3, 509, 0, 3 }, 2) && r == 2,
	      "v7.0, 2 MiB, fault at 0: 3..511 then 0..2");
	n = lx_folio_zero_user_v70(512, 100, false, e, 600, &r);
	check(same(e, n, (unsigned long[]){ 103, 409, 0, 98, 98, 5 }, 3) && r == 3,
	      "v7.0, 2 MiB, fault at 100: right, left, neighbourhood");
	n = lx_folio_zero_user_v70(512, 511, true, e, 600, &r);
	check(same(e, n, (unsigned long[]){ 0, 509, 509, 3 }, 2), "v7.0, fault at the last page");
	n = lx_folio_zero_user_v70(1, 0, true, e, 600, &r);
	check(same(e, n, (unsigned long[]){ 0, 1 }, 1), "v7.0, a single page");
	n = lx_folio_zero_user_v70(262144, 77, true, e, 600, &r);
	check(same(e, n, (unsigned long[]){ 0, 262144 }, 1) && r == 1,
	      "v7.0, 1 GiB preemptible: one extent");
	n = lx_folio_zero_user_v70(262144, 77, false, e, 600, &r);
	check(n == 32 && e[31].first == 31 * 8192 && e[31].npages == 8192 && r == 32,
	      "v7.0, 1 GiB not preemptible: 32 extents of 32 MiB");
	n = lx_folio_zero_user_v70(2048, 5, false, e, 600, &r);
	check(same(e, n, (unsigned long[]){ 0, 2048 }, 1),
	      "v7.0, 8 MiB: above 1024 pages, straight");
	check(lx_folio_zero_user_v70(8, 8, true, e, 600, &r) == 0, "fault_idx == npages refused");
	check(lx_folio_zero_user_v617(8, 0, e, 7, &r) == 0, "too small an array refused");
}

/* Every page cleared exactly once; the faulting page in the last extent (below 1024 pages). */
static int covers_once(const struct lx_zero_extent *e, unsigned long n, unsigned long npages,
		       unsigned long fault)
{
	static unsigned char seen[1024];
	unsigned long total = 0;

	memset(seen, 0, sizeof(seen));
	for (unsigned long i = 0; i < n; i++)
		for (unsigned long p = e[i].first; p < e[i].first + e[i].npages; p++) {
			if (p >= npages || seen[p]++)
				return 0;
			total++;
		}
	return total == npages && n && fault >= e[n - 1].first &&
	       fault < e[n - 1].first + e[n - 1].npages;
}

static void zero_order_property(void)
{
	static struct lx_zero_extent e[1024];
	unsigned long n, r, bad = 0;

	for (unsigned long np = 1; np <= 1024; np = np < 40 ? np + 1 : np * 2)
		for (unsigned long f = 0; f < np; f++) {
			n = lx_folio_zero_user_v617(np, f, e, 1024, &r);
			bad += !covers_once(e, n, np, f) || r != np;
			n = lx_folio_zero_user_v70(np, f, f & 1, e, 1024, &r);
			bad += !covers_once(e, n, np, f) || r != n || n > 3;
		}
	check(bad == 0, "both orders clear each page once and the faulting page last");
}

static void clear_pages_facts(void)
{
	unsigned int bad = 0;

	for (unsigned int i = 0; i < LX_DISPATCH_FACTS_COUNT; i++)
		bad += !!strcmp(lx_dispatch_facts[i].clear_pages,
				lx_dispatch_facts[i].clear_page);
	check(bad == 0, "clear_pages() picks what clear_page() picked on every row");
	for (unsigned int i = 0; i < LX_DISPATCH_FACTS_COUNT; i++) {
		const struct lx_dispatch_fact *f = &lx_dispatch_facts[i];

		if (!strcmp(f->cpu, "AMD Zen 3 (EPYC 7003 Milan)"))
			check(!strcmp(f->clear_pages, "erms"), "Milan: rep stosb");
		if (!strcmp(f->cpu, "Intel Sandy Bridge (Core i7-2600)"))
			check(!strcmp(f->clear_pages, "rep"), "Sandy Bridge: rep stosq");
		if (!strncmp(f->cpu, "AMD K8 rev B signature 0xf51 with ERMS", 38))
			check(!strcmp(f->clear_pages, "erms"), "ERMS without REP_GOOD: rep stosb");
		if (!strcmp(f->cpu, "AMD Athlon (K7; 32-bit only)"))
			check(!strcmp(f->clear_pages, "unrolled"), "K7: unrolled");
	}
	check(LX_PROCESS_PAGES_NON_PREEMPT_BATCH_BYTES == 32UL << 20 &&
	      LX_PROCESS_PAGES_NON_PREEMPT_BATCH_PAGES == 8192 &&
	      LX_NON_PREEMPT_BATCH_PAGES == LX_PROCESS_PAGES_NON_PREEMPT_BATCH_PAGES,
	      "PROCESS_PAGES_NON_PREEMPT_BATCH is 32 MiB, 8192 pages");
}

int main(void)
{
	static void (*const cases[])(void) = { per_page_cases, batched_cases, no_mc_cases,
					       length_cases, invalid_cases, zero_order_cases,
					       zero_order_property, clear_pages_facts };
	static const char *const names[] = { "per_page_cases", "batched_cases", "no_mc_cases",
					     "length_cases", "invalid_cases", "zero_order_cases",
					     "zero_order_property", "clear_pages_facts" };
	unsigned int n = sizeof(cases) / sizeof(cases[0]), failed = 0;

	printf("KTAP version 1\n1..%u\n", n);
	printf("# oracle self-test: folio copies, clear order, clear_pages\n");
	for (unsigned int i = 0; i < n; i++) {
		case_failed = 0;
		cases[i]();
		printf("%s %u %s\n", case_failed ? "not ok" : "ok", i + 1, names[i]);
		failed += case_failed;
	}
	printf("# oracle self-test: %u cases, %u failed, %lu checks\n", n, failed, checks);
	return failed ? 1 : 0;
}
