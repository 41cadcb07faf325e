/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pages.h - the page-level APIs of the seed threads, over the frames of kernel/mm/page.h.
 *
 * Copies:
 *   copy_highpage / copy_highpages          one page (copy_page); a range as one memcpy (RFC)
 *   copy_mc_highpage / copy_mc_highpages    machine-check safe; the range form with the v3
 *                                           patch's semantics (see copy_mc_highpages)
 *   folio_copy / folio_mc_copy              per-page loops (before the seeds) and batched
 * Clears:
 *   clear_highpage / clear_highpages        per page, with a reschedule point between pages
 *   clear_highpages_batched                 clear_pages() over the whole extent
 *   folio_zero_range                        memset-style zeroing of a byte range
 *   folio_zero_huge / folio_copy_huge       per-subpage, in "target last" or sequential order
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

void clear_highpage(struct page *p);
void clear_highpages(struct page *p, unsigned long nr);
void clear_highpages_batched(struct page *p, unsigned long nr);
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

#endif
