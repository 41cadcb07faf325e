// SPDX-License-Identifier: GPL-2.0-only
/*
 * pages.c - the copy/clear page APIs and the huge-page processing orders.
 */
#include "copy/ops.h"
#include "copy/pages.h"
#include "copy/routines.h"

struct page_api_cfg page_api_cfg = { .preemptible = true, .check_hwpoison = true };

static void resched(void)
{
	if (page_api_cfg.cond_resched)
		page_api_cfg.cond_resched();
}

static bool any_hwpoison(const struct page *p, unsigned long nr)
{
	if (!page_api_cfg.check_hwpoison)
		return false;
	for (unsigned long i = 0; i < nr; i++)
		if (page_hwpoison(&p[i]))
			return true;
	return false;
}

void copy_highpage(struct page *to, struct page *from)
{
	copy_page(page_address(to), page_address(from));
}

/* The RFC's bulk form: one memcpy() over the range, whatever memcpy() resolves to. */
void copy_highpages(struct page *to, struct page *from, unsigned long nr)
{
	copy_ops.memcpy(page_address(to), page_address(from), nr << PAGE_SHIFT);
}

int copy_mc_highpage(struct page *to, struct page *from)
{
	size_t left;

	if (any_hwpoison(from, 1))
		return -EHWPOISON;
	left = copy_mc_to_kernel(page_address(to), page_address(from), PAGE_SIZE);
	if (left) {
		memory_failure_queue_copy(page_to_pfn(from), 1, page_to_pfn(from));
		return -EFAULT;
	}
	return 0;
}

/*
 * The v3 patch: with a preemptible kernel, one copy_mc_to_kernel() over the whole range and,
 * on a machine check, queue the source pfn the return value points at:
 * first pfn + (len - ret) >> PAGE_SHIFT. Otherwise page by page with a reschedule point.
 * Either way a machine check gives -EHWPOISON. With check_hwpoison, a range holding a page
 * already marked hwpoison is refused before a byte is read.
 */
int copy_mc_highpages(struct page *to, struct page *from, unsigned long nr)
{
	size_t len = (size_t)nr << PAGE_SHIFT, left;

	if (any_hwpoison(from, nr))
		return -EHWPOISON;
	if (page_api_cfg.preemptible) {
		left = copy_mc_to_kernel(page_address(to), page_address(from), len);
		if (left) {
			memory_failure_queue_copy(page_to_pfn(from), nr,
						  page_to_pfn(from) + ((len - left) >> PAGE_SHIFT));
			return -EHWPOISON;
		}
		return 0;
	}
	for (unsigned long i = 0; i < nr; i++) {
		resched();
		if (copy_mc_highpage(to + i, from + i))
			return -EHWPOISON;
	}
	return 0;
}

void folio_copy_per_page(struct folio *dst, struct folio *src)
{
	/* Linux's folio_copy(): a reschedule point between pages, none after the last. */
	for (unsigned long i = 0; i < src->nr; i++) {
		copy_highpage(folio_page(dst, i), folio_page(src, i));
		if (i + 1 < src->nr)
			resched();
	}
}

void folio_copy_batched(struct folio *dst, struct folio *src)
{
	copy_highpages(dst->page, src->page, src->nr);
}

int folio_mc_copy_per_page(struct folio *dst, struct folio *src)
{
	for (unsigned long i = 0; i < src->nr; i++) {
		if (copy_mc_highpage(folio_page(dst, i), folio_page(src, i)))
			return -EHWPOISON;
		if (i + 1 < src->nr)
			resched();
	}
	return 0;
}

int folio_mc_copy_batched(struct folio *dst, struct folio *src)
{
	return copy_mc_highpages(dst->page, src->page, src->nr);
}

/* ---- the copy_pages() candidates (not Linux) ---- */

/* @nr pages with @fn, whole when preemptible, else in batches with a reschedule point. */
static void copy_contig(struct page *to, struct page *from, unsigned long nr,
			void (*fn)(void *dst, const void *src, size_t npages))
{
	unsigned long unit = page_api_cfg.preemptible ? nr : PROCESS_PAGES_NON_PREEMPT_BATCH;

	for (unsigned long i = 0, n; i < nr; i += n) {
		n = nr - i < unit ? nr - i : unit;
		if (!page_api_cfg.preemptible)
			resched();
		fn(page_address(to + i), page_address(from + i), n);
	}
}

/* memcpy with the page path, over whole pages: the length in bytes. */
static void memcpy_pa_pages(void *dst, const void *src, size_t npages)
{
	copy_ops.memcpy_pa(dst, src, npages << PAGE_SHIFT);
}

void folio_copy_pages(struct folio *dst, struct folio *src)
{
	copy_contig(dst->page, src->page, src->nr, copy_ops.copy_pages);
}

void folio_copy_pages_fsrm(struct folio *dst, struct folio *src)
{
	copy_contig(dst->page, src->page, src->nr, copy_ops.copy_pages_fsrm);
}

void folio_copy_memcpy_pa(struct folio *dst, struct folio *src)
{
	copy_contig(dst->page, src->page, src->nr, memcpy_pa_pages);
}

/* One copy_mc_pages call over [@i, @i + @n): -EHWPOISON after queueing the named pfn. */
static int copy_mc_pages_call(struct page *to, struct page *from, unsigned long nr,
			      unsigned long i, unsigned long n)
{
	size_t len = (size_t)n << PAGE_SHIFT;
	size_t left = copy_ops.copy_mc_pages(page_address(to + i), page_address(from + i), n);

	if (!left)
		return 0;
	if (left > len)		/* a primitive's count past its own length: name the first */
		left = len;
	memory_failure_queue_copy(page_to_pfn(from), nr,
				  page_to_pfn(from + i) + ((len - left) >> PAGE_SHIFT));
	return -EHWPOISON;
}

int copy_mc_highpages_cp(struct page *to, struct page *from, unsigned long nr)
{
	if (any_hwpoison(from, nr))
		return -EHWPOISON;
	if (page_api_cfg.preemptible)
		return copy_mc_pages_call(to, from, nr, 0, nr);
	for (unsigned long i = 0; i < nr; i++) {
		resched();
		if (copy_mc_pages_call(to, from, nr, i, 1))
			return -EHWPOISON;
	}
	return 0;
}

int folio_mc_copy_pages(struct folio *dst, struct folio *src)
{
	return copy_mc_highpages_cp(dst->page, src->page, src->nr);
}

void clear_highpage(struct page *p)
{
	clear_page(page_address(p));
}

void clear_highpages(struct page *p, unsigned long nr)
{
	for (unsigned long i = 0; i < nr; i++) {
		clear_highpage(&p[i]);
		resched();
	}
}

void clear_highpages_batched(struct page *p, unsigned long nr)
{
	clear_pages(page_address(p), nr);
}

void clear_highpages_batch(struct page *p, unsigned long nr, unsigned long batch)
{
	unsigned long unit = batch ? batch : nr;

	for (unsigned long i = 0, n; i < nr; i += n) {
		n = nr - i < unit ? nr - i : unit;
		resched();
		clear_pages(page_address(p + i), n);
	}
}

void folio_zero_range(struct folio *f, size_t offset, size_t len)
{
	size_t size = f->nr << PAGE_SHIFT;

	if (offset >= size)
		return;
	if (len > size - offset)
		len = size - offset;
	clear_bytes((u8 *)page_address(f->page) + offset, len);
}

/*
 * The "target last" order: the subpages farthest from @target are done first and the walk
 * closes in on it from both sides, so the subpage the fault touched is hottest in cache when
 * the fault returns. For a target in the first half, the tail beyond 2 * target is done
 * first (from the end); for one in the second half, the head before it; then the 2 * l
 * subpages around the target alternate left and right, ending with the target.
 */
void huge_for_each(unsigned long nr, unsigned long target, enum huge_order order,
		   void (*fn)(unsigned long idx, void *ctx), void *ctx)
{
	unsigned long base, l, i;

	if (order == HUGE_ORDER_SEQUENTIAL || target >= nr) {
		for (i = 0; i < nr; i++)
			fn(i, ctx);
		return;
	}
	if (2 * target <= nr) {
		base = 0;
		l = target;
		for (i = nr; i-- > 2 * target;)
			fn(i, ctx);
	} else {
		base = nr - 2 * (nr - target);
		l = nr - target;
		for (i = 0; i < base; i++)
			fn(i, ctx);
	}
	/*
	 * The 2 * l subpages [base, base + 2l) in pairs from the outside in: the last pair is
	 * (target - 1, target). With target 0 the tail loop above already ended on it.
	 */
	for (i = 0; i < l; i++) {
		fn(base + i, ctx);
		fn(base + 2 * l - 1 - i, ctx);
	}
}

struct huge_ctx {
	struct folio *dst, *src;
};

static void zero_one(unsigned long idx, void *ctx)
{
	struct huge_ctx *h = ctx;

	resched();
	clear_highpage(folio_page(h->dst, idx));
}

static void copy_one(unsigned long idx, void *ctx)
{
	struct huge_ctx *h = ctx;

	resched();
	copy_highpage(folio_page(h->dst, idx), folio_page(h->src, idx));
}

void folio_zero_huge(struct folio *f, unsigned long target, enum huge_order order)
{
	struct huge_ctx h = { f, NULL };

	huge_for_each(f->nr, target, order, zero_one, &h);
}

void folio_copy_huge(struct folio *dst, struct folio *src, unsigned long target,
		     enum huge_order order)
{
	struct huge_ctx h = { dst, src };

	huge_for_each(src->nr, target, order, copy_one, &h);
}

void folio_zero_user_v617(struct folio *f, unsigned long target)
{
	struct huge_ctx h = { f, NULL };

	huge_for_each(f->nr, target, f->nr > MAX_ORDER_NR_PAGES ? HUGE_ORDER_SEQUENTIAL :
		      HUGE_ORDER_TARGET_LAST, zero_one, &h);
}

void folio_zero_user_v70(struct folio *f, unsigned long target)
{
	unsigned long nr = f->nr, lo, hi;
	unsigned long batch = page_api_cfg.preemptible ? 0 : PROCESS_PAGES_NON_PREEMPT_BATCH;

	if (nr > MAX_ORDER_NR_PAGES || target >= nr) {
		clear_highpages_batch(f->page, nr, batch);
		return;
	}
	lo = target > 2 ? target - 2 : 0;
	hi = target + 2 < nr ? target + 2 : nr - 1;
	clear_highpages_batch(f->page + hi + 1, nr - 1 - hi, batch);	/* right of it */
	clear_highpages_batch(f->page, lo, batch);			/* left of it */
	clear_highpages_batch(f->page + lo, hi - lo + 1, batch);	/* itself, last */
}
