// SPDX-License-Identifier: GPL-2.0-only
/*
 * names.c - the names tests= and crash= accept, gathered from what tests/ registered.
 */
#include "init/names.h"
#include "ktest/lib/crash.h"
#include "ktest/lib/ktap.h"

const struct cmdline_names *ck_cmdline_names(void)
{
	static const char *suites[KTAP_MAX_SUITES], *crashes[16] = { "none" };
	static struct cmdline_names names;
	const struct ck_suite *const *sl;
	const struct ck_crash *const *cl;
	unsigned int ns, nc;

	if (names.suites)
		return &names;
	ns = MIN(ck_suites_get(&sl), (unsigned int)KTAP_MAX_SUITES);
	nc = MIN(ck_crashes_get(&cl), (unsigned int)ARRAY_SIZE(crashes) - 1);
	for (unsigned int i = 0; i < ns; i++)
		suites[i] = sl[i]->name;
	for (unsigned int i = 0; i < nc; i++)
		crashes[i + 1] = cl[i]->name;
	names = (struct cmdline_names){ suites, ns, crashes, nc + 1 };
	return &names;
}
