/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * copy_pages_answer.h - the table that answers the batching RFC's two questions row by row
 * (bench/copy_pages_answer.c), from the copy_pages preset's measured forms
 * (bench/copy_pages.h says what each form times):
 *
 *   Q1 "Should we introduce copy_pages() infrastructure for folio copy optimisation, or just
 *      patch folio_mc_copy()?"
 *   Q2 "Should folio_copy() and folio_mc_copy() use symmetric primitive selection?"
 *
 * The answers, from the intervals alone ("gains": the interval lies above 1; "a beats b":
 * a's interval lies above b's; intervals of different comparisons share the baseline):
 *
 *   Q1  MC_ONLY     no folio_copy form gains: just patch folio_mc_copy()
 *       COPY_PAGES  a copy_pages candidate (the better of CP_PAGES, CP_PAGES_FSRM) gains and
 *                   beats both the bulk memcpy and the memcpy page path
 *       MEMCPY_PA   else the memcpy page path gains, beats the bulk memcpy and no
 *                   copy_pages candidate beats it: patch memcpy(), no new helper
 *       BULK        else the bulk memcpy gains and nothing beats it: the RFC's memcpy()
 *       TIE         else: batching folio_copy gains, no helper is clearly best
 *   Q2  compares the bodies (the instructions each form ends in):
 *       MOOT        every folio_copy form runs folio_mc_copy's batched body already
 *       NONE        no folio_copy form runs it (folio_mc_copy is fragile, say)
 *       YES         the best folio_copy form running folio_mc_copy's body is not beaten by
 *                   the best folio_copy form of all: selecting alike costs nothing
 *       NO          it is beaten: folio_copy does better with another body
 *   Either is UNKNOWN when a form it needs was not measured.
 */
#ifndef CK_BENCH_COPY_PAGES_ANSWER_H
#define CK_BENCH_COPY_PAGES_ANSWER_H

#include "bench/harness.h"

enum cp_form { CP_BULK, CP_PAGES, CP_PAGES_FSRM, CP_MEMCPY_PA, CP_MC_V3, CP_MC_PAGES,
	       CP_NR_FORMS };
#define CP_NR_COPY_FORMS	CP_MC_V3	/* the folio_copy forms come first */

/* The instructions a form ends in, to tell whether two forms run the same body. */
enum cp_body { BODY_MOVSB, BODY_MOVSQ, BODY_UNROLLED, BODY_ORIG, BODY_FRAGILE, BODY_NT,
	       NR_BODIES };
extern const char *const cp_body_names[NR_BODIES];

/* One row of the answer table: a resolution, a folio size, a mode. */
struct cp_row {
	bool have[CP_NR_FORMS];
	struct ratio q[CP_NR_FORMS];		/* against the API's per-page loop */
	enum cp_body body[CP_NR_FORMS];
};

enum cp_q1 { CP_Q1_MC_ONLY, CP_Q1_COPY_PAGES, CP_Q1_MEMCPY_PA, CP_Q1_BULK, CP_Q1_TIE,
	     CP_Q1_UNKNOWN };
enum cp_q2 { CP_Q2_MOOT, CP_Q2_NONE, CP_Q2_YES, CP_Q2_NO, CP_Q2_UNKNOWN };

struct cp_answer {
	enum cp_q1 q1;
	enum cp_q2 q2;
	enum cp_form best;		/* the folio_copy form with the highest ratio */
	int sym;			/* Q2: the form running folio_mc_copy's body, or -1 */
	bool bulk_regresses;		/* the bulk memcpy's interval lies below 1 */
	bool mc_pages_beats_v3;		/* copy_mc_pages' interval lies above v3's */
};

void cp_answer(const struct cp_row *row, struct cp_answer *a);
const char *cp_q1_text(enum cp_q1 q);
const char *cp_q2_text(enum cp_q2 q);
extern const char *const cp_form_names[CP_NR_FORMS];

/* The answer table: its header, one row, and the row's "copy_pages_answer" record. */
void cp_answer_header(const struct bench_env *env);
void cp_answer_row(const struct bench_env *env, const char *resolution, u64 bytes,
		   enum bench_mode m, const struct cp_row *row);

#endif
