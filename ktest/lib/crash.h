/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * crash.h - deliberate unexpected exceptions for testing the panic path (crash= on the
 * command line), and one deliberate test failure for the failed-tests path (crash=fail).
 * Each kind registers itself with CK_CRASH in the linker section ck_crashes.
 */
#ifndef CK_KTEST_LIB_CRASH_H
#define CK_KTEST_LIB_CRASH_H

#include "kernel/include/types.h"

struct ck_crash {
	const char *name;	/* the word crash= takes */
	unsigned int order;	/* position in the list the command line shows */
	void (*fn)(void);	/* raises the exception; returns only if it did not happen */
	bool goes_on;		/* no exception: @fn arms a failure and the run goes on */
};

#define CK_CRASH_KIND(cname, corder, cfn, cgoes_on)			\
	static const struct ck_crash crash_desc_##cname = {		\
		#cname, corder, cfn, cgoes_on				\
	};								\
	static const struct ck_crash *crash_ptr_##cname			\
		__attribute__((used, section("ck_crashes"), aligned(8))) =	\
		&crash_desc_##cname
#define CK_CRASH(cname, corder, cfn)	CK_CRASH_KIND(cname, corder, cfn, false)

/* The registered kinds, sorted by order on the first call; returns how many. */
unsigned int ck_crashes_get(const struct ck_crash *const **list);
/* Say what is about to happen, then raise @c's exception. */
void crash_now(const struct ck_crash *c);

#endif
