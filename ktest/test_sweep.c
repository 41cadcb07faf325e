// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_sweep.c - the sweep suite: line-granular emulated poison (mce/emulate.c) lands exactly
 * on its line, and the poison sweep of the folio_mc_copy forms against the independent model
 * of Linux (ktest/lib/poison_sweep.h, ktest/oracle/linux_folio_mc.h): every page of a folio
 * at its first, a middle and its last cache line, and a page marked hwpoison with no machine
 * check, through the v6.17 per-page form, the v3 batched form (and its fallback without
 * preemption) over copy_mc_fragile and rep movsb, and the copy_pages() candidate's
 * folio_mc_copy_pages (preemptible and not) over each of its copy_mc_pages bodies.
 *
 * sweep= sets the folios (the emulation single-steps every load of the poisoned page before
 * its line, a byte at a time for rep movsb, so the 2 MiB folio in full takes minutes under
 * TCG):
 *   tiny (default)  every page of a 4-page folio; the 2 MiB folio is skipped
 *   quick           every page of a 16-page folio; the 2 MiB folio at pages 0, 1, 255, 256,
 *                   510 and 511 (make check's scenario)
 *   full            every page of both (the hwpoison places at pages 0, 256, 511 of 2 MiB)
 */
#include "copy/ops.h"
#include "copy/routines.h"
#include "kernel/arch/bootmem.h"
#include "kernel/arch/cpuid.h"
#include "kernel/arch/paging.h"
#include "kernel/console/printk.h"
#include "kernel/include/cpufeature.h"
#include "kernel/include/x86.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/mm/page.h"
#include "kernel/platform/tsc.h"
#include "ktest/lib/ctx.h"
#include "ktest/lib/ktap.h"
#include "ktest/lib/poison_sweep.h"
#include "ktest/mce_suite.h"
#include "mce/mce.h"

#define SMALL_PAGES_TINY	4
#define SMALL_PAGES		16
#define BIG_PAGES		PSW_BIG_PAGES
#define LAND_LEN		(3 * SZ_4K)	/* the landing case's copy: 3 pages */

/* ---- the image's environment: emulated line poison and the #MC records ---- */

static bool img_poison(u64 addr, unsigned int early)
{
	return mce_emulate_poison_line(addr, early);
}

static void img_heal(u64 addr)
{
	mce_emulate_heal_line(addr);
}

static u64 img_records(void)
{
	return mce_count();
}

static bool img_last_record(u64 *pfn)
{
	const struct mce_record *r = mce_last();

	*pfn = r && r->pfn_valid ? r->pfn : 0;
	return r && r->kind == MCE_KIND_EMULATED && r->recovered;
}

/* The bank address the last record names (the poisoned line), or 0. */
static u64 last_record_addr(void)
{
	const struct mce_record *r = mce_last();

	return r && r->worst >= 0 ? r->banks[r->worst].addr : 0;
}

/*
 * A folio of @npages source pages with the spare page before it (line poison's early window
 * may arm it) and as many destination pages; a 2 MiB folio is 2 MiB aligned, as Linux's are.
 */
static bool env_for(struct psw_env *env, unsigned long npages)
{
	u64 bytes = (u64)npages << PAGE_SHIFT, align = npages == BIG_PAGES ? SZ_2M : SZ_4K;
	u64 s, d;

	if (env->src.page && env->src.nr == npages)
		return true;
	s = bootmem_alloc(bytes + align, align);
	d = bootmem_alloc(bytes, align);
	if (!s || !d)
		return false;
	s += align;
	*env = (struct psw_env){
		.src = { pfn_to_page(s >> PAGE_SHIFT), npages },
		.dst = { pfn_to_page(d >> PAGE_SHIFT), npages },
		.src_pfn = s >> PAGE_SHIFT,
		.poison = img_poison, .heal = img_heal,
		.records = img_records, .last_record = img_last_record,
	};
	if (!env->src.page || !env->dst.page || !pfn_to_page((s >> PAGE_SHIFT) + npages - 1))
		return false;
	psw_fill(env);
	return true;
}

/* Recovery must work on this CPU; say which primitives it runs machine-check safe. */
static bool sweep_possible(struct ck_test *t, struct psw_table *tab)
{
	if (mce_cannot_recover(t))
		return false;
	*tab = (struct psw_table){ 0 };
	tab->prim_ran[PSW_FRAGILE] = true;
	tab->prim_ran[PSW_MOVSB] = tab->prim_ran[PSW_MOVSB_EARLY] = cpu_has(X86_FEATURE_ERMS);
	tab->prim_missing[PSW_MOVSB] = tab->prim_missing[PSW_MOVSB_EARLY] =
		"not run: no ERMS, so Linux's copy_mc_to_kernel never uses rep movsb here";
	/* The candidate's bodies all run: its dispatch picks one, each is held to the contract. */
	for (unsigned int p = PSW_PAGES_ERMS; p <= PSW_PAGES_UNROLLED; p++)
		tab->prim_ran[p] = true;
	return true;
}

/* ---- line poison lands on its line ---- */

struct landing {
	unsigned int bad;
	char first[160];
};

static void land_fail(struct landing *l, const char *what, unsigned int line, const char *prim,
		      u64 got, u64 want)
{
	if (!l->bad++)
		ck_snprintf(l->first, sizeof(l->first), "%s, line %u: %s (%llu, want %llu)", prim,
			    line, what, (unsigned long long)got, (unsigned long long)want);
}

/*
 * While line @at is poisoned, the rest of its page reads normally: the bytes of [@lo, @hi)
 * before it and after it are copied into @d2 (a second destination, canaries set before the
 * poison), checked once the line is healed. The span is the rest of the page for fragile; a
 * rep movs, stepped a byte at a time there, reads the line before (its early window) and
 * the line after, which keeps the case cheap (the sweep reads whole pages with it).
 */
static void neighbours_span(const struct psw_prim_desc *p, u64 at, u64 *lo, u64 *hi)
{
	bool whole = p->fn == copy_mc_fragile;

	*lo = whole || at == SZ_4K ? SZ_4K : at - 64;
	*hi = whole || at + 64 == 2 * SZ_4K ? 2 * SZ_4K : at + 128;
}

static bool neighbours_copy(const struct psw_prim_desc *p, u8 *d2, const u8 *s, u64 at,
			    u64 lo, u64 hi)
{
	return (at == lo || !p->fn(d2 + lo, s + lo, at - lo)) &&
	       (at + 64 == hi || !p->fn(d2 + at + 64, s + at + 64, hi - at - 64));
}

static bool neighbours_equal(const u8 *d2, const u8 *s, u64 at, u64 lo, u64 hi)
{
	return !memcmp(d2 + lo, s + lo, at - lo) &&
	       !memcmp(d2 + at + 64, s + at + 64, hi - at - 64);
}

/*
 * Line @line of page 1 of a 3-page source poisoned; @p copies all 3 pages: it must stop
 * exactly at the line (or @p's early bytes before it), write exactly the bytes before the
 * stop, the bank must name the line, every load before the stop from a not-present page
 * (page 1, and page 0 when the early window armed it) must have been stepped once, and the
 * other lines of the page (for rep movsb the two beside it: neighbours_span) must read
 * normally while the line is poisoned. Nothing reads the source but the primitive until the
 * line is healed.
 */
static void land_one(struct landing *l, const struct psw_env *env,
		     const struct psw_prim_desc *p, unsigned int line)
{
	u8 *s = page_address(env->src.page), *d = page_address(env->dst.page);
	u8 *d2 = d + LAND_LEN;
	u64 at = SZ_4K + line * 64ULL, len = LAND_LEN, stop = at - p->early, i;
	u64 addr = (u64)(uintptr_t)s + at, steps, want_steps, left, recs = mce_count(), lo, hi;
	unsigned int unit = p->fn == copy_mc_fragile ? 8 : 1;
	bool neighbours;

	neighbours_span(p, at, &lo, &hi);
	for (i = 0; i < len; i++)
		d[i] = (u8)~s[i];
	for (i = lo; i < hi; i++)
		d2[i] = (u8)~s[i];
	if (!mce_emulate_poison_line(addr, p->early)) {
		land_fail(l, "poison not set", line, p->name, 0, 1);
		return;
	}
	steps = mce_emulate_steps();
	left = p->fn(d, s, len);
	steps = mce_emulate_steps() - steps;
	want_steps = (stop - (p->early > line * 64U ? 0 : SZ_4K)) / unit;
	neighbours = neighbours_copy(p, d2, s, at, lo, hi);
	mce_emulate_heal_line(addr);
	for (i = stop; i < len && (d[i] ^ s[i]) == 0xff; i++)
		;
	if (left != len - stop)
		land_fail(l, "bytes left", line, p->name, left, len - stop);
	else if (memcmp(d, s, stop) || i != len)
		land_fail(l, "destination not exactly the bytes before the stop", line, p->name,
			  i, len);
	else if (mce_count() != recs + 1)
		land_fail(l, "#MC records (the copy and the neighbours' reads)", line, p->name,
			  mce_count() - recs, 1);
	else if (last_record_addr() != addr)
		land_fail(l, "record's bank address", line, p->name, last_record_addr(), addr);
	else if (steps != want_steps)
		land_fail(l, "loads single-stepped", line, p->name, steps, want_steps);
	else if (!neighbours || !neighbours_equal(d2, s, at, lo, hi))
		land_fail(l, "another line of the page did not read normally", line, p->name, 0,
			  0);
}

static void line_poison_lands_on_its_line(struct ck_test *t)
{
	static struct psw_env env;
	struct psw_table tab;
	struct landing l = { 0 };
	unsigned int lines = t->ctx->sweep == SWEEP_TINY ? 8 : 64, runs = 0;

	if (!sweep_possible(t, &tab) || !report(t, env_for(&env, 6), "buffers"))
		return;
	for (unsigned int p = 0; p < PSW_PRIMS; p++) {
		if (!tab.prim_ran[p] || !psw_prims[p].fn)
			continue;
		for (unsigned int i = 0; i < lines; i++) {
			/* tiny: lines 0, 1, 2, 31, 32, 61, 62, 63 */
			unsigned int line = lines == 64 ? i : i < 3 ? i : i < 5 ? 28 + i : 56 + i;

			land_one(&l, &env, &psw_prims[p], line);
			runs++;
		}
	}
	psw_fill(&env);
	report(t, l.bad == 0, "%u of %u poisoned lines not landed exactly; first: %s", l.bad,
	       runs, l.first);
	ck_diag("%u lines of a page poisoned one at a time, over %s%s: each copy stopped at its "
		"line, the bank named it, every earlier load of the page was stepped once",
		lines, psw_prims[0].name, tab.prim_ran[PSW_MOVSB] ?
		", rep movsb and rep movsb stopping 40 bytes early" : " (no ERMS: no rep movsb)");
	mce_report_skip("    # ");
}

/* ---- the sweep ---- */

/* Every cell of the table: each form with each primitive that fits it, at each place. */
#define FOR_EACH_CELL(f, p, pl)						\
	for (unsigned int f = 0; f < PSW_FORMS; f++)			\
		for (unsigned int p = 0; p < PSW_PRIMS; p++)		\
			for (unsigned int pl = psw_prim_fits(f, p) ? 0 : PSW_PLACES; \
			     pl < PSW_PLACES; pl++)

/* One KTAP parameter per cell that ran: ok when none of its points is unexplained. */
static void sweep_params(struct ck_test *t, const char *name, const struct psw_table *tab)
{
	unsigned int n = 0, idx = 0;
	char buf[128];

	FOR_EACH_CELL(f, p, pl)
		n += tab->cell[f][p][pl].points != 0;
	ck_params_begin(t, name, n);
	FOR_EACH_CELL(f, p, pl) {
		const struct psw_cell *c = &tab->cell[f][p][pl];

		if (!c->points)
			continue;
		psw_cell_name(f, p, pl, buf, sizeof(buf));
		ck_param_result(t, ++idx, !c->verdicts[PSW_UNEXPLAINED], buf);
	}
}

/* The copy_mc_pages body copy/dispatch.c chose for this CPU, by its sweep name. */
static const char *pages_body_name(void)
{
	for (unsigned int p = 0; p < PSW_PRIMS; p++)
		if (psw_prims[p].pages_fn && psw_prims[p].pages_fn == copy_ops.copy_mc_pages)
			return psw_prims[p].name;
	return "none of them";
}

/* The summary table: a row per cell that ran, a row per primitive that did not. */
static void sweep_table(const struct psw_table *tab, unsigned long npages, bool sampled)
{
	char buf[256];

	ck_diag("sweep: %lu-page folio, %s; points per cell and their verdicts", npages,
		sampled ? "pages 0, 1, n/2 - 1, n/2, n - 2, n - 1 (hwpoison: 0, n/2, n - 1)" :
		"every page");
	ck_diag("sweep: %-20s %-20s %-26s %6s %6s %6s %6s %6s", "form", "primitive", "place",
		"points", "agree", "refuse", "bank", "unexpl");
	FOR_EACH_CELL(f, p, pl) {
		if (!tab->cell[f][p][pl].points)
			continue;
		psw_cell_text(tab, f, p, pl, buf, sizeof(buf));
		ck_diag("sweep: %s", buf);
	}
	for (unsigned int p = 0; p < PSW_PRIMS; p++)
		if (!tab->prim_ran[p])
			ck_diag("sweep: %-20s %-20s %s", "(all its forms)", psw_prims[p].name,
				tab->prim_missing[p]);
	ck_diag("sweep: rep movsb early, pages_erms early, pages_rep early: told to stop %u bytes "
		"before the line, as fast strings may (mce/emulate.c)", PSW_EARLY);
	ck_diag("sweep: pages_*: the copy_mc_pages bodies of the copy_pages() candidate (not "
		"Linux), each swept; this CPU's dispatch picks %s", pages_body_name());
	for (unsigned int v = 0; v < PSW_VERDICTS; v++)
		if (psw_verdict_reasons[v])
			ck_diag("sweep: %s = a deliberate difference: %s", psw_verdict_names[v],
				psw_verdict_reasons[v]);
}

/* One JSON record per cell (those that did not run say why), then the total. */
static void sweep_json(const struct psw_table *tab, unsigned long npages, bool sampled,
		       u64 steps)
{
	char buf[448];

	FOR_EACH_CELL(f, p, pl) {
		psw_cell_json(tab, npages, f, p, pl, buf, sizeof(buf));
		printk("    # %s\n", buf);
	}
	psw_total_json(tab, npages, sampled, steps, buf, sizeof(buf));
	printk("    # %s\n", buf);
}

static void run_sweep(struct ck_test *t, const char *name, unsigned long npages, bool sampled)
{
	static struct psw_env envs[2];
	static struct psw_table tab;
	struct psw_env *env = &envs[npages == BIG_PAGES];
	unsigned long bad;
	u64 t0, steps;

	if (!sweep_possible(t, &tab) || !report(t, env_for(env, npages), "buffers"))
		return;
	t0 = rdtsc();
	steps = mce_emulate_steps();
	psw_sweep(env, &tab, sampled);
	steps = mce_emulate_steps() - steps;
	sweep_params(t, name, &tab);
	sweep_table(&tab, npages, sampled);
	sweep_json(&tab, npages, sampled, steps);
	bad = psw_total(&tab, PSW_UNEXPLAINED);
	ck_diag("sweep: %lu agree, %lu deliberate differences, %lu unexplained; %llu loads "
		"single-stepped, %llu ms", psw_total(&tab, PSW_AGREE),
		psw_total(&tab, PSW_OURS_REFUSE) + psw_total(&tab, PSW_OURS_BANK_PAGE), bad,
		(unsigned long long)steps, (unsigned long long)(tsc_to_ns(rdtsc() - t0) / 1000000));
	report(t, bad == 0, "%lu points differ from the model of Linux without a stated reason",
	       bad);
	mce_report_skip("    # ");
}

static void poison_sweep(struct ck_test *t)
{
	run_sweep(t, "poison_sweep", t->ctx->sweep == SWEEP_TINY ? SMALL_PAGES_TINY : SMALL_PAGES,
		  false);
}

static void poison_sweep_2m(struct ck_test *t)
{
	if (t->ctx->sweep == SWEEP_TINY) {
		ck_skip(t, "sweep=tiny: the 2 MiB folio runs with sweep=quick (6 pages) or full");
		return;
	}
	run_sweep(t, "poison_sweep_2m", BIG_PAGES, t->ctx->sweep == SWEEP_QUICK);
}

CK_SUITE(sweep, 92,
	 CK_CASE(line_poison_lands_on_its_line),
	 CK_CASE(poison_sweep),
	 CK_CASE(poison_sweep_2m));
