// SPDX-License-Identifier: GPL-2.0-only
/*
 * Independent oracle: the folio copy forms of linux_folio_mc.h run over a source with one
 * poisoned line. Each rule names its source in ktest/oracle/NOTES.md ("Folio copies over
 * poison", F1-F10); the code is ordinary if/else, not Linux's.
 */
#include "ktest/oracle/linux_folio_mc.h"

#include <stddef.h>

/* How the form walks the folio for this input (F2, F3, F4). */
struct fmc_plan {
	bool single;		/* one primitive call over the whole folio */
	uint64_t len;		/* folio bytes: npages << PAGE_SHIFT, 64-bit as in Linux */
	uint64_t single_len;	/* the single call's length after any truncation */
};

const char *lx_fmc_form_name(enum lx_fmc_form form)
{
	switch (form) {
	case LX_FMC_V617_PER_PAGE:
		return "v6.17 per-page";
	case LX_FMC_V3_BATCHED:
		return "v3 batched";
	case LX_FMC_COPY_PAGES:
		return "copy_pages candidate";
	default:
		return "?";
	}
}

const char *lx_fmc_prim_name(enum lx_fmc_prim prim)
{
	switch (prim) {
	case LX_FMC_FRAGILE:
		return "fragile";
	case LX_FMC_REP_MOVSB:
		return "rep movsb";
	case LX_FMC_MEMCPY:
		return "memcpy";
	case LX_FMC_REP_MOVSQ:
		return "rep movsq";
	default:
		return "?";
	}
}

const char *lx_fmc_end_name(enum lx_fmc_end end)
{
	switch (end) {
	case LX_FMC_OK:
		return "OK";
	case LX_FMC_HWPOISON:
		return "EHWPOISON";
	case LX_FMC_PANIC:
		return "PANIC";
	case LX_FMC_INVALID:
		return "INVALID";
	}
	return "?";
}

static bool refuse(struct lx_fmc_out *out, const char *why)
{
	out->end = LX_FMC_INVALID;
	out->why = why;
	return false;
}

static bool valid(const struct lx_fmc_in *in, struct lx_fmc_out *out)
{
	bool rep = in->prim == LX_FMC_REP_MOVSB || in->prim == LX_FMC_REP_MOVSQ;

	if ((unsigned int)in->form >= LX_FMC_FORMS || (unsigned int)in->prim >= LX_FMC_PRIMS ||
	    (unsigned int)in->poison >= LX_FMC_POISONS)
		return refuse(out, "form, primitive or poison kind out of range");
	if (in->npages == 0 || in->npages > (1ULL << 40))
		return refuse(out, "npages must be 1 .. 2^40");
	if (in->prim == LX_FMC_REP_MOVSQ && in->form != LX_FMC_COPY_PAGES)
		return refuse(out, "rep movsq is no copy_mc_to_kernel() primitive in Linux");
	if (in->observed && !rep)
		return refuse(out, "an observed remainder is an input for rep movs only");
	if (in->poison == LX_FMC_CLEAN)
		return true;
	if (in->poison_page >= in->npages)
		return refuse(out, "poison_page is outside the folio");
	if (in->poison_off >= LX_FMC_PAGE_SIZE || in->poison_off % LX_FMC_LINE)
		return refuse(out, "poison_off must be a 64-byte line offset below 4096");
	return true;
}

/* cond_resched() calls made before the copy ended, F2 and F3 (the single call makes none). */
static uint64_t resched_count(const struct lx_fmc_in *in, const struct fmc_plan *p,
			      bool finished, uint64_t stop_page)
{
	if (p->single)
		return 0;
	if (in->form == LX_FMC_V617_PER_PAGE)	/* between pages: none after the last one */
		return finished ? in->npages - 1 : stop_page;
	return finished ? in->npages : stop_page + 1;	/* v3 fallback: before every page */
}

static void plan_for(const struct lx_fmc_in *in, struct fmc_plan *p)
{
	p->len = in->npages << LX_FMC_PAGE_SHIFT;
	p->single = in->form != LX_FMC_V617_PER_PAGE && in->preemptible;
	p->single_len = p->len;
	if (p->single && in->form == LX_FMC_V3_BATCHED)	/* copy_mc_to_kernel(..., unsigned) */
		p->single_len = p->len & 0xffffffffULL;
}

/* The copy returned 0 everywhere: what the function reports and what it guarantees (F5). */
static void finish_ok(const struct lx_fmc_in *in, const struct fmc_plan *p,
		      struct lx_fmc_out *out, uint64_t guaranteed)
{
	out->end = LX_FMC_OK;
	out->retval = 0;
	out->calls = p->single ? 1 : in->npages;
	out->resched = resched_count(in, p, true, 0);
	out->dst_equal = guaranteed;
	out->silent = in->poison != LX_FMC_CLEAN;
}

/* The stopping call's remainder (F6, F7): computed, or observed and checked. */
static uint64_t stop_ret(const struct lx_fmc_in *in, struct lx_fmc_out *out, uint64_t rel)
{
	uint64_t exact = out->call_len - rel;
	uint64_t ret;

	if (in->prim == LX_FMC_FRAGILE || !in->observed)
		return exact;
	ret = in->observed_ret;
	/* ret == 0 is the extreme case: it claims the whole call, poisoned line too, copied. */
	if (ret > out->call_len || out->call_len - ret > rel) {
		out->consistent = false;
		out->why = "observed remainder claims the poisoned line copied or exceeds the call";
	} else if (in->prim == LX_FMC_REP_MOVSQ && ret % 8) {
		out->consistent = false;
		out->why = "rep movsq stops on quadwords: the remainder must be a multiple of 8";
	}
	return ret;
}

/* A machine-check-safe call stopped with ret != 0: queue a pfn, return -EHWPOISON (F8). */
static void finish_stop(const struct lx_fmc_in *in, const struct fmc_plan *p,
			struct lx_fmc_out *out, uint64_t poison_abs)
{
	uint64_t copied = out->call_len >= out->ret ? out->call_len - out->ret : 0;
	uint64_t stop = out->call_start + copied;

	out->end = LX_FMC_HWPOISON;
	out->retval = -LX_EHWPOISON;
	out->queued = true;
	if (p->single)		/* pfn(from) + ((len - ret) >> PAGE_SHIFT), len 64-bit */
		out->queued_pfn = in->src_pfn + ((p->len - out->ret) >> LX_FMC_PAGE_SHIFT);
	else			/* copy_mc_highpage() queues the page it was copying */
		out->queued_pfn = in->src_pfn + (out->call_start >> LX_FMC_PAGE_SHIFT);
	out->queued_right = out->queued_pfn == in->src_pfn + in->poison_page;
	out->dst_equal = stop < poison_abs ? stop : poison_abs;
	out->calls = p->single ? 1 : in->poison_page + 1;
	out->resched = resched_count(in, p, false, in->poison_page);
	if (out->consistent)
		out->why = p->single ? "one call stopped; v3 names pfn + (len - ret) >> 12" :
				       "per-page call stopped; its own page is queued";
}

static void run_mc(const struct lx_fmc_in *in, const struct fmc_plan *p, struct lx_fmc_out *out)
{
	uint64_t poison_abs = (in->poison_page << LX_FMC_PAGE_SHIFT) + in->poison_off;

	out->call_start = p->single ? 0 : in->poison_page << LX_FMC_PAGE_SHIFT;
	out->call_len = p->single ? p->single_len : LX_FMC_PAGE_SIZE;
	if (poison_abs >= out->call_start + out->call_len) {
		/* Only after truncation: the call never reads the poisoned line (F4). */
		finish_ok(in, p, out, out->call_len);
		out->call_len = 0;
		out->why = "the truncated length stops short of the poisoned line: returns 0";
		return;
	}
	if (in->prim == LX_FMC_MEMCPY) {	/* F10 */
		out->end = LX_FMC_PANIC;
		out->calls = p->single ? 1 : in->poison_page + 1;
		out->resched = resched_count(in, p, false, in->poison_page);
		out->why = "plain memcpy has no machine-check-safe fixup: the #MC panics";
		return;
	}
	out->ret = stop_ret(in, out, poison_abs - out->call_start);
	if (out->ret == 0) {
		/* Linux takes ret == 0 as success and copies on (F5); nothing is queued. */
		finish_ok(in, p, out, poison_abs);
		return;
	}
	finish_stop(in, p, out, poison_abs);
}

void lx_folio_mc_copy_model(const struct lx_fmc_in *in, struct lx_fmc_out *out)
{
	struct fmc_plan p;

	*out = (struct lx_fmc_out){ .consistent = true };
	if (!valid(in, out))
		return;
	plan_for(in, &p);
	out->len_truncated = p.single_len != p.len;
	if (in->poison == LX_FMC_MC) {
		run_mc(in, &p, out);
		return;
	}
	/* Clean, or PG_hwpoison without a #MC: nothing checks the flag, all is copied (F9). */
	finish_ok(in, &p, out, p.single ? p.single_len : p.len);
	out->why = in->poison == LX_FMC_SW_POISON ?
		   "no copy_mc helper tests PageHWPoison: the poisoned page is copied silently" :
		   "clean source: copied";
}
