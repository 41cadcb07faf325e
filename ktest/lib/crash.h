/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * crash.h - deliberate unexpected exceptions for testing the panic path (crash= on the
 * command line), one deliberate test failure for the failed-tests path (crash=fail) and a
 * deliberate hang for the harnesses' timeouts (crash=hang). Each kind registers itself with
 * CK_CRASH in the linker section ck_crashes.
 */
#ifndef CK_KTEST_LIB_CRASH_H
#define CK_KTEST_LIB_CRASH_H

#include "kernel/include/types.h"

/* What a kind does instead of raising an exception. */
enum ck_crash_how {
	CRASH_RAISES,		/* raises the exception; @fn returns only if it did not happen */
	CRASH_GOES_ON,		/* no exception: @fn arms a failure and the run goes on */
	CRASH_HANGS,		/* no exception: @fn says so and never returns */
};

struct ck_crash {
	const char *name;	/* the word crash= takes */
	unsigned int order;	/* position in the list the command line shows */
	void (*fn)(void);
	enum ck_crash_how how;
};

#define CK_CRASH_KIND(cname, corder, cfn, chow)				\
	static const struct ck_crash crash_desc_##cname = {		\
		#cname, corder, cfn, chow				\
	};								\
	static const struct ck_crash *crash_ptr_##cname			\
		__attribute__((used, section("ck_crashes"), aligned(8))) =	\
		&crash_desc_##cname
#define CK_CRASH(cname, corder, cfn)	CK_CRASH_KIND(cname, corder, cfn, CRASH_RAISES)

/* The registered kinds, sorted by order on the first call; returns how many. */
unsigned int ck_crashes_get(const struct ck_crash *const **list);
/* Say what is about to happen, then do it (raise @c's exception, arm the failure, hang). */
void crash_now(const struct ck_crash *c);

#endif
