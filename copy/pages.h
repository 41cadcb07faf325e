/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pages.h - the page-level APIs of the seed threads, over the frames of kernel/mm/page.h.
 *
 * Copies:
 *   copy_highpage / copy_highpages          one page (copy_page); a range as one memcpy (RFC)
 *   copy_mc_highpage / copy_mc_highpages    machine-check safe; the range form with the v3
 *                                           patch's semantics (see copy_mc_highpages)
 *   folio_copy / folio_mc_copy              per-page loops (before the seeds) and batched
 *   folio_copy_pages* / folio_mc_copy_pages CANDIDATES (Linux has no copy_pages()): batched
 *                                           over each copy_pages() candidate of copy_ops
 * Clears:
 *   clear_highpage / clear_highpages        per page, with a reschedule point between pages
 *   clear_highpages_batched                 clear_pages() over the whole extent
 *   clear_highpages_batch                   clear_pages() in extents of a given batch
 *   folio_zero_range                        memset-style zeroing of a byte range
 *   folio_zero_huge / folio_copy_huge       per-subpage, in "target last" or sequential order
 *   folio_zero_user_v617 / _v70             folio_zero_user() before and as merged in 7.0
 *
 * Plain C over the primitives in copy_ops: built into the image and into host tests.
 */
#ifndef CK_COPY_PAGES_H
#define CK_COPY_PAGES_H

#include "kernel/include/errno.h"
#include "kernel/mm/page.h"

/* Knobs that model the kernel configuration the seeds discuss. */
struct page_api_cfg {
	bool preemptible;	/* CONFIG_PREEMPTION: copy_mc_highpages copies in one call */
	bool check_hwpoison;	/* the review's fix: refuse to copy from hwpoison pages */
	void (*cond_resched)(void);	/* reschedule point between pages; may be NULL */
};
extern struct page_api_cfg page_api_cfg;

void copy_highpage(struct page *to, struct page *from);
void copy_highpages(struct page *to, struct page *from, unsigned long nr);
int copy_mc_highpage(struct page *to, struct page *from);
int copy_mc_highpages(struct page *to, struct page *from, unsigned long nr);

void folio_copy_per_page(struct folio *dst, struct folio *src);
void folio_copy_batched(struct folio *dst, struct folio *src);
int folio_mc_copy_per_page(struct folio *dst, struct folio *src);
int folio_mc_copy_batched(struct folio *dst, struct folio *src);

/*
 * The copy_pages() candidates (copy/dispatch.h; none is Linux's): folio_copy() in one call
 * of copy_ops.copy_pages, .copy_pages_fsrm or .memcpy_pa when preemptible, otherwise in
 * PROCESS_PAGES_NON_PREEMPT_BATCH extents with a reschedule point before each (as
 * clear_pages()' callers do). folio_mc_copy_pages() follows the v3 rules over
 * copy_ops.copy_mc_pages (ktest/oracle NOTES.md, C1-C3): preemptible, one call, and on a
 * machine check the pfn first + (len - ret) >> PAGE_SHIFT is queued; otherwise page by
 * page, a reschedule point before each, the page being copied queued. -EHWPOISON either
 * way; a hwpoison-marked source is refused first, as copy_mc_highpages() does.
 */
void folio_copy_pages(struct folio *dst, struct folio *src);
void folio_copy_pages_fsrm(struct folio *dst, struct folio *src);
void folio_copy_memcpy_pa(struct folio *dst, struct folio *src);
int copy_mc_highpages_cp(struct page *to, struct page *from, unsigned long nr);
int folio_mc_copy_pages(struct folio *dst, struct folio *src);

/* x86-64 Linux's MAX_ORDER_NR_PAGES and (7.0, with arch clear_pages()) the batch. */
#define MAX_ORDER_NR_PAGES		1024UL
#define PROCESS_PAGES_NON_PREEMPT_BATCH	((32UL << 20) >> PAGE_SHIFT)

void clear_highpage(struct page *p);
void clear_highpages(struct page *p, unsigned long nr);
void clear_highpages_batched(struct page *p, unsigned long nr);
/* @nr pages in extents of @batch (0: one extent), a reschedule point before each extent. */
void clear_highpages_batch(struct page *p, unsigned long nr, unsigned long batch);
void folio_zero_range(struct folio *f, size_t offset, size_t len);

enum huge_order {
	HUGE_ORDER_TARGET_LAST,	/* Linux's process_huge_page(): far ends first, target last */
	HUGE_ORDER_SEQUENTIAL,	/* subpage 0, 1, 2, ... */
};

/* Call @fn for each subpage index 0..nr-1 exactly once, in @order around @target. */
void huge_for_each(unsigned long nr, unsigned long target, enum huge_order order,
		   void (*fn)(unsigned long idx, void *ctx), void *ctx);
void folio_zero_huge(struct folio *f, unsigned long target, enum huge_order order);
void folio_copy_huge(struct folio *dst, struct folio *src, unsigned long target,
		     enum huge_order order);

/*
 * folio_zero_user(@f, the address of subpage @target):
 *   v617  process_huge_page()'s target-last order one page at a time up to
 *         MAX_ORDER_NR_PAGES, sequential above (clear_gigantic_page()); a reschedule point
 *         before every page;
 *   v70   as merged (commits 9890ecab6ad9, 94962b2628e6, 93552c9a3350): above
 *         MAX_ORDER_NR_PAGES one range; otherwise the pages right of the target's
 *         neighbourhood (target +- 2, clamped), then those left of it, then the neighbourhood;
 *         each range through clear_highpages_batch(), whole when preemptible, else in
 *         PROCESS_PAGES_NON_PREEMPT_BATCH extents. A @target outside the folio: one range.
 */
void folio_zero_user_v617(struct folio *f, unsigned long target);
void folio_zero_user_v70(struct folio *f, unsigned long target);

#endif
