// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_poison_sweep.c - the poison sweep's binding and verdicts (ktest/lib/poison_sweep.h)
 * on observations written by hand, each against the independent model of Linux
 * (ktest/oracle/linux_folio_mc.c) and a verdict worked out from the v3 patch and the
 * project's docs/design/machine-checks.md, not from the judge's code; then the whole sweep
 * over copy/pages.c's forms with the real copy_mc_fragile and rep movsb and the copy_pages
 * candidate's real copy_mc_pages bodies (copy/copy_pages.asm), poison standing in as a
 * PROT_NONE page whose loads outside the poisoned line are single-stepped with the trap flag
 * (the host's twin of mce/emulate.c's line poison; the fault shim resumes a load of the line
 * at its fixup, as a #MC recovery would).
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <ucontext.h>

#include "copy/ops.h"
#include "kernel/include/extable.h"
#include "ktest/lib/poison_sweep.h"
#include "tests/host/fault_shim.h"
#include "tests/host/host_test.h"

#define NPAGES		8	/* the host's folio: sampling leaves pages 2 and 5 out */
#define PFN0		0x4000ULL
#define EFLAGS_TF	0x100

extern struct exception_table_entry __start_ck_extable[], __stop_ck_extable[];

/* ---- observations written by hand ---- */

/* A folio at pfn PFN0 (no memory behind it: the judge only reads the numbers). */
static const struct psw_env fake_env = { .src = { NULL, 512 }, .src_pfn = PFN0 };

static enum psw_verdict judge(const struct psw_point *pt, const struct psw_obs *o, char *what)
{
	struct lx_fmc_out m;
	struct lx_fmc_in in;

	psw_model_in(&fake_env, pt, o, &in);
	lx_folio_mc_copy_model(&in, &m);
	return psw_judge(&fake_env, pt, o, &m, what, 120);
}

/*
 * What a correct v3 batched copy does on poison at @off of page @page, stopping @early bytes
 * before it: one call of 2 MiB, stopped there; the bank names the page; v3's formula gives
 * the page of the first byte not copied, and the project queues the bank's page when the
 * two differ (docs/design/machine-checks.md, "Which page did the copy stop at?").
 */
static struct psw_obs v3_obs(unsigned long page, u64 off, u64 early)
{
	u64 stop = (page << 12) + off - early;
	u64 formula = PFN0 + (stop >> 12);

	return (struct psw_obs){
		.ran = true, .retval = -EHWPOISON, .calls = 1, .stopped = true,
		.call_start = 0, .call_len = 512 << 12, .ret = (512 << 12) - stop,
		.nqueued = 1, .queued_pfn = PFN0 + page, .named = true, .formula_pfn = formula,
		.dst_copied = stop, .dst_clean = true, .have_records = true, .records = 1,
		.record_recovered = true, .record_pfn = PFN0 + page,
	};
}

static void test_agree(void)
{
	struct psw_point pt = { PSW_V3, PSW_FRAGILE, PSW_MIDDLE, 5 };
	struct psw_obs o = v3_obs(5, 2048, 0);
	char what[120];

	CHECK(judge(&pt, &o, what) == PSW_AGREE, "v3 fragile, page 5 middle: %s", what);
	pt = (struct psw_point){ PSW_V3, PSW_MOVSB_EARLY, PSW_LAST, 9 };
	o = v3_obs(9, 4032, PSW_EARLY);
	CHECK(judge(&pt, &o, what) == PSW_AGREE, "v3 early stop inside the page: %s", what);
	/* Per page, page 7, first line: 8 calls, 7 reschedule points, its own page queued. */
	pt = (struct psw_point){ PSW_PER_PAGE, PSW_FRAGILE, PSW_FIRST, 7 };
	o = (struct psw_obs){ .ran = true, .retval = -EHWPOISON, .calls = 8, .stopped = true,
			      .call_start = 7 << 12, .call_len = 4096, .ret = 4096,
			      .resched = 7, .nqueued = 1, .queued_pfn = PFN0 + 7, .named = true,
			      .formula_pfn = PFN0 + 7, .dst_copied = 7 << 12, .dst_clean = true };
	CHECK(judge(&pt, &o, what) == PSW_AGREE, "per-page, page 7 first line: %s", what);
}

/*
 * The copy_pages candidate (not Linux), held to its contract (copy/copy_pages.asm): one call
 * of 2 MiB whose count is the bytes not copied, and v3's formula over it; rep movsq stops on
 * quadwords, so 40 bytes early is 5 of them. Without preemption, a call per page.
 */
static void test_candidate(void)
{
	struct psw_point pt = { PSW_COPY_PAGES, PSW_PAGES_REP_EARLY, PSW_MIDDLE, 5 };
	struct psw_obs o = v3_obs(5, 2048, PSW_EARLY);
	char what[120];

	CHECK(judge(&pt, &o, what) == PSW_AGREE, "candidate rep movsq 5 quadwords early: %s",
	      what);
	o.ret -= 4;	/* a remainder off the quadword grid: no rep movsq stops there */
	o.dst_copied += 4;
	CHECK(judge(&pt, &o, what) == PSW_UNEXPLAINED, "rep movsq off its grid: %s", what);
	pt = (struct psw_point){ PSW_COPY_PAGES, PSW_PAGES_UNROLLED, PSW_LAST, 9 };
	o = v3_obs(9, 4032, 0);
	CHECK(judge(&pt, &o, what) == PSW_AGREE, "candidate unrolled, last line: %s", what);
	o.ret -= 64;	/* one line fewer than is missing: the poisoned line claimed copied */
	CHECK(judge(&pt, &o, what) == PSW_UNEXPLAINED, "unrolled a line short: %s", what);
	pt = (struct psw_point){ PSW_COPY_PAGES_NOPREEMPT, PSW_PAGES_ERMS, PSW_FIRST, 2 };
	o = (struct psw_obs){ .ran = true, .retval = -EHWPOISON, .calls = 3, .stopped = true,
			      .call_start = 2 << 12, .call_len = 4096, .ret = 4096, .resched = 3,
			      .nqueued = 1, .queued_pfn = PFN0 + 2, .named = true,
			      .formula_pfn = PFN0 + 2, .dst_copied = 2 << 12, .dst_clean = true };
	CHECK(judge(&pt, &o, what) == PSW_AGREE, "candidate per page, page 2: %s", what);
	pt.place = PSW_HWPOISON;
	o = (struct psw_obs){ .ran = true, .retval = -EHWPOISON, .dst_clean = true };
	CHECK(judge(&pt, &o, what) == PSW_OURS_REFUSE, "the candidate refuses the range: %s",
	      what);
	CHECK(!psw_prim_fits(PSW_COPY_PAGES, PSW_MOVSB) && !psw_prim_fits(PSW_V3, PSW_PAGES_REP) &&
	      psw_prim_fits(PSW_COPY_PAGES_NOPREEMPT, PSW_PAGES_UNROLLED),
	      "a form runs only its own kind of primitive");
}

static void test_wrong_pfn(void)
{
	struct psw_point pt = { PSW_V3, PSW_FRAGILE, PSW_FIRST, 5 };
	struct psw_obs o = v3_obs(5, 0, 0);
	char what[120];

	/* (len - ret - 1) >> 12: page 4 from the formula, though the bank's page 5 is queued. */
	o.formula_pfn = PFN0 + 4;
	CHECK(judge(&pt, &o, what) == PSW_UNEXPLAINED && strstr(what, "return value"),
	      "a formula naming page 4: %s", what);
	o = v3_obs(5, 0, 0);
	o.queued_pfn = PFN0 + 4;
	CHECK(judge(&pt, &o, what) == PSW_UNEXPLAINED && strstr(what, "queued pfn"),
	      "page 4 queued: %s", what);
}

static void test_bank_page(void)
{
	struct psw_point pt = { PSW_V3, PSW_MOVSB_EARLY, PSW_FIRST, 5 };
	struct psw_obs o = v3_obs(5, 0, PSW_EARLY);
	char what[120];

	CHECK(o.formula_pfn == PFN0 + 4, "the early stop lies in page 4");
	CHECK(judge(&pt, &o, what) == PSW_OURS_BANK_PAGE, "bank page kept: %s", what);
	o.queued_pfn = PFN0 + 4;
	CHECK(judge(&pt, &o, what) == PSW_AGREE, "Linux's page 4 queued agrees: %s", what);
	o = v3_obs(5, 0, PSW_EARLY);
	o.record_pfn = PFN0 + 4;
	CHECK(judge(&pt, &o, what) == PSW_UNEXPLAINED, "bank naming page 4 but 5 queued: %s",
	      what);
	/* the bank names page 5, the formula page 4, and page 6 is queued: neither explains it */
	o = v3_obs(5, 0, PSW_EARLY);
	o.queued_pfn = PFN0 + 6;
	CHECK(judge(&pt, &o, what) == PSW_UNEXPLAINED && strstr(what, "queued pfn"),
	      "bank page 5, formula page 4, page 6 queued: %s", what);
	o = v3_obs(5, 0, PSW_EARLY);
	o.dst_copied--;
	CHECK(judge(&pt, &o, what) == PSW_UNEXPLAINED && strstr(what, "destination"),
	      "bank page, but a byte short: %s", what);
}

static void test_refuse(void)
{
	struct psw_point pt = { PSW_V3, PSW_MOVSB, PSW_HWPOISON, 5 };
	struct psw_obs o = { .ran = true, .retval = -EHWPOISON, .dst_clean = true,
			     .have_records = true };
	char what[120];

	CHECK(judge(&pt, &o, what) == PSW_OURS_REFUSE, "v3 refuses the range: %s", what);
	pt.form = PSW_PER_PAGE;
	CHECK(judge(&pt, &o, what) == PSW_UNEXPLAINED, "per page refusing page 0: %s", what);
	o.calls = o.resched = 5;
	o.dst_copied = 5 << 12;
	CHECK(judge(&pt, &o, what) == PSW_OURS_REFUSE, "per page refuses at page 5: %s", what);
	o.records = 1;
	CHECK(judge(&pt, &o, what) == PSW_UNEXPLAINED, "a #MC record where none was raised: %s",
	      what);
	/* The pre-check off: the page is copied, as in Linux. */
	pt = (struct psw_point){ PSW_V3, PSW_MOVSB, PSW_HWPOISON_NOCHECK, 5 };
	o = (struct psw_obs){ .ran = true, .calls = 1, .dst_copied = 512 << 12,
			      .dst_clean = true };
	CHECK(judge(&pt, &o, what) == PSW_AGREE, "silent copy: %s", what);
	o.retval = -EHWPOISON;
	CHECK(judge(&pt, &o, what) == PSW_UNEXPLAINED, "refusing without the pre-check: %s",
	      what);
}

static void test_other_differences(void)
{
	struct psw_point pt = { PSW_V3, PSW_FRAGILE, PSW_LAST, 3 };
	struct psw_obs good = v3_obs(3, 4032, 0), o;
	char what[120];

	o = good;
	o.ret += 64;	/* fragile stopping a line early: the model wants the exact stop */
	o.dst_copied -= 64;
	CHECK(judge(&pt, &o, what) == PSW_UNEXPLAINED, "fragile early: %s", what);
	o = good;
	o.dst_clean = false;
	CHECK(judge(&pt, &o, what) == PSW_UNEXPLAINED, "written after the stop: %s", what);
	o = good;
	o.calls = 2;
	CHECK(judge(&pt, &o, what) == PSW_UNEXPLAINED, "two calls: %s", what);
	o = good;
	o.records = 2;
	CHECK(judge(&pt, &o, what) == PSW_UNEXPLAINED, "two records: %s", what);
	o = good;
	o.ran = false;
	CHECK(judge(&pt, &o, what) == PSW_UNEXPLAINED, "not run: %s", what);
	/* rep movsb claiming the poisoned line copied: 64 bytes past the line. */
	pt = (struct psw_point){ PSW_V3, PSW_MOVSB_EARLY, PSW_MIDDLE, 3 };
	o = v3_obs(3, 2048, 0);
	o.ret -= 64;
	o.dst_copied += 64;
	CHECK(judge(&pt, &o, what) == PSW_UNEXPLAINED && strstr(what, "model"),
	      "past the line: %s", what);
	/* v3 without preemption: per page, a reschedule point before each page. */
	pt = (struct psw_point){ PSW_V3_NOPREEMPT, PSW_FRAGILE, PSW_FIRST, 2 };
	o = (struct psw_obs){ .ran = true, .retval = -EHWPOISON, .calls = 3, .stopped = true,
			      .call_start = 2 << 12, .call_len = 4096, .ret = 4096, .resched = 2,
			      .nqueued = 1, .queued_pfn = PFN0 + 2, .named = true,
			      .formula_pfn = PFN0 + 2, .dst_copied = 2 << 12, .dst_clean = true };
	CHECK(judge(&pt, &o, what) == PSW_UNEXPLAINED && strstr(what, "cond_resched"),
	      "two reschedule points, v3's fallback makes three: %s", what);
	o.resched = 3;
	CHECK(judge(&pt, &o, what) == PSW_AGREE, "three: %s", what);
}

/* ---- the sweep on the host ---- */

static struct {
	uintptr_t page, line;	/* the poisoned page and line, 0 when none */
	bool stepping;
	unsigned long steps;
	uintptr_t src;		/* the source folio's first byte */
	u32 pages_poisoned;	/* a bit per source page a machine-check point poisoned */
} hp;
static struct sigaction shim_segv;

/* A machine-check-safe load of the poisoned page outside its line: map it for one step. */
static void host_segv(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	greg_t *g = uc->uc_mcontext.gregs;
	uintptr_t a = (uintptr_t)si->si_addr;
	const struct exception_table_entry *e;

	e = ex_search(__start_ck_extable, __stop_ck_extable, (uintptr_t)g[REG_RIP]);
	if (hp.page && !hp.stepping && a - hp.page < 4096 && a - hp.line >= 64 && e &&
	    ex_type_mce_safe(ex_type(e))) {
		mprotect((void *)hp.page, 4096, PROT_READ);
		g[REG_EFL] |= EFLAGS_TF;
		hp.stepping = true;
		hp.steps++;
		return;
	}
	shim_segv.sa_sigaction(sig, si, ucv);
}

static void host_trap(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;

	if (!hp.stepping) {
		signal(sig, SIG_DFL);
		return;
	}
	mprotect((void *)hp.page, 4096, PROT_NONE);
	uc->uc_mcontext.gregs[REG_EFL] &= ~EFLAGS_TF;
	hp.stepping = false;
}

static bool host_poison(u64 addr, unsigned int early)
{
	if (early)
		return false;	/* the twin stops exactly: no early window */
	hp.page = addr & ~4095ULL;
	hp.line = addr & ~63ULL;
	hp.pages_poisoned |= 1u << ((hp.page - hp.src) >> 12);
	return !mprotect((void *)hp.page, 4096, PROT_NONE);
}

static void host_heal(u64 addr)
{
	mprotect((void *)(uintptr_t)(addr & ~4095ULL), 4096, PROT_READ | PROT_WRITE);
	hp.page = hp.line = 0;
}

static struct page frames_src[NPAGES], frames_dst[NPAGES];

static void host_env(struct psw_env *env)
{
	uint8_t *m = mmap(NULL, (2 * NPAGES + 1) * 4096, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	struct sigaction sa = { .sa_sigaction = host_segv, .sa_flags = SA_SIGINFO | SA_NODEFER };
	u64 s = ((uintptr_t)m >> 12) + 1, d = s + NPAGES;

	if (m == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	fault_shim_install();
	sigaction(SIGSEGV, NULL, &shim_segv);
	sigaction(SIGSEGV, &sa, NULL);
	sa.sa_sigaction = host_trap;
	sigaction(SIGTRAP, &sa, NULL);
	pgmap_add(s, NPAGES, frames_src, 0);
	pgmap_add(d, NPAGES, frames_dst, 0);
	*env = (struct psw_env){ .src = { frames_src, NPAGES }, .dst = { frames_dst, NPAGES },
				 .src_pfn = s, .poison = host_poison, .heal = host_heal };
	hp.src = (uintptr_t)s << 12;
	psw_fill(env);
}

/*
 * The table's outputs for the swept @tab: a cell's line, name and JSON record carry its own
 * counts (every page of the folio, each agreeing), a primitive that did not run says why, and
 * the total record counts the refusals.
 */
static void check_output(const struct psw_table *tab, int mc_points)
{
	char buf[448], want[64];

	psw_cell_name(PSW_V3, PSW_FRAGILE, PSW_LAST, buf, sizeof(buf));
	CHECK(!strcmp(buf, "v3 batched, fragile, last line"), "cell name: %s", buf);
	psw_cell_text(tab, PSW_V3, PSW_FRAGILE, PSW_LAST, buf, sizeof(buf));
	snprintf(want, sizeof(want), "%6d %6d %6d %6d %6d", mc_points, mc_points, 0, 0, 0);
	CHECK(strstr(buf, "last line") && strstr(buf, want), "cell text: %s", buf);
	psw_cell_name(PSW_COPY_PAGES_NOPREEMPT, PSW_PAGES_REP, PSW_FIRST, buf, sizeof(buf));
	CHECK(!strcmp(buf, "cand. no-preempt, pages_rep, first line"), "cell name: %s", buf);
	psw_cell_text(tab, PSW_COPY_PAGES, PSW_PAGES_UNROLLED, PSW_MIDDLE, buf, sizeof(buf));
	CHECK(strstr(buf, "copy_pages cand.") && strstr(buf, want), "candidate's cell: %s", buf);
	psw_cell_text(tab, PSW_V3, PSW_MOVSB_EARLY, PSW_LAST, buf, sizeof(buf));
	CHECK(strstr(buf, "not run"), "a primitive that did not run: %s", buf);
	psw_cell_json(tab, NPAGES, PSW_PER_PAGE, PSW_MOVSB, PSW_MIDDLE, buf, sizeof(buf));
	snprintf(want, sizeof(want), "\"points\":%d,\"agree\":%d,", mc_points, mc_points);
	CHECK(strstr(buf, "\"kind\":\"poison-sweep\"") && strstr(buf, want) &&
	      strstr(buf, "\"place\":\"middle line\"") && strstr(buf, "\"offset\":2048"),
	      "cell record: %s", buf);
	for (unsigned int v = 0; v < PSW_VERDICTS; v++)
		CHECK(psw_verdict_names[v] && !psw_verdict_reasons[v] ==
		      (v == PSW_AGREE || v == PSW_UNEXPLAINED),
		      "verdict %u (%s): a reason exactly when the difference is deliberate", v,
		      psw_verdict_names[v]);
	psw_total_json(tab, NPAGES, true, 7, buf, sizeof(buf));
	snprintf(want, sizeof(want), "\"ours_refuse\":%lu,", psw_total(tab, PSW_OURS_REFUSE));
	CHECK(strstr(buf, "\"poison-sweep-total\"") && strstr(buf, want) &&
	      strstr(buf, "\"pages\":\"sampled\"") &&
	      strstr(buf, "\"unexplained\":0,") && strstr(buf, "\"single_steps\":7"),
	      "total record: %s", buf);
}

/*
 * The form-primitive pairs @tab swept; in *@off, the cells (a pair and a place) whose points
 * are not @mc for a machine-check place or @hw for a hwpoison one.
 */
static unsigned long swept_cells(const struct psw_table *tab, unsigned long mc,
				 unsigned long hw, unsigned long *off)
{
	unsigned long cells = 0;

	*off = 0;
	for (unsigned int f = 0; f < PSW_FORMS; f++)
		for (unsigned int p = 0; p < PSW_PRIMS; p++) {
			if (!tab->prim_ran[p] || !psw_prim_fits(f, p))
				continue;
			cells++;
			for (unsigned int pl = 0; pl < PSW_PLACES; pl++)
				*off += tab->cell[f][p][pl].points !=
					(psw_place_is_mc(pl) ? mc : hw);
		}
	return cells;
}

/*
 * Every form, over fragile and rep movsb or the candidate's three copy_mc_pages bodies
 * (stopping exactly: the twin has no early window), sampled over an 8-page folio. What
 * sampling visits is poison_sweep.h's rule, not the code's: a machine check at the first two
 * pages, the two around the middle (3, 4) and the last two (6, 7), six of the eight; the
 * hwpoison places at the first, middle and last page, three. With no bank (the host has no
 * #MC), the project queues v3's own page, so every machine-check point agrees with the
 * model, the pre-check refuses every hwpoison page and, switched off, agrees.
 */
static void test_host_sweep(void)
{
	static struct psw_table tab;
	unsigned long cells, off;
	struct psw_env env;

	host_env(&env);
	tab.prim_ran[PSW_FRAGILE] = tab.prim_ran[PSW_MOVSB] = true;
	tab.prim_ran[PSW_PAGES_ERMS] = tab.prim_ran[PSW_PAGES_REP] = true;
	tab.prim_ran[PSW_PAGES_UNROLLED] = true;
	hp.pages_poisoned = 0;
	psw_sweep(&env, &tab, true);
	cells = swept_cells(&tab, 6, 3, &off);
	CHECK(cells == 3 * 2 + 2 * 3, "%lu form-primitive pairs, want 12", cells);
	CHECK(!off, "%lu cells without 6 points (machine check) or 3 (hwpoison)", off);
	CHECK(hp.pages_poisoned == 0xdb, "pages poisoned 0x%x, want 0, 1, 3, 4, 6, 7 (0xdb)",
	      hp.pages_poisoned);
	CHECK(psw_total(&tab, PSW_UNEXPLAINED) == 0, "%lu unexplained; first: %s",
	      psw_total(&tab, PSW_UNEXPLAINED), tab.cell[0][0][0].first_what);
	CHECK(psw_total(&tab, PSW_AGREE) == cells * (3 * 6 + 3), "%lu agree, want %lu",
	      psw_total(&tab, PSW_AGREE), cells * (3 * 6 + 3));
	CHECK(psw_total(&tab, PSW_OURS_REFUSE) == cells * 3, "%lu refused, want %lu",
	      psw_total(&tab, PSW_OURS_REFUSE), cells * 3);
	CHECK(psw_total(&tab, PSW_OURS_BANK_PAGE) == 0, "no bank, no bank page");
	for (unsigned int f = 0; f < PSW_FORMS; f++)
		for (unsigned int p = 0; p < PSW_PRIMS; p++)
			for (unsigned int pl = 0; pl < PSW_PLACES; pl++)
				if (tab.cell[f][p][pl].verdicts[PSW_UNEXPLAINED])
					printf("# %s, %s, %s: page %lu: %s\n", psw_forms[f].name,
					       psw_prims[p].name, psw_place_names[pl],
					       tab.cell[f][p][pl].first_page,
					       tab.cell[f][p][pl].first_what);
	/* Each machine-check point steps the loads before its line: none for a first line. */
	CHECK(hp.steps > 0 && !hp.stepping, "%lu loads stepped", hp.steps);
	check_output(&tab, 6);

	/* Not sampled, a folio under PSW_BIG_PAGES: every page for every place (fragile alone). */
	memset(&tab, 0, sizeof(tab));
	tab.prim_ran[PSW_FRAGILE] = true;
	hp.pages_poisoned = 0;
	psw_sweep(&env, &tab, false);
	cells = swept_cells(&tab, NPAGES, NPAGES, &off);
	CHECK(cells == 3 && !off && hp.pages_poisoned == 0xff,
	      "every page: %lu cells, %lu without %d points, pages poisoned 0x%x", cells, off,
	      NPAGES, hp.pages_poisoned);
	CHECK(psw_total(&tab, PSW_AGREE) == cells * 4 * NPAGES &&
	      psw_total(&tab, PSW_OURS_REFUSE) == cells * NPAGES, "%lu agree, %lu refused",
	      psw_total(&tab, PSW_AGREE), psw_total(&tab, PSW_OURS_REFUSE));
}

int main(void)
{
	return RUN_TESTS(test_agree, test_candidate, test_wrong_pfn, test_bank_page, test_refuse,
			 test_other_differences, test_host_sweep);
}
