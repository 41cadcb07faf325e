// SPDX-License-Identifier: GPL-2.0-only
/*
 * Independent oracle: folio_zero_user()'s clear order before (v6.17) and after (v7.0) the
 * clear_pages() series. Rules Z1-Z5 in ktest/oracle/NOTES.md, "Huge-page clear order".
 */
#include "ktest/oracle/linux_zero_order.h"

#include <stddef.h>

struct zero_out {
	struct lx_zero_extent *ext;
	unsigned long max, n;
	bool full;
};

static void put(struct zero_out *o, unsigned long first, unsigned long npages)
{
	if (!npages)
		return;
	if (o->n == o->max) {
		o->full = true;
		return;
	}
	o->ext[o->n].first = first;
	o->ext[o->n].npages = npages;
	o->n++;
}

static unsigned long done(struct zero_out *o)
{
	return o->full ? 0 : o->n;
}

/*
 * Z1 (v6.17 process_huge_page()): with n the faulting page, if 2n <= npages the pages from
 * the last down to 2n go first (descending) and the pairs start at 0 with n of them;
 * otherwise pages 0 .. base-1 go first (ascending), base = npages - 2 (npages - n), and
 * there are npages - n pairs. Pair i clears base + i, then base + 2l - 1 - i.
 */
static void target_last(struct zero_out *o, unsigned long npages, unsigned long n)
{
	unsigned long base, l, i;

	if (2 * n <= npages) {
		base = 0;
		l = n;
		for (i = npages; i-- > 2 * n;)
			put(o, i, 1);
	} else {
		base = npages - 2 * (npages - n);
		l = npages - n;
		for (i = 0; i < base; i++)
			put(o, i, 1);
	}
	for (i = 0; i < l; i++) {
		put(o, base + i, 1);
		put(o, base + 2 * l - 1 - i, 1);
	}
}

unsigned long lx_folio_zero_user_v617(unsigned long npages, unsigned long fault_idx,
				      struct lx_zero_extent *ext, unsigned long max,
				      unsigned long *resched)
{
	struct zero_out o = { .ext = ext, .max = max };
	unsigned long i;

	*resched = 0;
	if (!npages || fault_idx >= npages)
		return 0;
	if (npages > LX_MAX_ORDER_NR_PAGES) {	/* Z2: clear_gigantic_page(), in order */
		for (i = 0; i < npages; i++)
			put(&o, i, 1);
	} else {
		target_last(&o, npages, fault_idx);
	}
	*resched = npages;			/* one cond_resched() before every page */
	return done(&o);
}

/* Z4: clear_contig_highpages(): one extent, or batches when not preemptible. */
static void contig(struct zero_out *o, unsigned long first, unsigned long npages,
		   bool preemptible)
{
	unsigned long unit = preemptible ? npages : LX_NON_PREEMPT_BATCH_PAGES;
	unsigned long i, count;

	for (i = 0; i < npages; i += count) {
		count = npages - i < unit ? npages - i : unit;
		put(o, first + i, count);
	}
}

unsigned long lx_folio_zero_user_v70(unsigned long npages, unsigned long fault_idx,
				     bool preemptible, struct lx_zero_extent *ext,
				     unsigned long max, unsigned long *resched)
{
	struct zero_out o = { .ext = ext, .max = max };
	unsigned long lo, hi;

	*resched = 0;
	if (!npages || fault_idx >= npages)
		return 0;
	if (npages > LX_MAX_ORDER_NR_PAGES) {	/* Z3: one straight range */
		contig(&o, 0, npages, preemptible);
	} else {
		/* Z3: the neighbourhood [lo, hi] of the fault, clamped to the folio. */
		lo = fault_idx > LX_ZERO_NEIGHBOURS ? fault_idx - LX_ZERO_NEIGHBOURS : 0;
		hi = fault_idx + LX_ZERO_NEIGHBOURS < npages ? fault_idx + LX_ZERO_NEIGHBOURS :
							       npages - 1;
		contig(&o, hi + 1, npages - 1 - hi, preemptible);	/* right of it */
		contig(&o, 0, lo, preemptible);				/* left of it */
		contig(&o, lo, hi - lo + 1, preemptible);		/* itself, last */
	}
	*resched = o.full ? 0 : o.n;		/* Z5: one cond_resched() per extent */
	return done(&o);
}
