/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ktap.h - in-image self-tests, reported as KTAP version 1 on the console.
 *
 * Suites register themselves with CK_SUITE in the linker section ck_suites (as KUnit's do),
 * so adding a test file adds its suite; the run sorts them by their order number.
 *
 * A suite is a list of cases; a case is a function that makes checks:
 *
 *	static void case_ud(struct ck_test *t)
 *	{
 *		report(t, faulted, "ud2 was caught, vector %d", v);
 *	}
 *
 * A case fails when any check fails (each failure prints a "# file:line: message" line),
 * is skipped with ck_skip(), and may print figures with ck_diag(). Suites are nested KTAP
 * subtests; a failing test of the run itself (the command line's) may follow them at the top
 * level; the run ends with one "# copykernel-summary:" line a script can grep for.
 */
#ifndef CK_KTEST_LIB_KTAP_H
#define CK_KTEST_LIB_KTAP_H

#include "kernel/include/types.h"

struct ck_ctx;

struct ck_test {
	const struct ck_ctx *ctx;	/* ktest/lib/ctx.h: what the case may look at */
	bool failed, skipped;
	unsigned int checks;
	char skip_reason[128];
};

struct ck_case {
	const char *name;
	void (*fn)(struct ck_test *t);
};

struct ck_suite {
	const char *name;
	unsigned int order;		/* suites run in ascending order */
	const struct ck_case *cases;
	unsigned int nr_cases;
};

/*
 * Define and register suite @sname, run at position @sorder among the suites (tests=
 * selects by name; the order keeps the mce suite before the suites that copy memory).
 */
#define CK_SUITE(sname, sorder, ...)					\
	static const struct ck_case sname##_cases[] = { __VA_ARGS__ };	\
	static const struct ck_suite suite_##sname = {			\
		.name = #sname, .order = sorder, .cases = sname##_cases,	\
		.nr_cases = ARRAY_SIZE(sname##_cases),			\
	};								\
	static const struct ck_suite *suite_ptr_##sname			\
		__attribute__((used, section("ck_suites"), aligned(8))) = &suite_##sname

#define CK_CASE(fn)	{ #fn, fn }

enum ktap_result { KTAP_NOT_RUN, KTAP_OK, KTAP_FAIL, KTAP_SKIP };
#define KTAP_MAX_SUITES	32

struct ktap_totals {
	unsigned int suites, cases, pass, fail, skip;
	unsigned int errors;		/* the run's own failing tests (struct ktap_run_test) */
	u8 result[KTAP_MAX_SUITES];	/* enum ktap_result, per suite index */
};

/*
 * A failing test of the run itself, after the suites and in the same KTAP document: the
 * command line's (init/main.c). It prints its @diag lines as top-level diagnostics
 * ("# @name: ..."), then "not ok N @name # ERROR @why" and its LAVA line
 * "# ck-lava <@name fail>". It is no suite and no case of one: the totals count it as
 * error:N (total includes it), never in fail, so fail= stays the tests that failed.
 */
struct ktap_run_test {
	const char *name;
	const char *why;		/* after "# ERROR ": what went wrong, one line */
	const char *const *diag;
	unsigned int nr_diag;
};

bool ck_report(struct ck_test *t, bool cond, const char *file, int line, const char *fmt, ...)
	__printf(5, 6);
#define report(t, cond, ...)	ck_report(t, cond, __FILE__, __LINE__, __VA_ARGS__)

void ck_skip(struct ck_test *t, const char *fmt, ...) __printf(2, 3);

/*
 * Parameterised cases, printed as KUnit prints them: a nested KTAP block with one result
 * per parameter. A failed parameter fails the case.
 */
void ck_params_begin(struct ck_test *t, const char *case_name, unsigned int n);
void ck_param_result(struct ck_test *t, unsigned int idx, bool ok, const char *name);
void ck_diag(const char *fmt, ...) __printf(1, 2);

/*
 * Called after every case (the run prints the machine-check records the case left, so no
 * #MC goes unreported, whoever raised it).
 */
void ktap_set_after_case(void (*fn)(void));

/* The registered suites, sorted by order on the first call; returns how many. */
unsigned int ck_suites_get(const struct ck_suite *const **list);

/*
 * Run the suites whose bit is set in @mask (bit i: suites[i]) and print KTAP; each case gets
 * @ctx; then @run (NULL: none), a failing test of the run itself; totals go to @tot. With no
 * suite and no @run there is no KTAP document at all.
 */
void ktap_run(const struct ck_suite *const *suites, unsigned int nr, u32 mask,
	      const struct ck_ctx *ctx, const struct ktap_run_test *run,
	      struct ktap_totals *tot);

#endif
