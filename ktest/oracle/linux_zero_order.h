/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Independent oracle: the order in which Linux's folio_zero_user() clears the pages of a
 * huge folio, and in which extents, before and after the Linux 7.0 merge window:
 *
 *   v6.17: process_huge_page() ("target last": the far end first, then left/right pairs
 *          closing in on the faulting page) for folios up to MAX_ORDER_NR_PAGES, and
 *          clear_gigantic_page() (sequential) above; one page per clear, a cond_resched()
 *          before each page.
 *   v7.0:  clear_contig_highpages() over page ranges (commits 9890ecab6ad9, 94962b2628e6,
 *          93552c9a3350): above MAX_ORDER_NR_PAGES one sequential range; otherwise the
 *          region right of the fault, then the region left of it, then the fault's
 *          neighbourhood (two pages each side) last. Preemptible kernels clear each range
 *          as one extent; others split it into PROCESS_PAGES_NON_PREEMPT_BATCH-page extents.
 *          One cond_resched() per extent.
 *
 * Written from Linux's mm/memory.c and the merged commits' messages (NOTES.md, "Huge-page
 * clear order", Z1-Z5). Includes nothing of the project. x86-64 values: MAX_ORDER_NR_PAGES
 * is 1024 (MAX_PAGE_ORDER 10), the batch 8192 pages (32 MiB of 4 KiB pages).
 */
#ifndef CK_KTEST_ORACLE_LINUX_ZERO_ORDER_H
#define CK_KTEST_ORACLE_LINUX_ZERO_ORDER_H

#include <stdbool.h>

#define LX_MAX_ORDER_NR_PAGES		1024UL	/* x86-64: 1 << MAX_PAGE_ORDER (10) */
#define LX_NON_PREEMPT_BATCH_PAGES	8192UL	/* (32 MiB) >> PAGE_SHIFT, arch clear_pages() */
#define LX_ZERO_NEIGHBOURS		2UL	/* pages cleared last on either side of the fault */

/* Pages [first, first + npages) cleared by one call, in ascending address order. */
struct lx_zero_extent {
	unsigned long first;
	unsigned long npages;
};

/*
 * Each writes the extents in the order Linux clears them into ext[0 .. max) and returns
 * how many there are; 0 for bad input (npages 0, fault_idx >= npages) or when max is too
 * small. *resched gets the number of cond_resched() calls.
 */
unsigned long lx_folio_zero_user_v617(unsigned long npages, unsigned long fault_idx,
				      struct lx_zero_extent *ext, unsigned long max,
				      unsigned long *resched);
unsigned long lx_folio_zero_user_v70(unsigned long npages, unsigned long fault_idx,
				     bool preemptible, struct lx_zero_extent *ext,
				     unsigned long max, unsigned long *resched);

#endif /* CK_KTEST_ORACLE_LINUX_ZERO_ORDER_H */
