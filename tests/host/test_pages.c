// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_pages.c - the page-level APIs of the seeds on real memory: copies and clears in their
 * per-page and batched forms, copy_mc_highpages() with the v3 patch's semantics (poisoned
 * pfn from the return value, -EHWPOISON), the review's hwpoison fix, where the reschedule
 * points fall (Linux's loops as the oracle), and both huge-page orders. A PROT_NONE source
 * page stands in for poison: the fault shim resumes the machine-check-safe copy at its fixup
 * as a #MC recovery would. folio_zero_user() before and after 7.0 against the independent
 * model of ktest/oracle/linux_zero_order.h, extent by extent; the folio forms over the
 * copy_pages() candidates (not Linux) against the contract of ktest/oracle NOTES.md (C1-C3).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <sys/mman.h>

#include "copy/ops.h"
#include "copy/pages.h"
#include "ktest/oracle/linux_zero_order.h"
#include "tests/host/fault_shim.h"
#include "tests/host/host_test.h"

#define NPAGES	64

static uint8_t *src, *dst;
static struct page frames_src[NPAGES], frames_dst[NPAGES];
static struct folio fsrc, fdst;
static unsigned long resched_calls;

static void count_resched(void)
{
	resched_calls++;
}

static uint8_t pattern(size_t i);

static uint8_t *map_aligned(void)
{
	uint8_t *p = mmap(NULL, NPAGES * 4096, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	return p;
}

static void reset(void)
{
	for (size_t i = 0; i < NPAGES * 4096; i++) {
		src[i] = pattern(i);
		dst[i] = 0xdd;
	}
	for (int i = 0; i < NPAGES; i++) {
		frames_src[i].flags = 0;
		frames_dst[i].flags = 0;
	}
	resched_calls = 0;
	memset(&poison_log, 0, sizeof(poison_log));
}

static void setup(void)
{
	src = map_aligned();
	dst = map_aligned();
	pgmap_add((uintptr_t)src >> PAGE_SHIFT, NPAGES, frames_src, 0);
	pgmap_add((uintptr_t)dst >> PAGE_SHIFT, NPAGES, frames_dst, 1);
	fsrc = (struct folio){ frames_src, NPAGES };
	fdst = (struct folio){ frames_dst, NPAGES };
	page_api_cfg.cond_resched = count_resched;
}

static bool dst_untouched(void)
{
	for (size_t i = 0; i < NPAGES * 4096; i++)
		if (dst[i] != 0xdd)
			return false;
	return true;
}

static void test_pgmap(void)
{
	u64 pfn = (uintptr_t)src >> PAGE_SHIFT;

	CHECK(pfn_to_page(pfn + 5) == &frames_src[5], "pfn_to_page in a section");
	CHECK(page_address(&frames_src[5]) == src + 5 * 4096, "page_address");
	CHECK(pfn_to_page(pfn + NPAGES) != &frames_src[NPAGES - 1] &&
	      (pfn_to_page(pfn + NPAGES) == NULL || pfn_to_page(pfn + NPAGES) == &frames_dst[0]),
	      "no frame past the section");
	CHECK(frames_dst[3].node == 1, "node recorded");
}

/* A section forgotten: its pfns find no frame, or another section's; the rest are kept. */
static void test_pgmap_del(void)
{
	static struct page extra[4];
	u64 pfn = (uintptr_t)src >> PAGE_SHIFT, far = 1ULL << 40;

	CHECK(!pgmap_add(far, 4, extra, 2) && pfn_to_page(far + 1) == &extra[1], "added");
	CHECK(!pgmap_del(extra) && pfn_to_page(far + 1) == NULL, "deleted: no frame");
	CHECK(pgmap_del(extra) == -1, "a second delete finds none");
	CHECK(pfn_to_page(pfn + 5) == &frames_src[5] &&
	      pfn_to_page(((uintptr_t)dst >> PAGE_SHIFT) + 2) == &frames_dst[2], "others kept");
	CHECK(!pgmap_add(pfn, 2, extra, 3) && pfn_to_page(pfn) == &frames_src[0],
	      "an overlapping later section loses to the first");
	CHECK(!pgmap_del(frames_src) && pfn_to_page(pfn + 1) == &extra[1] &&
	      pfn_to_page(pfn + 5) == NULL, "the first deleted, the later one answers");
	CHECK(!pgmap_del(extra) && !pgmap_add(pfn, NPAGES, frames_src, 0) &&
	      pfn_to_page(pfn + 5) == &frames_src[5], "restored");
}

static void test_folio_copy_forms(void)
{
	reset();
	folio_copy_per_page(&fdst, &fsrc);
	CHECK(!memcmp(dst, src, NPAGES * 4096), "per-page folio_copy");
	CHECK(resched_calls == NPAGES - 1, "Linux's folio_copy: a reschedule point between "
	      "pages, none after the last: %lu", resched_calls);
	reset();
	folio_copy_batched(&fdst, &fsrc);
	CHECK(!memcmp(dst, src, NPAGES * 4096), "batched folio_copy");
	CHECK(resched_calls == 0, "batched: one call, no reschedule points");
	reset();
	copy_highpage(&frames_dst[7], &frames_src[9]);
	CHECK(!memcmp(dst + 7 * 4096, src + 9 * 4096, 4096), "copy_highpage");
}

static void mc_copy_forms(const char *impl)
{
	int r;

	reset();
	r = folio_mc_copy_batched(&fdst, &fsrc);
	CHECK(r == 0 && !memcmp(dst, src, NPAGES * 4096), "%s: batched folio_mc_copy", impl);
	reset();
	r = folio_mc_copy_per_page(&fdst, &fsrc);
	CHECK(r == 0 && !memcmp(dst, src, NPAGES * 4096), "%s: per-page folio_mc_copy", impl);
	CHECK(resched_calls == NPAGES - 1, "%s: reschedule between pages: %lu", impl,
	      resched_calls);
}

static void poisoned_source(const char *impl, bool preemptible)
{
	const unsigned long bad = 37;
	u64 first = frames_src[0].pfn;
	int r;

	reset();
	page_api_cfg.preemptible = preemptible;
	mprotect(src + bad * 4096, 4096, PROT_NONE);
	r = copy_mc_highpages(frames_dst, frames_src, NPAGES);
	mprotect(src + bad * 4096, 4096, PROT_READ | PROT_WRITE);
	CHECK(r == -EHWPOISON, "%s/%s: -EHWPOISON, got %d", impl, preemptible ? "bulk" : "paged",
	      r);
	CHECK(poison_log.n == 1 && poison_log.pfn[0] == first + bad,
	      "%s: queued pfn %#llx, want first + %lu = %#llx", impl,
	      poison_log.n ? (unsigned long long)poison_log.pfn[0] : 0ULL, bad,
	      (unsigned long long)(first + bad));
	CHECK(page_hwpoison(&frames_src[bad]) && !page_hwpoison(&frames_src[bad - 1]),
	      "%s: exactly the poisoned page is marked", impl);
	CHECK(!memcmp(dst, src, (bad - (preemptible ? 0 : 1)) * 4096),
	      "%s: the pages before it were copied", impl);
	if (!preemptible)
		CHECK(resched_calls == bad + 1, "paged: %lu reschedule points, want %lu",
		      resched_calls, bad + 1);

	/* The review's fix: the page is marked now; a second copy refuses before reading. */
	memset(dst, 0xdd, NPAGES * 4096);
	r = copy_mc_highpages(frames_dst, frames_src, NPAGES);
	CHECK(r == -EHWPOISON && dst_untouched(), "%s: marked source refused, nothing copied",
	      impl);
	page_api_cfg.preemptible = true;
}

/*
 * rep movsb may stop up to 63 bytes before the poisoned byte. Poison at the very start of a
 * page and a stop 40 bytes early make the v3 formula, first + (len - ret) >> PAGE_SHIFT,
 * name the page before. The fake copy below plays both the CPU (the early stop) and the #MC
 * handler (memory_failure_consumed with the bank's page); only the true page may be queued.
 */
static unsigned long early_bad, early_bank;

static size_t early_stop_copy(void *d, const void *s, size_t len)
{
	size_t stop = early_bad * 4096 - 40;

	memcpy(d, s, stop);
	memory_failure_consumed(frames_src[0].pfn + early_bank);
	return len - stop;
}

static void test_early_stop_names_the_true_page(void)
{
	size_t (*saved)(void *, const void *, size_t) = copy_ops.copy_mc;
	u64 first = frames_src[0].pfn;
	u64 before = poison_naming.disagreements;
	int r;

	reset();
	early_bad = early_bank = 21;
	copy_ops.copy_mc = early_stop_copy;
	r = copy_mc_highpages(frames_dst, frames_src, NPAGES);
	copy_ops.copy_mc = saved;
	CHECK(r == -EHWPOISON, "-EHWPOISON, got %d", r);
	CHECK(poison_naming.formula_pfn == first + early_bad - 1,
	      "the return value names the page before: %#llx",
	      (unsigned long long)poison_naming.formula_pfn);
	CHECK(poison_naming.bank_known && poison_naming.bank_pfn == first + early_bad,
	      "the bank names the poisoned page");
	CHECK(poison_log.n == 1 && poison_log.pfn[0] == first + early_bad,
	      "only the true page is queued (%u queued, first %#llx)", poison_log.n,
	      poison_log.n ? (unsigned long long)poison_log.pfn[0] : 0ULL);
	CHECK(!page_hwpoison(&frames_src[early_bad - 1]) && page_hwpoison(&frames_src[early_bad]),
	      "the healthy page before it is not marked hwpoison");
	CHECK(poison_naming.disagreements == before + 1, "the disagreement is counted");

	/* Without a bank address (an emulator that gives none), the formula is all there is. */
	reset();
	copy_ops.copy_mc = early_stop_copy;
	early_bad = 5;
	early_bank = 40;	/* a page the bank names outside the 8 copied */
	r = copy_mc_highpages(frames_dst, frames_src, 8);
	copy_ops.copy_mc = saved;
	CHECK(r == -EHWPOISON && poison_log.n == 1 && poison_log.pfn[0] == first + 4,
	      "a bank page outside the copied range is not taken: queued %#llx",
	      poison_log.n ? (unsigned long long)poison_log.pfn[0] : 0ULL);
}

/*
 * folio_mc_copy_pages() over a PROT_NONE source page (C2 of ktest/oracle NOTES.md): one call
 * when preemptible, the pfn from the return value; else page by page, a reschedule point
 * before each, the page being copied queued. Every body stops at the bad page's first byte
 * here (a #PF there, where nothing of it could be read).
 */
static void poisoned_candidate(const struct copy_dispatch *d, bool preemptible)
{
	const unsigned long bad = 29;
	u64 first = frames_src[0].pfn;
	int r;

	reset();
	page_api_cfg.preemptible = preemptible;
	mprotect(src + bad * 4096, 4096, PROT_NONE);
	r = folio_mc_copy_pages(&fdst, &fsrc);
	mprotect(src + bad * 4096, 4096, PROT_READ | PROT_WRITE);
	CHECK(r == -EHWPOISON && poison_log.n == 1 && poison_log.pfn[0] == first + bad,
	      "copy_mc_pages=%s %s: %d, queued %u, pfn %#llx, want %#llx",
	      copy_pages_impl_names[d->copy_mc_pages], preemptible ? "bulk" : "paged", r,
	      poison_log.n, poison_log.n ? (unsigned long long)poison_log.pfn[0] : 0ULL,
	      (unsigned long long)(first + bad));
	CHECK(!memcmp(dst, src, bad * 4096), "copy_mc_pages=%s: the pages before it copied",
	      copy_pages_impl_names[d->copy_mc_pages]);
	CHECK(preemptible ? resched_calls == 0 : resched_calls == bad + 1,
	      "%lu reschedule points (%s)", resched_calls, preemptible ? "bulk" : "paged");
	r = folio_mc_copy_pages(&fdst, &fsrc);
	CHECK(r == -EHWPOISON && poison_log.n == 1, "a marked source is refused before a read");
	page_api_cfg.preemptible = true;
}

static void test_copy_mc_highpages(void)
{
	static const enum copy_mc_impl impls[] = { COPY_MC_FRAGILE, COPY_MC_ERMS };
	struct copy_dispatch d = { 0 };

	for (int i = 0; i < 2; i++) {
		d.copy_mc = impls[i];
		copy_ops_apply(&d);
		mc_copy_forms(copy_mc_impl_names[impls[i]]);
		poisoned_source(copy_mc_impl_names[impls[i]], true);
		poisoned_source(copy_mc_impl_names[impls[i]], false);
	}
}

static void test_software_poison(void)
{
	int r;

	/* Marked hwpoison (MADV_HWPOISON, an earlier memory_failure) but still readable. */
	reset();
	frames_src[5].flags |= PG_HWPOISON;
	page_api_cfg.check_hwpoison = false;
	r = copy_mc_highpages(frames_dst, frames_src, NPAGES);
	CHECK(r == 0 && !memcmp(dst, src, NPAGES * 4096),
	      "without the check (Linux before the fix) the poisoned page copies silently");
	memset(dst, 0xdd, NPAGES * 4096);
	page_api_cfg.check_hwpoison = true;
	r = copy_mc_highpages(frames_dst, frames_src, NPAGES);
	CHECK(r == -EHWPOISON && dst_untouched(), "with the check: -EHWPOISON, nothing copied");
	r = copy_mc_highpage(&frames_dst[5], &frames_src[5]);
	CHECK(r == -EHWPOISON && dst_untouched(), "copy_mc_highpage checks too");
	r = folio_mc_copy_per_page(&fdst, &fsrc);
	CHECK(r == -EHWPOISON, "per-page folio_mc_copy stops at the marked page");
	CHECK(!memcmp(dst, src, 5 * 4096) && dst[5 * 4096] == 0xdd,
	      "pages before the marked one were copied, it was not");
}

static uint8_t pattern(size_t i)
{
	return (uint8_t)(i * 31 + (i >> 12));
}

static void test_clears(void)
{
	static const size_t offs[] = { 0, 1, 4095, 4096, 5000 }, lens[] = { 0, 1, 63, 4096, 9000 };
	unsigned long bad = 0;

	reset();
	clear_highpages(frames_src, NPAGES);
	for (size_t i = 0; i < NPAGES * 4096; i++)
		bad += src[i] != 0;
	CHECK(bad == 0 && resched_calls == NPAGES, "clear_highpages: %lu nonzero, %lu resched",
	      bad, resched_calls);
	reset();
	bad = 0;
	clear_highpages_batched(frames_src + 3, 10);
	for (size_t i = 0; i < NPAGES * 4096; i++)
		bad += src[i] != (i >= 3 * 4096 && i < 13 * 4096 ? 0 : pattern(i));
	CHECK(bad == 0, "clear_highpages_batched covers exactly its extent: %lu wrong", bad);
	bad = 0;
	for (size_t o = 0; o < 5; o++)
		for (size_t l = 0; l < 5; l++) {
			reset();
			folio_zero_range(&fsrc, offs[o], lens[l]);
			for (size_t i = 0; i < NPAGES * 4096; i++) {
				bool in = i >= offs[o] && i < offs[o] + lens[l];

				if (src[i] != (in ? 0 : pattern(i)))
					bad++;
			}
		}
	CHECK(bad == 0, "folio_zero_range: %lu bytes wrong", bad);
	reset();
	folio_zero_range(&fsrc, NPAGES * 4096 - 10, 100);
	CHECK(src[NPAGES * 4096 - 1] == 0 && src[NPAGES * 4096 - 11] != 0,
	      "folio_zero_range clamps at the folio's end");
}

static unsigned long order_buf[1024], order_n;

static void record(unsigned long idx, void *ctx)
{
	(void)ctx;
	if (order_n < 1024)
		order_buf[order_n] = idx;
	order_n++;
}

static void test_huge_orders(void)
{
	static const unsigned long targets[] = { 0, 1, 2, 255, 256, 257, 300, 510, 511 };
	unsigned long seen[512];

	for (size_t t = 0; t < sizeof(targets) / sizeof(targets[0]); t++) {
		unsigned long tg = targets[t], dup = 0, far;

		order_n = 0;
		huge_for_each(512, tg, HUGE_ORDER_TARGET_LAST, record, NULL);
		memset(seen, 0, sizeof(seen));
		for (unsigned long i = 0; i < order_n && i < 1024; i++)
			dup += seen[order_buf[i] & 511]++ != 0;
		CHECK(order_n == 512 && dup == 0, "target %lu: %lu calls, %lu repeats", tg, order_n,
		      dup);
		CHECK(order_buf[511] == tg, "target %lu processed last (last was %lu)", tg,
		      order_buf[511]);
		/* The exact middle has both ends equally far: the walk starts on the left. */
		far = 2 * tg < 512 ? 511 : 0;
		CHECK(order_buf[0] == far, "target %lu: starts at the far end %lu (got %lu)", tg,
		      far, order_buf[0]);
		/* Closing in: the distance to the target never grows over the last 2l steps. */
		if (tg > 0 && tg < 511) {
			long d1 = labs((long)order_buf[509] - (long)tg);
			long d2 = labs((long)order_buf[510] - (long)tg);

			CHECK(d2 <= 1 && d1 <= 2, "target %lu: neighbours come just before it", tg);
		}
	}
	order_n = 0;
	huge_for_each(512, 100, HUGE_ORDER_SEQUENTIAL, record, NULL);
	CHECK(order_n == 512 && order_buf[0] == 0 && order_buf[511] == 511 &&
	      order_buf[100] == 100, "sequential order ignores the target");
	order_n = 0;
	huge_for_each(1, 0, HUGE_ORDER_TARGET_LAST, record, NULL);
	CHECK(order_n == 1 && order_buf[0] == 0, "a single subpage");
}

static void test_huge_apis(void)
{
	for (int o = 0; o < 2; o++) {
		unsigned long bad = 0;

		reset();
		folio_copy_huge(&fdst, &fsrc, 40, (enum huge_order)o);
		CHECK(!memcmp(dst, src, NPAGES * 4096), "folio_copy_huge order %d", o);
		CHECK(resched_calls == NPAGES, "one reschedule point per subpage");
		folio_zero_huge(&fdst, 13, (enum huge_order)o);
		for (size_t i = 0; i < NPAGES * 4096; i++)
			bad += dst[i] != 0;
		CHECK(bad == 0, "folio_zero_huge order %d: %lu bytes left", o, bad);
	}
}

/*
 * Where the reschedule points fall, as a trace: 'R' for cond_resched(), 'P' for a page
 * primitive (clear_page, copy_page, copy_mc). Linux's own loops are the oracle:
 * process_huge_page() and the gigantic-page loops (mm/memory.c) call cond_resched() before
 * every subpage; folio_copy() and folio_mc_copy() (mm/util.c) copy a page, then
 * cond_resched() before each next one.
 */
static char trace[4 * NPAGES + 8];
static unsigned int trace_n;
static void (*real_clear_page)(void *);
static void (*real_copy_page)(void *, const void *);
static size_t (*real_copy_mc)(void *, const void *, size_t);

static void trace_add(char c)
{
	if (trace_n + 1 < sizeof(trace))
		trace[trace_n++] = c;
	trace[trace_n] = '\0';
}

static void trace_resched(void)
{
	trace_add('R');
}

static void trace_clear_page(void *a)
{
	trace_add('P');
	real_clear_page(a);
}

static void trace_copy_page(void *d, const void *s)
{
	trace_add('P');
	real_copy_page(d, s);
}

static size_t trace_copy_mc(void *d, const void *s, size_t len)
{
	trace_add('P');
	return real_copy_mc(d, s, len);
}

/* @unit repeated @n times, with @head before it. */
static bool trace_is(const char *head, const char *unit, unsigned int n)
{
	char want[sizeof(trace)];
	size_t len = strlen(head), u = strlen(unit);

	memcpy(want, head, len + 1);
	for (unsigned int i = 0; i < n && len + u < sizeof(want); i++, len += u)
		memcpy(want + len, unit, u + 1);
	return !strcmp(trace, want);
}

static void test_reschedule_points(void)
{
	real_clear_page = copy_ops.clear_page;
	real_copy_page = copy_ops.copy_page;
	real_copy_mc = copy_ops.copy_mc;
	copy_ops.clear_page = trace_clear_page;
	copy_ops.copy_page = trace_copy_page;
	copy_ops.copy_mc = trace_copy_mc;
	page_api_cfg.cond_resched = trace_resched;
	for (int o = 0; o < 2; o++) {
		reset();
		trace_n = 0;
		folio_zero_huge(&fdst, 13, (enum huge_order)o);
		CHECK(trace_is("", "RP", NPAGES), "folio_zero_huge order %d: a reschedule point "
		      "before every subpage: %.24s...", o, trace);
		trace_n = 0;
		folio_copy_huge(&fdst, &fsrc, 40, (enum huge_order)o);
		CHECK(trace_is("", "RP", NPAGES), "folio_copy_huge order %d: a reschedule point "
		      "before every subpage: %.24s...", o, trace);
	}
	trace_n = 0;
	folio_copy_per_page(&fdst, &fsrc);
	CHECK(trace_is("P", "RP", NPAGES - 1), "folio_copy: between pages only: %.24s...", trace);
	trace_n = 0;
	CHECK(folio_mc_copy_per_page(&fdst, &fsrc) == 0 && trace_is("P", "RP", NPAGES - 1),
	      "folio_mc_copy: between pages only: %.24s...", trace);
	copy_ops.clear_page = real_clear_page;
	copy_ops.copy_page = real_copy_page;
	copy_ops.copy_mc = real_copy_mc;
	page_api_cfg.cond_resched = count_resched;
}

/*
 * The clear order, extent by extent, against the oracle. Frames of a folio that is never
 * touched: the clear primitives are replaced by recorders of (first page, pages).
 */
#define ORDER_MAX	20000

static struct page order_frames[ORDER_MAX];
static struct lx_zero_extent got[ORDER_MAX], exp_ext[ORDER_MAX];
static unsigned long got_n, got_resched;
static const u64 order_pfn0 = 0x100000;

static void rec_extent(void *addr, size_t npages)
{
	if (got_n < ORDER_MAX)
		got[got_n] = (struct lx_zero_extent){ ((uintptr_t)addr >> PAGE_SHIFT) - order_pfn0,
						      npages };
	got_n++;
}

static void rec_page(void *addr)
{
	rec_extent(addr, 1);
}

static void rec_resched(void)
{
	got_resched++;
}

/* Ours for @npages/@target (v70 when @v70) against the oracle; true when they agree. */
static bool order_agrees(bool v70, unsigned long npages, unsigned long target, bool preempt)
{
	struct folio f = { order_frames, npages };
	unsigned long n, resched;

	got_n = got_resched = 0;
	page_api_cfg.preemptible = preempt;
	if (v70) {
		folio_zero_user_v70(&f, target);
		n = lx_folio_zero_user_v70(npages, target, preempt, exp_ext, ORDER_MAX, &resched);
	} else {
		folio_zero_user_v617(&f, target);
		n = lx_folio_zero_user_v617(npages, target, exp_ext, ORDER_MAX, &resched);
	}
	page_api_cfg.preemptible = true;
	if (!n || n != got_n || resched != got_resched) {
		printf("# %s npages %lu target %lu %s: %lu extents, %lu resched; oracle %lu, %lu\n",
		       v70 ? "v7.0" : "v6.17", npages, target, preempt ? "preempt" : "none", got_n,
		       got_resched, n, resched);
		return false;
	}
	for (unsigned long i = 0; i < n; i++)
		if (got[i].first != exp_ext[i].first || got[i].npages != exp_ext[i].npages) {
			printf("# %s npages %lu target %lu: extent %lu is %lu+%lu, oracle %lu+%lu\n",
			       v70 ? "v7.0" : "v6.17", npages, target, i, got[i].first,
			       got[i].npages, exp_ext[i].first, exp_ext[i].npages);
			return false;
		}
	return true;
}

static void test_zero_user_orders(void)
{
	static const unsigned long sizes[] = { 1, 2, 3, 4, 5, 6, 512, 1024, 1025, 8192, 8193,
					       16389 };
	void (*saved_page)(void *) = copy_ops.clear_page;
	void (*saved_pages)(void *, size_t) = copy_ops.clear_pages;
	unsigned long bad = 0, runs = 0;

	for (unsigned long i = 0; i < ORDER_MAX; i++)
		order_frames[i] = (struct page){ .pfn = order_pfn0 + i };
	copy_ops.clear_page = rec_page;
	copy_ops.clear_pages = rec_extent;
	page_api_cfg.cond_resched = rec_resched;
	for (size_t s = 0; s < ARRAY_SIZE(sizes); s++) {
		unsigned long nr = sizes[s];
		const unsigned long targets[] = { 0, 1, 2, 3, nr / 2, nr / 2 + 1, nr - 3, nr - 2,
						  nr - 1 };

		for (size_t t = 0; t < ARRAY_SIZE(targets); t++) {
			if (targets[t] >= nr)
				continue;
			bad += !order_agrees(false, nr, targets[t], true);
			bad += !order_agrees(true, nr, targets[t], true);
			bad += !order_agrees(true, nr, targets[t], false);
			runs += 3;
		}
	}
	copy_ops.clear_page = saved_page;
	copy_ops.clear_pages = saved_pages;
	page_api_cfg.cond_resched = count_resched;
	CHECK(bad == 0, "folio_zero_user orders: %lu of %lu disagree with the oracle", bad, runs);
	printf("# folio_zero_user v6.17 and v7.0: %lu orders compared with the oracle\n", runs);
}

/* The folio forms over the candidates, under the bodies each resolution picks. */
static void test_candidate_folio_forms(void)
{
	static const struct dispatch_cpu res[] = {
		{ .rep_good = true }, { .rep_good = true, .erms = true },
		{ .rep_good = true, .erms = true, .fsrm = true }, { 0 },
		{ .rep_good = true, .erms = true, .fragile = true },
	};
	void (*const forms[])(struct folio *, struct folio *) = {
		folio_copy_pages, folio_copy_pages_fsrm, folio_copy_memcpy_pa,
	};
	struct copy_ops saved = copy_ops;

	for (size_t r = 0; r < ARRAY_SIZE(res); r++) {
		struct copy_dispatch d;

		dispatch_decide(&res[r], &d);
		copy_ops_apply(&d);
		for (size_t f = 0; f < ARRAY_SIZE(forms); f++)
			for (int pre = 0; pre < 2; pre++) {
				reset();
				page_api_cfg.preemptible = pre;
				forms[f](&fdst, &fsrc);
				CHECK(!memcmp(dst, src, NPAGES * 4096) && resched_calls == !pre,
				      "resolution %zu form %zu preemptible %d: copy or %lu resched", r,
				      f, pre, resched_calls);
			}
		reset();
		CHECK(folio_mc_copy_pages(&fdst, &fsrc) == 0 && !memcmp(dst, src, NPAGES * 4096),
		      "resolution %zu: folio_mc_copy_pages", r);
		poisoned_candidate(&d, true);
		poisoned_candidate(&d, false);
		page_api_cfg.preemptible = true;
	}
	copy_ops = saved;
}

int main(void)
{
	setup();
	fault_shim_install();
	return RUN_TESTS(test_pgmap, test_pgmap_del, test_folio_copy_forms, test_copy_mc_highpages,
			 test_early_stop_names_the_true_page,
			 test_software_poison, test_clears, test_huge_orders, test_huge_apis,
			 test_reschedule_points, test_zero_user_orders, test_candidate_folio_forms);
}
