/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ktap.h - in-image self-tests, reported as KTAP version 1 on the console.
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
 * subtests; the run ends with one "# copykernel-summary:" line a script can grep for.
 */
#ifndef CK_KTAP_H
#define CK_KTAP_H

#include "kernel/types.h"

struct ck_test {
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
	const struct ck_case *cases;
	unsigned int nr_cases;
};

#define CK_SUITE(sname, ...)						\
	static const struct ck_case sname##_cases[] = { __VA_ARGS__ };	\
	const struct ck_suite suite_##sname = {				\
		.name = #sname, .cases = sname##_cases,			\
		.nr_cases = ARRAY_SIZE(sname##_cases),			\
	}

#define CK_CASE(fn)	{ #fn, fn }

enum ktap_result { KTAP_NOT_RUN, KTAP_OK, KTAP_FAIL, KTAP_SKIP };
#define KTAP_MAX_SUITES	32

struct ktap_totals {
	unsigned int suites, cases, pass, fail, skip;
	u8 result[KTAP_MAX_SUITES];	/* enum ktap_result, per suite index */
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

/* Run the suites whose bit is set in @mask and print KTAP; totals go to @tot. */
void ktap_run(const struct ck_suite *const *suites, unsigned int nr, u32 mask,
	      struct ktap_totals *tot);

#endif
