/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * poison_sweep.h - the poison sweep of the folio_mc_copy forms (copy/pages.c) against the
 * independent model of Linux (ktest/oracle/linux_folio_mc.h), shared by the image
 * (ktest/test_sweep.c, over mce/emulate.c's line poison) and the host
 * (tests/host/test_poison_sweep.c, over a PROT_NONE page stepped with the trap flag).
 *
 * A point is one form, one primitive, one poisoned source page and a place in it: the first,
 * a middle or the last 64-byte line raising a machine check, or the page only marked
 * hwpoison (no machine check), with the project's pre-check on or off. The driver
 * (psw_run_point) copies the folio over it and observes what happened: the return value,
 * each call of the primitive and what the stopping one returned, the reschedule points, the
 * pages queued for memory_failure, the destination's bytes and the #MC records. The binding
 * (psw_model_in) gives the model the same inputs and, for a rep movsb told to stop early,
 * the remainder observed; psw_judge compares the two: they agree, they differ in one of the
 * ways the project differs from Linux on purpose (each named, with its reason), or the
 * difference is unexplained. Cells (form x primitive x place) count the verdicts.
 *
 * The copy_pages() candidate's forms (folio_mc_copy_pages, not Linux) run over its own
 * copy_mc_pages bodies, wrapped as the copy_mc_to_kernel() primitives are for the other
 * forms; the model holds them to the candidate's contract (LX_FMC_COPY_PAGES: v3's rules with
 * a 64-bit length, the bodies stopping like fragile, rep movsb or, on quadwords, rep movsq).
 *
 * Plain C over copy/ and kernel/mm/: the environment supplies the folios and the poison.
 */
#ifndef CK_KTEST_LIB_POISON_SWEEP_H
#define CK_KTEST_LIB_POISON_SWEEP_H

#include "copy/pages.h"
#include "ktest/oracle/linux_folio_mc.h"

enum psw_form {
	PSW_PER_PAGE,		/* folio_mc_copy_per_page: Linux v6.17's loop */
	PSW_V3,			/* folio_mc_copy_batched, preemptible: one call (seed 002) */
	PSW_V3_NOPREEMPT,	/* the same without CONFIG_PREEMPTION: its per-page fallback */
	PSW_COPY_PAGES,		/* folio_mc_copy_pages, preemptible: one copy_mc_pages call */
	PSW_COPY_PAGES_NOPREEMPT,	/* the same without CONFIG_PREEMPTION: a call per page */
	PSW_FORMS
};

enum psw_prim {
	PSW_FRAGILE,		/* copy_mc_fragile: stops at the first poisoned word */
	PSW_MOVSB,		/* copy_mc_fast_string, emulated to stop exactly at the line */
	PSW_MOVSB_EARLY,	/* the same, told to stop PSW_EARLY bytes before the line */
	/* The copy_pages candidate's bodies (copy/copy_pages.asm), for its forms only: */
	PSW_PAGES_ERMS,		/* copy_mc_pages_erms: rep movsb, stopping exactly at the line */
	PSW_PAGES_ERMS_EARLY,	/* ... told to stop PSW_EARLY bytes before it */
	PSW_PAGES_REP,		/* copy_mc_pages_rep: rep movsq, stopping exactly at the line */
	PSW_PAGES_REP_EARLY,	/* ... told to stop PSW_EARLY bytes (5 quadwords) before it */
	PSW_PAGES_UNROLLED,	/* copy_mc_pages_unrolled: 8 loads per line, stops at the line */
	PSW_PRIMS
};

enum psw_place {
	PSW_FIRST,		/* a #MC at the page's first line */
	PSW_MIDDLE,		/* ... at the line at 2048 */
	PSW_LAST,		/* ... at the last line */
	PSW_HWPOISON,		/* the page marked hwpoison, no #MC; the pre-check on (ours) */
	PSW_HWPOISON_NOCHECK,	/* the same with the pre-check off (Linux's way) */
	PSW_PLACES
};

#define PSW_EARLY	40	/* bytes before the line a PSW_MOVSB_EARLY copy stops */

enum psw_verdict {
	PSW_AGREE,
	PSW_OURS_REFUSE,	/* deliberate: we refuse a page marked hwpoison, Linux copies it */
	PSW_OURS_BANK_PAGE,	/* deliberate: we queue the bank's page, v3 the formula's */
	PSW_UNEXPLAINED,
	PSW_VERDICTS
};

/* What a form is: its name, the model's form, and how the image runs it. */
struct psw_form_desc {
	const char *name;
	enum lx_fmc_form lx;
	bool preemptible;	/* page_api_cfg.preemptible while it runs */
	bool pages;		/* it copies with copy_ops.copy_mc_pages, not copy_ops.copy_mc */
	int (*copy)(struct folio *dst, struct folio *src);
};

/*
 * A primitive: a copy_mc_to_kernel() one (fn, for the forms over copy_ops.copy_mc) or a
 * copy_mc_pages body (pages_fn, for the candidate's forms); exactly one of the two is set.
 */
struct psw_prim_desc {
	const char *name;
	enum lx_fmc_prim lx;
	size_t (*fn)(void *dst, const void *src, size_t len);
	size_t (*pages_fn)(void *dst, const void *src, size_t npages);
	unsigned int early;	/* bytes a rep movs stops before the line */
};

extern const struct psw_form_desc psw_forms[PSW_FORMS];
extern const struct psw_prim_desc psw_prims[PSW_PRIMS];
extern const char *const psw_place_names[PSW_PLACES];
extern const char *const psw_verdict_names[PSW_VERDICTS];
/* Why the project differs, for each deliberate verdict (NULL for the others). */
extern const char *const psw_verdict_reasons[PSW_VERDICTS];

/* Whether form @f runs primitive @p (a cell of the table exists for the pair). */
bool psw_prim_fits(enum psw_form f, enum psw_prim p);

/* Where the poisoned line of @place lies in its page. */
u32 psw_place_offset(enum psw_place place);
bool psw_place_is_mc(enum psw_place place);

struct psw_env {
	struct folio src, dst;	/* page-aligned, same size; the page before src is spare */
	u64 src_pfn;
	/* Poison the line at @addr (a rep movs stops @early bytes before it); false: cannot. */
	bool (*poison)(u64 addr, unsigned int early);
	void (*heal)(u64 addr);
	/*
	 * The #MC records so far; last_record() says whether the last one recovered and which
	 * pfn its bank named. NULL when the environment has no records (the host's stand-in):
	 * then nothing is checked about them and the bank's page is never known.
	 */
	u64 (*records)(void);
	bool (*last_record)(u64 *pfn);
};

struct psw_point {
	enum psw_form form;
	enum psw_prim prim;
	enum psw_place place;
	unsigned long page;	/* the poisoned source page's index in the folio */
};

struct psw_obs {
	bool ran;		/* the point was set up and run (false: poison could not be set) */
	int retval;		/* what the form returned */
	unsigned long calls;	/* calls of the primitive */
	bool stopped;		/* one of them returned non-zero: the first such one is below */
	u64 call_start, call_len, ret;
	unsigned long resched;	/* cond_resched() calls */
	unsigned int nqueued;	/* pfns memory_failure_queue() took during the copy */
	u64 queued_pfn;		/* the last of them */
	bool named;		/* the copy named a page through memory_failure_queue_copy() */
	u64 formula_pfn;	/* ... the one its return value gives (kernel/mm/page.h) */
	u64 dst_copied;		/* leading destination bytes equal to the source */
	bool dst_clean;		/* every byte after them, through the next page, untouched */
	bool have_records;
	unsigned long records;	/* #MC records the copy made */
	bool record_recovered;
	u64 record_pfn;
};

/* Run one point on @env: poison, copy with the form, heal, observe. Leaves @env clean. */
void psw_run_point(const struct psw_env *env, const struct psw_point *pt, struct psw_obs *o);
/* Fill the source with its pattern and the destination with canaries (once, healed). */
void psw_fill(const struct psw_env *env);

/* The model's input for @pt on @env, with what @o observed where the model takes it. */
void psw_model_in(const struct psw_env *env, const struct psw_point *pt,
		  const struct psw_obs *o, struct lx_fmc_in *in);
/*
 * Compare @o with the model's @m: the verdict, and in @what (when not AGREE) the first
 * thing that differs, e.g. "queued pfn: ours 0x1203, model 0x1202".
 */
enum psw_verdict psw_judge(const struct psw_env *env, const struct psw_point *pt,
			   const struct psw_obs *o, const struct lx_fmc_out *m, char *what,
			   size_t size);

/* One cell of the table: a form, a primitive, a place. */
struct psw_cell {
	unsigned long points, verdicts[PSW_VERDICTS];
	unsigned long first_page;	/* of the first unexplained point */
	char first_what[120];
};

struct psw_table {
	struct psw_cell cell[PSW_FORMS][PSW_PRIMS][PSW_PLACES];
	bool prim_ran[PSW_PRIMS];
	const char *prim_missing[PSW_PRIMS];	/* why a primitive did not run */
};

/* Run @pt, judge it against the model and count it in @tab; returns the verdict. */
enum psw_verdict psw_sweep_point(const struct psw_env *env, const struct psw_point *pt,
				 struct psw_table *tab);
/*
 * Every point of @env's folio for each form and the primitives that fit it and @tab says ran:
 * every page, or with @sampled six of them (psw_sweep says which); the hwpoison places
 * visit three pages of a folio of PSW_BIG_PAGES or more (each copies the whole folio).
 */
#define PSW_BIG_PAGES	512
void psw_sweep(const struct psw_env *env, struct psw_table *tab, bool sampled);
unsigned long psw_total(const struct psw_table *tab, enum psw_verdict v);

/* One line of the table for a cell (no newline), and its KTAP parameter name. */
void psw_cell_text(const struct psw_table *tab, enum psw_form f, enum psw_prim p,
		   enum psw_place pl, char *buf, size_t size);
void psw_cell_name(enum psw_form f, enum psw_prim p, enum psw_place pl, char *buf,
		   size_t size);
/* The cell as one JSON record of kind "poison-sweep" (kernel/lib/json.h). */
void psw_cell_json(const struct psw_table *tab, unsigned long npages, enum psw_form f,
		   enum psw_prim p, enum psw_place pl, char *buf, size_t size);
/* The verdicts over all cells as one record of kind "poison-sweep-total". */
void psw_total_json(const struct psw_table *tab, unsigned long npages, bool sampled,
		    u64 steps, char *buf, size_t size);

#endif
