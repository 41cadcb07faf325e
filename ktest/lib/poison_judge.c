// SPDX-License-Identifier: GPL-2.0-only
/*
 * poison_judge.c - the sweep's binding to the model, its verdicts and its table
 * (poison_sweep.h): what a point observed against what ktest/oracle/linux_folio_mc.c says
 * Linux would do with the same inputs.
 */
#include "kernel/lib/format.h"
#include "kernel/lib/json.h"
#include "ktest/lib/poison_sweep.h"

const char *const psw_verdict_names[PSW_VERDICTS] = {
	[PSW_AGREE] = "agree", [PSW_OURS_REFUSE] = "refuse",
	[PSW_OURS_BANK_PAGE] = "bank", [PSW_UNEXPLAINED] = "unexplained",
};

const char *const psw_verdict_reasons[PSW_VERDICTS] = {
	[PSW_OURS_REFUSE] = "we check PG_hwpoison before reading a source page (seed 002's "
			    "review; per page: that page, batched: the range) and return "
			    "-EHWPOISON; Linux copies it silently",
	[PSW_OURS_BANK_PAGE] = "rep movs stopped in the page before: v3's (and the candidate's) "
			       "pfn + (len - ret) >> PAGE_SHIFT names that healthy page, we queue "
			       "the page the #MC bank named (README: which page did the copy stop "
			       "at?)",
};

void psw_model_in(const struct psw_env *env, const struct psw_point *pt,
		  const struct psw_obs *o, struct lx_fmc_in *in)
{
	const struct psw_form_desc *f = &psw_forms[pt->form];
	const struct psw_prim_desc *p = &psw_prims[pt->prim];

	*in = (struct lx_fmc_in){
		.form = f->lx, .prim = p->lx,
		.poison = psw_place_is_mc(pt->place) ? LX_FMC_MC : LX_FMC_SW_POISON,
		.preemptible = f->preemptible, .npages = env->src.nr, .src_pfn = env->src_pfn,
		.poison_page = pt->page, .poison_off = psw_place_offset(pt->place),
	};
	/*
	 * Only the early-stopping rep movsb gives the model its remainder: for the others the
	 * model assumes the exact stop, so comparing the remainder checks that the copy stopped
	 * exactly at the poisoned line.
	 */
	if (p->early && o->stopped) {
		in->observed = true;
		in->observed_ret = o->ret;
	}
}

#define DIFF(...)	(ck_snprintf(what, size, __VA_ARGS__), true)

/* The #MC records of a point: one recovered record naming the poisoned page, or none. */
static bool records_differ(const struct psw_obs *o, bool mc, u64 pfn, char *what, size_t size)
{
	if (!o->have_records)
		return false;
	if (mc && (o->records != 1 || !o->record_recovered || o->record_pfn != pfn))
		return DIFF("#MC records: %lu, last %srecovered naming pfn %#llx (want 1 "
			    "recovered, %#llx)", o->records, o->record_recovered ? "" : "not ",
			    (unsigned long long)o->record_pfn, (unsigned long long)pfn);
	if (!mc && o->records)
		return DIFF("%lu #MC records without poison", o->records);
	return false;
}

/* The destination: the model's guaranteed prefix copied, nothing at or after the stop. */
static bool dst_differs(const struct psw_obs *o, const struct lx_fmc_out *m, char *what,
			size_t size)
{
	if (o->dst_copied < m->dst_equal)
		return DIFF("destination: %llu bytes copied, the model guarantees %llu",
			    (unsigned long long)o->dst_copied, (unsigned long long)m->dst_equal);
	if (o->dst_copied > m->dst_equal || !o->dst_clean)
		return DIFF("destination written at or after the stop (%llu bytes equal, "
			    "model %llu%s)", (unsigned long long)o->dst_copied,
			    (unsigned long long)m->dst_equal, o->dst_clean ? "" : ", then more");
	return false;
}

/*
 * The page the copy queued: the one its return value names must be v3's (or the per-page
 * form's own), and the one queued the same unless @skip_queued (the bank-page difference).
 */
static bool queue_differs(const struct psw_obs *o, const struct lx_fmc_out *m,
			  bool skip_queued, char *what, size_t size)
{
	if (o->nqueued != (m->queued ? 1u : 0u))
		return DIFF("pages queued: ours %u, model %u", o->nqueued, m->queued ? 1 : 0);
	if (m->queued && (!o->named || o->formula_pfn != m->queued_pfn))
		return DIFF("pfn from the return value: ours %#llx, model %#llx",
			    (unsigned long long)(o->named ? o->formula_pfn : 0),
			    (unsigned long long)m->queued_pfn);
	if (m->queued && !skip_queued && o->queued_pfn != m->queued_pfn)
		return DIFF("queued pfn: ours %#llx, model %#llx",
			    (unsigned long long)o->queued_pfn, (unsigned long long)m->queued_pfn);
	return false;
}

/* The first thing that differs, in @what; false when the point agrees with the model. */
static bool differs(const struct psw_env *env, const struct psw_point *pt,
		    const struct psw_obs *o, const struct lx_fmc_out *m, bool skip_queued,
		    char *what, size_t size)
{
	bool mc = psw_place_is_mc(pt->place);
	u64 ret = o->stopped ? o->ret : 0;

	if (!o->ran)
		return DIFF("not run: the poison could not be set up");
	if (m->end == LX_FMC_PANIC || m->end == LX_FMC_INVALID)
		return DIFF("model: %s (%s)", lx_fmc_end_name(m->end), m->why ? m->why : "");
	if (!m->consistent)
		return DIFF("model: %s", m->why ? m->why : "observation inconsistent");
	if (o->retval != m->retval)
		return DIFF("return value: ours %d, model %d", o->retval, m->retval);
	if (o->calls != m->calls)
		return DIFF("primitive calls: ours %lu, model %llu", o->calls,
			    (unsigned long long)m->calls);
	if (ret != m->ret || (o->stopped && o->call_start != m->call_start))
		return DIFF("stopping call at %llu returned %llu; model: at %llu, %llu",
			    (unsigned long long)o->call_start, (unsigned long long)ret,
			    (unsigned long long)m->call_start, (unsigned long long)m->ret);
	if (o->resched != m->resched)
		return DIFF("cond_resched: ours %lu, model %llu", o->resched,
			    (unsigned long long)m->resched);
	if (queue_differs(o, m, skip_queued, what, size) || dst_differs(o, m, what, size))
		return true;
	return records_differ(o, mc, env->src_pfn + pt->page, what, size);
}

/*
 * The project's refusal, exactly: -EHWPOISON, nothing queued, no #MC, and copied only the
 * pages before the check that refused (the per-page form checks each page as it comes to it,
 * so pages 0 .. page - 1 are copied; the batched forms check the range first).
 */
static bool ours_refuse(const struct psw_point *pt, const struct psw_obs *o,
			const struct lx_fmc_out *m)
{
	unsigned long before = pt->form == PSW_PER_PAGE ? pt->page : 0;

	return pt->place == PSW_HWPOISON && m->end == LX_FMC_OK && m->silent &&
	       o->retval == -EHWPOISON && o->nqueued == 0 && !o->named && !o->stopped &&
	       (!o->have_records || !o->records) && o->calls == before &&
	       o->resched == before && o->dst_copied == (u64)before << PAGE_SHIFT &&
	       o->dst_clean;
}

/* The bank's page queued where v3's formula names the page before it (all else agrees). */
static bool ours_bank_page(const struct psw_env *env, const struct psw_point *pt,
			   const struct psw_obs *o, const struct lx_fmc_out *m)
{
	u64 pfn = env->src_pfn + pt->page;

	return psw_place_is_mc(pt->place) && m->queued && !m->queued_right &&
	       o->have_records && o->record_pfn == pfn && o->queued_pfn == pfn;
}

enum psw_verdict psw_judge(const struct psw_env *env, const struct psw_point *pt,
			   const struct psw_obs *o, const struct lx_fmc_out *m, char *what,
			   size_t size)
{
	char rest[120];

	if (size)
		what[0] = '\0';
	if (!differs(env, pt, o, m, false, what, size))
		return PSW_AGREE;
	if (ours_refuse(pt, o, m))
		return PSW_OURS_REFUSE;
	if (!ours_bank_page(env, pt, o, m))
		return PSW_UNEXPLAINED;
	/* The bank's page explains the queued pfn; anything else still differing does not. */
	if (!differs(env, pt, o, m, true, rest, sizeof(rest)))
		return PSW_OURS_BANK_PAGE;
	ck_snprintf(what, size, "%s", rest);
	return PSW_UNEXPLAINED;
}

enum psw_verdict psw_sweep_point(const struct psw_env *env, const struct psw_point *pt,
				 struct psw_table *tab)
{
	struct psw_cell *c = &tab->cell[pt->form][pt->prim][pt->place];
	struct lx_fmc_out m;
	struct lx_fmc_in in;
	struct psw_obs o;
	enum psw_verdict v;
	char what[sizeof(c->first_what)];

	psw_run_point(env, pt, &o);
	psw_model_in(env, pt, &o, &in);
	lx_folio_mc_copy_model(&in, &m);
	v = psw_judge(env, pt, &o, &m, what, sizeof(what));
	c->points++;
	c->verdicts[v]++;
	if (v == PSW_UNEXPLAINED && c->verdicts[v] == 1) {
		c->first_page = pt->page;
		ck_snprintf(c->first_what, sizeof(c->first_what), "%s", what);
	}
	return v;
}

/*
 * The pages a sweep visits for a place: every page, or (@sampled) the first two, the two
 * around the middle and the last two; the hwpoison places, which copy the whole folio
 * without a machine check, at the first, middle and last page of a 2 MiB folio.
 */
static bool page_in(unsigned long page, unsigned long npages, bool sampled, bool mc)
{
	if (!sampled && (mc || npages < PSW_BIG_PAGES))
		return true;
	if (!mc)
		return page == 0 || page == npages / 2 || page == npages - 1;
	return page <= 1 || page == npages / 2 - 1 || page == npages / 2 || page >= npages - 2;
}

void psw_sweep(const struct psw_env *env, struct psw_table *tab, bool sampled)
{
	for (unsigned int f = 0; f < PSW_FORMS; f++)
		for (unsigned int p = 0; p < PSW_PRIMS; p++)
			for (unsigned int pl = 0; pl < PSW_PLACES; pl++)
				for (unsigned long pg = 0; pg < env->src.nr; pg++) {
					struct psw_point pt = { f, p, pl, pg };

					if (!psw_prim_fits(f, p) || !tab->prim_ran[p] ||
					    !page_in(pg, env->src.nr, sampled,
						     psw_place_is_mc(pl)))
						continue;
					psw_sweep_point(env, &pt, tab);
				}
}

unsigned long psw_total(const struct psw_table *tab, enum psw_verdict v)
{
	const struct psw_cell *c = &tab->cell[0][0][0];
	unsigned long n = 0;

	for (unsigned int i = 0; i < PSW_FORMS * PSW_PRIMS * PSW_PLACES; i++)
		n += c[i].verdicts[v];
	return n;
}

void psw_cell_name(enum psw_form f, enum psw_prim p, enum psw_place pl, char *buf,
		   size_t size)
{
	ck_snprintf(buf, size, "%s, %s, %s", psw_forms[f].name, psw_prims[p].name,
		    psw_place_names[pl]);
}

/* Why a cell has no points: its primitive did not run. */
static const char *cell_missing(const struct psw_table *tab, enum psw_prim p)
{
	if (!tab->prim_ran[p])
		return tab->prim_missing[p] ? tab->prim_missing[p] : "not run";
	return NULL;
}

void psw_cell_text(const struct psw_table *tab, enum psw_form f, enum psw_prim p,
		   enum psw_place pl, char *buf, size_t size)
{
	const struct psw_cell *c = &tab->cell[f][p][pl];
	const char *missing = cell_missing(tab, p);
	size_t len = 0;

	if (size)
		buf[0] = '\0';
	ck_appendf(buf, size, &len, "%-20s %-20s %-26s ", psw_forms[f].name, psw_prims[p].name,
		   psw_place_names[pl]);
	if (missing && !c->points) {
		ck_appendf(buf, size, &len, "%s", missing);
		return;
	}
	ck_appendf(buf, size, &len, "%6lu %6lu %6lu %6lu %6lu", c->points,
		   c->verdicts[PSW_AGREE], c->verdicts[PSW_OURS_REFUSE],
		   c->verdicts[PSW_OURS_BANK_PAGE], c->verdicts[PSW_UNEXPLAINED]);
	if (c->verdicts[PSW_UNEXPLAINED])
		ck_appendf(buf, size, &len, "  first at page %lu: %s", c->first_page,
			   c->first_what);
}

void psw_cell_json(const struct psw_table *tab, unsigned long npages, enum psw_form f,
		   enum psw_prim p, enum psw_place pl, char *buf, size_t size)
{
	const struct psw_cell *c = &tab->cell[f][p][pl];
	const char *missing = cell_missing(tab, p);
	struct json_writer w;

	json_record(&w, buf, size, "poison-sweep");
	json_u64(&w, "folio_pages", npages);
	json_str(&w, "form", psw_forms[f].name);
	json_str(&w, "primitive", psw_prims[p].name);
	json_str(&w, "model_form", lx_fmc_form_name(psw_forms[f].lx));
	json_str(&w, "model_primitive", lx_fmc_prim_name(psw_prims[p].lx));
	json_u64(&w, "early_bytes", psw_prims[p].early);
	json_str(&w, "place", psw_place_names[pl]);
	json_u64(&w, "offset", psw_place_offset(pl));
	json_bool(&w, "ran", !missing || c->points);
	if (missing && !c->points)
		json_str(&w, "why", missing);
	json_u64(&w, "points", c->points);
	json_u64(&w, "agree", c->verdicts[PSW_AGREE]);
	json_u64(&w, "ours_refuse", c->verdicts[PSW_OURS_REFUSE]);
	json_u64(&w, "ours_bank_page", c->verdicts[PSW_OURS_BANK_PAGE]);
	json_u64(&w, "unexplained", c->verdicts[PSW_UNEXPLAINED]);
	if (c->verdicts[PSW_UNEXPLAINED])
		json_str(&w, "first_unexplained", c->first_what);
	json_end(&w);
}

void psw_total_json(const struct psw_table *tab, unsigned long npages, bool sampled,
		    u64 steps, char *buf, size_t size)
{
	struct json_writer w;

	json_record(&w, buf, size, "poison-sweep-total");
	json_u64(&w, "folio_pages", npages);
	json_str(&w, "pages", sampled ? "sampled" : "every");
	json_u64(&w, "agree", psw_total(tab, PSW_AGREE));
	json_u64(&w, "ours_refuse", psw_total(tab, PSW_OURS_REFUSE));
	json_u64(&w, "ours_bank_page", psw_total(tab, PSW_OURS_BANK_PAGE));
	json_u64(&w, "unexplained", psw_total(tab, PSW_UNEXPLAINED));
	json_u64(&w, "single_steps", steps);
	json_end(&w);
}
