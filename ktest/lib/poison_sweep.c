// SPDX-License-Identifier: GPL-2.0-only
/*
 * poison_sweep.c - the sweep's forms, primitives and places, and its driver: one point set
 * up, copied and observed (poison_sweep.h).
 */
#include "copy/ops.h"
#include "copy/routines.h"
#include "kernel/mm/page.h"
#include "ktest/lib/poison_sweep.h"

const struct psw_form_desc psw_forms[PSW_FORMS] = {
	[PSW_PER_PAGE] = { "v6.17 per-page", LX_FMC_V617_PER_PAGE, true, false,
			   folio_mc_copy_per_page },
	[PSW_V3] = { "v3 batched", LX_FMC_V3_BATCHED, true, false, folio_mc_copy_batched },
	[PSW_V3_NOPREEMPT] = { "v3 no-preempt", LX_FMC_V3_BATCHED, false, false,
			       folio_mc_copy_batched },
	[PSW_COPY_PAGES] = { "copy_pages cand.", LX_FMC_COPY_PAGES, true, true,
			     folio_mc_copy_pages },
	[PSW_COPY_PAGES_NOPREEMPT] = { "cand. no-preempt", LX_FMC_COPY_PAGES, false, true,
				       folio_mc_copy_pages },
};

const struct psw_prim_desc psw_prims[PSW_PRIMS] = {
	[PSW_FRAGILE] = { "fragile", LX_FMC_FRAGILE, copy_mc_fragile, NULL, 0 },
	[PSW_MOVSB] = { "rep movsb", LX_FMC_REP_MOVSB, copy_mc_fast_string, NULL, 0 },
	[PSW_MOVSB_EARLY] = { "rep movsb early", LX_FMC_REP_MOVSB, copy_mc_fast_string, NULL,
			      PSW_EARLY },
	[PSW_PAGES_ERMS] = { "pages_erms", LX_FMC_REP_MOVSB, NULL, copy_mc_pages_erms, 0 },
	[PSW_PAGES_ERMS_EARLY] = { "pages_erms early", LX_FMC_REP_MOVSB, NULL,
				   copy_mc_pages_erms, PSW_EARLY },
	[PSW_PAGES_REP] = { "pages_rep", LX_FMC_REP_MOVSQ, NULL, copy_mc_pages_rep, 0 },
	[PSW_PAGES_REP_EARLY] = { "pages_rep early", LX_FMC_REP_MOVSQ, NULL, copy_mc_pages_rep,
				  PSW_EARLY },
	/* Its loads stop at the first poisoned one, as fragile's do (NOTES.md, F6 and C3). */
	[PSW_PAGES_UNROLLED] = { "pages_unrolled", LX_FMC_FRAGILE, NULL, copy_mc_pages_unrolled,
				 0 },
};

const char *const psw_place_names[PSW_PLACES] = {
	[PSW_FIRST] = "first line", [PSW_MIDDLE] = "middle line", [PSW_LAST] = "last line",
	[PSW_HWPOISON] = "hwpoison", [PSW_HWPOISON_NOCHECK] = "hwpoison no check",
};

bool psw_prim_fits(enum psw_form f, enum psw_prim p)
{
	return psw_forms[f].pages == (psw_prims[p].pages_fn != NULL);
}

u32 psw_place_offset(enum psw_place place)
{
	switch (place) {
	case PSW_MIDDLE:
		return PAGE_SIZE / 2;
	case PSW_LAST:
		return PAGE_SIZE - 64;
	default:
		return 0;
	}
}

bool psw_place_is_mc(enum psw_place place)
{
	return place <= PSW_LAST;
}

/* Source byte @i of the folio: differs from page to page, so a misplaced page shows. */
static u8 pattern(u64 i)
{
	return (u8)(i * 131 + (i >> PAGE_SHIFT) * 29 + 0x3b);
}

/* Destination canary: never equal to the source byte it stands in for. */
static u8 canary(u64 i)
{
	return (u8)~pattern(i);
}

static u8 *src_bytes(const struct psw_env *env)
{
	return page_address(env->src.page);
}

static u8 *dst_bytes(const struct psw_env *env)
{
	return page_address(env->dst.page);
}

void psw_fill(const struct psw_env *env)
{
	u8 *s = src_bytes(env), *d = dst_bytes(env);

	for (u64 i = 0; i < (u64)env->src.nr << PAGE_SHIFT; i++) {
		s[i] = pattern(i);
		d[i] = canary(i);
	}
}

/* The primitive under test, wrapped: every call counted, the first that stops noted. */
static struct {
	const struct psw_prim_desc *prim;
	uintptr_t dst0;
	unsigned long calls;
	bool stopped;
	u64 start, len, ret;
} rec;
static unsigned long resched_calls;

static size_t note_call(void *dst, size_t len, size_t left)
{
	rec.calls++;
	if (left && !rec.stopped) {
		rec.stopped = true;
		rec.start = (uintptr_t)dst - rec.dst0;
		rec.len = len;
		rec.ret = left;
	}
	return left;
}

static size_t recording_copy(void *dst, const void *src, size_t len)
{
	return note_call(dst, len, rec.prim->fn(dst, src, len));
}

static size_t recording_pages(void *dst, const void *src, size_t npages)
{
	return note_call(dst, (size_t)npages << PAGE_SHIFT, rec.prim->pages_fn(dst, src, npages));
}

static void count_resched(void)
{
	resched_calls++;
}

/* Take the folio's pages (and the spare one before it) off the poison list, flags cleared. */
static void forget_folio(const struct psw_env *env)
{
	u64 first = env->src_pfn - 1, n = env->src.nr + 1;
	unsigned int k = 0;

	for (unsigned int i = 0; i < poison_log.n; i++)
		if (poison_log.pfn[i] - first >= n)
			poison_log.pfn[k++] = poison_log.pfn[i];
	/*
	 * The log's slots as page.c hands them out (kernel/mm/page.h): k whole ones, the rest
	 * free. The sweep runs on one CPU with no other queueing, so plain stores do.
	 */
	for (unsigned int i = 0; i < POISON_LOG_MAX; i++)
		poison_log.ready[i] = i < k;
	poison_log.reserved = k;
	poison_log.n = k;
	for (unsigned long i = 0; i < env->src.nr; i++)
		env->src.page[i].flags &= ~PG_HWPOISON;
}

/* Folio bytes eight at a time (the buffers are page-aligned): the checks run per point. */
typedef u64 __attribute__((may_alias)) psw_word;

/*
 * The first index in [from, len) where d[i] ^ s[i] is not @flip, or len: with 0 where the
 * destination stops equalling the source, with 0xff where it stops holding canaries (the
 * source is only read, so its complement is canary(i)).
 */
static u64 first_diff(const u8 *d, const u8 *s, u64 from, u64 len, u8 flip)
{
	u64 i = from, w = flip ? ~0ULL : 0;

	for (; i < len && i % sizeof(psw_word); i++)
		if ((u8)(d[i] ^ s[i]) != flip)
			return i;
	while (i + sizeof(psw_word) <= len &&
	       (*(const psw_word *)(d + i) ^ *(const psw_word *)(s + i)) == w)
		i += sizeof(psw_word);
	while (i < len && (u8)(d[i] ^ s[i]) == flip)
		i++;
	return i;
}

/* The destination after the copy: the copied prefix, and whether the rest is untouched. */
static void observe_dst(const struct psw_env *env, const struct psw_point *pt,
			struct psw_obs *o)
{
	u64 len = (u64)env->src.nr << PAGE_SHIFT, end = (u64)(pt->page + 2) << PAGE_SHIFT;
	u8 *s = src_bytes(env), *d = dst_bytes(env);

	end = end < len ? end : len;
	o->dst_copied = first_diff(d, s, 0, len, 0);
	o->dst_clean = o->dst_copied >= end || first_diff(d, s, o->dst_copied, end, 0xff) == end;
	/* Canaries back where the copy may have written (all of it when it strayed). */
	end = o->dst_clean && o->dst_copied <= end ? end : len;
	for (u64 i = 0; i < end; i += sizeof(psw_word))
		*(psw_word *)(d + i) = ~*(const psw_word *)(s + i);
}

/* Set up @pt's poison: the line (false when the environment cannot), or the flag. */
static bool poison_on(const struct psw_env *env, const struct psw_point *pt, u64 line)
{
	if (psw_place_is_mc(pt->place))
		return env->poison(line, psw_prims[pt->prim].early);
	env->src.page[pt->page].flags |= PG_HWPOISON;
	return true;
}

/* Copy the folio with @pt's form and primitive, the page API set as the form needs. */
static int copy_point(const struct psw_env *env, const struct psw_point *pt)
{
	const struct psw_form_desc *f = &psw_forms[pt->form];
	struct page_api_cfg saved_cfg = page_api_cfg;
	struct copy_ops saved_ops = copy_ops;
	struct folio src = env->src, dst = env->dst;
	int r;

	rec = (__typeof__(rec)){ .prim = &psw_prims[pt->prim],
				 .dst0 = (uintptr_t)dst_bytes(env) };
	resched_calls = 0;
	page_api_cfg.preemptible = f->preemptible;
	page_api_cfg.check_hwpoison = pt->place != PSW_HWPOISON_NOCHECK;
	page_api_cfg.cond_resched = count_resched;
	if (f->pages)
		copy_ops.copy_mc_pages = recording_pages;
	else
		copy_ops.copy_mc = recording_copy;
	r = f->copy(&dst, &src);
	copy_ops = saved_ops;
	page_api_cfg = saved_cfg;
	return r;
}

void psw_run_point(const struct psw_env *env, const struct psw_point *pt, struct psw_obs *o)
{
	u64 line = (u64)(uintptr_t)src_bytes(env) + ((u64)pt->page << PAGE_SHIFT) +
		   psw_place_offset(pt->place);
	u64 total, named, recs = 0;

	*o = (struct psw_obs){ 0 };
	forget_folio(env);
	if (!psw_prim_fits(pt->form, pt->prim) || !poison_on(env, pt, line))
		return;
	total = poison_log.total;
	named = poison_naming.copies;
	if (env->records)
		recs = env->records();
	o->retval = copy_point(env, pt);
	if (psw_place_is_mc(pt->place))
		env->heal(line);
	o->ran = true;
	o->calls = rec.calls;
	o->stopped = rec.stopped;
	o->call_start = rec.start;
	o->call_len = rec.len;
	o->ret = rec.ret;
	o->resched = resched_calls;
	o->nqueued = (unsigned int)(poison_log.total - total);
	o->queued_pfn = poison_log.n ? poison_log.pfn[poison_log.n - 1] : 0;
	o->named = poison_naming.copies != named;
	o->formula_pfn = poison_naming.formula_pfn;
	if (env->records) {
		o->have_records = true;
		o->records = env->records() - recs;
		o->record_recovered = env->last_record(&o->record_pfn);
	}
	observe_dst(env, pt, o);
	forget_folio(env);
}
