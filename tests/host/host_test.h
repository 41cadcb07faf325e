/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * host_test.h - a tiny KTAP-emitting harness for the host unit tests of the kernel's pure C.
 *
 *	static void test_foo(void) { CHECK(x == 1, "x was %d", x); }
 *	int main(void) { return RUN_TESTS(test_foo, test_bar); }
 *
 * Each test function is one KTAP test case; it fails when any CHECK in it fails, and every
 * failed CHECK prints a "# file:line: ..." diagnostic. The exit status is 1 if any case failed.
 * A case that cannot run here says so with SKIP("why") and returns: it is reported
 * "ok N name # SKIP why" (KTAP's skip), unless a CHECK before it failed.
 */
#ifndef CK_HOST_TEST_H
#define CK_HOST_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ht_case_failed;
static unsigned long ht_checks;
static char ht_skip_why[160];

#define CHECK(cond, ...)						\
	do {								\
		ht_checks++;						\
		if (!(cond)) {						\
			ht_case_failed = 1;				\
			printf("# %s:%d: CHECK(%s) failed: ", __FILE__,	\
			       __LINE__, #cond);			\
			printf(__VA_ARGS__);				\
			printf("\n");					\
		}							\
	} while (0)

/* The case cannot run here (a CPU feature, a mapping it needs): say why, then return. */
#define SKIP(...)	snprintf(ht_skip_why, sizeof(ht_skip_why), __VA_ARGS__)

typedef void (*ht_fn)(void);

static inline int ht_run(const char *suite, const char *names, ht_fn *fns, int n)
{
	char buf[4096], *name, *save = NULL;
	int failed = 0, skipped = 0;

	snprintf(buf, sizeof(buf), "%s", names);
	printf("KTAP version 1\n1..%d\n# host test program %s\n", n, suite);
	name = strtok_r(buf, ", ", &save);
	for (int i = 0; i < n; i++) {
		ht_case_failed = 0;
		ht_skip_why[0] = '\0';
		fns[i]();
		printf("%s %d %s", ht_case_failed ? "not ok" : "ok", i + 1, name ? name : "?");
		if (ht_skip_why[0] && !ht_case_failed) {
			printf(" # SKIP %s", ht_skip_why);
			skipped++;
		}
		printf("\n");
		failed += ht_case_failed;
		name = strtok_r(NULL, ", ", &save);
	}
	printf("# %s: %d cases, %d failed, %d skipped, %lu checks\n", suite, n, failed, skipped,
	       ht_checks);
	return failed ? 1 : 0;
}

#define RUN_TESTS(...)							\
	({								\
		ht_fn fns__[] = { __VA_ARGS__ };			\
		ht_run(__FILE__, #__VA_ARGS__, fns__,			\
		       (int)(sizeof(fns__) / sizeof(fns__[0])));	\
	})

#endif
