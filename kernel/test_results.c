// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_results.c - storing the run's summary in UEFI variables, through stand-ins for the
 * firmware: a store that refuses (a full variable store, error 9) must be reported as
 * NOT-STORED, and a store over an older, longer result must delete the chunks it no longer
 * uses. The run stores the real summary again after the tests.
 */
#include "kernel/lib/string.h"
#include "kernel/results.h"
#include "tests/ctx.h"
#include "tests/ktap.h"

static int refuse(const char *name, const void *data, size_t size)
{
	return 9;	/* EFI_OUT_OF_RESOURCES: the variable store is full */
}

static struct {
	unsigned int writes, deletes;
	bool deleted[RESULTS_MAX_CHUNKS];
} seen;

static int record(const char *name, const void *data, size_t size)
{
	const char *p = name + strlen("CopykernelResult");

	if (strncmp(name, "CopykernelResult", 16) || *p < '0' || *p > '9')
		return 2;
	if (size) {
		seen.writes++;
	} else {
		seen.deletes++;
		if ((unsigned int)(*p - '0') < RESULTS_MAX_CHUNKS)
			seen.deleted[*p - '0'] = true;
	}
	return 0;
}

static void store_refused_is_reported(struct ck_test *t)
{
	char word[32];
	int err = 0;

	results_set_store_fn(refuse);
	results_store(0);
	results_set_store_fn(NULL);
	report(t, results_state(&err) == RESULTS_FAILED && err == 9,
	       "a refused store is recorded (state %d, error %d)", results_state(NULL), err);
	results_state_word(word, sizeof(word));
	report(t, !strcmp(word, "NOT-STORED(error-9)"), "the summary line says '%s'", word);
}

static void stale_chunks_deleted(struct ck_test *t)
{
	bool all = true;
	char word[32];

	memset(&seen, 0, sizeof(seen));
	results_set_store_fn(record);
	results_store(0);
	results_set_store_fn(NULL);
	for (unsigned int i = seen.writes; i < RESULTS_MAX_CHUNKS; i++)
		all &= seen.deleted[i];
	report(t, seen.writes >= 1 && seen.writes + seen.deletes == RESULTS_MAX_CHUNKS && all,
	       "%u chunks written, the %u after them deleted", seen.writes, seen.deletes);
	results_state_word(word, sizeof(word));
	report(t, !strcmp(word, "stored"), "then the summary line says '%s'", word);
}

CK_SUITE(results, 95,
	 CK_CASE(store_refused_is_reported),
	 CK_CASE(stale_chunks_deleted));
