/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dispatch.h - which primitive backs each API on this CPU, decided by Linux's rules.
 *
 *   copy_page()          rep movsq with REP_GOOD, else the unrolled 8-loads/8-stores loop
 *   memcpy()             rep movsb with FSRM, else memcpy_orig
 *   copy_mc_to_kernel()  copy_mc_fragile when a platform quirk or the recovery option
 *                        enables it, else rep movsb with ERMS, else plain memcpy (which
 *                        does not survive a machine check)
 *   clear_page()         rep stosb with ERMS, else rep stosq with REP_GOOD, else unrolled
 *   clear_pages()        Linux 7.0's ALTERNATIVE_2: rep stosb with ERMS, else rep stosq with
 *                        REP_GOOD, else the unrolled loop, each over the whole extent (the
 *                        order of clear_page(), decided on its own)
 *
 * CANDIDATES, not Linux (Linux has no copy_pages(); the batching RFC asks for one):
 *   copy_pages()         written as clear_pages() is: rep movsb with ERMS, else rep movsq
 *                        with REP_GOOD, else the unrolled loop, over the whole extent
 *   copy_pages() FSRM    the same keyed on FSRM instead of ERMS (as memcpy() is)
 *   memcpy() page path   memcpy() with a page-aligned fast path: rep movsb with FSRM (as
 *                        memcpy()); without FSRM a page-aligned, page-multiple copy takes
 *                        copy_page()'s body over the extent (rep movsq with REP_GOOD, else
 *                        the unrolled loop) and anything else memcpy_orig
 *   copy_mc_pages()      machine-check safe, for a batched folio_mc_copy(): the unrolled
 *                        word loop when the fragile key is on (no string instruction), else
 *                        rep movsb with ERMS, else rep movsq with REP_GOOD, else unrolled
 *
 * ERMS and REP_GOOD here are the values after Linux's derivation
 * (kernel/platform/cpufeat.c). Plain C, tested on the host with descriptions of real CPUs.
 */
#ifndef CK_COPY_DISPATCH_H
#define CK_COPY_DISPATCH_H

#include "kernel/include/types.h"

enum copy_page_impl { COPY_PAGE_REP, COPY_PAGE_UNROLLED, NR_COPY_PAGE_IMPL };
enum memcpy_impl { MEMCPY_ERMS, MEMCPY_ORIG, NR_MEMCPY_IMPL };
/* The *_NT and CLZERO members are candidates beyond Linux: only an override selects them. */
enum copy_mc_impl { COPY_MC_FRAGILE, COPY_MC_ERMS, COPY_MC_MEMCPY, COPY_MC_AVX2_NT,
		    COPY_MC_AVX512_NT, NR_COPY_MC_IMPL };
enum clear_page_impl { CLEAR_PAGE_ERMS, CLEAR_PAGE_REP, CLEAR_PAGE_UNROLLED, CLEAR_PAGE_NT,
		       CLEAR_PAGE_CLZERO, NR_CLEAR_PAGE_IMPL };

/* Candidates (see above): the body a copy_pages()-style helper runs. */
enum copy_pages_impl { COPY_PAGES_ERMS, COPY_PAGES_REP, COPY_PAGES_UNROLLED,
		       NR_COPY_PAGES_IMPL };
/* Candidate: memcpy() with the page path; _REP and _UNROLLED fall to memcpy_orig off it. */
enum memcpy_pa_impl { MEMCPY_PA_ERMS, MEMCPY_PA_REP, MEMCPY_PA_UNROLLED, NR_MEMCPY_PA_IMPL };

/* What the rules look at. */
struct dispatch_cpu {
	bool rep_good;		/* derived: AMD family >= 0x10, Intel family 6, fast strings */
	bool erms;		/* after the fast-strings rule */
	bool fsrm;
	bool fragile;		/* copy_mc_fragile enabled: platform quirk or recovery option */
};

struct copy_dispatch {
	enum copy_page_impl copy_page;
	enum memcpy_impl memcpy;
	enum copy_mc_impl copy_mc;
	enum clear_page_impl clear_page;
	enum clear_page_impl clear_pages;	/* Linux 7.0's clear_pages() */
	/* The candidates (not Linux). */
	enum copy_pages_impl copy_pages, copy_pages_fsrm, copy_mc_pages;
	enum memcpy_pa_impl memcpy_pa;
	/* Why each was chosen, as a short phrase ("REP_GOOD", "no FSRM", "override"). */
	const char *copy_page_why, *memcpy_why, *copy_mc_why, *clear_page_why;
	const char *clear_pages_why, *copy_pages_why, *copy_pages_fsrm_why, *copy_mc_pages_why;
	const char *memcpy_pa_why;
};

void dispatch_decide(const struct dispatch_cpu *cpu, struct copy_dispatch *d);
/* A clear_page override: clear_page() and clear_pages() both take @impl, for @why. */
void dispatch_override_clear(struct copy_dispatch *d, enum clear_page_impl impl,
			     const char *why);


/* What the CPU (and the state the kernel enabled) allows beyond the baseline. */
struct dispatch_caps {
	bool avx2, avx512f, clzero;
};
/* NULL when @c can run copy_mc implementation @impl, else the reason it cannot. */
const char *copy_mc_cannot_run(enum copy_mc_impl impl, const struct dispatch_caps *c);
const char *clear_page_cannot_run(enum clear_page_impl impl, const struct dispatch_caps *c);

/* Names as used on the command line and in reports. */
extern const char *const copy_page_impl_names[NR_COPY_PAGE_IMPL];
extern const char *const memcpy_impl_names[NR_MEMCPY_IMPL];
extern const char *const copy_mc_impl_names[NR_COPY_MC_IMPL];
extern const char *const clear_page_impl_names[NR_CLEAR_PAGE_IMPL];
extern const char *const copy_pages_impl_names[NR_COPY_PAGES_IMPL];
extern const char *const memcpy_pa_impl_names[NR_MEMCPY_PA_IMPL];
/* What each implementation is, for the table ("rep movsq", "memcpy_orig (movq)", ...). */
const char *copy_page_impl_desc(enum copy_page_impl i);
const char *memcpy_impl_desc(enum memcpy_impl i);
const char *copy_mc_impl_desc(enum copy_mc_impl i);
const char *clear_page_impl_desc(enum clear_page_impl i);
/* The candidates' bodies ("rep movsb", ...); @mc: the machine-check-safe one's. */
const char *copy_pages_impl_desc(enum copy_pages_impl i, bool mc);
const char *memcpy_pa_impl_desc(enum memcpy_pa_impl i);

#endif
